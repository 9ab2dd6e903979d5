"""The density-diagnostics table and the run-time table's cost profile, on small frames with known answers."""

from __future__ import annotations

import os

from analysis.presentation.readme_blocks import markers
import numpy as np
import pandas as pd
import pytest

from analysis.tables.density import density_summary
from analysis.tables.run_times import profile


def _b3o_rows(label: str, lam: list[float], ess: list[float], diversity: list[float]) -> pd.DataFrame:
    n = len(lam)
    return pd.DataFrame(
        {
            "experiment": "e",
            "problem": "p",
            "label": label,
            "method": "b3o",
            "iteration": np.arange(1, n + 1),
            "lambda_t": lam,
            "lambda_density": lam,  # alpha_scale NaN: the density's lambda is lambda_t
            "lam": 1.0,
            "ess_fraction": ess,
            "relative_diversity": diversity,
            "alpha_range": 1.0,
            "alpha_scale": np.nan,  # a temperature that does not standardise
            "alpha_p10_p90": 0.5,
        }
    )


def test_density_summary_skips_uniform_by_design_batches_and_counts_degenerate_ones() -> None:
    table = pd.concat(
        [
            # scheduled: lambda_1 = 0 is left out; then one collapsed iteration (low ESS and low diversity)
            _b3o_rows("s", [0.0, 2.0, 4.0], [1.0, 0.2, 1e-4], [1.0, 0.6, 0.02]),
            # concentrated but diverse (low ESS only): not collapsed; one uniform iteration
            _b3o_rows("c", [10.0, 10.0], [5e-4, 0.99], [0.3, 1.0]),
            pd.DataFrame({"method": ["ts"], "lambda_t": [np.nan], "lam": [np.nan], "ess_fraction": [np.nan]}),
            # the same label at another λ (as in the λ ablation) is its own row
            _b3o_rows("c", [10.0], [0.3], [0.8]).assign(lam=3.0),
        ],
        ignore_index=True,
    )
    rows = density_summary(table).set_index(["label", "lam"])
    assert rows.loc[("s", 1.0), "iterations"] == 2 and rows.loc[("s", 1.0), "ess_fraction_max"] == 0.2
    assert (rows.loc[("s", 1.0), "collapsed"], rows.loc[("s", 1.0), "uniform"]) == (1, 0)
    assert (rows.loc[("c", 1.0), "collapsed"], rows.loc[("c", 1.0), "uniform"]) == (0, 1)
    assert set(rows.index) == {("s", 1.0), ("c", 1.0), ("c", 3.0)}


def test_a_standardising_temperature_is_judged_uniform_on_the_density_s_own_lambda() -> None:
    """lambda_t * alpha range = 2e-6 reads as not uniform; the density applies lambda_t / scale = 2e-8 to alpha."""
    from analysis.data.tidy import _trace_rows
    from b3o import degeneracy

    step = {"iteration": 1, "diagnostics": {"lambda_t": 2.0, "alpha_scale": 100.0}}
    assert next(_trace_rows({"trace": [step]}))["lambda_density"] == pytest.approx(0.02)
    rows = _b3o_rows("n", [2.0], [0.5], [0.9]).assign(alpha_range=1e-6, alpha_scale=100.0, lambda_density=0.02)
    assert density_summary(rows)["uniform"].tolist() == [1]
    assert density_summary(rows.assign(lambda_density=2.0))["uniform"].tolist() == [0]
    diagnostics = {"ess_fraction": 0.5, "lambda_t": 2.0, "alpha_scale": 100.0, "alpha_range": 1e-6,
                   "relative_diversity": 0.9}
    assert "is uniform" in degeneracy.describe(diagnostics)
    assert degeneracy.describe({**diagnostics, "alpha_scale": 1.0}) is None


