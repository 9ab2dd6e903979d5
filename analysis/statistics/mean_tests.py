"""Two one-sample tests of a mean whose p is a function of the data alone, for the verdict engine
(`analysis.statistics.verdicts`, which says why no deciding test resamples): the exact sign-flip permutation test and
Hall's skewness-corrected t-test, each vectorised over the rows of a batch of samples."""

from __future__ import annotations

import warnings

import numpy as np
from scipy import stats

#: the sign-flip test enumerates all 2^n flips up to this many seeds (meeting in the middle above FULL_MAX); the
#: engine leaves it out above
EXACT_MAX = 30
#: up to this many seeds every flip's sum is formed at once
FULL_MAX = 16


def _flip_sums(x: np.ndarray) -> np.ndarray:
    """[R, 2^k] the sums of every sign flip of each row of x [R, k] (flip j negates the values at j's set bits)."""
    k = x.shape[-1]
    flips = 1 - 2 * ((np.arange(2**k)[:, None] >> np.arange(k)) & 1)  # [2^k, k] of ±1
    return x @ flips.T


def sign_flip(x: np.ndarray, alternative: str) -> np.ndarray:
    """One-sided p of the exact sign-flip test of the mean for each row of `x` [R, n], n ≤ EXACT_MAX: the share of
    all 2^n flips whose sum is at least (at most) the observed one, within `scipy.stats.permutation_test`'s relative
    tolerance. Up to FULL_MAX seeds all flips at once; above, the two halves' flip sums meet in the middle (each
    half's sorted sums, counted by `numpy.searchsorted`), exact as well."""
    n = x.shape[-1]
    if n > EXACT_MAX:
        raise ValueError(f"the sign flips are enumerated up to {EXACT_MAX} seeds, got {n}")
    observed = x.sum(axis=-1)
    gamma = np.abs(np.finfo(np.float64).eps * 100 * observed)
    sign = 1.0 if alternative == "greater" else -1.0
    bound = sign * observed - gamma  # a flip counts when sign · its sum ≥ bound
    out = np.empty(len(x))
    if n <= FULL_MAX:
        chunk = max(1, 2**22 // 2**n)  # rows per block: about 32 MB of flip sums at a time
        for start in range(0, len(x), chunk):
            sums = sign * _flip_sums(x[start : start + chunk])
            out[start : start + chunk] = np.mean(sums >= bound[start : start + chunk, None], axis=1)
        return out
    half = n // 2
    for i, row in enumerate(x):
        left = sign * _flip_sums(row[None, :half])[0]
        right = np.sort(sign * _flip_sums(row[None, half:])[0])
        out[i] = np.sum(len(right) - np.searchsorted(right, bound[i] - left, side="left")) / 2.0**n
    return out


def hall(x: np.ndarray, alternative: str) -> np.ndarray:
    """One-sided p of "mean of x `alternative` 0" for each row of `x` [R, n] by Hall's (1992) transformation of the
    t statistic, which removes its skewness to second order in closed form: with S = mean / sd and γ the sample
    skewness (adjusted for its bias at few seeds, `scipy.stats.skew(bias=False)`),
    T = √n (S + γS²/3 + γ²S³/27 + γ/(6n)), monotone in S, referred to Student's t with n − 1 degrees of freedom (NaN
    for a constant row, and γ needs n ≥ 3: with 2 seeds γ = 0, the t-test). The expansion holds for S of order
    1/√n; where the skew opposes the sample's direction so far that the cubic has passed its stationary point
    (γS/3 < −1), T stays near √n/|γ| however large |S| grows, and the correction no longer measures
    the evidence: there it gives p = 0 and the t-test and sign flips decide (one skewed Formula E comparison, every
    seed of 8 on one side, had p 0.031 from it against the t-test's 2e-5)."""
    n = x.shape[-1]
    with np.errstate(divide="ignore", invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        mean, sd = x.mean(axis=-1), x.std(axis=-1, ddof=1)
        gamma = stats.skew(x, axis=-1, bias=False) if n >= 3 else np.zeros(len(x))
        s = mean / sd
        t = np.sqrt(n) * (s + gamma * s**2 / 3 + gamma**2 * s**3 / 27 + gamma / (6 * n))
        past = gamma * s / 3 < -1  # beyond the cubic's stationary point (the skew opposing the sample's direction)
    p = stats.t.sf(t, n - 1) if alternative == "greater" else stats.t.cdf(t, n - 1)
    return np.where(past, 0.0, p)
