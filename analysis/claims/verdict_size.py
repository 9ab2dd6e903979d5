"""Size and power of the verdict rule by simulation, beside the percentile-bootstrap rule it replaced.

Size: per-seed differences drawn with mean 0 (normal; t with 3 degrees of freedom; log-normal minus its mean at
σ = 0.25, 0.5 and 1, skewness 0.78, 1.75 and 6.2), REPLICATIONS samples at each n in SEEDS; the rate at which a rule
decides (p < α, either direction) is its false-decision rate, with its Monte Carlo standard error. Power: normal
differences whose mean is the standardised effect (mean / SD of the per-seed differences) of one comparison of the
committed default run, REALISTIC. Rules:
- "t, sign-flip and Hall" (`analysis.statistics.verdicts`): the most conservative of the one-sample t-test, the exact
  sign-flip test of the mean and Hall's skewness-corrected t-test, two-sided at α;
- "percentile bootstrap" (the rule before it): twice the smaller share of NUM_RESAMPLES bootstrap means on either side
  of 0, from 5 seeds on.
Tie and non-inferiority size under unequal spreads: pairs of per-seed regrets (A, B) whose log regrets have SDs
(σ_A, σ_B) from SPREADS on either side, correlated by seed (they share each seed's initial design) as the published
runs' paired final regrets are (`observed_correlation`: the median Spearman correlation over their comparisons), and
again independent (correlation 0) beside,
with normal, skewed (standardised log-normal of σ SKEW_SIGMA, skewness 0.95), heavy-tailed (t with 3 degrees of
freedom) or stuck marginals (a rare far mode: STUCK_SHARE of the seeds STUCK_JUMP SDs up, skewness 2.7, like the
published runs' stuck seeds), at n in TIE_SEEDS, A's regrets exactly the ratio margin worse than B's on the typical
seed (`problems.margins`: the median per-seed log ratio is log ρ). At the margin a tie (`verdicts.equivalence`: each
side by `verdicts.margin_one_sided`, the exact sign test) and non-inferiority ("matches or beats":
`verdicts.margin_two_sided` on the margin's first side) may be declared at most at the one-sided level α/2; each cell
has TIE_REPLICATIONS samples (Monte Carlo SE about 0.0035 at 0.025, a size chosen to keep the grid to minutes on two
busy cores). Beside, labelled "tie at the means' margin", what the rule declares for stuck seeds when the mean log
ratio (not the median it tests) sits at the margin: a rare stuck seed moves the mean, not the typical seed. The linearised arithmetic sides the engine used
before (1.25·B − A, with the three tests) are simulated beside at the unequal spreads that oversized them
(BEFORE_SPREADS), at an arithmetic margin. Also normal differences at an absolute margin. Tie power, by the tie test
and by the paired t TOST of the mean it replaced (which declared a tie up to 0.11 of the time at the means' margin
for stuck seeds):
a true tie (equal geometric means, normal log regrets of log-SD POWER_SPREAD) at TIE_SEEDS, and a true tie
(normal differences, mean 0, SD 0.25 of the margin) with one seed moved 1.5 margins away.
`tests/test_verdict_size.py` checks the vectorised rule against the engine's and runs a size check in the test suite.

    python -m analysis.claims.verdict_size --table paper/tables/per_trial.csv --out paper/tables/verdict_size.csv
"""

from __future__ import annotations

import argparse
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from analysis.claims.comparisons import advantages
from analysis.claims.selection import member_names
from analysis.data import per_trial
from analysis.statistics import verdicts
from analysis.data.resampling import NUM_RESAMPLES, SEED
from analysis.statistics.verdicts import ALPHA

