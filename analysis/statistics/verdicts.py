"""The verdict engine: paired per-seed comparisons, their tests, Holm's correction, coverage and the seeds to decide.

Independent of which claims are checked (`analysis.claims.catalogue`) and of how they are printed
(`analysis.tables.claims_table`). Every method shares its initial design with the others for a given (problem,
seed), so two methods are compared through their per-seed differences d (A's advantage over B, positive = A better).

Each one-sided test of the mean of d against a value θ is the most conservative of three: the one-sample t-test
(`scipy.stats.ttest_1samp`), the exact sign-flip permutation test of the mean (all 2^n sign flips, `sign_flip`) for
n ≤ EXACT_MAX seeds, and Hall's (1992) skewness-correcting transformation of the t statistic (`hall`). The sign-flip
test's size is exact for any distribution of d symmetric about θ whatever its tails; Hall's test corrects for
skewness to second order; the sign-flip test cannot give p below 2^(−n) (one-sided), so no p printed here is below what
the test can attain. No test of a mean keeps its size under arbitrary skewness at a few seeds (Bahadur and Savage,
1956); `analysis.claims.verdict_size` measures how far this one does.

Every p that decides is a deterministic function of the data: no decision depends on a resampling seed. The rule
before drew the studentised bootstrap's resamples (and, above 16 seeds, the sign flips) from a fixed seed, and a
comparison whose p lay within the Monte Carlo error of its level was decided by the seed (issue 67: claim 25's p was
below its level at 8.5 % of other seeds). More resamples only narrow the band of p's a seed can flip, and the level a
p is held to is known only after Holm's ordering and the look; exact or closed-form tests remove the band. Hall's
transformation corrects the t statistic's skewness to the same order as the bootstrap-t (coverage error O(1/n)) in
closed form, at about the bootstrap-t's size in the skewed cases simulated (`analysis.claims.verdict_size`,
whose table had the bootstrap-t's rows before). The sign flips are enumerated
exactly up to EXACT_MAX = 30 seeds (meeting in the middle: two halves of 2^15 sums, sorted, then counted); above that
the sign-flip test is left out (the t-test and its skewness correction decide: a permutation distribution of 2^31
means is normal to within what it adds, and its floor 2^(−30) binds nothing). The BCa interval shown beside
(`analysis.data.resampling`) still resamples from a fixed seed; it is for display only and decides nothing.

Every decision is at two-sided level α (each one-sided test at α/2), Holm-adjusted over a claim's comparisons:
- "better": A better (holds) if d > 0 is shown, worse (does not hold) if d < 0 is shown; else, given the problem's
  equivalence margin (`problems.margins`: regrets within a factor of each other, or a fixed difference), equivalent
  (does not hold: equivalent) if the tie is shown by two one-sided tests (TOST, `equivalence`); else
  inconclusive;
- "matches or beats": holds if A's non-inferiority (not worse than B beyond the margin) is shown, does not hold if
  its opposite is shown.
Every test against a margin (tie, non-inferiority, apart beyond the margin) is `margin_one_sided`, the exact sign
test of the median of the margin's side: a margin is about the typical seed, the one reading whose test holds its
size at the margin whatever the seeds' shape (issue 67; a difference stays a difference of means, the paper's
reading).
The interval shown is the BCa bootstrap interval of the mean (`scipy.stats.bootstrap`); it is for display only.
`analysis.claims.verdict_size` measures the rule's size and power by simulation.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from scipy import stats

from analysis.data import resampling
from analysis.statistics.mean_tests import EXACT_MAX, hall, sign_flip
from analysis.statistics import tail
from analysis.statistics.median_tests import seeds_for_power, share_above, sign_test
from analysis.data.resampling import LEVEL

ALPHA = round(1 - LEVEL, 10)
POWER = 0.8

HOLDS = "holds"
FAILS = "does not hold"
EQUIVALENT = "does not hold: equivalent"
INCONCLUSIVE = "inconclusive"
#: a comparison whose seeds cannot reach p < α whatever the data (2^(1−n) ≥ α: n ≤ 5)
FEW = "inconclusive (too few seeds to decide)"
NOT_MEASURED = "not measured"
#: a claim that holds where it was judged, some of it not run or not comparable: "holds on k of n"
HOLDS_ON = "holds on"
#: a comparison at a budget where a method has not completed two BO iterations (`analysis.claims.comparisons`)
NOT_COMPARABLE = "not comparable at this budget"

#: relation -> how it is decided; the rules as data, printed with the claims table
RELATIONS = {
    "better": (
        "A better than B: holds if the mean advantage of A over B is shown above 0; does not hold if it is shown "
        "below 0, or shown tied within the problem's margin (equivalent: two one-sided tests)"
    ),
    "matches_or_beats": (
        "A matches or beats B: holds if A is shown not worse than B beyond the problem's margin (non-inferiority); "
        "does not hold if A is shown worse than that"
    ),
    "similar": (
        "A performs similarly to B: holds if A and B are shown tied within the problem's margin (two one-sided tests); "
        "does not hold if A is shown better or worse than B beyond the margin"
    ),
}

#: how the verdicts are decided, in the words printed with the claims table and in the README
RULES = (
    (
        "Each comparison pairs two methods by seed (they share the initial design) and tests the mean per-seed "
        "advantage of A over B at the claim's budgets with the most conservative of a paired t-test, an exact "
        f"sign-flip permutation test (all 2^n flips, up to n = {EXACT_MAX} seeds) and Hall's skewness-corrected t-test "
        "(every p a function of the data alone, no resampling), "
        f"two-sided at α = {ALPHA:g}, "
        "Holm-corrected over the claim's comparisons; with n ≤ 5 seeds no comparison can be decided "
        f"(the smallest attainable p is 2^(1−n) ≥ {ALPHA:g}). "
        "A tie or non-inferiority within the problem's margin is about the typical seed: each side of the margin "
        "(e.g. log 1.25 − log(r_A/r_B)) is shown above 0 on more seeds than chance allows by the exact sign test, "
        "whose size at the margin is exact whatever the seeds' shape (a test of the mean cannot hold its size when "
        "a method has rare stuck seeds). Beside it stand the seeds on which A ends worse, and better, than B beyond "
        f"the margin, and the far ones among them ({tail.far_factor():g} times the margin's reach or more: a regret "
        f"ratio of {tail.far_factor():g}); a tie, or A's non-inferiority, is withheld (inconclusive) where the far "
        f"counts show an excess beyond chance (exact binomial test at {tail.level():g}, unadjusted: the tail guard, "
        "analysis/statistics/tail_rule.yaml)."
    ),
    (
        "A claim holds only if every comparison it names was run and holds; it does not hold if any comparison does "
        "not (worse, or equivalent within the problem's margin); if some of its problems or methods were not run it "
        'says "holds on k of n" at best, and it is inconclusive otherwise.'
    ),
)


@dataclass(frozen=True)
class Paired:
    """One paired comparison of A with B: statistics of the per-seed advantage of A (positive = A better).

    `mean`, `lo`, `hi`, `sd`: the advantage's mean, BCa bootstrap interval and SD (what is shown). `relation`:
    "better" tests the advantage against 0; "matches_or_beats" tests A's non-inferiority series (`problems.margins`:
    A not worse than B by more than the margin) against 0; `tested_mean`, `tested_sd` are those of the tested series
    and `p` its two-sided p. `margin`: the tie rule as printed (None: none); `p_equivalent`: the TOST p of a "better"
    comparison (NaN without a margin), `tie_mean`, `tie_sd` those of its weaker side (the one with fewer seeds above
    0) and `tie_share` its share of seeds above 0; `tested_share`: that share of the tested series where it is a
    margin's side (the sign test decides it; NaN for "better"); `p_floor`: the smallest two-sided p the sign-flip
    and sign tests attain with n seeds. `worse_beyond`, `better_beyond`: the seeds on which A ends worse (better)
    than B beyond the margin (-1: no margin), `far_worse`, `far_better` those far beyond it; `p_tail` the tail
    guard's p of an excess of far seeds (`analysis.statistics.tail`; NaN without a margin) and `tail_withheld`
    whether it withheld a tie or non-inferiority.
    """

    left: str
    right: str
    unit: str
    n: int
    mean: float
    lo: float
    hi: float
    sd: float
    p: float
    relation: str = "better"
    tested_mean: float = math.nan
    tested_sd: float = math.nan
    margin: str | None = None
    p_equivalent: float = math.nan
    tie_mean: float = math.nan
    tie_sd: float = math.nan
    p_floor: float = math.nan
    p_holm: float = math.nan
    p_equivalent_holm: float = math.nan
    verdict: str = ""
    seeds_needed: int | None = None
    tie_share: float = math.nan
    tested_share: float = math.nan
    worse_beyond: int = -1
    better_beyond: int = -1
    far_worse: int = -1
    far_better: int = -1
    p_tail: float = math.nan
    tail_withheld: bool = False


def advantage(a: np.ndarray, b: np.ndarray, lower_is_better: bool) -> np.ndarray:
    """Per-seed advantage of A over B in the quantity's own units: B − A when lower is better, else A − B."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return b - a if lower_is_better else a - b


