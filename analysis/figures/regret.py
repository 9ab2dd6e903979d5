"""Simple regret against function evaluations, one panel per problem (paper Figs. 3 and 4: B = 100 and B = 5).

Any experiment can be drawn (the workflow draws this figure for every experiment that is not one of the paper's): a
problem with no known optimum shows its headline metric instead, hypervolume or best value (`HEADLINE_METRICS`).
Sequential and batch methods record at different evaluation counts, so each trial is put on the problem's common
evaluation grid (best so far after k evaluations, a step function) before summarising over seeds; lines are drawn as
steps for the same reason. Each line is the median seed with the interquartile range as its band (`common.QUARTILES`):
on a log scale a mean is carried by its worst seed. Log scale for regret: it spans orders of magnitude.
"""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from analysis.data.aggregate import HEADLINE_METRICS, on_grid
from analysis.figures import common

#: the figures the workflow draws with this script (a literal, read unimported by `analysis.figures.declared`)
FIGURES = {
    "regret_b100": ("synthetic_b100", "--experiment synthetic_b100"),
    "regret_b5": ("synthetic_b5", "--experiment synthetic_b5"),
    "regret_horizon": ("horizon", "--experiment horizon"),
}
Y_LABELS = {"simple_regret": common.REGRET, "hypervolume": "Hypervolume", "best_value": "Best value (objective units)"}


def regret_curves(table: pd.DataFrame, experiment: str) -> pd.DataFrame:
    """Median and quartiles per (problem, label, evaluations) in `experiment` of each problem's headline metric (simple
    regret where the optimum is known), named in column `metric`, each problem on its own evaluation grid."""
    frames = []
    for _, data in table[table["experiment"] == experiment].groupby("problem"):
        metric = next((m for m in HEADLINE_METRICS if data[m].notna().any()), None)
        if metric is not None:
            gridded = on_grid(data[data[metric].notna()], metric)
            frames.append(common.quartiles(gridded, ["problem", "label"], metric, "num_evals").assign(metric=metric))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=["problem", "label", "metric"])


def draw(summary: pd.DataFrame, title: str) -> Figure:
    """One panel per problem (log scale for regret), one line with its band per label."""
    fig, axes = common.panels(common.ordered_problems(summary["problem"]))
    previous = None
    for problem, ax in axes.items():
        panel = summary[summary["problem"] == problem]
        common.label_bands(ax, panel, "num_evals", step=True)
        metric = panel["metric"].iloc[0]
        if metric == "simple_regret":
            ax.set_yscale("log")
        ax.set(title=common.problem_title(problem), xlabel=common.EVALUATIONS)
        if metric != previous:  # label the first panel, and any whose metric differs from its left neighbour's
            ax.set_ylabel(Y_LABELS[metric])
        previous = metric
    return common.titled(fig, title, axes.values())


def main(argv: list[str] | None = None) -> int:
    cli = common.parser("regret", __doc__.splitlines()[0])
    cli.add_argument("--experiment", default="synthetic_b100", help="any experiment of the table")
    args = cli.parse_args(argv)
    table = common.load_table(args.table)
    summary = regret_curves(table, args.experiment)
    what = "Simple regret" if set(summary["metric"]) == {"simple_regret"} else "Progress"
    title = f"{what} in {common.experiment_at(table, args.experiment)}: {common.QUARTILES}"
    missing = f"No trials of experiment '{args.experiment}' in {args.table}." if summary.empty else None
    return common.publish(args.out, lambda: draw(summary, title), missing)


if __name__ == "__main__":
    raise SystemExit(main())
