"""The main job leaves the checkout's tracked files as they are (issue 69): its figures, tables, claims and report go
under its results directory, and writing into `paper/`, README.md and docs/ is a publishing step asked for with
`publish`. The job ends by comparing its verdicts and final values with the published run's (`b3o verify --run`)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from analysis.claims.verify import against_published

ROOT = Path(__file__).resolve().parents[1]


def _outputs(*config: str) -> tuple[set[str], str]:
    """Every output of every job the real Snakefile schedules for config/config.yaml from scratch, and its plan."""
    plan = subprocess.run(
        [sys.executable, "-m", "snakemake", "--configfile", "config/config.yaml", *config, "--forceall", "-n",
         "--cores", "2"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert plan.returncode == 0, plan.stderr[-3000:]
    lines = re.findall(r"^\s+output: (.*)$", plan.stdout, re.M)
    return {path.strip() for line in lines for path in line.split(",")}, plan.stdout


def _tracked(paths: set[str]) -> set[str]:
    listed = subprocess.run(["git", "ls-files", "--", *sorted(paths)], cwd=ROOT, capture_output=True, text=True,
                            check=True)
    return set(listed.stdout.split())


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs the git checkout")
def test_the_main_job_schedules_no_tracked_output_and_no_readme_rewrite():
    outputs, plan = _outputs()
    assert len(outputs) > 100 and "results/default/paper/claims.md" in outputs  # the whole run is planned
    assert _tracked(outputs) == set(), sorted(_tracked(outputs))[:10]
    assert not [path for path in outputs if not path.startswith("results/")]
    assert "rule readme:" not in plan and "results/default/against_published.md" in outputs


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs the git checkout")
def test_publishing_is_asked_for_and_then_writes_paper_and_the_readme():
    outputs, plan = _outputs("--config", "publish=True")
    assert "paper/claims.md" in outputs and "paper/tables/per_trial.csv" in _tracked(outputs)
    assert "rule readme:" in plan and "results/default/against_published.md" not in outputs


def test_a_run_is_compared_with_the_published_one_claim_by_claim_and_trial_by_trial(tmp_path):
    (tmp_path / "tables").mkdir()
    claims = pd.read_csv(ROOT / "paper/claims.csv")
    measured = claims[claims["verdict"] != "not measured"]
    first = measured.index[0]
    claims.loc[first, "verdict"] = "holds" if claims.loc[first, "verdict"] != "holds" else "does not hold"
    claims.to_csv(tmp_path / "claims.csv", index=False)
    trials = pd.read_csv(ROOT / "paper/tables/per_trial.csv", dtype=str, keep_default_na=False)
    final = trials["budget"] == trials["final_budget"]
    changed = trials.loc[final, "trial_id"].iloc[0]
    trials.loc[final & (trials["trial_id"] == changed), "value"] = "-1.5"
    trials.to_csv(tmp_path / "tables/per_trial.csv", index=False)
    text = against_published(tmp_path, ROOT / "paper").splitlines()
    name, was = measured.loc[first, "name"], measured.loc[first, "verdict"]
    assert text[2] == (f"Verdicts: {len(measured) - 1} of the {len(measured)} claims both measured have the "
                       f"published verdict; changed: {name} ({was} → {claims.loc[first, 'verdict']}).")
    n = trials.loc[final, "trial_id"].nunique()
    assert text[3].startswith(f"Numbers: {n - 1} of the {n} trials both ran reach the published final value to the "
                              f"last bit, 1 differ")
