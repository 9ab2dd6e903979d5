"""Module-level literals that the workflow reads from analysis scripts without importing them.

A figure or table script declares what it makes in a literal (`FIGURES`, `TABLES`); reading the source is
milliseconds, importing the script (matplotlib, seaborn) is seconds that every build of the workflow's DAG and every
cluster job's re-parse would pay.
"""

from __future__ import annotations

import ast
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
