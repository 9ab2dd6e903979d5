"""Points and data before any method acts: the initial design, and observations as surrogates see them.

One owner for both, used by the trial runner, `b3o scaling` and the illustrations, so a change of convention (the
design's sequence, the minimisation sign, the output standardisation) reaches all of them at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import tensorflow as tf
from scipy.stats import qmc
from trieste.data import Dataset

from b3o.space import layout
from baselines.standardise import OutputScale
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


def model_dataset(problem: Problem, points: np.ndarray, observations: np.ndarray) -> tuple[Dataset, OutputScale]:
    """The data as models and methods see it: minimisation convention, each objective standardised."""
    y = problem.minimisation_sign * np.asarray(observations, dtype=np.float64)
    scale = OutputScale.fit(y, problem.observations_standardised)
    return Dataset(tf.constant(points, dtype=tf.float64), tf.constant(scale.apply(y))), scale


def observed_dataset(problem: Problem, points: np.ndarray, rng: np.random.Generator) -> Dataset:
    """`points` observed once (noise drawn from `rng`), as a model sees them."""
    return model_dataset(problem, points, problem.observe(points, rng))[0]
