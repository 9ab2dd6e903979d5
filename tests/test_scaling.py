"""`b3o scaling`: real child processes on a tiny model; what is measured, what is skipped and why."""

from __future__ import annotations

import pandas as pd

from baselines.scaling import COLUMNS, run


def test_scaling_measures_then_skips_batch_sizes_predicted_over_the_cap(tmp_path):
    out = tmp_path / "scaling.csv"
    run(
        "branin2",
        [1, 4, 10**7],
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
    measured = table[table["batch_size"] < 10**7]
    assert measured["skipped"].isna().all() and (measured["repeats"] == 2).all()
    assert (measured["seconds_min"] <= measured["seconds_median"]).all() and (measured["peak_rss_mb"] > 0).all()
    assert (measured["num_acquisition_evals"] >= 256).all()
    huge = table[table["batch_size"] == 10**7]
    assert huge["seconds_min"].isna().all()
    assert huge["skipped"].str.contains("would take at least").all()
