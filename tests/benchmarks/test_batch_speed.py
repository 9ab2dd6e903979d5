"""Timing of B3O batch generation on a real SVGP (pytest-benchmark; run with `pytest -m benchmark --benchmark-enable`).

Records numbers, asserts nothing about time: the README quotes them.
"""

from __future__ import annotations

import numpy as np
import pytest
from trieste.models.gpflow import SparseVariational, build_svgp
from trieste.objectives import Hartmann6
from trieste.objectives.utils import mk_observer

from b3o import BoltzmannBatch, Constant, acquisitions, samplers
from b3o.density import LogDensity
from b3o.space import layout

pytestmark = pytest.mark.benchmark


@pytest.fixture(scope="module")
def svgp_setup():
    space = Hartmann6.search_space
    data = mk_observer(Hartmann6.objective)(space.sample(500, seed=0))
    model = SparseVariational(build_svgp(data, space, num_inducing_points=500, likelihood_variance=0.01))
    return space, data, model


@pytest.mark.parametrize("acquisition", ["ucb", "logei"])
def test_defer_batch_of_100_on_svgp_500(benchmark, svgp_setup, acquisition):
    """Issue target: B = 100 from an SVGP with M = 500 in d = 6 with DEFER at N = 10^4 in <= 1 s."""
    space, data, model = svgp_setup
    rule = BoltzmannBatch(acquisitions.get(acquisition), samplers.get("defer", budget=10_000), Constant(1.0), 100)
    rule.acquire_single(space, model, data)  # compile once, as every BO step after the first does
    batch = benchmark.pedantic(rule.acquire_single, args=(space, model, data), rounds=3, iterations=1)
    assert batch.shape == (100, 6)
    benchmark.extra_info.update({k: v for k, v in rule.diagnostics.items() if isinstance(v, (int, float, str))})


@pytest.mark.parametrize("dim", [4, 6])
def test_defer_bookkeeping_per_evaluation(benchmark, dim):
    """Issue target: DEFER bookkeeping <= 20 us per density evaluation at N = 10^4 (density cost excluded)."""
    centres = np.random.default_rng(0).random((5, dim))

    def log_density(x):
        return np.log(np.exp(-0.5 * ((x[:, None, :] - centres) ** 2).sum(-1) / 0.02).sum(1) + 1e-300)

    sampler = samplers.get("defer", budget=10_000)
    lay = layout(__import__("trieste").space.Box([0.0] * dim, [1.0] * dim))
    tree, evals, _ = benchmark.pedantic(sampler.build, args=(LogDensity(log_density), lay), rounds=5, iterations=1)
    density_seconds = min(
        _timed(log_density, np.random.default_rng(1).random((evals, dim))) for _ in range(5)
    )
    per_eval_us = (benchmark.stats.stats.min - density_seconds) / evals * 1e6
    benchmark.extra_info.update({"evaluations": evals, "bookkeeping_us_per_eval": per_eval_us})
    assert evals <= 10_000


def _timed(fn, x) -> float:
    import time

    start = time.perf_counter()
    fn(x)
    return time.perf_counter() - start
