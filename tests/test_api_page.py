"""docs/api.md is what tools/write_api.py writes from the docstrings now, covers every public name, and its examples run."""

from __future__ import annotations

import importlib.util
import inspect
from pathlib import Path

import pytest

import b3o

ROOT = Path(__file__).resolve().parents[1]

spec = importlib.util.spec_from_file_location("write_api", ROOT / "tools" / "write_api.py")
write_api = importlib.util.module_from_spec(spec)
spec.loader.exec_module(write_api)


def test_committed_page_is_the_generated_one():
    assert (ROOT / "docs" / "api.md").read_text() == write_api.render(), "run `python tools/write_api.py`"


def test_every_public_name_has_a_section_and_an_example():
    page = (ROOT / "docs" / "api.md").read_text()
    for name in b3o.__all__:
        assert f"## `b3o.{name}`" in page, name
        docs = [inspect.getdoc(obj) for qualname, obj in write_api.public() if qualname.startswith(f"b3o.{name}")]
        assert any(write_api.examples(doc) for doc in docs), f"b3o.{name} has no Example:: in its docstrings"
    assert "[docs/api.md](docs/api.md)" in (ROOT / "README.md").read_text()


EXAMPLES = [(name, code) for name, obj in write_api.public() for code in write_api.examples(inspect.getdoc(obj))]


@pytest.mark.parametrize("name, code", EXAMPLES, ids=[name for name, _ in EXAMPLES])
def test_example_runs(name, code):
    exec(compile(code, name, "exec"), {"b3o": b3o})
