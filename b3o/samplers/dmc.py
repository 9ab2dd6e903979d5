"""Discretised Monte Carlo: importance resampling of a scrambled Sobol set.

The density is evaluated once on N space-filling points (scipy's scrambled Sobol sequence, seeded from the
sampler's generator); the batch is drawn with replacement with probabilities softmax(log p). Points violating
explicit constraints get probability zero and are not evaluated. A point picked again is not repeated: the repeat
is moved off it by Metropolis-Hastings steps targeting p, scaled to the volume 1 / N each point stands for
(`distinct_picks`), so a batch is B distinct points. The effective sample size 1 / sum(w^2) of the weights says how
many grid points really carry the mass: when it approaches the batch size, most of the batch comes from those moves
and N should grow.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.stats import qmc

from b3o.density import LogDensity, safe_log_softmax
from b3o.samplers.base import Sampler, distinct_picks
from b3o.space import Layout


class DiscretisedMonteCarlo(Sampler):
    """Discretised Monte Carlo: the density on `num_points` scrambled Sobol points, B of them resampled by weight (a
    repeat moved off its pick by Metropolis-Hastings steps)."""

    name = "dmc"

    def __init__(self, num_points: int = 2**14):
        super().__init__()
        if num_points < 1:
            raise ValueError(f"num_points must be at least 1, got {num_points}")
        self.num_points = int(num_points)

    def _sample(
        self, density: LogDensity, lay: Layout, num_samples: int, rng: np.random.Generator
    ) -> tuple[np.ndarray, dict[str, Any]]:
        sobol = qmc.Sobol(lay.dim, scramble=True, seed=rng)
        points = lay.from_unit(sobol.random(self.num_points))
        log_w = np.full(self.num_points, -np.inf)
        feasible = lay.feasible(points)
        log_w[feasible] = density(points[feasible])
        weights = np.exp(safe_log_softmax(log_w))
        chosen = rng.choice(self.num_points, size=num_samples, p=weights)
        side = np.full((self.num_points, 1), self.num_points ** (-1.0 / lay.dim))  # the volume a point stands for
        x, distinct = distinct_picks(lay, points, log_w, chosen, side, density, rng)
        return x, {
            "ess": float(1.0 / np.sum(weights**2)),
            **distinct,
            "feasible_fraction": float(feasible.mean()),
        }
