"""A config that passes the schema but would fail inside every job is refused when the real Snakefile is parsed
(issue 17). The results path with a space and the deleted record are covered by the tiny end-to-end run in
test_workflow.py, which runs the workflow anyway."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]


def test_n_init_1_for_a_model_based_method_is_refused_at_parse_time(tmp_path):
    for name in ("Snakefile", "workflow"):
        source = ROOT / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, tmp_path / name)
    experiment = {"problems": ["forrester1"], "seeds": 1, "batch_size": 2, "iterations": 1, "n_init": 1,
                  "methods": [{"label": "TS", "method": "ts"}]}
    config = {"results": "results", "paper": "results/paper", "experiments": {"synthetic_b5": experiment}}
    (tmp_path / "bad.yaml").write_text(yaml.safe_dump(config))
    result = subprocess.run(["snakemake", "--cores", "1", "--configfile", "bad.yaml", "-n"], cwd=tmp_path,
                            capture_output=True, check=False, text=True, timeout=600)
    output = result.stdout + result.stderr
    assert result.returncode != 0 and "n_init must be >= 2 for method 'ts'" in output, output[-3000:]


def test_a_planned_look_that_cannot_decide_is_refused_before_any_trial_runs(tmp_path):
    """Issue 38: B3O against Random on Hartmann-6 at looks of 2 and 4 seeds: one comparison's p cannot go below
    2^(1−2) = 0.5 at the first look, so its seeds would decide nothing; the run stops while parsing the config."""
    for name in ("Snakefile", "workflow"):
        source = ROOT / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, tmp_path / name)
    experiment = {"problems": ["hartmann6"], "seeds": {"start": 2, "step": 2, "max": 4}, "batch_size": 2,
                  "iterations": 1, "n_init": 2, "methods": [
                      {"label": "B3O-LogEI-s", "method": "b3o", "lam": 0.1,
                       "params": {"acquisition": "logei", "temperature": "scheduled", "sampler": "defer"}},
                      {"label": "Random", "method": "random"}]}
    config = {"results": "results", "paper": "results/paper", "experiments": {"synthetic_b100": experiment}}
    (tmp_path / "bad.yaml").write_text(yaml.safe_dump(config))
    result = subprocess.run(["snakemake", "--cores", "1", "--configfile", "bad.yaml"], cwd=tmp_path,
                            capture_output=True, check=False, text=True, timeout=600)
    output = result.stdout + result.stderr
    assert result.returncode != 0, output[-3000:]
    assert "experiment 'synthetic_b100', look 1 (2 seeds) cannot decide any claim" in output, output[-3000:]
    assert "batch_beats_random_b100: 1 comparison(s) × 2^(1−2) = 0.5 ≥ level" in output, output[-3000:]
    assert not (tmp_path / "results").exists()  # no trial ran, not even the grid was written


def _workflow_in(tmp_path, experiment):
    """The real Snakefile run on a config of one experiment from `tmp_path`: (exit status, stdout, stderr)."""
    for name in ("Snakefile", "workflow"):
        source = ROOT / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, tmp_path / name)
    config = {"results": "results", "paper": "results/paper", "experiments": {"mine": experiment}}
    (tmp_path / "bad.yaml").write_text(yaml.safe_dump(config))
    result = subprocess.run(["snakemake", "--cores", "1", "--configfile", "bad.yaml", "-n"], cwd=tmp_path,
                            capture_output=True, check=False, text=True, timeout=600)
    return result.returncode, result.stdout, result.stderr


@pytest.mark.parametrize(
    ("change", "line"),
    [
        ({"seeds": 0}, "experiments.mine.seeds: 0 not allowed (allowed: an integer ≥ 1, or a mapping with start, "
                       "step, max (optional: first, until))"),
        ({"seeds": {"start": 3, "step": 2, "max": 9, "until": 4}},
         "seeds: until=4 must be one of the planned seed counts [3, 5, 7, 9]"),
        ({"n_init": 1, "methods": [{"label": "TS", "method": "ts"}]}, "n_init must be >= 2 for method 'ts'"),
    ],
    ids=["schema", "grid", "names"],
)
def test_a_config_error_is_one_line_on_stderr_and_exit_2(tmp_path, change, line):
    """Issue 69: no schema dump, no stack, nothing on stdout: the field, its value and what is allowed."""
    experiment = {"problems": ["forrester1"], "seeds": 1, "batch_size": 2, "iterations": 1, "n_init": 2,
                  "methods": [{"label": "Random", "method": "random"}]} | change
    status, out, err = _workflow_in(tmp_path, experiment)
    ours = [row for row in err.splitlines() if row.startswith("b3o workflow: ")]
    assert status == 2 and out == "" and len(ours) == 1, err
    assert ours[0].startswith(f"b3o workflow: bad.yaml: error: {line}"), err
    assert "Traceback" not in err and "Failed validating" not in err and not (tmp_path / "results").exists()


def test_a_study_whose_seeds_cannot_decide_its_declared_comparisons_is_warned_before_any_trial(tmp_path):
    """A researcher's study at 3 seeds declaring TS against random search: its p cannot go below 2^(1−3) = 0.25,
    so every verdict would read "too few seeds"; the run says so in one sentence first, and goes on (a smoke run may
    mean it)."""
    experiment = {"problems": ["forrester1"], "seeds": 3, "batch_size": 2, "iterations": 1, "n_init": 2,
                  "methods": [{"label": "TS", "method": "ts"}, {"label": "Random", "method": "random"}],
                  "compare": [{"a": "TS", "b": "Random"}]}
    status, _, err = _workflow_in(tmp_path, experiment)
    warned = [row for row in err.splitlines() if row.startswith("b3o workflow: warning: ")]
    assert status == 0 and warned == [
        "b3o workflow: warning: experiment 'mine' runs 3 seed(s), too few to decide any of its comparisons whatever "
        "the results (at best p = 0.25, not below α = 0.05): every verdict will read 'too few seeds'; 6 seeds are "
        "the fewest at which one could be decided"], err