SEEDS = (5, 6, 8, 10)
REPLICATIONS = 10_000
#: seeds and samples per cell of the unequal-spread tie and non-inferiority simulation
TIE_SEEDS = (5, 10, 20, 40)
TIE_REPLICATIONS = 2000
#: log-regret SDs of A and B: every pair from the smallest to the widest spread the published runs show
SPREADS = tuple((a, b) for a in (0.1, 0.5, 1.5, 2.5) for b in (0.1, 0.5, 1.5, 2.5))
#: the marginal shapes of the log regrets
SHAPES = ("normal", "skewed", "heavy-tailed", "stuck")
#: the skewed shape: a standardised log-normal of this σ, skewness 0.95, beyond the right skew of the published runs'
#: log final regrets (95th percentile 0.87 over settings with 10 or more seeds; `skewness_seen`)
SKEW_SIGMA = 0.3
#: the stuck shape: this share of seeds lands this many SDs of the rest above them (skewness 2.7; the published
#: runs' paired log ratios reach a sample skewness of 3.1, e.g. a TS seed of 30 at 1.71 where the rest end near 0.02)
STUCK_SHARE = 0.05
STUCK_JUMP = 8.0
#: the spreads at which the rule's tie is simulated at the means' margin for stuck seeds
MEANS_MARGIN_SPREADS = ((0.5, 0.1), (1.5, 0.5))
#: the unequal spreads at which the linearised arithmetic rule before oversized (issue 67)
BEFORE_SPREADS = ((1.5, 0.25), (1.0, 0.5))
#: the comparison whose standardised effect sets the power case: (experiment, problem, A, B)
REALISTIC = ("synthetic_b100", "hartmann6", "B3O-UCB-c", "TS")
#: log-normal σ of the skewed cases
SIGMAS = (0.25, 0.5, 1.0)
#: the published per-trial tables whose paired seeds set the simulated correlation (`observed_correlation`)
PUBLISHED_TABLES = "paper/**/per_trial.csv"
#: the fewest shared seeds a pair of settings needs to count in the observed correlation
CORRELATION_SEEDS = 10
INDEPENDENT, OBSERVED = "independent seeds", "the runs' correlation"
#: log-SD of both methods' log regrets in the tie power case: a typical spread of the published runs (0.17–2.5)
POWER_SPREAD = 0.25
TIE = "TOST, sign tests"
NON_INFERIORITY = "non-inferiority, sign test"
#: a tie rule of the mean (each side by the one-sided paired t-test alone), beside in the tie power rows
T_TOST = "paired t TOST of the mean"
BEFORE = "linearised non-inferiority (before)"
NEW = "t, sign-flip and Hall"
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


def new_rule(d: np.ndarray) -> np.ndarray:
    """Two-sided p of `analysis.statistics.verdicts` for each row of `d` (the engine's own vectorised test)."""
    return verdicts.two_sided(d, 0.0)


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


def observed_correlation(tables: list[pd.DataFrame]) -> pd.DataFrame:
    """The seeds' correlation the published runs show: for every pair of settings of one experiment and problem with
    at least CORRELATION_SEEDS shared seeds, the Spearman correlation of their final values (lower-is-better metrics;
    rank-based, so a log makes no difference). One row per pair."""
    rows = []
    for table in tables:
        final = table[(table["budget"] == table["final_budget"]) & table["lower_is_better"].astype(bool)]
        for (experiment, problem), group in final.groupby(["experiment", "problem"]):
            wide = group.pivot_table(index="seed", columns="label", values="value")
            labels = list(wide.columns)
            for i, a in enumerate(labels):
                for b in labels[i + 1 :]:
                    both = wide[[a, b]].dropna()
                    if len(both) >= CORRELATION_SEEDS and both[a].nunique() > 1 and both[b].nunique() > 1:
                        rho = stats.spearmanr(both[a], both[b]).statistic
                        rows.append({"experiment": experiment, "problem": problem, "a": a, "b": b,
                                     "seeds": len(both), "spearman": float(rho)})
    return pd.DataFrame(rows, columns=["experiment", "problem", "a", "b", "seeds", "spearman"])


