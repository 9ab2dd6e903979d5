"""`b3o estimate`: what a config's run will cost, before it starts. The model is `bench.cost`; fitting and checking
it on a run's records is `b3o cost-model` (`bench.cost_command`).

`b3o estimate --configfile CONFIG` prints per experiment its trials, predicted core-hours and longest trial, and every
setting whose trials are predicted to run past one slot (`--limit`, minutes; the config's `slot_minutes`, by default
`DEFAULT_LIMIT_MIN`), with the slots each needs: the workflow asks for at most one slot per job and resubmits a job
that runs out of time, its trials resuming from their checkpoints (`slots`), so a long trial spans several slots with
the record of an uninterrupted run. Trials the model cannot predict (a method, sampler or problem no run has
measured) are counted and named, never guessed. An experiment whose seeds run in planned looks is priced per look too
(every look in full: an upper bound, as later looks run only the comparisons still open). With `--results` of a run
going on, the trials that have a finished record there are left out, and so are a later look's trials of the settings
a look the run has made closed (its checkpoint, `RESULTS/looks/`): what is left of the run.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Mapping
from itertools import pairwise
from pathlib import Path
from typing import Any

import pandas as pd
import yaml

from bench.cost import CostModel
from bench.grid import look_blocks, look_plan, seed_looks, sequential_experiments, setting, trial_grid
from bench.model_spec import FITS, svgp_fit

#: the package's committed tables (the published run's), found from the package, not the current directory: a study
#: estimated from its own directory uses the package's cost model
PACKAGE_TABLES = Path(__file__).resolve().parents[1] / "paper" / "tables"
COST_MODEL = PACKAGE_TABLES / "cost_model.csv"
#: a study's own model, under its results: the package's extended with the parts its pilot measured (`--pilot`)
PILOT_MODEL = "cost_model.csv"
#: a trial job's slot per trial without a prediction (`workflow/rules/common.smk`), in minutes
DEFAULT_LIMIT_MIN = 240
#: a pilot trial's iterations (at most its setting's): enough points for the fit's and acquire step's growth with N
PILOT_ITERATIONS = 3
#: a trial process's memory besides its surrogate's matrices (the interpreter, TensorFlow, gpflow, trieste, the
#: trace), in MB: a generous bound on the `peak_rss_mb` records keep for trials whose matrices are small
PROCESS_MB = 1500
#: copies of the largest kernel matrix a fit holds at once (the matrix, its Cholesky factor, their gradients)
KERNEL_COPIES = 4
#: a prediction times this is the slot a trial job asks for
SAFETY = 2.0
#: resubmissions a job longer than one slot gets besides those its slots need (a node failure, a slow node), as the
#: SLURM profile's `retries` gives every other job
SPARE_RETRIES = 2


def slots(predicted_min: float, slot_min: float) -> tuple[int, int | None]:
    """(runtime to ask for, retries) of a trial job predicted to need `predicted_min` minutes: SAFETY times the
    prediction (at least 10 min) in one go when that fits one slot, with the profile's retries (None); otherwise one
    slot per attempt and a resubmission per further slot, plus SPARE_RETRIES. Each attempt resumes its trials from
    their checkpoints, so the records are those of an uninterrupted run."""
    wanted = max(10, math.ceil(SAFETY * predicted_min))
    if wanted <= slot_min:
        return wanted, None
    return int(slot_min), math.ceil(wanted / slot_min) - 1 + SPARE_RETRIES


def cost_model_path(config: Mapping[str, Any]) -> Path:
    """The cost model a config's run is priced with: its pilot's (`RESULTS/cost_model.csv`, `b3o estimate --pilot`)
    where it has one, else the package's."""
    own = Path(str(config.get("results", ""))) / PILOT_MODEL
    return own if config.get("results") and own.is_file() else COST_MODEL


def memory_mb(spec: Mapping[str, Any], uses_model: bool = True) -> int:
    """The memory (MB) to ask for a trial: the process's, and SAFETY times `KERNEL_COPIES` of its largest kernel matrix
    (N x N for an exact GP, N x M for an SVGP, N = n_init + B T: `bench.spec.MAX_KERNEL_BYTES` bounds the same
    matrix), none for a method without a surrogate."""
    model = spec.get("model") or {}
    total = int(spec["n_init"]) + int(spec["batch_size"]) * int(spec["iterations"])
    columns = {"gpr": total, "svgp": int(model.get("num_inducing", 500))}.get(model.get("kind"), total)
    matrices = SAFETY * KERNEL_COPIES * 8 * total * columns / 2**20 if uses_model else 0.0
    return math.ceil(PROCESS_MB + matrices)


