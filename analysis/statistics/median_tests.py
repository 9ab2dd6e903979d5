"""The exact sign test of a median, vectorised over the rows of a batch of samples, for every decision against an
equivalence margin (`analysis.statistics.verdicts.margin_one_sided`, which says why those test a median).

Its size is exact, whatever the distribution's shape, spread or tails: under "median = 0" each nonzero value is above
0 with probability ½ independently of the others, so the count above 0 is binomial (Hollander, Wolfe and Chicken,
*Nonparametric Statistical Methods*, 3rd ed., §3.4). Values exactly 0 carry no sign and are left out."""

from __future__ import annotations

import numpy as np
from scipy import stats


def counts(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(values above 0, nonzero values) of each row of `x` [R, n]; NaNs count as neither."""
    x = np.atleast_2d(np.asarray(x, dtype=np.float64))
    return np.sum(x > 0, axis=-1), np.sum((x != 0) & ~np.isnan(x), axis=-1)


def sign_test(x: np.ndarray, alternative: str) -> np.ndarray:
    """One-sided exact p of "median of x `alternative` 0" ("greater" or "less") for each row of `x` [R, n]: the
    binomial(m, ½) probability of at least (at most, for "less") the observed count above 0 among the m nonzero
    values; 1 for a row with no nonzero value."""
    above, m = counts(x)
    if alternative == "greater":
        p = stats.binom.sf(above - 1, m, 0.5)
    elif alternative == "less":
        p = stats.binom.cdf(above, m, 0.5)
    else:
        raise ValueError(f"alternative must be 'greater' or 'less', not {alternative!r}")
    return np.where(m > 0, p, 1.0)


def share_above(x: np.ndarray) -> float:
    """The share of a sample's nonzero values above 0 (NaN if none): what the sign test weighs."""
    above, m = counts(x)
    return float(above[0] / m[0]) if m[0] else float("nan")


def seeds_for_power(share: float, level: float, power: float) -> int | None:
    """Seeds for the one-sided sign test at `level` to reject with probability `power` if each seed is above 0 with
    probability `share` (the normal approximation to the binomial: n = ((z_(1−level)·½ + z_power·√(q(1−q))) /
    (q − ½))²); None when share ≤ ½ (no seeds suffice)."""
    if not share > 0.5:
        return None
    z_level, z_power = stats.norm.ppf(1 - level), stats.norm.ppf(power)
    return int(np.ceil(((0.5 * z_level + z_power * np.sqrt(share * (1 - share))) / (share - 0.5)) ** 2))
