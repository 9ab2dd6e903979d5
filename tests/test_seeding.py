"""Seed streams are independent: no two streams of a trial (the method's and the runner's) share a seed, at any
iteration."""

from __future__ import annotations

import itertools

import numpy as np

from b3o.seeding import METHOD, derived_rng, seed_sequence
from b3o.seeding import derived_seed as method_seed
from harness.seeding import Purpose, derived_seed

#: every stream word a trial draws from: the method's and the runner's
WORDS = (METHOD, *(int(p) for p in Purpose))


def test_no_two_streams_or_iterations_share_a_seed():
    for seed in (0, 1, 7, 123):
        states = {(word, t): tuple(seed_sequence(seed, t, word).generate_state(4)) for word in WORDS for t in range(60)}
        assert len(set(states.values())) == len(states), f"seed {seed}: two streams coincide"


def test_the_method_stream_differs_from_the_runners_at_the_first_iterations():
    """The padded-entropy trap: [seed, t] equals [seed, t, 0], so a word-less method stream at t = 0, 1, 2 would be
    the initial-design, noise and TensorFlow streams at t = 0."""
    for seed, t in itertools.product(range(5), range(3)):
        runner = {derived_seed(seed, 0, purpose) for purpose in Purpose}
        assert method_seed(seed, t) not in runner
        assert not np.array_equal(derived_rng(seed, t).random(4), derived_rng(seed, 0, int(Purpose(t))).random(4))


def test_the_runner_words_are_not_the_methods():
    assert METHOD not in {int(p) for p in Purpose}
    assert len(set(WORDS)) == len(WORDS)
