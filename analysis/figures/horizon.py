"""B3O's advantage over TS per BO iteration, and batch diversity, along an experiment's horizon (by default the
`horizon` experiment, B = 50, T = 25; options as `analysis.tables.horizon`'s).

Top row: mean and BCa 95% CI over seeds of the per-seed advantage TS regret − B3O regret (positive = B3O better),
with the checkpoints (t = 6, 12, 25 by default) at which `analysis.tables.horizon` decides claims 1 and 7 marked. Bottom
row: batch diversity (mean pairwise distance, scaled space) per iteration for every method: the mechanism the paper
gives for B3O's advantage is TS's diversity collapsing over iterations.
"""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from analysis.figures import common
from analysis.figures.diversity import diversity_curves
from analysis.statistics.sequential import Horizon
from analysis.tables.horizon import RIVAL, add_plan_arguments, advantage_by_iteration, plan_of

#: the figures the workflow draws with this script (a literal, read unimported by `analysis.figures.declared`)
FIGURES = {"horizon_advantage": ("horizon", "")}


def draw(advantage: pd.DataFrame, diversity: pd.DataFrame, plan: Horizon, setting: str) -> Figure:
    problems = common.ordered_problems(advantage["problem"])
    fig, axes = common.grid(["advantage", "diversity"], problems)
    for problem in problems:
        ax = axes["advantage", problem]
        panel = advantage[advantage["problem"] == problem]
        for label in common.ordered(panel["label"]):
            common.band(
                ax, panel[panel["label"] == label], "iteration", label, common.colour(label), common.line_style(label)
            )
        ax.axhline(0.0, color="black", lw=0.8)
        for t in plan.checkpoints:
            ax.axvline(t, color="grey", lw=0.6, ls=":")
        ax.set(title=common.problem_title(problem), xlabel="BO iteration t")
        ax = axes["diversity", problem]
        common.label_bands(ax, diversity[diversity["problem"] == problem], "iteration")
        ax.set(xlabel="BO iteration t")
    axes["advantage", problems[0]].set_ylabel(f"Advantage over {RIVAL}:\n{RIVAL} regret − B3O regret")
    axes["diversity", problems[0]].set_ylabel("Batch diversity: mean pairwise\ndistance (scaled space)")
    return common.titled(fig, f"B3O against {RIVAL} over {setting}: mean and 95% CI over seeds", axes.values())


def main(argv: list[str] | None = None) -> int:
    cli = common.parser("horizon", __doc__.splitlines()[0])
    add_plan_arguments(cli)
    args = cli.parse_args(argv)
    plan = plan_of(args)
    table = common.load_table(args.table)
    advantage = advantage_by_iteration(table, plan)
    missing = None if not advantage.empty else f"No {plan.experiment} trials with both B3O and {RIVAL} in {args.table}."
    return common.publish(
        args.out,
        lambda: draw(advantage, diversity_curves(table, plan.experiment), plan, _setting(table, plan.experiment)),
        missing,
    )


def _setting(table: pd.DataFrame, experiment: str) -> str:
    """ "25 iterations of B = 50": the experiment's longest horizon and largest batch."""
    run = table[table["experiment"] == experiment]
    return f"{int(run['iterations'].max())} iterations of B = {int(run['batch_size'].max())}"


if __name__ == "__main__":
    raise SystemExit(main())