def test_cost_profile_splits_acquire_into_density_and_the_rest() -> None:
    tidy = pd.DataFrame(
        {
            "trial_id": ["a", "a", "a", "a", "b", "b"],
            "experiment": ["x", "x", "x", "y", "x", "x"],  # trial a listed in two experiments: counted once
            "iteration": [0, 1, 2, 1, 0, 1],
            "fit_s": [0.0, 2.0, 3.0, 2.0, 0.0, 1.0],
            "acquire_s": [0.0, 1.0, 1.5, 1.0, 0.0, 4.0],
            "density_seconds": [np.nan, 0.4, 0.5, 0.4, np.nan, np.nan],  # b is a baseline: no density split
            "evaluate_s": [0.1, 0.2, 0.2, 0.2, 0.1, 0.1],
            "io_s": [np.nan, 0.01, 0.02, 0.01, np.nan, 0.03],
            "startup_s": [9.0, 9.0, 9.0, 9.0, 0.0, 0.0],
            "wall_s": [20.0, 20.0, 20.0, 20.0, 6.0, 6.0],
            "peak_rss_mb": [300.0, 350.0, 320.0, 350.0, 310.0, 400.0],
            "finished_utc": ["2026-01-01T10:01:00+00:00"] * 4 + ["2026-01-01T10:02:00+00:00"] * 2,
        }
    )
    cost = profile(tidy).set_index("trial_id")
    assert cost.loc["a", "seconds"] == 20.0 and cost.loc["a", "max_rss_mb"] == 350.0  # the trial's own, from its record
    assert cost.loc["b", "seconds"] == 6.0 and cost.loc["b", "max_rss_mb"] == 400.0
    assert cost.loc["a", "fit_s"] == 5.0 and cost.loc["a", "density_s"] == 0.9
    assert cost.loc["a", "acquire_other_s"] == 2.5 - 0.9 and cost.loc["a", "startup_s"] == 9.0
    assert cost.loc["a", "io_s"] == 0.03 and cost.loc["a", "evaluate_s"] == 0.5
    assert cost.loc["b", "density_s"] == 0.0 and cost.loc["b", "acquire_other_s"] == 4.0


def _rewritten(tmp_path, section: str, table: pd.DataFrame) -> tuple[int, str]:
    """Rewrite SECTION of a small README from `table` (as the workflow's readme rule does): exit code and new text."""
    from analysis.presentation import readme

    table.to_csv(tmp_path / f"{section}.csv", index=False)
    begin, end = markers(section)
    path = tmp_path / "README.md"
    path.write_text(f"intro\n{begin}\nold\n{end}\nafter\n")
    code = readme.main(["--into", str(path), f"--{section.replace('_', '-')}", str(tmp_path / f"{section}.csv")])
    return code, path.read_text()


def test_readme_density_section_is_rewritten_from_the_density_table(tmp_path) -> None:
    stats = density_summary(_b3o_rows("B3O-UCB-c", [5.0, 5.0], [0.2, 0.4], [0.5, 0.7]))
    code, text = _rewritten(tmp_path, "density", stats)
    assert code == 0
    assert "old" not in text and text.startswith("intro\n") and text.endswith("\nafter\n")
    assert "| e | p | B3O-UCB-c | 1 | 2 | 0.2 – 0.4 (median 0.3) | 0.6 | 0 | 0 |" in text
    assert _rewritten(tmp_path, "density", stats.drop(columns="ess_fraction_min"))[0] == 2


def test_run_times_span_and_readme_cost_section(tmp_path) -> None:
    """The span runs from the first trial's start (finish minus its seconds) to the last finish; the README's cost
    section is rewritten from the run-time table."""
    from analysis.tables.run_times import summarise

    trials = pd.DataFrame(
        {
            "experiment": ["x", "x", "y"],
            "label": ["A", "B", "A"],
            "trial_id": ["a", "b", "c"],
            "seconds": [60.0, 30.0, 120.0],
            "max_rss_mb": [100.0, 200.0, 150.0],
            "fit_s": [10.0, 5.0, 20.0],
            "finished_utc": ["2026-01-01T10:01:00+00:00", "2026-01-01T10:02:00+00:00", "2026-01-01T10:05:00+00:00"],
        }
    )
    table = summarise(trials)
    total = table[table["experiment"] == "all experiments"].iloc[0]
    assert total["span_min"] == 5.0 and total["total_s"] == 210.0  # 10:00 (a's start) to 10:05 (c's finish)
    assert np.isnan(total["total_cpu_s"])  # records without CPU seconds
    code, text = _rewritten(tmp_path, "cost", table)
    assert code == 0
    assert "old" not in text and "| all experiments | 3 | 3.5 | 70 | 11.7 |" in text and "in 5 min of wall" in text
    timed = summarise(trials.assign(cpu_seconds=[30.0, 30.0, 60.0]))
    assert timed.set_index(["experiment", "label"]).loc[("all experiments", "all methods"), "total_cpu_s"] == 120.0
    assert timed.set_index(["experiment", "label"]).loc[("x", "all methods"), "total_cpu_s"] == 60.0
    from analysis.presentation.readme_blocks import run_cost_block

    text = run_cost_block(timed, "run_times.csv")
    assert "3 trials, 3.5 core-minutes of wall time (2 of CPU time: 1 min on 2 cores of their own)" in text


