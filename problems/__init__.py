"""Registry of benchmark problems: `problems.get(name, **overrides)`, `problems.names()`.

Adding a problem = one module with a factory returning a `Problem`, plus one line in `_BUILTIN`; or, without editing
this package, an entry point in the group `b3o.problems` of a package of one's own (`harness.registry`), naming such a
factory (or a `Problem` subclass whose fields all have defaults), or that factory named in a config as
`package.module:factory`. Factories are imported lazily so that asking for a synthetic function never imports PyBaMM.
"""

from __future__ import annotations

from typing import Any

from harness.registry import PluginError, Registry
from problems.base import Problem  # no TensorFlow import: `b3o lap` stays quick

# name -> (module, factory)
_BUILTIN: dict[str, tuple[str, str]] = {
    "ackley5": ("problems.synthetic", "ackley5"),
    "battery": ("problems.battery", "battery"),
    "branin2": ("problems.synthetic", "branin2"),
    "formula-e": ("problems.formula_e", "make_problem"),
    "forrester1": ("problems.synthetic", "forrester1"),
    "hartmann6": ("problems.synthetic", "hartmann6"),
    "shekel4": ("problems.synthetic", "shekel4"),
}
REGISTRY = Registry("problem", "b3o.problems", _BUILTIN)


def names() -> list[str]:
    """Built-in and plugin problems."""
    return REGISTRY.names()


def get(name: str, **overrides: Any) -> Problem:
    """Build the problem registered (or referenced, `package.module:factory`) under `name`; `overrides` go to its
    factory."""
    factory = REGISTRY.load(name)
    if not callable(factory):
        raise PluginError(f"{REGISTRY.source(name)} is {factory!r}, not a factory returning a Problem")
    if name in _BUILTIN:
        problem = factory(**overrides)
    else:
        try:
            problem = factory(**overrides)
        except TypeError:
            raise  # its options (`bench.spec.validate` says "bad problem_options")
        except Exception as err:  # noqa: BLE001 - a user's factory can fail in any way: one line naming it
            raise PluginError(f"{REGISTRY.source(name)} cannot be built: {_why(err)}") from None
    if not isinstance(problem, Problem):
        raise PluginError(f"{REGISTRY.source(name)} built a {type(problem).__name__}, not a Problem")
    return problem


def _why(err: Exception) -> str:
    """What went wrong in a user's factory, in its terms: a trieste `Box` given bounds of wrong shapes says which
    shapes (TensorFlow's own message names only tensors), anything else its first line."""
    import numpy as np

    trace = err.__traceback__
    while trace is not None:
        frame = trace.tb_frame
        if frame.f_code.co_name == "__init__" and frame.f_globals.get("__name__") == "trieste.space" and {
                "lower", "upper"} <= set(frame.f_locals):
            lower, upper = (np.shape(frame.f_locals[k]) for k in ("lower", "upper"))
            if lower != upper or len(lower) != 1:
                return (f"its search space's bounds have shapes {lower} (lower) and {upper} (upper); both need one "
                        "number per dimension, shape (d,)")
        trace = trace.tb_next
    lines = str(err).strip().splitlines()
    return f"{type(err).__name__}: {lines[0] if lines else ''}"


__all__ = ["Problem", "get", "names"]
