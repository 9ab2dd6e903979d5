"""The per-trial table: the values the claims need, one row per (experiment, trial, budget), small enough to commit.

`paper/tables/per_trial.csv` is written with every run, so the claims table can be regenerated from the repository
alone (`python -m analysis.tables.claims_table --table paper/tables/per_trial.csv`). Columns:
* the trial's grid columns (experiment, trial_id, problem, label, method, acquisition, temperature, lam, sampler,
  batch_size, iterations, n_init, seed) and its headline `metric` with `lower_is_better`;
* `final_budget`, the trial's last evaluation count, and `budget`: one row for each final evaluation count reached by
  any trial of the same experiment and problem, up to the trial's own. `value` is the metric's best-so-far at that
  budget: the value after the last batch that fits, so methods with different budgets compare at the smaller one;
  `recommended_regret` is, at the same budget, the regret of the point the method would recommend from those
  evaluations (`analysis.data.tidy.RECOMMENDED_COLUMNS`; empty for records and tables made before it was recorded);
* `diversity`: mean batch diversity over the BO iterations at which every B3O trial of the experiment and problem
  had λ_t > 0 (a scheduled variant's first batch, λ_1 = 0, is uniform by construction); `diversity_skipped` lists
  the iterations left out ("1;2"); `diversity_first` and `diversity_last` are the first and last batches' values,
  `diversity_early` the batch's at `early_iteration` (a fifth into the horizon, at least the second);
* `started_utc`: when the trial started (its record's finish less its wall time; a resumed trial's earlier part is
  not counted, so it may have started earlier), which `analysis.claims` compares with the margins' commit;
* `platform_id`: the numerical platform the trial ran on (`bench.numerics.platform_id`; empty in tables made
  before it was recorded). Trials of equal spec and platform id give identical values.
* `problem_name`, only in a run with a problem the package does not know (a user's own, named by a reference such
  as `my_problem:shifted_sphere`): each problem's object's own `name`, so that tables and text show it by that name
  (`analysis.naming.name_problems_in`, which `read` applies).

Run as `python -m analysis.data.per_trial --table TIDY.parquet --out paper/tables/per_trial.csv`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.data.aggregate import HEADLINE_METRICS
from analysis.data.tidy import GRID_COLUMNS
from analysis.naming import PROBLEMS, display_labels, name_problems_in

KEYS = ("experiment", "trial_id")
TRIAL = KEYS + tuple(c for c in GRID_COLUMNS if c not in KEYS and c != "record")
STRINGS = (
    "experiment", "trial_id", "problem", "label", "method", "acquisition", "temperature", "sampler", "platform_id",
    "started_utc",
)
COLUMNS = TRIAL + (
    "metric",
    "lower_is_better",
    "final_budget",
    "budget",
    "value",
    "recommended_regret",
    "diversity",
    "diversity_skipped",
    "diversity_first",
    "diversity_last",
    "diversity_early",
    "started_utc",
    "platform_id",
)
#: the share of the horizon by which "early" iterations end (App. E: TS's diversity "drops rapidly in early iterations")
EARLY_SHARE = 0.2


def early_iteration(iterations: int) -> int:
    """The BO iteration at EARLY_SHARE of a horizon of `iterations` (at least the second): 2 at T = 6, 10 at 50."""
    return max(2, int(np.ceil(EARLY_SHARE * iterations)))


def headline(last: pd.DataFrame) -> pd.DataFrame:
    """Per trial (its final row): the headline metric's name and whether lower is better (`analysis.data.per_iteration`
    reads the same one)."""
    metric = last[list(HEADLINE_METRICS)].notna().idxmax(axis=1)
    lower = (metric == "simple_regret") | ((metric == "best_value") & (last["sense"] == "minimise"))
    return last[list(KEYS)].assign(metric=metric.to_numpy(), lower_is_better=lower.to_numpy())


def skipped_iterations(tidy: pd.DataFrame) -> pd.Series:
    """Per (experiment, problem): the BO iterations at which some B3O trial had λ_t = 0, as "1;2" ("" if none)."""
    zero = tidy[(tidy["method"] == "b3o") & (tidy["iteration"] >= 1) & (tidy["lambda_t"] <= 0)]
    skipped = zero.groupby(["experiment", "problem"])["iteration"].agg(lambda t: ";".join(map(str, sorted(set(t)))))
    pairs = tidy[["experiment", "problem"]].drop_duplicates()
    index = pd.MultiIndex.from_frame(pairs)
    return skipped.reindex(index, fill_value="").rename("diversity_skipped")


def _diversity(tidy: pd.DataFrame) -> pd.DataFrame:
    """Per trial: mean diversity over the iterations not skipped, and the first and last batches' diversity."""
    skipped = skipped_iterations(tidy)
    rows = tidy[(tidy["iteration"] >= 1)].merge(skipped.reset_index(), on=["experiment", "problem"])
    left_out = [str(t) in s.split(";") for t, s in zip(rows["iteration"], rows["diversity_skipped"])]
    kept = rows[~np.asarray(left_out, dtype=bool) & rows["diversity"].notna()]
    by_trial = rows[rows["diversity"].notna()].sort_values("iteration").groupby(list(KEYS))["diversity"]
    early = rows[rows["iteration"] == [early_iteration(t) for t in rows["iterations"]]]
    out = pd.DataFrame(
        {
            "diversity": kept.groupby(list(KEYS))["diversity"].mean(),
            "diversity_first": by_trial.first(),
            "diversity_last": by_trial.last(),
            "diversity_early": early.groupby(list(KEYS))["diversity"].mean(),
        }
    )
    trials = tidy[list(KEYS) + ["problem"]].drop_duplicates()
    with_skipped = trials.merge(skipped.reset_index(), on=["experiment", "problem"]).drop(columns="problem")
    return with_skipped.merge(out.reset_index(), on=list(KEYS), how="left")


