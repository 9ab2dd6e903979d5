"""The robust readings beside every mean verdict of a run (`analysis.statistics.robust`, its rule in
`analysis/statistics/robust_readings.yaml`): per comparison, how often A ends below B with its exact sign test, the
median paired advantage, and the stuck seeds of each side; per setting, its stuck seeds (above k times the problem's
typical final value, the median of its settings' medians).

Each catalogue claim's comparisons of simple regret are re-formed exactly as the claims engine formed them
(`analysis.claims.checking.compared`): the same pairs, budgets and looks, each on the seeds of the look that decided
it (or of the last look it reached). With `--horizon`, claims 1 and 7's comparisons along the horizon likewise, each
checkpoint's comparisons on the seeds of the look the horizon table decided them at (`analysis.tables.horizon`).
A reading is labelled "pre-registered" where its rule says so (Shekel-4 at the paper's horizon), else "exploratory".

    python -m analysis.tables.robust --table paper/large_batch/tables/per_trial.csv \
        --config config/large_batch.yaml --horizon paper/large_batch/tables/horizon_along.csv \
        --per-iteration paper/large_batch/tables/per_iteration.parquet --out paper/large_batch/tables/robust

Writes OUT.csv (a row per comparison, `kind` "claim" or "horizon") and OUT_stuck.csv (a row per setting at its
final budget, over all its seeds).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.claims.catalogue import CATALOGUE, Claim
from analysis.claims.selection import member_names
from analysis.claims.checking import compared as checked
from analysis.claims.comparisons import sides, typical_value
from analysis.data import per_iteration, per_trial
from analysis.statistics import robust
from analysis.statistics.verdicts import NOT_COMPARABLE
from analysis.claims.verdicts_along import config_looks
from analysis.tables.claims_table import number
from analysis.tables.horizon import RIVAL

COLUMNS = [
    "kind", "number", "name", "experiment", "problem", "left", "right", "budget", "iteration", "n", "wins", "losses",
    "ties", "share", "share_lo", "share_hi", "p", "p_holm", "reading", "median", "median_lo", "median_hi",
    "left_stuck", "right_stuck", "status",
]


def status(experiment: str, problem: str) -> str:
    """"pre-registered" where the rule names (experiment, problem), else "exploratory"."""
    return "pre-registered" if problem in (robust.rule().get("preregistered") or {}).get(experiment, []) else "exploratory"


def _row(a: np.ndarray, b: np.ndarray, typical: float = np.nan, **where) -> dict:
    """One comparison's readings (lower is better), before Holm; each side's stuck seeds against `typical` (NaN: not
    counted)."""
    found = robust.ahead(a, b)
    median, lo, hi = robust.median_interval(b - a)
    counted = not np.isnan(typical)
    return {
        **where, "n": found.n, "wins": found.wins, "losses": found.losses, "ties": found.ties, "share": found.share,
        "share_lo": found.lo, "share_hi": found.hi, "p": found.p, "median": median, "median_lo": lo, "median_hi": hi,
        "left_stuck": robust.stuck(a, typical) if counted else np.nan,
        "right_stuck": robust.stuck(b, typical) if counted else np.nan, "_ahead": found,
    }


def _named_finals(table: pd.DataFrame) -> pd.DataFrame:
    """The final-budget rows of the metrics the rule reads, each with its `setting` as the claims engine names it
    within its experiment (`member_names`)."""
    finals = table[(table["budget"] == table["final_budget"]) & table["metric"].isin(robust.rule()["metrics"])]
    named = [member_names(group) for _, group in finals.groupby("experiment")]
    empty = pd.Series(index=finals.index, dtype=str)
    return finals.assign(setting=pd.concat(named).reindex(finals.index) if named else empty)


def _typical(finals: pd.DataFrame) -> dict[tuple[str, str], float]:
    """(experiment, problem) -> the typical value of named final rows (`typical_value`, a setting counting once)."""
    return {key: typical_value(rows.assign(member=rows["setting"]))
            for key, rows in finals.groupby(["experiment", "problem"])}


def typical_values(table: pd.DataFrame) -> dict[tuple[str, str], float]:
    """(experiment, problem) -> the problem's typical final value over all its seeds, as the claims engine reads it
    (`analysis.claims.comparisons.typical_value`, a setting's median counting once)."""
    return _typical(_named_finals(table))


def _holm(rows: list[dict]) -> list[dict]:
    """The family's Holm p and readings."""
    for row, found in zip(rows, robust.decide([r.pop("_ahead") for r in rows])):
        row.update(p_holm=found.p_holm, reading=found.reading)
    return rows


def claim_rows(claim: Claim, table: pd.DataFrame, looks: dict[str, tuple[int, ...]]) -> list[dict]:
    """The claim's comparisons of a lower-is-better metric the rule reads, on the seeds its verdicts used; stuck
    seeds counted where both sides are at their final budgets."""
    if claim.quantity != ("value", "value"):
        return []
    found = checked(claim, table, looks)
    if found is None:
        return []
    data, planned = found.data, looks.get(claim.experiment)
    rank = data["seed"].rank(method="dense")
    typical = typical_values(table)
    rows = []
    for c in found.compared:
        problem = c.unit[0]
        on_problem = data[data["problem"] == problem]
        if c.stat.verdict == NOT_COMPARABLE or not set(on_problem["metric"]) <= set(robust.rule()["metrics"]):
            continue
        if planned and c.look is not None:
            on_problem = on_problem[rank[on_problem.index] <= planned[c.look - 1]]
        pair = sides(on_problem, c.stat.left, c.stat.right, claim.quantity, claim.basis)
        finals = all(
            budget == int(on_problem.loc[on_problem["member"] == member, "final_budget"].min())
            for member, budget in zip((c.stat.left, c.stat.right), c.budgets)
        )
        rows.append(_row(
            pair.a.to_numpy(), pair.b.to_numpy(), typical.get((claim.experiment, problem), np.nan) if finals else np.nan,
            kind="claim", number=number(claim.name), name=claim.name,
            experiment=claim.experiment, problem=problem, left=c.stat.left, right=c.stat.right, budget=c.budget,
            iteration=np.nan, status=status(claim.experiment, problem),
        ))
    return _holm(rows)


def horizon_rows(along: pd.DataFrame, iterations: pd.DataFrame) -> list[dict]:
    """Claims 1 and 7 along the horizon: each checkpoint's B3O-against-TS comparisons, one family per checkpoint, on
    the seeds of the look the horizon table decided each at (its first `seeds_at_look` shared seeds)."""
    decided = along.dropna(subset=["look"])
    out = []
    for t, at_t in decided.groupby("iteration"):
        rows = []
        for r in at_t.itertuples():
            on = iterations[
                (iterations["experiment"] == r.experiment) & (iterations["problem"] == r.problem)
                & (iterations["iteration"] == t)
            ]
            ours = on[on["label"] == r.label].set_index("seed")["value"]
            theirs = on[on["label"] == RIVAL].set_index("seed")["value"]
            seeds = ours.index.intersection(theirs.index).sort_values()[: int(r.seeds_at_look)]
            rows.append(_row(
                ours[seeds].to_numpy(), theirs[seeds].to_numpy(), kind="horizon", number=np.nan, name="",
                experiment=r.experiment, problem=r.problem, left=r.label, right=RIVAL, budget=np.nan, iteration=int(t),
                status=status(r.experiment, r.problem),
            ))
        out += _holm(rows)
    return out


STUCK_COLUMNS = ["experiment", "problem", "label", "setting", "n", "median", "typical", "k", "stuck", "worst", "status"]


def stuck_table(table: pd.DataFrame) -> pd.DataFrame:
    """Per setting of a metric the rule reads (experiment, problem, label and `setting`, its name as the claims give
    it: the label with the λ, sampler or temperature that tell its settings apart), at its final budget over all its
    seeds: n, its median, the problem's typical value, the stuck seeds and the worst value."""
    finals = _named_finals(table)
    typical = _typical(finals)
    rows = [
        {"experiment": e, "problem": p, "label": label, "setting": setting, "n": len(g),
         "median": float(g["value"].median()), "typical": typical[e, p], "k": robust.stuck_factor(),
         "stuck": robust.stuck(g["value"].to_numpy(), typical[e, p]), "worst": float(g["value"].max()),
         "status": status(e, p)}
        for (e, p, label, setting), g in finals.groupby(["experiment", "problem", "label", "setting"])
    ]
    return pd.DataFrame(rows, columns=STUCK_COLUMNS)


def readings(
    table: pd.DataFrame, looks: dict[str, tuple[int, ...]],
    along: pd.DataFrame | None = None, iterations: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Every reading of a run: its claims' comparisons, then (given the horizon table) along the horizon."""
    rows = [row for claim in CATALOGUE for row in claim_rows(claim, table, looks)]
    if along is not None and iterations is not None:
        rows += horizon_rows(along, iterations)
    return pd.DataFrame(rows, columns=COLUMNS)


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m analysis.tables.robust", description=__doc__.splitlines()[0])
    cli.add_argument("--table", required=True, help="the run's per-trial table (CSV, analysis.data.per_trial)")
    cli.add_argument("--config", help="the run's config, for its planned looks (none: every claim in one look)")
    cli.add_argument("--horizon", help="the run's horizon table (horizon_along.csv): also read claims 1 and 7 along t")
    cli.add_argument("--per-iteration", help="the run's per-iteration table (needed with --horizon)")
    cli.add_argument("--out", required=True, help="output prefix: writes OUT.csv and OUT_stuck.csv")
    args = cli.parse_args(argv)
    if bool(args.horizon) != bool(args.per_iteration):
        print("error: --horizon and --per-iteration go together", file=sys.stderr)
        return 2
    looks = config_looks(args.config)
    table = per_trial.load(args.table)
    along = pd.read_csv(args.horizon) if args.horizon else None
    iterations = per_iteration.read(args.per_iteration) if args.per_iteration else None
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    readings(table, looks, along, iterations).to_csv(f"{args.out}.csv", index=False)
    stuck_table(table).to_csv(f"{args.out}_stuck.csv", index=False)
    print(f"wrote {args.out}.csv and {args.out}_stuck.csv")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
