"""Options given by a user (YAML, JSON, --param) checked against the type hints of what they configure, so a wrong
type is refused naming its key - not as "cannot convert float NaN to integer" from deep inside, nor silently, as
`lam: true` running with lambda = 1."""

from __future__ import annotations

import math
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any


def check_options(owner: str, options: Mapping[str, Any], *targets: Callable[..., Any]) -> None:
    """Raise ValueError "<owner> <key> must be <kind>, got <value>" for the first option whose value does not fit
    the hint of the parameter of that name in `targets` (the first target naming it wins; others are unchecked)."""
    hints: dict[str, Any] = {}
    for target in reversed(targets):
        hints |= typing.get_type_hints(target.__init__ if isinstance(target, type) else target)
    for key, value in options.items():
        wanted = _mismatch(hints.get(key), value)
        if wanted:
            raise ValueError(f"{owner} {key} must be {wanted}, got {value!r}")


def _mismatch(hint: Any, value: Any) -> str | None:
    """What `value` should have been under `hint`, or None if it fits (or the hint is not a plain scalar type)."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        kinds = [a for a in typing.get_args(hint) if a is not type(None)]
        if value is None and len(kinds) < len(typing.get_args(hint)):
            return None
        return _mismatch(kinds[0], value) if len(kinds) == 1 else None
    if hint is bool:
        return None if isinstance(value, bool) else "true or false"
    if hint is int:
        return None if isinstance(value, int) and not isinstance(value, bool) else "an integer"
    if hint is float:
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        return None if number and math.isfinite(value) else "a finite number"
    if hint is str:
        return None if isinstance(value, str) else "a string"
    return None


T = typing.TypeVar("T")


def lookup(kind: str, table: Mapping[str, T], name: str) -> T:
    """`table[name]`, or ValueError "unknown <kind> 'x'; valid <kind>s: a, b" (in the table's order): the one
    name -> factory look-up of every registry."""
    if name not in table:
        raise ValueError(f"unknown {kind} {name!r}; valid {kind}s: {', '.join(table)}")
    return table[name]

