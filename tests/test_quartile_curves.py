"""Regret curves show the median seed and the interquartile range by default (analysis.figures.common.quartiles),
so one far seed does not carry a curve on a log axis, and the figures say which summary they draw."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.figures import anytime, common, regret


def _trials(far: float) -> pd.DataFrame:
    """Five seeds of one method, one of them `far` at every iteration, the rest at 0.01 .. 0.05."""
    rows = [
        {"experiment": "e", "problem": "ackley5", "label": "TS", "trial_id": f"t{seed}", "seed": seed, "iteration": t,
         "num_evals": 10 * (t + 1), "simple_regret": far if seed == 4 else 0.01 * (seed + 1)}
        for seed in range(5) for t in range(3)
    ]
    return pd.DataFrame(rows)


def test_a_far_seed_moves_neither_the_median_nor_the_quartiles():
    near, far = (common.quartiles(_trials(v), ["label"], "simple_regret", "iteration") for v in (0.06, 1000.0))
    assert np.allclose(near[["lo", "mean"]], far[["lo", "mean"]])
    assert near["mean"].iloc[0] == 0.03 and near["lo"].iloc[0] == 0.02 and far["hi"].iloc[0] == 0.04
    assert (far["n"] == 5).all()
    assert common.quartiles(_trials(1.0).iloc[:0], ["label"], "simple_regret", "iteration").empty


def test_the_regret_and_anytime_views_draw_quartiles_and_say_so():
    table = _trials(1000.0)
    curves = regret.regret_curves(table, "e")
    assert curves["mean"].max() < 1.0  # the median, which the far seed does not reach
    title = regret.draw(curves, f"Simple regret: {common.QUARTILES}").get_suptitle()
    assert "median" in title
    metric = anytime.metric_curves(table.assign(metric="simple_regret", value=table["simple_regret"]), "evaluated")
    assert metric["mean"].max() < 1.0
