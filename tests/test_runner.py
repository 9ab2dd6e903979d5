"""The trial runner: valid records, determinism, resume after a crash, bad specs refused early."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import baselines
from bench.records import (
    ADDED_KEYS,
    RECORD_KEYS,
    TIMING_KEYS,
    TRACE_KEYS,
    TRACE_SCALARS,
    record_platform,
    same_run,
    stable,
)
from bench.runner import run_trial
from bench.spec import TrialSpec, validate
from problems.design import initial_design

TINY = {
    "problem": "forrester1",
    "method": "b3o",
    "params": {"acquisition": "logei", "sampler": "defer", "sampler_options": {"budget": 300}},
    "batch_size": 4,
    "iterations": 3,
    "n_init": 6,
    "seed": 0,
    "model": {"num_inducing": 10, "maxiter": 20},
}


@pytest.fixture(scope="module")
def tiny_trial(tmp_path_factory) -> tuple[dict, Path]:
    """TINY's record and where it was written, run once for the tests that only read it (a trial's record is the same
    at every run apart from its times: `test_same_spec_same_record_apart_from_times`)."""
    path = tmp_path_factory.mktemp("tiny") / "r.json"
    return run_trial(TINY, path), path


@pytest.fixture
def tiny_record(tiny_trial) -> dict:
    return copy.deepcopy(tiny_trial[0])


def test_record_has_the_documented_fields(tiny_trial):
    record, path = tiny_trial
    assert json.loads(path.read_text()) == record
    assert record["trial_id"] == TrialSpec.from_dict(TINY).trial_id
    assert tuple(record) == RECORD_KEYS  # the names `analysis.data.tidy` reads
    assert record["provenance"]["versions"]["trieste"] == "4.6.1"
    trace = record["trace"]
    assert [r["iteration"] for r in trace] == [0, 1, 2, 3]
    assert [r["num_evals"] for r in trace] == [6, 10, 14, 18]
    for row in trace:
        # the initial design (t = 0) has no fit, no ask and no checkpoint before it; io_s is set after the record
        absent = {"io_s", "fit_cpu_s", "acquire_cpu_s"} if row["iteration"] == 0 else {"io_s"}
        assert set(TRACE_SCALARS) - absent - {"model_objective", "hypervolume"} <= set(row)
        assert set(TRACE_KEYS) <= set(row) and set(TIMING_KEYS) - absent <= set(row)
        assert np.all((np.array(row["points"]) >= 0) & (np.array(row["points"]) <= 1))
    assert all(r["cpu_s"] > 0 for r in trace[1:])  # a fit and an ask cost this process CPU time
    assert all(0 < r["fit_cpu_s"] + r["acquire_cpu_s"] <= r["cpu_s"] for r in trace[1:])  # parts of the iteration's
    # the process's first trial pays its start-up (imports cost CPU time), a later one in the same process none
    assert (record["startup_cpu_s"] > 0) == (record["startup_s"] > 0) and record["startup_cpu_s"] >= 0
    best = [r["best_value"] for r in trace]
    assert best == sorted(best)  # maximisation: the best noiseless value never decreases
    assert all(r["simple_regret"] >= 0 for r in trace)
    assert trace[-1]["simple_regret"] == pytest.approx(record["problem"]["optimum"] - best[-1])
    assert trace[1]["diagnostics"]["sampler"] == "defer" and trace[1]["model_objective"] is not None
    assert not path.with_name("r.json.checkpoint.npz").exists()


def test_same_spec_same_record_apart_from_times(tmp_path, tiny_record):
    assert stable(run_trial(TINY, tmp_path / "b.json")) == stable(tiny_record)


def _recommendation_among(record, evals, score):
    """The (value, regret) of the evaluated point, of the first `evals`, that minimises `score(values,
    observations)`."""
    values = np.concatenate([r["values"] for r in record["trace"]])[:evals, 0]
    observations = np.concatenate([r["observations"] for r in record["trace"]])[:evals, 0]
    value = values[np.argmin(score(values, observations))]
    return value, abs(record["problem"]["optimum"] - value)


def test_each_fit_s_outcome_and_the_recommended_point_are_recorded(tiny_record):
    record = tiny_record
    trace, values = record["trace"], np.concatenate([r["values"] for r in record["trace"]])[:, 0]
    assert not set(ADDED_KEYS) & set(trace[0])  # the initial design has no fit and no recommendation
    for before, row in zip(trace, trace[1:]):
        fit = row["fit"]
        assert min(fit["lengthscales"]) > 0 and fit["kernel_variance"] > 0
        assert fit["likelihood_variance"] == pytest.approx(0.01) and np.isfinite(fit["loss"])
        assert isinstance(fit["steps"], int) and 0 < fit["steps"] <= TINY["model"]["maxiter"]
        assert isinstance(fit["stopped"], str) and fit["stopped"]
        # chosen among the data the fit saw (before this row's batch): one of those points, with its regret
        assert row["recommended_evals"] == before["num_evals"]
        assert row["recommended_value"] in values[: before["num_evals"]]
        assert row["recommended_regret"] == abs(record["problem"]["optimum"] - row["recommended_value"])
    final = record["final_recommendation"]
    assert final["evals"] == trace[-1]["num_evals"] and final["value"] in values
    assert final["regret"] == abs(record["problem"]["optimum"] - final["value"])


def largest_observation(values: np.ndarray, observations: np.ndarray) -> np.ndarray:
    return -observations  # forrester1 is maximised


def test_without_a_model_the_best_observation_is_recommended(tmp_path):
    record = run_trial({**TINY, "method": "random", "params": {}}, tmp_path / "random.json")
    for row in record["trace"][1:]:
        assert "fit" not in row
        value, regret = _recommendation_among(record, row["recommended_evals"], largest_observation)
        assert (row["recommended_value"], row["recommended_regret"]) == (value, regret)
    final = record["final_recommendation"]
    assert (final["value"], final["regret"]) == _recommendation_among(record, final["evals"], largest_observation)
    assert final["evals"] == record["trace"][-1]["num_evals"]


def test_a_record_made_before_the_added_keys_matches_its_rerun(tiny_record):
    record = tiny_record
    old = {k: v for k, v in record.items() if k not in ADDED_KEYS}
    old["trace"] = [{k: v for k, v in row.items() if k not in ADDED_KEYS} for row in record["trace"]]
    assert stable(old) != stable(record) and same_run(old, record) and same_run(record, old)
    changed_fit = json.loads(json.dumps(record))
    changed_fit["trace"][1]["fit"]["steps"] += 1
    assert not same_run(changed_fit, record)  # a key both records have is compared
    changed_trace = json.loads(json.dumps(old))
    changed_trace["trace"][1]["best_value"] += 1e-12
    assert not same_run(changed_trace, record)


def test_a_record_made_before_the_resamplers_counted_their_moves_matches_its_rerun():
    """`repeated_picks` and `move_evals` live in a row's diagnostics: an older record without them still matches."""
    row = {"num_evals": 10, "best_value": 1.0, "diagnostics": {"ess": 3.0, "repeated_picks": 0, "move_evals": 0}}
    new = {"spec": {}, "trial_id": "t", "problem": "p", "trace": [row]}
    old = json.loads(json.dumps(new))
    for key in ("repeated_picks", "move_evals"):
        del old["trace"][0]["diagnostics"][key]
    assert same_run(old, new) and same_run(new, old)
    moved = json.loads(json.dumps(new))
    moved["trace"][0]["diagnostics"]["move_evals"] = 5
    assert not same_run(moved, new)  # compared where both records have it


