"""Data without spread (every observation equal, or one point): a campaign's first batch can meet them, e.g. when every
point of the initial design hits the same constant penalty. `b3o.StandardisedModel` maps them to 0 exactly; a model
that takes its scale from the data's variance (trieste's `build_gpr`) cannot be built on them, and the error says why
instead of gpflow's "the value to be assigned is incompatible with this parameter's transform"."""

from __future__ import annotations

import re

import gpflow
import numpy as np
import pytest
import tensorflow as tf
from trieste.data import Dataset
from trieste.models.gpflow import GaussianProcessRegression, build_gpr
from trieste.space import Box

import b3o
from b3o import BoltzmannBatch, StandardisedModel

SPACE = Box([0.0, 0.0], [1.0, 1.0])


def _equal(value: float, n: int) -> Dataset:
    x = tf.constant(np.random.default_rng(0).random((n, 2)))
    return Dataset(x, tf.fill([n, 1], tf.constant(value, tf.float64)))


@pytest.mark.parametrize(("n", "cause"), [
    (5, "the observations are all equal (y = 3 at all 5 points)"),
    (1, "the data hold one point (y = 3)"),
], ids=["all-equal", "one-point"])
def test_build_gpr_on_data_without_spread_is_one_error_naming_the_cause(n, cause):
    with pytest.raises(ValueError, match=re.escape(f"StandardisedModel's build failed on data without spread: {cause}, "
                                                   "so the standardised observations are all 0")) as err:
        StandardisedModel(lambda d: GaussianProcessRegression(build_gpr(d, SPACE)), _equal(3.0, n))
    assert "build_gpr" in str(err.value) and "add points with different values" in str(err.value)
    assert "\n" not in str(err.value)


def test_a_model_of_its_own_scale_gives_a_batch_on_equal_observations():
    """0.1 at 3 points has a computed s.d. of 1.4e-17, not 0: the observations were standardised to -1, not 0."""
    data = _equal(0.1, 3)
    def build(standardised: Dataset) -> GaussianProcessRegression:  # kernel variance 1, the standardised data's scale
        kernel = gpflow.kernels.Matern52()
        return GaussianProcessRegression(gpflow.models.GPR(standardised.astuple(), kernel, noise_variance=1e-5))

    model = StandardisedModel(build, data)
    assert np.array_equal(model.model.get_internal_data().observations.numpy(), np.zeros([3, 1]))
    rule = BoltzmannBatch(batch_size=3, sampler=b3o.samplers.get("defer-is", budget=200))
    batch = rule.acquire_single(SPACE, model, data)
    assert batch.shape == (3, 2) and np.all(np.asarray(SPACE.contains(batch)))
