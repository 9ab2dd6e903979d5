"""Performance profiles of the normalised scores (rliable's): per experiment and budget, the fraction of a method's
(problem, seed) runs whose score is at most τ (`analysis.statistics.scores`: 0 the optimum or the run's best, 1 random
search's median at that budget).

    python -m analysis.figures.score_profiles --table paper/extended/tables/scores.csv --out F/score_profiles

A curve further up and to the left is better; where two curves cross, neither method dominates.
"""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from analysis.figures.common import colour, line_style, load_table, ordered, panels, parser, publish, titled
from analysis.naming import experiment_title
from analysis.statistics.scores import profiles


def draw(curves: pd.DataFrame) -> Figure:
    keys = list(dict.fromkeys(zip(curves["experiment"], curves["budget"])))
    fig, axes = panels(keys)
    for key in keys:
        ax = axes[key]
        rows = curves[(curves["experiment"] == key[0]) & (curves["budget"] == key[1])]
        for label in ordered(rows["label"]):
            curve = rows[rows["label"] == label]
            ax.step(curve["tau"], curve["fraction"], ls=line_style(label), where="post", color=colour(label),
                    label=label)
        ax.axvline(1.0, color="gray", lw=0.8, ls=":")
        ax.set_ylim(-0.02, 1.02)
        ax.set_title(f"{experiment_title(key[0])},\n{key[1]} evaluations")
        ax.set_xlabel("score τ")
        ax.set_ylabel("fraction of runs with score ≤ τ")
    return titled(
        fig, "Performance profiles of the normalised scores τ (0: the best; 1: random search's median)", axes.values()
    )


def main(argv: list[str] | None = None) -> int:
    cli = parser("score_profiles", __doc__.splitlines()[0], table_help="scores (CSV, python -m analysis.statistics.scores)")
    args = cli.parse_args(argv)
    curves = profiles(load_table(args.table))
    missing = None if len(curves) else f"No trial in {args.table} has a score (no Random at its budget)."
    return publish(args.out, lambda: draw(curves), missing)


if __name__ == "__main__":
    raise SystemExit(main())
