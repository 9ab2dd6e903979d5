"""`b3o.StandardisedModel` composes with trieste's other batch rules (issue 79): batch Monte-Carlo EI, trajectory
Thompson sampling and local penalisation run on a wrapped model, their samples in the data's units, and the rule's
input checks see through the wrapper."""

from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf
from trieste.acquisition import BatchMonteCarloExpectedImprovement, LocalPenalization, ParallelContinuousThompsonSampling
from trieste.acquisition.rule import EfficientGlobalOptimization
from trieste.bayesian_optimizer import BayesianOptimizer
from trieste.data import Dataset
from trieste.models.gpflow import GaussianProcessRegression, build_gpr
from trieste.objectives.utils import mk_observer
from trieste.space import Box

import b3o
from b3o import BoltzmannBatch, StandardisedModel

SPACE = Box([0.0, 0.0], [1.0, 1.0])
BATCH = 3


def _bowl(x: tf.Tensor) -> tf.Tensor:
    """A bowl at (0.3, 0.7) in thousands: far from unit scale, so a sample left standardised would show."""
    return 1000.0 * tf.reduce_sum((x - [0.3, 0.7]) ** 2, axis=1, keepdims=True) + 7.0


def _wrapped(data: Dataset, space: Box = SPACE) -> StandardisedModel:
    return StandardisedModel(lambda d: GaussianProcessRegression(build_gpr(d, space, likelihood_variance=1e-5)), data)


@pytest.fixture(scope="module")
def data() -> Dataset:
    return mk_observer(_bowl)(SPACE.sample_sobol(8))


@pytest.mark.parametrize(
    "builder",
    [
        lambda: BatchMonteCarloExpectedImprovement(sample_size=64),
        lambda: ParallelContinuousThompsonSampling(),
        lambda: LocalPenalization(SPACE),
    ],
    ids=["batch-mc-ei", "trajectory-ts", "local-penalisation"],
)
def test_trieste_batch_rules_run_on_a_wrapped_model(builder, data):
    rule = EfficientGlobalOptimization(builder(), num_query_points=BATCH)
    result = BayesianOptimizer(mk_observer(_bowl), SPACE).optimize(1, data, _wrapped(data), rule)
    final = result.try_get_final_dataset()
    assert len(final) == len(data) + BATCH
    assert np.all(np.asarray(SPACE.contains(final.query_points)))


def test_samples_and_trajectories_are_in_the_data_s_units(data):
    """Posterior draws and trajectories at the bowl's floor and far corner have the model's mean and spread there, in
    the data's units (SDs in the tens or hundreds on 8 points): a draw left standardised would have a spread near 1. A single
    trajectory's value is random (one at the floor of 173 failed a fixed bound), so 40 are compared with the model."""
    tf.random.set_seed(0)
    model = _wrapped(data)
    model.optimize(data)
    x = tf.constant([[0.3, 0.7], [0.9, 0.1]], tf.float64)
    mean, var = model.predict(x)
    sd = np.sqrt(var.numpy()[:, 0])
    draws = model.reparam_sampler(200).sample(x)  # [S, N, 1]
    assert np.allclose(tf.reduce_mean(draws, axis=0), mean, rtol=0.1, atol=20.0)
    sampler = model.trajectory_sampler()
    trajectory, at, values = sampler.get_trajectory(), tf.repeat(x[:, None, :], 2, axis=1), []
    for _ in range(40):
        values.append(trajectory(at).numpy())
        trajectory = sampler.resample_trajectory(trajectory)
    values = np.stack(values)
    assert values.shape == (40, 2, 2, 1)
    spread, centre = values[:, :, 0, 0].std(axis=0), values[:, :, 0, 0].mean(axis=0)
    assert np.all((spread > 0.5 * sd) & (spread < 2.0 * sd)) and np.all(sd > 5.0), (spread, sd)
    assert np.all(np.abs(centre - mean.numpy()[:, 0]) < sd), (centre, mean)
    stored = model.get_internal_data()
    assert np.allclose(stored.observations, data.observations)


def test_an_attribute_on_the_standardised_scale_is_not_offered_by_mistake(data):
    model = _wrapped(data)
    with pytest.raises(AttributeError, match=r"on the standardised scale: use `.model.get_kernel`"):
        model.get_kernel()
    assert model.model.get_kernel() is not None


def test_the_rule_s_checks_see_through_the_wrapper(data):
    space_3d = Box([0.0] * 3, [1.0] * 3)
    data_3d = Dataset(tf.concat([data.query_points, data.query_points[:, :1]], axis=1), data.observations)
    rule = BoltzmannBatch(batch_size=BATCH, sampler=b3o.samplers.get("defer-is", budget=200))
    with pytest.raises(ValueError, match=r"model 'OBJECTIVE': expected training data of the search space's dimension 3"):
        rule.acquire_single(space_3d, _wrapped(data), data_3d)


@pytest.mark.parametrize(
    "bad, match",
    [
        (lambda d: Dataset(d.query_points[:0], d.observations[:0]), "expected at least one observation"),
        (lambda d: Dataset(d.query_points, tf.tensor_scatter_nd_update(d.observations, [[2, 0]], [np.nan])),
         r"expected finite observations, got 1 of 8"),
        (lambda d: Dataset(tf.tensor_scatter_nd_update(d.query_points, [[4, 1]], [np.nan]), d.observations),
         r"expected finite query points, got 1 of 8"),
    ],
    ids=["empty", "nan-observation", "nan-query-point"],
)
def test_bad_data_is_named_by_the_wrapper(data, bad, match):
    with pytest.raises(ValueError, match=rf"StandardisedModel's dataset: {match}"):
        _wrapped(bad(data))
    model = _wrapped(data)
    with pytest.raises(ValueError, match=rf"StandardisedModel's dataset: {match}"):
        model.update(bad(data))
