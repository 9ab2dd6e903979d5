"""Name -> object registries that other packages extend through entry points, without editing this one.

A registry has built-in entries, named by (module, attribute) and imported only when asked for, and the entry points of
its group (e.g. `b3o.problems`) of every installed distribution. Entry points are read on every call (a few ms), so
a package installed while a process runs is seen. A plugin that cannot be used - its name taken by a built-in or by
another plugin, or its object not importable - is a `PluginError` naming the distribution and the entry point, so a
user sees one line about their package rather than a traceback from inside it.

Without packaging anything, a config or spec may also name the object itself, `package.module:attribute` (the form of
an entry point's value): the module is imported when the name is first used, from the installed packages and
PYTHONPATH, and a module that cannot be imported or lacks the attribute is one `PluginError` too.
"""

from __future__ import annotations

import ast
import difflib
import pkgutil
import sys
from dataclasses import dataclass
from importlib import import_module, metadata
from importlib.machinery import PathFinder
from importlib.util import find_spec
from pathlib import Path
from typing import Any

#: the entry-point groups through which other packages add to the harness's registries
GROUPS = ("b3o.problems", "b3o.methods")


class PluginError(ValueError):
    """A registered plugin that cannot be used; the message names its distribution and entry point (or reference)."""


def is_reference(name: str) -> bool:
    """Whether `name` names an object directly, as `package.module:attribute`, rather than a registered name."""
    return ":" in name


def load_reference(kind: str, reference: str) -> Any:
    """The object `package.module:attribute` names (the attribute may be dotted, `module:Class.factory`)."""
    module, _, attribute = reference.partition(":")
    if not all(part.isidentifier() for part in [*module.split("."), *attribute.split(".")]):
        raise PluginError(f"{kind} {reference!r} is not a reference of the form 'package.module:factory'")
    try:
        found = import_module(module)
    except Exception as err:  # noqa: BLE001 - importing a user's module can fail in any way
        raise PluginError(f"{kind} {reference!r}: cannot import module {module!r}: {_first_line(err)}") from None
    for part in attribute.split("."):
        if not hasattr(found, part):
            raise PluginError(f"{kind} {reference!r}: module {module!r} has no attribute {attribute!r}")
        found = getattr(found, part)
    return found


def did_you_mean(word: str, options: list[str]) -> str:
    """ " (did you mean 'x'?)" for the option closest to a mistyped `word` (difflib), or "" when none is close."""
    close = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def reference_error(kind: str, reference: str) -> str | None:
    """What is wrong with `package.module:attribute`, found without running the module (no TensorFlow): its module
    cannot be found, or its source defines no such top-level name; None when it looks right or cannot be told from
    the source (a compiled module, a module `__getattr__`, `import *`): loading it then says."""
    module, _, attribute = reference.partition(":")
    if not all(part.isidentifier() for part in [*module.split("."), *attribute.split(".")]):
        return f"{kind} {reference!r} is not a reference of the form 'package.module:factory'"
    try:
        spec = PathFinder.find_spec(module, sys.path) if "." not in module else find_spec(module)
    except Exception:  # noqa: BLE001 - a parent package that fails to import: loading it says how
        return None
    if spec is None:
        modules = [m.name for m in pkgutil.iter_modules(["."])] if "." not in module else []  # the study's own
        return f"{kind} {reference!r}: no module {module!r} on the path{did_you_mean(module, modules)}"
    if not spec.origin or not spec.origin.endswith(".py"):
        return None
    try:
        tree = ast.parse(Path(spec.origin).read_text())
    except (OSError, SyntaxError, ValueError):
        return None  # importing it reports the syntax error with its line
    names = _top_level_names(tree)
    if names is None:
        return None
    first = attribute.split(".")[0]
    if first not in names:
        return f"{kind} {reference!r}: module {module!r} has no attribute {first!r}{did_you_mean(first, sorted(names))}"
    return None


def _top_level_names(tree: ast.Module) -> set[str] | None:
    """The names a module's source binds at its top level (in `if`/`try` blocks too), or None if it may bind others
    unseen (`import *`, a module `__getattr__`)."""
    names: set[str] = set()
    nodes = list(tree.body)
    while nodes:
        node = nodes.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            if any(alias.name == "*" for alias in node.names):
                return None
            names |= {alias.asname or alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for target in targets for n in ast.walk(target) if isinstance(n, ast.Name)}
        else:  # compound statements: what their blocks bind (an `if TYPE_CHECKING:`, a `try: import`)
            for block in ("body", "orelse", "finalbody", "handlers"):
                nodes += getattr(node, block, [])
    return None if "__getattr__" in names else names


