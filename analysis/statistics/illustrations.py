"""The computations behind the two illustrative figures (paper Figs. 1 and 2): a GP on a few points of a registry
problem, its posterior, Thompson-sampling trajectories, the UCB acquisition and B3O batches drawn with DEFER.

Everything is in the problem's sense (the synthetic problems maximise, as in the paper; trieste's model is fitted in
its minimisation convention, as in the trial runner) and on the standardised scale the synthetic problems are
observed on. TensorFlow is imported
here only, so the table-driven figures start quickly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import tensorflow as tf
from trieste.data import Dataset
from trieste.models.gpflow import GaussianProcessRegression, build_gpr
from trieste.observer import OBJECTIVE

import problems
from b3o import BoltzmannBatch, Constant, acquisitions, samplers
from bench.design import model_dataset
from problems.synthetic import SyntheticProblem


@dataclass
class Fitted:
    """A GPR fitted to `x`, `y` (maximisation, standardised units) of `problem`."""

    problem: SyntheticProblem
    model: GaussianProcessRegression
    x: np.ndarray
    y: np.ndarray

    @property
    def dataset(self) -> Dataset:
        """The data as the trial runner's models see it (the synthetic problems' scale is the identity)."""
        return model_dataset(self.problem, self.x, self.y)[0]


def fit_gpr(name: str, num_points: int, seed: int, noise_variance: float = 0.01) -> Fitted:
    """A GPR on `num_points` uniform points of registry problem `name`, observed with a small noise for clarity."""
    problem = problems.get(name, noise_variance=noise_variance)
    rng = np.random.default_rng(seed)
    x = rng.random((num_points, problem.dim))
    y = problem.observe(x, rng)
    tf.random.set_seed(seed)
    data = model_dataset(problem, x, y)[0]
    model = GaussianProcessRegression(build_gpr(data, problem.search_space, likelihood_variance=noise_variance))
    model.optimize(data)
    return Fitted(problem, model, x, y)


def truth(fitted: Fitted, x: np.ndarray) -> np.ndarray:
    """The noiseless objective on the observation scale, [N]."""
    return fitted.problem.observation_scale(fitted.problem.evaluate(x))[:, 0]


def posterior(fitted: Fitted, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Posterior mean and standard deviation of the objective at x, [N] each."""
    mean, var = fitted.model.predict(tf.constant(x))
    return fitted.problem.minimisation_sign * mean.numpy()[:, 0], np.sqrt(var.numpy()[:, 0])


def thompson_trajectories(fitted: Fitted, x: np.ndarray, num: int, seed: int) -> np.ndarray:
    """`num` posterior trajectories (trieste's decoupled sampler) evaluated on x: [N, num]."""
    tf.random.set_seed(seed)
    trajectory = fitted.model.trajectory_sampler().get_trajectory()
    batched = tf.constant(np.repeat(x[:, None, :], num, axis=1))
    return fitted.problem.minimisation_sign * trajectory(batched).numpy()[..., 0]


def ucb(fitted: Fitted) -> Callable[[np.ndarray], np.ndarray]:
    """B3O's UCB acquisition α(x) = μ + √β σ as a function of points [N, d] -> [N]."""
    function = acquisitions.get("ucb").prepare_acquisition_function(fitted.model, dataset=fitted.dataset)
    return lambda x: function(tf.constant(x)[:, None, :]).numpy()[:, 0]


def b3o_batch(fitted: Fitted, lam: float, batch_size: int, seed: int, budget: int = 10_000) -> np.ndarray:
    """A B3O batch: `batch_size` DEFER draws from p(x) ∝ exp(λ UCB(x)), through `BoltzmannBatch` as in a BO loop."""
    rule = BoltzmannBatch(
        acquisitions.get("ucb"), samplers.get("defer", budget=budget), Constant(lam), batch_size, seed=seed,
        seed_from_data=False,  # the (seed, t) stream the committed figures were drawn with
    )
    return rule.acquire(fitted.problem.search_space, {OBJECTIVE: fitted.model}, {OBJECTIVE: fitted.dataset}).numpy()


def boltzmann_density(alpha: np.ndarray, lam: float, cell_volume: float) -> np.ndarray:
    """exp(λα) normalised over a regular grid with cells of `cell_volume`: the density B3O samples from."""
    log_p = lam * (alpha - alpha.max())
    return np.exp(log_p) / (np.exp(log_p).sum() * cell_volume)