def register(subparsers: argparse._SubParsersAction) -> None:
    estimate = subparsers.add_parser("estimate", help="predict a config's cost per experiment before running it")
    estimate.add_argument("--configfile", required=True, help="a workflow config (YAML)")
    estimate.add_argument("--cost-model", help="fitted cost model (b3o cost-model; default: the study's pilot's, "
                          "RESULTS/cost_model.csv, else the package's)")
    estimate.add_argument("--limit", type=float, help="one slot, minutes (default: the config's slot_minutes, else "
                          f"{DEFAULT_LIMIT_MIN})")
    estimate.add_argument("--fit", choices=FITS, help="predict every SVGP fitted this way, whatever the config says: "
                          "what adopting a fit would cost")
    estimate.add_argument("--out", help="also write the per-experiment table (CSV), with the fit and the clock")
    estimate.add_argument("--pilot", action="store_true", help="first run a short trial (a few iterations, one seed) "
                          "of the settings the cost model cannot predict (your own method or problem), fit the parts "
                          "it lacks to them and keep the package's model so extended as the study's "
                          f"(RESULTS/{PILOT_MODEL}), which the workflow then sizes its jobs by")
    estimate.add_argument("--results", help="a run's results directory: price only the trials without a finished "
                          "record in its trials/ (what is left of a run going on; an unfinished trial counts whole)")
    estimate.set_defaults(func=_estimate)


def _estimate(args: argparse.Namespace) -> int:
    try:
        config = yaml.safe_load(Path(args.configfile).read_text())
        model = CostModel.read(args.cost_model or cost_model_path(config))
        grid = trial_grid(config)
        if args.results and not Path(args.results).is_dir():
            raise ValueError(f"--results {args.results} is not a directory")
        if args.pilot:
            model = pilot(config, grid, model)
    except (OSError, ValueError, yaml.YAMLError) as error:
        print(f"b3o estimate: error: {error}", file=sys.stderr)
        return 2
    limit = args.limit or config.get("slot_minutes", DEFAULT_LIMIT_MIN)
    costs = trial_costs(grid, model, args.fit, config)
    decided = False
    if args.results:
        finished = finished_trials(Path(args.results), set(costs["trial_id"]))
        print(f"{args.results}: {len(finished)} of the config's {costs['trial_id'].nunique()} trials have finished "
              "records; priced below is what is left")
        every, costs = costs, costs[~costs["trial_id"].isin(finished)]
        try:
            closed = closed_by_looks(Path(args.results), config, grid)
        except (OSError, ValueError, KeyError) as error:
            print(f"b3o estimate: error: a look of {args.results} cannot be read: {error}", file=sys.stderr)
            return 2
        for experiment, k, trials in closed:
            dropped = (costs["experiment"] == experiment) & costs["trial_id"].isin(trials)
            if dropped.any():
                print(f"{experiment}: left out {int(dropped.sum())} trial(s) of later looks, of the settings look {k} "
                      "closed")
            costs = costs[~dropped]
        decided = bool(closed)
        done = realised(every, finished, model.clock)
        if len(done):
            measured, expected = done["measured"].sum(), done["predicted"].sum()
            print(f"its {int(done['trials'].sum())} finished trial(s) the model prices took {measured / 60:,.2f} "
                  f"core-hours against {expected / 60:,.2f} predicted ({measured / expected - 1:+.0%}); what is left, "
                  f"each setting scaled by what its finished trials took: {scaled_left(costs, done) / 60:,.2f} "
                  "core-hours")
    per, flagged = estimate_table(costs, limit)
    if note := busy_note(os.getloadavg()[0], _cores()):
        print(note)
    print(estimate_text(per, flagged, model, limit, args.fit))
    if costs["look"].notna().any():
        print("per planned look (in full after a look not yet made):" if decided else "per planned look (each in full):")
        print(look_table(costs).to_string(index=False, float_format=lambda v: f"{v:,.2f}"))
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        per.assign(config=Path(args.configfile).name, fit=args.fit or "as configured", clock=model.clock).to_csv(
            args.out, index=False)
        print(f"wrote {args.out}")
    return 0


