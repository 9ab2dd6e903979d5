"""How many of a batch's B points are distinct, for every sampler: a repeated point is a parallel evaluation thrown away.

Run: `PYTHONPATH=. python -m pytest -n 0 -m benchmark tests/benchmarks/test_distinct_points.py`; it writes
docs/tables/distinct_points.csv (docs/method.md links it). Each sampler with its registered defaults draws one batch
of B points at B in {4, 100, 1000} and d in {2, 6, 9} from a concentrated target: three Gaussian modes of s.d. 0.05
in the unit cube (where importance resampling picked the same candidate many times before `distinct_picks`).
"""

from __future__ import annotations

import csv
import sys
import time
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/mixtures.py
from mixtures import Mixture

from b3o import samplers

pytestmark = pytest.mark.benchmark

TABLE = Path(__file__).resolve().parents[2] / "docs" / "tables" / "distinct_points.csv"
BATCH_SIZES = (4, 100, 1000)
DIMENSIONS = (2, 6, 9)
ALWAYS_DISTINCT = ("defer", "defer-is")  # the paper's sampler and the default (the README's)


def concentrated(dim: int) -> Mixture:
    """Three modes of s.d. 0.05 at fixed places in the unit cube of `dim` dimensions."""
    means = np.random.default_rng(dim).uniform(0.2, 0.8, (3, dim))
    return Mixture(means, [0.05] * 3, [0.5, 0.3, 0.2], [0.0] * dim, [1.0] * dim)


def test_distinct_fraction_table():
    rows = []
    for name in samplers.names():
        for dim in DIMENSIONS:
            target = concentrated(dim)
            for batch in BATCH_SIZES:
                sampler = samplers.get(name)
                start = time.perf_counter()
                x = sampler.sample(target, target.space, batch, seed=0)
                seconds = time.perf_counter() - start
                distinct = len(np.unique(x, axis=0))
                # resamplers: how many picks repeated an earlier one and were moved off it (empty for MCMC)
                repeated = sampler.diagnostics.get("repeated_picks", "")
                rows.append({"sampler": name, "d": dim, "B": batch, "repeated_picks": repeated, "distinct": distinct,
                             "distinct_fraction": round(distinct / batch, 4), "seconds": round(seconds, 2)})
                print(rows[-1], flush=True)
    TABLE.parent.mkdir(parents=True, exist_ok=True)
    with TABLE.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    short = [row for row in rows if row["sampler"] in ALWAYS_DISTINCT and row["distinct"] < row["B"]]
    assert not short, f"repeated points: {short}"
