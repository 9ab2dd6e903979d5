"""Every pre-registered reading's rule is older in git than the first commit that analyses its records: the first
commit of the rule (a config written before its run, or a rule file) against the first commit of the run's published
table that holds those records (`-G`: the first version with a line matching the records' pattern)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]

#: (what, the rule, the published table that first analyses its records, a pattern of their lines or None: any line)
PREREGISTERED = [
    ("robust readings, Shekel-4 at the paper's horizon", "analysis/statistics/robust_readings.yaml",
     "paper/large_batch/tables/per_trial.csv", r"^synthetic_b100,[0-9a-f]+,[^,]+,shekel4,"),
    ("typical-seed check on look 2's seeds", "analysis/tables/typical_ratio.py",
     "paper/large_batch/tables/per_trial.csv", r",31[0-9],simple_regret,"),
    ("its replication on look 3's seeds", "analysis/tables/typical_ratio.py",
     "paper/large_batch/tables/typical_ratio_look3.csv", None),
    ("does M change the answer (M = 500)", "config/large_batch_m500.yaml",
     "paper/large_batch_m500/tables/per_trial.csv", None),
    ("collapsed fit at M = 500", "config/collapsed_fit_m500.yaml", "paper/collapsed_fit_m500/tables/per_trial.csv", None),
    ("collapsed fit at M = 500, on fresh seeds", "config/collapsed_fit_m500_confirm.yaml",
     "paper/collapsed_fit_m500_confirm/tables/per_trial.csv", None),
    ("the automatic temperatures", "config/auto_temperature.yaml", "paper/auto_temperature/tables/per_trial.csv", None),
    ("claim 12 on fresh seeds", "config/battery_temperature.yaml", "paper/battery_temperature/tables/per_trial.csv",
     None),
    ("the fresh-seed confirmation of the paper horizon", "analysis/statistics/confirmation.yaml",
     "paper/large_batch_confirm/tables/per_trial.csv", None),
]


def _first(*args: str) -> pd.Timestamp | None:
    out = subprocess.run(["git", "log", "--format=%cI", *args], cwd=ROOT, capture_output=True, text=True)
    if out.returncode != 0:
        pytest.skip("not a git checkout with history")
    dates = out.stdout.split()
    return pd.Timestamp(dates[-1]) if dates else None


@pytest.mark.parametrize("what, rule, table, pattern", PREREGISTERED, ids=[p[0] for p in PREREGISTERED])
def test_the_rule_predates_the_first_analysis_of_its_records(what, rule, table, pattern):
    ruled = _first("--diff-filter=A", "--", rule)
    if ruled is None:
        pytest.skip("not a git checkout with history")
    analysed = _first(*(["-G", pattern] if pattern else ["--diff-filter=A"]), "--", table)
    if analysed is None:  # not analysed yet: then no analysis of them may sit uncommitted in the checkout either
        assert not (ROOT / table).is_file(), f"{table} exists but was never committed"
        return
    assert ruled < analysed, f"{what}: rule {ruled}, first analysis {analysed}"
