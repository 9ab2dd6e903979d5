"""The method installs alone: `import b3o` and the README's trieste loop import none of the suite's packages.

The plain install (`pip install -e .`) has trieste and its stack only; the suite's packages are the `suite` extra.
Here the README's loop runs in a fresh interpreter in which importing any of them fails (a `sys.meta_path` finder
that refuses them), so a new import of the suite from the method fails this test. `tools/measure_install.py` builds
the two installs in clean virtual environments and measures them (docs/install.md).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# import names of the suite's distributions, and the repository's own suite packages
SUITE_MODULES = (
    "pybamm", "pymoo", "snakemake", "seaborn", "pandas", "pyarrow", "matplotlib", "yaml", "jsonschema", "psutil",
    "threadpoolctl", "PIL", "harness", "problems", "baselines", "analysis",
)

BLOCKER = """
import sys
from importlib.abc import MetaPathFinder

class RefuseSuite(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {refused!r}:
            raise ModuleNotFoundError(f"the suite's package {{name}} imported by the method")

sys.meta_path.insert(0, RefuseSuite())
"""


def _readme_loop() -> str:
    section = (ROOT / "README.md").read_text().split("## Use B3O in a trieste loop", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.DOTALL).group(1)


def test_readme_loop_runs_with_the_suite_s_packages_refused(tmp_path):
    code = BLOCKER.format(refused=set(SUITE_MODULES)) + _readme_loop() + "\nprint('batch', rule.diagnostics['t'])\n"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "batch 2" in done.stdout


def test_the_blocker_refuses_what_it_says():
    """The control: the same interpreter set-up does refuse a suite import."""
    code = BLOCKER.format(refused=set(SUITE_MODULES)) + "import b3o\nimport pandas\n"
    done = subprocess.run([sys.executable, "-c", code], env={"PYTHONPATH": str(ROOT)}, capture_output=True, text=True)
    assert done.returncode != 0 and "the suite's package pandas imported by the method" in done.stderr


def test_plain_install_requires_none_of_the_suite():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = {re.split(r"[<>=!~\[; ]", d, maxsplit=1)[0].lower() for d in project["dependencies"]}
    assert names == {"trieste", "tensorflow", "tf-keras", "gpflow", "tensorflow-probability", "numpy", "scipy"}
    suite = project["optional-dependencies"]["suite"]
    assert {"pybamm>=26,<27", "snakemake>=9,<10", "seaborn>=0.13", "pandas>=2.1"} <= set(suite)
    assert "b3o[suite]" in project["optional-dependencies"]["test"]
