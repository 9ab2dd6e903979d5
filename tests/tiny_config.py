"""For the workflow tests that run the real Snakefile: a copy of the workflow to run it in, Snakemake run there, and
the smoke config cut down to a few trials."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def workflow_copy(work: Path) -> Path:
    """The Snakefile, its rules, configs, profiles and committed paper/ copied into `work`, to run Snakemake in."""
    for name in ("Snakefile", "workflow", "config", "profiles", "paper"):
        source = ROOT / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, work / name)
    return work


def snakemake(workdir: Path, configfile: str, *args: str, timeout: int = 3000) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["snakemake", "--cores", "2", "--configfile", configfile, *args],
        check=False,
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def reruns_trials_or_looks(dry_run: str) -> bool:
    """Whether a dry run's plan holds a trial job or a look (a targeted dry run may replan the tables below its
    target after the look checkpoints are re-read; the tiny run checks that the default target reruns nothing)."""
    return re.search(r"^(rule trials_[0-9a-f]+|checkpoint look):", dry_run, re.MULTILINE) is not None


def tiny_config(workdir: Path, name: str, seeds: int, results: str, trials_per_job: int = 1) -> str:
    """Write config/NAME.yaml in `workdir`: B3O-LogEI-s and Random on a 1-D problem, `seeds` seeds, two iterations,
    outputs under `results`, `trials_per_job` trials per job; returns its path relative to `workdir`."""
    config = yaml.safe_load((workdir / "config/smoke.yaml").read_text())
    experiment = config["experiments"]["synthetic_b100"]
    experiment.update(problems=["forrester1"], seeds=seeds, iterations=2)
    experiment["methods"] = [m for m in experiment["methods"] if m["label"] in ("B3O-LogEI-s", "Random")]
    config.update(
        results=results,
        paper=f"{results}/paper",
        experiments={"synthetic_b100": experiment},
        trials_per_job=trials_per_job,
    )
    config["scaling"]["enabled"] = False
    (workdir / f"config/{name}.yaml").write_text(yaml.safe_dump(config))
    return f"config/{name}.yaml"