def pilot_specs(grid: list, model: CostModel) -> list[dict]:
    """One short spec per setting the model cannot predict, as few as cover every part it lacks: the setting at its
    first seed, `PILOT_ITERATIONS` iterations at most."""
    lacking: set[str] = set()
    chosen = []
    for row in grid:
        spec = row.spec.to_dict()
        new = set(model.missing(spec)) - lacking
        if new:
            lacking |= new
            chosen.append({**spec, "iterations": min(spec["iterations"], PILOT_ITERATIONS)})
    return chosen


def pilot(config: Mapping[str, Any], grid: list, model: CostModel) -> CostModel:
    """`model` extended with the parts it lacks for `config`'s trials, fitted to pilot trials (`pilot_specs`) run here
    (`b3o run-trials`, this directory on its PYTHONPATH as in `b3o study`), their records kept under
    RESULTS/pilot/; the result is written to RESULTS/cost_model.csv (`cost_model_path`). A method's start-up is mostly
    the imports every method shares, and a study's job shares it among its trials, so a new method takes the package
    methods' median start-up rather than its one pilot trial's whole one."""
    import subprocess

    from bench.cost import extended, fit, observations
    from bench.records import load_record

    specs = pilot_specs(grid, model)
    results = Path(str(config["results"]))
    target = results / PILOT_MODEL
    if not specs:
        print(f"pilot: the cost model predicts every trial; nothing to measure ({target} not written)")
        return model
    print(f"pilot: {len(specs)} short trial(s) for what the cost model lacks: "
          + ", ".join(sorted({need for spec in specs for need in model.missing(spec)})), flush=True)
    from bench.spec import TrialSpec

    outs = [results / "pilot" / "trials" / f"{TrialSpec.from_dict(spec).trial_id}.json" for spec in specs]
    here = Path.cwd()
    path = os.pathsep.join([str(here), *filter(None, [os.environ.get("PYTHONPATH")])])
    trials = json.dumps([{"spec": spec, "out": str(out)} for spec, out in zip(specs, outs)])
    done = subprocess.run([sys.executable, "-m", "bench.cli", "run-trials", "--trials", trials],
                          env={**os.environ, "PYTHONPATH": path}, capture_output=True, text=True)
    if done.returncode != 0:
        last = done.stderr.strip().splitlines()[-3:]
        raise ValueError("a pilot trial failed: " + " / ".join(last))
    records = [record for record in (load_record(out)[0] for out in outs) if record is not None]
    measured = fit(observations(records, model.clock))
    startup = float(model.table.loc[model.table["part"] == "startup", "value"].median())
    table = measured.table.copy()
    table.loc[table["part"] == "startup", "value"] = startup
    extended_model = extended(model, CostModel(table))
    target.parent.mkdir(parents=True, exist_ok=True)
    extended_model.table.to_csv(target, index=False)
    print(f"pilot: wrote {target} (the package's model and what the pilot measured)")
    return extended_model


def refitted(spec: dict, fit: str | None) -> dict:
    """`spec` with its SVGP fitted by `fit` (None: as it is); other models are left as they are."""
    model = spec.get("model") or {}
    if fit is None or svgp_fit(model) is None:
        return spec
    return {**spec, "model": {**model, "fit": fit}}


