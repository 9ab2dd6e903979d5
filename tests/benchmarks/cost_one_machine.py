"""The default fit's cost form on one machine's whole trials: was the committed model's error at M = 500 in the form,
or in what it was fitted to?

The model committed before this refit (`--base`, then `paper/tables/cost_model.csv`) fitted the default SVGP fit's
constants to the default run's records (M = 64, one machine), a probe of one L-BFGS step at M = 500 and timed fits
(benchmarks of another run), each counted at its step cap; it over-predicted the default fit's trials at M = 500 by half
or more (the paper-scale trial, +52 %; the M = 500 check, +79 %). The refit's constants are the committed ones now
(docs/performance.md: the rule they passed), so rerunning this against today's committed model compares it with itself:
give `--base` the earlier one (`git show 76f9de0^:paper/tables/cost_model.csv > earlier.csv`). Here the fit part alone
is fitted anew (`bench.cost.with_fit_refitted`) to the whole trials of one machine (`--platform`), counting the
steps each fit took (`bench.cost.fit_steps`), and checked on trials of the same machine it was not fitted to: per
setting, the trials' measured fit CPU minutes against what the refitted part and the committed one predict from the spec
alone (at the step cap, as any prediction must).

    python tests/benchmarks/cost_one_machine.py --records RUNS/collapsed_fit_m500/trials/*.json \
        RUNS/large_batch/trials/*.json tests/benchmarks/paper_scale/b3o-logei-c.record.json \
        --platform 706d41478777 --finished-before 2026-11-29T17:30:00+00:00 \
        --fitted-seeds 400-409,310-314 --holdout-seeds 410-419,315-319,0 \
        --model-out paper/tables/cost_model_one_machine.csv --out paper/tables/cost_one_machine.csv

(`b3o restore` brings the archived records back.) Only records of that platform, finished before that time, with CPU
seconds and the default fit enter; Random's trials have no fit. The refitted model (`--model-out`: the committed
model with only the default fit's constants replaced) can then be checked on a later run it never saw, as any committed model is: `b3o cost-model
--results RESULTS --model paper/tables/cost_model_one_machine.csv --per-setting --validation FILE`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path

import pandas as pd

from bench.cost import CostModel, fit_key, has_cpu_parts, observations, with_fit_refitted
from bench.records import load_record


def seed_set(text: str) -> set[int]:
    """"400-409,0" -> {400, ..., 409, 0}."""
    seeds: set[int] = set()
    for part in filter(None, text.split(",")):
        low, _, high = part.partition("-")
        seeds |= set(range(int(low), int(high or low) + 1))
    return seeds


def usable(paths: Iterable[str], platform: str, before: str) -> list[dict]:
    """The records among `paths` made on `platform` and finished before `before` (an ISO time in UTC), with CPU
    seconds and the default fit, each trial once."""
    found: dict[str, dict] = {}
    for path in paths:
        record, _ = load_record(Path(path))
        provenance = (record or {}).get("provenance") or {}
        if record is None or provenance.get("platform_id") != platform:
            continue
        if datetime.fromisoformat(provenance["finished_utc"]) >= datetime.fromisoformat(before):
            continue
        if has_cpu_parts(record) and fit_key(record["spec"].get("model") or {}) == "svgp":
            found.setdefault(record["trial_id"], record)
    return list(found.values())


def setting(spec: dict) -> str:
    model = spec.get("model") or {}
    return (f"{spec['method']} on {spec['problem']}, B = {spec['batch_size']}, T = {spec['iterations']}, "
            f"M = {model.get('num_inducing', 500)}")


def unpriced(records: list[dict], model: CostModel) -> list[str]:
    """The records `model` cannot predict, each with what it lacks: the check compares against its prediction."""
    return [f"{r['trial_id']} ({setting(r['spec'])}): {', '.join(missing)}"
            for r in records if (missing := model.missing(r["spec"]))]


def check(records: list[dict], sample: str, refitted: CostModel, committed: CostModel) -> pd.DataFrame:
    """Per setting: the trials' measured fit CPU minutes and each model's prediction of them."""
    rows = []
    for record in records:
        measured = sum(step["fit_cpu_s"] for step in record["trace"][1:])
        if measured <= 0.0:  # a method without a model (Random)
            continue
        rows.append({"sample": sample, "setting": setting(record["spec"]), "measured": measured,
                     "refitted": refitted.predict(record["spec"]).fit, "committed": committed.predict(record["spec"]).fit})
    frame = pd.DataFrame(rows)
    every = frame.assign(setting=f"all {sample}")
    table = pd.concat([frame, every]).groupby(["sample", "setting"], sort=False).agg(
        trials=("measured", "size"), measured_fit_min=("measured", "sum"), refitted_fit_min=("refitted", "sum"),
        committed_fit_min=("committed", "sum")).reset_index()
    table[["measured_fit_min", "refitted_fit_min", "committed_fit_min"]] /= 60.0
    return table.assign(refitted_error=table["refitted_fit_min"] / table["measured_fit_min"] - 1.0,
                        committed_error=table["committed_fit_min"] / table["measured_fit_min"] - 1.0)


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("--records", nargs="+", required=True, help="record files (any run's; filtered here)")
    cli.add_argument("--platform", required=True, help="the one machine's platform id (`b3o platform`)")
    cli.add_argument("--fitted-seeds", required=True, type=seed_set, help="seeds fitted to, e.g. 400-409,310-314")
    cli.add_argument("--holdout-seeds", required=True, type=seed_set, help="seeds checked only")
    cli.add_argument("--finished-before", required=True,
                     help="only records finished before this UTC time (ISO, e.g. 2026-11-29T17:30:00+00:00): the same "
                     "records however many trials of a run going on have finished since")
    cli.add_argument("--base", default="paper/tables/cost_model.csv", help="the committed model")
    cli.add_argument("--model-out", required=True, help="the committed model with the default fit refitted (CSV)")
    cli.add_argument("--out", required=True, help="the check per setting (CSV)")
    args = cli.parse_args(argv)
    if args.fitted_seeds & args.holdout_seeds:
        print(f"error: seeds both fitted and held out: {sorted(args.fitted_seeds & args.holdout_seeds)}", file=sys.stderr)
        return 2
    records = usable(args.records, args.platform, args.finished_before)
    fitted = [r for r in records if r["spec"]["seed"] in args.fitted_seeds]
    held = [r for r in records if r["spec"]["seed"] in args.holdout_seeds]
    if not fitted or not held:
        print(f"error: {len(fitted)} record(s) to fit and {len(held)} to check on platform {args.platform}",
              file=sys.stderr)
        return 2
    committed = CostModel.read(args.base)
    if lacking := unpriced(records, committed):
        print(f"error: {args.base} cannot predict {len(lacking)} record(s), e.g. {lacking[0]}", file=sys.stderr)
        return 2
    refitted = with_fit_refitted(committed, observations(fitted))
    table = pd.concat([check(fitted, "fitted", refitted, committed), check(held, "held out", refitted, committed)])
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    refitted.table.to_csv(args.model_out, index=False)
    table.assign(platform=args.platform).to_csv(args.out, index=False)
    print(table.to_string(index=False, float_format=lambda v: f"{v:,.3g}"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
