"""examples/ runs end to end as written: the trieste loop here; the study of a user's problem and method from a
directory of its own in tests/test_study.py."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]


def test_the_trieste_loop_example_runs_and_starts_quietly(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "TF_CPP_MIN_LOG_LEVEL"} | {"PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples/trieste_loop.py")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    best = re.search(r"best of 17 evaluations: f\[.*\] = ([0-9.]+)", done.stdout)
    assert best is not None, done.stdout
    assert 7.0 <= float(best.group(1)) < 100.0  # the bowl's floor is 7; 17 points find its region
    assert "cuda" not in done.stderr.lower() and "absl" not in done.stderr, done.stderr  # a quiet start