def simulated_correlation(pairs: pd.DataFrame) -> float:
    """The correlation the simulations give the paired seeds: the pairs' median Spearman correlation to two decimals
    (a new published run that moves it in the third decimal leaves every simulated table as it is)."""
    return round(float(pairs["spearman"].median()), 2)


def log_regrets(
    shape: str, spreads: tuple[float, float], n: int, replications: int, rng: np.random.Generator,
    correlation: float = 0.0,
) -> tuple[np.ndarray, np.ndarray]:
    """Two [replications, n] log regrets with mean 0, SDs `spreads` and marginal `shape`, correlated `correlation`
    by seed through a Gaussian copula (for "stuck", each method's stuck seeds drawn apart from the other's)."""
    cov = [[1.0, correlation], [correlation, 1.0]]
    z = rng.multivariate_normal([0.0, 0.0], cov, (replications, n))
    if shape == "skewed":  # standardised log-normal of σ SKEW_SIGMA
        k = SKEW_SIGMA
        w = (np.exp(k * z) - np.exp(k**2 / 2)) / np.sqrt((np.exp(k**2) - 1) * np.exp(k**2))
    elif shape == "heavy-tailed":  # t with 3 degrees of freedom, unit variance
        w = stats.t.ppf(stats.norm.cdf(z), 3) / np.sqrt(3.0)
    elif shape == "stuck":  # a normal body and STUCK_SHARE of seeds STUCK_JUMP SDs up, standardised
        jump = STUCK_JUMP * (rng.random(z.shape) < STUCK_SHARE)
        w = (z + jump - STUCK_JUMP * STUCK_SHARE) / np.sqrt(1 + STUCK_JUMP**2 * STUCK_SHARE * (1 - STUCK_SHARE))
    elif shape == "normal":
        w = z
    else:
        raise ValueError(f"unknown shape {shape!r}")
    return spreads[0] * w[..., 0], spreads[1] * w[..., 1]


@cache
def median_log_ratio(shape: str, spreads: tuple[float, float], correlation: float, draws: int = 400_000) -> float:
    """The median of log(a/b) per seed for the log regrets `log_regrets` draws (0 for symmetric shapes), by a large
    sample of its own fixed seed; once per shape and spreads (every n of a cell shares it)."""
    log_a, log_b = log_regrets(shape, spreads, draws, 1, np.random.default_rng(SEED + 2), correlation)
    return float(np.median(log_a - log_b))


def tie_sides(
    distribution: str, n: int, replications: int, rng: np.random.Generator, spreads: tuple[float, float] = (0.5, 0.5),
    at: str = "median", correlation: float = 0.0,
) -> tuple[np.ndarray, np.ndarray]:
    """The margin's two sides [replications, n] (`problems.margins.Margin.sides`): regrets whose log ratio has
    median (`at` = "mean": mean) exactly log ρ (a shape of SHAPES, log-SDs `spreads`), normal differences on an
    absolute margin of 1 ("absolute"), or a true tie well inside it with one seed 1.5 margins away ("outlier")."""
    from problems.margins import Margin, margin

    if distribution in SHAPES:
        ratio = margin("any", "simple_regret")
        log_a, log_b = log_regrets(distribution, spreads, n, replications, rng, correlation)
        shift = median_log_ratio(distribution, spreads, correlation) if at == "median" else 0.0
        return ratio.sides(ratio.value * np.exp(log_a - shift), np.exp(log_b), lower_is_better=True)
    if distribution == "outlier":
        d = 0.25 * rng.standard_normal((replications, n))
        d[:, 0] = 1.5
    else:
        d = rng.standard_normal((replications, n)) - 1.0  # A's advantage: mean −1, on an absolute margin of 1
    zero = np.zeros_like(d)
    return Margin("absolute", 1.0, "simulation").sides(zero, d, lower_is_better=True)


