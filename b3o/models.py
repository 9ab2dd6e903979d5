"""`StandardisedModel`: a user's trieste model fitted to standardised observations, so the loop is scale-free.

The rule standardises what the acquisition sees (`b3o.outputs.StandardisedView`), but a model fitted to raw values
is not the same model for f and a * f + b: trieste's `build_gpr` sets the kernel variance from the data and fixes
its priors and noise floor on an absolute scale, so the fitted lengthscales differ and so do the batches. trieste
4.6.1 has no outcome transform (BoTorch's `Standardize`); this wrapper is one. Each objective column is mapped by
y -> (y - mean) / std with the moments of the data of the current iteration before the model is built, updated or
fitted; predictions come back in the data's units. The model then sees the same numbers for f and for a * f + b
(a > 0), so its fit, the acquisition on the rule's standardised scale and the batches are the same, up to rounding.
"""

from __future__ import annotations

from typing import Any, Callable

import tensorflow as tf
from trieste.data import Dataset
from trieste.models import TrainableProbabilisticModel
from trieste.types import TensorType

from b3o.outputs import moments


class StandardisedModel(TrainableProbabilisticModel):
    """`build(standardised data)`'s model, trained on standardised observations, predicting in the data's units.

    :param build: makes the trieste model from a dataset (called once, on `dataset` standardised), e.g.
        ``lambda data: GaussianProcessRegression(build_gpr(data, search_space))``.
    :param dataset: the initial data, in any units.

    Example::

        import tensorflow as tf
        from trieste.models.gpflow import GaussianProcessRegression, build_gpr
        from trieste.objectives.utils import mk_observer
        from trieste.space import Box

        space = Box([0.0, 0.0], [1.0, 1.0])
        data = mk_observer(lambda x: 1e3 * tf.reduce_sum(x**2, axis=1, keepdims=True) + 7)(space.sample_sobol(5))
        model = b3o.StandardisedModel(lambda d: GaussianProcessRegression(build_gpr(d, space)), data)
        mean, variance = model.predict(data.query_points)  # in the data's units
    """

    def __init__(self, build: Callable[[Dataset], TrainableProbabilisticModel], dataset: Dataset):
        num_outputs = int(dataset.observations.shape[-1])
        # variables, so acquisition functions compiled on the predictions follow the moments without retracing
        self._mean = tf.Variable(tf.zeros([num_outputs], tf.float64), trainable=False)
        self._std = tf.Variable(tf.ones([num_outputs], tf.float64), trainable=False)
        self.model = build(self._standardised(dataset))

    def __repr__(self) -> str:
        return f"StandardisedModel({self.model!r})"

    def _standardised(self, dataset: Dataset) -> Dataset:
        """`dataset` on the scale of its own moments, which become the model's."""
        mean, std = moments(dataset.observations.numpy())
        self._mean.assign(mean)
        self._std.assign(std)
        return Dataset(dataset.query_points, (dataset.observations - self._mean) / self._std)

    def update(self, dataset: Dataset) -> None:
        self.model.update(self._standardised(dataset))

    def optimize(self, dataset: Dataset) -> Any:
        return self.model.optimize(self._standardised(dataset))

    def predict(self, query_points: TensorType) -> tuple[TensorType, TensorType]:
        mean, variance = self.model.predict(query_points)
        return mean * self._std + self._mean, variance * self._std**2

    def predict_y(self, query_points: TensorType) -> tuple[TensorType, TensorType]:
        mean, variance = self.model.predict_y(query_points)  # type: ignore[attr-defined]
        return mean * self._std + self._mean, variance * self._std**2

    def sample(self, query_points: TensorType, num_samples: int) -> TensorType:
        return self.model.sample(query_points, num_samples) * self._std + self._mean

    def log(self, dataset: Dataset | None = None) -> None:
        self.model.log(None if dataset is None else self._standardised(dataset))
