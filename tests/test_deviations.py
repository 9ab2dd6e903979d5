"""docs/deviations.md is what `python -m analysis.presentation.deviations` writes from today's configs."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import yaml

from analysis.presentation import deviations

ROOT = Path(__file__).resolve().parents[1]


def test_the_committed_page_is_generated_from_today_s_configs():
    assert (ROOT / deviations.OUT).read_text() == deviations.page(ROOT), "rerun python -m analysis.presentation.deviations"


def test_a_setting_is_read_from_its_config_and_marked_where_it_differs():
    config = yaml.safe_load((ROOT / "config/extended.yaml").read_text())
    by_name = {(s.experiment, s.name): s for s in deviations.SETTINGS}
    seq_ei = by_name["synthetic_b100", "Seq-EI steps"]
    assert deviations.ours(config, seq_ei) == 50 and deviations._cell(50, seq_ei.paper) == "**50**"
    nsga = by_name["battery", "NSGA-II evaluations (B × T)"]
    assert deviations.ours(config, nsga) == 50 * 40
    b5 = by_name["synthetic_b5", "batch size B"]
    assert deviations.ours(yaml.safe_load((ROOT / "config/config.yaml").read_text()), b5) is None
    assert deviations._cell(None, 5) == "not run" and deviations._cell(5, 5) == "5"


def test_the_large_batch_bullet_states_the_check_of_m_once_it_has_run(tmp_path):
    """config/large_batch_m500.yaml's outcome (analysis.tables.m_check's table) joins its bullet: nothing before the
    check has run, its answer and the interval of a500 − a64 after."""
    from test_m_check import B3O, TS, _tidy

    from analysis.statistics import verdicts
    from analysis.tables.m_check import check, final_regrets

    assert deviations.m_check_outcome(tmp_path) == ""
    (tmp_path / deviations.M_CHECK).parent.mkdir(parents=True)
    pd.DataFrame({"note": ["Fewer than two seeds of m_check with all four settings"]}).to_csv(
        tmp_path / deviations.M_CHECK, index=False)  # what analysis.tables.m_check writes before the trials are in
    assert deviations.m_check_outcome(tmp_path) == ""
    at_64 = [b + 0.0005 * (-1) ** i for i, b in enumerate(B3O)]
    check(final_regrets(_tidy(B3O, TS, at_64, TS)), verdicts.FAILS).to_csv(tmp_path / deviations.M_CHECK, index=False)
    text = deviations.m_check_outcome(tmp_path)
    assert "M changes the answer, so the large-batch run's verdicts are those of M = 64 only" in text
    assert re.search(r"Over 6 seeds the advantage over TS moved by \S+ \[\S+, \S+\] from M = 64 to M = 500 \(", text)
    assert f"is {verdicts.HOLDS} where the M = 64 run's verdict is {verdicts.FAILS}." in text
