"""The automatic temperature against the paper's λ: each variant's paired advantage, one panel per problem.

The figure of the pre-registered test (docs/auto-temperature.md): for every B3O variant run with an automatic
temperature, the mean per-seed advantage over the same variant at the paper's λ (Table 2's on the synthetic
functions), with its unadjusted 95% BCa bootstrap CI. The advantage is the paper's λ's final value minus the automatic
one's for regret and a minimised objective, the reverse for hypervolume: right of zero, the automatic temperature is
better. Left of −margin (shaded; the problem's margin, `problems/margins.py`) it would be worse than "matches or
beats" allows. The claims decide by tests, Holm-corrected over each claim's comparisons.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analysis.claims.comparisons import differences
from analysis.claims.selection import automatic, where
from analysis.data import per_trial
from analysis.figures import common

EXPERIMENTS = ("auto_synthetic", "auto_battery", "auto_formula_e")
#: the figures the workflow draws with this script (a literal, read unimported by `analysis.figures.declared`)
FIGURES = {"automatic": ("auto_synthetic", "")}


def advantages(table: pd.DataFrame) -> pd.DataFrame:
    """Per experiment, problem and acquisition: the automatic variant's paired advantage over its constant form."""
    parts = []
    for experiment in EXPERIMENTS:
        rows = table[table["experiment"] == experiment]
        for acquisition in sorted(rows["acquisition"].dropna().unique()):
            constant = where(method="b3o", acquisition=acquisition, temperature="constant")
            parts.append(differences(table, experiment, automatic(acquisition), constant))
    parts = [p for p in parts if not p.empty]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def draw(diffs: pd.DataFrame) -> Figure:
    problems = common.ordered_problems(diffs["problem"])
    height = 0.4 * diffs.groupby("problem").size().max() + 1.3
    fig, axes = common.panels(problems, height=height, columns=2)
    for problem, ax in axes.items():
        panel = diffs[diffs["problem"] == problem].reset_index(drop=True)
        for y, r in panel.iterrows():
            err = [[r["mean"] - r["lo"]], [r["hi"] - r["mean"]]] if r["n"] >= 2 else None
            ax.errorbar(r["mean"], y, xerr=err, fmt="o", color=common.colour(r["right"]), capsize=4, lw=1.6)
        for y, bound in enumerate(panel["bound"]):  # the margin beside each rival's mean (`problems.margins`)
            if np.isfinite(bound):
                left = min(-1.5 * bound, float(panel["lo"].min()))
                ax.fill_betweenx([y - 0.4, y + 0.4], left, -bound, color="tab:red", alpha=0.12, lw=0)
        ax.axvline(0.0, color="black", lw=0.8)
        ax.set_yticks(range(len(panel)), [f"{a}\nvs {common.method_of(b)}" for a, b in zip(panel["left"], panel["right"])])
        ax.set_ylim(len(panel) - 0.5, -0.5)
        seeds = ", ".join(str(n) for n in sorted(panel["n"].unique()))
        ax.set(title=f"{common.problem_title(problem)}\n{seeds} seeds", xlabel="Advantage of auto")
    common.suptitle(fig, "The automatic temperature against the same variant at the paper's λ\npaired advantage per "
                    "seed, mean and 95% BCa CI; shaded: below −margin")
    return fig


def main(argv: list[str] | None = None) -> int:
    args = common.parser("automatic", __doc__.splitlines()[0]).parse_args(argv)
    diffs = advantages(per_trial.load(args.table))
    missing = f"No automatic-temperature runs beside the paper's λ in {args.table}." if diffs.empty else None
    return common.publish(args.out, lambda: draw(diffs), missing)


if __name__ == "__main__":
    raise SystemExit(main())