def test_a_trial_s_cpu_seconds_are_its_start_up_iterations_and_i_o_and_none_where_a_part_is_untimed() -> None:
    tidy = pd.DataFrame(
        {
            "trial_id": ["a", "a", "a", "b", "b"],
            "iteration": [0, 1, 2, 0, 1],
            "density_seconds": np.nan,
            "acquire_s": 1.0, "fit_s": 1.0, "evaluate_s": 0.1, "peak_rss_mb": 100.0, "wall_s": 9.0,
            "startup_s": [4.0, 4.0, 4.0, 0.0, 0.0], "finished_utc": "2026-11-27T10:00:00+00:00",
            "startup_cpu_s": [3.0, 3.0, 3.0, 0.0, 0.0],
            "cpu_s": [0.5, 2.0, 2.5, 0.5, np.nan],
            "io_s": [np.nan, 0.25, 0.25, np.nan, 0.25],
        }
    )
    seconds = profile(tidy).set_index("trial_id")["cpu_seconds"]
    assert seconds["a"] == 3.0 + 0.5 + 2.0 + 2.5 + 0.5 and np.isnan(seconds["b"])


def test_the_test_suite_s_size_and_time_come_from_pytest_s_junit_report(tmp_path) -> None:
    from analysis.tables.test_run import main as test_run
    from bench.numerics import cpu_model

    junit = tmp_path / "junit.xml"
    junit.write_text(
        '<?xml version="1.0"?><testsuites><testsuite name="pytest" errors="1" failures="0" skipped="5" tests="580" '
        'time="906" timestamp="2026-11-27T05:00:00.1" hostname="h"></testsuite></testsuites>'
    )
    assert test_run(["--junit", str(junit), "--out", str(tmp_path / "run.csv")]) == 0
    table = pd.read_csv(tmp_path / "run.csv")
    assert table.loc[0, ["tests", "passed", "skipped", "failed", "minutes"]].tolist() == [580, 574, 5, 1, 15.1]
    code, text = _rewritten(tmp_path, "test_run", table)
    assert code == 0 and "2026-11-27): 574 tests passed, 5 skipped, 1 FAILED, in 15.1 min on" in text
    assert "Collecting" not in text  # not timed
    # the machine it ran on, as a record names its own: its CPU count and model, in the sentence
    assert table.loc[0, "cpu"] == cpu_model() and table.loc[0, "cpus"] == os.cpu_count()
    assert f"min on {os.cpu_count()} cores ({cpu_model()}); on another machine the time differs." in text
    code, text = _rewritten(tmp_path, "test_run", table.drop(columns="cpu"))  # a table from before the column
    assert code == 0 and "does not name it" in text
    # the collection's seconds, as bash's `time -p` writes them (.ci/run)
    (tmp_path / "collection_s").write_text("real 10.71\nuser 9.80\nsys 0.90\n")
    assert test_run(["--junit", str(junit), "--collection", str(tmp_path / "collection_s"),
                     "--out", str(tmp_path / "run.csv")]) == 0
    table = pd.read_csv(tmp_path / "run.csv")
    assert table.loc[0, "collection_s"] == 10.7
    code, text = _rewritten(tmp_path, "test_run", table)
    assert code == 0 and "one process) takes 10.7 s." in text
    junit.write_text("<report/>")
    assert test_run(["--junit", str(junit), "--out", str(tmp_path / "run.csv")]) == 2


