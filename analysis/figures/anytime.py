"""Anytime views of a run: what each method had reached after every iteration, not only at the end.

    python -m analysis.figures.anytime --view metric --table T/per_iteration.parquet --out F/anytime_metric
    python -m analysis.figures.anytime --view metric --regret recommended --table T/per_iteration.parquet \
        --out F/anytime_recommended
    python -m analysis.figures.anytime --view ecdf --table T/per_iteration.parquet --out F/anytime_ecdf
    python -m analysis.figures.anytime --view verdicts --verdicts T/verdicts_along.csv --out F/anytime_verdicts

`metric`: per (experiment, problem), the metric against evaluations and against iterations for every method, the
median seed with the interquartile range (`common.QUARTILES`: a mean on a log axis is carried by its worst seed) at
every iteration of the per-iteration table (`analysis.data.per_iteration`): evaluations compare methods at equal cost, iterations at equal rounds of
batches. `--regret evaluated` (the paper's) draws the best evaluated point's regret (the headline metric where there
is no known optimum), `--regret recommended` the regret of the point each method would recommend, which a user
gets: the two differ under noise (Ax's benchmark keeps both). `ecdf`: runtime ECDFs over fixed targets
(`analysis.statistics.runtime_ecdf`), every iteration a budget. `verdicts`: one strip per claim, its verdict had the run
stopped at each budget (`analysis.claims.verdicts_along`), a panel per experiment and x axis (its `axis`: function
evaluations, or the checkpoints t of a run read along its horizon), so each axis has one unit. An (experiment, problem) with a single iteration to show
has no "along" and is left out; a figure with nothing left says so. The run's own tables are read as committed, so the
view is the same whoever wrote them.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from analysis.data import per_iteration
from analysis.figures.common import (
    EVALUATIONS,
    FONTS,
    QUARTILES,
    WIDTH,
    colour,
    grid,
    label_bands,
    legend_columns,
    line_style,
    log_scale_if_positive,
    ordered,
    panels,
    parser,
    problem_title,
    publish,
    quartiles,
    style_run,
    suptitle,
    titled,
    within_printed_height,
    wrap,
)
from analysis.naming import experiment_title
from analysis.statistics.runtime_ecdf import TARGETS, ecdf
from analysis.claims.verdicts_along import CATEGORIES

#: a verdict class's colour in the strips
CATEGORY_COLOURS = dict(zip(CATEGORIES, ("tab:green", "yellowgreen", "tab:red", "gold", "lightgray", "white")))
METRIC_TITLES = {"simple_regret": "Simple regret", "hypervolume": "Hypervolume", "best_value": "Best value"}
#: the metric view's x axes, a column of panels each: the per-iteration table's column and its label
AXES = {"num_evals": EVALUATIONS, "iteration": "Iteration (0: the initial design)"}
#: a strip's x axis (`analysis.claims.verdicts_along`'s `axis`): the engine's budgets, or a horizon table's
#: checkpoints t
STRIP_AXES = {"evaluations": EVALUATIONS, "iteration": "BO iteration t (batches after the initial design)"}
#: a strip panel's title after its experiment's, where the experiment has a panel on each axis
STRIP_TITLES = {"evaluations": ", at the final budget", "iteration": ", along the horizon"}
#: `--regret`: the per-iteration table's column drawn, and the figure's title
REGRETS = {
    "evaluated": ("value", "The best evaluated point's metric after each iteration"),
    "recommended": ("recommended_regret", "The recommended point's simple regret after each iteration"),
}


def along_panels(table: pd.DataFrame, x: str) -> list[tuple[str, str]]:
    """The (experiment, problem) pairs with more than one `x`, in the experiments' order of the table."""
    counts = table.groupby(["experiment", "problem"], sort=False)[x].nunique()
    return [key for key, n in counts.items() if n > 1]


def among(rows: pd.DataFrame, keys: list[tuple[str, str]]) -> np.ndarray:
    """Which rows have one of the (experiment, problem) `keys` (a boolean mask, also for no rows)."""
    keys = set(keys)
    return np.array([key in keys for key in zip(rows["experiment"], rows["problem"])], dtype=bool)


