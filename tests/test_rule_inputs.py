"""`BoltzmannBatch` refuses bad input with one ValueError before it samples (b3o/inputs.py)."""

from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf
from trieste.data import Dataset
from trieste.models.gpflow import GaussianProcessRegression, build_gpr
from trieste.space import Box

from b3o import BoltzmannBatch, Constant, acquisitions, samplers


def _data(dim: int, n: int = 6) -> Dataset:
    x = tf.constant(np.random.default_rng(0).random((n, dim)))
    return Dataset(x, tf.reduce_sum((x - 0.3) ** 2, axis=1, keepdims=True))


def _model(dim: int) -> GaussianProcessRegression:
    return GaussianProcessRegression(build_gpr(_data(dim), Box([0.0] * dim, [1.0] * dim)))


class _NeverSample(samplers.get("defer").__class__):
    """DEFER that fails the test if asked to sample: the checks must come first."""

    def _sample(self, *args, **kwargs):
        raise AssertionError("sampled before the input was checked")


def _rule(batch: int = 4) -> BoltzmannBatch:
    return BoltzmannBatch(acquisitions.get("logei"), _NeverSample(budget=100), Constant(1.0), batch)


def _refused(space: Box, model, data: Dataset, match: str) -> None:
    rule = _rule()
    with pytest.raises(ValueError, match=match) as err:
        rule.acquire_single(space, model, data)
    assert rule.step == 0 and rule._acquisition_function is None  # no model work, no sampling
    assert "\n" not in str(err.value)  # one error line


@pytest.mark.parametrize("space_dim", [1, 3], ids=["lower", "higher"])
def test_search_space_of_another_dimension_than_the_data(space_dim):
    _refused(
        Box([0.0] * space_dim, [1.0] * space_dim), _model(2), _data(2),
        rf"dataset 'OBJECTIVE': expected query points of the search space's dimension {space_dim}, got dimension 2",
    )


@pytest.mark.parametrize("model_dim", [1, 3], ids=["lower", "higher"])
def test_model_fitted_in_another_dimension_than_space_and_data(model_dim):
    _refused(
        Box([0.0, 0.0], [1.0, 1.0]), _model(model_dim), _data(2),
        rf"model 'OBJECTIVE': expected training data of the search space's dimension 2, got dimension {model_dim}",
    )


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf], ids=["nan", "inf", "-inf"])
def test_non_finite_observations(bad):
    data = _data(2)
    observations = data.observations.numpy()
    observations[3, 0] = bad
    _refused(
        Box([0.0, 0.0], [1.0, 1.0]), _model(2), Dataset(data.query_points, tf.constant(observations)),
        r"dataset 'OBJECTIVE': expected finite observations, got 1 of 6 with NaN or inf",
    )


def test_empty_dataset():
    empty = Dataset(tf.zeros([0, 2], tf.float64), tf.zeros([0, 1], tf.float64))
    _refused(
        Box([0.0, 0.0], [1.0, 1.0]), _model(2), empty,
        "dataset 'OBJECTIVE': expected at least one observation, got an empty dataset",
    )


@pytest.mark.parametrize("bad", [2.5, 2.0, True, "4", 0, -3, None])
def test_batch_size_must_be_a_positive_integer(bad):
    with pytest.raises(ValueError, match=r"num_query_points \(the batch size B\) must be a positive integer, got "):
        _rule(bad)


def test_numpy_integer_batch_size_is_accepted():
    assert _rule(np.int64(5)).num_query_points == 5
