"""The paper-scale bound check (tests/benchmarks/paper_scale/bound_check.py) rebuilds a trial's fits from its record:
replayed with the trial's own fit it must give back the recorded ELBO and hyperparameters at every iteration, or its
comparison of two fits would compare the replay's errors."""

import importlib.util
from pathlib import Path

import numpy as np
from test_runner import TINY

from bench.runner import run_trial

SCRIPT = Path(__file__).parent / "benchmarks" / "paper_scale" / "bound_check.py"


def _bound_check():
    spec = importlib.util.spec_from_file_location("bound_check", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_replaying_a_trial_with_its_own_fit_gives_back_its_elbo_and_kernel_at_every_iteration(tmp_path):
    record = run_trial(TINY, tmp_path / "trial.json")
    table = _bound_check().replay(record, "lbfgs", fresh=True)
    assert list(table["iteration"]) == list(range(1, TINY["iterations"] + 1))
    assert (table["difference"] == 0).all(), table[["recorded_elbo", "replayed_elbo"]]
    assert np.array_equal(table["kernel_variance"], table["recorded_kernel_variance"])
    assert np.isfinite(table[["fresh_elbo", "fresh_difference", "fresh_kernel_variance"]].to_numpy()).all()
    assert np.allclose(table["fresh_difference"], table["fresh_elbo"] - table["recorded_elbo"])
