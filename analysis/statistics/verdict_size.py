"""Size and power of the verdict rule by simulation, beside the percentile-bootstrap rule it replaced.

Size: per-seed differences drawn with mean 0 (normal; t with 3 degrees of freedom; log-normal minus its mean at
σ = 0.25, 0.5 and 1, skewness 0.78, 1.75 and 6.2), REPLICATIONS samples at each n in SEEDS; the rate at which a rule
decides (p < α, either direction) is its false-decision rate, with its Monte Carlo standard error. Power: normal
differences whose mean is the standardised effect (mean / SD of the per-seed differences) of one comparison of the
committed default run, REALISTIC. Rules:
- "t, sign-flip and bootstrap-t" (`analysis.statistics.verdicts`): the most conservative of the one-sample t-test, the
exact
  sign-flip test of the mean and the studentised bootstrap, two-sided at α;
- "percentile bootstrap" (the rule before): twice the smaller share of NUM_RESAMPLES bootstrap means on either side
  of 0, from 5 seeds on.
Tie size: the equivalence test (`analysis.statistics.verdicts.equivalence`, two one-sided paired t-tests on the margin's
linearised sides, `problems.margins`) at the margin itself, where a tie must be declared at most at rate α: pairs of
per-seed regrets (A, B) log-normal with σ in TIE_SIGMAS and correlation TIE_CORRELATION between the two methods' log
regrets (they share each seed's initial design), A's mean exactly the ratio margin times B's; also normal differences
at an absolute margin. Tie power with one outlier: a true tie (normal differences, mean 0, SD 0.25 of the margin)
with one seed moved 1.5 margins away, declared by the paired t TOST and by the three-test TOST it replaced (the
bootstrap-t and the sign flips swing with one far seed).
The sign flips are enumerated for all samples at once here (`sign_flip`); `tests/test_verdict_size.py` checks them
against `scipy.stats.permutation_test`, which `analysis.statistics.verdicts` calls, and runs the size check in the test
suite.

    python -m analysis.statistics.verdict_size --table paper/tables/per_trial.csv --out paper/tables/verdict_size.csv
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from analysis.claims.comparisons import advantages
from analysis.claims.selection import member_names
from analysis.data import per_trial
from analysis.statistics import verdicts
from analysis.statistics.resampling import NUM_RESAMPLES, SEED
from analysis.statistics.verdicts import ALPHA

SEEDS = (5, 6, 8, 10)
REPLICATIONS = 10_000
#: the comparison whose standardised effect sets the power case: (experiment, problem, A, B)
REALISTIC = ("synthetic_b100", "hartmann6", "B3O-UCB-c", "TS")
#: log-normal σ of the skewed cases
SIGMAS = (0.25, 0.5, 1.0)
TIE_SIGMAS = (0.25, 0.5, 1.0)
TIE_CORRELATION = 0.5
TIE = "paired t TOST"
NEW = "t, sign-flip and bootstrap-t"
OLD = "percentile bootstrap"


def draws(distribution: str, n: int, replications: int, rng: np.random.Generator, sigma: float = 1.0) -> np.ndarray:
    """[replications, n] per-seed differences with mean 0 and (but for t3, variance 3) unit scale."""
    if distribution == "normal":
        return rng.standard_normal((replications, n))
    if distribution == "t3":
        return rng.standard_t(3, (replications, n))
    if distribution == "lognormal":
        return rng.lognormal(0.0, sigma, (replications, n)) - np.exp(sigma**2 / 2)
    raise ValueError(f"unknown distribution {distribution!r}")


def sign_flip(d: np.ndarray, alternative: str) -> np.ndarray:
    """One-sided p of the exact sign-flip test of the mean for each row of `d` [R, n] (all 2^n flips, as
    `scipy.stats.permutation_test(..., permutation_type="samples")` counts them, ties within its tolerance)."""
    n = d.shape[1]
    flips = 1 - 2 * ((np.arange(2**n)[:, None] >> np.arange(n)) & 1)  # [2^n, n] of ±1
    out = np.empty(len(d))
    chunk = max(1, 2**22 // 2**n)  # rows per block: about 32 MB of flipped means at a time
    for start in range(0, len(d), chunk):
        rows = d[start : start + chunk]
        null = rows @ flips.T / n  # [rows, 2^n]
        observed = rows.mean(axis=1, keepdims=True)
        gamma = np.abs(np.finfo(np.float64).eps * 100 * observed)
        beyond = null >= observed - gamma if alternative == "greater" else null <= observed + gamma
        out[start : start + chunk] = beyond.mean(axis=1)
    return out


def new_rule(d: np.ndarray, resamples: int = NUM_RESAMPLES) -> np.ndarray:
    """Two-sided p of `analysis.statistics.verdicts` for each row of `d`: per side the largest of the t-test's, the
    sign-flip test's and the studentised bootstrap's (`resamples` resamples) one-sided p's; twice the smaller side."""
    sides = []
    for alternative in ("greater", "less"):
        with np.errstate(divide="ignore", invalid="ignore"):
            t = stats.ttest_1samp(d, 0.0, axis=1, alternative=alternative).pvalue
        sides.append(np.maximum.reduce([t, sign_flip(d, alternative), verdicts.studentised(d, alternative, resamples)]))
    return np.minimum(1.0, 2 * np.minimum(*sides))