def _budgets(tidy: pd.DataFrame, metric: pd.DataFrame) -> pd.DataFrame:
    """One row per (trial, budget): the metric's best-so-far after the last batch within the budget."""
    finals = tidy.groupby(list(KEYS) + ["experiment_problem"])["num_evals"].max().rename("final_budget").reset_index()
    budgets = finals.groupby("experiment_problem")["final_budget"].unique()
    frames = []
    metric_of = metric.set_index(list(KEYS))["metric"]
    for (experiment, trial_id), trace in tidy.sort_values("num_evals").groupby(list(KEYS), sort=False):
        final_budget = int(trace["num_evals"].max())
        wanted = np.sort([b for b in budgets[trace["experiment_problem"].iloc[0]] if b <= final_budget])
        known = trace["num_evals"].to_numpy()
        index = np.searchsorted(known, wanted, side="right") - 1
        values = trace[metric_of[experiment, trial_id]].to_numpy()
        recommended = trace.get("recommended_regret", pd.Series(np.nan, index=trace.index)).to_numpy()
        frames.append(
            pd.DataFrame(
                {
                    "experiment": experiment,
                    "trial_id": trial_id,
                    "final_budget": final_budget,
                    "budget": wanted.astype(np.int64),
                    "value": np.where(index >= 0, values[np.clip(index, 0, None)], np.nan),
                    "recommended_regret": np.where(index >= 0, recommended[np.clip(index, 0, None)], np.nan),
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


def per_trial(tidy: pd.DataFrame) -> pd.DataFrame:
    """The per-trial table of a tidy table; see the module docstring."""
    if tidy.empty:
        return pd.DataFrame(columns=list(COLUMNS))
    tidy = tidy.assign(experiment_problem=tidy["experiment"] + "/" + tidy["problem"])
    last = tidy[tidy["iteration"] == tidy.groupby(list(KEYS))["iteration"].transform("max")]
    if "platform_id" not in last:  # a tidy table made before platform ids were recorded
        last = last.assign(platform_id="")
    started = pd.to_datetime(last["finished_utc"], utc=True) - pd.to_timedelta(last["wall_s"].fillna(0), unit="s")
    last = last.assign(started_utc=started.dt.strftime("%Y-%m-%dT%H:%M:%SZ"))
    trials = last[[*TRIAL, "started_utc", "platform_id"]].drop_duplicates(list(KEYS))
    metric = headline(last)
    table = (
        trials.merge(metric, on=list(KEYS))
        .merge(_budgets(tidy, metric), on=list(KEYS))
        .merge(_diversity(tidy), on=list(KEYS))
    )
    table[list(STRINGS)] = table[list(STRINGS)].fillna("")
    own = "problem_name" in tidy and not set(table["problem"]) <= set(PROBLEMS)
    if own:  # a user's problem: its object's name beside its reference
        names = tidy.drop_duplicates("problem").set_index("problem")["problem_name"]
        table["problem_name"] = table["problem"].map(names).fillna("")
    table = display_labels(table[[*COLUMNS, *(["problem_name"] if own else [])]])  # labels spelled as names
    return table.sort_values(["experiment", "problem", "label", "seed", "trial_id", "budget"])


def read(path: str | Path) -> pd.DataFrame:
    """A per-trial CSV with the dtypes `per_trial` produces (empty strings, not NaN, for absent grid settings)."""
    table = pd.read_csv(
        path, dtype={c: "str" for c in (*STRINGS, "diversity_skipped")}, keep_default_na=False, na_values=[""]
    )
    absent = {"platform_id": "", "started_utc": "", "diversity_early": np.nan, "recommended_regret": np.nan}
    for column, value in absent.items():
        if column not in table.columns:  # written before the column was recorded
            table[column] = value
    missing = [c for c in COLUMNS if c not in table.columns]
    if missing:
        raise ValueError(f"{path}: not a per-trial table, lacks column(s) {missing}")
    table[[*STRINGS, "diversity_skipped"]] = table[[*STRINGS, "diversity_skipped"]].fillna("")
    table["lower_is_better"] = table["lower_is_better"].astype(bool)
    name_problems_in(table)  # a user's problems by their own names wherever this run's tables and text show them
    return display_labels(table)  # a table written before labels were spelled as names


def load(path: str | Path) -> pd.DataFrame:
    """The per-trial table from a per-trial CSV, or built from a tidy parquet table."""
    path = Path(path)
    return read(path) if path.suffix == ".csv" else per_trial(pd.read_parquet(path))


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m analysis.data.per_trial", description=__doc__.splitlines()[0])
    cli.add_argument("--table", required=True, help="tidy table (parquet) from analysis.data.tidy")
    cli.add_argument("--out", default="paper/tables/per_trial.csv", help="per-trial table to write (CSV)")
    args = cli.parse_args(argv)
    table = per_trial(pd.read_parquet(args.table))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(args.out, index=False)
    print(f"{args.out}: {len(table)} rows, {table['trial_id'].nunique()} trials")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
