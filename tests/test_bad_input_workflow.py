"""A config that passes the schema but would fail inside every job is refused when the real Snakefile is parsed
(issue 17). The results path with a space and the deleted record are covered by the tiny end-to-end run in
test_workflow.py, which runs the workflow anyway."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

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
