"""`b3o estimate` (what a config's run will cost, before it starts) and `b3o cost-model` (fit the cost model to a
run's records); the model itself is `baselines.cost`.

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
import sys
from collections.abc import Mapping
from itertools import pairwise
from pathlib import Path
from typing import Any

import pandas as pd
import yaml

from baselines.cost import CLOCKS, CostModel, fit, inducing_points, observations, validate
from baselines.grid import look_blocks, look_plan, seed_looks, sequential_experiments, setting, trial_grid
from baselines.spec import FITS

COST_MODEL = Path("paper/tables/cost_model.csv")
COST_VALIDATION = Path("paper/tables/cost_validation.csv")
#: the validation rows of the records an extension (`b3o cost-model --extend`) was fitted to
EXTENSION = "extension"
#: a trial job's slot per trial without a prediction (`workflow/rules/common.smk`), in minutes
DEFAULT_LIMIT_MIN = 240
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


def register(subparsers: argparse._SubParsersAction) -> None:
    estimate = subparsers.add_parser("estimate", help="predict a config's cost per experiment before running it")
    estimate.add_argument("--configfile", required=True, help="a workflow config (YAML)")
    estimate.add_argument("--cost-model", default=str(COST_MODEL), help="fitted cost model (b3o cost-model)")
    estimate.add_argument("--limit", type=float, help="one slot, minutes (default: the config's slot_minutes, else "
                          f"{DEFAULT_LIMIT_MIN})")
    estimate.add_argument("--fit", choices=FITS, help="predict every SVGP fitted this way, whatever the config says: "
                          "what adopting a fit would cost")
    estimate.add_argument("--out", help="also write the per-experiment table (CSV), with the fit and the clock")
    estimate.add_argument("--results", help="a run's results directory: price only the trials without a finished "
                          "record in its trials/ (what is left of a run going on; an unfinished trial counts whole)")
    estimate.set_defaults(func=_estimate)
    model = subparsers.add_parser("cost-model", help="fit the cost model to a run's records, with its error")
    model.add_argument("--results", help="a run's results directory (grid.csv and its records); required unless "
                       "--extend")
    model.add_argument("--lbfgs", default="paper/tables/paper_scale_cost.csv", help="L-BFGS steps at M = 500")
    model.add_argument("--scaling", default="paper/tables/scaling.csv", help="batch time against B at M = 500")
    model.add_argument("--fits", default="paper/tables/fit_scaling.csv",
                       help="a trial's default fit timed at several M and N (tests/benchmarks/fit_scaling.py)")
    model.add_argument("--out", default=str(COST_MODEL), help="where to write the model (CSV)")
    model.add_argument("--validation", default=str(COST_VALIDATION), help="where to write its error per experiment")
    model.add_argument(
        "--also", nargs="*", default=[],
        help="record files fitted to besides the run's: timed slices of trials no run of this machine's size makes "
        "(tests/benchmarks/paper_scale/*.record.json), checked under 'slices'; or results directories (their "
        "grid.csv's records), fitted to but not checked: on the CPU clock their wall seconds only fill in the parts "
        "the run's records lack (methods and problems it did not run)",
    )
    model.add_argument(
        "--holdout", nargs="*", default=[],
        help="results directories (their grid.csv's records) or record files the model is not fitted to, checked per "
        "method and size",
    )
    model.add_argument(
        "--model",
        help="check this fitted model (a CSV `b3o cost-model` wrote before the run) on the run's records instead of "
        "fitting one: the out-of-sample test of a model on a later run; its rows ('out of sample') replace those of "
        "an earlier check in --validation, whose other rows stay; --out is not written",
    )
    model.add_argument(
        "--extend",
        help="a fitted model (CSV) to extend: only the parts it lacks are fitted, to the --also records (e.g. a fit "
        "it never measured), and its own constants and checks stay as they are; --holdout rows are replaced",
    )
    model.add_argument(
        "--clock", choices=CLOCKS, default="cpu",
        help="fit CPU seconds (the default; a record without them counts its wall seconds, and the parts fitted only "
        "to those are named) or wall seconds",
    )
    model.add_argument(
        "--per-setting", action="store_true",
        help="with --model: check it per method, problem and size as well as per experiment (where a run's cost "
        "went against where the model put it)",
    )
    model.add_argument(
        "--looks", metavar="CONFIG",
        help="with --model: check it per planned look as well, for each experiment of CONFIG whose seeds run in looks "
        "(what each look of a long run cost against what the model predicted for it)",
    )
    model.set_defaults(func=_cost_model)


def _estimate(args: argparse.Namespace) -> int:
    try:
        config = yaml.safe_load(Path(args.configfile).read_text())
        model = CostModel.read(args.cost_model)
        grid = trial_grid(config)
        if args.results and not Path(args.results).is_dir():
            raise ValueError(f"--results {args.results} is not a directory")
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
        costs = costs[~costs["trial_id"].isin(finished)]
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
    per, flagged = estimate_table(costs, limit)
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


def refitted(spec: dict, fit: str | None) -> dict:
    """`spec` with its SVGP fitted by `fit` (None: as it is); other models are left as they are."""
    model = spec.get("model") or {}
    if fit is None or model.get("kind", "svgp") != "svgp":
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
    """Per group of predicted minutes: trials, core-hours, the longest trial and how many are not predicted."""
    return minutes.agg(trials="size", core_hours=lambda m: m.sum() / 60, longest_min="max",
                       not_predicted=lambda m: int(m.isna().sum()))


def estimate_table(costs: pd.DataFrame, limit_min: float) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(per experiment: trials, predicted core-hours, longest trial, unpredicted trials; the settings over the
    limit) of `trial_costs`' rows. A trial listed by several experiments counts in each, and once in the total."""
    per = _summary(costs.groupby("experiment", sort=False)["minutes"])
    unique = costs.drop_duplicates("trial_id")["minutes"]
    per.loc["all (each trial once)"] = [len(unique), unique.sum() / 60, unique.max(), int(unique.isna().sum())]
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
    has made (`RESULTS/looks/EXPERIMENT/PLAN/lookK.json`, under the plan `baselines.grid.look_plan` names): the
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


