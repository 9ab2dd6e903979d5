"""The README's trieste loop, fitted, is the same loop for f and for 1000 f + 7 (b3o.StandardisedModel).

The README's block runs as written, in units of 1000 f + 7; here it runs once more with the observer's function
mapped back to f, the only change. The README says the fits and the batches are then the same under the same seeds.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
import tensorflow as tf
import trieste.objectives.utils

ROOT = Path(__file__).resolve().parents[1]


def readme_loop() -> str:
    """The python block of README's "Use B3O in a trieste loop" section."""
    section = ROOT.joinpath("README.md").read_text().split("## Use B3O in a trieste loop", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.DOTALL).group(1)


def run_loop(code: str, monkeypatch, a: float, b: float) -> dict:
    """Run the README's block with its observer's values mapped y -> a * (y - 7) / 1000 + b; fresh seeds each run."""
    make = trieste.objectives.utils.mk_observer
    monkeypatch.setattr(
        trieste.objectives.utils, "mk_observer", lambda f, *args: make(lambda x: a * (f(x) - 7.0) / 1000.0 + b, *args)
    )
    tf.random.set_seed(0)  # trieste samples kernel hyperparameters from their priors before each fit
    np.random.seed(0)
    namespace: dict = {}
    exec(compile(code, "README.md", "exec"), namespace)
    return namespace


@pytest.fixture(scope="module")
def code() -> str:
    code = readme_loop()
    assert "b3o.StandardisedModel(" in code and "1000 * tf.reduce_sum" in code and "+ 7)" in code
    return code


def _kernel(namespace: dict) -> np.ndarray:
    kernel = namespace["model"].model.model.kernel
    return np.concatenate([[kernel.variance.numpy()], np.atleast_1d(kernel.lengthscales.numpy())])


def test_readme_loop_gives_the_same_fits_and_batches_for_f_and_1000f_plus_7(code, monkeypatch):
    raw = run_loop(code, monkeypatch, 1000.0, 7.0)  # the README's own units
    unit = run_loop(code, monkeypatch, 1.0, 0.0)  # f
    x_raw = raw["result"].try_get_final_dataset().query_points.numpy()
    x_unit = unit["result"].try_get_final_dataset().query_points.numpy()
    assert x_raw.shape == (5 + 2 * 4, 2)
    np.testing.assert_allclose(x_raw, x_unit, atol=1e-9)  # every batch of both steps
    np.testing.assert_allclose(_kernel(raw), _kernel(unit), rtol=1e-6)  # the fitted GP, on the standardised scale
    y_raw = raw["result"].try_get_final_dataset().observations.numpy()
    np.testing.assert_allclose(y_raw, 1000.0 * unit["result"].try_get_final_dataset().observations.numpy() + 7.0)
    assert raw["rule"].diagnostics["lambda_t"] == unit["rule"].diagnostics["lambda_t"] == 1.0


def test_without_standardised_model_the_fitted_loop_depends_on_the_units(code, monkeypatch):
    """The control the README states: trieste's GP fitted to raw values fits, and so draws, differently."""
    plain = code.replace(
        "b3o.StandardisedModel(lambda data: GaussianProcessRegression(build_gpr(data, search_space)), initial_data)",
        "GaussianProcessRegression(build_gpr(initial_data, search_space))",
    )
    assert plain != code
    raw, unit = run_loop(plain, monkeypatch, 1000.0, 7.0), run_loop(plain, monkeypatch, 1.0, 0.0)
    x_raw = raw["result"].try_get_final_dataset().query_points.numpy()
    x_unit = unit["result"].try_get_final_dataset().query_points.numpy()
    assert np.abs(x_raw - x_unit).max() > 1e-3