def _mean(x: np.ndarray, axis: int = -1) -> np.ndarray:
    return np.mean(x, axis=axis)


def one_sided(d: np.ndarray, theta: float, alternative: str) -> np.ndarray:
    """p of "mean of d `alternative` θ" ("greater" or "less"): the largest of three tests' one-sided p's, the
    t-test (exact for normal d), the exact sign-flip test (exact for d symmetric about θ, any tails; up to EXACT_MAX
    seeds) and Hall's skewness-corrected t-test. No resampling: the same data give the same p.

    `d` is [n] or [R, n] (a batch of samples, as the simulation of `analysis.claims.verdict_size` passes them)."""
    x = np.atleast_2d(np.asarray(d, dtype=np.float64) - theta)
    n = x.shape[-1]
    with np.errstate(divide="ignore", invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # nearly constant samples: the sign flips decide those
        t = stats.ttest_1samp(x, 0.0, axis=-1, alternative=alternative).pvalue
        skew = hall(x, alternative)
    sign = 1.0 if alternative == "greater" else -1.0
    if n <= EXACT_MAX:
        flips = sign_flip(x, alternative)
    else:  # a constant row: all flips beat it or none (the sign-flip test's answer, which the others lack)
        flips = np.where(sign * x.mean(axis=-1) > 0, 2.0**-n, 1.0)
    # a constant sample (sd 0, up to rounding) has no t-test and no skewness: the sign-flip test alone decides it
    constant = np.ptp(x, axis=-1) <= 1e-9 * np.max(np.abs(x), axis=-1)
    tests = [t, flips, skew] if n <= EXACT_MAX else [t, skew]
    p = np.where(constant | np.isnan(t), flips, np.maximum.reduce(tests))
    return p if np.ndim(d) > 1 else p[0]


def two_sided(d: np.ndarray, theta: float) -> np.ndarray:
    """Two-sided p of "mean of d ≠ θ": twice the smaller one-sided p (at most 1)."""
    return np.minimum(1.0, 2 * np.minimum(one_sided(d, theta, "greater"), one_sided(d, theta, "less")))


def margin_one_sided(x: np.ndarray, alternative: str) -> np.ndarray:
    """p of "median of a margin's side `alternative` 0" (`problems.margins.Margin.sides`), the one test of every
    tie and non-inferiority decision: the exact sign test (`median_tests.sign_test`). A margin asks about the typical
    seed (is A's regret within the factor of B's on the same seed, more often than not), not the mean: at the margin
    a test of the mean declared a tie or "matches" up to 0.11 of the time against α/2 = 0.025 when one method has
    rare stuck seeds (a far second mode in a few per cent of seeds, as the published runs show), since the samples
    that missed the stuck seeds look tied; no test of a mean can hold its size there (Bahadur and Savage, 1956),
    and the sign test's is exact for every shape (`analysis.claims.verdict_size`). `x` is [n] or [R, n]."""
    p = sign_test(x, alternative)
    return p if np.ndim(x) > 1 else p[0]


def margin_two_sided(x: np.ndarray) -> np.ndarray:
    """Two-sided p of "median of a margin's side ≠ 0" by `margin_one_sided`: twice the smaller one-sided p."""
    return np.minimum(1.0, 2 * np.minimum(margin_one_sided(x, "greater"), margin_one_sided(x, "less")))


def equivalence(not_worse: np.ndarray, not_better: np.ndarray) -> np.ndarray:
    """Two-sided-level p of a tie (TOST): both sides' medians above 0 (`problems.margins.Margin.sides`), each by
    `margin_one_sided`, p twice the larger."""
    p = [margin_one_sided(x, "greater") for x in (not_worse, not_better)]
    return np.minimum(1.0, 2 * np.maximum(*p))


def p_floor(n: int) -> float:
    """The smallest two-sided p the rule can give with n seeds: the sign-flip test's 2^(1−n) up to EXACT_MAX seeds;
    above, no test of the rule has a floor (0)."""
    return 2.0 ** (1 - n) if n <= EXACT_MAX else 0.0


def fewest_seeds(family: int = 1) -> int:
    """The fewest seeds at which a comparison in a family of `family` can reach Holm's first step, 2^(1−n) < α/m."""
    return 1 + math.floor(math.log2(family / ALPHA)) + 1


def bca(d: np.ndarray) -> tuple[float, float]:
    """The BCa bootstrap interval of the mean at LEVEL (NaN for fewer than two distinct values)."""
    return resampling.bca((d,), _mean)


def paired(
    left: str,
    right: str,
    unit: str,
    diffs: Sequence[float],
    relation: str = "better",
    sides: tuple[Sequence[float], Sequence[float]] | None = None,
    margin: str | None = None,
    far_below: float = math.inf,
) -> Paired:
    """Mean advantage with its BCa CI and the relation's two-sided p: "better" tests the advantage against 0 and,
    given the margin's `sides` (`problems.margins.Margin.sides`, per seed as `diffs`), its TOST p;
    "matches_or_beats" tests the first side (non-inferiority) against 0; "similar" has the TOST p and, as `p`, that
    of either side shown below 0 (outside the margin). Both need `sides`. `far_below`: how far below 0 a side lies on
    a far seed (`problems.margins.Margin.far_below`), for the tail guard."""
    d = np.asarray(diffs, dtype=np.float64)
    keep = ~np.isnan(d)
    if sides is not None:
        sides = tuple(np.asarray(x, dtype=np.float64) for x in sides)
        keep &= ~np.isnan(sides[0]) & ~np.isnan(sides[1])
        sides = (sides[0][keep], sides[1][keep])
    if relation != "better" and sides is None:
        raise ValueError(f"{relation!r} on {unit} needs an equivalence margin: none is set")
    d = d[keep]
    n = len(d)
    if n < 2:
        mean = float(d.mean()) if n else math.nan
        return Paired(left, right, unit, n, mean, math.nan, math.nan, math.nan, math.nan, relation, margin=margin)
    lo, hi = bca(d)
    tie = relation in ("better", "similar") and sides is not None
    weaker = min(sides, key=share_above) if tie else None
    if relation == "similar":  # shown outside the margin on either side
        tested = weaker
        p = float(min(1.0, 2 * min(margin_one_sided(x, "less") for x in sides)))
    elif relation == "matches_or_beats":
        tested = sides[0]
        p = float(margin_two_sided(tested))
    else:
        tested = d
        p = float(two_sided(tested, 0.0))
    p_eq = float(equivalence(*sides)) if tie else math.nan
    worse, better = tail.beyond(sides) if sides is not None else (-1, -1)
    far_worse, far_better = tail.beyond(sides, far_below) if sides is not None else (-1, -1)
    either = relation != "matches_or_beats"  # a tie breaks on either method's excess, non-inferiority on A's
    p_tail = float(tail.excess_p(far_worse, far_better, either)) if sides is not None else math.nan
    return Paired(
        left, right, unit, n, float(d.mean()), lo, hi, float(d.std(ddof=1)), p, relation,
        float(tested.mean()), float(tested.std(ddof=1)), margin, p_eq,
        float(weaker.mean()) if tie else math.nan, float(weaker.std(ddof=1)) if tie else math.nan, p_floor(n),
        tie_share=share_above(weaker) if tie else math.nan,
        tested_share=math.nan if relation == "better" else share_above(tested),
        worse_beyond=int(worse), better_beyond=int(better), far_worse=int(far_worse), far_better=int(far_better),
        p_tail=p_tail,
    )


def holm(p: Sequence[float]) -> np.ndarray:
    """Holm's step-down adjusted p-values (controls the family-wise error rate); NaN entries stay NaN."""
    p = np.asarray(p, dtype=np.float64)
    out = np.full(len(p), np.nan)
    known = np.flatnonzero(~np.isnan(p))
    m = len(known)
    order = known[np.argsort(p[known], kind="stable")]
    out[order] = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    return out


def seeds_needed(c: Paired, family: int) -> int | None:
    """Seeds for 80% power to decide an undecided comparison if what was observed held, at the Bonferroni level α/m
    (no less strict than Holm): a difference of means by the normal approximation n = ((z_(1−α/2m) + z_0.8) s /
    gap)² (gap = |mean|), a margin's side (the tested one of "matches or beats", or the tie's weaker side) by the sign
    test's (`median_tests.seeds_for_power` at its share of seeds above 0), whichever needs fewer, and at least the
    seeds at which the exact tests can decide at all (`fewest_seeds`); None when undefined (fewer than two seeds,
    nothing ahead of the null)."""
    if c.n < 2 or math.isnan(c.tested_sd):
        return None
    level = ALPHA / (2 * family)
    needed = []
    if math.isnan(c.tested_share):
        z = stats.norm.ppf(1 - level) + stats.norm.ppf(POWER)
        if abs(c.tested_mean) > 0:
            needed.append(math.ceil((z * c.tested_sd / abs(c.tested_mean)) ** 2))
    else:
        needed.append(seeds_for_power(max(c.tested_share, 1 - c.tested_share), level, POWER))
    if not math.isnan(c.tie_share):
        needed.append(seeds_for_power(c.tie_share, level, POWER))
    needed = [k for k in needed if k is not None]
    if not needed:
        return None
    return max(fewest_seeds(family), c.n + 1, min(needed))


def decide(family: Sequence[Paired], alpha: float = ALPHA) -> list[Paired]:
    """Holm-adjust one claim's comparisons and give each its verdict (and, if undecided, the seeds it needs).

    A comparison whose seeds cannot reach p < α at all (`p_floor` ≥ α) is left out of Holm's family (it could never
    be rejected, Tarone's argument), as is one marked NOT_COMPARABLE (it keeps that verdict); the difference tests
    and the equivalence tests are adjusted as two families. "similar" holds on its tie and fails on a difference
    beyond the margin (its `p`). A tie or non-inferiority whose seeds beyond the margin show an excess is withheld
    (inconclusive, `analysis.statistics.tail`; no seed count is offered: more seeds of the same kind would not
    decide it). `alpha` is the level of this look: ALPHA for a single look, less at a planned look
    of a sequential plan (`analysis.statistics.sequential.nominal`).
    """
    comparable = [c.verdict != NOT_COMPARABLE for c in family]
    testable = [ok and c.n >= 2 and c.p_floor < alpha for c, ok in zip(family, comparable)]
    adjusted = holm([c.p if ok else math.nan for c, ok in zip(family, testable)])
    adjusted_eq = holm([c.p_equivalent if ok else math.nan for c, ok in zip(family, testable)])
    out = []
    for c, ok, fair, p, p_eq in zip(family, testable, comparable, adjusted, adjusted_eq):
        if not fair:
            verdict = NOT_COMPARABLE
        elif not ok:
            verdict = FEW
        elif c.relation == "similar":
            verdict = HOLDS if p_eq < alpha else FAILS if p < alpha else INCONCLUSIVE
        elif p < alpha:
            ahead = c.tested_mean > 0 if math.isnan(c.tested_share) else c.tested_share > 0.5  # a side: its sign test
            verdict = HOLDS if ahead else FAILS
        elif p_eq < alpha:
            verdict = EQUIVALENT
        else:
            verdict = INCONCLUSIVE
        on_margin = verdict == EQUIVALENT or (verdict == HOLDS and c.relation != "better")
        guarded = on_margin and bool(tail.withheld(c.p_tail))
        verdict = INCONCLUSIVE if guarded else verdict
        needed = seeds_needed(c, len(family)) if verdict in (INCONCLUSIVE, FEW) and not guarded else None
        out.append(replace(c, p_holm=float(p), p_equivalent_holm=float(p_eq), verdict=verdict, seeds_needed=needed,
                           tail_withheld=guarded))
    return out


def combine(verdicts: Sequence[str], expected: int | None = None) -> str:
    """A claim's verdict from its units' verdicts, `expected` units in all (default: as many as given).

    Any unit that does not hold (worse or equivalent) -> does not hold; all expected units present and holding ->
    holds; all present units holding but some missing (or not comparable at their budget, or themselves holding
    only in part: "holds on k of n") -> "holds on k of n" over the fully holding units; otherwise inconclusive;
    every unit not comparable -> not comparable.
    """
    expected = len(verdicts) if expected is None else expected
    if not verdicts:
        return NOT_MEASURED
    if all(v == NOT_COMPARABLE for v in verdicts):
        return NOT_COMPARABLE
    if any(v.startswith(FAILS) for v in verdicts):
        return FAILS
    partial = [v == NOT_COMPARABLE or v.startswith(HOLDS_ON) for v in verdicts]
    holding = sum(v == HOLDS for v in verdicts)
    if holding == len(verdicts) - sum(partial):
        return HOLDS if holding == expected else holds_on(holding, expected)
    return FEW if all(v in (HOLDS, FEW) or p for v, p in zip(verdicts, partial)) else INCONCLUSIVE


def holds_on(k: int, n: int) -> str:
    return f"{HOLDS_ON} {k} of {n}"
