"""Issue 80 (item 6): a study's cost before it runs, from its own directory. The package's cost model is found from
the package (not the current directory) and covers the exact GP a small study gets; `b3o cost-model` writes where it
is run; `b3o estimate --pilot` measures what the model lacks (a user's method or problem) in short trials."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml

from bench.cost import CostModel, fit, observations
from bench.estimate import COST_MODEL, PILOT_ITERATIONS, busy_note, memory_mb, pilot_specs
from bench.grid import trial_grid

ROOT = Path(__file__).resolve().parents[1]
ENV = os.environ | {"PYTHONPATH": str(ROOT)}
#: a small study of the package's own problem and methods: every part of its trials is in the package's model
SMALL = {"results": "results/mine", "paper": "results/mine/paper", "experiments": {"small": {
    "problems": ["branin2"], "seeds": 2, "batch_size": 3, "iterations": 2, "n_init": 4, "methods": [
        {"label": "B3O-UCB-c", "method": "b3o", "params": {"acquisition": "ucb", "temperature": "constant", "lam": 1.0}},
        {"label": "Random", "method": "random"}]}}}


def _gpr_record(trial: int, b: int, iterations: int, true: dict) -> dict:
    """A record of an exact-GP trial whose parts cost what the forms say with the `true` constants (CPU seconds)."""
    spec = {"problem": "branin2", "method": "b3o", "batch_size": b, "iterations": iterations, "n_init": 10,
            "seed": trial, "params": {}, "model": {"kind": "gpr"}}
    trace = [{"iteration": 0, "cpu_s": 0.0}]
    for t in range(1, iterations + 1):
        n = 10 + b * (t - 1)
        fit_s = true["g0"] + true["g2"] * n * n + true["g3"] * n**3
        trace.append({"iteration": t, "fit_s": fit_s, "acquire_s": 0.5, "evaluate_s": 0.01, "io_s": 0.0,
                      "fit_cpu_s": fit_s, "acquire_cpu_s": 0.5, "cpu_s": fit_s + 0.51})
    return {"trial_id": f"gpr{trial}", "spec": spec, "problem": {"num_objectives": 1}, "trace": trace,
            "startup_s": 2.0, "startup_cpu_s": 2.0, "wall_s": 0.0}


def test_the_exact_gp_s_fit_has_a_form_of_its_own_and_its_constants_are_recovered():
    true = {"g0": 0.05, "g2": 2e-6, "g3": 4e-9}
    records = [_gpr_record(i, b, 12, true) for i, b in enumerate((5, 20, 40))]
    model = fit(observations(records))
    values = {(r.part, r.key, r.term): r.value for r in model.table.itertuples()}
    for term, value in true.items():
        assert values["fit", "gpr", term] == pytest.approx(value, rel=1e-3)
    bigger = _gpr_record(9, 30, 16, true)  # past every fitted N
    measured = sum(step.get("fit_cpu_s", 0.0) for step in bigger["trace"])
    assert model.predict(bigger["spec"]).fit == pytest.approx(measured, rel=1e-6)


def test_the_package_s_model_prices_every_trial_of_a_small_study_from_its_own_directory(tmp_path):
    """`b3o estimate` from a directory outside the checkout: the package's model (not ./paper/tables) predicts every
    trial, the exact GP's fit and Branin's evaluations included."""
    (tmp_path / "my.yaml").write_text(yaml.safe_dump(SMALL))
    done = subprocess.run([sys.executable, "-m", "bench.cli", "estimate", "--configfile", "my.yaml"], cwd=tmp_path,
                          env=ENV, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "trials not predicted" not in done.stdout
    predicted = [CostModel.read(COST_MODEL).predict(row.spec.to_dict()) for row in trial_grid(SMALL)]
    assert all(cost is not None and cost.total > 0 for cost in predicted)


def test_a_busy_machine_is_named_beside_the_prices_and_a_quiet_one_is_not():
    """A pilot on a machine at load 7 on 2 cores priced a study at about a third of the CPU seconds its trials took
    there; the estimate now says the machine is busy, what its prices assume and to pilot again when it is quiet."""
    assert busy_note(2.0, 2) is None and busy_note(0.3, 8) is None
    note = busy_note(7.04, 2)
    assert note.startswith("note: this machine is busy (load 7.0 on 2 core(s)): the prices are CPU seconds on a core "
                           "of its own") and "run it again on a quiet machine" in note


def test_a_study_the_model_cannot_price_says_so_and_how_to_not_zero_hours(tmp_path):
    """A study of a user's own problem: no trial priced. The table once read 0.00 core-hours and the text "every
    predicted trial fits one slot"; it reads NaN, names what the model lacks and the `--pilot` that measures it."""
    (tmp_path / "my_problem.py").write_text((ROOT / "examples/my_problem.py").read_text())
    config = {**SMALL, "experiments": {"small": {**SMALL["experiments"]["small"],
                                                 "problems": ["my_problem:shifted_sphere"]}}}
    (tmp_path / "my.yaml").write_text(yaml.safe_dump(config))
    done = subprocess.run([sys.executable, "-m", "bench.cli", "estimate", "--configfile", "my.yaml"], cwd=tmp_path,
                          env=ENV, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    trials = len(trial_grid(config))
    last = done.stdout.strip().splitlines()
    assert last[-1] == "no trial priced, so none is known to fit a slot", done.stdout
    assert last[-2].startswith(f"{trials} of {trials} trials not predicted: the cost model has no measurements of "), last
    assert "evaluate my_problem:shifted_sphere" in last[-2] and last[-2].endswith(
        "(`--pilot` measures each in one short trial, then prices every trial)")
    assert "0.00" not in done.stdout and "fits one slot" not in done.stdout


def test_cost_model_writes_where_it_is_run(tmp_path):
    """Without --out and --validation, `b3o cost-model` writes cost_model.csv and cost_validation.csv in the directory
    it runs in (it reads the package's benchmarks from the package)."""
    results = tmp_path / "run"
    (results / "trials").mkdir(parents=True)
    rows = []
    for i, b in enumerate((5, 20, 40)):
        record = _gpr_record(i, b, 6, {"g0": 0.05, "g2": 2e-6, "g3": 4e-9})
        record["trace"] = [{"num_evals": 0, "points": [], "observations": [], "values": [], "best_value": 0.0, **row}
                           for row in record["trace"]]
        (results / "trials" / f"{record['trial_id']}.json").write_text(json.dumps(record))
        rows.append({"experiment": "e", "trial_id": record["trial_id"], "record": f"trials/{record['trial_id']}.json"})
    pd.DataFrame(rows).to_csv(results / "grid.csv", index=False)
    done = subprocess.run([sys.executable, "-m", "bench.cli", "cost-model", "--results", "run"], cwd=tmp_path, env=ENV,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert ("fit", "gpr") in {(r.part, r.key) for r in CostModel.read(tmp_path / "cost_model.csv").table.itertuples()}
    assert set(pd.read_csv(tmp_path / "cost_validation.csv")["experiment"]) == {"e", "all experiments"}


def test_a_pilot_runs_one_short_trial_per_part_the_model_lacks():
    """The user's problem lacks its evaluations and the user's method its acquire step and start-up: two short trials
    cover them (the first settings, in the grid's order, that name something new), none for Branin, which the package's
    model prices."""
    config = {**SMALL, "experiments": {"mine": {
        **SMALL["experiments"]["small"], "problems": ["my_problem:shifted_sphere", "branin2"], "iterations": 10,
        "methods": [*SMALL["experiments"]["small"]["methods"], {"label": "Mine", "method": "my_method:RandomLCB"}]}}}
    model = CostModel.read(COST_MODEL)
    specs = pilot_specs(trial_grid(config), model)
    assert [(s["problem"], s["method"], s["iterations"], s["seed"]) for s in specs] == [
        ("my_problem:shifted_sphere", "b3o", PILOT_ITERATIONS, 0), ("my_problem:shifted_sphere", "my_method:RandomLCB", PILOT_ITERATIONS, 0)]
    lacking = {need for row in trial_grid(config) for need in model.missing(row.spec.to_dict())}
    assert lacking == {need for spec in specs for need in model.missing(spec)}


def test_a_job_asks_for_the_memory_of_its_largest_kernel_matrix():
    small = {"n_init": 4, "batch_size": 3, "iterations": 2, "model": {"kind": "gpr"}}
    large = {**small, "batch_size": 100, "iterations": 4}  # 404 points: a 404 x 404 matrix
    svgp = {**large, "model": {"kind": "svgp", "num_inducing": 64}}
    assert memory_mb(small, uses_model=False) == memory_mb(large, uses_model=False) < memory_mb(small)
    assert memory_mb(small) < memory_mb(svgp) < memory_mb(large)


def test_the_study_estimate_in_the_docs_is_the_benchmark_s_table_and_within_half(monkeypatch):
    """docs/extending.md's block is what tools/estimate_study.py writes from docs/tables/study_estimate.csv, in which
    `b3o estimate --pilot` priced the example study within ±50 % of what its trials took (issue 80)."""
    import csv
    import importlib.util

    monkeypatch.syspath_prepend(str(ROOT / "tools"))  # as `python tools/estimate_study.py` finds its helper beside it
    import example_study

    spec = importlib.util.spec_from_file_location("estimate_study", ROOT / "tools" / "estimate_study.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rows = list(csv.DictReader(module.TABLE.open()))
    assert module.block(rows) in example_study.PAGE.read_text(), "run `python tools/estimate_study.py --page-only`"
    whole = rows[-1]
    assert whole["label"] == "whole study" and int(whole["trials"]) == sum(int(r["trials"]) for r in rows[:-1])
    assert abs(float(whole["predicted_s"]) / float(whole["measured_s"]) - 1) <= module.TARGET


def test_a_pilot_with_nothing_to_measure_runs_nothing_and_writes_no_model(tmp_path):
    (tmp_path / "my.yaml").write_text(yaml.safe_dump(SMALL))
    done = subprocess.run([sys.executable, "-m", "bench.cli", "estimate", "--configfile", "my.yaml", "--pilot"],
                          cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "pilot: the cost model predicts every trial; nothing to measure" in done.stdout
    assert not (tmp_path / "results").exists()
