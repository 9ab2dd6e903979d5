"""The collapsed SVGP fit (`fit: collapsed`): after it, q(u) is the optimum for the fitted hyperparameters, so the
SVGP's ELBO equals the collapsed (SGPR) bound, and the fit reaches at least the objective of the default L-BFGS-B fit."""

from __future__ import annotations

import gpflow
import numpy as np
import pytest
import tensorflow as tf
from test_runner import TINY

import problems
from problems.design import initial_design
from bench.design import model_dataset
from bench.model_spec import ModelSpec
from bench.models import build_model, optimal_q, training_objective
from bench.runner import run_trial


def _fitted(fit: str, n: int = 60, maxiter: int = 200):
    problem = problems.get("hartmann6")
    x = initial_design(problem, n, 0)
    data, _ = model_dataset(problem, x, problem.evaluate(x))
    tf.random.set_seed(0)
    model = build_model(ModelSpec(num_inducing=24, maxiter=maxiter, fit=fit), problem.search_space, data)
    model.update(data)
    model.optimize(data)
    return model, data


def test_elbo_after_the_collapsed_fit_is_the_collapsed_bound():
    model, data = _fitted("collapsed")
    svgp = model.model
    bound = gpflow.models.SGPR(
        (data.query_points, data.observations),
        kernel=svgp.kernel,
        inducing_variable=svgp.inducing_variable,
        mean_function=svgp.mean_function,
        likelihood=svgp.likelihood,
    ).elbo()
    assert training_objective(model, data) == pytest.approx(float(bound), abs=1e-4)


def test_q_u_is_optimal_any_change_lowers_the_elbo():
    model, data = _fitted("collapsed")
    best = training_objective(model, data)
    q_mu = model.model.q_mu.numpy()
    model.model.q_mu.assign(q_mu + 0.01 * np.random.default_rng(0).standard_normal(q_mu.shape))
    assert training_objective(model, data) < best


@pytest.mark.parametrize("n", [60, 200])
def test_collapsed_fit_reaches_at_least_the_lbfgs_objective(n):
    """Both fits maximise the ELBO plus the kernel priors' log density; the collapsed fit's is at least as high."""
    collapsed, data = _fitted("collapsed", n)
    lbfgs, _ = _fitted("lbfgs", n)

    def objective(model) -> float:
        return -float(model.model.training_loss((data.query_points, data.observations)))

    assert objective(collapsed) >= objective(lbfgs) - 1e-6


def test_collapsed_fit_is_for_svgp_only():
    with pytest.raises(ValueError, match="collapsed"):
        ModelSpec.from_dict({"kind": "gpr", "fit": "collapsed"})
    with pytest.raises(ValueError, match="fit 'adam'"):
        ModelSpec.from_dict({"fit": "adam"})


def test_a_trial_runs_with_the_collapsed_fit(tmp_path):
    spec = {**TINY, "iterations": 2, "model": {**TINY["model"], "fit": "collapsed"}}
    record = run_trial(spec, tmp_path / "r.json")
    assert len(record["trace"]) == 3 and np.isfinite(record["trace"][-1]["model_objective"])


@pytest.mark.parametrize("kind", ["svgp", "gpr"])
def test_a_trainable_likelihood_is_fitted_and_a_fixed_one_is_not(kind):
    """Hartmann-6 observed with noise variance 0.5 on the standardised scale: a fitted noise variance moves from the
    paper's 0.01 toward it (at least five-fold on 120 points), a fixed one stays at 0.01."""
    problem = problems.get("hartmann6")
    x = initial_design(problem, 120, 0)
    data, _ = model_dataset(problem, x, problem.observe_values(problem.evaluate(x), np.random.default_rng(0)))
    variances = {}
    for trainable in (False, True):
        spec = ModelSpec(kind=kind, num_inducing=24, maxiter=200, trainable_likelihood=trainable)
        model = build_model(spec, problem.search_space, data)
        model.update(data)
        model.optimize(data)
        variances[trainable] = float(model.model.likelihood.variance.numpy())
    assert variances[False] == pytest.approx(0.01)
    assert variances[True] > 0.05


def test_trainable_likelihood_must_be_a_boolean():
    with pytest.raises(ValueError, match="trainable_likelihood must be true or false"):
        ModelSpec.from_dict({"trainable_likelihood": "yes"})


def _model_on(n: int, num_inducing: int, maxiter: int = 2):
    problem = problems.get("hartmann6")
    x = initial_design(problem, n, 0)
    data, _ = model_dataset(problem, x, problem.evaluate(x))
    tf.random.set_seed(0)
    return build_model(ModelSpec(num_inducing=num_inducing, maxiter=maxiter, fit="collapsed"), problem.search_space,
                       data), data


def test_the_fit_does_not_depend_on_what_the_process_traced_before():
    """At M = 500 and N = 4,100 the bound's gradient, traced with TensorFlow's graph optimiser, depended on the
    functions traced before it (tests/benchmarks/trace_determinism.py): fits from one state, each after a different
    history, must end at the same hyperparameters bit for bit."""
    model, data = _model_on(4100, 500)
    start = gpflow.utilities.parameter_dict(model.model)
    start = {k: v.numpy() for k, v in start.items()}
    ends = set()
    for history in range(4):
        for k, v in gpflow.utilities.parameter_dict(model.model).items():
            v.assign(start[k])
        for _ in range(history):
            tf.function(lambda: tf.reduce_sum(tf.ones(3)) * 2.0)()
        model.optimize(data)
        ends.add(np.concatenate([model.model.kernel.lengthscales.numpy(), model.model.q_mu.numpy().ravel()]).tobytes())
    assert len(ends) == 1


def test_q_u_stays_finite_and_optimal_where_kuu_is_ill_conditioned():
    """A fit that runs away (kernel variance in the thousands, lengthscales beyond the box, as a cold collapsed fit on
    4,100 Hartmann-6 points did) leaves Kuu ill-conditioned; q(u) is still finite and the ELBO is the collapsed
    bound."""
    model, data = _model_on(600, 200)
    svgp = model.model
    svgp.kernel.variance.assign(6352.5)
    svgp.kernel.lengthscales.assign([3.3, 4.1, 15.4, 3.7, 4.9, 3.2])
    svgp.mean_function.c.assign(280.2)
    q_mu, q_sqrt = optimal_q(svgp, tf.convert_to_tensor(data.query_points), tf.convert_to_tensor(data.observations))
    assert np.isfinite(q_mu.numpy()).all() and np.isfinite(q_sqrt.numpy()).all()
    svgp.q_mu.assign(q_mu)
    svgp.q_sqrt.assign(q_sqrt[None])
    bound = gpflow.models.SGPR(
        (data.query_points, data.observations), kernel=svgp.kernel, inducing_variable=svgp.inducing_variable,
        mean_function=svgp.mean_function, likelihood=svgp.likelihood,
    ).elbo()
    assert float(svgp.elbo((data.query_points, data.observations))) == pytest.approx(float(bound), rel=1e-6)
