"""Simple regret against function evaluations, one panel per problem (paper Figs. 3 and 4: B = 100 and B = 5).

Sequential and batch methods record at different evaluation counts, so each trial is put on the problem's common
evaluation grid (best so far after k evaluations, a step function) before averaging over seeds; lines are drawn as
steps for the same reason. Log scale: regret spans orders of magnitude.
"""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from analysis.figures import common
from analysis.summary import curves

EXPERIMENTS = ("synthetic_b100", "synthetic_b5")


def regret_curves(table: pd.DataFrame, experiment: str) -> pd.DataFrame:
    """Mean simple regret with 95% CI per (problem, label, evaluations) in `experiment`."""
    data = table[(table["experiment"] == experiment) & table["simple_regret"].notna()]
    return curves(data, ["problem", "label"], "simple_regret")


def draw(summary: pd.DataFrame, title: str) -> Figure:
    """One log-scale panel per problem, one line with CI band per label."""
    fig, axes = common.panels(common.ordered_problems(summary["problem"]))
    for problem, ax in axes.items():
        panel = summary[summary["problem"] == problem]
        for label in common.ordered(panel["label"]):
            curve = panel[panel["label"] == label]
            common.band(ax, curve, "num_evals", label, common.colour(label), common.line_style(label), step=True)
        ax.set_yscale("log")
        ax.set(title=common.problem_title(problem), xlabel=common.EVALUATIONS)
    next(iter(axes.values())).set_ylabel(common.REGRET)
    fig.suptitle(title)
    common.legend_below(fig, axes.values())
    return fig


def main(argv: list[str] | None = None) -> int:
    cli = common.parser("regret", __doc__.splitlines()[0])
    cli.add_argument("--experiment", choices=EXPERIMENTS, default="synthetic_b100")
    args = cli.parse_args(argv)
    table = common.load_table(args.table)
    summary = regret_curves(table, args.experiment)
    if summary.empty:
        fig = common.message_figure(f"No simple-regret data for experiment '{args.experiment}' in {args.table}.")
    else:
        fig = draw(
            summary,
            f"Simple regret at {common.batch_size_text(table, args.experiment)} ({args.experiment}), mean and 95% "
            "bootstrap CI over seeds",
        )
    common.save(fig, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
