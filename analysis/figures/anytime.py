"""Anytime views of a run: what each method had reached at every budget, not only at the end.

    python -m analysis.figures.anytime --view metric --table T/per_trial.csv --out F/anytime_metric
    python -m analysis.figures.anytime --view ecdf --table T/per_trial.csv --out F/anytime_ecdf
    python -m analysis.figures.anytime --view verdicts --verdicts T/verdicts_along.csv --out F/anytime_verdicts

`metric`: per (experiment, problem), the metric against evaluations for every method, mean with a 95 % bootstrap
interval over seeds, at the budgets of the per-trial table (every budget a trial of that experiment finished at).
`ecdf`: runtime ECDFs over fixed targets (`analysis.runtime_ecdf`). `verdicts`: one strip per claim, its verdict had
the run stopped at each budget (`analysis.verdicts_along`). An (experiment, problem) with a single budget has no
"along" to show and is left out; a figure with nothing left says so. The run's own figures and tables are read only
as CSV, so the view is the same whoever wrote them.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd
import seaborn as sns
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from analysis import per_trial
from analysis.figures.common import (
    EVALUATIONS,
    WIDTH,
    colour,
    legend_columns,
    line_style,
    log_scale_if_positive,
    ordered,
    panels,
    parser,
    problem_title,
    publish,
    suptitle,
    titled,
)
from analysis.naming import experiment_title
from analysis.runtime_ecdf import TARGETS, ecdf
from analysis.verdicts_along import CATEGORIES

#: a verdict class's colour in the strips
CATEGORY_COLOURS = dict(zip(CATEGORIES, ("tab:green", "yellowgreen", "tab:red", "gold", "lightgray", "white")))
METRIC_TITLES = {"simple_regret": "Simple regret", "hypervolume": "Hypervolume", "best_value": "Best value"}


def along_panels(table: pd.DataFrame) -> list[tuple[str, str]]:
    """The (experiment, problem) pairs with more than one budget, in the experiments' order of the table."""
    counts = table.groupby(["experiment", "problem"], sort=False)["budget"].nunique()
    return [key for key, n in counts.items() if n > 1]


def draw_metric(table: pd.DataFrame) -> Figure:
    keys = along_panels(table)
    fig, axes = panels(keys)
    for key in keys:
        ax = axes[key]
        rows = table[(table["experiment"] == key[0]) & (table["problem"] == key[1])]
        order = ordered(rows["label"])
        sns.lineplot(
            rows, x="budget", y="value", hue="label", hue_order=order, palette=[colour(label) for label in order],
            errorbar=("ci", 95), n_boot=1000, seed=0, marker="o", ax=ax, legend="brief",
        )
        if (rows["metric"] == "simple_regret").all():
            log_scale_if_positive(ax, rows["value"])
        ax.set_title(f"{problem_title(key[1])}\n{experiment_title(key[0])}")
        ax.set_xlabel(EVALUATIONS)
        ax.set_ylabel(METRIC_TITLES.get(rows["metric"].iloc[0], rows["metric"].iloc[0]))
        ax.get_legend().remove()
    return titled(fig, "The metric along the budget (mean, 95 % bootstrap CI over seeds)", axes.values())


def draw_ecdf(curves: pd.DataFrame) -> Figure:
    keys = list(dict.fromkeys(zip(curves["experiment"], curves["problem"])))
    fig, axes = panels(keys)
    for key in keys:
        ax = axes[key]
        rows = curves[(curves["experiment"] == key[0]) & (curves["problem"] == key[1])]
        for label in ordered(rows["label"]):
            curve = rows[rows["label"] == label].sort_values("budget")
            ax.step(curve["budget"], curve["fraction"], where="post", color=colour(label), ls=line_style(label),
                    label=label, marker="o")
        ax.set_ylim(-0.02, 1.02)
        ax.set_title(f"{problem_title(key[1])}\n{experiment_title(key[0])}")
        ax.set_xlabel(EVALUATIONS)
        ax.set_ylabel("(target, seed) pairs reached")
    return titled(fig, f"Runtime ECDF over {TARGETS} fixed targets per problem", axes.values())


def draw_verdicts(along: pd.DataFrame) -> Figure:
    experiments = list(dict.fromkeys(along["experiment"]))
    heights = [along.loc[along["experiment"] == e, "name"].nunique() for e in experiments]
    # one panel per experiment, as tall as its claims are many
    fig, column = plt.subplots(
        len(experiments), 1, figsize=(WIDTH, 0.25 * sum(heights) + 1.0 * len(experiments) + 0.8), layout="constrained",
        squeeze=False, gridspec_kw={"height_ratios": heights},
    )
    for experiment, ax in zip(experiments, column[:, 0]):
        rows = along[along["experiment"] == experiment]
        claims = list(dict.fromkeys(f"{n}. {name}" for n, name in zip(rows["number"], rows["name"])))
        budgets = sorted(rows["budget"].unique())
        for row in rows.itertuples():
            y = claims.index(f"{row.number}. {row.name}")
            x = budgets.index(row.budget)
            ax.barh(y, 1.0, left=x - 0.5, height=0.8, color=CATEGORY_COLOURS[row.category], edgecolor="gray", lw=0.5)
        ax.set_yticks(range(len(claims)), claims)
        ax.invert_yaxis()
        ax.set_xticks(range(len(budgets)), [str(b) for b in budgets])
        ax.set_xlim(-0.5, len(budgets) - 0.5)
        ax.set_xlabel(EVALUATIONS)
        ax.set_title(experiment_title(experiment))
        ax.grid(False)
    handles = [Patch(facecolor=CATEGORY_COLOURS[c], edgecolor="gray", label=c) for c in CATEGORIES]
    fig.legend(handles=handles, loc="outside lower center", ncol=legend_columns(CATEGORIES, len(handles)),
               frameon=False)
    suptitle(fig, "Each claim's verdict had the run stopped at each budget")
    return fig


def main(argv: list[str] | None = None) -> int:
    cli = parser("anytime", __doc__.splitlines()[0], table_help=None)
    cli.add_argument("--view", choices=("metric", "ecdf", "verdicts"), required=True)
    cli.add_argument("--table", help="per-trial table (CSV, analysis.per_trial), for the metric and ECDF views")
    cli.add_argument("--verdicts", help="verdicts along the budget (CSV, analysis.verdicts_along)")
    args = cli.parse_args(argv)
    if args.view == "verdicts":
        if not args.verdicts:
            cli.error("--view verdicts needs --verdicts")
        along = pd.read_csv(args.verdicts)
        missing = None if len(along) else f"No claim of this run has its experiment here ({args.verdicts} is empty)."
        return publish(args.out, lambda: draw_verdicts(along), missing)
    if not args.table:
        cli.error(f"--view {args.view} needs --table")
    table = per_trial.read(args.table)
    keep = set(along_panels(table))
    missing = None if keep else f"No experiment in {args.table} has more than one budget to show."
    if args.view == "metric":
        shown = table[[key in keep for key in zip(table["experiment"], table["problem"])]]
        return publish(args.out, lambda: draw_metric(shown), missing)
    curves, _ = ecdf(table)  # targets from the whole run (its best values), shown where there is an "along"
    curves = curves[[key in keep for key in zip(curves["experiment"], curves["problem"])]]
    missing = missing or (None if len(curves) else f"No problem in {args.table} has a range of targets.")
    return publish(args.out, lambda: draw_ecdf(curves), missing)

if __name__ == "__main__":
    raise SystemExit(main())
