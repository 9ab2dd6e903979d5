"""`StandardisedModel`: a user's trieste model fitted to standardised observations, so the loop is scale-free.

The rule standardises what the acquisition sees (`b3o.outputs.StandardisedView`), but a model fitted to raw values
is not the same model for f and a * f + b: trieste's `build_gpr` sets the kernel variance from the data and fixes
its priors and noise floor on an absolute scale, so the fitted lengthscales differ and so do the batches. trieste
4.6.1 has no outcome transform (BoTorch's `Standardize`); this wrapper is one. Each objective column is mapped by
y -> (y - mean) / std with the moments of the data of the current iteration before the model is built, updated or
fitted; predictions come back in the data's units. The model then sees the same numbers for f and for a * f + b
(a > 0), so its fit, the acquisition on the rule's standardised scale and the batches are the same, up to rounding.

What trieste's other rules ask of a model, the wrapper offers when the wrapped model has it, mapped back to the
data's units: `reparam_sampler` (batch Monte-Carlo EI), `trajectory_sampler` (Thompson sampling), `predict_joint`,
`get_internal_data`, `get_observation_noise`, and `encoder`. Anything else of the wrapped model lives on the
standardised scale and is reached as `.model`.
"""

from __future__ import annotations

import functools
from typing import Any, Callable

import numpy as np
import tensorflow as tf
from trieste.data import Dataset
from trieste.models import TrainableProbabilisticModel
from trieste.models.interfaces import ReparametrizationSampler, TrajectorySampler
from trieste.types import TensorType

from b3o.inputs import check_dataset
from b3o.outputs import moments, spreadless

#: what the wrapper offers when the wrapped model has it (`StandardisedModel.__getattr__`), in the data's units
_OFFERED = ("reparam_sampler", "trajectory_sampler", "predict_joint", "get_internal_data", "get_observation_noise")


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
        if not callable(build):
            raise ValueError(f"build must be a function from a Dataset to a trieste model, got {build!r}")
        num_outputs = int(dataset.observations.shape[-1])
        # variables, so acquisition functions compiled on the predictions follow the moments without retracing
        self._mean = tf.Variable(tf.zeros([num_outputs], tf.float64), trainable=False)
        self._std = tf.Variable(tf.ones([num_outputs], tf.float64), trainable=False)
        standardised = self._standardised(dataset)
        try:
            self.model = build(standardised)
        except tf.errors.InvalidArgumentError:  # gpflow's "the value to be assigned ... has NaN or Inf"
            flat = _spreadless_text(dataset.observations.numpy())
            if flat is None:
                raise
            raise ValueError(
                f"StandardisedModel's build failed on data without spread: {flat}, so the standardised observations "
                "are all 0 and a model that takes its scale from the data's variance (trieste's build_gpr: kernel "
                "variance and noise) gets 0; add points with different values, or build the model with a scale of "
                "its own (on standardised data, a kernel variance of 1)"
            ) from None
        self.__class__ = _offering(self.model)

    def __repr__(self) -> str:
        return f"StandardisedModel({self.model!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled and copied as a `StandardisedModel` offering what its wrapped model has (`_offering`)."""
        return _restore, (self.__dict__,)

    def __getattr__(self, name: str) -> Any:
        """The wrapped model's `encoder`; for any other attribute of the wrapped model, an error saying where it is."""
        model = self.__dict__.get("model")
        if model is not None and hasattr(model, name):
            if name == "encoder":
                return model.encoder
            raise AttributeError(
                f"StandardisedModel offers {', '.join(_OFFERED)} of the wrapped model in the data's units; its "
                f"{name!r} is on the standardised scale: use `.model.{name}`"
            )
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _reparam_sampler(self, num_samples: int) -> ReparametrizationSampler:
        return _DestandardisedSampler(self.model.reparam_sampler(num_samples), self)

    def _trajectory_sampler(self) -> TrajectorySampler:
        return _DestandardisedTrajectories(self.model.trajectory_sampler(), self)

    def _predict_joint(self, query_points: TensorType) -> tuple[TensorType, TensorType]:
        mean, covariance = self.model.predict_joint(query_points)  # covariance [..., L, N, N]
        std = self._std[:, None, None]
        return mean * self._std + self._mean, covariance * std**2

    def _get_internal_data(self) -> Dataset:
        data = self.model.get_internal_data()
        return Dataset(data.query_points, data.observations * self._std + self._mean)

    def _get_observation_noise(self) -> TensorType:
        return self.model.get_observation_noise() * self._std**2

    def _standardised(self, dataset: Dataset) -> Dataset:
        """`dataset` on the scale of its own moments, which become the model's."""
        check_dataset("StandardisedModel's dataset", dataset)
        mean, std = moments(dataset.observations.numpy())
        self._mean.assign(mean)
        self._std.assign(std)
        return Dataset(dataset.query_points, (dataset.observations - self._mean) / self._std)

    def update(self, dataset: Dataset) -> None:
        """Update the wrapped model with `dataset` standardised by its own moments (which become the model's)."""
        self.model.update(self._standardised(dataset))

    def optimize(self, dataset: Dataset) -> Any:
        """Fit the wrapped model's hyperparameters to `dataset`, standardised by its own moments."""
        return self.model.optimize(self._standardised(dataset))

    def predict(self, query_points: TensorType) -> tuple[TensorType, TensorType]:
        """Mean and variance of the latent function, in the data's units."""
        mean, variance = self.model.predict(query_points)
        return mean * self._std + self._mean, variance * self._std**2

    def predict_y(self, query_points: TensorType) -> tuple[TensorType, TensorType]:
        """Mean and variance of an observation (noise included), in the data's units."""
        mean, variance = self.model.predict_y(query_points)  # type: ignore[attr-defined]
        return mean * self._std + self._mean, variance * self._std**2

    def sample(self, query_points: TensorType, num_samples: int) -> TensorType:
        """`num_samples` joint draws of the latent function at `query_points`, in the data's units."""
        return self.model.sample(query_points, num_samples) * self._std + self._mean

    def log(self, dataset: Dataset | None = None) -> None:
        """The wrapped model's logging (TensorBoard summaries), on the standardised data."""
        self.model.log(None if dataset is None else self._standardised(dataset))


