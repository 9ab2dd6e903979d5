"""`b3o scaling`: real child processes on a tiny model; what is measured, what is skipped and why."""

from __future__ import annotations

import argparse
import json

import pandas as pd
import pytest

from bench import cli, scaling
from bench.records import SCALING_COLUMNS
from bench.scaling import ScalingSpec, predicted_over_cap, run


@pytest.mark.long  # a child process per configuration, each importing TensorFlow: CI runs it (docs/testing.md)
def test_scaling_measures_every_batch_size_under_the_cap(tmp_path):
    out = tmp_path / "scaling.csv"
    spec = ScalingSpec(
        problem="branin2",
        batch_sizes=(4, 1),
        methods=("b3o",),
        num_data=20,
        model={"num_inducing": 10, "maxiter": 20},
        repeats=2,
        time_cap=30.0,
        samplers=("dmc",),
        sampler_options={"dmc": {"num_points": 256}},
    )
    run(spec, out)
    table = pd.read_csv(out)
    assert list(table.columns) == list(SCALING_COLUMNS)
    assert set(table["acquisition"]) == {"ucb", "logei"} and set(table["sampler"]) == {"dmc"}
    assert len(table) == 4 and table["skipped"].isna().all() and (table["repeats"] == 2).all()
    assert (table["seconds_min"] <= table["seconds_median"]).all() and (table["peak_rss_mb"] > 0).all()
    assert (table["num_acquisition_evals"] >= 256).all()
    assert list(table["batch_size"]) == [1, 4, 1, 4]  # ascending within each configuration


def test_the_workflow_spec_uses_the_trials_model_and_the_flags_still_work(tmp_path):
    config = {
        "defaults": {"model": {"kind": "svgp", "num_inducing": 64, "maxiter": 50}},
        "scaling": {"enabled": True, "problem": "hartmann6", "batch_sizes": [1, 10], "num_inducing": 500, "repeats": 1},
    }
    spec = ScalingSpec.from_config(config)
    assert spec.model == {"kind": "svgp", "num_inducing": 500, "maxiter": 50}
    assert spec.batch_sizes == (1, 10) and spec.repeats == 1 and spec.methods == ScalingSpec().methods
    assert ScalingSpec.from_dict(json.loads(json.dumps(spec.to_dict()))) == spec  # what the child receives

    parser = argparse.ArgumentParser()
    scaling.register(parser.add_subparsers())
    inline = json.dumps(spec.to_dict())
    args = parser.parse_args(["scaling", "--spec", inline, "--repeats", "3", "--num-inducing", "8", "--out", "x.csv"])
    overridden = scaling.spec_from_arguments(args)
    assert overridden.repeats == 3 and overridden.model == {**spec.model, "num_inducing": 8}
    args = parser.parse_args(["scaling", "--methods", "ts", "--out", "x.csv"])
    assert scaling.spec_from_arguments(args) == ScalingSpec(methods=("ts",))


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--problem", "nope"], "unknown problem"),
        (["--batch-sizes", "0"], "must be >= 1"),
        (["--spec", '{"repeat": 2}'], "unknown scaling keys ['repeat']"),
        (["--spec", '{"model": {"maxiter": 0}}'], "maxiter >= 1"),
    ],
)
def test_bad_scaling_input_is_one_error_and_exit_2(tmp_path, capsys, flags, message):
    assert cli.main(["scaling", *flags, "--out", str(tmp_path / "s.csv")]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "s.csv").exists()


def test_batch_sizes_predicted_over_the_cap_are_skipped_with_the_reason():
    # TS-like: 1.6 s at B = 1, 4.2 s at B = 10 -> about 30 s at B = 100
    assert predicted_over_cap([(1, 1.6), (10, 4.2)], 100, 60.0) is None
    assert "about 30 s > time cap 20 s" in predicted_over_cap([(1, 1.6), (10, 4.2)], 100, 20.0)
    # a fixed cost (Langevin: 2.7 s at B = 1, 3.2 s at B = 10) is not mistaken for a per-point cost
    assert predicted_over_cap([(1, 2.7), (10, 3.2)], 1000, 60.0) is None
    assert predicted_over_cap([(1, 100.0)], 10, 60.0) is None  # one point predicts nothing