def old_rule(d: np.ndarray, resamples: int = NUM_RESAMPLES, chunk: int = 500) -> np.ndarray:
    """Two-sided percentile-bootstrap p of the rule before (`resamples` seeded resamples shared by every row)."""
    n = d.shape[1]
    index = np.random.default_rng(SEED).integers(0, n, size=(resamples, n))
    counts = np.zeros((resamples, n))
    np.add.at(counts, (np.arange(resamples)[:, None], index), 1.0)
    out = np.empty(len(d))
    for start in range(0, len(d), chunk):
        means = d[start : start + chunk] @ counts.T / n  # [chunk, resamples]
        out[start : start + chunk] = np.minimum(1.0, 2 * np.minimum((means <= 0).mean(1), (means >= 0).mean(1)))
    return out


def rate(p: np.ndarray) -> tuple[float, float]:
    """(share of p < α, its Monte Carlo standard error)."""
    decided = float(np.mean(p < ALPHA))
    return decided, float(np.sqrt(max(decided * (1 - decided), 1e-12) / len(p)))


def cases(effect: float | None) -> list[tuple[str, str, float, float]]:
    """(kind, distribution, σ, mean) of every simulated case: the nulls, then the realistic effect if known."""
    out = [("size", "normal", 0.0, 0.0), ("size", "t3", 0.0, 0.0)]
    out += [("size", "lognormal", sigma, 0.0) for sigma in SIGMAS]
    if effect is not None:
        out.append(("power", "normal", 0.0, effect))
    return out


def realistic_effect(table: pd.DataFrame) -> float | None:
    """Mean / SD of the per-seed advantage in REALISTIC, or None if the table lacks it."""
    experiment, problem, a, b = REALISTIC
    rows = table[(table["experiment"] == experiment) & (table["problem"] == problem)]
    if rows.empty:
        return None
    rows = rows.assign(member=member_names(rows))
    if not {a, b} <= set(rows["member"]):
        return None
    d = advantages(rows, a, b)[1].to_numpy()
    return float(d.mean() / d.std(ddof=1))


