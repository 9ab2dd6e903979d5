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
    """Draws from a log density over a trieste search space; a subclass implements `_sample`. After each `sample`,
    `diagnostics` holds its statistics."""

    name: str = ""

    def __init__(self) -> None:
        self.diagnostics: dict[str, Any] = {}

    def check_space(self, space: SearchSpace) -> Layout:
        """The space's layout, or a clear error if this sampler cannot handle it (checked before any work)."""
        return continuous_layout(space, self.name)

    def sample(
        self, log_density: LogDensityFn, space: SearchSpace, num_samples: int, *, seed: int | None = None
    ) -> np.ndarray:
        """`num_samples` draws [num_samples, d] from exp(log_density) restricted to `space` (a callable [N, d] ->
        [N] in log space; NaN reads as -inf); the same seed gives the same draws."""
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
    lay: Layout,
    points: np.ndarray,
    log_p: np.ndarray,
    chosen: np.ndarray,
    scale: np.ndarray,
    log_density: Callable[[np.ndarray], np.ndarray],
    rng: np.random.Generator,
    steps: int = 5,
    max_steps: int = 60,
) -> tuple[np.ndarray, dict[str, Any]]:
    """`points[chosen]` with every repeat of an earlier pick moved off it by Metropolis-Hastings steps targeting p.

    Resampling (importance or discretised) picks a point as often as its weight says, but in batch BO a repeated point
    is a parallel evaluation thrown away. The first pick of a point stays; each repeat takes `steps` random-walk
    Metropolis-Hastings steps from the pick (`log_p` its log density): the resample-move step of sequential Monte
    Carlo. Each step leaves p invariant, so a repeat distributed as the resampled batch stays so distributed, and the
    narrow modes the weights found keep their picks. Step k is Gaussian with s.d. `scale` (the pick's cell as a
    fraction of the box, [m, d] or [m, 1]) / 2^k, folded into the box: small cells get small steps, and each step
    proposes closer. A repeat that rejected all `steps` keeps stepping at the last step's size until it moves (up to
    `max_steps`), a small departure from invariance for the few that do; a step that kept halving would end a hair's
    breadth from the pick, a point distinct only in its last digits. One batched density call per step, for the repeats only.
    Returns the batch and `repeated_picks`, `move_evals`, `unique_fraction`.
    """
    x, lp = points[chosen].copy(), log_p[chosen].copy()
    first = np.zeros(len(chosen), dtype=bool)
    first[np.unique(chosen, return_index=True)[1]] = True
    repeats = np.flatnonzero(~first)
    moved = np.zeros(len(chosen), dtype=bool)
    evals = 0
    for k in range(max_steps):
        active = repeats if k < steps else repeats[~moved[repeats]]
        if not len(active):
            break
        shrink = 0.5 ** min(k, steps - 1)  # past `steps`, the last step's size: a repeat moves a cell's 1/2^(steps−1), not 1e-18
        y = lay.reflect(x[active] + scale[chosen[active]] * shrink * lay.width * rng.standard_normal(x[active].shape))
        log_q = np.full(len(y), -np.inf)
        feasible = lay.feasible(y)
        log_q[feasible] = log_density(y[feasible])
        evals += int(feasible.sum())
        with np.errstate(invalid="ignore"):  # -inf - -inf: reject
            accept = np.log(rng.random(len(y))) < log_q - lp[active]
        x[active[accept]], lp[active[accept]] = y[accept], log_q[accept]
        moved[active[accept]] = True
    return x, {
        "repeated_picks": len(repeats),
        "move_evals": evals,
        "unique_fraction": len(np.unique(x, axis=0)) / len(x),
    }
