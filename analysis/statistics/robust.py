"""Robust readings of a paired comparison, beside its mean verdict: what the typical seed does.

The mean per-seed advantage is the paper's reading and alone decides a claim (`analysis.statistics.verdicts`). When
final regrets span orders of magnitude, one seed left in a local optimum can decide that mean; these readings say how
often A ends below B (an exact sign test: deterministic, its size at most its level at any n), by how much on the
median seed, and how many seeds of each method sit far above what the run's methods typically reach on the problem. Their rule is data,
`robust_readings.yaml` beside this module, written before the first Shekel-4 record of the paper-horizon run was
analysed (pre-registered there, exploratory elsewhere).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import numpy as np
import yaml
from scipy import stats

from analysis.statistics.verdicts import holm

RULE_FILE = Path(__file__).with_name("robust_readings.yaml")
#: the intervals' coverage, as the rule states it
CONFIDENCE = 0.95


@cache
def rule() -> dict:
    """The readings' rule as committed (`robust_readings.yaml`)."""
    return yaml.safe_load(RULE_FILE.read_text())


def level() -> float:
    return float(rule()["ahead"]["level"])


def stuck_factor() -> float:
    return float(rule()["stuck"]["k"])


@dataclass(frozen=True)
class Ahead:
    """How often A ends below B over n paired seeds: `wins` seeds A below, `losses` above, `ties` equal; `share` =
    wins / (wins + losses) with its Clopper–Pearson interval `lo`, `hi`; `p` the exact two-sided sign test of ½,
    `p_holm` within its family, `reading` the rule's words ("ahead", "behind", "open")."""

    n: int
    wins: int
    losses: int
    ties: int
    share: float
    lo: float
    hi: float
    p: float
    p_holm: float = math.nan
    reading: str = ""


def ahead(a: np.ndarray, b: np.ndarray, lower_is_better: bool = True) -> Ahead:
    """A against B seed by seed (a[i] and b[i] share seed i): the sign test of P(A better) = ½, ties left out."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    better = a < b if lower_is_better else a > b
    worse = a > b if lower_is_better else a < b
    wins, losses = int(better.sum()), int(worse.sum())
    decided = wins + losses
    if decided == 0:
        return Ahead(len(a), 0, 0, len(a), math.nan, 0.0, 1.0, 1.0)
    test = stats.binomtest(wins, decided, 0.5, alternative="two-sided")
    ci = test.proportion_ci(confidence_level=CONFIDENCE, method="exact")
    return Ahead(len(a), wins, losses, len(a) - decided, wins / decided, float(ci.low), float(ci.high), float(test.pvalue))


def decide(family: Sequence[Ahead]) -> list[Ahead]:
    """Holm over the family at the rule's level; a reading is "ahead"/"behind" where the sign test rejects ½."""
    adjusted = holm([r.p for r in family]) if family else []
    out = []
    for r, p in zip(family, adjusted):
        word = "open" if not p < level() else ("ahead" if r.share > 0.5 else "behind")
        out.append(replace(r, p_holm=float(p), reading=word))
    return out


def median_interval(d: np.ndarray, confidence: float = CONFIDENCE) -> tuple[float, float, float]:
    """(median, lo, hi) of d: the distribution-free interval from order statistics (the sign test inverted), coverage
    at least `confidence`; infinite where n seeds are too few for any order statistic to give it."""
    x = np.sort(np.asarray(d, dtype=np.float64))
    n = len(x)
    if n == 0:
        return math.nan, math.nan, math.nan
    # the largest k with P(Binomial(n, ½) ≤ k − 1) ≤ (1 − confidence)/2: [x_(k), x_(n−k+1)]
    k = int(stats.binom.ppf((1 - confidence) / 2, n, 0.5))
    if stats.binom.cdf(k, n, 0.5) > (1 - confidence) / 2:
        k -= 1
    k += 1
    if k < 1:
        return float(np.median(x)), -math.inf, math.inf
    return float(np.median(x)), float(x[k - 1]), float(x[n - k])


def reference(medians: Sequence[float]) -> float:
    """The problem's typical value: the median of its settings' medians (each method counts once)."""
    return float(np.median(np.asarray(medians, dtype=np.float64)))


def stuck(values: np.ndarray, typical: float) -> int:
    """How many of these seeds end above the rule's k times the problem's typical value (`reference`)."""
    v = np.asarray(values, dtype=np.float64)
    return int(np.sum(v[np.isfinite(v)] > stuck_factor() * typical))
