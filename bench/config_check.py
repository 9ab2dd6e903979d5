"""A workflow config's errors, one line each (the field, its value, what is allowed), for the Snakefile and `b3o study`.

Snakemake's own `validate` prints the failing schema and a stack; a user who wrote `seeds: 0` needs one line that says
where, what and what would do. The schema stays the one at workflow/schemas/config.schema.yaml; the Snakefile still
calls Snakemake's `validate` after this check, for the defaults it fills in.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

import yaml
from jsonschema import Draft202012Validator, ValidationError

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


def _line(error: ValidationError) -> str:
    where, value, schema = _where(error), error.instance, error.schema
    if error.validator == "required":
        missing = [name for name in error.validator_value if name not in value]
        return f"{where}: missing {', '.join(missing)} (required: {', '.join(error.validator_value)})"
    if error.validator == "additionalProperties" and schema.get("additionalProperties") is False:
        unknown = [name for name in value if name not in schema.get("properties", {})]
        return f"{where}: unknown field(s) {', '.join(unknown)} (allowed: {', '.join(schema.get('properties', {}))})"
    if error.validator == "minProperties":
        return f"{where}: {value!r} has too few entries (allowed: at least {error.validator_value})"
    return f"{where}: {value!r} not allowed (allowed: {allowed(schema)})"


def errors(config: Any) -> list[str]:
    """Each schema error of `config`, one line: where, the value, what is allowed (empty if the config is valid)."""
    schema = yaml.safe_load(SCHEMA.read_text())
    if not isinstance(config, dict):
        return [f"(top level): a workflow config is a mapping with {', '.join(schema['required'])}, got {config!r}"]
    found = sorted(Draft202012Validator(schema).iter_errors(config), key=lambda error: list(map(str, error.path)))
    return [_line(error) for error in found] or declared_errors(config)


def declared_errors(config: dict) -> list[str]:
    """Each declared comparison (`compare:` of an experiment, `analysis.claims.declared`) naming a label its
    experiment does not run, the same label twice, or a problem the experiment lacks: one line each."""
    out = []
    for name, experiment in config.get("experiments", {}).items():
        labels = [m["label"] for m in experiment.get("methods", [])]
        for i, entry in enumerate(experiment.get("compare", [])):
            where = f"experiments.{name}.compare[{i}]"
            for side in ("a", "b"):
                if entry[side] not in labels:
                    out.append(f"{where}.{side}: {entry[side]!r} not allowed (allowed: one of this experiment's "
                               f"labels, {', '.join(labels)})")
            if entry["a"] == entry["b"]:
                out.append(f"{where}: a and b are both {entry['a']!r} (allowed: two different labels)")
            for problem in entry.get("problems", []):
                if problem not in experiment["problems"]:
                    out.append(f"{where}.problems: {problem!r} not allowed (allowed: one of this experiment's "
                               f"problems, {', '.join(experiment['problems'])})")
    return out


def refuse(lines: list[str], source: str) -> NoReturn:
    """Print each error on stderr as `source: error: line` and exit with EXIT (no schema, no stack)."""
    for line in lines:
        print(f"{source}: error: {line}", file=sys.stderr)
    raise SystemExit(EXIT)


def check(config: Any, source: str) -> None:
    """Refuse `config` (`refuse`) if the schema does not allow it."""
    if found := errors(config):
        refuse(found, source)


@contextmanager
def refusing(source: str) -> Iterator[None]:
    """A ValueError raised in the block about the config (its grid, looks or names) becomes one refused line."""
    try:
        yield
    except ValueError as error:
        refuse([str(error)], source)
