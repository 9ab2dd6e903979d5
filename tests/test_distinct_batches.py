"""A batch of B points is B distinct points: a repeated point is a parallel evaluation thrown away.

The full table (every sampler, B up to 1000, d up to 9) is the benchmark tests/benchmarks/test_distinct_points.py.
"""

from __future__ import annotations

import numpy as np
import pytest
from mixtures import Mixture
from trieste.space import Box

from b3o import samplers
from b3o.samplers.base import distinct_picks
from b3o.space import layout

# three modes of s.d. 0.05 in the unit square: importance resampling used to pick the same candidate again here
CONCENTRATED = Mixture([[0.3, 0.4], [0.7, 0.6], [0.5, 0.25]], [0.05] * 3, [0.5, 0.3, 0.2], [0.0, 0.0], [1.0, 1.0])


@pytest.mark.parametrize("name", ["defer-is", "defer", "dmc"])  # the default and README's, the paper's, and dmc
def test_a_batch_of_50_is_50_distinct_points(name):
    sampler = samplers.get(name)
    x = sampler.sample(CONCENTRATED, CONCENTRATED.space, 50, seed=0)
    assert len(np.unique(x, axis=0)) == 50
    assert np.all(np.asarray(CONCENTRATED.space.contains(x)))
    if name != "defer":  # resamplers: the weights did pick some point twice, and each repeat was redrawn
        assert sampler.diagnostics["repeated_picks"] > 0 and sampler.diagnostics["unique_fraction"] == 1.0


def test_repeats_keep_their_cell_and_first_picks_stay():
    lay = layout(Box([0.0, 0.0], [1.0, 1.0]))
    points = np.array([[0.1, 0.1], [0.5, 0.5], [0.9, 0.9]])
    chosen = np.array([1, 1, 0, 1, 2, 0])
    rng = np.random.default_rng(0)

    def in_cell(picks):
        return points[picks] + rng.uniform(-0.01, 0.01, (len(picks), 2))

    x, stats = distinct_picks(lay, points, chosen, in_cell)
    assert stats == {"repeated_picks": 3, "unique_fraction": 1.0}
    np.testing.assert_array_equal(x[[0, 2, 4]], points[[1, 0, 2]])  # the first pick of each point is that point
    assert np.abs(x - points[chosen]).max() <= 0.01  # each repeat inside its pick's cell
