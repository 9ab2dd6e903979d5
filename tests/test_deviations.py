"""docs/deviations.md is what `python -m analysis.presentation.deviations` writes from today's configs."""

from __future__ import annotations

from pathlib import Path

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