def finished_trials(results: Path, trial_ids: set[str]) -> set[str]:
    """The trials among `trial_ids` with a finished record in `results`/trials."""
    from baselines.records import load_record

    paths = {t: results / "trials" / f"{t}.json" for t in trial_ids}
    return {t for t, path in paths.items() if path.is_file() and load_record(path)[0] is not None}


def estimate_text(per: pd.DataFrame, flagged: pd.DataFrame, model: CostModel, limit_min: float,
                  fit: str | None = None) -> str:
    """`estimate_table`'s tables as `b3o estimate` prints them."""
    clock = "CPU seconds on a core of its own" if model.clock == "cpu" else "wall seconds on a shared machine"
    refit = f", every SVGP with the {fit} fit" if fit else ""
    lines = [f"predicted from {clock}{refit}", per.to_string(index=False, float_format=lambda v: f"{v:,.2f}")]
    if model.wall_fitted:
        lines.append("fitted to wall seconds for want of CPU seconds (upper bounds): " + ", ".join(model.wall_fitted))
    if per.attrs["missing"]:
        lines.append("not predicted (the cost model has no measurements of): " + ", ".join(per.attrs["missing"]))
    if len(flagged):
        lines.append(f"longer than one slot of {limit_min:g} min with the safety factor {SAFETY:g} (each job is "
                     "resubmitted and its trials resume from their checkpoints, one slot at a time):")
        lines.append(flagged.to_string(index=False, float_format=lambda v: f"{v:,.1f}"))
    else:
        lines.append(f"every predicted trial fits one slot of {limit_min:g} min with the safety factor {SAFETY:g}")
    return "\n".join(lines)


