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

import numpy as np
import pytest

import b3o
from b3o import acquisitions, samplers, temperature

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


#: pages whose blocks run in CI's long tests rather than in the default suite: docs/method.md's examples are the
#: README's loop at other settings (the README's own blocks stay in the default suite)
LONG_PAGES = ("docs/method.md",)


@pytest.mark.parametrize("name, code", [
    pytest.param(name, code, id=name, marks=pytest.mark.long if name.startswith(LONG_PAGES) else ())
    for name, code in blocks()
])
def test_python_block_runs_as_written(name, code, tmp_path):
    if code.startswith(PARTIAL):
        pytest.skip(code.splitlines()[0])
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, f"{name}:\n{done.stderr[-3000:]}"


def test_every_name_the_readme_gives_b3o_is_importable_from_it():
    """The README's list of temperatures, acquisitions and samplers: each class from `b3o`, each name from its
    registry (`auto` and `auto-tail` included)."""
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Use B3O in a trieste loop") : readme.index("## Add a problem")]
    section = section[section.rindex("```") :]  # the prose after the code block
    classes = set(re.findall(r"`([A-Z][A-Za-z]+)\(", section))
    assert {"Constant", "Scheduled", "Normalised", "EffectiveSampleSize", "UpperTail"} <= classes
    assert all(hasattr(b3o, name) for name in classes), classes - set(dir(b3o))
    by_name = re.findall(r'get\("([a-z-]+)"\)', section)
    assert by_name == ["auto", "auto-tail"]
    for name in by_name:
        assert temperature.get(name).choose(2, np.linspace(0.0, 1.0, 100), 4)[0] > 0
    assert set(re.findall(r"`(ucb|logei|ehvi)`", section)) == set(acquisitions.names())
    listed = set(re.findall(r"`([a-z]+(?:-[a-z]+)?)`", section[section.index("samplers `") :]))
    assert set(samplers.names()) <= listed
