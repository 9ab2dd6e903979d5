"""The scale on which B3O's acquisitions see a model: each objective standardised by the current data's moments.

Table 2's lambda acts on UCB in units of the objective's spread (the paper standardises its observations), so
exp(lambda * alpha) means the same thing only if alpha is on that scale. A user's model fitted to raw values (prices in
dollars, energies in Wh/kg) is therefore seen by the rule through `StandardisedView`: predictions and observations
mapped by y -> (y - mean) / std with the moments of the data of this iteration. LogEI and log EHVI only shift under
such a map, UCB is rescaled, and for a model whose fit commutes with an affine map of its outputs the density is then
exactly the same for f and for a * f + b.
"""

from __future__ import annotations

import numpy as np
import tensorflow as tf
from trieste.data import Dataset
from trieste.models import ProbabilisticModel
from trieste.types import TensorType


def spreadless(observations: np.ndarray) -> np.ndarray:
    """Per column of `observations` [N, K], whether it has no spread: one point, or all values equal."""
    observations = np.asarray(observations, dtype=np.float64)
    return np.all(observations == observations[:1], axis=0)


def moments(observations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-column mean and standard deviation of `observations` [N, K], so the map y -> (y - mean) / std is always
    defined: a column without spread (`spreadless`) has its value as mean and std 1, which takes it to 0 exactly (the
    computed moments of equal values are off by rounding: 0.1 at 3 points went to -1); one of non-finite spread has
    std 1."""
    observations = np.asarray(observations, dtype=np.float64)
    flat, std = spreadless(observations), observations.std(axis=0)
    mean = np.where(flat, observations[0], observations.mean(axis=0))
    return mean, np.where(~flat & np.isfinite(std) & (std > 0), std, 1.0)


class StandardisedView(ProbabilisticModel):
    """`model` as it would look fitted to standardised observations: its predictions mapped by (y - mean) / std.

    The moments live in TensorFlow variables, so an acquisition function built on the view is updated by `fit`, never
    retraced.
    """

    def __init__(self, model: ProbabilisticModel, num_outputs: int):
        self.model = model
        self._mean = tf.Variable(tf.zeros([num_outputs], tf.float64), trainable=False)
        self._std = tf.Variable(tf.ones([num_outputs], tf.float64), trainable=False)

    def fit(self, dataset: Dataset) -> Dataset:
        """Take the moments of `dataset`'s observations; returns the dataset on the standardised scale."""
        mean, std = moments(dataset.observations.numpy())
        self._mean.assign(mean)
        self._std.assign(std)
        return Dataset(dataset.query_points, (dataset.observations - self._mean) / self._std)

    def predict(self, query_points: TensorType) -> tuple[TensorType, TensorType]:
        mean, variance = self.model.predict(query_points)
        return (mean - self._mean) / self._std, variance / self._std**2

    def predict_y(self, query_points: TensorType) -> tuple[TensorType, TensorType]:
        mean, variance = self.model.predict_y(query_points)  # type: ignore[attr-defined]
        return (mean - self._mean) / self._std, variance / self._std**2

    def sample(self, query_points: TensorType, num_samples: int) -> TensorType:
        return (self.model.sample(query_points, num_samples) - self._mean) / self._std

    def log(self, dataset: Dataset | None = None) -> None:
        """Nothing to log: the view has no state of its own beyond the moments."""
