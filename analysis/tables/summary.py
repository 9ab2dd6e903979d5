"""Final value per experiment, problem and method with 95% bootstrap CIs over seeds.

The value is each problem's headline metric (`analysis.data.aggregate.final_values`): simple regret where the optimum is
known, hypervolume for multi-objective problems, the best objective otherwise. λ and the sampler are part of the
group, so the ablations list one row per setting. `--experiment` restricts the table to some experiments.
"""

from __future__ import annotations

import pandas as pd

from analysis.data.aggregate import final_values, summarise
from analysis.naming import experiment_title, name_problems_in, ordered_problems, problem_title, sampler_name
from analysis.tables import common

#: the tables the workflow writes with this script: name -> the experiment it needs (None: any; read unimported)
TABLES = {"summary": None}
KEYS = ["experiment", "problem", "label", "lam", "sampler", "metric", "lower_is_better"]
METRIC_NAMES = {"simple_regret": "simple regret", "hypervolume": "hypervolume", "best_value": "best objective"}


def final_summary(table: pd.DataFrame, experiments: list[str] | None = None) -> pd.DataFrame:
    """Mean final value with 95% CI and seed count per (experiment, problem, label, λ, sampler)."""
    if experiments:
        table = table[table["experiment"].isin(experiments)]
    stats = summarise(final_values(table), KEYS, "value")
    problem_rank = {p: i for i, p in enumerate(ordered_problems(stats["problem"]))}
    return stats.sort_values(
        ["experiment", "problem", "label", "lam", "sampler"],
        key=lambda c: c.map(problem_rank) if c.name == "problem" else c,
        ignore_index=True,
    )


def for_paper(stats: pd.DataFrame) -> pd.DataFrame:
    """The rows as text, in the reader's names: λ and sampler only where set, metric with its direction, value with
    CI."""
    return pd.DataFrame(
        {
            "Experiment": stats["experiment"].map(experiment_title),
            "Problem": stats["problem"].map(problem_title),
            "Method": stats["label"],
            "λ": stats["lam"].map(lambda v: "" if pd.isna(v) else common.number(v)),
            "Sampler": stats["sampler"].fillna("").map(lambda s: sampler_name(s) if s else ""),
            "Metric": [
                f"{METRIC_NAMES[m]} ({'lower' if low else 'higher'} is better)"
                for m, low in zip(stats["metric"], stats["lower_is_better"])
            ],
            "Final value [95% CI]": [
                common.with_ci(m, lo, hi) for m, lo, hi in zip(stats["mean"], stats["lo"], stats["hi"])
            ],
            "Seeds": stats["n"].astype(int),
        }
    )


def main(argv: list[str] | None = None) -> int:
    cli = common.parser("summary", __doc__.splitlines()[0])
    cli.add_argument("--experiment", nargs="+", help="only these experiments (default: all in the table)")
    args = cli.parse_args(argv)
    table = pd.read_parquet(args.table)
    name_problems_in(table)  # a user's problem shown by its object's name, not by its reference
    stats = final_summary(table, args.experiment)
    if stats.empty:
        common.write_empty(args.out, f"No trials of {args.experiment or 'any experiment'} in {args.table}.")
        return 0
    text = for_paper(stats)
    header = [common.escape(c) for c in text.columns]
    header[3] = r"$\lambda$"
    common.write(args.out, stats, common.latex(text, header))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
