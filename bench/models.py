"""Surrogates for the trial runner: SVGP (the paper's), exact GPR, or a deep ensemble, chosen in the trial spec.

SVGP: trieste's `build_svgp` (Matérn-5/2, constant mean, kernel priors), M inducing points placed by
`ConditionalImprovementReduction` (Moss et al. 2023, inducing points for high-throughput BO), likelihood variance
fixed at 0.01 (paper; `trainable_likelihood: true` fits it instead, starting there). trieste's default SVGP training
(Adam, 100 steps, lr 1e-3) barely moves the hyperparameters, so all GP models are fitted with gpflow's Scipy L-BFGS-B
capped at `maxiter` iterations: by default over all variables (for the SVGP, q(u) too), or, with `fit: collapsed`, over
the hyperparameters on the SVGP's collapsed bound, q(u) then set to its optimum (`CollapsedFit`: the same model, much
cheaper at large N). Categorical inputs are one-hot encoded (trieste encoders); a multi-objective problem gets one model
per objective in a `TrainableModelStack`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import gpflow
import numpy as np
import tensorflow as tf
from trieste.data import Dataset
from trieste.models import TrainableModelStack, TrainableProbabilisticModel
from trieste.models.gpflow import GaussianProcessRegression, SparseVariational, build_gpr, build_svgp
from trieste.models.gpflow.inducing_point_selectors import ConditionalImprovementReduction
from trieste.models.optimizer import Optimizer
from trieste.space import SearchSpace, TaggedProductSearchSpace, one_hot_encoded_space, one_hot_encoder

from bench.model_spec import ModelSpec

def build_model(spec: ModelSpec, space: SearchSpace, data: Dataset) -> TrainableProbabilisticModel:
    """A trainable model of `data` (one objective column per model; stacks are built by `build_models`)."""
    encoder = one_hot_encoder(space) if isinstance(space, TaggedProductSearchSpace) else None
    encoded_space = one_hot_encoded_space(space) if encoder else space
    encoded = Dataset(encoder(data.query_points), data.observations) if encoder else data
    fitter = CollapsedFit if spec.fit == "collapsed" else Optimizer
    optimizer = fitter(gpflow.optimizers.Scipy(), minimize_args={"options": {"maxiter": spec.maxiter}}, compile=True)
    if spec.kind == "svgp":
        svgp = build_svgp(
            encoded,
            encoded_space,
            likelihood_variance=spec.likelihood_variance,
            num_inducing_points=spec.num_inducing,  # placed in the space, so M may exceed the data size
            trainable_likelihood=spec.trainable_likelihood,
        )
        return SparseVariational(
            svgp, optimizer=optimizer, inducing_point_selector=ConditionalImprovementReduction(), encoder=encoder
        )
    if spec.kind == "gpr":
        gpr = build_gpr(
            encoded,
            encoded_space,
            likelihood_variance=spec.likelihood_variance,
            trainable_likelihood=spec.trainable_likelihood,
        )
        return GaussianProcessRegression(gpr, optimizer=optimizer, encoder=encoder)
    return _deep_ensemble(spec, encoded, encoder)


@dataclass
class CollapsedFit(Optimizer):
    """Fits an SVGP with a Gaussian likelihood through Titsias' collapsed bound, then sets q(u) to its optimum.

    For a Gaussian likelihood the SVGP's ELBO is maximised over q(u) in closed form, and that maximum is the SGPR
    (collapsed) bound: so L-BFGS-B runs over the few kernel and mean parameters only, on the bound, instead of over
    them and q(u)'s M + M(M+1)/2 variables on the ELBO, and then q(u) is set to the optimum for the fitted
    hyperparameters (`optimal_q`). The model, its priors and its fixed inducing points and noise are the SVGP's own;
    the fit ends at a point whose ELBO is at least as high as any q(u) gives for those hyperparameters.

    The bound is computed eagerly, not traced into a graph: traced, TensorFlow's graph optimiser (Grappler) rewrote its
    gradient at M = 500 and several thousand points into one that depended on which functions the process traced
    before (docs/reproducibility.md), so a trial's fits would not be a function of its seed alone; the eager
    computation is what the graph gives with Grappler off, bit for bit, at the same speed at paper scale, and leaves
    no graph behind: a graph per fit, with Grappler switched off around it, kept memory for the rest of the process
    at every fit (`tests/benchmarks/fit_memory.py` measures it).
    """

    def optimize(self, model: tf.Module, dataset: Dataset) -> Any:
        if not isinstance(model, gpflow.models.SVGP) or not isinstance(model.likelihood, gpflow.likelihoods.Gaussian):
            raise TypeError("the collapsed fit needs an SVGP with a Gaussian likelihood")
        data = (tf.convert_to_tensor(dataset.query_points), tf.convert_to_tensor(dataset.observations))
        collapsed = collapsed_bound(model, data)
        loss = gpflow.optimizers.Scipy().minimize(
            collapsed.training_loss, collapsed.trainable_variables, **{**self.minimize_args, "compile": False}
        )
        q_mu, q_sqrt = optimal_q(model, *data)
        model.q_mu.assign(q_mu)
        model.q_sqrt.assign(q_sqrt[None])
        return loss


def collapsed_bound(model: gpflow.models.SVGP, data: tuple[tf.Tensor, tf.Tensor]) -> gpflow.models.SGPR:
    """The SVGP's collapsed (SGPR) bound on `data`, sharing the SVGP's parameter objects: fitting it fits them."""
    return gpflow.models.SGPR(
        data,
        kernel=model.kernel,
        inducing_variable=model.inducing_variable,
        mean_function=model.mean_function,
        likelihood=model.likelihood,
    )


def optimal_q(model: gpflow.models.SVGP, x: tf.Tensor, y: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
    """The ELBO-optimal q(u) of an SVGP with a Gaussian likelihood, as (q_mu, lower-triangular q_sqrt) in the model's
    own parametrisation (whitened or not).

    Computed in the whitened frame v = L⁻¹u (Kuu = L Lᵀ), where the optimum is q(v) = N(B⁻¹ A r / σ, B⁻¹) with
    A = L⁻¹ Kuf / σ, B = I + A Aᵀ and r the residual from the mean function: B's eigenvalues are at least 1 whatever
    the kernel, so the Cholesky factors stay accurate where Kuu is ill-conditioned (a kernel variance in the thousands
    with lengthscales beyond the box), where un-whitening SGPR's q(u) gives NaN. The covariance's lower-triangular
    factor is exact: with P the order-reversing permutation and P B P = C Cᵀ, B⁻¹ = (P C⁻ᵀ P)(P C⁻ᵀ P)ᵀ.
    """
    sigma = tf.sqrt(model.likelihood.variance)
    kuu = gpflow.covariances.Kuu(model.inducing_variable, model.kernel, jitter=gpflow.config.default_jitter())
    chol = tf.linalg.cholesky(kuu)
    a = tf.linalg.triangular_solve(chol, gpflow.covariances.Kuf(model.inducing_variable, model.kernel, x)) / sigma
    eye = tf.eye(tf.shape(a)[0], dtype=a.dtype)
    b = eye + tf.matmul(a, a, transpose_b=True)
    residual = y - model.mean_function(x)
    mean = tf.linalg.cholesky_solve(tf.linalg.cholesky(b), tf.matmul(a, residual) / sigma)
    c = tf.linalg.cholesky(tf.reverse(b, axis=[0, 1]))  # P B P = C Cᵀ
    factor = tf.reverse(tf.transpose(tf.linalg.triangular_solve(c, eye)), axis=[0, 1])  # P C⁻ᵀ P: lower-triangular
    if model.whiten:
        return mean, factor
    return tf.matmul(chol, mean), tf.matmul(chol, factor)


def _deep_ensemble(spec: ModelSpec, data: Dataset, encoder) -> TrainableProbabilisticModel:
    import tf_keras
    from trieste.models.keras import DeepEnsemble, KerasPredictor, build_keras_ensemble  # noqa: F401 (tf-keras)
    from trieste.models.optimizer import KerasOptimizer

    network = build_keras_ensemble(data, spec.ensemble_size, num_hidden_layers=2, units=50)
    fit_args = {"batch_size": 32, "epochs": spec.ensemble_epochs, "verbose": 0}
    optimizer = KerasOptimizer(tf_keras.optimizers.Adam(0.01), fit_args)
    return DeepEnsemble(network, optimizer, encoder=encoder)


def build_models(spec: ModelSpec, space: SearchSpace, data: Dataset) -> TrainableProbabilisticModel:
    """One model per objective column; several are stacked."""
    columns = data.observations.shape[-1]
    if columns == 1:
        return build_model(spec, space, data)
    return TrainableModelStack(
        *[(build_model(spec, space, Dataset(data.query_points, data.observations[:, i : i + 1])), 1) for i in range(columns)]
    )


def fit(model: TrainableProbabilisticModel, data: Dataset) -> float:
    """Update the model with `data`, optimise it, and return its training objective (ELBO / log marginal
    likelihood / negative ensemble loss; summed over a stack) for the record."""
    return fit_and_report(model, data)[0]


def fit_and_report(model: TrainableProbabilisticModel, data: Dataset) -> tuple[float, Any]:
    """`fit`'s objective and the fit's outcome (`fit_outcome`), for the record."""
    model.update(data)
    result = model.optimize(data)  # trieste hands back the optimiser's result (a list of them for a stack)
    return training_objective(model, data), fit_outcome(model, result)


def fit_outcome(model: TrainableProbabilisticModel, result: Any) -> dict[str, Any] | list[Any] | None:
    """What a GP's fit ended at, so a poor fit can be seen in the record: kernel lengthscales (a list) and variance,
    likelihood variance, the constant mean (None without one), scipy's final loss (the negative ELBO or log marginal
    likelihood less the log prior densities; the collapsed fit's is on the SGPR bound), L-BFGS-B's steps and why it
    stopped. A stack gives one per model; a model without these (a deep ensemble) gives None."""
    if isinstance(model, TrainableModelStack):
        return [fit_outcome(m, r) for m, r in zip(model._models, result)]
    inner = getattr(model, "model", None)
    if not isinstance(inner, (gpflow.models.SVGP, gpflow.models.GPR)) or not hasattr(result, "nit"):
        return None
    kernel, mean = inner.kernel, getattr(inner.mean_function, "c", None)
    lengthscales = getattr(kernel, "lengthscales", None)
    return {
        "lengthscales": None if lengthscales is None else np.atleast_1d(lengthscales.numpy()).astype(float).tolist(),
        "kernel_variance": _scalar(getattr(kernel, "variance", None)),
        "likelihood_variance": _scalar(inner.likelihood.variance),
        "mean_constant": _scalar(mean),
        "loss": float(result.fun),
        "steps": int(result.nit),
        "stopped": str(result.message),
    }


def _scalar(parameter: Any) -> float | None:
    return None if parameter is None else float(np.asarray(parameter.numpy()).reshape(-1)[0])


def training_objective(model: TrainableProbabilisticModel, data: Dataset) -> float:
    if isinstance(model, TrainableModelStack):
        return float(
            sum(
                training_objective(m, Dataset(data.query_points, data.observations[:, i : i + 1]))
                for i, m in enumerate(model._models)
            )
        )
    inner = getattr(model, "model", None)
    if isinstance(inner, gpflow.models.SVGP):
        encoded = model.encode(data) if hasattr(model, "encode") else data
        return float(inner.elbo((encoded.query_points, encoded.observations)))
    if isinstance(inner, gpflow.models.GPR):
        return float(inner.log_marginal_likelihood())
    return float("nan")


def model_state(model: TrainableProbabilisticModel) -> dict[str, np.ndarray]:
    """All variables of the model, for checkpoints (restore with `restore_model_state`)."""
    return {f"{i}": v.numpy() for i, v in enumerate(_variables(model))}


def restore_model_state(model: TrainableProbabilisticModel, state: dict[str, np.ndarray]) -> None:
    variables = _variables(model)
    if len(variables) != len(state):
        raise ValueError("checkpointed model state does not match the model")
    for i, v in enumerate(variables):
        v.assign(tf.constant(state[f"{i}"], dtype=v.dtype))
    for m in model._models if isinstance(model, TrainableModelStack) else [model]:
        if hasattr(m, "update_posterior_cache"):  # predictions (used by the next update) read a cache
            m.update_posterior_cache()


def _variables(model: TrainableProbabilisticModel) -> list[tf.Variable]:
    models = model._models if isinstance(model, TrainableModelStack) else [model]
    out: list[tf.Variable] = []
    for m in models:
        inner = getattr(m, "model", None)
        if isinstance(inner, tf.Module):
            out += list(inner.variables)
    return out
