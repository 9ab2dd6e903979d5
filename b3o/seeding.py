"""Seeds derived per purpose: every random choice of a trial comes from (trial seed, purpose, iteration t).

Deriving instead of carrying generator state means a resumed trial draws what the uninterrupted one drew, and no
checkpoint holds a generator. The derivation is NumPy's `SeedSequence` over the words [seed, purpose, t]:

- `Purpose.METHOD` ([seed, 3, t]): a method's own draws at iteration t (B3O's sampler, the TensorFlow seed of a
  trieste acquisition, NSGA-II's generation; t = 0 is its set-up before the first iteration);
- `Purpose.INITIAL_DESIGN`, `Purpose.NOISE`, `Purpose.TENSORFLOW` ([seed, 0 | 1 | 2, t]): the runner's initial
  design, observation noise and TensorFlow global seed (model building and fitting, and the ask).

Every purpose has exactly one word: `SeedSequence` pads its entropy with zero words, so word lists of different
lengths can coincide ([seed, t] would equal [seed, t, 0]), and equal lengths rule that out.
"""

from __future__ import annotations

from enum import Enum

import numpy as np


class Purpose(Enum):
    """What a derived seed is for: the one word placed between the trial seed and the iteration."""

    METHOD = (3,)
    INITIAL_DESIGN = (0,)
    NOISE = (1,)
    TENSORFLOW = (2,)


def seed_sequence(seed: int, t: int, purpose: Purpose = Purpose.METHOD) -> np.random.SeedSequence:
    """The `SeedSequence` of `purpose` at iteration t of the run seeded `seed`."""
    return np.random.SeedSequence([seed, *purpose.value, t])


def derived_seed(seed: int, t: int, purpose: Purpose = Purpose.METHOD) -> int:
    """An integer seed (for scipy, TensorFlow or pymoo) of `purpose` at iteration t."""
    return int(seed_sequence(seed, t, purpose).generate_state(1)[0])


def derived_rng(seed: int, t: int, purpose: Purpose = Purpose.METHOD) -> np.random.Generator:
    """A NumPy generator of `purpose` at iteration t (seeded from the sequence itself, not from `derived_seed`)."""
    return np.random.default_rng(seed_sequence(seed, t, purpose))


def seed_tensorflow(seed: int, t: int, purpose: Purpose = Purpose.METHOD) -> None:
    """Set TensorFlow's global seed for `purpose` at iteration t (trieste and gpflow draw from the global generator)."""
    import tensorflow as tf  # here, so that seeding NumPy draws never imports TensorFlow

    tf.random.set_seed(derived_seed(seed, t, purpose))
