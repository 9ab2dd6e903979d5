"""Random-walk Metropolis-Hastings, vectorised over many chains, for continuous and mixed spaces.

All chains advance together, so each step costs one batched density call. Continuous coordinates move by a
Gaussian random walk scaled to the bounds and folded back into the box by reflection (a symmetric proposal);
categorical coordinates are each resampled uniformly over their categories with probability `category_prob`
(also symmetric), so the acceptance probability is the density ratio. Infeasible proposals (explicit constraints)
have density zero and are rejected without evaluating the density. Chains start at uniform draws of finite
density. During burn-in the random-walk scale is adapted
by Robbins-Monro steps on its logarithm towards `target_acceptance` (0.23, the optimal rate for random-walk
proposals); it is frozen afterwards so the post-burn-in chain is a valid Markov chain. A batch is one state per
chain, or, when fewer chains than samples are requested (`num_chains`), states `thin` steps apart. `thin` spaces the
states of a chain that gives several, so with the default (one chain per sample, `num_chains=None`) it is not used:
a batch is then the chains' states one step after burn-in whatever `thin` is.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from trieste.space import SearchSpace

from b3o.density import LogDensity
from b3o.samplers.base import Sampler, check_chain_options, finite_starts
from b3o.space import Layout, layout


class MetropolisHastings(Sampler):
    """Random-walk Metropolis-Hastings, vectorised over chains (one per sample by default), scale adapted to
    `target_acceptance` during burn-in; continuous boxes (`mixed-mh` for categories)."""

    name = "mh"

    def __init__(
        self,
        num_chains: int | None = None,
        burn_in: int = 1000,
        thin: int = 10,
        step_size: float = 0.1,
        target_acceptance: float = 0.23,
        category_prob: float | None = None,
    ):
        super().__init__()
        check_chain_options(num_chains, burn_in, thin, step_size, target_acceptance, min_burn_in=0)
        if category_prob is not None and not 0 < category_prob <= 1:
            raise ValueError("category_prob must lie in (0, 1]")
        self.num_chains = num_chains
        self.burn_in = burn_in
        self.thin = thin
        self.step_size = step_size  # initial random-walk scale, as a fraction of each coordinate's range
        self.target_acceptance = target_acceptance
        self.category_prob = category_prob  # default: one categorical coordinate resampled per step on average

    def _propose(self, lay: Layout, x: np.ndarray, scale: float, rng: np.random.Generator) -> np.ndarray:
        y = x.copy()
        if len(lay.continuous):
            y[:, lay.continuous] += scale * lay.width * rng.standard_normal((len(x), len(lay.continuous)))
            y = lay.reflect(y)
        if len(lay.categorical):
            p = self.category_prob or 1.0 / len(lay.categorical)
            resample = rng.random((len(x), len(lay.categorical))) < p
            fresh = np.floor(rng.random(resample.shape) * lay.num_categories)
            y[:, lay.categorical] = np.where(resample, fresh, y[:, lay.categorical])
        return y

    def _log_density(self, density: LogDensity, lay: Layout, x: np.ndarray) -> np.ndarray:
        values = np.full(len(x), -np.inf)
        ok = lay.feasible(x)
        values[ok] = density(x[ok])
        return values

    def _sample(
        self, density: LogDensity, lay: Layout, num_samples: int, rng: np.random.Generator
    ) -> tuple[np.ndarray, dict[str, Any]]:
        chains = self.num_chains or num_samples
        per_chain = -(-num_samples // chains)
        x, log_p = finite_starts(density, lay, rng, chains)
        log_scale = np.log(self.step_size)
        kept, accepted, proposed = [], 0, 0
        for step in range(self.burn_in + (per_chain - 1) * self.thin + 1):
            y = self._propose(lay, x, np.exp(log_scale), rng)
            log_q = self._log_density(density, lay, y)
            with np.errstate(invalid="ignore"):  # -inf - -inf: both impossible, reject
                accept = np.log(rng.random(chains)) < log_q - log_p
            x[accept], log_p[accept] = y[accept], log_q[accept]
            if step < self.burn_in:
                log_scale += (accept.mean() - self.target_acceptance) / (1.0 + step) ** 0.6
            else:
                accepted += int(accept.sum())
                proposed += chains
                if (step - self.burn_in) % self.thin == 0:
                    kept.append(x.copy())
        samples = np.concatenate(kept)[:num_samples]  # states grouped by time, so chains contribute evenly
        return samples, {
            "acceptance_rate": accepted / max(proposed, 1),
            "step_size": float(np.exp(log_scale)),
            "num_chains": chains,
        }


class MixedMetropolisHastings(MetropolisHastings):
    """The same chains on a TaggedProductSearchSpace of Box and CategoricalSearchSpace parts."""

    name = "mixed-mh"

    def check_space(self, space: SearchSpace) -> Layout:
        """Any Box, categorical or tagged-product space of the two."""
        return layout(space)
