"""The family-wise error of the engine's α split across planned looks (`analysis.statistics.familywise`) and the
re-decision of published runs without rewriting them (`analysis.presentation.verdicts_moved`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis.statistics import familywise, sequential, verdicts
from analysis.statistics.verdicts import ALPHA

ROOT = Path(__file__).resolve().parents[1]


def test_a_claim_errs_once_any_comparison_is_decided_at_any_look():
    levels = np.array([0.02, 0.03])
    p = np.array([
        [[0.5, 0.5], [0.5, 0.5]],  # nothing decided
        [[0.01, 0.5], [0.5, 0.5]],  # Holm at look 1: 2 × 0.01 = 0.02, not below 0.02
        [[0.009, 0.5], [0.5, 0.5]],  # 2 × 0.009 = 0.018 < 0.02: decided at look 1
        [[0.5, 0.5], [0.5, 0.014]],  # look 2: 2 × 0.014 = 0.028 < 0.03
        [[0.5, 0.5], [0.5, 0.016]],  # 0.032 ≥ 0.03: open to the end
    ])
    assert familywise.familywise(p, (10, 20), levels).tolist() == [False, False, True, True, False]
    # a look whose seeds cannot reach its level decides nothing (2^(1−5) = 0.0625)
    assert familywise.familywise(np.full((1, 1, 1), 1e-6), (5,), np.array([ALPHA])).tolist() == [False]


def test_the_simulation_reads_the_engines_levels_and_test():
    frame = familywise.simulate(12)
    assert list(frame["looks"].unique()) == [",".join(map(str, plan)) for plan in familywise.PLANS]
    assert set(frame["family"]) == set(familywise.FAMILIES) and (frame["replications"] == 12).all()
    levels = sequential.nominal(familywise.PLANS[1], spending=sequential.CLAIMS_SPENDING)
    assert frame["levels"].iloc[len(familywise.FAMILIES)] == ",".join(f"{x:.4g}" for x in levels)
    assert frame["familywise_error"].between(0, 1).all()
    se = np.sqrt(frame["familywise_error"] * (1 - frame["familywise_error"]) / 12)
    assert frame["mc_se"].to_numpy() == pytest.approx(se.to_numpy())


def test_the_committed_familywise_table_is_near_alpha():
    table = pd.read_csv(ROOT / "paper/tables/familywise.csv")
    assert (table["familywise_error"] <= ALPHA + 4 * table["mc_se"]).all(), table
    assert verdicts.ALPHA == ALPHA


def test_verdicts_moved_compares_a_published_run_without_rewriting_it(capsys):
    from analysis.presentation import verdicts_moved

    run = "paper/large_batch_m500"
    before = {path: (ROOT / path).read_bytes() for path in map(str, verdicts_moved.run_tables(run)[1:])}
    config = verdicts_moved.yaml.safe_load((ROOT / "config/large_batch_m500.yaml").read_text())
    import os

    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        found = verdicts_moved.moved(run, config)
        assert verdicts_moved.main(["--runs", "paper/nowhere"]) == 2
    finally:
        os.chdir(cwd)
    assert list(found.columns) == ["run", "claim", "comparison", "published", "now"]
    assert (found["published"] != found["now"]).all()
    assert "not runs of workflow/site.yaml: paper/nowhere" in capsys.readouterr().err
    assert before == {path: (ROOT / path).read_bytes() for path in before}
