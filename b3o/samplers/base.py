"""The sampler interface: `sample(log_density, space, num_samples, *, seed) -> [num_samples, d]`.

Subclasses implement `_sample` on a wrapped `LogDensity` and a `Layout`, drawing all randomness from the NumPy
generator they are given, and return the samples with a dict of sampler-specific statistics. The public `sample`
adds what every sampler reports (density evaluations, wall time) and keeps it in `diagnostics`.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from typing import Any, Callable

import numpy as np
from trieste.space import SearchSpace

from b3o.density import LogDensity, LogDensityFn
from b3o.space import Layout, continuous_layout


class Sampler(ABC):
    name: str = ""

    def __init__(self) -> None:
        self.diagnostics: dict[str, Any] = {}

    def check_space(self, space: SearchSpace) -> Layout:
        """The space's layout, or a clear error if this sampler cannot handle it (checked before any work)."""
        return continuous_layout(space, self.name)

    def sample(
        self, log_density: LogDensityFn, space: SearchSpace, num_samples: int, *, seed: int | None = None
    ) -> np.ndarray:
        if int(num_samples) < 1:
            raise ValueError(f"num_samples must be at least 1, got {num_samples}")
        lay = self.check_space(space)
        density = log_density if isinstance(log_density, LogDensity) else LogDensity(log_density)
        evals_before, calls_before, density_seconds_before = density.num_evals, density.num_calls, density.seconds
        start = time.perf_counter()
        x, stats = self._sample(density, lay, int(num_samples), np.random.default_rng(seed))
        self.diagnostics = {
            "sampler": self.name,
            "num_density_evals": density.num_evals - evals_before,
            "num_density_calls": density.num_calls - calls_before,
            "sampler_seconds": time.perf_counter() - start,
            "density_seconds": density.seconds - density_seconds_before,
            **stats,
        }
        return x

    @abstractmethod
    def _sample(
        self, density: LogDensity, lay: Layout, num_samples: int, rng: np.random.Generator
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Draw `num_samples` points; return them with sampler-specific statistics."""


def check_chain_options(
    num_chains: int | None, burn_in: int, thin: int, step_size: float, target_acceptance: float, min_burn_in: int
) -> None:
    """The options every MCMC sampler shares, checked once for all: one ValueError naming the bounds."""
    if burn_in < min_burn_in or thin < 1 or step_size <= 0 or (num_chains is not None and num_chains < 1):
        raise ValueError(
            f"need burn_in >= {min_burn_in}, thin >= 1, step_size > 0 and num_chains >= 1 (or None)"
        )
    if not 0 < target_acceptance < 1:
        raise ValueError("target_acceptance must lie in (0, 1)")


def finite_starts(
    density: LogDensity, lay: Layout, rng: np.random.Generator, n: int, max_rounds: int = 100
) -> tuple[np.ndarray, np.ndarray]:
    """n uniform feasible chain starts with finite log density, and their log densities.

    A chain started where the density is -inf has no gradient and no meaningful acceptance ratio to move by, so
    MCMC samplers start only at points of positive density; redrawing is bounded, then it is a clear error.
    """
    starts, values = np.empty((0, lay.dim)), np.empty(0)
    for _ in range(max_rounds):
        x = lay.uniform_feasible(rng, n)
        log_p = density(x)
        ok = np.isfinite(log_p)
        starts, values = np.concatenate([starts, x[ok]]), np.concatenate([values, log_p[ok]])
        if len(values) >= n:
            return starts[:n], values[:n]
    raise ValueError(
        f"the log density is -inf at all but {len(values)} of {max_rounds * n} uniform draws: "
        "nothing to start chains from"
    )


def distinct_picks(
    lay: Layout, points: np.ndarray, chosen: np.ndarray, draw_in_cell: Callable[[np.ndarray], np.ndarray],
    max_rounds: int = 100,
) -> tuple[np.ndarray, dict[str, Any]]:
    """`points[chosen]` with every repeat of an earlier pick replaced by a fresh draw inside that pick's cell.

    Resampling (importance or discretised) picks a point as often as its weight says, but in batch BO a repeated point
    is a parallel evaluation thrown away. The first pick of a point is kept; each further pick keeps the choice of
    the cell (so the cells' masses are those the weights give) and takes a new point inside it from
    `draw_in_cell(point indices) -> [m, d]`, redrawn while infeasible. Returns the batch and how many picks repeated.
    """
    x = points[chosen].copy()
    first = np.zeros(len(chosen), dtype=bool)
    first[np.unique(chosen, return_index=True)[1]] = True
    pending = np.flatnonzero(~first)
    repeats = len(pending)
    for _ in range(max_rounds):
        if not len(pending):
            break
        fresh = draw_in_cell(chosen[pending])
        ok = lay.feasible(fresh)
        x[pending[ok]] = fresh[ok]
        pending = pending[~ok]
    return x, {"repeated_picks": repeats, "unique_fraction": len(np.unique(x, axis=0)) / len(x)}
