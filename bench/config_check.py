"""A workflow config's errors, one line each (the field, its value, what is allowed), for the Snakefile and `b3o study`.

Snakemake's own `validate` prints the failing schema and a stack; a user who wrote `seeds: 0` needs one line that says
where, what and what would do. The schema stays the one at workflow/schemas/config.schema.yaml; the Snakefile still
calls Snakemake's `validate` after this check, for the defaults it fills in.
"""

from __future__ import annotations

import difflib
import functools
import json
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

import yaml
from jsonschema import Draft202012Validator, ValidationError

from harness.registry import did_you_mean, is_reference

SCHEMA = Path(__file__).resolve().parents[1] / "workflow" / "schemas" / "config.schema.yaml"
#: a config error's exit status (as argparse's for a bad command line)
EXIT = 2

_TYPES = {"integer": "an integer", "number": "a number", "string": "a string", "array": "a list", "object": "a mapping",
          "boolean": "true or false (True or False after --config)"}


def allowed(schema: Mapping[str, Any]) -> str:
    """What a schema allows, in a few words (`an integer ≥ 1`, `one of svgp, gpr`)."""
    if "oneOf" in schema or "anyOf" in schema:
        return ", or ".join(allowed(option) for option in schema.get("oneOf", schema.get("anyOf")))
    if "const" in schema:
        return repr(schema["const"])
    if "enum" in schema:
        return "one of " + ", ".join(map(str, schema["enum"]))
    kinds = schema.get("type", "object" if "properties" in schema else None)
    kinds = [kinds] if isinstance(kinds, str) else kinds or []
    words = " or ".join(_TYPES[kind] for kind in kinds) or "a value"
    for key, sign in (("minimum", "≥"), ("exclusiveMinimum", ">")):
        if key in schema:
            words += f" {sign} {schema[key]}"
    if "pattern" in schema:
        words += f" matching {schema['pattern']}"
    if "minItems" in schema:
        words += f" of at least {schema['minItems']} item(s)"
    if isinstance(schema.get("additionalProperties"), dict):
        words += f" of names to {allowed(schema['additionalProperties'])}"
    if "required" in schema:
        optional = [name for name in schema.get("properties", {}) if name not in schema["required"]]
        words += " with " + ", ".join(schema["required"]) + (f" (optional: {', '.join(optional)})" if optional else "")
    return words


def _where(error: ValidationError) -> str:
    where = ""
    for part in error.absolute_path:
        where += f"[{part}]" if isinstance(part, int) else f"{'.' if where else ''}{part}"
    return where or "(top level)"


def _misspelt(error: ValidationError) -> set[str]:
    """The known fields an unknown field of `error` looks like a misspelling of (an `additionalProperties` error)."""
    if error.validator != "additionalProperties" or error.schema.get("additionalProperties") is not False:
        return set()
    known = list(error.schema.get("properties", {}))
    return {close for name in error.instance if name not in known
            for close in difflib.get_close_matches(name, known, n=1, cutoff=0.6)}


def _line(error: ValidationError, misspelt: set[str] = frozenset()) -> str | None:
    """`error` in one line; None for a missing field that an unknown one misspells (that line says it)."""
    where, value, schema = _where(error), error.instance, error.schema
    if error.validator == "required":
        missing = [name for name in error.validator_value if name not in value and name not in misspelt]
        if not missing:
            return None
        return f"{where}: missing {', '.join(missing)} (required: {', '.join(error.validator_value)})"
    if error.validator == "additionalProperties" and schema.get("additionalProperties") is False:
        known = list(schema.get("properties", {}))
        unknown = [f"{name}{did_you_mean(name, known)}" for name in value if name not in known]
        return f"{where}: unknown field(s) {', '.join(unknown)} (allowed: {', '.join(known)})"
    if error.validator == "minProperties":
        return f"{where}: {value!r} has too few entries (allowed: at least {error.validator_value})"
    close = did_you_mean(value, list(map(str, schema["enum"]))) if "enum" in schema and isinstance(value, str) else ""
    return f"{where}: {value!r} not allowed{close} (allowed: {allowed(schema)})"


