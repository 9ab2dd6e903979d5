"""The per-iteration table and the anytime views drawn from it, on the analysis tests' records (known traces: a
trial of batch size B after t iterations has made n_init + t·B evaluations), and the published runs' committed
per-iteration tables against their per-trial tables."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import numpy as np
import pandas as pd
import pytest
from test_analysis import build_fixture

from analysis.data import per_iteration, per_trial
from analysis.data.tidy import main as tidy_main
from analysis.figures import anytime
from analysis.figures.common import NO_DATA
from analysis.naming import experiment_title, problem_title
from analysis.statistics import runtime_ecdf

ROOT = Path(__file__).resolve().parents[1]
#: the fixture's labels whose records carry the recommended point's regret (here: set on the tidy table)
RECOMMENDING = ("B3O-UCB-c", "TS")


@pytest.fixture(scope="module")
def tidy(tmp_path_factory: pytest.TempPathFactory) -> pd.DataFrame:
    """The analysis fixture's tidy table, with a recommended regret for two labels: twice the best evaluated one."""
    root = tmp_path_factory.mktemp("anytime")
    assert tidy_main(["--grid", str(build_fixture(root)), "--out", str(root / "tidy.parquet")]) == 0
    table = pd.read_parquet(root / "tidy.parquet")
    carried = table["label"].isin(RECOMMENDING) & table["simple_regret"].notna()
    return table.assign(recommended_regret=np.where(carried, 2 * table["simple_regret"], np.nan))


@pytest.fixture(scope="module")
def table(tidy: pd.DataFrame) -> pd.DataFrame:
    return per_iteration.per_iteration(tidy)


def test_one_row_per_trial_and_iteration_with_its_evaluations(tidy: pd.DataFrame, table: pd.DataFrame) -> None:
    trials = tidy.drop_duplicates(["experiment", "trial_id"])
    assert len(table) == int((trials["iterations"] + 1).sum())
    assert not table.duplicated(["experiment", "trial_id", "iteration"]).any()
    shape = trials.set_index(["experiment", "trial_id"])[["n_init", "batch_size", "iterations"]]
    rows = table.join(shape, on=["experiment", "trial_id"])
    assert (rows["num_evals"] == rows["n_init"] + rows["iteration"] * rows["batch_size"]).all()
    last = rows.groupby(["experiment", "trial_id"])["iteration"].max()
    assert (last == shape["iterations"].loc[last.index]).all()
    assert set(table["metric"]) == {"simple_regret", "hypervolume", "best_value"}  # each problem's headline


def test_the_last_iteration_is_the_per_trial_table_at_the_final_budget(tidy: pd.DataFrame, table: pd.DataFrame) -> None:
    trials = per_trial.per_trial(tidy)
    final = trials[trials["budget"] == trials["final_budget"]].set_index(["experiment", "trial_id"])
    last = table[table["iteration"] == table.groupby(["experiment", "trial_id"])["iteration"].transform("max")]
    last = last.set_index(["experiment", "trial_id"]).loc[final.index]
    assert len(last) == len(final) == len(table.drop_duplicates(["experiment", "trial_id"]))
    assert (last["num_evals"] == final["final_budget"]).all()
    for column in ("metric", "lower_is_better", "label", "problem", "method", "seed"):
        assert (last[column] == final[column]).all(), column
    np.testing.assert_array_equal(last["value"], final["value"])
    np.testing.assert_array_equal(last["recommended_regret"], final["recommended_regret"])  # NaN where absent
    assert last["recommended_regret"].notna().any()


def test_the_committed_file_reads_back_as_written(tidy: pd.DataFrame, table: pd.DataFrame, tmp_path: Path) -> None:
    tidy.to_parquet(tmp_path / "tidy.parquet")
    out = tmp_path / "tables" / per_iteration.NAME
    assert per_iteration.main(["--table", str(tmp_path / "tidy.parquet"), "--out", str(out)]) == 0
    pd.testing.assert_frame_equal(per_iteration.read(out), table)


def _lines(fig: matplotlib.figure.Figure, title: str, x_label: str) -> dict[str, np.ndarray]:
    """Label -> x positions of its line, in the panel titled `title` with x axis `x_label`."""
    return {
        line.get_label(): np.asarray(line.get_xdata())
        for ax in fig.axes if ax.get_title() == title and ax.get_xlabel() == x_label
        for line in ax.get_lines()
    }


def test_the_metric_view_has_a_point_per_iteration_on_both_axes(table: pd.DataFrame) -> None:
    curves = anytime.metric_curves(table, "evaluated")
    fig = anytime.draw_metric(curves, "evaluated")
    rows = table[(table["experiment"] == "synthetic_b100") & (table["problem"] == "ackley5")]
    title = f"{problem_title('ackley5')}\n{experiment_title('synthetic_b100')}"
    by_iteration = _lines(fig, title, anytime.AXES["iteration"])
    by_evaluations = _lines(fig, title, anytime.AXES["num_evals"])
    assert set(by_iteration) == set(rows["label"]) == set(by_evaluations)
    for label, trials in rows.groupby("label"):
        np.testing.assert_array_equal(by_iteration[label], np.sort(trials["iteration"].unique()))
        np.testing.assert_array_equal(by_evaluations[label], np.sort(trials["num_evals"].unique()))
    assert len(by_iteration["Seq-EI"]) == 13 and len(by_iteration["TS"]) == 6  # 12 and 5 iterations after the design
    panels = {(e, p) for e, p in zip(curves["experiment"], curves["problem"])}
    assert panels == set(zip(table["experiment"], table["problem"]))  # every (experiment, problem) of the run


