"""Formula E (paper Fig. 6): best objective against BO iterations (left) and function evaluations (right).

The objective ½·T/T₀ + ½·E/E₀ (lap time and lap energy relative to the default car, so the default scores 1) is
minimised and has no known optimum, hence best objective rather than regret. Per-iteration curves need no grid (all
seeds of a method share their iterations); per-evaluation curves use the common evaluation grid.
"""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from analysis.data.aggregate import curves, summarise
from analysis.figures import common

EXPERIMENT = "formula_e"
#: the figures the workflow draws with this script (a literal, read unimported by `analysis.figures.declared`)
FIGURES = {"formula_e": (EXPERIMENT,)}
OBJECTIVE = "Best objective ½T/T₀ + ½E/E₀ [–]"


def formula_e_curves(table: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Mean best objective with 95% CI per label, against iterations and against evaluations."""
    data = table[(table["experiment"] == EXPERIMENT) & table["best_value"].notna()]
    return {
        "iteration": summarise(data, ["label"], "best_value", "iteration"),
        "num_evals": curves(data, ["problem", "label"], "best_value"),
    }


def draw(summaries: dict[str, pd.DataFrame]) -> Figure:
    fig, axes = common.panels(list(summaries), height=2.8)
    for x, ax in axes.items():
        common.label_bands(ax, summaries[x], x, step=True)
        ax.set_xlabel("BO iteration" if x == "iteration" else common.EVALUATIONS)
    axes["iteration"].set_ylabel(OBJECTIVE)
    return common.titled(fig, "Formula E: best objective (lower is better), mean and 95% CI over seeds", axes.values())


def main(argv: list[str] | None = None) -> int:
    cli = common.parser("formula_e", __doc__.splitlines()[0])
    args = cli.parse_args(argv)
    summaries = formula_e_curves(common.load_table(args.table))
    missing = f"No '{EXPERIMENT}' runs in {args.table}." if summaries["iteration"].empty else None
    return common.publish(args.out, lambda: draw(summaries), missing)


if __name__ == "__main__":
    raise SystemExit(main())
