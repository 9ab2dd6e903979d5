"""Building the workflow's DAG must not import TensorFlow: every cluster job re-parses the workflow, and TensorFlow's
import (8-20 s here) would be paid once more per job. The spec check's subprocess imports it only for a setting this code
has not passed before. (That the specs are still validated before any job runs is tested in test_workflow.py.)"""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _dry_run(workdir: Path, *args: str) -> subprocess.CompletedProcess:
    """`snakemake -n` with Python's import log on stderr (the spec check's subprocess has its stderr captured)."""
    return subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "snakemake", "-n", "--cores", "1", *args],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_dag_build_imports_no_tensorflow(tmp_path):
    for name in ("Snakefile", "workflow", "config", "profiles", "paper", "analysis"):
        source = ROOT / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, tmp_path / name)
    # a table is added by adding its script: the workflow finds its declaration and builds it for its experiment
    (tmp_path / "analysis/tables/my_count.py").write_text('TABLES = {"my_count": "my_study"}\n')
    config = yaml.safe_load((tmp_path / "config/smoke.yaml").read_text())
    config["scaling"]["enabled"] = False
    config["slot_minutes"] = 5  # below every trial job's 10-min floor: each asks for one 5-min slot and resubmissions
    # a user's problem and method named by reference (`module:factory`), importable from the working directory
    shutil.copy(ROOT / "tests/data/b3o-example-sphere/b3o_example_sphere.py", tmp_path)
    config["experiments"]["my_study"] = {
        "problems": ["b3o_example_sphere:shifted_sphere"], "seeds": 1, "batch_size": 2, "iterations": 1, "n_init": 2,
        "methods": [{"label": "Perturb-best", "method": "b3o_example_sphere:PerturbBest", "params": {"step": 0.1}}],
    }
    (tmp_path / "good.yaml").write_text(yaml.safe_dump(config))
    good = _dry_run(tmp_path, "--configfile", "good.yaml", "--verbose")  # verbose: each job's resources
    assert good.returncode == 0, good.stderr[-3000:]
    imported = set(re.findall(r"^import time:.*\|\s*(\S+)$", good.stderr, re.M))
    assert "snakemake" in imported and "bench.grid" in imported  # the import log is there
    assert not {m for m in imported if m.split(".")[0] in ("tensorflow", "trieste", "gpflow")}
    assert "progress_my_study" in good.stdout  # the referenced experiment is in the DAG, and its specs passed the check
    assert "table=my_count" in good.stdout and "table=horizon" not in good.stdout  # smoke runs no horizon
    # every run commits its per-iteration table and draws from it the two anytime views its report shows
    assert "rule per_iteration:" in good.stdout and "view=metric" in good.stdout and "view=recommended" in good.stdout
    runtimes = {int(m) for m in re.findall(r"rule trials_\w+:.*?runtime=(\d+)", good.stdout, re.S)}
    assert runtimes == {5}, runtimes



def test_check_specs_refuses_bad_input_with_exit_2():
    for text, message in (("{not json", "Expecting property name"), ('{"problem": "x"}', "expected a JSON list")):
        result = subprocess.run(
            [sys.executable, "-m", "bench.cli", "check-specs"], input=text, capture_output=True, text=True, timeout=120
        )
        assert result.returncode == 2 and message in result.stderr.splitlines()[-1], result.stderr


def _check(specs: list[dict], monkeypatch) -> int:
    """`b3o check-specs` on `specs`, in this process: its exit code."""
    from bench.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(specs)))
    return main(["check-specs"])


def test_a_setting_passed_once_is_not_built_again_until_the_code_changes(tmp_path, monkeypatch):
    from bench import checked_specs
    from bench.spec import TrialSpec

    spec = {"problem": "forrester1", "method": "random", "batch_size": 2, "iterations": 1, "n_init": 2, "seed": 0}
    bad = {**spec, "n_init": 1, "method": "ts"}  # a model-based method needs 2 initial points
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert _check([spec, bad], monkeypatch) == 2  # refused: nothing remembered
    assert not list(checked_specs.store().glob("*/*"))
    assert _check([spec], monkeypatch) == 0 and len(list(checked_specs.store().glob("*/*"))) == 1
    # the same setting in a fresh process: remembered, so nothing is built and TensorFlow is not imported
    code = ("import io, json, sys; sys.stdin = io.StringIO(sys.argv[1]); from bench.cli import main; "
            "status = main(['check-specs']); print(json.dumps([status, 'tensorflow' in sys.modules]))")
    again = subprocess.run([sys.executable, "-c", code, json.dumps([{**spec, "seed": 5}])], capture_output=True,
                           text=True, timeout=300)
    assert json.loads(again.stdout.splitlines()[-1]) == [0, False], again.stderr[-2000:]
    assert checked_specs.unchecked([TrialSpec.from_dict({**spec, "batch_size": 3})])  # another setting is checked
    # a user's problem by reference: its code is not in the key, so it is checked at every start
    reference = TrialSpec.from_dict({**spec, "problem": "b3o_example_sphere:shifted_sphere"})
    checked_specs.remember([reference])
    assert checked_specs.unchecked([reference]) == [reference]
    # the key holds the code: another hash of it makes every setting new
    assert checked_specs.unchecked([TrialSpec.from_dict(spec)]) == []
    monkeypatch.setattr(checked_specs, "code_key", lambda: "edited")
    assert len(checked_specs.unchecked([TrialSpec.from_dict(spec)])) == 1
    # and the store keeps one code's settings: the earlier code's are dropped when the new code's first pass
    checked_specs.remember([TrialSpec.from_dict(spec)])
    assert [p.name for p in checked_specs.store().iterdir()] == ["edited"]
