"""The fit diagnosis (tests/benchmarks/fit_diagnosis.py) over a finished run's records (`--run`): one summary row per
problem, acquisition and fit, a seed whose kernel variance passed the threshold counted as run away, and the docs
section that reads the summary says which seeds ran away or that none did."""

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd

from analysis.presentation.fit_blocks import fit_diagnosis_block
from bench.records import TRACE_KEYS

SCRIPT = Path(__file__).parent / "benchmarks" / "fit_diagnosis.py"


def _record(seed: int, collapsed: bool, kernel_variances: list[float]) -> dict:
    model = {"kind": "svgp", "num_inducing": 500} | ({"fit": "collapsed"} if collapsed else {})
    steps = [
        {"iteration": t, "num_evals": 50 * t, "simple_regret": 1.0 / t + seed / 100, "recommended_regret": 1.0,
         "fit_cpu_s": 2.0, "diagnostics": {"alpha_p10_p90": 1.0, "ess_fraction": 0.5, "relative_diversity": 0.5},
         "fit": {"lengthscales": [0.2, 0.4], "kernel_variance": variance, "likelihood_variance": 0.01,
                 "loss": 100.0, "steps": 20, "stopped": "CONVERGENCE: REL_REDUCTION_OF_F_<=_FACTR*EPSMCH"}}
        for t, variance in enumerate(kernel_variances, start=1)
    ]
    spec = {"problem": "ackley5", "method": "b3o", "seed": seed, "params": {"acquisition": "ucb"}, "model": model,
            "iterations": len(steps)}
    trace = [{key: 0 for key in TRACE_KEYS}, *({key: 0 for key in TRACE_KEYS} | step for step in steps)]
    return {"trial_id": f"{seed}-{collapsed}", "spec": spec, "trace": trace}


def _summary(tmp_path: Path, runaway: bool) -> pd.DataFrame:
    run = tmp_path / f"run-{runaway}"
    run.mkdir()
    for seed in range(3):
        for collapsed in (False, True):
            variances = [1.0, 50.0 if runaway and collapsed and seed == 2 else 2.0]
            (run / f"{seed}-{collapsed}.json").write_text(json.dumps(_record(seed, collapsed, variances)))
    out = tmp_path / f"diagnosis-{runaway}.csv"
    done = subprocess.run([sys.executable, str(SCRIPT), "--run", str(run), "--out", str(out)], capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert len(pd.read_csv(out)) == 12  # a row per fit, seed and iteration
    return pd.read_csv(out.with_name(out.stem + "_summary.csv"))


def test_a_runs_fits_are_summarised_per_setting_and_a_run_away_seed_is_named(tmp_path):
    table = _summary(tmp_path, runaway=True)
    assert list(table["fit"]) == ["collapsed", "default"] and (table["seeds"] == 3).all()
    assert table.set_index("fit")["runaway_seeds"].to_dict() == {"collapsed": 1, "default": 0}
    assert table.set_index("fit").loc["collapsed", "runaway_max_kernel_variance"] == 50
    text = fit_diagnosis_block("fit_diagnosis_m500")(table, "summary.csv")
    assert text.startswith("<!-- fit_diagnosis_m500:begin -->")
    assert "| Ackley (5D) | UCB | collapsed | 3 |" in text and "1 of 3 seeds ran away" in text
    assert "No seed" not in text


def test_a_run_without_a_run_away_seed_says_so_with_its_largest_kernel_variance(tmp_path):
    table = _summary(tmp_path, runaway=False)
    assert (table["runaway_seeds"] == 0).all()
    text = fit_diagnosis_block("fit_diagnosis_m500")(table, "summary.csv")
    assert "No seed's kernel variance passed 10 (a run away) at any iteration, with any fit; the largest was 2." in text


def test_an_incomplete_record_in_a_run_is_one_clear_error(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    record = _record(0, False, [1.0, 2.0])
    record["trace"] = record["trace"][:2]  # a trial stopped after its first iteration
    (run / "cut.json").write_text(json.dumps(record))
    done = subprocess.run([sys.executable, str(SCRIPT), "--run", str(run), "--out", str(tmp_path / "d.csv")],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 2 and "cut.json: trace has 2 of the spec's 2 + 1 iterations" in done.stderr
    assert not (tmp_path / "d.csv").exists()
