"""The default fit refitted to one machine's trials (tests/benchmarks/cost_one_machine.py): its seed sets, its refusal
of a seed both fitted and held out, and the docs section that reads its table."""

import subprocess
import sys
from pathlib import Path

import pandas as pd

from analysis.presentation.fit_blocks import cost_one_machine_block

SCRIPT = Path(__file__).parent / "benchmarks" / "cost_one_machine.py"
sys.path.insert(0, str(SCRIPT.parent))
from cost_one_machine import seed_set, unpriced

from bench.cost import CostModel


def test_seed_sets_are_ranges_and_single_seeds():
    assert seed_set("400-402,0") == {400, 401, 402, 0}
    assert seed_set("7") == {7}


def test_a_seed_both_fitted_and_held_out_is_refused_before_any_record_is_read(tmp_path):
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--records", str(tmp_path / "none.json"), "--platform", "p",
         "--finished-before", "2026-11-29T00:00:00+00:00", "--fitted-seeds", "1-5", "--holdout-seeds", "5-9",
         "--model-out", str(tmp_path / "m.csv"), "--out", str(tmp_path / "t.csv")],
        capture_output=True, text=True, check=False,
    )
    assert result.returncode == 2 and "both fitted and held out: [5]" in result.stderr
    assert not (tmp_path / "m.csv").exists()


def test_a_record_the_committed_model_cannot_price_is_named():
    model = CostModel.read("paper/tables/cost_model.csv")
    spec = {"method": "my-plugin-method", "problem": "hartmann6", "batch_size": 50, "iterations": 6, "n_init": 50,
            "params": {}, "model": {"kind": "svgp", "num_inducing": 500}}
    priced = {**spec, "method": "ts"}
    lacking = unpriced([{"trial_id": "t1", "spec": spec}, {"trial_id": "t2", "spec": priced}], model)
    assert len(lacking) == 1 and lacking[0].startswith("t1 (my-plugin-method on hartmann6") and "my-plugin-method" in lacking[0].split(": ", 1)[1]


def test_the_section_gives_each_setting_and_the_held_out_total():
    table = pd.DataFrame([
        {"sample": "fitted", "setting": "b3o on hartmann6, B = 50, T = 6, M = 500", "trials": 20,
         "measured_fit_min": 57.4, "refitted_fit_min": 69.1, "committed_fit_min": 121.0},
        {"sample": "held out", "setting": "all held out", "trials": 64, "measured_fit_min": 271.0,
         "refitted_fit_min": 287.0, "committed_fit_min": 451.0},
    ]).assign(platform="706d41478777")
    table = table.assign(refitted_error=table["refitted_fit_min"] / table["measured_fit_min"] - 1,
                         committed_error=table["committed_fit_min"] / table["measured_fit_min"] - 1)
    section = cost_one_machine_block(table, "t.csv")
    assert "| fitted | b3o on hartmann6, B = 50, T = 6, M = 500 | 20 | 57.4 | 69.1 | +20% | 121 | +111% |" in section
    assert "On the 64 trials it was not fitted to, all on platform 706d41478777" in section
    assert "errs by +6% in total and the earlier one by +66%" in section