def simulate(effect: float | None, replications: int = REPLICATIONS, old: bool = True) -> pd.DataFrame:
    """One row per (case, n, rule): the rate at which the rule decides, with its Monte Carlo standard error."""
    rng = np.random.default_rng(SEED)
    rows = []
    for kind, distribution, sigma, mean in cases(effect):
        for n in SEEDS:
            d = draws(distribution, n, replications, rng, sigma or 1.0) + mean
            rules = {NEW: new_rule} | ({OLD: old_rule} if old else {})
            for name, rule in rules.items():
                decided, se = rate(rule(d))
                rows.append(
                    {
                        "kind": kind,
                        "distribution": distribution,
                        "sigma": sigma if distribution == "lognormal" else np.nan,
                        "effect": mean,
                        "n": n,
                        "replications": replications,
                        "rule": name,
                        "rate": decided,
                        "mc_se": se,
                    }
                )
    return pd.DataFrame(rows)


def tie_sides(
    distribution: str, n: int, replications: int, rng: np.random.Generator, sigma: float = 1.0
) -> tuple[np.ndarray, np.ndarray]:
    """The margin's two sides [replications, n]: regrets whose means are exactly in the ratio of `problems.margins`
    (log-normal), normal differences on an absolute margin of 1 ("normal"), or a true tie well inside it with one
    seed 1.5 margins away ("outlier")."""
    from problems.margins import Margin, margin

    if distribution == "lognormal":
        ratio = margin("any", "simple_regret")
        z = rng.multivariate_normal([0.0, 0.0], [[1, TIE_CORRELATION], [TIE_CORRELATION, 1]], (replications, n))
        b = np.exp(sigma * z[..., 1])
        a = ratio.value * np.exp(sigma * z[..., 0])  # E[A] = ratio · E[B]: on the margin
        return ratio.sides(a, b, lower_is_better=True)
    if distribution == "outlier":
        d = 0.25 * rng.standard_normal((replications, n))
        d[:, 0] = 1.5
    else:
        d = rng.standard_normal((replications, n)) - 1.0  # A's advantage: mean −1, on an absolute margin of 1
    zero = np.zeros_like(d)
    return Margin("absolute", 1.0, "simulation").sides(zero, d, lower_is_better=True)


def three_test_tost(not_worse: np.ndarray, not_better: np.ndarray) -> np.ndarray:
    """The tie rule before: each side by the most conservative of the t-test, sign flips and bootstrap-t."""
    p = [verdicts.one_sided(x, 0.0, "greater") for x in (not_worse, not_better)]
    return np.minimum(1.0, 2 * np.maximum(*p))


def simulate_ties(replications: int = REPLICATIONS) -> pd.DataFrame:
    """One row per (case, n, rule): the rate at which a tie is declared (size at the margin; power with an
    outlier), with its Monte Carlo standard error."""
    rng = np.random.default_rng(SEED + 1)
    rows = []
    cases = [("tie size", "normal", np.nan)] + [("tie size", "lognormal", s) for s in TIE_SIGMAS]
    cases.append(("tie power, one outlier", "outlier", np.nan))
    for kind, distribution, sigma in cases:
        for n in SEEDS:
            sides = tie_sides(distribution, n, replications, rng, sigma)
            rules = {TIE: verdicts.equivalence} | ({"three-test TOST": three_test_tost} if kind != "tie size" else {})
            for name, rule in rules.items():
                decided, se = rate(rule(*sides))
                rows.append({"kind": kind, "distribution": distribution, "sigma": sigma, "effect": np.nan, "n": n,
                             "replications": replications, "rule": name, "rate": decided, "mc_se": se})
    return pd.DataFrame(rows)


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m analysis.statistics.verdict_size", description=__doc__.splitlines()[0])
    cli.add_argument("--table", default="paper/tables/per_trial.csv", help="per-trial table for the realistic effect")
    cli.add_argument("--out", default="paper/tables/verdict_size.csv", help="CSV to write")
    cli.add_argument("--replications", type=int, default=REPLICATIONS)
    args = cli.parse_args(argv)
    effect = realistic_effect(per_trial.load(args.table))
    frame = pd.concat([simulate(effect, args.replications), simulate_ties(args.replications)], ignore_index=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(args.out, index=False, float_format="%.6g")
    print(frame.to_string(index=False))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
