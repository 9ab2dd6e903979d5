"""Theorem 1 measured (beyond the paper): tail probability of the acquisition gap under exact Boltzmann sampling.

One panel per dimension d; x = λ, y = P[α(x*) − α(x) ≥ ε] on a log scale, one colour per ε: markers with 95%
Clopper-Pearson intervals are measured (a downward triangle marks a zero count, drawn at its 95% upper limit), dashed
lines are the bound exp(−λε + (d/2) log λ − log V). Above 1 the bound is vacuous (shaded). Also writes OUT.csv with
every number. The acquisitions and the sampling are in `analysis.statistics.theory`.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from analysis.figures import common
from analysis.statistics import theory


def title(row: pd.Series) -> str:
    return f"d = {row['d']}: A = diag{row['a']}\nx* = {row['x_star']}, x ∈ $[0,1]^{row['d']}$"


def draw(results: pd.DataFrame) -> Figure:
    dims = sorted(results["d"].unique())
    epsilons = sorted(results["eps"].unique())
    colours = dict(zip(epsilons, plt.get_cmap("viridis")(np.linspace(0, 0.9, len(epsilons)))))
    fig, axes = common.panels([str(d) for d in dims], height=2.8)
    drawn = np.concatenate([results.loc[results["count"] > 0, "ci_lo"], results.loc[results["count"] == 0, "ci_hi"]])
    floor = 0.3 * drawn[drawn > 0].min()
    for d in dims:
        ax = axes[str(d)]
        for eps in epsilons:
            rows = results[(results["d"] == d) & (results["eps"] == eps)].sort_values("lam")
            seen, unseen = rows[rows["count"] > 0], rows[rows["count"] == 0]
            error = [seen["measured"] - seen["ci_lo"], seen["ci_hi"] - seen["measured"]]
            ax.plot(rows["lam"], rows["bound"], "--", color=colours[eps])
            ax.errorbar(seen["lam"], seen["measured"], yerr=error, fmt="o", color=colours[eps], ms=5, capsize=2)
            ax.plot(unseen["lam"], unseen["ci_hi"], "v", color=colours[eps], ms=6)
        ax.axhspan(1.0, 1e3, color="0.9", zorder=0)
        ax.set(
            xscale="log",
            yscale="log",
            ylim=(floor, 50),
            xlabel="Inverse temperature λ",
            xticks=sorted(results["lam"].unique()),
            xticklabels=[f"{lam:g}" for lam in sorted(results["lam"].unique())],
            title=title(results[results["d"] == d].iloc[0]),
        )
    axes[str(dims[0])].set_ylabel("P[α(x*) − α(x) ≥ ε]")
    handles = [Line2D([], [], color=colours[eps], lw=6, label=f"ε = {eps:g}") for eps in epsilons] + [
        Line2D([], [], ls="--", color="0.3", label="bound"),
        Line2D([], [], ls="", marker="o", color="0.3", label="measured (95% CI)"),
        Line2D([], [], ls="", marker="v", color="0.3", label="none observed (95% upper limit)"),
    ]
    columns = common.legend_columns(h.get_label() for h in handles)
    fig.legend(handles=handles, loc="outside lower center", ncol=columns, frameon=False)
    common.taller(fig, -(-len(handles) // columns), common.FONTS["small"])
    n = int(results["n"].iloc[0])
    common.suptitle(
        fig,
        f"Theorem 1 for α(x) = −½(x − x*)ᵀA(x − x*), exact Boltzmann sampling ({n:,} draws per λ)\n"
        "shaded: bound > 1 (vacuous)"
    )
    return fig


def main(argv: list[str] | None = None) -> int:
    cli = common.parser("theorem1", __doc__.splitlines()[0], table_help=None)
    cli.add_argument("--samples", type=int, default=200_000, help="exact draws per (d, λ)")
    cli.add_argument("--seed", type=int, default=0)
    args = cli.parse_args(argv)
    results = theory.measure(num_samples=args.samples, seed=args.seed)
    violations = results[results["measured"] > results["bound"]]
    if not violations.empty:
        common.note(f"measured probability above the bound in {len(violations)} case(s):\n{violations}")
    csv = Path(args.out).with_name(Path(args.out).name + ".csv")
    csv.parent.mkdir(parents=True, exist_ok=True)
    results.to_csv(csv, index=False)
    print(f"wrote {csv}")
    return common.publish(args.out, lambda: draw(results))


if __name__ == "__main__":
    raise SystemExit(main())
