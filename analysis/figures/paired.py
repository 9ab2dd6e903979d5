"""Paired differences: each B3O variant's advantage over TS per seed, one panel per problem, with 95% CIs.

This is what the claims decide on (`analysis.claims.comparisons`, without the catalogue): every method shares its
initial design with TS for a given (problem, seed), so the per-seed difference of final values removes how lucky the
design was. The advantage is TS's final value minus the variant's for regret (and for a minimised objective), the
variant's minus TS's for hypervolume: right of zero, the variant is better. Bars are the unadjusted 95% BCa bootstrap
CIs of the mean difference (the claims decide by tests, Holm-corrected); a point without a bar had fewer than two seeds.
The title gives the probability that one of the paper's four B3O variants beats TS on a random problem and seed, with
its 95% stratified-bootstrap CI over problems (rliable's probability of improvement, paired by seed here).
"""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from analysis.claims.comparisons import differences, improvement
from analysis.claims.selection import PAPER_VARIANTS, where
from analysis.data import per_trial
from analysis.figures import common
from analysis.naming import VARIANTS, method_title

EXPERIMENTS = ("synthetic_b100", "synthetic_b5", "formula_e")
#: the figures the workflow draws with this script (a literal, read unimported by `analysis.figures.declared`)
FIGURES = {"paired_b100": ("synthetic_b100", "--experiment synthetic_b100")}


def figure_title(table: pd.DataFrame, experiment: str) -> str:
    title = (
        f"Paired advantage of each B3O variant over TS in {common.experiment_at(table, experiment)}: mean and 95% BCa "
        "bootstrap CI of the per-seed difference"
    )
    found = improvement(table, experiment, PAPER_VARIANTS, where(method="ts"), ("a paper B3O variant", "TS"))
    if found is None:
        return title
    return (
        f"{title}\nP(one of the paper's four B3O variants better than TS on a random problem and seed) = {found.probability:.2f} "
        + (f"[{found.lo:.2f}, {found.hi:.2f}] (stratified bootstrap over problems)")
    )


def draw(diffs: pd.DataFrame, title: str) -> Figure:
    """One panel per problem: a point with its CI per variant, a line at zero. Variants beyond the paper get panels
    of their own, so an outlier there does not squeeze the paper's variants onto one point."""
    paper = diffs["left"].map(common.method_of).isin({method_title("b3o", *setting) for setting in VARIANTS.values()})
    rows = {"the paper's variants": diffs[paper], "beyond the paper": diffs[~paper]}
    rows = {name: frame for name, frame in rows.items() if not frame.empty}
    problems = common.ordered_problems(diffs["problem"])
    height = 0.18 * max(frame["left"].nunique() for frame in rows.values()) + 1.3
    fig, axes = common.panels([(row, problem) for row in rows for problem in problems], height=height)
    for (row, problem), ax in axes.items():
        panel = rows[row][rows[row]["problem"] == problem]
        if panel.empty:
            common.empty_panel(ax, f"no {row} on {common.problem_title(problem)}")
            continue
        labels = common.ordered(panel["left"])
        for y, label in enumerate(labels):
            r = panel[panel["left"] == label].iloc[0]
            err = [[r["mean"] - r["lo"]], [r["hi"] - r["mean"]]] if r["n"] >= 2 else None
            ax.errorbar(r["mean"], y, xerr=err, fmt="o", color=common.colour(label), capsize=4, lw=1.6)
        ax.axvline(0.0, color="black", lw=0.8)
        ax.set_yticks(range(len(labels)), labels)
        ax.set_ylim(len(labels) - 0.5, -0.5)  # the paper's order from the top
        budget = ", ".join(str(b) for b in sorted(panel["budget"].dropna().unique()))
        seeds = ", ".join(str(n) for n in sorted(panel["n"].unique()))
        sign = "TS − variant" if panel["lower_is_better"].iloc[0] else "variant − TS"
        where = "" if row == next(iter(rows)) else f" ({row})"
        ax.set(
            title=f"{common.problem_title(problem)}{where}\nat {budget} evals, {seeds} seeds",
            xlabel=f"Advantage ({sign})",
        )
    common.suptitle(fig, title)
    return fig


def main(argv: list[str] | None = None) -> int:
    cli = common.parser("paired", __doc__.splitlines()[0])
    cli.add_argument("--experiment", choices=EXPERIMENTS, default="synthetic_b100")
    args = cli.parse_args(argv)
    table = per_trial.load(args.table)  # a tidy parquet table, or the per-trial CSV it makes
    diffs = differences(table, args.experiment, where(method="b3o"), where(method="ts"))
    missing = f"No B3O and TS runs on a common problem in '{args.experiment}' ({args.table})." if diffs.empty else None
    return common.publish(args.out, lambda: draw(diffs, figure_title(table, args.experiment)), missing)


if __name__ == "__main__":
    raise SystemExit(main())
