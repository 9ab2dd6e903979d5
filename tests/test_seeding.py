"""Per-purpose seed streams are independent: no two (purpose, t) of a trial share a seed, at any iteration."""

from __future__ import annotations

import itertools

import numpy as np

from b3o.seeding import Purpose, derived_rng, derived_seed, seed_sequence


def test_no_two_purposes_or_iterations_share_a_stream():
    for seed in (0, 1, 7, 123):
        states = {
            (purpose, t): tuple(seed_sequence(seed, t, purpose).generate_state(4))
            for purpose in Purpose
            for t in range(0, 60)
        }
        assert len(set(states.values())) == len(states), f"seed {seed}: two streams coincide"


def test_the_method_stream_differs_from_the_runners_at_the_first_iterations():
    """The padded-entropy trap: [seed, t] equals [seed, t, 0], so a purpose-less method stream at t = 0, 1, 2 would be
    the initial-design, noise and TensorFlow streams at t = 0."""
    for seed, t in itertools.product(range(5), range(3)):
        runner = {derived_seed(seed, 0, purpose) for purpose in Purpose if purpose is not Purpose.METHOD}
        assert derived_seed(seed, t) not in runner
        assert not np.array_equal(derived_rng(seed, t).random(4), derived_rng(seed, 0, list(Purpose)[1 + t]).random(4))


def test_every_purpose_has_exactly_one_word():
    """Equal lengths are what rule out zero-padding coincidences."""
    assert {len(p.value) for p in Purpose} == {1}
    assert len({p.value for p in Purpose}) == len(Purpose)