def _first_line(err: Exception) -> str:
    message = str(err).strip().splitlines()
    return f"{type(err).__name__}: {message[0] if message else ''}"


def describe(entry: metadata.EntryPoint) -> str:
    """ "entry point 'name = module:attr' (group g) of distribution 'dist 1.0'": where a plugin comes from."""
    dist = f"'{entry.dist.name} {entry.dist.version}'" if entry.dist is not None else "(unknown)"
    return f"entry point '{entry.name} = {entry.value}' (group {entry.group}) of distribution {dist}"


@dataclass(frozen=True)
class Registry:
    kind: str  # what an entry is, for messages: "problem", "method"
    group: str
    builtin: dict[str, tuple[str, str]]

    def plugins(self) -> dict[str, metadata.EntryPoint]:
        """The group's entry points by name; a name that is not unique is a PluginError."""
        found: dict[str, metadata.EntryPoint] = {}
        for entry in metadata.entry_points(group=self.group):
            if entry.name in self.builtin:
                raise PluginError(f"{describe(entry)} clashes with the built-in {self.kind} {entry.name!r}; rename it")
            if entry.name in found:
                first, second = sorted([describe(entry), describe(found[entry.name])])  # in a stable order
                raise PluginError(f"{first} and {second} both register {self.kind} {entry.name!r}")
            found[entry.name] = entry
        return found

    def names(self) -> list[str]:
        return sorted([*self.builtin, *self.plugins()])

    def origin(self, name: str) -> str | None:
        """ "dist version" of the distribution providing plugin `name`; None for a built-in or a reference."""
        entry = None if is_reference(name) else self.plugins().get(name)
        return None if entry is None or entry.dist is None else f"{entry.dist.name} {entry.dist.version}"

    def source(self, name: str) -> str:
        """ "method 'x' (entry point of dist 1.0)", "method 'module:X'": the name with where it comes from."""
        origin = self.origin(name)
        return f"{self.kind} {name!r}" + (f" (entry point of {origin})" if origin else "")

    def check(self, name: str) -> None:
        """Refuse an unknown `name`, listing the valid ones, importing nothing: a typo fails before any heavy import
        (a built-in's module imports TensorFlow). A reference is checked only when it is loaded."""
        plugins = self.plugins()  # checked for every name: a plugin shadowing a built-in must not go unnoticed
        if not is_reference(name) and name not in self.builtin and name not in plugins:
            raise ValueError(
                f"unknown {self.kind} {name!r}{did_you_mean(name, self.names())}; valid {self.kind}s: "
                f"{', '.join(self.names())}, or a reference 'package.module:factory'"
            )

    def check_source(self, name: str) -> None:
        """`check`, and a reference's module and attribute found in its source (`reference_error`), importing
        neither it nor TensorFlow."""
        self.check(name)
        if is_reference(name) and (error := reference_error(self.kind, name)):
            raise PluginError(error)

    def value(self, name: str) -> str | None:
        """The `module:attribute` that `name` stands for (a built-in's, a plugin's entry point's, or the reference
        itself), or None for an unknown name."""
        if is_reference(name):
            return name
        if name in self.builtin:
            return ":".join(self.builtin[name])
        entry = self.plugins().get(name)
        return None if entry is None else entry.value

    def load(self, name: str) -> Any:
        """The object registered (or referenced) under `name`, imported now; unknown names list the valid ones."""
        if is_reference(name):
            return load_reference(self.kind, name)
        self.check(name)
        if name in self.builtin:
            module, attribute = self.builtin[name]
            return getattr(import_module(module), attribute)
        plugins = self.plugins()
        try:
            return plugins[name].load()
        except Exception as err:  # noqa: BLE001 - importing third-party code can fail in any way
            raise PluginError(f"{describe(plugins[name])} cannot be loaded: {_first_line(err)}") from None


def plugin_versions() -> dict[str, str]:
    """Distribution -> version of every installed package that registers b3o plugins (for records' provenance)."""
    entries = [e for group in GROUPS for e in metadata.entry_points(group=group)]
    return {e.dist.name: e.dist.version for e in entries if e.dist is not None}