def test_every_method_sees_the_same_initial_design(tmp_path, tiny_record):
    b3o = tiny_record
    rnd = run_trial({**TINY, "method": "random", "params": {}}, tmp_path / "random.json")
    assert b3o["trace"][0]["points"] == rnd["trace"][0]["points"]
    assert b3o["trace"][1]["points"] != rnd["trace"][1]["points"]


def test_resume_after_a_crash_gives_the_uninterrupted_record(tmp_path, monkeypatch, tiny_record):
    reference = tiny_record
    method_cls = baselines.method_class("b3o")
    original = method_cls.ask

    def crash_at_3(self, models, dataset, t):
        if t == 3:
            raise KeyboardInterrupt("killed")
        return original(self, models, dataset, t)

    monkeypatch.setattr(method_cls, "ask", crash_at_3)
    with pytest.raises(KeyboardInterrupt):
        run_trial(TINY, tmp_path / "resumed.json")
    assert (tmp_path / "resumed.json.checkpoint.npz").exists() and not (tmp_path / "resumed.json").exists()
    monkeypatch.setattr(method_cls, "ask", original)
    resumed = run_trial(TINY, tmp_path / "resumed.json")  # a fresh method and model, restored from the checkpoint
    assert stable(resumed) == stable(reference)
    assert "segments" not in resumed["provenance"]  # resumed by the same code on the same platform
    # a complete record is returned at once, and a different spec cannot overwrite it
    assert run_trial(TINY, tmp_path / "resumed.json") == resumed
    with pytest.raises(ValueError, match="holds trial"):
        run_trial({**TINY, "seed": 1}, tmp_path / "resumed.json")


