"""Formula E lap-time problem: a quasi-steady-state lap simulator (track, vehicle, solver) and the design problem.

`make_problem` is imported on first use: the simulator itself needs only NumPy and SciPy, the problem needs trieste.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__all__ = ["make_problem"]


def __getattr__(name: str) -> Any:
    if name == "make_problem":
        return import_module("problems.formula_e.problem").make_problem
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
