"""Every ```python block of README.md and docs/*.md runs as written, each in a fresh interpreter in an empty
directory (tiny sizes: the snippets are written to be run).

A block that is deliberately partial (a fragment inside a longer explanation) starts with the line
`# partial: <why>`; it is skipped, and says why. Nothing else is skipped.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)
PARTIAL = "# partial:"


def blocks() -> list[tuple[str, str]]:
    """(page:n, code) for every python block, n counting from 1 within its page."""
    return [
        (f"{page.relative_to(ROOT)}:{n}", code)
        for page in PAGES
        for n, code in enumerate(BLOCK.findall(page.read_text()), start=1)
    ]


def test_the_pages_have_python_blocks_to_run():
    runnable = [name for name, code in blocks() if not code.startswith(PARTIAL)]
    assert sum(name.startswith("README.md") for name in runnable) >= 2
    assert sum(name.startswith("docs/") for name in runnable) >= 3


@pytest.mark.parametrize("name, code", blocks(), ids=[name for name, _ in blocks()])
def test_python_block_runs_as_written(name, code, tmp_path):
    if code.startswith(PARTIAL):
        pytest.skip(code.splitlines()[0])
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, f"{name}:\n{done.stderr[-3000:]}"
