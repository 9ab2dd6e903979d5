"""What `BoltzmannBatch` checks before any work: the batch size, and that space, data and models agree.

A wrong search space or bad data would otherwise surface deep inside trieste or TensorFlow (an autograph traceback,
"Dataset must be populated"), or not at all (a 1-D box with a 2-D model returned a [B, 1] batch). Each check raises
one `ValueError` naming the input, what was expected and what was given.
"""

from __future__ import annotations

import numbers
from typing import Any, Mapping, Optional

import numpy as np
from trieste.data import Dataset
from trieste.models import ProbabilisticModel
from trieste.models.interfaces import SupportsGetInternalData
from trieste.space import SearchSpace
from trieste.types import Tag


def batch_size(value: Any) -> int:
    """`value` as the batch size B: a positive integer (a bool or 2.5 is refused, not truncated)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"num_query_points (the batch size B) must be a positive integer, got {value!r}")
    return int(value)


def check_acquire(
    search_space: SearchSpace,
    models: Mapping[Tag, ProbabilisticModel],
    datasets: Optional[Mapping[Tag, Dataset]],
) -> None:
    """The data of each tag is non-empty, finite and has the space's dimension; so has each model's training data."""
    dim = int(search_space.dimension)
    for tag, dataset in (datasets or {}).items():
        points, values = np.asarray(dataset.query_points), np.asarray(dataset.observations)
        if points.shape[0] == 0:
            raise ValueError(f"dataset {tag!r}: expected at least one observation, got an empty dataset")
        if points.shape[-1] != dim:
            raise ValueError(
                f"dataset {tag!r}: expected query points of the search space's dimension {dim}, got dimension "
                f"{points.shape[-1]} (search space {search_space!r})"
            )
        bad = ~np.isfinite(values)
        if bad.any():
            raise ValueError(
                f"dataset {tag!r}: expected finite observations, got {int(bad.any(axis=-1).sum())} of "
                f"{values.shape[0]} with NaN or inf (first at query point {points[np.flatnonzero(bad.any(axis=-1))[0]]})"
            )
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