def trial_costs(grid: list, model: CostModel, fit: str | None = None,
                config: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """One row per grid row: its experiment, setting, seed, trial id, predicted minutes (NaN where the model lacks a
    part, named in `missing`) and, for an experiment of `config` planned in looks, its look (`look_label`); every
    SVGP fitted by `fit` if given (`refitted`)."""
    rows = []
    for row in grid:
        spec = refitted(row.spec.to_dict(), fit)
        cost = model.predict(spec)
        rows.append({"experiment": row.experiment, "label": row.label, "problem": spec["problem"],
                     "seed": spec["seed"], "trial_id": row.spec.trial_id,
                     "minutes": math.nan if cost is None else cost.total / 60,
                     "missing": "; ".join(model.missing(spec)),
                     "look": look_label(config or {}, row.experiment, spec["seed"])})
    columns = ["experiment", "label", "problem", "seed", "trial_id", "minutes", "missing", "look"]
    return pd.DataFrame(rows, columns=columns)


def _summary(minutes: pd.api.typing.SeriesGroupBy) -> pd.DataFrame:
    """Per group of predicted minutes: trials, core-hours of those predicted (NaN where none is), the longest trial
    and how many are not predicted."""
    return minutes.agg(trials="size", core_hours=lambda m: m.sum(min_count=1) / 60, longest_min="max",
                       not_predicted=lambda m: int(m.isna().sum()))


def estimate_table(costs: pd.DataFrame, limit_min: float) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(per experiment: trials, predicted core-hours, longest trial, unpredicted trials; the settings over the
    limit) of `trial_costs`' rows. A trial listed by several experiments counts in each, and once in the total."""
    per = _summary(costs.groupby("experiment", sort=False)["minutes"])
    unique = costs.drop_duplicates("trial_id")["minutes"]
    per.loc["all (each trial once)"] = [len(unique), unique.sum(min_count=1) / 60, unique.max(), int(unique.isna().sum())]
    over = costs[SAFETY * costs["minutes"] > limit_min].groupby(["experiment", "label", "problem"], sort=False)
    flagged = pd.DataFrame(
        [{"experiment": e, "label": label, "problem": p, "trials": len(m), "predicted_min": m.max(),
          "slots": math.ceil(SAFETY * m.max() / limit_min)} for (e, label, p), m in over["minutes"]]
    )
    per["trials"] = per["trials"].astype(int)
    per["not_predicted"] = per["not_predicted"].astype(int)
    per.attrs["missing"] = sorted({item for text in costs["missing"] if text for item in text.split("; ")})
    return per.rename_axis("experiment").reset_index(), flagged


def look_table(costs: pd.DataFrame) -> pd.DataFrame:
    """Per planned look of `trial_costs`' rows (those with a look): trials, core-hours, longest trial, unpredicted."""
    planned = costs.dropna(subset=["look"])
    table = _summary(planned.groupby("look", sort=False)["minutes"]).rename_axis("look").reset_index()
    return table.astype({"trials": int, "not_predicted": int})


def closed_by_looks(results: Path, config: Mapping[str, Any], grid: list) -> list[tuple[str, int, set[str]]]:
    """(experiment, k, the trials of its later looks that look k closed) for each planned look k a run in `results`
    has made (`RESULTS/looks/EXPERIMENT/PLAN/lookK.json`, under the plan `bench.grid.look_plan` names): the
    workflow gives a later look's seeds only to the settings still open at the look before it, so the trials of the
    others will never run. A look not yet made leaves every later trial in."""
    blocks = look_blocks(dict(config), grid)
    closed = []
    for experiment, looks in sequential_experiments(dict(config)).items():
        plan = results / "looks" / experiment / look_plan(dict(config), grid, experiment)
        rows = [row for row in grid if row.experiment == experiment]
        for k in range(1, len(looks)):
            path = plan / f"look{k}.json"
            if not path.is_file():
                break
            open_ids = set(json.loads(path.read_text())["open"])
            still_open = {setting(row.spec) for row in rows if row.spec.trial_id in open_ids}
            later = {row.spec.trial_id for row in rows if dict(blocks[row.spec.trial_id])[experiment] > k
                     and setting(row.spec) not in still_open}
            closed.append((experiment, k, later))
    return closed


def finished_trials(results: Path, trial_ids: set[str]) -> dict[str, dict]:
    """The finished records in `results`/trials of the trials among `trial_ids`, by trial id."""
    from bench.records import load_record

    paths = {t: results / "trials" / f"{t}.json" for t in trial_ids}
    records = {t: load_record(path)[0] for t, path in paths.items() if path.is_file()}
    return {t: record for t, record in records.items() if record is not None}


def busy_note(load: float, cores: int) -> str | None:
    """A word when this machine is busier than its cores (`load`, the 1-minute load average): the prices are for a
    core of its own, and trials (a pilot's among them) run here while it stays so take more CPU seconds than that, as
    TensorFlow's threads contend for the cores."""
    if load <= cores:
        return None
    return (f"note: this machine is busy (load {load:.1f} on {cores} core(s)): the prices are CPU seconds on a core of "
            "its own, and trials run here while it stays this busy take more (TensorFlow's threads contend for the "
            "cores); a --pilot run now is measured under that load, so run it again on a quiet machine")


def _cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def realised(costs: pd.DataFrame, finished: Mapping[str, dict], clock: str) -> pd.DataFrame:
    """Per setting (label, problem) of the `finished` trials' records (`finished_trials`) that `costs`
    (`trial_costs`) predicts and that have `clock`'s seconds: their number and measured and predicted minutes, what a
    run going on has cost so far against what the model said (on whatever machine made each record)."""
    from bench.cost import has_cpu_parts, measured_seconds

    rows = []
    for row in costs.drop_duplicates("trial_id").dropna(subset=["minutes"]).itertuples():
        record = finished.get(row.trial_id)
        if record is not None and (clock != "cpu" or has_cpu_parts(record)):
            rows.append({"label": row.label, "problem": row.problem, "measured": measured_seconds(record, clock) / 60,
                         "predicted": row.minutes})
    frame = pd.DataFrame(rows, columns=["label", "problem", "measured", "predicted"])
    return frame.groupby(["label", "problem"]).agg(trials=("measured", "size"), measured=("measured", "sum"),
                                                   predicted=("predicted", "sum"))


def scaled_left(costs: pd.DataFrame, done: pd.DataFrame) -> float:
    """Minutes of what is left (`costs`' rows), each setting's prediction scaled by what its finished trials took
    against theirs (`realised`); the model's own where none has finished."""
    ratio = (done["measured"] / done["predicted"]).astype(float).rename("ratio")
    left = costs.drop_duplicates("trial_id").join(ratio, on=["label", "problem"])
    return float((left["minutes"] * left["ratio"].fillna(1.0)).sum())


def estimate_text(per: pd.DataFrame, flagged: pd.DataFrame, model: CostModel, limit_min: float,
                  fit: str | None = None) -> str:
    """`estimate_table`'s tables as `b3o estimate` prints them."""
    clock = "CPU seconds on a core of its own" if model.clock == "cpu" else "wall seconds on a shared machine"
    refit = f", every SVGP with the {fit} fit" if fit else ""
    lines = [f"predicted from {clock}{refit}", per.to_string(index=False, float_format=lambda v: f"{v:,.2f}")]
    if model.wall_fitted:
        lines.append("fitted to wall seconds for want of CPU seconds (upper bounds): " + ", ".join(model.wall_fitted))
    unpriced, trials = int(per["not_predicted"].iloc[-1]), int(per["trials"].iloc[-1])
    if per.attrs["missing"]:
        lines.append(f"{unpriced} of {trials} trials not predicted: the cost model has no measurements of "
                     + ", ".join(per.attrs["missing"])
                     + " (`--pilot` measures each in one short trial, then prices every trial)")
    if unpriced == trials:
        lines.append("no trial priced, so none is known to fit a slot")
    elif len(flagged):
        lines.append(f"longer than one slot of {limit_min:g} min with the safety factor {SAFETY:g} (each job is "
                     "resubmitted and its trials resume from their checkpoints, one slot at a time):")
        lines.append(flagged.to_string(index=False, float_format=lambda v: f"{v:,.1f}"))
    else:
        lines.append(f"every predicted trial fits one slot of {limit_min:g} min with the safety factor {SAFETY:g}")
    return "\n".join(lines)


def look_label(config: Mapping[str, Any], experiment: str | None, seed: int) -> str | None:
    """"EXPERIMENT, look K (seeds a–b)" for a seed of an experiment of `config` whose seeds run in planned looks (the
    whole plan's boundaries, `bench.grid.seed_looks`); None for a seed of any other."""
    seeds = config.get("experiments", {}).get(experiment, {}).get("seeds")
    if not isinstance(seeds, Mapping):
        return None
    first, bounds = seeds.get("first", 0), (0, *seed_looks(seeds))
    for k, (low, high) in enumerate(pairwise(bounds), start=1):
        if low <= seed - first < high:
            named = f"seeds {first + low}–{first + high - 1}" if high - low > 1 else f"seed {first + low}"
            return f"{experiment}, look {k} ({named})"
    return None
