"""The one resampling convention of the analysis: how many bootstrap resamples, from which seed, at which level.

Every bootstrap interval (the figures' and tables' CIs in `analysis.data.aggregate`, the verdicts' display CIs and the
probability of improvement in `analysis.statistics.verdicts` and `analysis.claims`) reads these, so one change reaches
all of them. No verdict reads them: the tests that decide do not resample (`analysis.statistics.verdicts`).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable

import numpy as np
from scipy import stats

#: bootstrap resamples
NUM_RESAMPLES = 9999
#: the seed of `numpy.random.default_rng` for every resampling
SEED = 0
#: confidence level of every interval shown
LEVEL = 0.95


def bca(samples: tuple[np.ndarray, ...], statistic: Callable[..., np.ndarray]) -> tuple[float, float]:
    """The BCa bootstrap interval at LEVEL of a vectorised `statistic` of one or more samples (each resampled on its
    own); NaN where a sample has fewer than two values or none has two distinct ones."""
    if any(len(s) < 2 for s in samples) or not any(np.ptp(s) > 0 for s in samples):
        return math.nan, math.nan
    with np.errstate(divide="ignore", invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a degenerate sample gives a NaN interval, shown as such
        ci = stats.bootstrap(
            samples,
            statistic,
            n_resamples=NUM_RESAMPLES,
            confidence_level=LEVEL,
            method="BCa",
            vectorized=True,
            rng=np.random.default_rng(SEED),
        ).confidence_interval
    return float(ci.low), float(ci.high)
