"""The code passes the lint rules pyproject.toml spells out (`[tool.ruff.lint]`), so that an unused import, an
undefined name or a stray statement fails the suite rather than waiting for a reader."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _ruff(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", *args]
    return subprocess.run(command, cwd=cwd, check=False, capture_output=True, text=True, timeout=300)


def test_the_repository_passes_its_lint_rules() -> None:
    result = _ruff(".")
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]


def test_the_rules_catch_an_unused_import_and_an_undefined_name(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text("import os\n\n\ndef f():\n    return undefined_name\n")
    result = _ruff("--config", str(ROOT / "pyproject.toml"), "bad.py", cwd=tmp_path)
    assert result.returncode == 1
    assert "F401" in result.stdout and "F821" in result.stdout
