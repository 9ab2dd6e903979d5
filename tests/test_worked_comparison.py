"""The worked comparison of docs/worked-comparison.md (`tools/worked_comparison.py`): a reduced run of the real script
(B3O at three temperatures, trieste's TS and LP in trieste's ask-tell loop on Levy-8; `-m long`) gives a table of the
committed one's shape in which every method proposes B new distinct points per batch from a shared initial design;
the committed table shows the same of the full run, and the docs' block is what the script writes from it."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def comparison():
    spec = importlib.util.spec_from_file_location("worked_comparison", ROOT / "tools" / "worked_comparison.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass resolves its annotations through its module
    spec.loader.exec_module(module)
    return module


@pytest.mark.long  # ten trieste loops with their fits and traces, one or two CPU minutes: CI runs it (docs/testing.md)
def test_a_reduced_run_gives_every_method_b_new_distinct_points_per_batch_from_one_initial_design(comparison,
                                                                                                monkeypatch):
    monkeypatch.setitem(comparison.OPTIMISER, "random_points", 100)  # the rivals' optimiser, cut for time
    monkeypatch.setitem(comparison.OPTIMISER, "lbfgs_runs", 1)
    size = comparison.Size(seeds=2, batches=2, batch_size=4, n_init=10)
    table = comparison.run(size)
    committed = pd.read_csv(comparison.TABLE)
    assert list(table.columns) == list(committed.columns)
    assert len(table) == size.seeds * len(comparison.METHODS) * (size.batches + 1)
    assert comparison.table_size(table) == size
    initial = table[table["batch"] == 0]
    assert (initial.groupby("seed")["best"].nunique() == 1).all()  # one initial design per seed, every method
    assert initial.groupby("method")["best"].nunique().eq(size.seeds).all()  # and a new one for each seed
    batches = table[table["batch"] > 0]
    assert (batches["distinct_new"] == size.batch_size).all(), batches[["method", "seed", "batch", "distinct_new"]]
    assert (batches["evaluations"] == size.n_init + batches["batch"] * size.batch_size).all()
    for _, run in table.groupby(["method", "seed"]):
        assert np.all(np.diff(run.sort_values("batch")["best"]) <= 0)
    b3o = batches[batches["method"] == comparison.B3O]
    assert b3o["b3o_ess_fraction"].between(0, 1).all() and (b3o["b3o_lambda_t"] == 1.0).all()
    assert (batches[batches["method"] == "B3O λ = 5"]["b3o_lambda_t"] == 5.0).all()
    assert batches[batches["method"].isin(comparison.RIVALS)]["b3o_ess_fraction"].isna().all()


def test_the_committed_run_gave_every_method_b_new_distinct_points_per_batch_from_one_initial_design(comparison):
    """What the reduced run checks, on the committed table (the default suite's share of it)."""
    table = pd.read_csv(comparison.TABLE)
    size = comparison.table_size(table)
    assert len(table) == size.seeds * len(comparison.METHODS) * (size.batches + 1)
    initial = table[table["batch"] == 0]
    assert (initial.groupby("seed")["best"].nunique() == 1).all()
    batches = table[table["batch"] > 0]
    assert (batches["distinct_new"] == size.batch_size).all()
    assert (batches["evaluations"] == size.n_init + batches["batch"] * size.batch_size).all()
    b3o = batches[batches["method"] == comparison.B3O]
    assert b3o["b3o_ess_fraction"].between(0, 1).all() and (b3o["b3o_lambda_t"] == 1.0).all()


def test_the_docs_block_is_what_the_script_writes_from_the_committed_table(comparison):
    table = pd.read_csv(comparison.TABLE)
    assert comparison.block(table) in comparison.PAGE.read_text(), \
        "run `PYTHONPATH=. python tools/worked_comparison.py --page-only`"
    assert comparison.FIGURE.is_file()
    assert comparison.table_size(table) == comparison.FULL
    assert set(table["method"]) == set(comparison.METHODS)


def _table(b3o: list[float], ts: list[float], lp: list[float]) -> pd.DataFrame:
    """A table of one batch of 2 after 3 initial points, per seed, with these final bests."""
    rows = []
    for method, finals in zip(("B3O-LogEI-c", "TS", "LP"), (b3o, ts, lp)):
        for seed, best in enumerate(finals):
            for batch in (0, 1):
                rows.append({"method": method, "seed": seed, "batch": batch, "evaluations": 3 + 2 * batch,
                             "best": 1.0 if batch == 0 else best, "distinct_new": math.nan if batch == 0 else 2,
                             "relative_nearest_neighbour": 0.5, "ask_s": 0.1, "fit_s": 0.2, "b3o_lambda_t": 1.0,
                             "b3o_ess_fraction": 0.3, "b3o_relative_diversity": 0.8, "warnings": ""})
    return pd.DataFrame(rows)


def test_the_block_counts_the_seeds_where_b3o_ends_below_each_rival_and_says_how_small_the_sample_is(comparison):
    text = comparison.block(_table([0.1, 0.2, 0.3, 0.4, 0.5], [0.2, 0.1, 0.4, 0.5, 0.6], [0.05, 0.1, 0.2, 0.3, 0.6]))
    assert "the median best value over 5 seeds, from lowest: LP (0.2); B3O-LogEI-c (0.3); TS (0.4);" in text
    assert "B3O at its defaults ends below TS on 4 of 5 (two-sided sign test p = 0.375) and below LP on 1 of 5 (" in text
    assert "even 5 of 5 would give p = 0.0625" in text
    assert "| TS | 0.4 (0.2–0.5) |  | 0 of 5 (+0.15) |" in text  # two ties, not below
    assert "| B3O-LogEI-c | 0.3 (0.2–0.4) | 4 of 5 (-0.1) | 1 of 5 (+0.1) |" in text
    assert "| 1 | 0.3; 0.3–0.3 | 0.8 | none |" in text
    assert "other temperatures" not in text  # none in this table


def test_a_batchs_nearest_neighbour_spread_is_read_in_widths_of_the_box(comparison):
    """On a box of width 200 (Trid-10's) a batch reads as spread as the same batch on [0, 1]: the uniform distance it
    is set against is in box widths."""
    import tensorflow as tf
    from trieste.data import Dataset
    from trieste.space import Box

    unit = np.random.default_rng(0).random((20, 3))
    data = Dataset(tf.constant(unit), tf.constant(unit[:, :1]))
    found = [
        comparison._row("m", 0, 1, data, (unit[:0], unit * width - width / 2), 0.0, 0.0, {},
                        Box([-width / 2] * 3, [width / 2] * 3))["relative_nearest_neighbour"]
        for width in (1.0, 200.0)
    ]
    assert found[1] == pytest.approx(found[0]) and 0.3 < found[0] < 3
