"""Every seed's TS − B3O regret difference at the horizon's checkpoints, per problem: what the mean curves hide.

Beside the mean advantage along t (`analysis.figures.horizon`), one point per seed and B3O variant at each checkpoint
(t = 6, 12, 25, 50 for the paper-horizon run): above zero B3O ended lower than TS on that seed (they share its initial
design). The y axis is symmetric-log, linear within the problem's typical final regret (the robust readings'
reference, `analysis.tables.robust`), so that one seed far out does not flatten the rest; the share of seeds above
zero is the typical-seed reading of the headline (`analysis.tables.headline`).

    python -m analysis.figures.seeds_along --table paper/large_batch/tables/per_iteration.parquet \
        --horizon paper/large_batch/tables/horizon_along.csv --out paper/large_batch/figures/seeds_along
"""

from __future__ import annotations

import pandas as pd
import seaborn as sns
from matplotlib.figure import Figure

from analysis.data import per_iteration
from analysis.figures import common
from analysis.statistics import robust
from analysis.tables.horizon import RIVAL


def differences(iterations: pd.DataFrame, checkpoints: list[int], experiment: str) -> pd.DataFrame:
    """(problem, label, t, seed, diff): TS's regret minus each B3O variant's on the seeds both have, at each t."""
    at = iterations[(iterations["experiment"] == experiment) & iterations["iteration"].isin(checkpoints)]
    rival = at[at["label"] == RIVAL].set_index(["problem", "iteration", "seed"])["value"]
    ours = at[at["method"] == "b3o"].set_index(["problem", "iteration", "seed"])
    joined = ours.join(rival.rename("rival"), how="inner")
    out = joined.assign(diff=joined["rival"] - joined["value"]).reset_index()
    return out.rename(columns={"iteration": "t"})[["problem", "label", "t", "seed", "diff"]]


def draw(diffs: pd.DataFrame, scale: dict[str, float]) -> Figure:
    """One panel per problem: a strip of seeds per checkpoint, hue the B3O variant."""
    problems = common.ordered_problems(diffs["problem"])
    fig, axes = common.panels(problems, height=3.0, columns=len(problems))
    labels = common.ordered(diffs["label"].unique())
    for problem, ax in axes.items():
        panel = diffs[diffs["problem"] == problem]
        sns.stripplot(
            data=panel, x="t", y="diff", hue="label", hue_order=labels, dodge=True, jitter=0.15, size=3, alpha=0.8,
            palette={label: common.colour(label) for label in labels}, ax=ax, legend=problem == problems[0],
        )
        ax.axhline(0.0, color="black", lw=0.8)
        ax.set_yscale("symlog", linthresh=scale[problem])
        n = panel.groupby(["label", "t"])["seed"].nunique().max()
        ax.set(title=f"{common.problem_title(problem)} ({n} seeds)", xlabel="BO iteration t",
               ylabel=f"{RIVAL} − B3O simple regret per seed")
    first = axes[problems[0]]
    if first.get_legend() is not None:
        first.get_legend().remove()
    common.legend_below(fig, axes.values())
    common.suptitle(fig, f"Every seed's regret difference {RIVAL} − B3O at the checkpoints: above 0, B3O ended lower")
    return fig


def main(argv: list[str] | None = None) -> int:
    cli = common.parser("seeds_along", __doc__.splitlines()[0], table_help="the run's per-iteration table (parquet)")
    cli.add_argument("--horizon", required=True, help="the run's horizon table: its experiment and checkpoints")
    args = cli.parse_args(argv)
    along = pd.read_csv(args.horizon).dropna(subset=["look"])
    if along.empty:
        return common.publish(args.out, lambda: None, f"No checkpoint decided in {args.horizon}.")
    iterations = per_iteration.read(args.table)
    experiment = str(along["experiment"].iloc[0])
    diffs = differences(iterations, sorted(int(t) for t in along["iteration"].unique()), experiment)
    last = iterations[(iterations["experiment"] == experiment)]
    last = last[last["iteration"] == last.groupby("trial_id")["iteration"].transform("max")]
    # linear within the problem's typical final regret (the median of its settings' medians, as the robust readings)
    scale = {p: robust.reference(g.groupby("label")["value"].median().to_numpy()) for p, g in last.groupby("problem")}
    return common.publish(args.out, lambda: draw(diffs, scale))


if __name__ == "__main__":
    raise SystemExit(main())