def test_the_recommended_view_is_drawn_iff_the_column_has_values(table: pd.DataFrame, tmp_path: Path) -> None:
    curves = anytime.metric_curves(table, "recommended")
    assert set(curves["label"]) == set(RECOMMENDING)
    shown = curves[(curves["label"] == "TS") & (curves["axis"] == "iteration")]
    shown = shown.set_index(["experiment", "problem", "x"])
    evaluated = table[table["label"] == "TS"].groupby(["experiment", "problem", "iteration"])["value"].mean()
    assert len(shown) and shown.index.isin(evaluated.index).all()
    np.testing.assert_allclose(shown["mean"], 2 * evaluated.loc[shown.index])  # the fixture's recommended: twice
    for name, rows in (("with", table), ("without", table.assign(recommended_regret=np.nan))):
        rows.to_parquet(tmp_path / f"{name}.parquet")
        out = tmp_path / f"anytime_{name}"
        arguments = ["--view", "metric", "--regret", "recommended", "--table", str(tmp_path / f"{name}.parquet")]
        assert anytime.main([*arguments, "--out", str(out)]) == 0
        assert (NO_DATA.encode() in Path(f"{out}.pdf").read_bytes()) == (name == "without")


def test_runtime_ecdfs_step_at_every_iteration_from_the_initial_design(table: pd.DataFrame) -> None:
    budgets = per_iteration.as_budgets(table)
    curves, ranges = runtime_ecdf.ecdf(budgets)
    rows = budgets[(budgets["experiment"] == "synthetic_b100") & (budgets["problem"] == "hartmann6")]
    easy = ranges.set_index(["experiment", "problem"]).loc[("synthetic_b100", "hartmann6"), "easy"]
    design = rows[(rows["iteration"] == 0) & (rows["method"] == "random")]
    assert easy == pytest.approx(design["value"].median())  # Random's median regret at the initial design
    mine = curves[(curves["experiment"] == "synthetic_b100") & (curves["problem"] == "hartmann6")]
    every = np.sort(rows["num_evals"].unique())
    for label, curve in mine.groupby("label"):
        ran_to = rows.loc[rows["label"] == label, "num_evals"].max()
        np.testing.assert_array_equal(curve["budget"], every[every <= ran_to])


@pytest.mark.parametrize(
    "tables", sorted(str(p.parent.relative_to(ROOT)) for p in ROOT.glob(f"paper/**/tables/{per_iteration.NAME}"))
)
def test_each_committed_table_ends_where_its_run_s_per_trial_table_does(tables: str) -> None:
    """A published run's per-iteration table holds the trials of its per-trial table, each ending at its final
    budget with the same values (to the CSV's last digit)."""
    table = per_iteration.read(ROOT / tables / per_iteration.NAME)
    trials = per_trial.read(ROOT / tables / "per_trial.csv")
    final = trials[trials["budget"] == trials["final_budget"]].set_index(["experiment", "trial_id"])
    last = table[table["iteration"] == table.groupby(["experiment", "trial_id"])["iteration"].transform("max")]
    last = last.set_index(["experiment", "trial_id"])
    assert sorted(last.index) == sorted(final.index)
    last = last.loc[final.index]
    assert (last["num_evals"] == final["final_budget"]).all() and (last["metric"] == final["metric"]).all()
    np.testing.assert_allclose(last["value"], final["value"], rtol=1e-12)
    np.testing.assert_allclose(last["recommended_regret"], final["recommended_regret"], rtol=1e-12)


def test_a_problem_without_targets_is_named_in_the_ecdfs_title(table: pd.DataFrame) -> None:
    """A problem whose trials never get below the easy target has no range of targets and so no panel: the figure says
    which, instead of leaving it out without a word (as paper/large_batch's once left out Shekel-4)."""
    budgets = per_iteration.as_budgets(table)
    flat = (budgets["experiment"] == "synthetic_b100") & (budgets["problem"] == "hartmann6")
    budgets.loc[flat, "value"] = 1.0  # every trial at Random's median from the start: no target beyond the easy one
    curves, ranges = runtime_ecdf.ecdf(budgets)
    left_out = anytime.untargeted(ranges)
    assert left_out == [f"{problem_title('hartmann6')} in {experiment_title('synthetic_b100')}"]
    assert not ((curves["experiment"] == "synthetic_b100") & (curves["problem"] == "hartmann6")).any()
    title = "".join(anytime.draw_ecdf(curves, left_out).get_suptitle().split())  # as wrapped, less its breaks
    assert "".join(f"Not shown, for want of a range of targets (no positive gap below the easy end): {left_out[0]}"
                   .split()) in title
    assert "Not shown" not in anytime.draw_ecdf(curves).get_suptitle()
