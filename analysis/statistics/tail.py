"""The tail beside a tie: a tie or non-inferiority within a margin is decided on the typical seed (the sign test of
each side of the margin, `analysis.statistics.verdicts`), which says nothing of the seeds on which one method ends
far worse. This module counts them and holds the guard that withholds a tie where they are in excess.

Per seed, the margin's two sides (`problems.margins.Margin.sides`) say whether A ends worse than B beyond the margin
(the first side below 0) or better beyond it (the second below 0), and how far: a far seed lies beyond the margin's
reach `far` times over (`Margin.far_below`: a regret ratio of 10 or more). The guard, fixed before any run was
re-decided under it (`analysis/statistics/tail_rule.yaml`): a tie ("similar", or "equivalent" for "better") stands
only if neither method has more far seeds than the other beyond chance (the exact two-sided binomial test of the two
far counts, the other seeds left out, as McNemar's exact test leaves its concordant pairs); a non-inferiority
("matches or beats") stands only if A's far count does not exceed B's beyond chance (one-sided). Beyond chance: p
below the rule's `alpha`, unadjusted: a guard that fires more often only withholds more ties, so it spends no error
rate of the claims. A withheld verdict reads inconclusive. `analysis.claims.tail_guard_size` measures how often the
guard catches a rare far tail at the seeds the runs have, and what it costs a true tie.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import yaml
from scipy import stats

RULE_FILE = Path(__file__).with_name("tail_rule.yaml")


@cache
def rule() -> dict:
    return yaml.safe_load(RULE_FILE.read_text())


def level() -> float:
    """The guard's level (one test per comparison, unadjusted)."""
    return float(rule()["alpha"])


def far_factor() -> float:
    """How many times the margin's reach a far seed lies behind (the stuck-seed rule's k)."""
    return float(rule()["far"])


def beyond(sides: tuple[np.ndarray, np.ndarray], below: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """(seeds on which A ends worse than B beyond the margin, seeds on which it ends better beyond it), per row of the
    sides ([n] or [R, n]); with `below` (`problems.margins.Margin.far_below`), only those that far beyond it."""
    not_worse, not_better = (np.asarray(s, dtype=np.float64) for s in sides)
    return np.sum(not_worse < -below, axis=-1), np.sum(not_better < -below, axis=-1)


def excess_p(worse: np.ndarray, better: np.ndarray, two_sided: bool) -> np.ndarray:
    """The exact binomial p of an excess of far seeds: A's (`worse` against `better`, one-sided), or either method's
    (two-sided, twice the smaller tail, at most 1); 1 where no seed is far."""
    worse, better = np.asarray(worse), np.asarray(better)
    m = worse + better
    upper = stats.binom.sf(worse - 1, m, 0.5)
    if two_sided:
        upper = np.minimum(1.0, 2 * np.minimum(upper, stats.binom.cdf(worse, m, 0.5)))
    return np.where(m > 0, upper, 1.0)


def withheld(p_tail: np.ndarray | float) -> np.ndarray | bool:
    """Whether the guard withholds a tie or non-inferiority with this excess p."""
    return np.asarray(p_tail) < level()
