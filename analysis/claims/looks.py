"""One planned look of an experiment whose seeds come in looks (`seeds: {start, step, max}`): which settings still
need seeds.

    python -m analysis.claims.looks --rows ROWS.json --experiment E --looks 10,15,20 --look K --out LOOK.json

ROWS holds the grid rows (`analysis.data.tidy.GRID_COLUMNS`, with each record's path) of the experiment's trials run so
far. The experiment's claims are decided through looks 1..K (`analysis.claims.checking.compared`); every trial of a
method that takes part in a comparison still open is listed under "open", and the workflow gives those settings the
next look's seeds (`workflow/rules/common.smk`). The comparisons a config declares (`compare:`,
`analysis.claims.declared`; `--compare`, the experiment's list as JSON) count as claims of their experiment. Where the experiment is the λ ablation, Table 2's cells count too:
while its verdict is open, all of the ablation's settings stay open. Where the experiment is the fresh-seed
confirmation's (`analysis.statistics.confirmation`), its directional readings still open keep their variant and the
rival open on their problem. A setting in no claim or reading stops at the first look.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from analysis.claims import checking, declared
from analysis.claims.catalogue import CATALOGUE
from analysis.claims.claim import Claim
from analysis.data import per_trial
from analysis.data.tidy import grid_frame, load_records, tidy_table
from analysis.statistics import confirmation
from analysis.statistics.verdicts import FEW, INCONCLUSIVE


def open_trials(
    table: pd.DataFrame, experiment: str, looks: tuple[int, ...], look: int, claims: Sequence[Claim] = CATALOGUE
) -> tuple[list[str], int, int]:
    """(trial ids of the methods in comparisons still open after look `look` of the plan `looks`, comparisons open,
    decided). Each look is tested at its level in the whole plan, as the claims are: a plan cut at this look would
    spend α faster and call decided what the claims table later calls open."""
    plan = {experiment: looks}
    seeds = sorted(table.loc[table["experiment"] == experiment, "seed"].unique())[: looks[look - 1]]
    table = table[table["seed"].isin(seeds) | (table["experiment"] != experiment)]
    trials: set[str] = set()
    open_count = decided = 0
    for claim in (c for c in claims if c.experiment == experiment):
        found = checking.compared(claim, table, plan)
        if found is None:
            continue
        for c in found.compared:
            if c.stat.verdict not in (INCONCLUSIVE, FEW):
                decided += 1
                continue
            open_count += 1
            names = {c.stat.left.split(" [")[0], c.stat.right.split(" [")[0]}  # quantity claims: "TS [diversity_last]"
            rows = found.data[(found.data["problem"] == c.unit[0]) & found.data["member"].isin(names)]
            trials.update(rows["trial_id"])
    if experiment == "lambda_ablation":
        table_2 = checking.table_2_reproduced(table, plan)
        if table_2.verdict.startswith(INCONCLUSIVE):
            open_count += 1
            trials.update(table.loc[table["experiment"] == experiment, "trial_id"])
    confirming = confirmation.plan_for(experiment)
    if confirming is not None:
        readings = confirmation.decide(table, confirming, through=look)
        directional = readings[readings["expect"] != "none"]
        open_count += int((directional["status"] != confirmation.REPLICATED).sum())
        decided += int((directional["status"] == confirmation.REPLICATED).sum())
        rows = table[table["experiment"] == experiment]
        for problem, labels in confirmation.open_labels(readings).items():
            trials.update(rows.loc[(rows["problem"] == problem) & rows["label"].isin(labels), "trial_id"])
    return sorted(trials), open_count, decided


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m analysis.claims.looks", description=__doc__.splitlines()[0])
    cli.add_argument("--rows", required=True, help="the experiment's grid rows so far (JSON list, or a JSON file)")
    cli.add_argument("--experiment", required=True)
    cli.add_argument("--looks", required=True, help="the planned seed counts, e.g. 10,15,20")
    cli.add_argument("--look", type=int, required=True, help="this look (1-based)")
    cli.add_argument("--out", required=True)
    cli.add_argument("--compare", default="[]", help="the experiment's declared comparisons (`compare:`) as JSON")
    args = cli.parse_args(argv)
    try:
        looks = tuple(int(n) for n in args.looks.split(","))
        if not 1 <= args.look <= len(looks):
            raise ValueError(f"--look must lie in 1..{len(looks)}, got {args.look}")
        text = args.rows if args.rows.lstrip().startswith("[") else Path(args.rows).read_text()
        grid = grid_frame(pd.DataFrame(json.loads(text)))
        table = per_trial.per_trial(tidy_table(grid, load_records(grid, Path("."))))
        experiments = {args.experiment: {"compare": json.loads(args.compare)}}
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    claims = [*CATALOGUE, *declared.families(declared.declared(experiments)).values()]
    trials, open_count, decided = open_trials(table, args.experiment, looks, args.look, claims)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(
        json.dumps(
            {"experiment": args.experiment, "look": args.look, "seeds": looks[args.look - 1], "open": trials,
             "comparisons_open": open_count, "comparisons_decided": decided},
            indent=1,
        )
    )
    print(f"look {args.look} of {args.experiment}: {open_count} comparison(s) open, {decided} decided")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