class _DestandardisedSampler(ReparametrizationSampler):
    """The wrapped model's reparametrisation sampler, its samples in the data's units."""

    def __init__(self, sampler: ReparametrizationSampler, model: StandardisedModel):
        super().__init__(sampler._sample_size, model)
        self.sampler = sampler

    def sample(self, at: TensorType, *, jitter: float = 1e-6) -> TensorType:
        """Samples [..., S, N, L] at `at`, the same draws as the wrapped sampler's, in the data's units."""
        return self.sampler.sample(at, jitter=jitter) * self._model._std + self._model._mean

    def reset_sampler(self) -> None:
        """New draws on the next `sample`, as the wrapped sampler's."""
        self.sampler.reset_sampler()


class _DestandardisedTrajectories(TrajectorySampler):
    """The wrapped model's trajectory sampler, its trajectories in the data's units. It keeps the wrapped sampler's
    trajectory itself: trieste hands `update_trajectory` the function it made of ours (negated), not ours."""

    def __init__(self, sampler: TrajectorySampler, model: StandardisedModel):
        super().__init__(model)
        self.sampler = sampler
        self._trajectory: _DestandardisedTrajectory | None = None

    def get_trajectory(self) -> _DestandardisedTrajectory:
        """A new trajectory of the wrapped model, in the data's units."""
        self._trajectory = _DestandardisedTrajectory(self.sampler.get_trajectory(), self._model)
        return self._trajectory

    def resample_trajectory(self, trajectory: Any) -> _DestandardisedTrajectory:
        """The current trajectory redrawn (the wrapped sampler's `resample_trajectory`)."""
        return self._replaced("resample_trajectory")

    def update_trajectory(self, trajectory: Any) -> _DestandardisedTrajectory:
        """The current trajectory updated to the wrapped model's new fit (the wrapped sampler's `update_trajectory`)."""
        return self._replaced("update_trajectory")

    def _replaced(self, how: str) -> _DestandardisedTrajectory:
        if self._trajectory is None:
            return self.get_trajectory()
        self._trajectory.trajectory = getattr(self.sampler, how)(self._trajectory.trajectory)
        return self._trajectory


class _DestandardisedTrajectory:
    """trajectory(x) * std + mean: a trajectory [N, B, d] -> [N, B, L] in the data's units."""

    def __init__(self, trajectory: Callable[[TensorType], TensorType], model: StandardisedModel):
        self.trajectory = trajectory
        self.model = model

    def __call__(self, x: TensorType) -> TensorType:
        return self.trajectory(x) * self.model._std + self.model._mean


def _spreadless_text(observations: np.ndarray) -> str | None:
    """What leaves `observations` [N, K] without spread, in words ("the observations are all equal (y = 3 at all 5
    points)", "the data hold one point (y = 3)"), or None when every column has spread."""
    flat = spreadless(observations)
    if not flat.any():
        return None
    values = ", ".join(f"{value:g}" for value in observations[0, flat])
    y = "y" if len(flat) == 1 else f"y[{', '.join(str(k) for k in np.flatnonzero(flat))}]"
    if len(observations) == 1:
        return f"the data hold one point ({y} = {values})"
    return f"the observations are all equal ({y} = {values} at all {len(observations)} points)"


@functools.cache
def _subclass(offered: tuple[str, ...]) -> type[StandardisedModel]:
    """`StandardisedModel` with the methods `offered` public: trieste's rules test for them with `isinstance` on
    runtime protocols, which look them up on the class, not through `__getattr__`."""
    methods = {name: getattr(StandardisedModel, f"_{name}") for name in offered}
    return type("StandardisedModel", (StandardisedModel,), {**methods, "__doc__": StandardisedModel.__doc__})


def _offering(model: Any) -> type[StandardisedModel]:
    """The `StandardisedModel` class that offers what `model` has of `_OFFERED`."""
    return _subclass(tuple(name for name in _OFFERED if hasattr(model, name)))


def _restore(state: dict[str, Any]) -> StandardisedModel:
    wrapper = StandardisedModel.__new__(StandardisedModel)
    wrapper.__dict__.update(state)
    wrapper.__class__ = _offering(wrapper.model)
    return wrapper
