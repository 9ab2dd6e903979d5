"""Continuing a finished trial to more iterations (`bench.extension`): the longer trial's record is the one a
fresh run of its spec writes, its first iterations the shorter trial's, and a state is never used where it would not
give that (another platform, a method whose draws depend on T, a damaged file)."""

from __future__ import annotations

import pytest
from test_runner import TINY

import baselines
import bench.runner
from bench.extension import STATES
from bench.records import stable
from bench.runner import run_trial
from bench.spec import TrialSpec

SHORT = {**TINY, "iterations": 2, "seed": 3}  # a different seed from the runner tests' trials
LONG = {**SHORT, "iterations": 3}


@pytest.fixture(scope="module")
def fresh_long(tmp_path_factory) -> dict:
    """LONG's record run afresh, once for the tests that compare a continued B3O trial with it."""
    return run_trial(LONG, tmp_path_factory.mktemp("fresh") / "long.json")


METHODS = [
    pytest.param({}, id="b3o"),
    pytest.param({"method": "random", "params": {}}, id="random"),
    # TS's continuation restores its model as B3O's does: `-m long`, which CI runs (docs/testing.md)
    pytest.param({"method": "ts", "params": {}}, id="ts", marks=pytest.mark.long),
]


@pytest.mark.parametrize("method", METHODS)
def test_a_continued_trial_is_the_fresh_longer_trial(tmp_path, method, request):
    short, long = {**SHORT, **method}, {**LONG, **method}
    fresh = request.getfixturevalue("fresh_long") if not method else run_trial(long, tmp_path / "fresh" / "long.json")
    first = run_trial(short, tmp_path / "trials" / "short.json")
    continued = run_trial(long, tmp_path / "trials" / "long.json")
    assert continued["continued_from"] == {"iterations": 2, "trial_id": TrialSpec.from_dict(short).trial_id}
    assert "continued_from" not in fresh
    assert stable(continued) == stable(fresh)  # bit for bit, timings aside
    assert stable(continued)["trace"][:3] == stable(first)["trace"][:3]


@pytest.mark.long  # CI runs it after the default suite (docs/testing.md)
def test_the_longest_shorter_state_is_used(tmp_path):
    run_trial({**SHORT, "iterations": 1}, tmp_path / "one.json")
    run_trial(SHORT, tmp_path / "two.json")
    assert run_trial(LONG, tmp_path / "long.json")["continued_from"]["iterations"] == 2
    # a spec that differs in anything but `iterations` starts afresh
    assert "continued_from" not in run_trial({**LONG, "seed": 4}, tmp_path / "other-seed.json")


@pytest.mark.long  # CI runs it after the default suite (docs/testing.md)
def test_a_state_of_another_platform_is_not_used(tmp_path, monkeypatch):
    run_trial(SHORT, tmp_path / "short.json")
    original = bench.runner.provenance
    monkeypatch.setattr(bench.runner, "provenance", lambda: {**original(), "platform_id": "elsewhere000"})
    assert "continued_from" not in run_trial(LONG, tmp_path / "long.json")


def test_a_method_whose_draws_depend_on_the_horizon_is_never_continued(tmp_path, monkeypatch):
    monkeypatch.setattr(baselines.method_class("b3o"), "horizon_free", False)
    run_trial(SHORT, tmp_path / "short.json")
    assert not list((tmp_path / STATES).glob("*.npz"))  # nothing kept
    assert "continued_from" not in run_trial(LONG, tmp_path / "long.json")


def test_a_damaged_state_is_moved_aside_and_the_trial_starts_afresh(tmp_path, fresh_long):
    run_trial(SHORT, tmp_path / "short.json")
    (state,) = (tmp_path / STATES).glob("*.npz")
    state.write_bytes(state.read_bytes()[:-40])
    continued = run_trial(LONG, tmp_path / "long.json")
    assert "continued_from" not in continued and stable(continued) == stable(fresh_long)
    assert not state.exists()
