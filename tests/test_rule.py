"""BoltzmannBatch inside real trieste BayesianOptimizer loops."""

from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf
from trieste.bayesian_optimizer import BayesianOptimizer
from trieste.data import Dataset
from trieste.models import TrainableModelStack
from trieste.models.gpflow import GaussianProcessRegression, build_gpr
from trieste.objectives import VLMOP2, ScaledBranin
from trieste.objectives.utils import mk_observer
from trieste.space import Box, CategoricalSearchSpace, TaggedProductSearchSpace, one_hot_encoder

from b3o import BoltzmannBatch, Constant, Normalised, Scheduled, acquisitions, samplers, temperature
from b3o.diversity import mean_pairwise_distance

BATCH = 7


def _gpr(data: Dataset, space, encoder=None) -> GaussianProcessRegression:
    return GaussianProcessRegression(build_gpr(data, space, likelihood_variance=1e-5, encoder=encoder), encoder=encoder)


def _branin_start(seed: int = 0):
    space = ScaledBranin.search_space
    observer = mk_observer(ScaledBranin.objective)
    data = observer(space.sample(10, seed=seed))
    return space, observer, data


FAST = {"defer": {"budget": 600}, "mh": {"burn_in": 100, "thin": 2}}


@pytest.mark.parametrize("sampler", ["defer", "mh"])
@pytest.mark.parametrize("acquisition", ["ucb", "logei"])
def test_three_bo_steps_return_in_bounds_batches(acquisition, sampler):
    space, observer, data = _branin_start()
    rule = BoltzmannBatch(
        acquisitions.get(acquisition), samplers.get(sampler, **FAST[sampler]), Constant(1.0), BATCH, seed=1
    )
    result = BayesianOptimizer(observer, space).optimize(3, data, _gpr(data, space), rule)
    final = result.try_get_final_dataset()
    assert len(final) == 10 + 3 * BATCH
    new = final.query_points[10:].numpy()
    assert np.all(np.asarray(space.contains(new)))
    assert rule.step == 3
    d = rule.diagnostics
    assert d["t"] == 3 and d["lambda_t"] == 1.0 and d["num_acquisition_evals"] > 0 and d["diversity"] > 0
    assert d["sampler"] == sampler and d["sampler_seconds"] > 0
    # the compiled log density is reused across steps (updated in place), not retraced every step
    assert rule._log_density_fn.experimental_get_tracing_count() <= 2


def test_scheduled_first_batch_is_uniform_and_skips_alpha():
    space, _, data = _branin_start()
    rule = BoltzmannBatch(acquisitions.get("ucb"), samplers.get("defer", budget=300), Scheduled(1.0), 50)
    batch = rule.acquire_single(space, _gpr(data, space), data)
    assert rule.diagnostics["lambda_t"] == 0.0 and rule.diagnostics["num_acquisition_evals"] == 0
    assert batch.shape == (50, 2)
    rule.acquire_single(space, _gpr(data, space), data)
    assert rule.diagnostics["lambda_t"] == pytest.approx(np.sqrt(2) * np.log(2))


def test_batch_concentrates_as_lambda_grows():
    space, _, data = _branin_start()
    model = _gpr(data, space)
    model.optimize(data)
    spreads = []
    for lam in (0.01, 100.0):
        rule = BoltzmannBatch(acquisitions.get("ucb"), samplers.get("defer", budget=2000), Constant(lam), 200)
        rule.acquire_single(space, model, data)
        spreads.append(rule.diagnostics["diversity"])
    assert spreads[1] < 0.5 * spreads[0]


def test_same_seed_same_batch_and_resume_by_step():
    space, _, data = _branin_start()
    model = _gpr(data, space)

    def batch(step: int, seed: int) -> np.ndarray:
        rule = BoltzmannBatch(acquisitions.get("logei"), samplers.get("defer", budget=300), Constant(1.0), 5, seed=seed)
        rule.resume(step)
        return rule.acquire_single(space, model, data).numpy()

    np.testing.assert_array_equal(batch(4, 3), batch(4, 3))
    assert not np.array_equal(batch(4, 3), batch(5, 3))
    assert not np.array_equal(batch(4, 3), batch(4, 4))


def test_normalised_temperature_standardises_alpha():
    space, _, data = _branin_start()
    model = _gpr(data, space)
    rule = BoltzmannBatch(acquisitions.get("logei"), samplers.get("dmc", num_points=512), Normalised(1.0), 5)
    rule.acquire_single(space, model, data)
    scale = rule.diagnostics["alpha_scale"]
    ref = rule._alpha(rule._reference_points(space))
    q10, q90 = np.quantile(ref, [0.1, 0.9])
    assert scale == pytest.approx((q90 - q10) / (2 * 1.2815515655446004))
    assert rule._lam.numpy() == pytest.approx(1.0 / scale)


def test_ehvi_over_a_model_stack():
    problem = VLMOP2(2)
    space = problem.search_space
    observer = mk_observer(problem.objective)
    data = observer(space.sample(12, seed=0))
    models = TrainableModelStack(
        *[(_gpr(Dataset(data.query_points, data.observations[:, i : i + 1]), space), 1) for i in range(2)]
    )
    rule = BoltzmannBatch(acquisitions.get("ehvi"), samplers.get("defer", budget=500), Constant(1.0), BATCH)
    result = BayesianOptimizer(observer, space).optimize(2, data, models, rule)
    final = result.try_get_final_dataset()
    assert final.observations.shape == (12 + 2 * BATCH, 2)
    assert np.all(np.asarray(space.contains(final.query_points)))


