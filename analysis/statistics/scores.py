"""Normalised scores: every problem on one scale, so that methods can be averaged across problems (Bayesmark's).

    python -m analysis.statistics.scores --table paper/extended/tables/per_trial.csv --out paper/extended/tables

A trial's *gap* at a budget is how far its metric is from the best: the simple regret itself on a regret problem
(ackley5, hartmann6, shekel4: 0 is the optimum); on a problem without a known optimum, the distance to the best value
any trial of the run reached on that problem at any budget (the hypervolume's HV_best − HV on the battery, where
HV_best is the largest hypervolume of the run; value − best on Formula E, lower is better). The *score* divides the
gap by the median gap of Random at the same number of evaluations on the same problem in the same experiment:
0 is the optimum (or the run's best), 1 is random search's median, above 1 is worse than random search. A row
without Random at its budget has no score, and its `note` says why. Scores are unpaired across methods (Random's
median is one number per budget), so they complement, not replace, the claims' paired verdicts.

Across problems (`aggregate`), a method's score at a budget is the mean over problems of its per-problem mean score,
with a 95 % stratified-bootstrap interval (seeds resampled within each problem, percentile interval; rliable's
estimator, computed with `scipy.stats.bootstrap`, one sample per problem). `profiles` gives rliable's performance
profiles: the fraction of a method's (problem, seed) runs whose score is at most τ.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from analysis.data import per_trial

RANDOM = "random"  # the grid's method name of random search
REGRET = "simple_regret"  # the metric whose value is already a gap (0 at the optimum)
#: what identifies one row of the per-trial table (a trial at one budget)
KEYS = ["experiment", "problem", "label", "method", "seed", "budget"]
#: the τ grid of the performance profiles: scores from 0 (the best) to 2 (twice random search's median gap)
TAUS = np.linspace(0.0, 2.0, 81)
BOOTSTRAP_RESAMPLES = 2000
CONFIDENCE = 0.95


def gaps(table: pd.DataFrame) -> pd.DataFrame:
    """The per-trial table's rows with `best` (the reference: 0 for regret, else the run's best value on the
    problem) and `gap` (distance from it, ≥ 0), see the module docstring."""
    out = table.copy()
    higher = ~out["lower_is_better"].astype(bool)
    signed = out["value"].where(~higher, -out["value"])  # lower is better from here on
    best = signed.groupby(out["problem"]).transform("min")
    regret = out["metric"] == REGRET
    out["best"] = np.where(regret, 0.0, np.where(higher, -best, best))
    out["gap"] = np.where(regret, out["value"], signed - best)
    return out


def scores(table: pd.DataFrame) -> pd.DataFrame:
    """One row per trial and budget: its gap, Random's median gap at that budget (`random_median`), the score and a
    `note` saying why a row has none."""
    out = gaps(table)
    cell = ["experiment", "problem", "budget"]
    random = out[out["method"] == RANDOM].groupby(cell)["gap"].median().rename("random_median")
    out = out.join(random, on=cell)
    has_random = out.groupby(["experiment", "problem"])["method"].transform(lambda m: (m == RANDOM).any())
    out["score"] = out["gap"] / out["random_median"].where(out["random_median"] > 0)
    out["note"] = np.select(
        [~has_random, out["random_median"].isna(), out["random_median"] <= 0],
        [
            "no Random in this experiment on this problem",
            "no Random trial at this budget",
            "Random's median gap is 0 at this budget (no scale)",
        ],
        default="",
    )
    columns = [*KEYS, "final_budget", "metric", "lower_is_better", "value", "best", "gap", "random_median", "score"]
    return out[[*columns, "note"]].sort_values(KEYS).reset_index(drop=True)


def _mean_of_problem_means(*samples: np.ndarray, axis: int = -1) -> np.ndarray:
    return np.mean([np.mean(s, axis=axis) for s in samples], axis=0)


def aggregate(scored: pd.DataFrame, seed: int = 0) -> pd.DataFrame:
    """Per (experiment, budget, label): the mean over problems of the per-problem mean score with its 95 % stratified
    bootstrap interval (NaN bounds where every problem has a single seed), the median score and the runs counted."""
    rows = []
    valid = scored.dropna(subset=["score"])
    for (experiment, budget, label), group in valid.groupby(["experiment", "budget", "label"], sort=True):
        samples = [g["score"].to_numpy() for _, g in group.groupby("problem", sort=True)]
        mean = float(_mean_of_problem_means(*samples))
        lo = hi = np.nan
        if any(len(s) > 1 for s in samples):
            interval = stats.bootstrap(
                samples, _mean_of_problem_means, n_resamples=BOOTSTRAP_RESAMPLES, confidence_level=CONFIDENCE,
                method="percentile", vectorized=True, rng=np.random.default_rng(seed),
            ).confidence_interval
            lo, hi = float(interval.low), float(interval.high)
        rows.append({
            "experiment": experiment, "budget": int(budget), "label": label,
            "problems": ", ".join(sorted(group["problem"].unique())), "runs": len(group),
            "mean": mean, "lo": lo, "hi": hi, "median": float(group["score"].median()),
        })
    return pd.DataFrame(rows, columns=["experiment", "budget", "label", "problems", "runs", "mean", "lo", "hi", "median"])


def final(aggregated: pd.DataFrame) -> pd.DataFrame:
    """`aggregate`'s rows at each experiment's last budget, the best (lowest) score first within an experiment:
    what the README and the report quote."""
    last = aggregated["budget"] == aggregated.groupby("experiment")["budget"].transform("max")
    return aggregated[last].sort_values(["experiment", "mean"], kind="stable")


def profiles(scored: pd.DataFrame, taus: np.ndarray = TAUS) -> pd.DataFrame:
    """Per (experiment, budget, label) and τ: the fraction of (problem, seed) runs with score ≤ τ."""
    rows = []
    valid = scored.dropna(subset=["score"])
    for (experiment, budget, label), group in valid.groupby(["experiment", "budget", "label"], sort=True):
        values = np.sort(group["score"].to_numpy())
        fraction = np.searchsorted(values, taus, side="right") / len(values)
        rows += [
            {"experiment": experiment, "budget": int(budget), "label": label, "tau": t, "fraction": f}
            for t, f in zip(taus, fraction)
        ]
    return pd.DataFrame(rows, columns=["experiment", "budget", "label", "tau", "fraction"])


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m analysis.statistics.scores", description=__doc__.splitlines()[0])
    cli.add_argument("--table", required=True, help="per-trial table (CSV, analysis.data.per_trial)")
    cli.add_argument("--out", required=True, help="folder; writes scores.csv and score_aggregate.csv there")
    args = cli.parse_args(argv)
    scored = scores(per_trial.read(args.table))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    scored.to_csv(out / "scores.csv", index=False)
    aggregate(scored).to_csv(out / "score_aggregate.csv", index=False)
    print(f"wrote {out / 'scores.csv'}, {out / 'score_aggregate.csv'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