def test_a_trial_resumed_on_another_platform_names_both_in_its_record(tmp_path, monkeypatch):
    """A checkpoint carried to another machine (`b3o archive --unfinished`) resumes there; the record says which
    platform made which iterations, and its tables' platform is neither one alone (no single platform reproduces it)."""
    import bench.runner as runner

    method_cls = baselines.method_class("b3o")
    original = method_cls.ask

    def crash_at_2(self, models, dataset, t):
        if t == 2:
            raise KeyboardInterrupt("the sitting ended")
        return original(self, models, dataset, t)

    monkeypatch.setattr(method_cls, "ask", crash_at_2)
    with pytest.raises(KeyboardInterrupt):
        run_trial(TINY, tmp_path / "r.json")
    monkeypatch.setattr(method_cls, "ask", original)
    here = runner.provenance()
    monkeypatch.setattr(runner, "provenance", lambda: {**here, "platform_id": "elsewhere"})
    record = run_trial(TINY, tmp_path / "r.json")
    segments = record["provenance"]["segments"]
    assert [(s["from_iteration"], s["platform_id"]) for s in segments] == [(0, here["platform_id"]), (2, "elsewhere")]
    assert segments[0]["git_sha"] == here["git_sha"]
    assert record_platform(record) == f"{here['platform_id']}+elsewhere"


def test_initial_design_is_space_filling_and_seeded():
    import problems

    problem = problems.get("branin2")
    a, b = initial_design(problem, 32, 5), initial_design(problem, 32, 5)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, initial_design(problem, 32, 6))
    # a Sobol design has a point in each of the 4 x 4 cells far more evenly than chance
    cells = np.floor(a * 4).astype(int)
    assert len({tuple(c) for c in cells}) >= 14


@pytest.mark.parametrize(
    "change, message",
    [
        ({"batch_size": 0}, "batch_size must be an integer >= 1"),
        ({"iterations": 0}, "iterations must be an integer >= 1"),
        ({"method": "magic"}, "valid methods:"),
        ({"problem": "rosenbrock"}, "valid problems:"),
        ({"params": {"lam": 0}}, "finite positive number"),
        ({"params": {"lam": -1}}, "finite positive number"),
        ({"params": {"sampler": "gibbs"}}, "valid samplers:"),
        ({"params": {"temperature": "hot"}}, "valid temperatures:"),
        ({"params": {"colour": "red"}}, r"unknown parameter\(s\) \['colour'\] for method 'b3o'"),
        ({"model": {"kind": "forest"}}, "valid kinds:"),
        ({"bogus": 1}, "unknown spec keys"),
    ],
)
def test_bad_specs_are_refused_before_any_model(change, message):
    spec = {**TINY, **change}
    with pytest.raises(ValueError, match=message):
        validate(TrialSpec.from_dict(spec))


def test_cli_bad_spec_is_one_clear_error_and_exit_2(tmp_path):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({**TINY, "params": {"lam": -2}}))
    result = subprocess.run(
        [sys.executable, "-m", "bench.cli", "run-trial", "--spec", str(spec), "--out", str(tmp_path / "r.json")],
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if k != "TF_CPP_MIN_LOG_LEVEL"},  # as a user's shell has it
    )
    assert result.returncode == 2
    # one line: TensorFlow's start-up chatter (which its log level does not silence) is filtered as `import b3o` does
    assert result.stderr.strip().splitlines() == ["b3o run-trial: error: lambda must be a finite positive number, got -2"]
    assert not (tmp_path / "r.json").exists()