def errors(config: Any, names: bool = True) -> list[str]:
    """Every error of `config`, one line each: the schema's (where, the value, what is allowed), the declared
    comparisons' and (with `names`) the names' (`name_errors`), all at once, so one run shows them all (empty if it is
    valid)."""
    schema = yaml.safe_load(SCHEMA.read_text())
    if not isinstance(config, dict):
        return [f"(top level): a workflow config is a mapping with {', '.join(schema['required'])}, got {config!r}"]
    found = sorted(Draft202012Validator(schema).iter_errors(config), key=lambda error: list(map(str, error.path)))
    misspelt: dict[str, set[str]] = {}
    for error in found:
        misspelt.setdefault(_where(error), set()).update(_misspelt(error))
    lines = [_line(error, misspelt.get(_where(error), set())) for error in found]
    lines += declared_errors(config) + (name_errors(config) if names else [])
    return list(dict.fromkeys(line for line in lines if line is not None))


def _experiments(config: dict) -> Iterator[tuple[str, dict]]:
    """The config's experiments that are mappings (a malformed one is the schema's error)."""
    experiments = config.get("experiments")
    for name, experiment in (experiments.items() if isinstance(experiments, dict) else []):
        if isinstance(experiment, dict):
            yield name, experiment


def _entries(experiment: dict, key: str) -> list[tuple[int, dict]]:
    """(index, entry) of an experiment's list `key` whose entries are mappings."""
    entries = experiment.get(key)
    return [(i, e) for i, e in enumerate(entries) if isinstance(e, dict)] if isinstance(entries, list) else []


