"""Simple regret per inverse temperature λ: rows = acquisition (UCB, LogEI), columns = problems (paper Figs. 9, 10).

`--temperature constant` shows λ, `--temperature scheduled` the initial λ0 of λ_t = λ0·√t·log t.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.figure import Figure

from analysis.data.aggregate import curves
from analysis.figures import common
from analysis.naming import ACQUISITIONS, lambda_symbol, method_title, temperature_title

EXPERIMENT = "lambda_ablation"
#: the figures the workflow draws with this script (a literal, read unimported by `analysis.figures.declared`)
FIGURES = {
    "lambda_constant": (EXPERIMENT, "--temperature constant"),
    "lambda_scheduled": (EXPERIMENT, "--temperature scheduled"),
}


def lambda_curves(table: pd.DataFrame, temperature: str) -> pd.DataFrame:
    """Mean simple regret with 95% CI per (acquisition, problem, λ, evaluations) for one temperature regime."""
    data = table[
        (table["experiment"] == EXPERIMENT)
        & (table["method"] == "b3o")
        & (table["temperature"] == temperature)
        & table["simple_regret"].notna()
    ]
    return curves(data, ["acquisition", "problem", "lam"], "simple_regret")


def draw(summary: pd.DataFrame, temperature: str) -> Figure:
    acquisitions = [a for a in ACQUISITIONS if a in set(summary["acquisition"])]
    problems = common.ordered_problems(summary["problem"])
    lams = sorted(summary["lam"].unique())
    colours = dict(zip(lams, plt.get_cmap("viridis")([i / max(len(lams) - 1, 1) for i in range(len(lams))])))
    symbol = lambda_symbol(temperature)
    fig, axes = common.grid(acquisitions, problems)
    for lam in lams:  # legend entries in order of λ, whichever panel shows each first
        next(iter(axes.values())).plot([], [], color=colours[lam], lw=1.6, label=f"{symbol} = {lam:g}")
    for (acquisition, problem), ax in axes.items():
        panel = summary[(summary["acquisition"] == acquisition) & (summary["problem"] == problem)]
        name = method_title("b3o", acquisition, temperature)
        if panel.empty:
            common.empty_panel(ax, f"no {name} runs on {common.problem_title(problem)}")
            continue
        for lam, curve in panel.groupby("lam"):
            common.band(ax, curve, "num_evals", f"{symbol} = {lam:g}", colours[lam], step=True)
        ax.set_yscale("log")
        ax.set(title=f"{name}, {common.problem_title(problem)}", xlabel=common.EVALUATIONS)
        if problem == problems[0]:
            ax.set_ylabel(common.REGRET)
    return common.titled(
        fig, f"λ ablation, {temperature_title(temperature)} temperature: mean and 95% CI over seeds", axes.values()
    )


def main(argv: list[str] | None = None) -> int:
    return common.choice_main(
        argv, "lambda_ablation", __doc__.splitlines()[0], "temperature", ("constant", "scheduled"), lambda_curves, draw,
        lambda temperature: f"'{EXPERIMENT}' runs with {temperature} temperature",
    )


if __name__ == "__main__":
    raise SystemExit(main())