def test_cli_flags_override_the_spec_and_run(tmp_path):
    spec = tmp_path / "spec.yaml"
    spec.write_text("\n".join(f"{k}: {json.dumps(v)}" for k, v in {**TINY, "method": "random", "params": {}}.items()))
    result = subprocess.run(
        [sys.executable, "-m", "bench.cli", "run-trial", "--spec", str(spec), "--out", str(tmp_path / "r.json"),
         "--iterations", "2", "--param", "x=1"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2 and "unknown parameter(s) ['x'] for method 'random'" in result.stderr
    result = subprocess.run(
        [sys.executable, "-m", "bench.cli", "run-trial", "--spec", str(spec), "--out", str(tmp_path / "r.json"),
         "--iterations", "2", "--seed", "3"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    record = json.loads((tmp_path / "r.json").read_text())
    assert record["spec"]["method"] == "random" and record["spec"]["seed"] == 3 and len(record["trace"]) == 3
    assert "t=2/2" in result.stderr  # one progress line per iteration


def test_list_names_everything():
    result = subprocess.run([sys.executable, "-m", "bench.cli", "list"], capture_output=True, text=True)
    assert result.returncode == 0
    for name in ("hartmann6", "b3o (acquisition", "defer", "logei", "scheduled"):
        assert name in result.stdout


def test_failed_battery_evaluations_are_recorded_and_the_trial_continues(tmp_path):
    """A timeout far below a PyBaMM solve makes every design fail: recorded as (0, 0) with its flag, no crash."""
    spec = {
        "problem": "battery",
        "problem_options": {"timeout": 1e-4},
        "method": "random",
        "batch_size": 2,
        "iterations": 1,
        "n_init": 2,
        "seed": 0,
    }
    record = run_trial(spec, tmp_path / "r.json")
    for row in record["trace"]:
        assert row["failed"] == [True, True]
        assert row["values"] == [[0.0, 0.0], [0.0, 0.0]]
    assert record["trace"][-1]["hypervolume"] == 0.0 and record["trace"][-1]["simple_regret"] is None


def test_b3o_ehvi_on_the_battery_with_constraints(tmp_path):
    spec = {
        "problem": "battery",
        "method": "b3o",
        "params": {"acquisition": "ehvi", "sampler": "defer", "sampler_options": {"budget": 500}},
        "batch_size": 4,
        "iterations": 2,
        "n_init": 8,
        "seed": 0,
        "model": {"num_inducing": 8, "maxiter": 20},
    }
    record = run_trial(spec, tmp_path / "r.json")
    hv = [row["hypervolume"] for row in record["trace"]]
    assert hv[0] > 0 and hv == sorted(hv)
    points = np.concatenate([np.array(row["points"]) for row in record["trace"]])
    # porosity + active fraction <= 0.95 in each electrode, checked by the problem itself
    import problems

    problems.get("battery").check_inputs(points)
    assert record["trace"][-1]["diagnostics"]["sampler"] == "defer"


def test_deep_ensemble_surrogate_runs_b3o_end_to_end(tmp_path):
    """The paper says B3O is surrogate-agnostic; here the model is trieste's DeepEnsemble, not a GP."""
    spec = {**TINY, "model": {"kind": "deep-ensemble", "ensemble_size": 3, "ensemble_epochs": 20}, "iterations": 2}
    record = run_trial(spec, tmp_path / "r.json")
    assert len(record["trace"]) == 3 and record["trace"][-1]["num_evals"] == 6 + 2 * 4
    assert record["trace"][1]["diagnostics"]["num_acquisition_evals"] > 0


def test_a_problem_standardised_over_its_domain_reaches_the_model_as_observed(tmp_path):
    """A synthetic problem is standardised over its domain already: the model sees its observations as they are
    (identity scale, recorded as such), so the paper's noise variance stays on the scale the paper states."""
    spec = {**TINY, "problem": "hartmann6", "params": {"acquisition": "logei", "lam": 1.0, "sampler": "defer"},
            "iterations": 2}
    record = run_trial(spec, tmp_path / "r.json")
    assert all(row["output_scale"] == {"mean": [0.0], "std": [1.0], "source": "problem"} for row in record["trace"][1:])


def test_outputs_in_natural_units_reach_the_model_standardised(tmp_path):
    """Formula E's objective (~0.87-1.10) reaches the model with mean 0 and s.d. 1 at every iteration; the scale used
    is recorded."""
    spec = {
        "problem": "formula-e",
        "method": "random",
        "batch_size": 4,
        "iterations": 2,
        "n_init": 8,
        "seed": 0,
    }
    record = run_trial(spec, tmp_path / "r.json")
    observations = []
    for row in record["trace"]:
        if row["iteration"] > 0:
            scale = row["output_scale"]
            y = np.concatenate(observations)  # minimisation problem: no sign change
            assert scale["source"] == "data"
            assert scale["mean"] == pytest.approx([y.mean()]) and scale["std"] == pytest.approx([y.std()])
        observations.append(np.array(row["observations"]))


def test_a_method_s_nan_batch_is_refused_naming_the_method_and_iteration(tmp_path, monkeypatch):
    """A bug in a method (a NaN in its batch at t = 2) is one error naming the method, the iteration and the first bad
    point, before the problem evaluates anything; no record is written."""
    from baselines.random_search import RandomSearch

    honest = RandomSearch.ask

    def buggy(self, models, dataset, t):
        points = honest(self, models, dataset, t)
        if t == 2:
            points[1, 0] = np.nan
        return points

    monkeypatch.setattr(RandomSearch, "ask", buggy)
    with pytest.raises(ValueError) as refused:
        run_trial({**TINY, "method": "random", "params": {}}, tmp_path / "nan.json")
    assert str(refused.value).startswith(
        "method 'random' proposed at iteration 2 a batch the problem refuses: forrester1: 1 of 4 point(s) contain "
        "NaN or inf (first at row 1: [nan])"), refused.value
    assert not (tmp_path / "nan.json").exists()