def _strings(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def declared_errors(config: dict) -> list[str]:
    """Each declared comparison (`compare:` of an experiment, `analysis.claims.declared`) naming a label its
    experiment does not run, the same label twice, or a problem the experiment lacks: one line each. A problem may be
    named as the experiment lists it or by its object's name (`shifted-sphere` for `my_problem:shifted_sphere`), which
    only building it tells (`display_names`, asked only when a name is not in the list)."""
    out = []
    for name, experiment in _experiments(config):
        labels = [m["label"] for _, m in _entries(experiment, "methods") if isinstance(m.get("label"), str)]
        listed = _strings(experiment.get("problems"))
        for i, entry in _entries(experiment, "compare"):
            where = f"experiments.{name}.compare[{i}]"
            for side in ("a", "b"):
                if isinstance(entry.get(side), str) and entry[side] not in labels:
                    out.append(f"{where}.{side}: {entry[side]!r} not allowed{did_you_mean(entry[side], labels)} "
                               f"(allowed: one of this experiment's labels, {', '.join(labels)})")
            if entry.get("a") == entry.get("b") and "a" in entry:
                out.append(f"{where}: a and b are both {entry['a']!r} (allowed: two different labels)")
            unlisted = [problem for problem in _strings(entry.get("problems")) if problem not in listed]
            if unlisted and _problem_errors(name, listed):
                continue  # the listed problems' own errors first: their names cannot be asked for
            names = display_names(listed) if unlisted else {}
            for problem in unlisted:
                if problem not in names.values():
                    spellings = listed + [n for n in names.values() if n not in listed]
                    out.append(f"{where}.problems: {problem!r} not allowed{did_you_mean(problem, spellings)} "
                               f"(allowed: one of this experiment's problems, {', '.join(spellings)})")
    return out


def _problem_errors(experiment: str, problems: list[str]) -> list[str]:
    """Each unknown problem of an experiment's list, one line at its place."""
    here = str(Path.cwd())
    return [f"experiments.{experiment}.problems[{i}]{line}" for i, p in enumerate(problems)
            for line in _problem_refusal(p, here)]


@functools.cache
def _problem_refusal(problem: str, here: str) -> tuple[str, ...]:
    """`problem`'s refusal (": ..."), checked once per process and directory (`here`, where references are found)."""
    import problems as registry

    return tuple(_refused("", registry.REGISTRY.check_source, problem))


def display_names(problems: list[str]) -> dict[str, str]:
    """Problem as a config names it -> its object's name, for the problems whose object names them otherwise (a
    reference's or a plugin's). Building one imports TensorFlow, so it is built in a subprocess (the workflow's
    process never imports it); a problem that cannot be built is left out (`b3o check-specs` says why)."""
    own = [p for p in problems if is_reference(p) or _plugin(p)]
    if not own:
        return {}
    path = os.pathsep.join([str(Path.cwd()), str(SCHEMA.parents[2]), *filter(None, [os.environ.get("PYTHONPATH")])])
    built = subprocess.run([sys.executable, "-m", "bench.config_check"], input=json.dumps(own), capture_output=True,
                           text=True, env={**os.environ, "PYTHONPATH": path})  # this code, the study's modules
    return json.loads(built.stdout) if built.returncode == 0 else {}


def _plugin(problem: str) -> bool:
    import problems

    try:
        return problems.REGISTRY.origin(problem) is not None
    except ValueError:
        return False


def name_errors(config: dict) -> list[str]:
    """Each unknown problem, method or method parameter of the config's experiments, one line each with the closest
    valid name, read from the registries and the sources (`harness.registry.reference_error`) without importing
    TensorFlow: a typo is refused in a second. A reference is looked for in the current directory first, where
    `b3o study` puts its jobs' PYTHONPATH. Each name is checked once (every Snakemake start, a cluster job's too, runs
    this)."""
    import baselines

    out = []
    methods: dict[str, tuple[list[str], list[str] | None]] = {}  # method -> (its refusal, its parameters)
    for name, experiment in _experiments(config):
        out += _problem_errors(name, _strings(experiment.get("problems")))
        for i, entry in _entries(experiment, "methods"):
            where, method = f"experiments.{name}.methods[{i}]", entry.get("method")
            if not isinstance(method, str):
                continue
            if method not in methods:
                refused = _refused("", baselines.REGISTRY.check_source, method)
                with _study_on_path():  # a reference method's source is found where its refusal was
                    methods[method] = (refused, None if refused else baselines.source_parameters(method))
            refused, known = methods[method]
            out += [f"{where}.method{line}" for line in refused]
            given = [key for part in ("params", "grid") if isinstance(entry.get(part), dict) for key in entry[part]]
            given += ["lam"] if "lam" in entry else []
            for parameter in [] if known is None else [p for p in given if p not in known]:
                out.append(f"{where}: unknown parameter {parameter!r} for method {method!r}"
                           f"{did_you_mean(parameter, known)} (allowed: {', '.join(known) or 'none'})")
    return out


@contextmanager
def _study_on_path() -> Iterator[None]:
    """The current directory on sys.path while a reference is looked up: a module of the study's directory (its jobs'
    PYTHONPATH), which `b3o`'s console script, unlike `python -c`, does not put on the path."""
    here = str(Path.cwd())
    added = here not in sys.path
    if added:
        sys.path.insert(0, here)
    try:
        yield
    finally:
        if added:
            sys.path.remove(here)


def _refused(where: str, check: Any, name: str) -> list[str]:
    """`check(name)`'s refusal as one line at `where`, or none."""
    try:
        with _study_on_path():
            check(name)
    except ValueError as error:
        return [f"{where}: {error}"]
    return []


def refuse(lines: list[str], source: str) -> NoReturn:
    """Print each error on stderr as `source: error: line` and exit with EXIT (no schema, no stack)."""
    for line in lines:
        print(f"{source}: error: {line}", file=sys.stderr)
    raise SystemExit(EXIT)


def check(config: Any, source: str, names: bool = True) -> None:
    """Refuse `config` (`refuse`) if it has errors (`errors`; the names' only with `names`)."""
    if found := errors(config, names):
        refuse(found, source)


@contextmanager
def refusing(source: str) -> Iterator[None]:
    """A ValueError raised in the block about the config (its grid, looks or names) becomes one refused line."""
    try:
        yield
    except ValueError as error:
        refuse([str(error)], source)


if __name__ == "__main__":  # `display_names`' subprocess: a JSON list of problems on stdin, their names on stdout
    import problems as _problems

    def _name(problem: str) -> str | None:
        try:
            return _problems.get(problem).name
        except Exception:  # noqa: BLE001 - a problem that cannot be built: `b3o check-specs` says why
            return None

    print(json.dumps({p: name for p in json.load(sys.stdin) if (name := _name(p)) is not None}))
