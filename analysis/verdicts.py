"""The verdict engine: paired per-seed comparisons, Holm's correction, coverage, and the seeds a comparison needs.

Independent of which claims are checked (`analysis.claims` is the catalogue) and of how they are printed
(`analysis.tables.claims`). Every method shares its initial design with the others for a given (problem, seed), so
two methods are compared through their per-seed differences, never through two independent intervals.

A comparison tests the mean per-seed advantage of A over B (positive = A better) against a threshold: 0 for
"better", minus a margin for "matches or beats". Its p-value is two-sided from the percentile bootstrap of the mean
(`scipy.stats.bootstrap`, 9999 resamples, `default_rng(0)`): twice the smaller share of resampled means on either
side of the threshold. The comparisons of one claim are one family: their p-values are Holm-adjusted, and a
comparison is decided when its adjusted p is below 0.05 (it holds when the mean lies on A's side of the threshold,
else it does not hold) and it has at least MIN_SEEDS seeds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from scipy import stats

ALPHA = 0.05
POWER = 0.8
NUM_RESAMPLES = 9999
SEED = 0
#: default equivalence margin: this fraction of the range of the compared quantity's means across methods
MARGIN_FRACTION = 0.10

HOLDS = "holds"
FAILS = "does not hold"
INCONCLUSIVE = "inconclusive"
#: fewest seeds for a decision: the percentile bootstrap decides whenever all per-seed differences share a sign, which
#: with n seeds happens by chance with probability 2^(1-n) (50 % at n = 2, 6 % at n = 5)
MIN_SEEDS = 5
FEW = f"inconclusive (fewer than {MIN_SEEDS} seeds)"
NOT_MEASURED = "not measured"

#: relation -> how it is decided; the rules as data, printed with the claims table
RELATIONS = {
    "better": "A better than B: the mean advantage of A over B is tested against 0",
    "matches_or_beats": (
        "A matches or beats B: the mean advantage is tested against −margin, i.e. A holds if it is not worse than B "
        "by more than the margin (an equivalence margin, not a failure to tell them apart)"
    ),
}

#: how the verdicts are decided, in the words printed with the claims table and in the README
RULES = (
    (
        "Each comparison pairs two methods by seed (they share the initial design) and takes the per-seed advantage "
        f"of A over B at a common budget; it is decided when the {1 - ALPHA:.0%} percentile-bootstrap test of the "
        f"mean advantage ({NUM_RESAMPLES} resamples, seed {SEED}), Holm-corrected over the claim's comparisons, "
        'separates it from 0 ("better") or from minus the margin ("matches or beats"), and is inconclusive otherwise '
        f"or with fewer than {MIN_SEEDS} seeds."
    ),
    (
        "A claim holds only if every comparison it names was run and holds; it does not hold if any comparison does "
        'not; if some of its problems or methods were not run it says "holds on k of n" at best, and it is '
        "inconclusive otherwise."
    ),
)


@dataclass(frozen=True)
class Paired:
    """One paired comparison of A with B: statistics of the per-seed advantage of A (positive = A better)."""

    left: str
    right: str
    unit: str
    n: int
    mean: float
    lo: float
    hi: float
    sd: float
    threshold: float
    p: float
    p_holm: float = math.nan
    verdict: str = ""
    seeds_needed: int | None = None


def advantage(a: np.ndarray, b: np.ndarray, lower_is_better: bool) -> np.ndarray:
    """Per-seed advantage of A over B in the quantity's own units: B − A when lower is better, else A − B."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return b - a if lower_is_better else a - b


def paired(left: str, right: str, unit: str, diffs: Sequence[float], threshold: float = 0.0) -> Paired:
    """Mean advantage with its 95% percentile-bootstrap CI and the two-sided bootstrap p-value against `threshold`."""
    d = np.asarray(diffs, dtype=np.float64)
    d = d[~np.isnan(d)]
    n = len(d)
    if n < 2:
        mean = float(d.mean()) if n else math.nan
        return Paired(left, right, unit, n, mean, math.nan, math.nan, math.nan, threshold, math.nan)
    result = stats.bootstrap(
        (d,),
        np.mean,
        n_resamples=NUM_RESAMPLES,
        confidence_level=1 - ALPHA,
        method="percentile",
        vectorized=True,
        rng=np.random.default_rng(SEED),
    )
    means = result.bootstrap_distribution
    p = min(1.0, 2 * min(np.mean(means <= threshold), np.mean(means >= threshold)))
    lo, hi = result.confidence_interval
    return Paired(left, right, unit, n, float(d.mean()), float(lo), float(hi), float(d.std(ddof=1)), threshold, p)


def holm(p: Sequence[float]) -> np.ndarray:
    """Holm's step-down adjusted p-values (controls the family-wise error rate); NaN entries stay NaN."""
    p = np.asarray(p, dtype=np.float64)
    out = np.full(len(p), np.nan)
    known = np.flatnonzero(~np.isnan(p))
    m = len(known)
    order = known[np.argsort(p[known], kind="stable")]
    out[order] = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    return out


def seeds_needed(mean: float, sd: float, threshold: float, family: int) -> int | None:
    """Seeds for 80% power to separate the observed mean from `threshold`, by the normal approximation
    n = ((z_{1-α/(2m)} + z_{0.8}) s / |mean − threshold|)², at the Bonferroni level α/m (never less strict than
    Holm), and at least MIN_SEEDS; None when undefined (a single seed, or a mean exactly on the threshold)."""
    effect = abs(mean - threshold)
    if math.isnan(sd) or math.isnan(effect) or effect == 0:
        return None
    z = stats.norm.ppf(1 - ALPHA / (2 * family)) + stats.norm.ppf(POWER)
    return max(MIN_SEEDS, math.ceil((z * sd / effect) ** 2))


def decide(family: Sequence[Paired]) -> list[Paired]:
    """Holm-adjust one claim's comparisons and give each its verdict (and, if undecided, the seeds it needs).

    Comparisons with fewer than MIN_SEEDS seeds are never decided, so they are left out of Holm's family.
    """
    adjusted = holm([c.p if c.n >= MIN_SEEDS else math.nan for c in family])
    out = []
    for c, p in zip(family, adjusted):
        if c.n < MIN_SEEDS:
            verdict = FEW
        elif p < ALPHA:
            verdict = HOLDS if c.mean > c.threshold else FAILS
        else:
            verdict = INCONCLUSIVE
        undecided = verdict in (INCONCLUSIVE, FEW)
        needed = seeds_needed(c.mean, c.sd, c.threshold, len(family)) if undecided else None
        out.append(replace(c, p_holm=float(p), verdict=verdict, seeds_needed=needed))
    return out


def combine(verdicts: Sequence[str], expected: int | None = None) -> str:
    """A claim's verdict from its units' verdicts, `expected` units in all (default: as many as given).

    Any unit that does not hold -> does not hold; all expected units present and holding -> holds; all present
    units holding but some missing -> "holds on k of n"; otherwise inconclusive.
    """
    expected = len(verdicts) if expected is None else expected
    if not verdicts:
        return NOT_MEASURED
    if FAILS in verdicts:
        return FAILS
    holding = sum(v == HOLDS for v in verdicts)
    if holding == len(verdicts):
        return HOLDS if holding == expected else holds_on(holding, expected)
    return FEW if all(v in (HOLDS, FEW) for v in verdicts) else INCONCLUSIVE


def holds_on(k: int, n: int) -> str:
    return f"holds on {k} of {n}"
