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

from dataclasses import dataclass
from importlib import import_module, metadata
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
                f"unknown {self.kind} {name!r}; valid {self.kind}s: {', '.join(self.names())}, "
                "or a reference 'package.module:factory'"
            )

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
