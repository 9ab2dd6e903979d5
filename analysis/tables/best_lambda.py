"""Table 2: the best inverse temperature λ per function and B3O variant, chosen from the λ-ablation runs.

Selection rule (the paper's): the λ with the minimum mean final simple regret over seeds (those every λ of the cell
has: the design is paired by seed); ties go to the smaller λ.
The CSV lists every candidate with its mean final regret, 95% CI and whether it was selected, so the choice can be
checked; the .tex shows the selected λ per function (rows) and variant (columns, in the paper's order).
"""

from __future__ import annotations

import pandas as pd

from analysis.data.aggregate import final, on_shared_seeds, summarise
from analysis.naming import VARIANT_NAMES, VARIANTS, method_title, ordered_problems, problem_title
from analysis.tables import common

EXPERIMENT = "lambda_ablation"
#: the tables the workflow writes with this script: name -> the experiment it needs (read unimported)
TABLES = {"best_lambda": EXPERIMENT}


def candidates(table: pd.DataFrame) -> pd.DataFrame:
    """Mean final regret with 95% CI per (problem, variant, λ), and `selected` marking the best λ of each cell."""
    last = final(table[(table["experiment"] == EXPERIMENT) & (table["method"] == "b3o")])
    last = last.assign(variant=[VARIANT_NAMES.get((a, t)) for a, t in zip(last["acquisition"], last["temperature"])])
    cells = on_shared_seeds(last[last["variant"].notna()], "lam", within=("problem", "variant"))
    stats = summarise(cells, ["problem", "variant", "lam"], "simple_regret")
    if stats.empty:
        return stats.assign(selected=pd.Series(dtype=bool))
    stats = stats.sort_values(["problem", "variant", "mean", "lam"], ignore_index=True)
    # sorted by mean regret, then λ: the first row of each (problem, variant) is the pick
    stats = stats.assign(selected=~stats.duplicated(["problem", "variant"]))
    order = {v: i for i, v in enumerate(VARIANTS)}
    return stats.sort_values(
        ["problem", "variant", "lam"], key=lambda c: c.map(order) if c.name == "variant" else c, ignore_index=True
    )


def table_2(stats: pd.DataFrame) -> pd.DataFrame:
    """Selected λ per problem (rows) and variant (columns); '–' where a variant was not run on a problem."""
    picks = stats[stats["selected"]].pivot(index="problem", columns="variant", values="lam")
    picks = picks.reindex(index=ordered_problems(picks.index), columns=[v for v in VARIANTS if v in picks.columns])
    picks = picks.map(common.number).reset_index()
    return picks.assign(problem=picks["problem"].map(problem_title))


def main(argv: list[str] | None = None) -> int:
    args = common.parser("best_lambda", __doc__.splitlines()[0]).parse_args(argv)
    stats = candidates(pd.read_parquet(args.table))
    if stats.empty:
        common.write_empty(args.out, f"No '{EXPERIMENT}' runs of the B3O variants in {args.table}.")
        return 0
    wide = table_2(stats)
    symbol = {"scheduled": r"$\lambda_0$", "constant": r"$\lambda$"}
    header = ["Function"] + [
        f"{common.escape(method_title('b3o', *VARIANTS[v]))} ({symbol[VARIANTS[v][1]]})" for v in wide.columns[1:]
    ]
    common.write(args.out, stats, common.latex(wide, header))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
