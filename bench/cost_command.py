"""`b3o cost-model`: fit the cost model (`bench.cost`) to a run's records and write it with its error per
experiment, or check a committed model on records it was not fitted to (`--model`), per setting and per planned look.
What a config will cost with the committed model is `b3o estimate` (`bench.estimate`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd
import yaml

from bench.cost import CLOCKS, CostModel, extended, fit, inducing_points, observations, validate
from bench.estimate import PACKAGE_TABLES, look_label
from bench.model_spec import svgp_fit

#: where a fitted model and its check are written unless told: the directory it is run in (a study's own)
COST_MODEL_OUT, COST_VALIDATION = Path("cost_model.csv"), Path("cost_validation.csv")
#: the validation rows of the records an extension (`b3o cost-model --extend`) was fitted to
EXTENSION = "extension"


def register(subparsers: argparse._SubParsersAction) -> None:
    model = subparsers.add_parser("cost-model", help="fit the cost model to a run's records, with its error")
    model.add_argument("--results", help="a run's results directory (grid.csv and its records); required unless "
                       "--extend")
    model.add_argument("--lbfgs", default=str(PACKAGE_TABLES / "paper_scale_cost.csv"),
                       help="L-BFGS steps at M = 500 (default: the package's)")
    model.add_argument("--scaling", default=str(PACKAGE_TABLES / "scaling.csv"),
                       help="batch time against B at M = 500 (default: the package's)")
    model.add_argument("--fits", default=str(PACKAGE_TABLES / "fit_scaling.csv"),
                       help="a trial's default fit timed at several M and N (tests/benchmarks/fit_scaling.py; default: "
                       "the package's)")
    model.add_argument("--out", default=str(COST_MODEL_OUT), help="where to write the model (CSV; default: here)")
    model.add_argument("--validation", default=str(COST_VALIDATION),
                       help="where to write its error per experiment (default: here)")
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
        "--sample", default="out of sample",
        help="with --model: the label of its rows (default 'out of sample'), which replace the rows of that label in "
        "--validation: e.g. 'default run' for the records a model's other parts were fitted to but its fit part was not",
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


def _records(results: Path, grid: pd.DataFrame) -> list[dict]:
    """The readable records a grid table lists, each once (a relative path is taken from the results directory)."""
    from bench.records import load_record

    found = []
    for path in grid["record"].unique():
        where = Path(path) if Path(path).is_file() else results / "trials" / Path(path).name
        record, _ = load_record(where)
        if record is not None:
            found.append(record)
    return found


def _size(spec: dict, model: CostModel) -> str:
    """A setting's name in a per-setting check: method, problem, B and T, and for a method with a surrogate its M
    and a fit other than the default (one run may time the same method at two M)."""
    name = f"{spec['method']} on {spec['problem']}, B = {spec['batch_size']}, T = {spec['iterations']}"
    if not model.uses_model(spec):
        return name
    surrogate = spec.get("model") or {}
    how = svgp_fit(surrogate)
    return f"{name}, M = {inducing_points(surrogate):.0f}" + ("" if how in (None, "lbfgs") else f", {how} fit")


def _look_of(config: Mapping[str, Any], records: list[dict], experiment_of: Mapping[str, str]) -> dict[str, str]:
    """Trial id -> its `look_label`, for the records of the config's experiments planned in looks."""
    labels = {r["trial_id"]: look_label(config, experiment_of.get(r["trial_id"]), r["spec"]["seed"]) for r in records}
    return {trial: label for trial, label in labels.items() if label is not None}


def _cost_model(args: argparse.Namespace) -> int:
    from bench.records import load_record

    try:
        committed = CostModel.read(args.model) if args.model else None  # before the records: a bad path fails fast
        base = CostModel.read(args.extend) if args.extend else None
        planned = yaml.safe_load(Path(args.looks).read_text()) if args.looks else None
        if planned is not None and committed is None:
            raise ValueError("--looks checks a committed model: give it with --model")
        if args.sample != "out of sample" and committed is None:
            raise ValueError("--sample labels the check of a committed model: give it with --model")
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
        checked = validate(committed, records + also, experiment_of).assign(sample=args.sample)
        if args.per_setting:
            settings = {r["trial_id"]: _size(r["spec"], committed) for r in records + also}
            per_setting = validate(committed, records + also, settings).assign(sample=args.sample)
            checked = pd.concat([checked, per_setting[per_setting["experiment"] != "all experiments"]],
                                ignore_index=True)
        if planned is not None:
            looks = _look_of(planned, records, experiment_of)
            per_look = validate(committed, [r for r in records if r["trial_id"] in looks], looks)
            checked = pd.concat([checked, per_look[per_look["experiment"] != "all experiments"].assign(
                sample=args.sample)], ignore_index=True)
        kept = pd.read_csv(args.validation) if Path(args.validation).is_file() else checked.iloc[:0]
        Path(args.validation).parent.mkdir(parents=True, exist_ok=True)
        pd.concat([kept[kept["sample"] != args.sample], checked], ignore_index=True).to_csv(args.validation,
                                                                                             index=False)
        print(checked.to_string(index=False, float_format=lambda v: f"{v:,.3g}"))
        print(f"wrote {args.validation}: {args.model} against {len(records)} records, as '{args.sample}'")
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
    for path in (args.out, args.validation):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    model.table.to_csv(args.out, index=False)
    checked.to_csv(args.validation, index=False)
    print(checked.to_string(index=False, float_format=lambda v: f"{v:,.3g}"))
    if model.wall_fitted:
        print("fitted to wall seconds for want of CPU seconds (upper bounds): " + ", ".join(model.wall_fitted))
    print(f"wrote {args.out} and {args.validation} from {len(records)} records")
    return 0
