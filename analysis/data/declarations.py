"""Module-level literals that the workflow reads from analysis scripts without importing them.

A figure or table script declares what it makes in a literal (`FIGURES`, `TABLES`); reading the source is
milliseconds, importing the script (matplotlib, seaborn) is seconds that every build of the workflow's DAG and every
cluster job's re-parse would pay.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path
from typing import Any


class _Constants(ast.NodeTransformer):
    def __init__(self, constants: dict[str, Any]):
        self.constants = constants

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return ast.Constant(self.constants[node.id]) if node.id in self.constants else node


def literal(path: Path, name: str) -> dict[str, Any]:
    """The value of the module-level `name = <literal>` in `path` ({} if absent), with the names of earlier literal
    constants of the module replaced by their values."""
    constants: dict[str, Any] = {}
    for node in ast.parse(path.read_text()).body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            continue
        target = node.targets[0].id
        if target == name:
            return ast.literal_eval(_Constants(constants).visit(node.value))
        try:
            constants[target] = ast.literal_eval(node.value)
        except ValueError:
            continue
    return {}


def collect(folder: Path, name: str, make: Callable[[str, Any], Any]) -> dict[str, Any]:
    """Every entry of the `name` literals of the scripts in `folder`, built by make(script, value); an entry declared
    by two scripts is an error naming both (the built objects carry their `script`)."""
    found: dict[str, Any] = {}
    for path in sorted(folder.glob("*.py")):
        for key, value in literal(path, name).items():
            if key in found:
                raise ValueError(f"{key!r} is declared in {name} by both {found[key].script} and {path.stem}")
            found[key] = make(path.stem, value)
    return found