def _records(results: Path, grid: pd.DataFrame) -> list[dict]:
    """The readable records a grid table lists, each once (a relative path is taken from the results directory)."""
    from baselines.records import load_record

    found = []
    for path in grid["record"].unique():
        where = Path(path) if Path(path).is_file() else results / "trials" / Path(path).name
        record, _ = load_record(where)
        if record is not None:
            found.append(record)
    return found


def extended(base: CostModel, new: CostModel) -> CostModel:
    """`base` with the parts only `new` has (a fit, method, sampler or problem `base` never measured): every
    constant `base` has is kept, so the checks made of it still hold for what it predicted before."""
    if base.clock != new.clock:
        raise ValueError(f"cannot extend a model of {base.clock} seconds with parts fitted to {new.clock} seconds")
    have = {(r.part, r.key) for r in base.table.itertuples()}
    added = new.table[[
        (r.part, r.key) not in have if r.part != "clock" else r.key == "wall" and tuple(r.term.split(" ", 1)) not in have
        for r in new.table.itertuples()
    ]]
    return CostModel(pd.concat([base.table, added], ignore_index=True))


def _size(spec: dict, model: CostModel) -> str:
    """A setting's name in a per-setting check: method, problem, B and T, and for a method with a surrogate its M
    and a fit other than the default (one run may time the same method at two M)."""
    name = f"{spec['method']} on {spec['problem']}, B = {spec['batch_size']}, T = {spec['iterations']}"
    if not model.uses_model(spec):
        return name
    surrogate = spec.get("model") or {}
    fit = surrogate.get("fit", "lbfgs")
    return f"{name}, M = {inducing_points(surrogate):.0f}" + ("" if fit == "lbfgs" else f", {fit} fit")


def look_label(config: Mapping[str, Any], experiment: str | None, seed: int) -> str | None:
    """"EXPERIMENT, look K (seeds a–b)" for a seed of an experiment of `config` whose seeds run in planned looks (the
    whole plan's boundaries, `baselines.grid.seed_looks`); None for a seed of any other."""
    seeds = config.get("experiments", {}).get(experiment, {}).get("seeds")
    if not isinstance(seeds, Mapping):
        return None
    first, bounds = seeds.get("first", 0), (0, *seed_looks(seeds))
    for k, (low, high) in enumerate(pairwise(bounds), start=1):
        if low <= seed - first < high:
            named = f"seeds {first + low}–{first + high - 1}" if high - low > 1 else f"seed {first + low}"
            return f"{experiment}, look {k} ({named})"
    return None


def _look_of(config: Mapping[str, Any], records: list[dict], experiment_of: Mapping[str, str]) -> dict[str, str]:
    """Trial id -> its `look_label`, for the records of the config's experiments planned in looks."""
    labels = {r["trial_id"]: look_label(config, experiment_of.get(r["trial_id"]), r["spec"]["seed"]) for r in records}
    return {trial: label for trial, label in labels.items() if label is not None}


