"""What `BoltzmannBatch` checks before any work: its arguments when it is built, and that space, data and models
agree when it acquires.

A wrong argument or bad data would otherwise surface deep inside trieste or TensorFlow (an autograph traceback,
"Dataset must be populated", "'float' object has no attribute 'choose'"), or not at all (a 1-D box with a 2-D model
returned a [B, 1] batch). Each check raises one `ValueError` naming the input, what was expected and what was given.
"""

from __future__ import annotations

import numbers
from typing import Any, Mapping, Optional

import numpy as np
from trieste.acquisition.function import (
    BatchExpectedImprovement,
    BatchMonteCarloExpectedHypervolumeImprovement,
    BatchMonteCarloExpectedImprovement,
)
from trieste.acquisition.interface import (
    GreedyAcquisitionFunctionBuilder,
    SingleModelGreedyAcquisitionBuilder,
    SingleModelVectorizedAcquisitionBuilder,
    VectorizedAcquisitionFunctionBuilder,
)
from trieste.data import Dataset
from trieste.models import ProbabilisticModel
from trieste.models.interfaces import SupportsGetInternalData
from trieste.space import SearchSpace
from trieste.types import Tag


def integer(name: str, value: Any, minimum: int, what: str = "") -> int:
    """`value` as an integer >= `minimum` (a bool, 2.5 or "4" is refused, not converted), else one ValueError naming
    `name`."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        kind = "a positive integer" if minimum == 1 else f"an integer >= {minimum}"
        raise ValueError(f"{name}{what} must be {kind}, got {value!r}")
    return int(value)


def flag(name: str, value: Any) -> bool:
    """`value` if it is True or False, else one ValueError naming `name`."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def batch_size(value: Any) -> int:
    """`value` as the batch size B: a positive integer."""
    return integer("batch_size", value, 1, " (the batch size B)")


#: trieste's batch builders, whose functions value a batch of points rather than one point: the greedy and vectorized
#: ones by trieste's own types; its joint ones (q-EI, q-EHVI) have no type of their own in trieste 4.6.1 (they are
#: single-model builders like LogEI), so they are named
_BATCH_BUILDERS = (
    GreedyAcquisitionFunctionBuilder,
    SingleModelGreedyAcquisitionBuilder,
    VectorizedAcquisitionFunctionBuilder,
    SingleModelVectorizedAcquisitionBuilder,
    BatchExpectedImprovement,
    BatchMonteCarloExpectedHypervolumeImprovement,
    BatchMonteCarloExpectedImprovement,
)


def pointwise(acquisition: Any) -> Any:
    """`acquisition` unless it is one of trieste's batch builders: B3O evaluates alpha one point at a time, [N, 1, d],
    and a batch builder accepted here failed only at acquire, with trieste's error about the model."""
    if isinstance(acquisition, _BATCH_BUILDERS):
        raise ValueError(
            f"acquisition {type(acquisition).__name__} is a batch acquisition of trieste's (greedy, vectorized or "
            "joint over a batch): BoltzmannBatch draws its batch from exp(lambda * alpha) of a point-wise acquisition "
            "alpha(x), one value per point; pass a point-wise one, e.g. LogExpectedImprovement or UCB "
            "(b3o.acquisitions.get('logei'), 'ucb')"
        )
    return acquisition


def chosen(name: str, value: Any, kind: type, registry: Any, example: str) -> Any:
    """`value` if it is a `kind`, the registered one if it is one of `registry.names()`, else one ValueError naming
    `name`, what is allowed and what was given."""
    if isinstance(value, kind):
        return value
    if isinstance(value, str):
        return registry.get(value)  # an unknown name is refused with the valid ones
    raise ValueError(
        f"{name} must be {example} or one of the names {', '.join(registry.names())}; got {value!r} "
        f"({type(value).__name__})"
    )


def check_dataset(label: str, dataset: Dataset, dim: int | None = None, space: SearchSpace | None = None) -> None:
    """`dataset` (named `label` in the error) is float64 (trieste's and gpflow's; float32 fails deep in TensorFlow),
    non-empty, with finite query points (of dimension `dim`, if given) and finite observations."""
    points, values = np.asarray(dataset.query_points), np.asarray(dataset.observations)
    for what, array in (("query points", points), ("observations", values)):
        if array.dtype != np.float64:
            raise ValueError(f"{label}: expected float64 {what} (trieste's and gpflow's), got {array.dtype}: "
                             "tf.cast them to tf.float64")
    if points.shape[0] == 0:
        raise ValueError(f"{label}: expected at least one observation, got an empty dataset")
    if dim is not None and points.shape[-1] != dim:
        raise ValueError(
            f"{label}: expected query points of the search space's dimension {dim}, got dimension "
            f"{points.shape[-1]} (search space {space!r})"
        )
    for what, array in (("query points", points), ("observations", values)):
        bad = ~np.isfinite(array).all(axis=-1)
        if bad.any():
            raise ValueError(
                f"{label}: expected finite {what}, got {int(bad.sum())} of {len(bad)} with NaN or inf "
                f"(first at row {int(np.flatnonzero(bad)[0])}, query point {points[np.flatnonzero(bad)[0]]})"
            )


def check_acquire(
    search_space: SearchSpace,
    models: Mapping[Tag, ProbabilisticModel],
    datasets: Optional[Mapping[Tag, Dataset]],
) -> None:
    """The data of each tag is non-empty, finite and has the space's dimension; so has each model's training data
    (a `b3o.StandardisedModel` shows its wrapped model's)."""
    dim = int(search_space.dimension)
    for tag, dataset in (datasets or {}).items():
        check_dataset(f"dataset {tag!r}", dataset, dim, search_space)
    for tag, model in models.items():
        if not isinstance(model, SupportsGetInternalData):
            continue  # a model that does not expose its data (a stack, a user's own): its dataset was checked above
        encoder = getattr(model, "encoder", None)
        expected = dim if encoder is None else int(encoder(search_space.sample(1)).shape[-1])
        got = int(model.get_internal_data().query_points.shape[-1])
        if got != expected:
            what = "the search space's dimension" if encoder is None else "the encoded search space's dimension"
            raise ValueError(
                f"model {tag!r}: expected training data of {what} {expected}, got dimension {got} "
                f"(search space {search_space!r})"
            )
