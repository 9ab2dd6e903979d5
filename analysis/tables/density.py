"""How peaked B3O's Boltzmann density was: per experiment, problem and B3O variant, over its iterations with
lambda_t > 0 (a scheduled variant's first batch is uniform by construction and left out).

Columns: ESS/N of the Boltzmann weights over the rule's uniform reference set (min, median, max), the batch's
diversity relative to a uniform batch (median), the 10-90 % range of alpha over the reference set (median), and how
many iterations were collapsed or uniform (`b3o.degeneracy`, the runner's warning). A row of uniform iterations is B3O doing random search; a row of collapsed ones, B3O sampling one
point B times.
"""

from __future__ import annotations

import math

import pandas as pd

from analysis.naming import experiment_title, problem_title
from analysis.tables import common
from b3o import degeneracy

#: the tables the workflow writes with this script: name -> the experiment it needs (None: any; read unimported)
TABLES = {"density": None}
KEYS = ["experiment", "problem", "label", "lam"]  # the λ ablation runs several λ under one label


def density_summary(table: pd.DataFrame) -> pd.DataFrame:
    """One row per (experiment, problem, B3O label, λ); see the module docstring."""
    rows = table[(table["method"] == "b3o") & (table["lambda_t"] > 0) & table["ess_fraction"].notna()]
    rows = rows.assign(
        collapsed=[degeneracy.collapsed(e, d) for e, d in zip(rows["ess_fraction"], rows["relative_diversity"])],
        uniform=[
            degeneracy.uniform(e, lam, a)
            for e, lam, a in zip(rows["ess_fraction"], rows["lambda_density"], rows["alpha_range"])
        ],
    )
    grouped = rows.groupby(KEYS, sort=False, dropna=False)  # an automatic temperature has no configured λ (NaN)
    return pd.DataFrame(
        {
            "iterations": grouped.size(),
            "lambda_t_median": grouped["lambda_t"].median(),
            "ess_fraction_min": grouped["ess_fraction"].min(),
            "ess_fraction_median": grouped["ess_fraction"].median(),
            "ess_fraction_max": grouped["ess_fraction"].max(),
            "relative_diversity_median": grouped["relative_diversity"].median(),
            "alpha_p10_p90_median": grouped["alpha_p10_p90"].median(),
            "collapsed": grouped["collapsed"].sum(),
            "uniform": grouped["uniform"].sum(),
        }
    ).reset_index()


def lam_text(lam: float, lambda_t_median: float) -> str:
    """The configured λ, or for a temperature that chooses λ_t itself, "auto" with the median λ_t it chose."""
    return common.number(lam) if pd.notna(lam) else f"auto (median λ_t {common.number(lambda_t_median)})"


def for_paper(stats: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """The rows as text (ESS/N as min / median / max) and their LaTeX headers."""
    shown = stats.assign(
        ess=[
            f"{common.number(lo)} / {common.number(mid)} / {common.number(hi)}"
            for lo, mid, hi in zip(stats["ess_fraction_min"], stats["ess_fraction_median"], stats["ess_fraction_max"])
        ],
        diversity=stats["relative_diversity_median"].map(common.number),
        alpha=stats["alpha_p10_p90_median"].map(common.number),
        lam=[lam_text(lam, median) for lam, median in zip(stats["lam"], stats.get("lambda_t_median", math.nan * stats["lam"]))],
        experiment=stats["experiment"].map(experiment_title),
        problem=stats["problem"].map(problem_title),
    )[["experiment", "problem", "label", "lam", "iterations", "ess", "diversity", "alpha", "collapsed", "uniform"]]
    header = [
        "experiment",
        "problem",
        "method",
        r"$\lambda$",
        "iterations",
        "ESS/N min / median / max",
        "relative diversity",
        r"$\alpha$ 10--90\,\% range",
        "collapsed",
        "uniform",
    ]
    return shown, [common.escape(h) if "$" not in h else h for h in header]


def main(argv: list[str] | None = None) -> int:
    cli = common.parser("density", __doc__.splitlines()[0])
    args = cli.parse_args(argv)
    stats = density_summary(pd.read_parquet(args.table))
    if stats.empty:
        common.write_empty(args.out, f"No B3O iterations with lambda > 0 in {args.table}.")
        return 0
    common.write(args.out, stats, common.latex(*for_paper(stats)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