def linearised_before(spreads: tuple[float, float], n: int, replications: int, rng: np.random.Generator,
                      correlation: float = 0.0) -> np.ndarray:
    """The non-inferiority side of the rule before, 1.25·B − A, for log-normal regrets whose arithmetic means are
    exactly in the ratio margin (E[A] = 1.25·E[B])."""
    from problems.margins import margin

    ratio = margin("any", "simple_regret").value
    log_a, log_b = log_regrets("normal", spreads, n, replications, rng, correlation)
    a = ratio * np.exp(log_a - spreads[0] ** 2 / 2)  # E[A] = ratio
    b = np.exp(log_b - spreads[1] ** 2 / 2)  # E[B] = 1
    return ratio * b - a


def non_inferior(not_worse: np.ndarray, test=verdicts.margin_two_sided) -> np.ndarray:
    """Whether "matches or beats" holds for each row: `test` (the engine's margin test; the three tests,
    `verdicts.two_sided`, for the linearised rule before) shows the first side above 0 at α (`verdicts.decide` on
    one comparison)."""
    return (test(not_worse) < ALPHA) & (not_worse.mean(axis=1) > 0)


def t_tost(not_worse: np.ndarray, not_better: np.ndarray) -> np.ndarray:
    """The tie rule before: each side by the one-sided paired t-test, p twice the larger."""
    p = [stats.ttest_1samp(x, 0.0, axis=-1, alternative="greater").pvalue for x in (not_worse, not_better)]
    return np.minimum(1.0, 2 * np.maximum(*p))


