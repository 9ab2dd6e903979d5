"""Observations as surrogates see them (the initial design they start from is `problems.design`'s).

One owner, used by the trial runner, `b3o scaling` and the illustrations, so a change of convention (the minimisation
sign, the output standardisation) reaches all of them at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import tensorflow as tf
from trieste.data import Dataset

from bench.standardise import OutputScale

if TYPE_CHECKING:
    from problems import Problem


def model_dataset(problem: Problem, points: np.ndarray, observations: np.ndarray) -> tuple[Dataset, OutputScale]:
    """The data as models and methods see it: minimisation convention, each objective standardised."""
    y = problem.minimisation_sign * np.asarray(observations, dtype=np.float64)
    scale = OutputScale.fit(y, problem.observations_standardised)
    return Dataset(tf.constant(points, dtype=tf.float64), tf.constant(scale.apply(y))), scale


def observed_dataset(problem: Problem, points: np.ndarray, rng: np.random.Generator) -> Dataset:
    """`points` observed once (noise drawn from `rng`), as a model sees them."""
    return model_dataset(problem, points, problem.observe(points, rng))[0]
