"""B3O's advantage over TS per BO iteration, and batch diversity, in the `horizon` experiment (B = 50, T = 25).

Top row: mean and BCa 95% CI over seeds of the per-seed advantage TS regret − B3O regret (positive = B3O better),
with the checkpoints t = 6, 12, 25 at which `analysis.tables.horizon` decides claims 1 and 7 marked. Bottom row: batch
diversity (mean pairwise distance, scaled space) per iteration for every method: the mechanism the paper gives for
B3O's advantage is TS's diversity collapsing over iterations.
"""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from analysis.figures import common
from analysis.figures.diversity import diversity_curves
from analysis.tables.horizon import CHECKPOINTS, EXPERIMENT, RIVAL, advantage_by_iteration

#: the figures the workflow draws with this script (a literal, read unimported by `analysis.figures.declared`)
FIGURES = {"horizon_advantage": ("horizon", "")}


def draw(advantage: pd.DataFrame, diversity: pd.DataFrame) -> Figure:
    problems = common.ordered_problems(advantage["problem"])
    fig, axes = common.grid(["advantage", "diversity"], problems)
    for problem in problems:
        ax = axes["advantage", problem]
        panel = advantage[advantage["problem"] == problem]
        for label in common.ordered(panel["label"]):
            common.band(ax, panel[panel["label"] == label], "iteration", label, common.colour(label))
        ax.axhline(0.0, color="black", lw=0.8)
        for t in CHECKPOINTS:
            ax.axvline(t, color="grey", lw=0.6, ls=":")
        ax.set(title=common.problem_title(problem), xlabel="BO iteration t")
        ax = axes["diversity", problem]
        common.label_bands(ax, diversity[diversity["problem"] == problem], "iteration")
        ax.set(xlabel="BO iteration t")
    axes["advantage", problems[0]].set_ylabel(f"Advantage over {RIVAL}:\n{RIVAL} regret − B3O regret")
    axes["diversity", problems[0]].set_ylabel("Batch diversity: mean pairwise\ndistance (scaled space)")
    return common.titled(
        fig, f"B3O against {RIVAL} over 25 iterations of B = 50: mean and 95% CI over seeds", axes.values()
    )


def main(argv: list[str] | None = None) -> int:
    args = common.parser("horizon", __doc__.splitlines()[0]).parse_args(argv)
    table = common.load_table(args.table)
    advantage = advantage_by_iteration(table)
    missing = None if not advantage.empty else f"No {EXPERIMENT} trials with both B3O and {RIVAL} in {args.table}."
    return common.publish(args.out, lambda: draw(advantage, diversity_curves(table, EXPERIMENT)), missing)


if __name__ == "__main__":
    raise SystemExit(main())
