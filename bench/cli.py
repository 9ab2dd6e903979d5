"""The `b3o` command: `b3o run-trial` (one trial, one record), `b3o run-trials` (several in one process),
`b3o check-specs` (the workflow's grid, before any job) and `b3o list` here, and the other subcommands, each defined
next to the code it drives.

A subcommand module exposes `register(subparsers)` that adds its parsers and sets `func` on each to a callable taking
the parsed arguments and returning an exit code. Modules are imported lazily, so `b3o lap` never imports TensorFlow.
The command lives with the harness: the method library `b3o/` imports nothing from here.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from importlib import import_module
from typing import Any

from b3o import quiet

# subcommand -> module defining `register(subparsers)`
_COMMANDS: dict[str, str] = {
    "lap": "problems.formula_e.cli",
    "run-trial": "bench.cli",
    "run-trials": "bench.cli",
    "check-specs": "bench.cli",
    "check-plans": "analysis.claims.plans",
    "list": "bench.cli",
    "scaling": "bench.scaling",
    "study": "bench.study",
    "verify": "analysis.claims.verify",
    "platform": "bench.provenance",
    "estimate": "bench.estimate",
    "cost-model": "bench.cost_command",
    "archive": "bench.archive",
    "restore": "bench.archive",
}
#: subcommands whose numbers are records: they run on the pinned numerical platform (`bench.numerics`)
_PINNED = {"run-trial", "run-trials", "verify", "platform"}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in _PINNED:
        from bench.numerics import pin_process

        try:
            pin_process(argv)  # before anything loads NumPy
        except ValueError as err:
            print(f"b3o: error: {err}", file=sys.stderr)
            return 2
    # TensorFlow's start-up chatter hides our progress lines and a refusal's one line: its absl lines ignore the log
    # level, so its first import is filtered as `import b3o` filters it (before the level is set, which turns that off)
    quiet.install()
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    # On a GPU, TensorFlow takes all its memory at start-up by default: trials sharing a GPU would fail but the first.
    os.environ.setdefault("TF_FORCE_GPU_ALLOW_GROWTH", "true")
    parser = argparse.ArgumentParser(prog="b3o", description="Boltzmann batch Bayesian optimisation")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    # Only the requested subcommand's module is imported; `--help` imports them all to list them.
    wanted = [argv[0]] if argv and argv[0] in _COMMANDS else list(_COMMANDS)
    for module in dict.fromkeys(_COMMANDS[name] for name in wanted):
        import_module(module).register(subparsers)
    args, extra = parser.parse_known_args(argv)
    if extra and not getattr(args, "passes_through", False):
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    args.extra = extra  # a subcommand that drives another program (`study`) hands these on
    if args.command is None:
        parser.print_help()
        return 2
    return int(args.func(args) or 0)


def register(subparsers: argparse._SubParsersAction) -> None:
    run = subparsers.add_parser("run-trial", help="run one trial and write its record (resumes if interrupted)")
    run.add_argument("--spec", help="trial spec: a JSON or YAML file, or inline JSON; flags below override its keys")
    run.add_argument("--out", required=True, help="record path (RECORD.json); a checkpoint lives next to it")
    run.add_argument("--problem")
    run.add_argument("--method")
    run.add_argument("--param", action="append", default=[], metavar="KEY=VALUE", help="method parameter (JSON value)")
    run.add_argument("--batch-size", type=int)
    run.add_argument("--iterations", type=int)
    run.add_argument("--n-init", type=int)
    run.add_argument("--seed", type=int)
    run.add_argument("--num-inducing", type=int)
    run.add_argument("--model-kind", choices=["svgp", "gpr", "deep-ensemble"])
    run.set_defaults(func=_run_trial)
    several = subparsers.add_parser(
        "run-trials",
        help="run several trials in one process, sharing its start-up; one record each (the workflow's jobs)",
    )
    several.add_argument(
        "--trials", required=True, help='inline JSON list of {"spec": <trial spec>, "out": <record path>}'
    )
    several.set_defaults(func=_run_trials)
    check = subparsers.add_parser(
        "check-specs", help="validate trial specs (a JSON list on stdin) without running them; exit 2 at a bad one"
    )
    check.set_defaults(func=_check_specs)
    listing = subparsers.add_parser("list", help="list problems, methods, samplers and acquisitions")
    listing.set_defaults(func=_list)


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _spec_dict(args: argparse.Namespace) -> dict[str, Any]:
    from bench.spec import TrialSpec

    spec = TrialSpec.load(args.spec).to_dict() if args.spec else {}
    for key in ("problem", "method", "batch_size", "iterations", "n_init", "seed"):
        if getattr(args, key) is not None:
            spec[key] = getattr(args, key)
    for item in args.param:
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--param expects KEY=VALUE, got {item!r}")
        spec.setdefault("params", {})[key] = _value(value)
    if args.num_inducing is not None:
        spec.setdefault("model", {})["num_inducing"] = args.num_inducing
    if args.model_kind is not None:
        spec.setdefault("model", {})["kind"] = args.model_kind
    return spec


def _run_trial(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    from bench.records import OutputError
    from bench.spec import TrialSpec, validate

    try:
        spec = TrialSpec.from_dict(_spec_dict(args))
        validate(spec)
    except (ValueError, TypeError, OSError) as err:
        return _error(err)
    from bench.runner import run_trial  # after the spec is found good: it imports TensorFlow

    try:
        record = run_trial(spec, args.out)
    except (OutputError, OSError) as err:  # an unusable --out (checked before any work) or a full disk
        return _error(err)
    _print_summary(record)
    return 0


def _run_trials(args: argparse.Namespace) -> int:
    """Every spec and output is checked before the first trial runs. A trial that fails is logged and the others
    still run (each finished record is kept, see `bench.records.finished_copy`); the exit code is then 1."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    from pathlib import Path

    from bench.records import check_output
    from bench.spec import TrialSpec, check_names, validate

    try:
        items = json.loads(args.trials)
        if not isinstance(items, list) or not items or any(
            not isinstance(item, dict) or set(item) != {"spec", "out"} for item in items
        ):
            raise ValueError('--trials must be a non-empty JSON list of {"spec": ..., "out": ...} objects')
        trials = [(TrialSpec.from_dict(item["spec"]), Path(item["out"])) for item in items]
        for spec, out in trials:  # every name before any import of TensorFlow
            check_names(spec)
            check_output(out)
        for spec, _ in trials:
            validate(spec)
    except (ValueError, TypeError, OSError) as err:
        return _error(err, "run-trials")
    from bench.runner import run_trial  # after the specs are found good: it imports TensorFlow

    from bench.records import atomic_write_text, failure_note
    from problems.base import ObjectiveError

    failed = []
    for spec, out in trials:
        note = failure_note(out)
        if note.exists():  # failed on an error earlier in this workflow run: a retry is for time limits, not errors
            failed.append(f"{note.read_text().strip()} (earlier in this run; not run again)")
            continue
        try:
            _print_summary(run_trial(spec, out))
        except Exception as err:  # one trial's failure must not cost the trials after it their run
            # a bad objective value is one line (it names the problem, the point and the value); any other error in
            # a problem's or method's code keeps its traceback, which ends where the user's code raised
            logging.getLogger("b3o.trial").error(
                "trial %s (%s) failed: %s: %s", spec.trial_id, _trial_name(spec), type(err).__name__, err,
                exc_info=not isinstance(err, ObjectiveError))
            failed.append(f"{spec.trial_id} ({_trial_name(spec)}): {type(err).__name__}: {err}")
            note.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(note, failed[-1])
    if failed:  # the log's last lines, which the workflow shows on a job's failure (workflow/rules/trials.smk)
        print(f"b3o run-trials: {len(failed)} of {len(trials)} trials failed:", *failed, sep="\n  ", file=sys.stderr)
        return 1
    return 0


