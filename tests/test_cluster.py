"""The workflow through `--profile profiles/slurm` on a real SLURM cluster (`-m cluster`; bring one up on this machine
with `cluster/slurm-up.sh`, as root). Every trial must run inside a SLURM job (two per job here) and the analysis rules
locally; a run that
stops making progress (the plugin polling `sacct` on a cluster without accounting) fails by timeout, not by hanging.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
from pathlib import Path

import pandas as pd
import pytest
from tiny_config import tiny_config

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT_S = 900  # the run below takes 3-5 minutes here; a hung run is killed after this
SUBMITTED = re.compile(r"submitted with SLURM jobid (\d+) \(log: \S*/slurm_logs/rule_(\w+)/(?:([0-9a-f]{16})/)?")

pytestmark = pytest.mark.cluster


def _slurm(*args: str) -> str:
    return subprocess.run(args, capture_output=True, text=True, check=True, timeout=30).stdout


@pytest.fixture(scope="module")
def node_memory_mb() -> int:
    """The cluster's one node must be up (cluster/slurm-up.sh); its memory bounds what a job may ask for."""
    if shutil.which("sinfo") is None:
        pytest.fail("no SLURM client here: run cluster/slurm-up.sh (as root) first")
    states = _slurm("sinfo", "-h", "-o", "%T %m").split()
    if not states or states[0] not in ("idle", "mixed", "allocated"):
        pytest.fail(f"no usable SLURM node (sinfo: {states}); run cluster/slurm-up.sh first")
    return int(states[1])


def _config(workdir: Path) -> str:
    """Four tiny trials (two methods, two seeds, a 1-D problem) in jobs of two trials each, the grid, tidy table and
    run-time table."""
    return tiny_config(workdir, "cluster", seeds=2, results="results/cluster", trials_per_job=2)


def _run(workdir: Path, args: list[str]) -> tuple[int | None, str]:
    """Snakemake in its own process group: on timeout the whole group is killed (a hung run ignores SIGTERM), and so
    are the SLURM jobs it submitted."""
    log = workdir / "snakemake.log"
    with log.open("w") as out:
        process = subprocess.Popen(args, cwd=workdir, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            code: int | None = process.wait(timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
            code = None
            jobs = [job for job, _, _ in SUBMITTED.findall(log.read_text())]
            if jobs:
                subprocess.run(["scancel", *jobs], timeout=30)
    return code, log.read_text()


def _completed(job_ids: set[str]) -> set[str]:
    """The jobs SLURM logged as finished with exit code 0: in the controller's log, and in `sacct` where the cluster
    keeps accounting (cluster/slurm-up.sh --accounting)."""
    config = _slurm("scontrol", "show", "config")
    logfile = re.search(r"^SlurmctldLogFile\s*=\s*(\S+)", config, re.M).group(1)
    done = set(re.findall(r"_job_complete: JobId=(\d+) WEXITSTATUS 0", Path(logfile).read_text()))
    if "accounting_storage/slurmdbd" in config:
        rows = _slurm("sacct", "-X", "-n", "-P", "-o", "JobID,State,ExitCode", "-j", ",".join(sorted(job_ids)))
        finished = (row.split("|") for row in rows.split())
        done &= {job for job, state, code in finished if (state, code) == ("COMPLETED", "0:0")}
    return job_ids & done


def test_every_trial_runs_as_a_slurm_job(tmp_path, node_memory_mb):
    for name in ("Snakefile", "workflow", "config", "profiles", "paper"):
        source = ROOT / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, tmp_path / name)
    configfile = _config(tmp_path)
    out = "results/cluster"
    targets = [f"{out}/tidy.parquet", f"{out}/paper/tables/run_times.csv"]
    args = ["snakemake", *targets, "--profile", "profiles/slurm", "--configfile", configfile]
    if node_memory_mb < 16000:  # the profile's `tidy` size is for the paper grid; this node is smaller
        args += ["--set-resources", f"tidy:mem_mb={node_memory_mb}"]
    code, log = _run(tmp_path, args)

    assert code is not None, f"Snakemake did not finish within {TIMEOUT_S} s and was killed:\n{log[-4000:]}"
    assert code == 0, log[-4000:]
    grid = pd.read_csv(tmp_path / out / "grid.csv")
    submitted = SUBMITTED.findall(log)
    trial_jobs = {rule: job for job, rule, _ in submitted if rule.startswith("trials_")}
    assert len(trial_jobs) == 2, log[-4000:]  # one job per method, each running both seeds
    assert sorted(rule for _, rule, _ in submitted if rule not in trial_jobs) == ["tidy"]  # grid, run_times: local
    job_ids = {job for job, _, _ in submitted}
    assert _completed(job_ids) == job_ids
    ran_in = {}
    for trial_id in grid["trial_id"]:  # each record was written inside one of those SLURM jobs, two per job
        record = json.loads((tmp_path / out / "trials" / f"{trial_id}.json").read_text())
        ran_in.setdefault(record["provenance"]["slurm_job_id"], []).append(trial_id)
    assert set(ran_in) == set(trial_jobs.values()) and sorted(map(len, ran_in.values())) == [2, 2]
    assert len(pd.read_parquet(tmp_path / out / "tidy.parquet")) == int(sum(grid["iterations"] + 1))
