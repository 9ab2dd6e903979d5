"""Each claim's verdict along the budget: what the claims engine would have said had the run stopped at b evaluations.

    python -m analysis.claims.verdicts_along --table paper/extended/tables/per_trial.csv \
        --claims paper/extended/claims.csv --config config/extended.yaml --out paper/extended/tables/verdicts_along.csv

At budget b every trial of the claim's experiment keeps its rows at budgets ≤ b, and its final budget becomes
min(final budget, b): the claim then reads each method at its value at b (a method that ended earlier at its final
value) and is checked in full by the engine (`analysis.claims.checking.CLAIMS`), with the run's planned looks. The
budgets are those the per-trial table has for the experiment (every budget a trial of it finished at), at most
`MAX_BUDGETS` of them, evenly picked and always with the last. The claims and their experiments come from the run's
claims.csv, so only claims whose experiment the run has are checked. Each check is a full one (seconds to a minute);
`--only` restricts the claims by name when all of them take too long.

A run read along its own horizon (`analysis.tables.horizon`: B3O against TS decided at checkpoints t) gives claims 1
and 7 along t instead (`--horizon`, `along_horizon`): at each checkpoint the claim's verdict combines its variants'
comparisons there (`analysis.statistics.verdicts.combine`), over every benchmark the claim names, so a problem or
variant the run left out counts as missing ("holds on k of n"); they replace the engine's rows of the same claim and
experiment. Those rows' `axis` is "iteration" (their budget is t); the engine's rows' is "evaluations".
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from analysis.claims import checking
from analysis.claims.catalogue import SYNTHETIC
from analysis.data import per_trial
from analysis.statistics import sequential
from analysis.statistics.verdicts import FAILS, HOLDS, INCONCLUSIVE, NOT_COMPARABLE, NOT_MEASURED, combine
from bench.grid import sequential_experiments

MAX_BUDGETS = 12
#: the verdict classes a strip colours, in legend order; "holds on k of n" is held in part
CATEGORIES = ("holds", "holds in part", "does not hold", "inconclusive", "not comparable", "not measured")
COLUMNS = ["number", "name", "experiment", "budget", "axis", "verdict", "category", "seconds"]
#: the claims a horizon table decides (claims 1 and 7): name -> the B3O variants each compares with TS
HORIZON_CLAIMS = {
    "b3o_beats_ts_b100": ("B3O-LogEI-c", "B3O-LogEI-s", "B3O-UCB-c", "B3O-UCB-s"),
    "constant_beats_ts": ("B3O-LogEI-c", "B3O-UCB-c"),
}


def category(verdict: str) -> str:
    """The class of an engine verdict (its text may carry a reason after a colon or a count)."""
    if verdict == HOLDS:
        return "holds"
    if verdict.startswith(HOLDS):
        return "holds in part"
    if verdict.startswith(FAILS):
        return "does not hold"
    if verdict.startswith(INCONCLUSIVE):
        return "inconclusive"
    if verdict.startswith(NOT_COMPARABLE):
        return "not comparable"
    if verdict.startswith(NOT_MEASURED):
        return "not measured"
    raise ValueError(f"unknown verdict {verdict!r}")


def budgets(table: pd.DataFrame, experiment: str, cap: int = MAX_BUDGETS) -> list[int]:
    """The experiment's budgets (ascending), at most `cap` of them, evenly spaced by rank, the last always kept."""
    found = np.sort(table.loc[table["experiment"] == experiment, "budget"].unique())
    if len(found) <= cap:
        return [int(b) for b in found]
    picks = np.unique(np.round(np.linspace(0, len(found) - 1, cap)).astype(int))
    return [int(found[i]) for i in picks]


def at_budget(table: pd.DataFrame, experiment: str, budget: int) -> pd.DataFrame:
    """The experiment's rows as if the run had stopped at `budget` evaluations (see the module docstring)."""
    rows = table[(table["experiment"] == experiment) & (table["budget"] <= budget)].copy()
    rows["final_budget"] = np.minimum(rows["final_budget"], budget)
    return rows


