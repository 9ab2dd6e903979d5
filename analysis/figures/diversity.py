"""Batch diversity (mean pairwise distance in the scaled space) against BO iteration, one panel per problem.

Paper Figs. 13 and 14 (B = 100 and B = 5). Iteration 0 (the initial design) and sequential methods (no batch) are
left out. `--smooth W` applies a rolling mean over W iterations to each trial before averaging, as the paper does
for B = 5, where single small batches are noisy.
"""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from analysis.data.aggregate import summarise
from analysis.figures import common

#: the figures the workflow draws with this script (a literal, read unimported by `analysis.figures.declared`)
FIGURES = {
    "diversity_b100": ("synthetic_b100", "--experiment synthetic_b100"),
    "diversity_b5": ("synthetic_b5", "--experiment synthetic_b5"),
}


def diversity_curves(table: pd.DataFrame, experiment: str, smooth: int = 1) -> pd.DataFrame:
    """Mean batch diversity with 95% CI per (problem, label, iteration) in `experiment`."""
    data = table[(table["experiment"] == experiment) & (table["iteration"] >= 1) & table["diversity"].notna()]
    data = data.sort_values("iteration").copy()
    data["diversity"] = data.groupby("trial_id")["diversity"].transform(
        lambda s: s.rolling(smooth, min_periods=1).mean()
    )
    return summarise(data, ["problem", "label"], "diversity", "iteration")


def figure_title(table: pd.DataFrame, experiment: str, smooth: int) -> str:
    smoothed = f", rolling mean over {smooth} iterations" if smooth > 1 else ""
    return f"Batch diversity in {common.experiment_at(table, experiment)}: mean and 95% CI over seeds{smoothed}"


def draw(summary: pd.DataFrame, title: str) -> Figure:
    fig, axes = common.panels(common.ordered_problems(summary["problem"]))
    for problem, ax in axes.items():
        common.label_bands(ax, summary[summary["problem"] == problem], "iteration")
        ax.set(title=common.problem_title(problem), xlabel="BO iteration")
    next(iter(axes.values())).set_ylabel("Batch diversity: mean pairwise\ndistance (scaled space)")
    return common.titled(fig, title, axes.values())


def main(argv: list[str] | None = None) -> int:
    cli = common.parser("diversity", __doc__.splitlines()[0])
    cli.add_argument(
        "--experiment", choices=[experiment for experiment, _ in FIGURES.values()], default="synthetic_b100"
    )
    cli.add_argument("--smooth", type=int, default=1, help="rolling-mean window in iterations (1 = none)")
    args = cli.parse_args(argv)
    table = common.load_table(args.table)
    summary = diversity_curves(table, args.experiment, args.smooth)
    missing = f"No batch-diversity data for experiment '{args.experiment}' in {args.table}." if summary.empty else None
    return common.publish(args.out, lambda: draw(summary, figure_title(table, args.experiment, args.smooth)), missing)


if __name__ == "__main__":
    raise SystemExit(main())
