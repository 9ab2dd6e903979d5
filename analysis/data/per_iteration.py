"""The per-iteration table: each trial's headline metric after every iteration, small enough to commit (Parquet).

The per-trial table (`analysis.data.per_trial`) keeps a trial only at the budgets some trial of its experiment finished
at, so a run's anytime views (`analysis.figures.anytime`) would have a point or two per method; this table keeps
every iteration, so they can be redrawn from the repository alone, without the records. It is Parquet: as CSV the
extended run's 20 000 rows would be 2 MB, as Parquet they are 150 kB. Columns:
* the trial: experiment, trial_id, label, problem, method, seed;
* `iteration` (0: the initial design) and `num_evals`, the evaluations made by its end;
* `metric` and `lower_is_better`, the trial's headline metric as the per-trial table names it, and `value`, its
  best-so-far after the iteration (at a trial's last iteration, the per-trial table's value at its final budget);
* `recommended_regret`: the regret of the point the method would recommend from those evaluations
  (`analysis.data.tidy.RECOMMENDED_COLUMNS`; empty for records made before it was recorded, and off the regret
  problems);
* `problem_name`, only in a run with a problem the package does not know: its object's own name, by which the figures
  title it (as in the per-trial table).

Run as `python -m analysis.data.per_iteration --table TIDY.parquet --out paper/tables/per_iteration.parquet`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.data.aggregate import HEADLINE_METRICS
from analysis.data.per_trial import KEYS, headline
from analysis.naming import PROBLEMS, display_labels, name_problems_in

#: the table's file name in a run's tables/ folder
NAME = "per_iteration.parquet"
COLUMNS = (
    "experiment", "trial_id", "label", "problem", "method", "seed", "iteration", "num_evals", "metric",
    "lower_is_better", "value", "recommended_regret",
)


def per_iteration(tidy: pd.DataFrame) -> pd.DataFrame:
    """The per-iteration table of a tidy table; see the module docstring."""
    if tidy.empty:
        return pd.DataFrame(columns=list(COLUMNS))
    last = tidy[tidy["iteration"] == tidy.groupby(list(KEYS))["iteration"].transform("max")]
    rows = tidy.merge(headline(last), on=list(KEYS))
    which = rows["metric"].map({m: i for i, m in enumerate(HEADLINE_METRICS)}).to_numpy()
    rows["value"] = rows[list(HEADLINE_METRICS)].to_numpy(dtype=np.float64)[np.arange(len(rows)), which]
    if "recommended_regret" not in rows:  # a tidy table made before recommendations were recorded
        rows["recommended_regret"] = np.nan
    keys = ["experiment", "problem", "label", "seed", "trial_id", "iteration"]
    own = "problem_name" in rows and not set(rows["problem"]) <= set(PROBLEMS)
    return rows[[*COLUMNS, *(["problem_name"] if own else [])]].sort_values(keys, ignore_index=True)


def read(path: str | Path) -> pd.DataFrame:
    """A per-iteration table, its columns checked."""
    table = pd.read_parquet(path)
    missing = [c for c in COLUMNS if c not in table.columns]
    if missing:
        raise ValueError(f"{path}: not a per-iteration table, lacks column(s) {missing}")
    name_problems_in(table)  # a user's problem is titled by its own name
    return display_labels(table)  # a table written before labels were spelled as names


def as_budgets(table: pd.DataFrame) -> pd.DataFrame:
    """The table in the per-trial table's terms (`budget`: the evaluations made, `final_budget`: the trial's last),
    for what reads a trial's progress by budget (`analysis.statistics.runtime_ecdf`,
    `analysis.statistics.scores.gaps`)."""
    final = table.groupby(["experiment", "trial_id"])["num_evals"].transform("max")
    return table.assign(budget=table["num_evals"], final_budget=final)


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m analysis.data.per_iteration", description=__doc__.splitlines()[0])
    cli.add_argument("--table", required=True, help="tidy table (parquet) from analysis.data.tidy")
    cli.add_argument("--out", default="paper/tables/per_iteration.parquet", help="per-iteration table to write")
    args = cli.parse_args(argv)
    table = per_iteration(pd.read_parquet(args.table))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    table.to_parquet(args.out, index=False)
    print(f"{args.out}: {len(table)} rows, {table['trial_id'].nunique()} trials")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
