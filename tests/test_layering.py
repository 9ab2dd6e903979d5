"""Layers: `b3o/` is a library that never pulls in the harness; inside `analysis/`, computation sits below
presentation (figures, tables, the report) and no import goes back up or round in a cycle."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path


def _loaded(imports: str, modules: tuple[str, ...]) -> list[str]:
    """Which of `modules` a fresh interpreter has loaded after running `imports`."""
    code = f"import sys\n{imports}\nprint(sorted(m for m in {modules!r} if m in sys.modules))\n"
    result = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    return ast.literal_eval(result.stdout.strip().splitlines()[-1])


def test_the_method_library_imports_nothing_from_the_harness() -> None:
    imports = (
        "import b3o\n"
        "from b3o import BoltzmannBatch, Constant, Normalised, Scheduled, acquisitions, samplers, temperature\n"
        "from b3o import degeneracy, density, diversity, options, space"
    )
    assert _loaded(imports, ("baselines", "problems", "analysis", "harness")) == []


ROOT = Path(__file__).resolve().parents[1]
#: analysis modules that present results; every other analysis module computes and sits below them
PRESENTATION = ("analysis.figures", "analysis.tables", "analysis.report", "analysis.presentation", "analysis.site")
#: the grouping by job: records to tables, what the tables say, what a reader sees; the vocabulary every layer shares
GROUPS = {"data", "statistics", "presentation", "claims", "figures", "tables", "report", "site"}
VOCABULARY = {"naming", "formatting"}


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every module a file imports, at the top or inside a function; `from a import b` counts as a and a.b."""
    package = _module(path) if path.name == "__init__.py" else _module(path).rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            found |= {base} | {f"{base}.{alias.name}" for alias in node.names}
    return found


def _analysis_graph() -> dict[str, set[str]]:
    """analysis module -> the analysis modules it imports."""
    files = {_module(p): p for p in (ROOT / "analysis").rglob("*.py")}
    return {m: {i for i in _imports(p) if i in files and i != m} for m, p in files.items()}


def _presents(module: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in PRESENTATION)


def test_analysis_computes_below_and_presents_above():
    """No computation module (claims, verdicts, statistics, tidy, ...) imports a figure, table or report module."""
    graph = _analysis_graph()
    assert "analysis.claims.checking" in graph["analysis.tables.claims_table"]  # the parser sees imports (so this test can fail)
    upward = {m: sorted(filter(_presents, imported)) for m, imported in graph.items() if not _presents(m)}
    assert {m: i for m, i in upward.items() if i} == {}


def test_no_import_cycle_inside_analysis():
    graph = _analysis_graph()
    state: dict[str, str] = {}

    def visit(module: str, path: tuple[str, ...]) -> None:
        state[module] = "open"
        for imported in sorted(graph[module]):
            assert state.get(imported) != "open", " -> ".join(path + (module, imported))
            if imported not in state:
                visit(imported, path + (module,))
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module, ())


def test_the_paired_figure_reads_comparisons_without_the_claims_catalogue():
    assert _loaded("import analysis.figures.paired", ("analysis.claims.catalogue", "analysis.claims.checking")) == []
    assert "analysis.claims.comparisons" in _analysis_graph()["analysis.figures.paired"]


def test_analysis_is_grouped_by_job():
    """Its top level holds the job packages and the shared vocabulary only, so a new module has to pick its job."""
    top = {p.stem for p in (ROOT / "analysis").glob("*.py")} - {"__init__"}
    packages = {p.name for p in (ROOT / "analysis").iterdir() if (p / "__init__.py").exists()}
    assert (top, packages) == (VOCABULARY, GROUPS)


def test_no_analysis_module_shares_its_name_with_a_top_level_one_or_exceeds_400_lines():
    """`analysis.claims` vs `analysis.tables.claims` and `analysis.summary` vs `analysis.tables.summary` once
    confused readers; a module of 600 lines did six jobs."""
    files = list((ROOT / "analysis").rglob("*.py"))
    top = {p.stem for p in (ROOT / "analysis").glob("*.py")} | {
        p.name for p in (ROOT / "analysis").iterdir() if (p / "__init__.py").exists()
    }
    nested = {p.stem for p in files if p.parent != ROOT / "analysis"} - {"__init__", "__main__"}
    assert top & nested == set()
    assert {p.name: n for p in files if (n := len(p.read_text().splitlines())) > 400} == {}
