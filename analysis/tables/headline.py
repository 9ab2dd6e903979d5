"""The headline of a run read along its horizon, as numbers: per problem and B3O variant against TS, where along t
the mean verdict shows B3O ahead, what the mean says at the last checkpoint, what the typical seed says there (the
robust readings, `analysis.tables.robust`) and how many seeds of each side are stuck.

Beside them, the leaderboard's numbers for each side: the final regret's median, quartiles and interquartile mean
(rliable's IQM: the mean of the middle half of the seeds, which neither one far seed nor the best seeds carry), and
where the problem knows its best local maximum (`basin_regret`), how many seeds end in a global optimum's basin (final
regret below it; a reading defined from the problem, post hoc on the runs published before it was written). And what
the stuck-seed rule could flag: its threshold (k times the problem's typical final regret) against the largest
regret the problem takes on a Sobol design of its domain (`regret_bound`): above it, the rule cannot fire there.

The README's and the site's opening paragraph is written from this table alone (`analysis.presentation.headline`).

    python -m analysis.tables.headline --horizon paper/large_batch/tables/horizon_along.csv \
        --robust paper/large_batch/tables/robust.csv --stuck paper/large_batch/tables/robust_stuck.csv \
        --table paper/large_batch/tables/per_trial.csv --out paper/large_batch/tables/headline.csv
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats
from scipy.stats import qmc

from analysis.data import per_trial
from analysis.naming import ordered_problems
from analysis.statistics.verdicts import HOLDS
from analysis.tables.horizon import RIVAL

COLUMNS = [
    "problem", "label", "rival", "n_init", "batch_size", "iterations", "checkpoints", "ahead_at", "t", "verdict", "seeds",
    "mean", "lo", "hi", "n", "wins", "losses", "ties", "share", "share_lo", "share_hi", "p_holm", "reading",
    "median", "stuck", "stuck_n", "rival_stuck", "rival_n", "k", "status",
    "final_median", "final_q1", "final_q3", "final_iqm", "basin", "rival_final_median", "rival_final_q1",
    "rival_final_q3", "rival_final_iqm", "rival_basin", "basin_regret", "typical", "regret_bound",
]
#: the Sobol design on which a problem's largest regret is looked for (2^14 points: a problem's values on it take
#: under a second)
BOUND_LOG2_POINTS = 14


def final_summary(values: np.ndarray, basin_regret: float | None) -> dict[str, float]:
    """Median, quartiles and IQM of the final regrets, and how many end below the basin's regret (NaN: not known)."""
    q1, median, q3 = np.quantile(values, [0.25, 0.5, 0.75])
    return {
        "final_median": median, "final_q1": q1, "final_q3": q3,
        "final_iqm": float(stats.trim_mean(values, 0.25)),
        "basin": float(np.sum(values < basin_regret)) if basin_regret is not None else np.nan,
    }


def problem_bounds(problem: str) -> tuple[float, float]:
    """(basin_regret, regret_bound) of a registered problem; NaN where it knows neither its basins nor its optimum."""
    import problems  # the registry starts TensorFlow: only when a table is made

    known = problems.get(problem)
    basin = getattr(known, "basin_regret", None)
    if known.optimum is None:
        return (np.nan if basin is None else basin), np.nan
    unit = qmc.Sobol(known.dim, scramble=True, seed=0).random_base2(BOUND_LOG2_POINTS)
    bound = float((known.minimisation_sign * (known.evaluate(unit)[:, 0] - known.optimum)).max())
    return (np.nan if basin is None else basin), bound


def _join(ts: list[int]) -> str:
    return ",".join(str(int(t)) for t in ts)


def headline(along: pd.DataFrame, robust: pd.DataFrame, stuck: pd.DataFrame, table: pd.DataFrame,
             bounds=problem_bounds) -> pd.DataFrame:
    """A row per (problem, B3O variant) of the horizon table: see the module docstring. `bounds`: problem ->
    (basin_regret, regret_bound), `problem_bounds` by default."""
    checked = along.dropna(subset=["look"])
    horizon = robust[robust["kind"] == "horizon"]
    if "experiment" in checked:
        table = table[table["experiment"].isin(checked["experiment"].unique())]
    rows = []
    for problem in ordered_problems(checked["problem"].unique()):
        on = checked[checked["problem"] == problem]
        last = int(on["iteration"].max())
        runs = table[(table["problem"] == problem) & (table["label"] == RIVAL)]
        rival = stuck[(stuck["problem"] == problem) & (stuck["label"] == RIVAL)].iloc[0]
        basin_regret, regret_bound = bounds(problem)
        basin_known = None if np.isnan(basin_regret) else basin_regret
        theirs = final_summary(runs["value"].to_numpy(), basin_known)
        for label, own in on.groupby("label", sort=True):
            own = own.set_index("iteration").sort_index()
            end = own.loc[last]
            typical = horizon[(horizon["problem"] == problem) & (horizon["left"] == label)
                              & (horizon["iteration"] == last)].iloc[0]
            mine = stuck[(stuck["problem"] == problem) & (stuck["label"] == label)].iloc[0]
            rows.append({
                "problem": problem, "label": label, "rival": RIVAL,
                "n_init": int(runs["n_init"].iloc[0]), "batch_size": int(runs["batch_size"].iloc[0]), "iterations": int(runs["iterations"].iloc[0]),
                "checkpoints": _join(own.index), "ahead_at": _join(own.index[own["verdict"] == HOLDS]), "t": last,
                "verdict": end["verdict"], "seeds": int(end["seeds_at_look"]), "mean": end["look_mean"],
                "lo": end["look_lo"], "hi": end["look_hi"],
                **{c: typical[c] for c in ("n", "wins", "losses", "ties", "share", "share_lo", "share_hi", "p_holm",
                                           "reading", "median", "status")},
                "stuck": int(mine["stuck"]), "stuck_n": int(mine["n"]), "rival_stuck": int(rival["stuck"]),
                "rival_n": int(rival["n"]), "k": mine["k"],
                **final_summary(table[(table["problem"] == problem) & (table["label"] == label)]["value"].to_numpy(),
                                basin_known),
                **{f"rival_{c}": v for c, v in theirs.items()},
                "basin_regret": basin_regret, "typical": mine["typical"], "regret_bound": regret_bound,
            })
    return pd.DataFrame(rows, columns=COLUMNS)


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m analysis.tables.headline", description=__doc__.splitlines()[0])
    cli.add_argument("--horizon", required=True, help="the run's horizon table (analysis.tables.horizon)")
    cli.add_argument("--robust", required=True, help="its robust readings (analysis.tables.robust, with --horizon)")
    cli.add_argument("--stuck", required=True, help="its stuck seeds per setting (analysis.tables.robust's OUT_stuck.csv)")
    cli.add_argument("--table", required=True, help="its per-trial table, for the run's N0, B and T")
    cli.add_argument("--out", required=True, help="the CSV to write")
    args = cli.parse_args(argv)
    frame = headline(pd.read_csv(args.horizon), pd.read_csv(args.robust), pd.read_csv(args.stuck),
                     per_trial.load(args.table))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(args.out, index=False)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
