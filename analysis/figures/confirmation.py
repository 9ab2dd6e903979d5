"""What replicated on fresh seeds, in one figure: per pre-registered reading of the confirmation run, the share of
fresh seeds that went B3O's way, with its exact 95 % interval (Clopper–Pearson), beside the share the exploratory run
saw; filled where the reading replicated (its one-sided test, Holm over the plan's family, at its look's level),
hollow where it did not or is still open. From the run's decided readings (`analysis.statistics.confirmation`).

    python -m analysis.figures.confirmation --table paper/large_batch_confirm/tables/confirmation.csv \
        --out paper/large_batch_confirm/figures/confirmation
"""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from analysis.figures import common
from analysis.statistics.confirmation import DESCRIPTIVE, REPLICATED

#: kind -> its words in a row's label (the typical-seed readings, most of them, unmarked)
KINDS = {"typical": "", "basin": " · basin"}


def exploratory_share(seen: str) -> float:
    """The exploratory run's share from its counts "a/b" (for B3O / for TS)."""
    mine, theirs = (int(v) for v in seen.split("/"))
    return mine / (mine + theirs)


def draw(table: pd.DataFrame) -> Figure:
    """One row per tested reading (problem, variant, kind; its expected side named where it is below ½)."""
    rows = table[table["status"] != DESCRIPTIVE].reset_index(drop=True)
    fig, axes = common.panels(["all"], height=0.32 * len(rows) + 1.4, columns=1)
    ax = axes["all"]
    y = list(range(len(rows)))[::-1]
    for yi, r in zip(y, rows.itertuples()):
        colour = common.colour(r.variant)
        # drawn over the fresh share's marker, so an equal share shows both
        ax.scatter([exploratory_share(r.seen)], [yi], marker="x", color="gray", s=30, zorder=4)
        if pd.notna(r.share):
            ax.errorbar([r.share], [yi], xerr=[[r.share - r.share_lo], [r.share_hi - r.share]], fmt="none",
                        ecolor=colour, elinewidth=1.2)
            filled = r.status == REPLICATED
            ax.scatter([r.share], [yi], s=36, zorder=3, color=colour if filled else "white", edgecolor=colour,
                       linewidths=1.2)
    for yi, (before, after) in zip(y[1:], zip(rows["kind"], rows["kind"][1:])):
        if before != after:
            ax.axhline(yi + 0.5, color="black", lw=0.5, ls=":")
    ax.axvline(0.5, color="black", lw=0.8)
    labels = [f"{common.problem_title(r.problem)} · {r.variant}{KINDS.get(r.kind, ' · ' + r.kind)}"
              + (" (< ½ expected)" if r.expect == "behind" else "") for r in rows.itertuples()]
    ax.set(xlim=(-0.02, 1.02), yticks=y, yticklabels=labels, ylim=(-0.7, len(rows) - 0.3),
           xlabel="share of the counted seeds that went B3O's way\n(B3O ends below TS; basin: of the seeds where "
                  "only one ends in it, B3O)")
    ax.legend(handles=[
        Line2D([], [], marker="o", ls="", color="gray", label="fresh seeds: replicated"),
        Line2D([], [], marker="o", ls="", markerfacecolor="white", color="gray", label="fresh seeds: not (yet)"),
        Line2D([], [], marker="x", ls="", color="gray", label="the exploratory run's 30 seeds"),
    ], loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize="small", frameon=False)
    seeds = int(rows["seeds"].max()) if len(rows) else 0
    so_far = f"{seeds} per setting so far" if seeds else "no look complete yet: the exploratory shares alone"
    common.suptitle(fig, f"The exploratory readings on fresh seeds ({so_far}), 95 % interval; filled: replicated "
                         "under the plan, hollow: not replicated or still open")
    return fig


def main(argv: list[str] | None = None) -> int:
    cli = common.parser("confirmation", __doc__.splitlines()[0],
                        table_help="the confirmation's decided readings (analysis.statistics.confirmation)")
    args = cli.parse_args(argv)
    table = pd.read_csv(args.table)
    missing = f"No reading with an expected direction in {args.table}." if (
        table["status"] == DESCRIPTIVE).all() else None
    return common.publish(args.out, lambda: draw(table), missing)


if __name__ == "__main__":
    raise SystemExit(main())
