"""The numerical platform: pinned, trials of every method kind give identical records under two BLAS kernel
selections; without the pin they do not; and the platform is recorded."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from test_regression import CASES

from bench import numerics
from bench.records import stable

#: one trial of each kind: B3O with DEFER, TS, a sequential method and the battery (a simulator, two objectives)
KINDS = ("b3o-defer", "ts", "seq-ei", "battery-b3o-ehvi")
#: two BLAS selections a machine may impose: its own default, and another kernel set with two threads
SELECTIONS = ({}, {"OPENBLAS_CORETYPE": "Sandybridge", "OPENBLAS_NUM_THREADS": "2", "OMP_NUM_THREADS": "2"})


def _run(names: tuple[str, ...], env: dict[str, str], tmp_path) -> dict[str, dict]:
    """The records of `names` from one `b3o run-trials` process started with `env` over a clean environment."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(numerics._RECORDED_PREFIXES + ("B3O_",))}
    out = tmp_path / "_".join(f"{k}={v}" for k, v in env.items()) if env else tmp_path / "default"
    items = [{"spec": CASES[name], "out": str(out / f"{name}.json")} for name in names]
    result = subprocess.run(
        [sys.executable, "-m", "bench.cli", "run-trials", "--trials", json.dumps(items)],
        env={**base, **env}, capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return {name: json.loads((out / f"{name}.json").read_text()) for name in names}


@pytest.mark.long  # eight trials in two processes, a minute or more: CI runs it (docs/testing.md)
def test_pinned_records_are_identical_under_two_blas_kernel_selections(tmp_path):
    first, second = (_run(KINDS, env, tmp_path) for env in SELECTIONS)
    for name in KINDS:
        assert stable(first[name]) == stable(second[name]), f"{name} differs between BLAS selections"
        for record in (first[name], second[name]):
            assert record["provenance"]["numerics"]["pinned"] is True
            assert {lib["architecture"] for lib in record["provenance"]["numerics"]["blas"]} == {"Haswell"}
        assert first[name]["provenance"]["platform_id"] == second[name]["provenance"]["platform_id"]


@pytest.mark.slow  # the control of the test above: two more trial processes
def test_without_the_pin_the_kernels_change_the_records(tmp_path):
    """What the test above guards against: the machine's choice of kernels moves a B3O trial's numbers."""
    native = {"B3O_NUMERICS": numerics.NATIVE}
    first, second = (_run(("b3o-defer",), {**native, **env}, tmp_path) for env in SELECTIONS)
    assert stable(first["b3o-defer"]) != stable(second["b3o-defer"])
    assert first["b3o-defer"]["provenance"]["numerics"]["pinned"] is False
    assert first["b3o-defer"]["provenance"]["platform_id"] != second["b3o-defer"]["provenance"]["platform_id"]


def test_a_command_started_after_numpy_loaded_re_executes_under_the_pin():
    code = "import numpy, sys; from bench.cli import main; sys.exit(main(['platform']))"
    env = {**os.environ, "OPENBLAS_CORETYPE": "Sandybridge", "OPENBLAS_NUM_THREADS": "2"}
    env.pop("B3O_NUMERICS", None)
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    platform = json.loads(result.stdout)["numerics"]
    assert platform["pinned"] is True
    assert {(lib["architecture"], lib["num_threads"]) for lib in platform["blas"]} == {("Haswell", 1)}


def test_a_bad_opt_out_value_is_one_error_before_any_work():
    env = {**os.environ, "B3O_NUMERICS": "fast"}
    result = subprocess.run([sys.executable, "-m", "bench.cli", "run-trial", "--out", "x.json"], env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "b3o: error: B3O_NUMERICS must be 'pinned' (the default) or 'native', got 'fast'"
    ]


def _fingerprint(**changes) -> dict:
    base = {
        "pinned": True,
        "cpu": {"model": "Some CPU", "isa": ["avx", "avx2", "fma"], "caches": {"L1d": "48K", "L2": "2048K"}},
        "blas": [{"internal_api": "openblas", "prefix": "libopenblas", "version": "0.3.23", "architecture": "Haswell",
                  "threading_layer": "pthreads", "num_threads": 1}],
        "environment": {"OPENBLAS_CORETYPE": "Haswell"},
        "tensorflow": {"intra_op_threads": 0, "inter_op_threads": 0, "onednn": True},
    }
    for key, value in changes.items():
        section, _, field = key.partition("__")
        if field:
            base[section] = {**base[section], field: value}
        else:
            base[section] = value
    return base


@pytest.mark.parametrize(
    "change, same",
    [
        ({"cpu__model": "Another CPU"}, True),  # the model name alone does not enter the numbers
        ({"environment": {}}, True),  # what the variables chose is recorded in `blas`
        ({"cpu__caches": {"L1d": "32K", "L2": "1024K"}}, False),
        ({"cpu__isa": ["avx", "avx2", "avx512f", "fma"]}, False),
        ({"tensorflow__onednn": False}, False),
        ({"blas": [{"internal_api": "openblas", "prefix": "libopenblas", "version": "0.3.23",
                    "architecture": "SkylakeX", "threading_layer": "pthreads", "num_threads": 1}]}, False),
    ],
)
def test_platform_id_follows_what_enters_the_numbers(change, same):
    versions = {"numpy": "1.26.4", "tensorflow": "2.18.1"}
    base = numerics.platform_id(_fingerprint(), versions)
    assert (numerics.platform_id(_fingerprint(**change), versions) == base) is same
    assert numerics.platform_id(_fingerprint(), {**versions, "numpy": "1.26.3"}) != base
