"""Issue 80 (item 7): a study sent to a cluster from its own directory. The package's profile is found by name
(`b3o study --profile slurm`), and each trial job asks for the runtime and memory the estimate gives its trials, not a
fixed 240 minutes and 4 GB. A dry run (snakemake -n): no SLURM needed, only the executor plugin of the `slurm` extra."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from bench.cost import CostModel
from bench.estimate import COST_MODEL, DEFAULT_LIMIT_MIN, memory_mb, slots
from bench.grid import trial_grid, trial_jobs
from bench.study import profile_directory
from tests.test_study_cost import SMALL

ROOT = Path(__file__).resolve().parents[1]


def test_a_profile_is_a_directory_here_or_the_package_s_by_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert profile_directory("slurm") == (ROOT / "profiles" / "slurm").resolve()
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "config.yaml").write_text("cores: 1\n")
    assert profile_directory("mine") == (tmp_path / "mine").resolve()
    with pytest.raises(ValueError, match=r"--profile 'slurmm': no slurmm/config.yaml here and no package profile of "
                                         r"that name \(the package's: default, slurm\)"):
        profile_directory("slurmm")


@pytest.mark.skipif(importlib.util.find_spec("snakemake_executor_plugin_slurm") is None,
                    reason="the SLURM executor plugin (pip install -e '.[slurm]') is not installed")
def test_a_slurm_dry_run_from_a_study_directory_sizes_each_job_by_the_estimate(tmp_path):
    (tmp_path / "my.yaml").write_text(yaml.safe_dump({**SMALL, "trials_per_job": 2}))
    done = subprocess.run(
        [sys.executable, "-m", "bench.cli", "study", "--configfile", "my.yaml", "--profile", "slurm", "-n"],
        cwd=tmp_path, env=os.environ | {"PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"--profile {(ROOT / 'profiles' / 'slurm').resolve()}" in done.stdout + done.stderr
    jobs = re.findall(r"rule trials_\w+:.*?resources: ([^\n]*)", done.stdout, re.S)
    assert len(jobs) == 2, done.stdout[-3000:]  # B3O's two seeds in one job, Random's in another
    model = CostModel.read(COST_MODEL)
    specs = {row.spec.trial_id: row.spec for row in trial_grid(SMALL)}
    expected = []
    for trial_ids in trial_jobs(specs, 2, {}).values():
        minutes = sum(model.predict(specs[t].to_dict()).total / 60 for t in trial_ids)
        memory = max(memory_mb(specs[t].to_dict(), model.uses_model(specs[t].to_dict())) for t in trial_ids)
        expected.append((memory, slots(minutes, DEFAULT_LIMIT_MIN)[0]))
    found = [(int(re.search(r"mem_mb=(\d+)", job).group(1)), int(re.search(r"runtime=(\d+)", job).group(1)))
             for job in jobs]
    assert sorted(found) == sorted(expected)
    assert all(runtime < DEFAULT_LIMIT_MIN and memory != 4000 for memory, runtime in found), found