def metric_curves(table: pd.DataFrame, regret: str) -> pd.DataFrame:
    """Median and quartiles over seeds of the `--regret` column per (experiment, problem, label), against each of AXES
    (column `axis`, its values in `x`), for the pairs with more than one iteration that has a value."""
    column = REGRETS[regret][0]
    rows = table[table[column].notna()]
    rows = rows[among(rows, along_panels(rows, "iteration"))]
    frames = [
        quartiles(rows, ["experiment", "problem", "label"], column, x).rename(columns={x: "x"}).assign(axis=x)
        for x in AXES
    ]
    metrics = rows.drop_duplicates(["experiment", "problem"])[["experiment", "problem", "metric"]]
    curves = pd.concat(frames, ignore_index=True).merge(metrics, on=["experiment", "problem"])
    return curves.assign(metric="simple_regret") if regret == "recommended" else curves


def draw_metric(curves: pd.DataFrame, regret: str) -> Figure:
    """A row of panels per (experiment, problem), one column per x axis (AXES)."""
    keys = list(dict.fromkeys(zip(curves["experiment"], curves["problem"])))
    fig, axes = grid(keys, list(AXES), height=2.8)
    for key in keys:
        rows = curves[(curves["experiment"] == key[0]) & (curves["problem"] == key[1])]
        metric = rows["metric"].iloc[0]
        for x, x_label in AXES.items():
            ax = axes[key, x]
            label_bands(ax, rows[rows["axis"] == x], "x")
            if metric == "simple_regret":
                log_scale_if_positive(ax, rows["mean"])
            ax.set_title(wrap(f"{problem_title(key[1])}\n{experiment_title(key[0])}", FONTS["normal"], WIDTH / 2))
            ax.set_xlabel(x_label)
            ax.set_ylabel(METRIC_TITLES.get(metric, metric))
    title = f"{REGRETS[regret][1]} ({QUARTILES})"
    return within_printed_height(titled(fig, title, [axes[key, x] for key in keys for x in AXES]), len(keys))


def untargeted(ranges: pd.DataFrame) -> list[str]:
    """The (experiment, problem) pairs of `ecdf`'s target ranges that have no targets, in words: the ECDF has no panel
    for them, and its title names them."""
    empty = ranges[ranges["targets"] == 0]
    return [f"{problem_title(p)} in {experiment_title(e)}" for e, p in zip(empty["experiment"], empty["problem"])]


def draw_ecdf(curves: pd.DataFrame, left_out: list[str] | None = None) -> Figure:
    """A panel per (experiment, problem) with targets; `left_out` (`untargeted`) named in the title."""
    keys = list(dict.fromkeys(zip(curves["experiment"], curves["problem"])))
    fig, axes = panels(keys)
    for key in keys:
        ax = axes[key]
        rows = curves[(curves["experiment"] == key[0]) & (curves["problem"] == key[1])]
        for label in ordered(rows["label"]):
            curve = rows[rows["label"] == label].sort_values("budget")
            ax.step(curve["budget"], curve["fraction"], where="post", color=colour(label), ls=line_style(label),
                    label=label)
        ax.set_ylim(-0.02, 1.02)
        ax.set_title(wrap(f"{problem_title(key[1])}\n{experiment_title(key[0])}", FONTS["normal"], WIDTH / 3))
        ax.set_xlabel(EVALUATIONS)
        ax.set_ylabel("(target, seed) pairs reached")
    title = f"Runtime ECDF over {TARGETS} fixed targets per problem, at every iteration"
    if left_out:
        title += f". Not shown, for want of a range of targets (no positive gap below the easy end): {', '.join(left_out)}"
    return titled(fig, title, axes.values())


def strip_panels(along: pd.DataFrame) -> list[tuple[str, str]]:
    """(experiment, axis) of each strip panel: one unit per x axis, so a run read along its horizon (checkpoints t)
    and at its final budget (evaluations) has a panel for each, along the horizon first (as the table's rows run)."""
    experiments = list(dict.fromkeys(along["experiment"]))
    keys = dict.fromkeys(zip(along["experiment"], along["axis"]))
    return sorted(keys, key=lambda key: (experiments.index(key[0]), key[1] != "iteration"))