def _trial_name(spec: Any) -> str:
    """ "problem P, method M, seed S": a trial as its config names it, for a failure's line."""
    return f"problem {spec.problem}, method {spec.method}, seed {spec.seed}"


def _print_summary(record: dict[str, Any]) -> None:
    last = record["trace"][-1]
    print(json.dumps({"trial_id": record["trial_id"], "num_evals": last["num_evals"], "best_value": last["best_value"]}))


def _error(err: Exception, command: str = "run-trial") -> int:
    print(f"b3o {command}: error: {err}", file=sys.stderr)
    return 2


def _check_specs(args: argparse.Namespace) -> int:
    """The workflow calls this once per DAG build, in a subprocess: Snakemake itself never imports TensorFlow; a
    setting this code has passed before is not built again (`bench.checked_specs`), so no TensorFlow at all then."""
    from bench import checked_specs
    from bench.spec import TrialSpec, check_names, validate

    try:
        specs = json.load(sys.stdin)
        if not isinstance(specs, list):
            raise ValueError("expected a JSON list of trial specs on stdin")
        specs = [TrialSpec.from_dict(data) for data in specs]
    except (ValueError, TypeError) as err:
        print(f"b3o check-specs: error: {err}", file=sys.stderr)
        return 2
    # every setting's error, each once: a config's mistakes are all shown in one run
    named = [(spec, _refusal(check_names, spec)) for spec in specs]  # every name before any import of TensorFlow
    left = checked_specs.unchecked([spec for spec, error in named if error is None])
    built = [_refusal(validate, spec) for spec in left]  # a setting this code passed before is not built again
    refused = list(dict.fromkeys(error for error in [*(e for _, e in named), *built] if error is not None))
    for error in refused:
        print(f"b3o check-specs: error: {error}", file=sys.stderr)
    if refused:
        return 2
    checked_specs.remember(left)
    return 0


def _refusal(check: Any, spec: Any) -> str | None:
    """`check(spec)`'s refusal, or None."""
    try:
        check(spec)
    except (ValueError, TypeError) as err:
        return str(err)
    return None


def _list(args: argparse.Namespace) -> int:
    """Plugins are listed with their distribution; a plugin that cannot be used is one error line and exit 2."""
    import baselines
    import problems

    def plugin(registry: Any, name: str) -> str:
        origin = registry.origin(name)
        if origin:
            registry.load(name)  # a plugin that cannot be imported is reported here, not by its first trial
        return f" [plugin: {origin}]" if origin else ""

    try:
        problem_lines = [f"{p}{plugin(problems.REGISTRY, p)}" for p in problems.names()]
        method_lines = [
            f"{m} ({', '.join(baselines.parameters(m)) or 'no parameters'}){plugin(baselines.REGISTRY, m)}"
            for m in baselines.names()
        ]
    except ValueError as err:
        print(f"b3o list: error: {err}", file=sys.stderr)
        return 2
    from b3o import acquisitions, samplers, temperature

    for title, items in (
        ("problems", problem_lines),
        ("methods", method_lines),
        ("samplers", samplers.names()),
        ("acquisitions", acquisitions.names()),
        ("temperatures", temperature.names()),
    ):
        print(f"{title}:")
        for item in items:
            print(f"  {item}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