def along(
    table: pd.DataFrame, claims: pd.DataFrame, looks: dict[str, tuple[int, ...]], only: list[str] | None = None
) -> pd.DataFrame:
    """One row per (claim, budget): the engine's verdict, its class and the seconds the check took."""
    ran = set(table["experiment"])
    chosen = claims[claims["experiment"].isin(ran) & claims["name"].isin(checking.CLAIMS)]
    if only:
        chosen = chosen[chosen["name"].isin(only)]
    rows = []
    for claim in chosen.itertuples():
        for budget in budgets(table, claim.experiment):
            start = time.perf_counter()
            result = checking.CLAIMS[claim.name](at_budget(table, claim.experiment, budget), looks)
            rows.append({
                "number": claim.number, "name": claim.name, "experiment": claim.experiment, "budget": budget,
                "axis": "evaluations", "verdict": result.verdict, "category": category(result.verdict),
                "seconds": round(time.perf_counter() - start, 2),
            })
    return pd.DataFrame(rows, columns=COLUMNS)


def along_horizon(table: pd.DataFrame, experiment: str) -> pd.DataFrame:
    """One row per (claim of `HORIZON_CLAIMS`, checkpoint t) of a horizon table (`analysis.tables.horizon`'s CSV):
    the claim's verdict from its variants' comparisons decided at t, out of every (variant, benchmark) it names."""
    decided = table[table["verdict"].notna() & (table["verdict"] != "")]
    rows = []
    for name, variants in HORIZON_CLAIMS.items():
        for t, at in decided.groupby("iteration"):
            units = at[at["label"].isin(variants)]
            if units.empty:
                continue
            verdict = combine(list(units["verdict"]), expected=len(variants) * len(SYNTHETIC))
            rows.append({
                "number": list(checking.CLAIMS).index(name) + 1, "name": name, "experiment": experiment,
                "budget": int(t), "axis": "iteration", "verdict": verdict, "category": category(verdict), "seconds": 0.0,
            })
    return pd.DataFrame(rows, columns=COLUMNS)


def config_looks(path: str | None) -> dict[str, tuple[int, ...]]:
    """The planned looks of the run's config (none without a config: every claim is then decided in one look)."""
    if path is None:
        return {}
    return sequential_experiments(yaml.safe_load(Path(path).read_text()))


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m analysis.claims.verdicts_along", description=__doc__.splitlines()[0])
    cli.add_argument("--table", required=True, help="per-trial table (CSV, analysis.data.per_trial)")
    cli.add_argument("--claims", required=True, help="the run's claims.csv (which claims, and their experiments)")
    cli.add_argument("--config", help="the run's config, for its planned looks (seeds: {start, step, max})")
    cli.add_argument("--only", nargs="*", metavar="NAME", help="check only these claims (by name)")
    cli.add_argument("--horizon", help="the run's horizon table (CSV, analysis.tables.horizon): claims 1 and 7 along t")
    cli.add_argument(
        "--horizon-experiment", default=sequential.HORIZON.experiment, help="the experiment the horizon table reads"
    )
    cli.add_argument("--out", required=True, help="CSV to write")
    args = cli.parse_args(argv)
    start = time.perf_counter()
    result = along(per_trial.read(args.table), pd.read_csv(args.claims), config_looks(args.config), args.only)
    if args.horizon:
        strips = along_horizon(pd.read_csv(args.horizon), args.horizon_experiment)
        # a claim the horizon decides at its planned checkpoints is shown there, not also at the engine's budgets
        kept = result[~(result["name"].isin(strips["name"]) & (result["experiment"] == args.horizon_experiment))]
        result = pd.concat([kept, strips], ignore_index=True) if len(kept) else strips
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    result.to_csv(args.out, index=False)
    print(f"wrote {args.out}: {len(result)} checks in {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
