"""Metropolis-adjusted Langevin (MALA) with TensorFlow Probability.

The chains live in an unconstrained space z with x = lower + width * sigmoid(z) (tfp's `TransformedTransitionKernel`
with a `Sigmoid` bijector adds the log-Jacobian), so the box needs no reflection and the Metropolis correction stays
exact. Gradients come from TensorFlow autodiff through the log density, which must therefore be written in
TensorFlow (a trieste acquisition function is). The step size is adapted during burn-in towards 0.57 acceptance,
the optimal rate for MALA (Robbins-Monro steps between blocks of 10 burn-in steps; tfp's `SimpleStepSizeAdaptation`
cannot reach MALA's step size through its kernel results), then frozen. Explicit constraints make the density
-inf outside the feasible set, so such proposals are rejected. A batch is one state per chain, or states `thin`
steps apart when fewer chains than samples are requested (`num_chains`); with the default one chain per sample
`thin` is not used.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import tensorflow as tf
import tensorflow_probability as tfp

from b3o.density import LogDensity
from b3o.samplers.base import Sampler, check_chain_options, finite_starts
from b3o.space import Layout


class Langevin(Sampler):
    """MALA (tfp's kernels) in sigmoid-transformed coordinates, one chain per sample, step adapted during burn-in."""

    name = "langevin"
    _ADAPT_BLOCK = 10  # burn-in steps between step-size updates

    def __init__(
        self,
        num_chains: int | None = None,
        burn_in: int = 1000,
        thin: int = 10,
        step_size: float = 0.1,
        target_acceptance: float = 0.57,
    ):
        super().__init__()
        check_chain_options(num_chains, burn_in, thin, step_size, target_acceptance, min_burn_in=1)
        self.num_chains = num_chains
        self.burn_in = burn_in
        self.thin = thin
        self.step_size = step_size  # initial step in the unconstrained (logit) coordinates
        self.target_acceptance = target_acceptance

    def _sample(
        self, density: LogDensity, lay: Layout, num_samples: int, rng: np.random.Generator
    ) -> tuple[np.ndarray, dict[str, Any]]:
        chains = self.num_chains or num_samples
        per_chain = -(-num_samples // chains)
        space = lay.space

        def target(x: tf.Tensor) -> tf.Tensor:
            log_p = density.tf_log_prob(x)
            if space.has_constraints:
                log_p = tf.where(space.is_feasible(x), log_p, tf.constant(-np.inf, tf.float64))
            return log_p

        step_size = tf.Variable(self.step_size, dtype=tf.float64)  # read at every step: adapting never retraces
        kernel = tfp.mcmc.TransformedTransitionKernel(
            tfp.mcmc.MetropolisAdjustedLangevinAlgorithm(target, step_size=step_size),
            bijector=tfp.bijectors.Sigmoid(low=tf.constant(lay.lower), high=tf.constant(lay.upper)),
        )

        @tf.function
        def run(initial: tf.Tensor, seed: tf.Tensor, num_results: int, thin: int):
            return tfp.mcmc.sample_chain(
                num_results=num_results,
                current_state=initial,
                kernel=kernel,
                num_steps_between_results=thin - 1,
                trace_fn=lambda _, results: results.inner_results.is_accepted,
                seed=seed,
            )

        def seed() -> tf.Tensor:
            return tf.constant(rng.integers(0, 2**31 - 1, size=2), dtype=tf.int32)

        state = tf.constant(finite_starts(density, lay, rng, chains)[0])
        # Burn-in in blocks; between blocks a Robbins-Monro step on log(step size) towards the target acceptance.
        block = min(self._ADAPT_BLOCK, self.burn_in)
        for k in range(-(-self.burn_in // block)):
            states, accepted = run(state, seed(), block, 1)
            state = states[-1]
            rate = float(np.mean(accepted))
            step_size.assign(step_size * np.exp(2.0 * (rate - self.target_acceptance) / (1.0 + k) ** 0.5))
        states, accepted = run(state, seed(), per_chain, self.thin)  # [per_chain, chains, d], [per_chain, chains]
        blocks = -(-self.burn_in // block)
        density.num_evals += chains * (blocks * _chain_evals(block, 1) + _chain_evals(per_chain, self.thin))
        samples = np.asarray(states).reshape(-1, lay.dim)[:num_samples]
        return samples, {
            "acceptance_rate": float(np.mean(accepted)),
            "step_size": float(step_size.numpy()),
            "num_chains": chains,
        }


def _chain_evals(num_results: int, thin: int) -> int:
    """Target evaluations of one chain in one `sample_chain` call: one at its initial state (the kernel's bootstrap),
    then one per step; the first result is one step on and each later one `thin` steps after the last."""
    return 1 + 1 + (num_results - 1) * thin
