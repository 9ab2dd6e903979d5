"""The initial design: the points every method sees before it acts, given (problem, seed), so that every comparison
of methods is paired. TensorFlow-free, below the bench that runs trials from it (`bench.runner`) and the margins
derived from it (`problems.margins`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from scipy.stats import qmc

from b3o.space import layout
from harness.seeding import Purpose, derived_seed

if TYPE_CHECKING:
    from problems import Problem


def initial_design(problem: Problem, n: int, seed: int) -> np.ndarray:
    """n space-filling feasible points: a scrambled Sobol sequence (categories by floor), infeasible points skipped."""
    lay = layout(problem.search_space)
    sobol = qmc.Sobol(lay.dim, scramble=True, seed=seed)
    kept: list[np.ndarray] = []
    for _ in range(1000):
        x = lay.from_unit(sobol.random_base2(int(np.ceil(np.log2(max(n, 64))))))  # powers of 2 keep Sobol's balance
        kept.append(x[lay.feasible(x)])
        if sum(len(k) for k in kept) >= n:
            return np.concatenate(kept)[:n]
    raise ValueError(f"{problem.name}: could not find {n} feasible initial points")


def trial_design(problem: Problem, n_init: int, seed: int) -> np.ndarray:
    """The initial design of trial seed `seed` (iteration 0): every method sees it, given (problem, seed)."""
    return initial_design(problem, n_init, derived_seed(seed, 0, Purpose.INITIAL_DESIGN))
