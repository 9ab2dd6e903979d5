"""B3O's advantage over TS per BO iteration, batch diversity and the Boltzmann density's sharpness, along an
experiment's horizon (by default the `horizon` experiment, B = 50, T = 25; options as `analysis.tables.horizon`'s).

Top row: mean and BCa 95% CI over seeds of the per-seed advantage TS regret − B3O regret (positive = B3O better),
with the checkpoints (t = 6, 12, 25 by default) at which `analysis.tables.horizon` decides claims 1 and 7 marked. Middle
row: batch diversity (mean pairwise distance, scaled space) per iteration for every method: the mechanism the paper
gives for B3O's advantage is TS's diversity collapsing over iterations. Bottom row, where the records carry the rule's
diagnostics: each B3O variant's sharpness, λ_t·(α's 90th − 10th percentile over the rule's reference set), the log of
how much likelier its density makes a point at α's 90th percentile than one at its 10th (geometric mean over seeds,
95% CI): what a constant λ holds and a scheduled λ_t raises, and so what sets how far a batch keeps spreading.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analysis.data.aggregate import summarise
from analysis.figures import common
from analysis.figures.diversity import diversity_curves
from analysis.statistics.sequential import Horizon
from analysis.tables.horizon import RIVAL, add_plan_arguments, advantage_by_iteration, plan_of

#: the figures the workflow draws with this script (a literal, read unimported by `analysis.figures.declared`)
FIGURES = {"horizon_advantage": ("horizon", "")}


def sharpness_curves(table: pd.DataFrame, experiment: str) -> pd.DataFrame:
    """Per (problem, B3O label, iteration with λ_t > 0): λ_t·(α's 10–90 % range), the α the density exponentiates
    (`lambda_density`), summarised on the log scale and returned as a geometric mean with its 95% CI."""
    data = table[(table["experiment"] == experiment) & (table["method"] == "b3o") & (table["lambda_density"] > 0)
                 & (table["alpha_p10_p90"] > 0)]
    data = data.assign(log_sharpness=np.log(data["lambda_density"] * data["alpha_p10_p90"]))
    summary = summarise(data, ["problem", "label"], "log_sharpness", "iteration")
    return summary.assign(**{column: np.exp(summary[column].astype(float)) for column in ("mean", "lo", "hi")})


def draw(advantage: pd.DataFrame, diversity: pd.DataFrame, plan: Horizon, setting: str,
         sharpness: pd.DataFrame | None = None) -> Figure:
    problems = common.ordered_problems(advantage["problem"])
    rows = ["advantage", "diversity"] + (["sharpness"] if sharpness is not None and len(sharpness) else [])
    fig, axes = common.grid(rows, problems)
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
        if "sharpness" in rows:
            ax = axes["sharpness", problem]
            common.label_bands(ax, sharpness[sharpness["problem"] == problem], "iteration")
            ax.set(xlabel="BO iteration t", yscale="log")
    axes["advantage", problems[0]].set_ylabel(f"Advantage over {RIVAL}:\n{RIVAL} regret − B3O regret")
    axes["diversity", problems[0]].set_ylabel("Batch diversity: mean pairwise\ndistance (scaled space)")
    if "sharpness" in rows:
        axes["sharpness", problems[0]].set_ylabel("Density sharpness:\nλ_t·(α₉₀ − α₁₀)")
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
        lambda: draw(advantage, diversity_curves(table, plan.experiment), plan, _setting(table, plan.experiment),
                     sharpness_curves(table, plan.experiment)),
        missing,
    )


def _setting(table: pd.DataFrame, experiment: str) -> str:
    """ "25 iterations of B = 50": the experiment's longest horizon and largest batch."""
    run = table[table["experiment"] == experiment]
    return f"{int(run['iterations'].max())} iterations of B = {int(run['batch_size'].max())}"


if __name__ == "__main__":
    raise SystemExit(main())
