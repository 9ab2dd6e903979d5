"""Registry of optimisation methods: `baselines.get(name, **params)`, `baselines.names()`.

One module per method family; a method is a `Method` subclass whose constructor takes its parameters, so the paper's
variants (B3O-UCB-c, B3O-LogEI-s, ...) are parameter sets of one class, not copies. Other packages add methods through
entry points in the group `b3o.methods`, each naming a `Method` subclass, and a config may name such a class directly
as `package.module:Class` (`harness.registry`). Imported lazily, and the
interface types too: importing `baselines` (the bench's check of a spec's names, `bench.spec.check_names`, which the
workflow runs) must not import TensorFlow. The bench that runs these methods (`bench`) sits a floor above: nothing here
imports it.
"""

from __future__ import annotations

import ast
import inspect
import sys
from collections.abc import Mapping
from importlib import import_module
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any

from b3o.options import check_options
from harness.registry import PluginError, Registry

if TYPE_CHECKING:
    from baselines.base import Method, NotApplicable, TrialContext

# name -> (module, class)
_BUILTIN: dict[str, tuple[str, str]] = {
    "b3o": ("baselines.boltzmann", "B3O"),
    "random": ("baselines.random_search", "RandomSearch"),
    "ts": ("baselines.thompson", "ThompsonSampling"),
    "seq-ei": ("baselines.sequential", "SequentialEI"),
    "seq-ehvi": ("baselines.sequential", "SequentialEHVI"),
    "logei-mv": ("baselines.sequential", "MixedVariableLogEI"),
    "qei": ("baselines.batch_acquisition", "BatchEI"),
    "lp": ("baselines.batch_acquisition", "LocalPenalisation"),
    "nsga2": ("baselines.evolutionary", "NSGA2"),
}
REGISTRY = Registry("method", "b3o.methods", _BUILTIN)


def names() -> list[str]:
    """Built-in and plugin methods."""
    return REGISTRY.names()


def method_class(name: str) -> type[Method]:
    cls = REGISTRY.load(name)
    if name not in _BUILTIN:  # the built-ins are Methods by construction; checking imports TensorFlow
        from baselines.base import Method

        if not (isinstance(cls, type) and issubclass(cls, Method)):
            raise PluginError(f"{REGISTRY.source(name)} is {cls!r}, not a Method subclass")
    return cls


def parameters(name: str) -> list[str]:
    """The parameter names method `name` accepts: its own, then (when it forwards `**kwargs`) its parents'.

    A built-in's are read from its source (`_source_parameters`), so listing them imports no TensorFlow."""
    if name in _BUILTIN:
        return _source_parameters(*_BUILTIN[name])
    names: list[str] = []
    for cls in method_class(name).__mro__:
        if "__init__" not in vars(cls):
            continue
        params = inspect.signature(cls.__init__).parameters.values()
        names += [p.name for p in params if p.name != "self" and p.kind is not p.VAR_KEYWORD and p.name not in names]
        if not any(p.kind is p.VAR_KEYWORD for p in params):
            break
    return names


def source_parameters(name: str) -> list[str] | None:
    """`parameters` of method `name` read from its source, importing no module of it (so no TensorFlow), or None
    where its source cannot say (a compiled module, a factory that is not a class, a base class built elsewhere)."""
    if name in _BUILTIN:
        return _source_parameters(*_BUILTIN[name])
    value = REGISTRY.value(name)
    if value is None or "." in value.partition(":")[2]:
        return None
    try:
        return _source_parameters(*value.split(":"))
    except (AssertionError, KeyError, OSError, SyntaxError, ImportError, ValueError):
        return None


def _source_parameters(module: str, cls: str) -> list[str]:
    """`parameters` of class `cls` of `module`, from the syntax of its source: the constructor's named parameters,
    then, while it forwards `**kwargs`, those of its base class (the first, named in the module or imported into it
    from a module of this package); a class without a constructor of its own is its base's. A module whose package is
    not imported yet is not looked up (that would import the package: trieste's imports TensorFlow)."""
    if "." in module and module.partition(".")[0] not in sys.modules:
        raise ImportError(f"{module}: its package is not imported")
    spec = find_spec(module)
    assert spec is not None and spec.origin is not None, module
    tree = ast.parse(Path(spec.origin).read_text())
    classes = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    imported = {
        alias.asname or alias.name: node.module
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and node.module
        for alias in node.names
    }
    node = classes[cls]
    init = next((f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None)
    names = [] if init is None else [a.arg for a in [*init.args.args[1:], *init.args.kwonlyargs]]
    if (init is not None and init.args.kwarg is None) or not node.bases:
        return names
    base = node.bases[0]
    assert isinstance(base, ast.Name), f"{module}:{cls}: base {ast.unparse(base)} is not a plain name"
    parent = _source_parameters(imported.get(base.id, module), base.id)
    return names + [n for n in parent if n not in names]


def check_names(name: str, params: Mapping[str, Any]) -> None:
    """Refuse an unknown method or parameter name, without importing a built-in method's module (TensorFlow)."""
    REGISTRY.check(name)
    unknown = set(params) - set(parameters(name))
    if unknown:
        raise ValueError(
            f"unknown parameter(s) {sorted(unknown)} for method {name!r}; valid: {', '.join(parameters(name)) or 'none'}"
        )


def get(name: str, **params: Any) -> Method:
    """The method registered under `name`, configured with `params` (unknown parameters are a clear error)."""
    check_names(name, params)
    cls = method_class(name)
    check_options(f"method {name!r} parameter", params, *[c for c in cls.__mro__ if "__init__" in vars(c)])
    return cls(**params)


def __getattr__(name: str) -> Any:
    """`Method`, `NotApplicable`, `TrialContext` on first use: they import TensorFlow, which checking a
    spec's names (`bench.spec.check_names`) does not need."""
    if name in ("Method", "NotApplicable", "TrialContext"):
        return getattr(import_module("baselines.base"), name)
    raise AttributeError(f"module 'baselines' has no attribute {name!r}")


__all__ = ["Method", "NotApplicable", "TrialContext", "check_names", "get", "names", "parameters"]
