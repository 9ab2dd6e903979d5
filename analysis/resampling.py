"""The one resampling convention of the analysis: how many bootstrap resamples, from which seed, at which level.

Every bootstrap interval (the figures' and tables' CIs in `analysis.aggregate`, the verdicts' display CIs and the
probability of improvement in `analysis.verdicts` and `analysis.claims`) and every Monte Carlo permutation test
reads these, so one change reaches all of them.
"""

from __future__ import annotations

#: bootstrap resamples (and Monte Carlo sign flips, where a permutation test cannot enumerate them all)
NUM_RESAMPLES = 9999
#: the seed of `numpy.random.default_rng` for every resampling
SEED = 0
#: confidence level of every interval shown
LEVEL = 0.95
