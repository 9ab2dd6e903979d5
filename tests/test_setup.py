"""The README's two quick-start commands are what CI runs, and the versions they install are the published run's."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _quick_start() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    block = readme[readme.index("## Quick start") :].split("```bash\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line and not line.startswith("#")]


def test_ci_runs_the_readme_s_test_command_verbatim():
    run, test = _quick_start()
    assert "snakemake" in run and "pytest" in test
    assert test in (ROOT / ".ci/run").read_text().splitlines()


def test_the_install_commands_pin_every_dependency_to_the_published_run_s_version():
    pinned = dict(
        line.split("==") for line in (ROOT / "constraints.txt").read_text().splitlines() if line and line[0] != "#"
    )
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    direct = project["dependencies"] + extras["suite"] + extras["test"]
    names = {re.split(r"[<>=!~\[; ]", d, maxsplit=1)[0].lower().replace("_", "-") for d in direct} - {"b3o"}
    assert names <= set(pinned), names - set(pinned)
    assert all("-c constraints.txt" in command for command in _quick_start())


def test_the_quick_start_names_the_script_of_every_optional_system_package():
    """LaTeX (the PDF report) and Chromium (the site's browser test) are optional; the Quick start says which script
    installs each, and the scripts exist (issue 69)."""
    readme = (ROOT / "README.md").read_text()
    quick_start = readme[readme.index("## Quick start") : readme.index("**Command 1**")]
    named = set(re.findall(r"`(tools/install-[\w-]+\.sh)`", quick_start))
    assert named == {path.relative_to(ROOT).as_posix() for path in ROOT.glob("tools/install-*.sh")}
    assert "LaTeX" in quick_start and "Chromium" in quick_start
