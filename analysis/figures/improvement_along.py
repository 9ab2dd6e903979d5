"""P(B3O ends below TS) per problem and B3O variant at each checkpoint of a horizon run: the figure that answers.

rliable's probability of improvement, paired here: the share of seeds on which the variant's regret at t is below
TS's on the same seed, with its exact 95 % interval (Clopper–Pearson, each comparison's own), from the robust readings
along the horizon (`analysis.tables.robust`, rule analysis/statistics/robust_readings.yaml). A point is filled where
the exact sign test decides it (Holm over the checkpoint's comparisons), hollow where it does not: an interval clear
of ½ can still be hollow, the adjusted level being stricter than the interval's. No scale to choose, no seed clipped.

    python -m analysis.figures.improvement_along --table paper/large_batch/tables/robust.csv \
        --out paper/large_batch/figures/improvement_along
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from analysis.figures import common
from analysis.tables.horizon import RIVAL

#: the readings a sign test decides (the rest are hollow)
DECIDED = ("ahead", "behind")


def along(readings: pd.DataFrame) -> pd.DataFrame:
    """The robust readings along the horizon against the rival, one row per (problem, variant, t)."""
    rows = readings[(readings["kind"] == "horizon") & (readings["right"] == RIVAL)]
    return rows.assign(t=rows["iteration"].astype(int)).rename(columns={"left": "label"})


def draw(rows: pd.DataFrame) -> Figure:
    """One panel per problem: per checkpoint, a point and interval per variant, side by side."""
    problems = common.ordered_problems(rows["problem"])
    fig, axes = common.panels(problems, height=2.8, columns=len(problems))
    labels = common.ordered(rows["label"].unique())
    checkpoints = sorted(rows["t"].unique())
    width = 0.7 / len(labels)
    for problem, ax in axes.items():
        panel = rows[rows["problem"] == problem]
        for j, label in enumerate(labels):
            own = panel[panel["label"] == label].set_index("t")
            x = np.array([checkpoints.index(t) for t in own.index]) + (j - (len(labels) - 1) / 2) * width
            colour = common.colour(label)
            ax.errorbar(x, own["share"], yerr=[own["share"] - own["share_lo"], own["share_hi"] - own["share"]],
                        fmt="none", ecolor=colour, elinewidth=1.2)
            decided = own["reading"].isin(DECIDED).to_numpy()
            ax.scatter(x[decided], own["share"][decided], color=colour, s=28, zorder=3)
            ax.scatter(x[~decided], own["share"][~decided], facecolor="white", edgecolor=colour, s=28, zorder=3,
                       linewidths=1.2)
        ax.axhline(0.5, color="black", lw=0.8)
        n = int(panel["n"].max())
        ax.set(title=f"{common.problem_title(problem)} (up to {n} seeds)", xlabel="BO iteration t",
               ylabel=f"P(B3O ends below {RIVAL})", ylim=(0, 1), xticks=range(len(checkpoints)),
               xticklabels=[str(t) for t in checkpoints])
    first = next(iter(axes.values()))
    for label in labels:  # one legend entry per variant, whether or not a panel has a decided point of it
        first.scatter([], [], color=common.colour(label), s=28, label=label)
    first.legend(handles=[Line2D([], [], marker="o", ls="", color="gray", label="decided (sign test, Holm)"),
                          Line2D([], [], marker="o", ls="", markerfacecolor="white", color="gray",
                                 label="not decided")], loc="lower left", fontsize="small", frameon=False)
    first.add_artist(first.get_legend())  # kept beside the figure's legend of the variants below
    common.legend_below(fig, [first])
    common.suptitle(fig, f"P(B3O ends below {RIVAL} on a seed) at each checkpoint, 95 % interval; filled: decided "
                         "after Holm, hollow: not decided; above ½, B3O ends lower on most seeds")
    return fig


def main(argv: list[str] | None = None) -> int:
    cli = common.parser("improvement_along", __doc__.splitlines()[0],
                        table_help="the run's robust readings (analysis.tables.robust, with --horizon)")
    args = cli.parse_args(argv)
    rows = along(common.load_table(args.table))
    missing = f"No reading along the horizon in {args.table}." if rows.empty else None
    return common.publish(args.out, lambda: draw(rows), missing)


if __name__ == "__main__":
    raise SystemExit(main())
