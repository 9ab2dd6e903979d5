"""Seeds derived per stream: every random choice comes from (seed, stream word, iteration t).

Deriving instead of carrying generator state means a resumed run draws what the uninterrupted one drew, and no
checkpoint holds a generator. The derivation is NumPy's `SeedSequence` over the words [seed, word, t]. A method's
own draws at iteration t (B3O's sampler, the TensorFlow seed of a trieste acquisition, NSGA-II's generation; t = 0 is
its set-up before the first iteration) use the word `METHOD`; a caller seeding other streams from the same seed uses
other words (the trial runner's are in `harness.seeding`).

Every stream has exactly one word: `SeedSequence` pads its entropy with zero words, so word lists of different
lengths can coincide ([seed, t] would equal [seed, t, 0]), and equal lengths rule that out.
"""

from __future__ import annotations

import numpy as np

#: the word of a method's own stream
METHOD = 3
#: the word of a method's stream keyed by its data as well (`data_seed`)
DATA = 4


def seed_sequence(seed: int, t: int, word: int = METHOD) -> np.random.SeedSequence:
    """The `SeedSequence` of stream `word` at iteration t of the run seeded `seed`."""
    return np.random.SeedSequence([seed, word, t])


def derived_seed(seed: int, t: int, word: int = METHOD) -> int:
    """An integer seed (for scipy, TensorFlow or pymoo) of stream `word` at iteration t."""
    return int(seed_sequence(seed, t, word).generate_state(1)[0])


def data_seed(seed: int, t: int, digest: bytes) -> int:
    """An integer seed from (seed, t) and a digest of the data the draw is conditioned on (stream `DATA`): a
    campaign that rebuilds its rule on grown data draws anew even where it cannot tell t, and the same data give the
    same draw."""
    words = np.frombuffer(digest[:16].ljust(16, b"\0"), dtype=np.uint32)
    return int(np.random.SeedSequence([seed, DATA, t, *words.tolist()]).generate_state(1)[0])


def derived_rng(seed: int, t: int, word: int = METHOD) -> np.random.Generator:
    """A NumPy generator of stream `word` at iteration t (seeded from the sequence itself, not from `derived_seed`)."""
    return np.random.default_rng(seed_sequence(seed, t, word))


def seed_tensorflow(seed: int, t: int, word: int = METHOD) -> None:
    """Set TensorFlow's global seed for stream `word` at iteration t (trieste and gpflow draw from the global
    generator)."""
    import tensorflow as tf  # here, so that seeding NumPy draws never imports TensorFlow

    tf.random.set_seed(derived_seed(seed, t, word))
