"""Fragility readings (analysis.claims.fragility): the Wilcoxon reading swaps only the tests and puts them back,
a seed left out shortens the looks that held it, and every published claims.md says which verdicts are fragile."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from scipy import stats

from analysis.claims import fragility
from analysis.presentation import fragile_marks
from analysis.statistics import verdicts

ROOT = Path(__file__).resolve().parents[1]
RUNS = list(yaml.safe_load((ROOT / fragile_marks.SITE).read_text())["runs"])


def test_the_wilcoxon_reading_swaps_the_deciding_tests_and_restores_them():
    d = np.array([0.3, -0.1, 0.5, 0.7, 0.2, 0.9, -0.2, 0.4, 0.6, 0.8])
    engine = verdicts.two_sided(d, 0.0)
    with fragility.wilcoxon_tests():
        assert verdicts.two_sided(d, 0.0) == pytest.approx(stats.wilcoxon(d).pvalue)
        assert verdicts.margin_one_sided(d, "greater") == pytest.approx(stats.wilcoxon(d, alternative="greater").pvalue)
    assert verdicts.two_sided(d, 0.0) == engine


def test_leaving_out_a_seed_shortens_the_looks_that_held_it():
    table = pd.DataFrame({"experiment": ["e"] * 30 + ["f"], "seed": [*range(300, 330), 300]})
    kept, looks = fragility.without(table, "e", 303, {"e": (10, 20, 30)})
    assert looks == {"e": (9, 19, 29)} and 303 not in set(kept.loc[kept["experiment"] == "e", "seed"])
    assert len(kept) == 30  # 29 of e and f's one row: another experiment keeps its seeds
    _, later = fragility.without(table, "e", 325, {"e": (10, 20, 30)})
    assert later == {"e": (10, 20, 29)}


def test_the_paper_horizon_runs_fragile_claims_are_the_ones_one_seed_moves():
    """Claims 1 and 7 of paper/large_batch (inconclusive) do not hold without seed 303 or by Wilcoxon."""
    table = fragile_marks.read(ROOT / "paper/large_batch").set_index("name")
    for name in ("b3o_beats_ts_b100", "constant_beats_ts"):
        assert table.loc[name, "fragile"]
        assert "303: does not hold" in table.loc[name, "without_one_seed"]


@pytest.mark.parametrize("run", RUNS)
def test_every_claims_md_says_which_verdicts_are_fragile(run):
    frame = fragile_marks.read(ROOT / run)
    text = (ROOT / run / "claims.md").read_text()
    assert fragile_marks.block(frame) in text, f"rerun python -m analysis.presentation.fragile_marks --run {run}"
    published = pd.read_csv(ROOT / run / "claims.csv").set_index("name")["verdict"]
    for r in frame.itertuples():  # the readings are of the verdicts as published
        assert published[r.name] == r.verdict
