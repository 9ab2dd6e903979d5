"""A batch of B points is B distinct points: a repeated point is a parallel evaluation thrown away.

The full table (every sampler, B up to 1000, d up to 9) is the benchmark tests/benchmarks/test_distinct_points.py.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import kstest, truncnorm
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
    if name != "defer":  # resamplers: the weights did pick some point twice, and each repeat was moved
        assert sampler.diagnostics["repeated_picks"] > 0 and sampler.diagnostics["unique_fraction"] == 1.0
        assert sampler.diagnostics["move_evals"] >= sampler.diagnostics["repeated_picks"]


def test_first_picks_stay_and_each_repeat_moves_off_its_pick():
    lay = layout(Box([0.0, 0.0], [1.0, 1.0]))
    points = np.array([[0.1, 0.1], [0.5, 0.5], [0.9, 0.9]])
    chosen = np.array([1, 1, 0, 1, 2, 0])
    log_p = CONCENTRATED(points).numpy()
    x, stats = distinct_picks(lay, points, log_p, chosen, np.full((3, 1), 0.05), CONCENTRATED, np.random.default_rng(0))
    assert stats["repeated_picks"] == 3 and stats["move_evals"] >= 3 and stats["unique_fraction"] == 1.0
    np.testing.assert_array_equal(x[[0, 2, 4]], points[[1, 0, 2]])  # the first pick of each point is that point
    assert len(np.unique(x, axis=0)) == 6 and np.all((x >= 0) & (x <= 1))


def test_moving_a_repeat_keeps_the_density():
    """A repeat of an exact draw of p, moved off it, is still an exact draw of p (Metropolis-Hastings steps leave p
    invariant): 400 independent moved repeats of a truncated normal pass a Kolmogorov-Smirnov test against it."""
    lay = layout(Box([0.0], [1.0]))
    p = truncnorm(-3.0, 7.0, loc=0.3, scale=0.1)  # N(0.3, 0.1^2) on [0, 1]
    rng = np.random.default_rng(1)

    def log_p(x):
        return p.logpdf(x[:, 0])

    moved = []
    for _ in range(400):
        start = p.rvs(size=(1, 1), random_state=rng)
        x, _ = distinct_picks(lay, start, log_p(start), np.array([0, 0]), np.array([[0.2]]), log_p, rng)
        moved.append(x[1, 0])
    assert kstest(moved, p.cdf).pvalue > 0.01
    assert kstest(np.array(moved) + 0.03, p.cdf).pvalue < 0.01  # the test can tell a shift of a third of an s.d.
