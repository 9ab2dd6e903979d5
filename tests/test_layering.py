"""Layers: the top-level packages stand on floors, each importing only those below it (b3o <- harness <- problems <-
baselines <- bench <- analysis): `b3o/` is a library that never pulls in the harness, the methods (`baselines`) never
the bench that runs them; no file imports round in a circle; inside `analysis/`, computation sits below presentation
(figures, tables, the report) and no import goes back up or round in a cycle."""

from __future__ import annotations

import ast
import subprocess
import sys
from functools import cache
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
    assert _loaded(imports, ("baselines", "bench", "problems", "analysis", "harness")) == []


ROOT = Path(__file__).resolve().parents[1]
#: the top-level packages, lowest floor first: each may import only those before it
FLOORS = ("b3o", "harness", "problems", "baselines", "bench", "analysis")
#: analysis modules that present results; every other analysis module computes and sits below them
PRESENTATION = ("analysis.figures", "analysis.tables", "analysis.report", "analysis.presentation", "analysis.site")
#: the grouping by job: records to tables, what the tables say, what a reader sees; the vocabulary every layer shares
GROUPS = {"data", "statistics", "presentation", "claims", "figures", "tables", "report", "site"}
#: the job packages, lowest first, each importing only those before it (and the vocabulary): records to tables, the
#: verdict engine on paired samples, the paper's claims that run on it, then what a reader sees
JOBS = ("data", "statistics", "claims", "tables", "figures", "presentation", "report", "site")
VOCABULARY = {"naming", "formatting"}


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every module a file imports, at the top, inside a function or for type checkers only: `from a import b` counts
    as a.b where that is a module of ours, else as a."""
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
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in _files() else base)
    return found


@cache
def _files() -> dict[str, Path]:
    """Every module of the floors' packages -> its file."""
    return {_module(p): p for floor in FLOORS for p in (ROOT / floor).rglob("*.py")}


@cache
def _graph() -> dict[str, frozenset[str]]:
    """module -> the modules of ours it imports."""
    files = _files()
    return {m: frozenset(i for i in _imports(p) if i in files and i != m) for m, p in files.items()}


def _cycle(graph: dict[str, set[str]] | dict[str, frozenset[str]]) -> list[str]:
    """One circle of imports in `graph` (node -> the nodes it imports), or [] when there is none."""
    state: dict[str, str] = {}

    def visit(node: str, path: tuple[str, ...]) -> list[str]:
        state[node] = "open"
        for imported in sorted(graph.get(node, ())):
            if state.get(imported) == "open":
                return [*path[path.index(imported):], node, imported] if imported in path else [node, imported]
            if imported not in state and (found := visit(imported, path + (node,))):
                return found
        state[node] = "done"
        return []

    for node in sorted(graph):
        if node not in state and (found := visit(node, ())):
            return found
    return []


def _between(graph: dict[str, frozenset[str]], group) -> dict[str, set[str]]:
    """The graph of groups (`group(module)`): which group imports which other."""
    edges: dict[str, set[str]] = {}
    for module, imported in graph.items():
        edges.setdefault(group(module), set()).update(group(i) for i in imported if group(i) != group(module))
    return edges


def _top(module: str) -> str:
    return module.split(".")[0]


def test_no_file_imports_round_in_a_circle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]  # the search finds one (it can fail)
    assert _cycle(_graph()) == []


def test_each_floor_imports_only_the_floors_below_it():
    """No circle of top-level packages, and none imports one above it: `baselines` nothing of the bench, `problems`
    nothing of the methods or the bench."""
    edges = _between(_graph(), _top)
    assert "bench.spec" in _graph()["bench.runner"] and "problems" in edges["baselines"]  # it sees imports

    upward = {a: sorted(b for b in imported if FLOORS.index(b) > FLOORS.index(a)) for a, imported in edges.items()}
    assert {a: b for a, b in upward.items() if b} == {}
    assert _cycle(edges) == []


def test_the_methods_import_nothing_of_the_bench():
    """`baselines` holds the methods and their registry; the bench that runs them is a floor above."""
    found = {m: sorted(i for i in imported if _top(i) in ("bench", "analysis"))
             for m, imported in _graph().items() if _top(m) == "baselines"}
    assert "baselines.base" in _graph()["baselines.thompson"]  # the parser sees imports (so this test can fail)
    assert {m: i for m, i in found.items() if i} == {}


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


def _job(module: str) -> str:
    """The job package (or vocabulary module) an analysis module belongs to."""
    return module.split(".")[1] if module.count(".") else module


def test_analysis_jobs_stand_in_one_direction():
    """data <- statistics (the verdict engine) <- claims <- tables <- figures <- presentation <- report, site: the
    engine can be read and tested without the paper's catalogue, and no two job packages import each other."""
    inside = {m: frozenset(i for i in imported if i.startswith("analysis."))
              for m, imported in _graph().items() if m.startswith("analysis.")}
    edges = _between(inside, _job)
    assert "statistics" in edges["claims"] and "data" in edges["statistics"]  # it sees imports (so it can fail)
    assert _cycle(edges) == []
    order = {job: n for n, job in enumerate(JOBS)} | {v: -1 for v in VOCABULARY}
    upward = {a: sorted(b for b in imported if order[b] >= order[a]) for a, imported in edges.items() if a in order}
    assert {a: b for a, b in upward.items() if b} == {}


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
