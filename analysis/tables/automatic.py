"""The automatic temperature's pre-registered test (docs/auto-temperature.md) per problem and variant, with why.

Reads the claims' comparisons (`paper/tables/comparisons.csv`, written by `analysis.tables.claims_table
--comparisons`) and B3O's density diagnostics (`paper/tables/density.csv`, `analysis.tables.density`), and writes
OUT.csv and OUT.tex: one row per comparison of a claim of the test (B3O with `auto-tail` against the same variant at
the paper's λ), with its verdict and mean advantage, and beside it what each temperature made of the density: the
median λ_t chosen against the paper's λ, the median ESS/N of the Boltzmann weights and the batch diversity relative
to uniform. The README's "How λ is chosen" and the protocol's goal (docs/auto-temperature.md: matches or beats on at
least 4 of 5 problems per variant) are written from it (`analysis.presentation.readme`).
"""

from __future__ import annotations

import argparse
import re
import sys

import pandas as pd

from analysis.claims.catalogue import AUTO_SOURCE, CATALOGUE
from analysis.naming import display_labels, problem_title
from analysis.statistics.verdicts import HOLDS
from analysis.tables import common

#: the claims of the pre-registered test
CLAIMS = tuple(c.name for c in CATALOGUE if c.source == AUTO_SOURCE)
#: the experiments of the test, in the claims' order
EXPERIMENTS = tuple(dict.fromkeys(c.experiment for c in CATALOGUE if c.source == AUTO_SOURCE))
#: the variants whose goal is counted; the battery's EHVI counts for each
SINGLE_OBJECTIVE = ("LogEI", "UCB")
#: what the README and report show of each density: column of density.csv -> name here
DIAGNOSTICS = {"ess_fraction_median": "ess", "relative_diversity_median": "diversity"}
COLUMNS = [
    "name", "problem", "variant", "in_sample", "auto", "rival", "paper_lam", "auto_lambda_t_median", "n", "look",
    "margin", "mean", "lo", "hi", "verdict", "auto_ess", "rival_ess", "auto_diversity", "rival_diversity",
]


def _label_and_lam(member: str) -> tuple[str, float | None]:
    """"B3O-LogEI-c λ=1" -> ("B3O-LogEI-c", 1.0); a member named without λ -> (its name, None)."""
    found = re.fullmatch(r"(.*) λ=([-+0-9.e]+)", member)
    return (found.group(1), float(found.group(2))) if found else (member, None)


def _density(density: pd.DataFrame, experiment: str, problem: str, member: str) -> pd.Series | None:
    label, lam = _label_and_lam(member)
    rows = density[(density["experiment"] == experiment) & (density["problem"] == problem) & (density["label"] == label)]
    if lam is not None:
        rows = rows[rows["lam"].sub(lam).abs() < 1e-12]
    return rows.iloc[0] if len(rows) == 1 else None


def outcome(comparisons: pd.DataFrame, density: pd.DataFrame) -> pd.DataFrame:
    """One row per comparison of the test; see the module docstring."""
    rows = []
    for c in comparisons[comparisons["name"].isin(CLAIMS)].itertuples():
        auto = _density(density, c.experiment, c.problem, c.left)
        rival = _density(density, c.experiment, c.problem, c.right)
        rows.append(
            {
                "name": c.name,
                "problem": c.problem,
                "variant": c.left.removeprefix("B3O-").removesuffix("-auto"),
                "in_sample": c.name.endswith("in_sample"),
                "auto": c.left,
                "rival": c.right,
                "paper_lam": rival["lam"] if rival is not None else _label_and_lam(c.right)[1],
                "auto_lambda_t_median": auto["lambda_t_median"] if auto is not None else float("nan"),
                **{f: getattr(c, f) for f in ("n", "look", "margin", "mean", "lo", "hi", "verdict")},
                **{
                    f"{side}_{name}": (found[column] if found is not None else float("nan"))
                    for side, found in (("auto", auto), ("rival", rival))
                    for column, name in DIAGNOSTICS.items()
                },
            }
        )
    return pd.DataFrame(rows, columns=COLUMNS)


def goal(table: pd.DataFrame) -> pd.DataFrame:
    """Per single-objective variant (LogEI, UCB): on how many problems run its comparison holds, the battery's EHVI
    counting for each (the protocol's goal: 4 of the 5 problems for both)."""
    held = table.assign(held=table["verdict"].eq(HOLDS))
    shared = held[~held["variant"].isin(SINGLE_OBJECTIVE)]
    return pd.DataFrame(
        [
            {
                "variant": v,
                "problems": held.loc[held["variant"] == v, "problem"].nunique() + shared["problem"].nunique(),
                "held": int(held.loc[held["variant"] == v, "held"].sum() + shared["held"].sum()),
            }
            for v in SINGLE_OBJECTIVE
            if (held["variant"] == v).any()
        ]
    )


def leaning(auto_diversity: float, rival_diversity: float) -> str:
    """Which way the automatic density leaned from the paper's, by batch diversity (within 10 %: alike)."""
    ratio = auto_diversity / rival_diversity
    return "flatter than" if ratio > 1.1 else "more concentrated than" if ratio < 1 / 1.1 else "about as flat as"


def for_paper(table: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """The rows as text, and their LaTeX headers."""
    number = common.number
    shown = pd.DataFrame(
        {
            "problem": table["problem"].map(problem_title) + table["in_sample"].map({True: " (tuned here)", False: ""}),
            "variant": table["variant"],
            "lam": [f"{number(a)}, {number(p)}" for a, p in zip(table["auto_lambda_t_median"], table["paper_lam"])],
            "advantage": [
                f"{number(m)} [{number(lo)}, {number(hi)}] ({g}, {n} seeds)"
                for m, lo, hi, g, n in zip(table["mean"], table["lo"], table["hi"], table["margin"], table["n"])
            ],
            "verdict": table["verdict"],
            "ess": [f"{number(a)}, {number(r)}" for a, r in zip(table["auto_ess"], table["rival_ess"])],
            "diversity": [f"{number(a)}, {number(r)}" for a, r in zip(table["auto_diversity"], table["rival_diversity"])],
        }
    )
    header = ["problem", "variant", r"$\lambda_t$ auto, paper", "advantage [95\\% CI] (margin)", "verdict",
              "ESS/N auto, paper", "diversity auto, paper"]
    return shown, header


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m analysis.tables.automatic", description=__doc__.splitlines()[0])
    cli.add_argument("--comparisons", required=True, help="the claims' comparisons (CSV, claims_table --comparisons)")
    cli.add_argument("--density", required=True, help="B3O's density diagnostics (CSV, analysis.tables.density)")
    cli.add_argument("--out", default="paper/tables/automatic", help="output prefix; writes OUT.csv and OUT.tex")
    args = cli.parse_args(argv)
    try:
        comparisons = display_labels(pd.read_csv(args.comparisons), ("left", "right"))
        table = outcome(comparisons, display_labels(pd.read_csv(args.density)))
    except (OSError, KeyError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if table.empty:
        common.write_empty(args.out, "the automatic temperature's test was not run")
        return 0
    shown, header = for_paper(table)
    common.write(args.out, table, common.latex(shown, header))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
