"""What a trial's plugin code is: a hash of the files a `module:factory` reference in its spec loads, so that a
trial run with one version of a user's problem or method is never reused, resumed or mixed with another's.

A reference (`harness.registry.is_reference`) names a module found on the path (the user's directory, for `b3o
study`); its files are that module's file (every `.py` of a package), and every module it imports from the same
directory, followed through their own imports (read with `ast`: nothing is imported or run). Built-in names and
installed plugins (entry points) have no stamp: the package's archive reuses their records by spec and platform
(docs/reproducibility.md), and a plugin distribution's version is in every record's provenance.

TensorFlow-free and cheap (a few files hashed): the workflow checks every finished record of a plugin trial with it
before each run (`workflow/rules/common.smk`), and the runner every record and checkpoint it would reuse.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from harness.registry import is_reference

#: the spec keys that may name a plugin by reference
PLUGIN_KEYS = ("problem", "method")


def references(spec: Mapping[str, Any]) -> list[str]:
    """The `module:factory` references of a trial spec (none for built-in names and entry points)."""
    found = [spec[key] for key in PLUGIN_KEYS if isinstance(spec.get(key), str) and is_reference(spec[key])]
    return list(dict.fromkeys(found))


def plugin_code(spec: Mapping[str, Any]) -> dict[str, str]:
    """Reference -> hash of its files, for each `module:factory` reference of a trial spec (empty for built-ins)."""
    return {reference: code_hash(reference) for reference in references(spec)}


def code_hash(reference: str) -> str:
    """SHA-256 (16 hex digits) of the files `reference`'s module loads from its own directory, by their names
    relative to it and their bytes; "missing" when the module cannot be found (the trial then fails on loading it)."""
    found = _module_file(reference.partition(":")[0])
    if found is None:
        return "missing"
    root = _root(reference.partition(":")[0], found)
    # an installed module is its distribution's (whose version the record keeps): its own file only
    files = {found} if _installed(found) else _local_files(found, root)
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def stale(recorded: Mapping[str, str] | None, spec: Mapping[str, Any]) -> list[str]:
    """The references of `spec` whose code differs from what `recorded` (a record's or checkpoint's stamp) says;
    a plugin trial without a stamp was made by code no one can check, so all its references are stale."""
    current = plugin_code(spec)
    recorded = recorded or {}
    return [reference for reference, digest in current.items() if recorded.get(reference) != digest]


def _module_file(module: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(module)  # a dotted name imports its parents, as loading it would
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin or not spec.has_location:
        return None
    return Path(spec.origin).resolve()


def _installed(file: Path) -> bool:
    prefixes = {Path(p).resolve() for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    return any(file.is_relative_to(prefix) for prefix in prefixes)


def _root(module: str, file: Path) -> Path:
    """The directory the module's top-level package (or the module itself) was found in."""
    depth = module.count(".") + (1 if file.name == "__init__.py" else 0)
    return file.parents[depth]


def _local_files(first: Path, root: Path) -> set[Path]:
    """`first` (with its package's other files) and what it imports from under `root`, transitively."""
    seen: set[Path] = set()
    todo = [first]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        if path.name == "__init__.py":  # a package: all of it
            todo.extend(p.resolve() for p in path.parent.rglob("*.py"))
        try:
            tree = ast.parse(path.read_bytes())
        except (SyntaxError, ValueError):
            continue  # its bytes are hashed; loading it will say what is wrong
        for name in _imported(tree):
            found = _module_file(name)
            if found is not None and found.is_relative_to(root):
                todo.append(found)
    return seen


def _imported(tree: ast.AST) -> set[str]:
    """Top-level names of the absolute imports in `tree` (relative ones are within a package, hashed whole)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names