def _cost_model(args: argparse.Namespace) -> int:
    from baselines.records import load_record

    try:
        committed = CostModel.read(args.model) if args.model else None  # before the records: a bad path fails fast
        base = CostModel.read(args.extend) if args.extend else None
        planned = yaml.safe_load(Path(args.looks).read_text()) if args.looks else None
        if planned is not None and committed is None:
            raise ValueError("--looks checks a committed model: give it with --model")
        if args.results is None and base is None:
            raise ValueError("--results is required unless --extend names a model to extend")
        grid = pd.read_csv(Path(args.results) / "grid.csv") if args.results else pd.DataFrame(
            columns=["trial_id", "experiment", "record"])
        records = _records(Path(args.results), grid) if args.results else []
        if args.results and not records:
            raise ValueError(f"no readable records listed in {args.results}/grid.csv")
        files = [Path(p) for p in args.also if not Path(p).is_dir()]
        also = [r for r in (load_record(p)[0] for p in files) if r is not None]
        if len(also) < len(files):
            raise ValueError(f"unreadable record among --also {' '.join(map(str, files))}")
        seen = {r["trial_id"] for r in records + also}
        filling = [r for d in map(Path, args.also) if d.is_dir() for r in _records(d, pd.read_csv(d / "grid.csv"))
                   if r["trial_id"] not in seen]
        held = []
        for item in map(Path, args.holdout):
            if item.is_dir():
                held += _records(item, pd.read_csv(item / "grid.csv"))
            else:
                held += [r for r in [load_record(item)[0]] if r is not None]
        optional = {name: pd.read_csv(p) if Path(p).is_file() else None
                    for name, p in (("lbfgs", args.lbfgs), ("scaling", args.scaling), ("fits", args.fits))}
    except (OSError, ValueError, yaml.YAMLError) as error:
        print(f"b3o cost-model: error: {error}", file=sys.stderr)
        return 2
    first = grid.drop_duplicates("trial_id")  # a trial listed by several experiments counts under the first
    experiment_of = {**dict(zip(first["trial_id"], first["experiment"])), **{r["trial_id"]: "slices" for r in also}}
    if committed is not None:
        checked = validate(committed, records + also, experiment_of).assign(sample="out of sample")
        if args.per_setting:
            settings = {r["trial_id"]: _size(r["spec"], committed) for r in records + also}
            per_setting = validate(committed, records + also, settings).assign(sample="out of sample")
            checked = pd.concat([checked, per_setting[per_setting["experiment"] != "all experiments"]],
                                ignore_index=True)
        if planned is not None:
            looks = _look_of(planned, records, experiment_of)
            per_look = validate(committed, [r for r in records if r["trial_id"] in looks], looks)
            checked = pd.concat([checked, per_look[per_look["experiment"] != "all experiments"].assign(
                sample="out of sample")], ignore_index=True)
        kept = pd.read_csv(args.validation) if Path(args.validation).is_file() else checked.iloc[:0]
        Path(args.validation).parent.mkdir(parents=True, exist_ok=True)
        pd.concat([kept[kept["sample"] != "out of sample"], checked], ignore_index=True).to_csv(args.validation,
                                                                                                 index=False)
        print(checked.to_string(index=False, float_format=lambda v: f"{v:,.3g}"))
        print(f"wrote {args.validation}: {args.model} against {len(records)} records it was not fitted to")
        return 0
    model = fit(observations(records + also + filling, args.clock), optional["lbfgs"], optional["scaling"],
                optional["fits"])
    if base is not None:
        try:
            model = extended(base, model)
        except ValueError as error:
            print(f"b3o cost-model: error: {error}", file=sys.stderr)
            return 2
    checked = validate(model, records + also, experiment_of).assign(sample="fitted")
    if base is not None:  # the base's own checks stay; its held-out rows and its extension's give way to these
        kept = pd.read_csv(args.validation) if Path(args.validation).is_file() else checked.iloc[:0]
        mine = validate(model, also, {r["trial_id"]: EXTENSION for r in also}).assign(sample="fitted")
        kept = kept[(kept["sample"] != "held out") & (kept["experiment"] != EXTENSION)]
        checked = pd.concat([kept, mine[mine["experiment"] == EXTENSION]], ignore_index=True)
    if held:
        groups = {r["trial_id"]: _size(r["spec"], model) for r in held}
        checked = pd.concat([checked, validate(model, held, groups).assign(sample="held out")], ignore_index=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    model.table.to_csv(args.out, index=False)
    checked.to_csv(args.validation, index=False)
    print(checked.to_string(index=False, float_format=lambda v: f"{v:,.3g}"))
    if model.wall_fitted:
        print("fitted to wall seconds for want of CPU seconds (upper bounds): " + ", ".join(model.wall_fitted))
    print(f"wrote {args.out} and {args.validation} from {len(records)} records")
    return 0
