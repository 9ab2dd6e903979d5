"""Accuracy and cost of DEFER, its importance correction and the reference package on exact mixtures.

Run with `python -m pytest tests/benchmarks/test_defer_accuracy.py -m benchmark -s`. Each test writes a Markdown
table to results/benchmarks/ (docs/performance.md says what they show) and asserts only what must hold for the numbers to mean anything.
The comparison with the reference implementation `deference` 0.2 (MIT) runs it in its own environment, because it
needs NumPy >= 2 and torch while B3O pins NumPy < 2: install it with
`python -m venv .venv-deference && .venv-deference/bin/pip install -r tests/benchmarks/deference-requirements.txt`
and point `B3O_DEFERENCE_PYTHON` at that interpreter; the test is skipped otherwise.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest
from mixtures import TARGETS, Mixture

from b3o import samplers

pytestmark = pytest.mark.benchmark

OUT = Path("results/benchmarks")
BUDGET = 10_000
BATCH, BATCHES = 100, 20  # B3O's batch size; batches pooled so the sampling noise of the shares is ~0.01
# TARGETS: those of tests/test_sampler_modes.py, named there by how often spread evaluations find the narrow mode.


def run_ours(name: str, target: Mixture, **options) -> dict:
    """Mode shares, mean log Z and seconds per batch of BATCH, pooled over BATCHES seeds."""
    xs, log_z, start = [], [], time.perf_counter()
    for seed in range(BATCHES):
        sampler = samplers.get(name, budget=BUDGET, **options)
        xs.append(sampler.sample(target, target.space, BATCH, seed=seed))
        log_z.append(sampler.diagnostics["log_z"])
    return {
        "shares": target.sample_masses(np.concatenate(xs)),
        "log_z": float(np.mean(log_z)),
        "seconds": (time.perf_counter() - start) / BATCHES,
    }


def run_reference(target: Mixture, python: str, explore: bool = False) -> dict:
    spec = {
        "means": target.means.tolist(),
        "sds": target.sds.tolist(),
        "weights": target.weights.tolist(),
        "lower": target.lower.tolist(),
        "upper": target.upper.tolist(),
        "budget": BUDGET,
        "num_samples": BATCH * BATCHES,
        "seed": 0,
        "backend": "torch",
        "explore": explore,
    }
    runner = Path(__file__).with_name("deference_runner.py")
    done = subprocess.run([python, str(runner)], input=json.dumps(spec), capture_output=True, text=True, check=True)
    result = json.loads(done.stdout)
    return {
        "shares": target.sample_masses(np.asarray(result["samples"])),
        "log_z": result["log_z"],
        "seconds": result["seconds"],
    }


def row(target_name: str, target: Mixture, method: str, result: dict) -> str:
    exact = target.mode_masses()
    error = np.abs(result["shares"] - exact).max()
    shares = " / ".join(f"{s:.3f}" for s in result["shares"])
    return (
        f"| {target_name} | {method} | {shares} | {error:.3f} | {result['log_z']:.2f} | {result['seconds']:.2f} |"
    )


def header(target_name: str, target: Mixture) -> list[str]:
    exact = " / ".join(f"{s:.3f}" for s in target.mode_masses())
    return [f"| {target_name} | exact | {exact} | 0 | {target.log_z():.2f} | |"]


def write(name: str, lines: list[str]) -> None:
    table = [
        "| target | sampler | mode shares | worst error | log Z | seconds |",
        "| --- | --- | --- | --- | --- | --- |",
        *lines,
    ]
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / name).write_text("\n".join(table) + "\n")
    print("\n".join(table))


def test_importance_candidates_curve():
    """Accuracy and cost against K, the candidates per sample, at a total budget of 10^4: plain DEFER with and without
    high-mass refinement and with a random origin (K = 0), then defer-is (no high-mass refinement, random origin) for
    K = 1 ... 30."""
    lines = []
    for target_name, make in TARGETS.items():
        target = make()
        lines += header(target_name, target)
        runs = {
            "defer (K = 0)": run_ours("defer", target),
            "defer, high_mass off (K = 0)": run_ours("defer", target, high_mass=False),
            "defer, high_mass off, random origin (K = 0)": run_ours(
                "defer", target, high_mass=False, random_origin=True
            ),
            **{f"defer-is, K = {k}": run_ours("defer-is", target, importance=k) for k in (1, 3, 10, 30)},
        }
        for method, result in runs.items():
            assert np.isclose(result["shares"].sum(), 1.0)
            lines.append(row(target_name, target, method, result))
    write("defer_importance_curve.md", lines)


def test_against_reference_implementation():
    python = os.environ.get("B3O_DEFERENCE_PYTHON")
    if not python:
        pytest.skip("set B3O_DEFERENCE_PYTHON to an interpreter with deference 0.2 installed (see module docstring)")
    lines = []
    for target_name, make in TARGETS.items():
        target = make()
        lines += header(target_name, target)
        for method, result in (
            ("B3O defer", run_ours("defer", target)),
            ("B3O defer-is", run_ours("defer-is", target)),
            ("deference 0.2", run_reference(target, python)),
            ("deference 0.2, explore", run_reference(target, python, explore=True)),
        ):
            assert np.isclose(result["shares"].sum(), 1.0) and np.isfinite(result["log_z"])
            lines.append(row(target_name, target, method, result))
    write("reference_defer.md", lines)
