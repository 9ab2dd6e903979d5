"""docs/api.md is what tools/write_api.py writes from the docstrings now, covers every public name, and its examples run.

Nothing here imports `b3o` (and with it TensorFlow) at collection: the examples are subtests of one test."""

from __future__ import annotations

import importlib.util
import inspect
from functools import cache
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


@cache
def write_api() -> ModuleType:
    """tools/write_api.py, loaded once per worker when a test first needs it."""
    spec = importlib.util.spec_from_file_location("write_api", ROOT / "tools" / "write_api.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_page_is_the_generated_one():
    assert (ROOT / "docs" / "api.md").read_text() == write_api().render(), "run `python tools/write_api.py`"


def test_every_public_name_has_a_section_and_an_example():
    import b3o

    page = (ROOT / "docs" / "api.md").read_text()
    for name in b3o.__all__:
        assert f"## `b3o.{name}`" in page, name
        docs = [inspect.getdoc(obj) for qualname, obj in write_api().public() if qualname.startswith(f"b3o.{name}")]
        assert any(write_api().examples(doc) for doc in docs), f"b3o.{name} has no Example:: in its docstrings"
    assert "[docs/api.md](docs/api.md)" in (ROOT / "README.md").read_text()


def test_every_example_runs(subtests):
    import b3o

    examples = [(name, code) for name, obj in write_api().public() for code in write_api().examples(inspect.getdoc(obj))]
    assert examples
    for name, code in examples:
        with subtests.test(example=name):
            exec(compile(code, name, "exec"), {"b3o": b3o})