def true_tie(n: int, replications: int, rng: np.random.Generator, correlation: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """The margin's two sides for regrets with equal geometric means (normal log regrets of log-SD POWER_SPREAD,
    correlated `correlation` by seed): a tie the test should find."""
    from problems.margins import margin

    log_a, log_b = log_regrets("normal", (POWER_SPREAD, POWER_SPREAD), n, replications, rng, correlation)
    return margin("any", "simple_regret").sides(np.exp(log_a), np.exp(log_b), lower_is_better=True)


def _row(kind: str, distribution: str, spreads: tuple[float, float] | None, n: int, rule: str, shown: np.ndarray,
         effect: float = np.nan) -> dict:
    decided = float(np.mean(shown))
    se = float(np.sqrt(max(decided * (1 - decided), 1e-12) / len(shown)))
    sigma_a, sigma_b = spreads if spreads is not None else (np.nan, np.nan)
    return {"kind": kind, "distribution": distribution, "sigma": sigma_a, "sigma_b": sigma_b, "effect": effect,
            "n": n, "replications": len(shown), "rule": rule, "rate": decided, "mc_se": se}


def simulate_ties(replications: int = TIE_REPLICATIONS, spreads: tuple = SPREADS, seeds: tuple = TIE_SEEDS,
                  correlation: float = 0.0, seeds_are: str = INDEPENDENT) -> pd.DataFrame:
    """One row per (case, n, rule): the rate at which a tie or non-inferiority is declared at the margin (at most
    α/2 each), the rule before beside, and the tie's power with an outlier, with Monte Carlo standard errors; the
    paired seeds' log regrets correlated `correlation` (`seeds_are` names it in the table)."""
    rng = np.random.default_rng(SEED + 1)
    rows = []
    for shape in SHAPES:
        for pair in spreads:
            for n in seeds:
                sides = tie_sides(shape, n, replications, rng, pair, correlation=correlation)
                rows.append(_row("tie size", shape, pair, n, TIE, verdicts.equivalence(*sides) < ALPHA))
                rows.append(_row("tie size", shape, pair, n, NON_INFERIORITY, non_inferior(sides[0])))
    for pair in BEFORE_SPREADS:
        for n in seeds:
            linearised = linearised_before(pair, n, replications, rng, correlation)
            rows.append(_row("tie size", "normal", pair, n, BEFORE,
                             non_inferior(linearised, lambda x: verdicts.two_sided(x, 0.0))))
    for n in SEEDS:
        sides = tie_sides("absolute", n, replications, rng)
        rows.append(_row("tie size", "absolute", None, n, TIE, verdicts.equivalence(*sides) < ALPHA))
    for pair in MEANS_MARGIN_SPREADS:
        for n in seeds:
            sides = tie_sides("stuck", n, replications, rng, pair, at="mean", correlation=correlation)
            rows.append(_row("tie at the means' margin", "stuck", pair, n, TIE, verdicts.equivalence(*sides) < ALPHA))
            rows.append(_row("tie at the means' margin", "stuck", pair, n, T_TOST, t_tost(*sides) < ALPHA))
    for kind, distribution, spreads, ns, make in (
        ("tie power", "normal", (POWER_SPREAD, POWER_SPREAD), seeds,
         lambda n, r, g: true_tie(n, r, g, correlation)),
        ("tie power, one outlier", "outlier", None, SEEDS, lambda n, r, g: tie_sides("outlier", n, r, g)),
    ):
        for n in ns:
            sides = make(n, replications, rng)
            rows.append(_row(kind, distribution, spreads, n, TIE, verdicts.equivalence(*sides) < ALPHA))
            rows.append(_row(kind, distribution, spreads, n, T_TOST, t_tost(*sides) < ALPHA))
    return pd.DataFrame(rows).assign(correlation=correlation, seeds_are=seeds_are)


def simulate_all(effect: float | None, correlation: float, replications: int = REPLICATIONS,
                 tie_replications: int = TIE_REPLICATIONS) -> pd.DataFrame:
    """The whole table `main` writes: the difference test's size and power, then the tie test's with the seeds
    correlated as the published runs' (`correlation`), then with independent seeds."""
    frame = pd.concat([simulate(effect, replications),
                       simulate_ties(tie_replications, correlation=correlation, seeds_are=OBSERVED),
                       simulate_ties(tie_replications, correlation=0.0, seeds_are=INDEPENDENT)], ignore_index=True)
    return frame[["kind", "distribution", "sigma", "sigma_b", "effect", "n", "replications", "rule", "rate", "mc_se",
                  "correlation", "seeds_are"]]


def oversized(table: pd.DataFrame) -> pd.DataFrame:
    """The engine's tie and non-inferiority cells whose size exceeds α/2 by more than two Monte Carlo SEs."""
    ours = table[(table["kind"] == "tie size") & (table["rule"] != BEFORE)]
    if "seeds_are" in ours:
        ours = ours[ours["seeds_are"] == OBSERVED]
    return ours[ours["rate"] > ALPHA / 2 + 2 * ours["mc_se"]]


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m analysis.claims.verdict_size", description=__doc__.splitlines()[0])
    cli.add_argument("--table", default="paper/tables/per_trial.csv", help="per-trial table for the realistic effect")
    cli.add_argument("--out", default="paper/tables/verdict_size.csv", help="CSV to write")
    cli.add_argument("--replications", type=int, default=REPLICATIONS)
    cli.add_argument("--tie-replications", type=int, default=TIE_REPLICATIONS)
    cli.add_argument("--correlations", default="paper/tables/seed_correlation.csv",
                     help="CSV to write the published runs' seed correlations to (one row per pair of settings)")
    args = cli.parse_args(argv)
    effect = realistic_effect(per_trial.load(args.table))
    pairs = observed_correlation([pd.read_csv(p) for p in sorted(Path(".").glob(PUBLISHED_TABLES))])
    pairs.to_csv(args.correlations, index=False, float_format="%.6g")
    rho = simulated_correlation(pairs)
    print(f"seeds' correlation: median Spearman {rho} over {len(pairs)} pairs of settings; wrote {args.correlations}")
    frame = simulate_all(effect, rho, args.replications, args.tie_replications)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(args.out, index=False, float_format="%.6g")
    print(frame.to_string(index=False))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