def test_mixed_space_with_mixed_mh():
    space = TaggedProductSearchSpace([Box([0.0, 0.0], [1.0, 1.0]), CategoricalSearchSpace([3])], tags=["x", "k"])

    def objective(x):
        return tf.reduce_sum((x[:, :2] - 0.3) ** 2, axis=1, keepdims=True) + 0.5 * x[:, 2:]

    observer = mk_observer(objective)
    data = observer(space.sample(12, seed=0))
    model = _gpr(data, space, encoder=one_hot_encoder(space))
    sampler = samplers.get("mixed-mh", burn_in=100, thin=2)
    rule = BoltzmannBatch(acquisitions.get("logei"), sampler, Constant(1.0), BATCH)
    result = BayesianOptimizer(observer, space).optimize(2, data, model, rule)
    new = result.try_get_final_dataset().query_points[12:].numpy()
    assert new.shape == (2 * BATCH, 3)
    assert set(np.unique(new[:, 2])) <= {0.0, 1.0, 2.0}
    assert np.all(np.asarray(space.contains(new)))


def test_continuous_sampler_on_mixed_space_fails_before_model_work():
    space = TaggedProductSearchSpace([Box([0.0], [1.0]), CategoricalSearchSpace([3])])
    rule = BoltzmannBatch(acquisitions.get("ucb"), samplers.get("defer"), Constant(1.0), 3)
    with pytest.raises(TypeError, match="mixed-mh"):
        rule.acquire_single(space, model=None, dataset=None)


@pytest.mark.parametrize("bad", [0, -1.0, float("nan"), float("inf"), "x"])
@pytest.mark.parametrize("kind", ["constant", "scheduled", "normalised"])
def test_bad_lambda_is_a_clear_error(kind, bad):
    with pytest.raises(ValueError, match="finite positive number"):
        temperature.get(kind, bad)


def test_ucb_is_mu_plus_sqrt_beta_sigma():
    space, _, data = _branin_start()
    model = _gpr(data, space)
    x = space.sample(5, seed=1)
    alpha = acquisitions.get("ucb", beta=4.0).prepare_acquisition_function(model, data)(x[:, None, :])
    mean, var = model.predict(x)
    # trieste models -f; the paper's UCB on f is -mean + sqrt(beta) * sigma
    np.testing.assert_allclose(alpha.numpy(), (-mean + 2.0 * tf.sqrt(var)).numpy(), rtol=1e-10)


def test_logei_incumbents():
    space, _, data = _branin_start()
    model = _gpr(data, space)
    mean_builder = acquisitions.get("logei")
    obs_builder = acquisitions.get("logei", incumbent="observation")
    mean_builder.prepare_acquisition_function(model, data)
    function = obs_builder.prepare_acquisition_function(model, data)
    assert function._eta.numpy() == pytest.approx(float(tf.reduce_min(data.observations)))
    with pytest.raises(ValueError, match="valid: posterior-mean, observation"):
        acquisitions.get("logei", incumbent="best")
    with pytest.raises(ValueError, match="valid acquisitions: ucb, logei, ehvi"):
        acquisitions.get("pi")


def _batch_in_units(acquisition: str, scale: float, shift: float, standardise: bool = True) -> np.ndarray:
    """The first batch on ScaledBranin observed as scale * f + shift, from a GPR whose initial hyperparameters
    (trieste's build_gpr: kernel variance, constant mean and noise from the data's moments) follow the units."""
    space, observer, data = _branin_start()
    data = Dataset(data.query_points, scale * data.observations + shift)
    model = GaussianProcessRegression(build_gpr(data, space))
    rule = BoltzmannBatch(
        acquisitions.get(acquisition), samplers.get("defer-is", budget=400), Constant(1.0), BATCH, seed=3,
        standardise=standardise,
    )
    return rule.acquire_single(space, model, data).numpy()


@pytest.mark.parametrize("acquisition", ["ucb", "logei"])
def test_same_batch_whatever_the_objective_units(acquisition):
    """lambda means what Table 2's means in any units: f and 1000 f + 7 give the same batch under the same seed."""
    np.testing.assert_allclose(_batch_in_units(acquisition, 1000.0, 7.0), _batch_in_units(acquisition, 1.0, 0.0))


def test_unstandardised_ucb_depends_on_the_units():
    """The control: without standardising, UCB in units 1000 times larger is a 1000 times sharper density."""
    raw = _batch_in_units("ucb", 1000.0, 7.0, standardise=False)
    assert not np.allclose(raw, _batch_in_units("ucb", 1.0, 0.0, standardise=False))
    assert mean_pairwise_distance(raw, ScaledBranin.search_space) < mean_pairwise_distance(
        _batch_in_units("ucb", 1.0, 0.0, standardise=False), ScaledBranin.search_space
    )


def test_standardising_needs_the_data():
    space, _, data = _branin_start()
    rule = BoltzmannBatch(acquisitions.get("ucb"), samplers.get("defer", budget=300), Constant(1.0), BATCH)
    with pytest.raises(ValueError, match="no dataset"):
        rule.acquire(space, {"OBJECTIVE": _gpr(data, space)}, None)
