"""Registry of benchmark problems: `problems.get(name, **overrides)`, `problems.names()`.

Adding a problem = one module with a factory returning a `Problem`, plus one line in `_REGISTRY`.
Factories are imported lazily so that asking for a synthetic function never imports PyBaMM.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from problems.base import Problem  # no TensorFlow import: `b3o lap` stays quick

# name -> (module, factory)
_REGISTRY: dict[str, tuple[str, str]] = {
    "ackley5": ("problems.synthetic", "ackley5"),
    "battery": ("problems.battery", "battery"),
    "branin2": ("problems.synthetic", "branin2"),
    "formula-e": ("problems.formula_e", "make_problem"),
    "forrester1": ("problems.synthetic", "forrester1"),
    "hartmann6": ("problems.synthetic", "hartmann6"),
    "shekel4": ("problems.synthetic", "shekel4"),
}


def names() -> list[str]:
    return sorted(_REGISTRY)


def get(name: str, **overrides: Any) -> Problem:
    """Build the problem registered under `name`; `overrides` go to its factory."""
    if name not in _REGISTRY:
        raise ValueError(f"unknown problem {name!r}; valid problems: {', '.join(names())}")
    module, factory = _REGISTRY[name]
    return getattr(import_module(module), factory)(**overrides)


__all__ = ["Problem", "get", "names"]
