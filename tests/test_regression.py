"""Refactors leave results unchanged: tiny trials of every method kind give the records committed in
`tests/data/regression/` (generated on the code before a refactor), apart from wall times, memory and provenance.

Floats are compared to 1e-9 relative: a changed seed, draw or data convention moves them by far more, while a
different BLAS build may move the last digits. Regenerate (only when a change of results is intended, and say so in
the commit) with `python tests/test_regression.py [CASE ...]`.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from bench.records import ADDED_KEYS, has_key, stable

FIXTURES = Path(__file__).resolve().parent / "data/regression"
_BASE = {"batch_size": 3, "iterations": 2, "n_init": 5, "seed": 7, "model": {"num_inducing": 8, "maxiter": 10}}
_B3O = {"acquisition": "logei", "temperature": "constant", "lam": 1.0}
_SAMPLERS = {
    "defer": {"budget": 200},
    "defer-is": {"budget": 200},
    "mh": {"burn_in": 30},
    "langevin": {"burn_in": 30},
    "dmc": {"num_points": 1024},
}
#: case name -> trial spec, every method kind and B3O sampler; the default run takes the quick ones (`QUICK`)
CASES: dict[str, dict[str, Any]] = {
    **{
        f"b3o-{sampler}": {**_BASE, "problem": "branin2", "method": "b3o",
                           "params": {**_B3O, "sampler": sampler, "sampler_options": options}}
        for sampler, options in _SAMPLERS.items()
    },
    "b3o-ucb-scheduled": {**_BASE, "problem": "forrester1", "method": "b3o",
                          "params": {"acquisition": "ucb", "temperature": "scheduled", "lam": 5.0, "sampler": "defer",
                                     "sampler_options": {"budget": 200}}},
    "random": {**_BASE, "problem": "branin2", "method": "random"},
    "ts": {**_BASE, "problem": "branin2", "method": "ts", "params": {"num_initial_samples_per_dim": 5}},
    "qei": {**_BASE, "problem": "branin2", "method": "qei", "params": {"num_initial_samples_per_dim": 5}},
    "lp": {**_BASE, "problem": "branin2", "method": "lp", "params": {"num_initial_samples_per_dim": 5}},
    "seq-ei": {**_BASE, "problem": "branin2", "method": "seq-ei", "batch_size": 1,
               "params": {"num_initial_samples_per_dim": 5}},
    "battery-b3o-ehvi": {**_BASE, "problem": "battery", "method": "b3o",
                         "params": {"acquisition": "ehvi", "temperature": "constant", "lam": 1.0, "sampler": "defer",
                                    "sampler_options": {"budget": 200}}},
    "battery-nsga2": {**_BASE, "problem": "battery", "method": "nsga2", "batch_size": 4},
    "formula-e-b3o-mixed-mh": {**_BASE, "problem": "formula-e", "method": "b3o",
                               "params": {"acquisition": "logei", "temperature": "constant", "lam": 1.0,
                                          "sampler": "mixed-mh", "sampler_options": {"burn_in": 20}}},
    "formula-e-logei-mv": {**_BASE, "problem": "formula-e", "method": "logei-mv", "batch_size": 1,
                           "params": {"num_initial_samples_per_dim": 5}},
}
#: the default run's cases: B3O with three samplers and both temperatures, TS and random search (the others, each a
#: TensorFlow trace of its own or a simulator, are `-m slow`)
QUICK = ("b3o-defer", "b3o-mh", "b3o-dmc", "b3o-ucb-scheduled", "random", "ts")


def differences(expected: Any, actual: Any, where: str = "") -> list[str]:
    """Paths at which `actual` differs from `expected` (floats to 1e-9 relative)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        if set(expected) != set(actual):
            return [f"{where}: keys {sorted(set(expected) ^ set(actual))} differ"]
        return [d for k in expected for d in differences(expected[k], actual[k], f"{where}.{k}")]
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return [f"{where}: length {len(expected)} != {len(actual)}"]
        return [d for i, (e, a) in enumerate(zip(expected, actual)) for d in differences(e, a, f"{where}[{i}]")]
    if isinstance(expected, float) and isinstance(actual, float):
        close = math.isclose(expected, actual, rel_tol=1e-9, abs_tol=1e-12)
        return [] if close else [f"{where}: {expected} != {actual}"]
    return [] if expected == actual and type(expected) is type(actual) else [f"{where}: {expected!r} != {actual!r}"]


def _run(spec: dict[str, Any], out: Path, expected: dict[str, Any] | None = None) -> dict[str, Any]:
    """The stable content of a run; keys added to records after `expected` was made are left out of it."""
    from bench.runner import run_trial

    record = run_trial(spec, out)
    return stable(record, tuple(k for k in ADDED_KEYS if expected is not None and not has_key(expected, k)))


@pytest.mark.parametrize("case", [c if c in QUICK else pytest.param(c, marks=pytest.mark.slow) for c in CASES])
def test_tiny_trial_gives_the_committed_record(case, tmp_path):
    spec = CASES[case]
    expected = json.loads((FIXTURES / f"{case}.json").read_text())
    actual = json.loads(json.dumps(_run(spec, tmp_path / "r.json", expected)))  # through JSON, as the record is stored
    found = differences(expected, actual)
    assert not found, f"{case}: {len(found)} differences, first: {found[:5]}"


def test_differences_finds_a_changed_draw():
    base = {"trace": [{"points": [[0.25, 0.5]], "best_value": 1.0, "failed": [False]}]}
    assert differences(base, json.loads(json.dumps(base))) == []
    assert differences(base, {"trace": [{"points": [[0.25, 0.5000001]], "best_value": 1.0, "failed": [False]}]})
    assert differences(base, {"trace": [{"points": [[0.25, 0.5]], "best_value": 1.0, "failed": [True]}]})
    assert differences(base, {"trace": [{"points": [[0.25, 0.5]], "best_value": 1, "failed": [False]}]})


def test_a_record_written_before_the_lambda_rename_reads_as_today_s(tmp_path):
    """Published records name the iteration's lambda_t "lam"; reading one gives today's keys and the same values."""
    from bench.records import load_record

    today = json.loads((FIXTURES / "b3o-defer.json").read_text())
    legacy = json.loads(json.dumps(today).replace('"lambda_t":', '"lam":'))
    assert legacy != today
    (tmp_path / "old.json").write_text(json.dumps(legacy))
    record, problem = load_record(tmp_path / "old.json")
    assert problem is None and differences(today, record) == []


if __name__ == "__main__":
    import sys
    import tempfile
    import time

    FIXTURES.mkdir(parents=True, exist_ok=True)
    wanted = sys.argv[1:] or list(CASES)
    with tempfile.TemporaryDirectory() as work:
        for name in wanted:
            start = time.perf_counter()
            record = _run(CASES[name], Path(work) / f"{name}.json")
            (FIXTURES / f"{name}.json").write_text(json.dumps(record, indent=1) + "\n")
            print(f"{name}: {time.perf_counter() - start:.1f} s", flush=True)
