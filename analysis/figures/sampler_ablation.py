"""Simple regret per Boltzmann sampler for one B3O variant, one panel per problem (paper Figs. 11-12, App. D).

`--variant` is one of UCB-c, UCB-s, LogEI-c, LogEI-s (acquisition and temperature regime); λ is whatever the
sampler-ablation runs used and is shown in the title.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.figure import Figure

from analysis.data.aggregate import curves
from analysis.figures import common
from analysis.naming import SAMPLERS, VARIANTS, lambda_symbol, method_title

EXPERIMENT = "sampler_ablation"
#: the figures the workflow draws with this script (a literal, read unimported by `analysis.figures.declared`): one per
#: B3O variant (`analysis.naming.VARIANTS`), when the config runs that variant
FIGURES = {
    "sampler_ucb_c": (EXPERIMENT, "--variant UCB-c", {"acquisition": "ucb", "temperature": "constant"}),
    "sampler_ucb_s": (EXPERIMENT, "--variant UCB-s", {"acquisition": "ucb", "temperature": "scheduled"}),
    "sampler_logei_c": (EXPERIMENT, "--variant LogEI-c", {"acquisition": "logei", "temperature": "constant"}),
    "sampler_logei_s": (EXPERIMENT, "--variant LogEI-s", {"acquisition": "logei", "temperature": "scheduled"}),
}


def sampler_curves(table: pd.DataFrame, variant: str) -> pd.DataFrame:
    """Mean simple regret with 95% CI per (problem, sampler, evaluations) for one B3O variant."""
    acquisition, temperature = VARIANTS[variant]
    data = table[
        (table["experiment"] == EXPERIMENT)
        & (table["method"] == "b3o")
        & (table["acquisition"] == acquisition)
        & (table["temperature"] == temperature)
        & table["simple_regret"].notna()
    ]
    return curves(data, ["problem", "sampler", "lam"], "simple_regret")


def draw(summary: pd.DataFrame, variant: str) -> Figure:
    samplers = [s for s in SAMPLERS if s in set(summary["sampler"])] + sorted(set(summary["sampler"]) - set(SAMPLERS))
    colours = dict(zip(samplers, plt.get_cmap("tab10").colors))
    fig, axes = common.panels(common.ordered_problems(summary["problem"]))
    for problem, ax in axes.items():
        panel = summary[summary["problem"] == problem]
        for sampler in samplers:
            curve = panel[panel["sampler"] == sampler]
            if not curve.empty:
                common.band(ax, curve, "num_evals", SAMPLERS.get(sampler, sampler), colours[sampler], step=True)
        ax.set_yscale("log")
        ax.set(title=common.problem_title(problem), xlabel=common.EVALUATIONS)
    next(iter(axes.values())).set_ylabel(common.REGRET)
    symbol = lambda_symbol(VARIANTS[variant][1])
    lams = ", ".join(f"{lam:g}" for lam in sorted(summary["lam"].unique()))
    name = method_title("b3o", *VARIANTS[variant])
    return common.titled(
        fig, f"Sampler ablation, {name} ({symbol} = {lams}): mean and 95% CI over seeds", axes.values()
    )


def main(argv: list[str] | None = None) -> int:
    return common.choice_main(
        argv, "sampler_ablation", __doc__.splitlines()[0], "variant", tuple(VARIANTS), sampler_curves, draw,
        lambda variant: f"'{EXPERIMENT}' runs of {method_title('b3o', *VARIANTS[variant])}",
    )


if __name__ == "__main__":
    raise SystemExit(main())