def test_an_automatic_temperature_without_a_configured_lambda_has_its_row_with_the_lambda_t_it_chose() -> None:
    from analysis.tables.density import for_paper

    rows = density_summary(_b3o_rows("auto", [3.0, 5.0, 40.0], [0.01, 0.02, 0.03], [0.5, 0.5, 0.5]).assign(lam=np.nan))
    assert rows["iterations"].tolist() == [3] and rows["lambda_t_median"].tolist() == [5.0]
    shown, _ = for_paper(rows)
    assert shown["lam"].tolist() == ["auto (median λ_t 5)"]


def test_each_published_run_s_cost_is_a_row_per_experiment_and_a_missing_run_is_left_out(tmp_path) -> None:
    """`--run-costs RUN=CSV ...`: one row per run and experiment in core-minutes, the run's total counting each
    trial once; a run whose table is not published (yet) is skipped, and a table without its total is refused."""
    from analysis.presentation import readme
    from analysis.tables.run_times import summarise

    def run_times(seconds: list[float]) -> pd.DataFrame:
        frame = pd.DataFrame(
            {"experiment": "x", "label": "A", "trial_id": [f"t{i}" for i in range(len(seconds))], "seconds": seconds,
             "max_rss_mb": 1.0}
        )
        return summarise(frame)

    run_times([60.0, 120.0]).to_csv(tmp_path / "default.csv", index=False)
    run_times([600.0]).to_csv(tmp_path / "horizon.csv", index=False)
    doc = tmp_path / "doc.md"
    doc.write_text("before\n<!-- run_costs:begin -->\nold\n<!-- run_costs:end -->\nafter\n")
    code = readme.main(["--into", str(doc), "--run-costs", f"default={tmp_path / 'default.csv'}",
                        f"extended={tmp_path / 'missing.csv'}", f"horizon={tmp_path / 'horizon.csv'}"])
    text = doc.read_text()
    assert code == 0 and "old" not in text and "extended" not in text.split("-->", 2)[2]
    assert "| default | x | 2 | 3 |" in text and "| default | **all (each trial once)** | 2 | 3 |" in text
    assert "| horizon | x | 1 | 10 |" in text and text.startswith("before\n") and text.endswith("after\n")

    run_times([60.0]).query("experiment != 'all experiments'").to_csv(tmp_path / "bad.csv", index=False)
    assert readme.main(["--into", str(doc), "--run-costs", f"default={tmp_path / 'bad.csv'}"]) == 2
    assert readme.main(["--into", str(doc), "--run-costs", str(tmp_path / "default.csv")]) == 2


def test_the_cost_model_line_gives_the_worst_experiment_in_and_out_of_sample_on_the_model_s_clock() -> None:
    from analysis.presentation.readme_blocks import cost_model_line_block

    table = pd.DataFrame(
        {
            "sample": ["fitted", "fitted", "fitted", "out of sample", "out of sample", "out of sample"],
            "experiment": ["a", "b", "all experiments", "a", "c", "all experiments"],
            "trials": [10, 5, 15, 4, 0, 4],  # c: no record with the clock, compared nothing
            "measured_s": [100.0, 50.0, 150.0, 40.0, 0.0, 40.0],
            "predicted_s": [96.0, 56.0, 152.0, 30.0, 0.0, 30.0],
            "error": [-0.04, 0.12, 0.013, -0.25, np.nan, -0.25],
            "clock": "cpu",
        }
    )
    text = cost_model_line_block(table, "v.csv")
    assert "CPU time within 12% on the run it was fitted to and within 25% on a later run's trials." in text
    assert "wall time" in cost_model_line_block(table.drop(columns="clock"), "v.csv")
    fitted_only = cost_model_line_block(table[table["sample"] == "fitted"], "v.csv")  # a model just refitted
    assert "fitted to and has not yet been checked on a later run's trials." in fitted_only
    swapped = table.assign(sample=table["sample"].replace({"fitted": "default run"}))  # its fit part fitted elsewhere
    assert "within 25% on a later run's trials and errs on the default run's by up to 12%." in cost_model_line_block(
        swapped, "v.csv")
    over = swapped.assign(error=swapped["error"].abs())
    assert "and over-predicts the default run's by up to 25%" not in cost_model_line_block(over, "v.csv")
    assert "and over-predicts the default run's by up to 12%." in cost_model_line_block(over, "v.csv")
