"""`b3o scaling`: real child processes on a tiny model; what is measured, what is skipped and why."""

from __future__ import annotations

import pandas as pd

from baselines.scaling import COLUMNS, predicted_over_cap, run


def test_scaling_measures_every_batch_size_under_the_cap(tmp_path):
    out = tmp_path / "scaling.csv"
    run(
        "branin2",
        [1, 4],
        ["b3o"],
        out,
        num_data=20,
        num_inducing=10,
        repeats=2,
        time_cap=30.0,
        samplers=["dmc"],
        sampler_options={"dmc": {"num_points": 256}},
    )
    table = pd.read_csv(out)
    assert list(table.columns) == list(COLUMNS)
    assert set(table["acquisition"]) == {"ucb", "logei"} and set(table["sampler"]) == {"dmc"}
    assert len(table) == 4 and table["skipped"].isna().all() and (table["repeats"] == 2).all()
    assert (table["seconds_min"] <= table["seconds_median"]).all() and (table["peak_rss_mb"] > 0).all()
    assert (table["num_acquisition_evals"] >= 256).all()


def test_batch_sizes_predicted_over_the_cap_are_skipped_with_the_reason():
    # TS-like: 1.6 s at B = 1, 4.2 s at B = 10 -> about 30 s at B = 100
    assert predicted_over_cap([(1, 1.6), (10, 4.2)], 100, 60.0) is None
    assert "about 30 s > time cap 20 s" in predicted_over_cap([(1, 1.6), (10, 4.2)], 100, 20.0)
    # a fixed cost (Langevin: 2.7 s at B = 1, 3.2 s at B = 10) is not mistaken for a per-point cost
    assert predicted_over_cap([(1, 2.7), (10, 3.2)], 1000, 60.0) is None
    assert predicted_over_cap([(1, 100.0)], 10, 60.0) is None  # one point predicts nothing
