"""The trial runner's seed streams: initial design, observation noise and TensorFlow's global seed, each at every
iteration t, derived from the trial seed by the method library's one derivation (`b3o.seeding.seed_sequence`) with
words of their own, so that they never coincide with each other or with the method's stream (`b3o.seeding.METHOD`).
"""

from __future__ import annotations

from enum import IntEnum

from b3o.seeding import METHOD
from b3o.seeding import derived_seed as _derived_seed
from b3o.seeding import seed_tensorflow as _seed_tensorflow


class Purpose(IntEnum):
    """What a runner seed is for: the word placed between the trial seed and the iteration."""

    INITIAL_DESIGN = 0
    NOISE = 1
    TENSORFLOW = 2


if METHOD in set(Purpose):
    raise ImportError(f"harness seed word {METHOD} is the method's (b3o.seeding.METHOD); pick another")


def derived_seed(seed: int, t: int, purpose: Purpose) -> int:
    """An integer seed of `purpose` at iteration t of the trial seeded `seed`."""
    return _derived_seed(seed, t, int(purpose))


def seed_tensorflow(seed: int, t: int, purpose: Purpose) -> None:
    """Set TensorFlow's global seed for `purpose` at iteration t."""
    _seed_tensorflow(seed, t, int(purpose))