def draw_verdicts(along: pd.DataFrame) -> Figure:
    along = along if "axis" in along else along.assign(axis="evaluations")  # tables written before the axis column
    keys = strip_panels(along)
    panels = [along[(along["experiment"] == e) & (along["axis"] == a)] for e, a in keys]
    heights = [rows["name"].nunique() for rows in panels]
    # one panel per experiment and x axis, as tall as its claims are many
    fig, column = plt.subplots(
        len(keys), 1, figsize=(WIDTH, 0.19 * sum(heights) + 0.65 * len(keys) + 0.8), layout="constrained",
        squeeze=False, gridspec_kw={"height_ratios": heights},
    )
    split = {e for e, _ in keys if sum(k == e for k, _ in keys) > 1}  # experiments with a panel on each axis
    for (experiment, axis), rows, ax in zip(keys, panels, column[:, 0]):
        claims = list(dict.fromkeys(f"Claim {n}" for n in rows["number"]))  # its text: the run's claims table
        budgets = sorted(rows["budget"].unique())
        for row in rows.itertuples():
            y = claims.index(f"Claim {row.number}")
            x = budgets.index(row.budget)
            ax.barh(y, 1.0, left=x - 0.5, height=0.8, color=CATEGORY_COLOURS[row.category], edgecolor="gray", lw=0.5)
        ax.set_yticks(range(len(claims)), claims)
        ax.invert_yaxis()
        ax.set_xticks(range(len(budgets)), [str(b) for b in budgets])
        ax.set_xlim(-0.5, len(budgets) - 0.5)
        ax.set_xlabel(STRIP_AXES[axis])
        ax.set_title(experiment_title(experiment) + (STRIP_TITLES[axis] if experiment in split else ""))
        ax.grid(False)
    handles = [Patch(facecolor=CATEGORY_COLOURS[c], edgecolor="gray", label=c) for c in CATEGORIES]
    fig.legend(handles=handles, loc="outside lower center", ncol=legend_columns(CATEGORIES, len(handles)),
               frameon=False)
    suptitle(fig, "Each claim's verdict had the run stopped at each budget")
    return fig


def main(argv: list[str] | None = None) -> int:
    cli = parser("anytime", __doc__.splitlines()[0], table_help=None)
    cli.add_argument("--view", choices=("metric", "ecdf", "verdicts"), required=True)
    cli.add_argument("--table", help="per-iteration table (analysis.data.per_iteration), for the metric and ECDF views")
    cli.add_argument("--regret", choices=tuple(REGRETS), default="evaluated",
                     help="the metric view's regret: the best evaluated point's (the paper's) or the recommended one's")
    cli.add_argument("--verdicts", help="verdicts along the budget (CSV, analysis.claims.verdicts_along)")
    args = cli.parse_args(argv)
    if args.view == "verdicts":
        if not args.verdicts:
            cli.error("--view verdicts needs --verdicts")
        along = pd.read_csv(args.verdicts)
        missing = None if len(along) else f"No claim of this run has its experiment here ({args.verdicts} is empty)."
        return publish(args.out, lambda: draw_verdicts(along), missing)
    if not args.table:
        cli.error(f"--view {args.view} needs --table")
    table = per_iteration.read(args.table)
    style_run(table["label"])  # a user's own methods: one style each, as in the run's other figures
    if args.view == "metric":
        curves = metric_curves(table, args.regret)
        missing = None if len(curves) else (
            f"No recommended regret at more than one iteration in {args.table}: its records were made before "
            "recommendations were recorded, or its problems have no known optimum." if args.regret == "recommended"
            else f"No experiment in {args.table} has more than one iteration to show."
        )
        return publish(args.out, lambda: draw_metric(curves, args.regret), missing)
    budgets = per_iteration.as_budgets(table)
    keep = along_panels(budgets, "budget")
    curves, ranges = ecdf(budgets)  # targets from the whole run (its best values), shown where there is an "along"
    curves, ranges = curves[among(curves, keep)], ranges[among(ranges, keep)]
    missing = None if len(curves) else f"No problem in {args.table} has a range of targets along its iterations."
    return publish(args.out, lambda: draw_ecdf(curves, untargeted(ranges)), missing)


if __name__ == "__main__":
    raise SystemExit(main())
