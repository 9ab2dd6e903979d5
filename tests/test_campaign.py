"""A campaign never repeats a batch (issue 79): a lab that builds a fresh `BoltzmannBatch` each batch, in a new
process, from the data it saved (trieste's ask-tell), continues the rule's iteration and draws a new batch."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from b3o import CampaignWarning

ROOT = Path(__file__).resolve().parents[1]
INITIAL = 6
BATCH = 4

#: one week of the campaign: load the saved data, build model and rule afresh, ask for a batch, evaluate it, tell,
#: save the data (docs/method.md's ask-tell example, with a small sampler budget and a Scheduled temperature)
WEEK = """
import json, sys
import numpy as np
import b3o
b3o.quiet_tensorflow()
import tensorflow as tf
from trieste.ask_tell_optimization import AskTellOptimizer
from trieste.data import Dataset
from trieste.models.gpflow import GaussianProcessRegression, build_gpr
from trieste.space import Box


def week(path, options):
    space = Box([0.0, 0.0], [1.0, 1.0])
    saved = np.load(path)
    data = Dataset(tf.constant(saved["x"]), tf.constant(saved["y"]))
    model = b3o.StandardisedModel(lambda d: GaussianProcessRegression(build_gpr(d, space)), data)
    rule = b3o.BoltzmannBatch(
        "logei", b3o.samplers.get("defer-is", budget=400), b3o.Scheduled(1.0), batch_size=%d, seed=0, **options
    )
    campaign = AskTellOptimizer(space, data, model, rule)
    batch = campaign.ask()
    campaign.tell(Dataset(batch, tf.reduce_sum((batch - 0.3) ** 2, axis=1, keepdims=True)))
    record = campaign.to_record()
    np.savez(path, x=record.dataset.query_points.numpy(), y=record.dataset.observations.numpy())
    return {"t": rule.diagnostics["t"], "lambda_t": rule.diagnostics["lambda_t"]}
""" % BATCH


def _start(tmp_path: Path) -> Path:
    path = tmp_path / "campaign.npz"
    x = np.random.default_rng(0).random((INITIAL, 2))
    np.savez(path, x=x, y=((x - 0.3) ** 2).sum(axis=1, keepdims=True))
    return path


def _here(path: Path, **options: Any) -> dict:
    """A week in this process."""
    namespace: dict[str, Any] = {}
    exec(compile(WEEK, "week", "exec"), namespace)
    return namespace["week"](str(path), options)


def _in_a_new_process(path: Path, **options: Any) -> dict:
    code = WEEK + "\nprint(json.dumps(week(sys.argv[1], json.loads(sys.argv[2]))))\n"
    done = subprocess.run(
        [sys.executable, "-c", code, str(path), json.dumps(options)],
        env=os.environ | {"PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _batches(path: Path) -> list[np.ndarray]:
    points = np.load(path)["x"]
    return [points[start : start + BATCH] for start in range(INITIAL, len(points), BATCH)]


def _shared(a: np.ndarray, b: np.ndarray) -> int:
    """How many points of `a` are also in `b`."""
    return int(np.isclose(a[:, None, :], b[None, :, :]).all(axis=-1).any(axis=1).sum())


def test_a_fresh_rule_in_a_new_process_continues_the_schedule_and_draws_a_new_batch(tmp_path):
    path = _start(tmp_path)
    with warnings.catch_warnings():  # its first, uniform batch is the schedule's start, read from the data: no warning
        warnings.simplefilter("error", CampaignWarning)
        first = _here(path, initial_size=INITIAL)
    second = _in_a_new_process(path, initial_size=INITIAL)  # the saved data, reloaded by a new process
    assert (first["t"], second["t"]) == (1, 2)
    assert first["lambda_t"] == 0.0 and second["lambda_t"] == pytest.approx(np.sqrt(2) * np.log(2))
    week_1, week_2 = _batches(path)
    assert _shared(week_2, week_1) == 0


def test_without_initial_size_the_data_still_keep_batches_new(tmp_path):
    """A rule that cannot tell t (no `initial_size`) starts at t = 1 each week, but its seed is keyed by the data: the
    second week's uniform batch is not the first week's, as it was when the seed came from (seed, t) alone."""
    path = _start(tmp_path)
    restarted = "BoltzmannBatch at t = 1 with Scheduled(1.0): lambda_1 = 0, so this batch is uniform"
    for _ in range(2):  # each week's rule says that its batch is a first, uniform one, and what it lacks
        with pytest.warns(CampaignWarning, match=re.escape(restarted)) as said:
            assert _here(path)["t"] == 1
        assert "initial_size=<the initial design's size>" in str(said[0].message)
    week_1, week_2 = _batches(path)
    assert _shared(week_2, week_1) == 0
    with pytest.warns(CampaignWarning):
        _here(path, seed_from_data=False)
    with pytest.warns(CampaignWarning, match="at t = 1 all 4 of the batch's 4 points are already in the data: it "
                                             "repeats an earlier batch") as said:
        _here(path, seed_from_data=False)
    assert str(said[0].message).endswith("and with seed_from_data=False its seed is (seed, t) alone")
    week_3, week_4 = _batches(path)[2:]
    assert _shared(week_4, week_3) == BATCH  # the repeat the data-keyed seed prevents: seeds from (seed, t) alone
