"""The cost model: its forms recover known constants, it names what it cannot predict, and `b3o estimate` flags the
trials that would outrun their slot."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from bench.cost import CostModel, fit, fit_key, observations
from bench.estimate import estimate_table, refitted, trial_costs
from bench.grid import trial_grid
from bench.model_spec import svgp_fit

ROOT = Path(__file__).resolve().parents[1]
TRUE = {"f1": 0.02, "f2": 2e-10, "f3": 3e-10, "a0": 0.5, "a1": 0.01, "e0": 0.03, "e1": 0.002, "s": 1.5,
        "c0": 0.8, "c2": 4e-9, "c3": 6e-9}


def _record(trial: int, method: str, b: int, iterations: int, maxiter: int, m: int, load: float | None = None,
            fit: str = "lbfgs", true: dict = TRUE, steps: int | None = None) -> dict:
    """A record whose every part costs exactly what the forms say with the `true` constants (TRUE): in wall seconds,
    or with a `load` in CPU seconds, its wall seconds that many times longer (the waits of a loaded machine); with
    `steps`, its default fits stop there, short of `maxiter`, and the record keeps the steps taken."""
    model = {"kind": "svgp", "num_inducing": m, "maxiter": maxiter} | ({"fit": fit} if fit != "lbfgs" else {})
    spec = {"problem": "hartmann6", "method": method, "batch_size": b, "iterations": iterations, "n_init": 20,
            "seed": trial, "params": {"sampler": "defer"}, "model": model}
    stretch = load or 1.0
    trace, parts = [{"iteration": 0, **({"cpu_s": 0.0} if load else {})}], 0.0
    for t in range(1, iterations + 1):
        n = 20 + b * (t - 1)
        fit_s = (steps or maxiter) * (true["f1"] + true["f2"] * n * m**2 + true["f3"] * m**3  # trieste keeps all M
                           + true.get("f4", 0.0) * n * m + true.get("f5", 0.0) * m * m)
        if fit == "collapsed":  # converges whatever its cap
            fit_s = TRUE["c0"] + TRUE["c2"] * n * m**2 + TRUE["c3"] * m**3
        acquire_s, evaluate_s = TRUE["a0"] + TRUE["a1"] * b, TRUE["e0"] + TRUE["e1"] * b
        step = {"iteration": t, "fit_s": stretch * fit_s, "acquire_s": stretch * acquire_s,
                "evaluate_s": stretch * evaluate_s, "io_s": 0.0}
        if steps:
            step["fit"] = {"steps": steps}
        if load:
            step |= {"fit_cpu_s": fit_s, "acquire_cpu_s": acquire_s, "cpu_s": fit_s + acquire_s + evaluate_s}
        parts += fit_s + acquire_s + evaluate_s
        trace.append(step)
    cpu = {"startup_cpu_s": TRUE["s"]} if load else {}
    return {"trial_id": f"t{trial}-{b}-{m}-{fit}", "spec": spec, "problem": {"num_objectives": 1}, "trace": trace,
            "startup_s": stretch * TRUE["s"], **cpu, "wall_s": stretch * (TRUE["s"] + parts)}


SIZES = [(5, 50, 64), (50, 50, 64), (10, 200, 256), (100, 100, 500), (1, 500, 32), (20, 20, 128)]


def _model() -> CostModel:
    records = [_record(i, "b3o", b, 4, maxiter, m) for i, (b, maxiter, m) in enumerate(SIZES)]
    return fit(observations(records))


def test_the_forms_recover_known_constants_and_predict_a_larger_trial():
    model = _model()
    values = {(r.part, r.term): r.value for r in model.table.itertuples()}
    for term in ("f1", "f2", "f3"):
        assert values["fit", term] == pytest.approx(TRUE[term], rel=1e-3)
    assert values["acquire", "a0"] == pytest.approx(TRUE["a0"], rel=1e-3)
    assert values["acquire", "a1"] == pytest.approx(TRUE["a1"], rel=1e-3)
    big = _record(99, "b3o", 100, 50, 500, 500)  # far beyond every fitted size
    assert model.predict(big["spec"]).total == pytest.approx(big["wall_s"], rel=1e-3)


def test_timed_fits_at_several_m_and_n_join_the_records_and_give_every_term_of_a_fit_step():
    """A fit step's O(N·m) kernel cost and O(m²) optimiser cost beside its O(N·m²) products: fitted to the reduced
    runs' records (M = 64, small N), the paper-scale steps (M = 500) and fits timed over M and N (`fit_scaling.csv`),
    the model recovers them and predicts a large-batch fit at M = 64, N = 5,000."""
    truth = TRUE | {"f4": 6e-8, "f5": 5e-7}

    def seconds(steps: float, n: float, m: float) -> float:
        return steps * (truth["f1"] + truth["f2"] * n * m * m + truth["f3"] * m**3 + truth["f4"] * n * m
                        + truth["f5"] * m * m)

    grid = [(m, n) for m in (64, 128, 256, 500) for n in (500, 1000, 2500, 5000)]
    timed = pd.DataFrame([{"m": m, "n": n, "steps": 50, "cpu_s": seconds(50, n, m)} for m, n in grid])
    steps = pd.DataFrame({"N": [100, 1100, 2600, 5000], "lbfgs_iteration_s": [seconds(1, n, 500) for n in
                                                                              (100, 1100, 2600, 5000)]})
    # the reduced runs: M = 64, N ≤ 300
    records = [_record(i, "b3o", 50, 6, 50, 64, true=truth) for i in range(3)]
    model = fit(observations(records), steps, None, timed)
    values = {(r.part, r.term): r.value for r in model.table.itertuples()}
    for term in ("f2", "f4", "f5"):
        assert values["fit", term] == pytest.approx(truth[term], rel=1e-2)
    large = {"problem": "hartmann6", "method": "b3o", "batch_size": 100, "iterations": 1, "n_init": 5000,
             "params": {"sampler": "defer"}, "model": {"num_inducing": 64, "maxiter": 50}}
    assert model.predict(large).fit == pytest.approx(seconds(50, 5000, 64), rel=1e-2)


def test_on_the_cpu_clock_the_load_a_run_met_does_not_enter_the_constants():
    """Records made under loads from 1 to 3.5 (wall seconds that much longer than CPU seconds): the cpu-clock model
    recovers the constants and predicts a trial's CPU seconds; fitted to the same records' wall seconds it cannot."""
    from bench.cost import measured_seconds, validate

    records = [_record(i, "b3o", b, 4, maxiter, m, load=1.0 + 0.5 * i) for i, (b, maxiter, m) in enumerate(SIZES)]
    model = fit(observations(records))
    assert model.clock == "cpu" and model.wall_fitted == []
    values = {(r.part, r.term): r.value for r in model.table.itertuples()}
    for term in ("f1", "f2", "f3"):
        assert values["fit", term] == pytest.approx(TRUE[term], rel=1e-3)
    big = _record(99, "b3o", 100, 50, 500, 500, load=4.0)
    assert model.predict(big["spec"]).total == pytest.approx(measured_seconds(big, "cpu"), rel=1e-3)
    assert measured_seconds(big, "wall") == pytest.approx(4 * measured_seconds(big, "cpu"))
    checked = validate(model, records, {r["trial_id"]: "e" for r in records}).set_index("experiment")
    assert checked.loc["e", "error"] == pytest.approx(0, abs=1e-3) and checked.loc["e", "clock"] == "cpu"
    on_wall = fit(observations(records, clock="wall"))
    assert on_wall.clock == "wall"
    assert abs(validate(on_wall, records, {r["trial_id"]: "e" for r in records}).set_index("experiment").loc[
        "e", "error"]) > 0.05  # the loads do not follow the forms


def test_a_cpu_model_fits_a_method_without_cpu_records_to_its_wall_seconds_and_names_it():
    from bench.cost import validate

    timed = [_record(i, "b3o", b, 4, maxiter, m, load=2.0) for i, (b, maxiter, m) in enumerate(SIZES)]
    old = [_record(10 + i, "ts", 50, 4, 50, 64) for i in range(3)]  # before the CPU clock: wall seconds only
    model = fit(observations(timed + old))
    assert model.clock == "cpu"
    assert model.wall_fitted == ["acquire ts", "startup ts"]  # the fit and evaluate parts have CPU records
    assert model.predict(old[0]["spec"]) is not None
    checked = validate(model, timed + old, {r["trial_id"]: r["spec"]["method"] for r in timed + old})
    checked = checked.set_index("experiment")
    assert checked.loc["ts", "trials"] == 0 and checked.loc["ts", "left_out"] == 3  # no CPU seconds to compare
    later = _record(40, "ts", 50, 4, 50, 64, load=2.0)  # a later TS trial with CPU seconds: its acquire part is a
    assert validate(model, [later], {}).loc[0, "left_out"] == 1  # wall fit, an upper bound, not checked
    assert checked.loc["all experiments", "trials"] == len(timed)


def test_what_the_model_never_measured_is_not_predicted_but_named():
    model = _model()
    spec = _record(0, "b3o", 10, 3, 50, 64)["spec"]
    assert model.predict({**spec, "method": "qei"}) is None
    assert model.missing({**spec, "method": "qei"}) == ["startup qei", "acquire qei"]
    cheap_ts = {**spec, "method": "ts", "params": {"starts": "shared"}}  # another acquire step than TS's default
    assert "acquire ts/shared-starts" in model.missing(cheap_ts)
    assert model.missing({**spec, "problem": "shekel4"}) == ["evaluate shekel4", "objectives shekel4"]
    collapsed = {**spec, "model": {**spec["model"], "fit": "collapsed"}}
    assert model.missing(collapsed) == ["fit svgp-collapsed"]
    assert model.missing({**spec, "model": {**spec["model"], "fit": "lbfgs"}}) == []  # the default, spelled out


def test_the_collapsed_fit_has_its_own_constants_and_the_estimate_can_price_adopting_it():
    """Collapsed-fit records fit their own form (no step cap in it) and leave the default fit's constants alone; an
    estimate with `fit` prices every SVGP trial of a grid as if it used that fit."""
    default = [_record(i, "b3o", b, 4, maxiter, m) for i, (b, maxiter, m) in enumerate(SIZES)]
    collapsed = [_record(20 + i, "b3o", b, 4, maxiter, m, fit="collapsed") for i, (b, maxiter, m) in enumerate(SIZES)]
    model = fit(observations(default + collapsed))
    values = {(r.part, r.key, r.term): r.value for r in model.table.itertuples()}
    for term in ("f1", "f2", "f3"):
        assert values["fit", "svgp", term] == pytest.approx(TRUE[term], rel=1e-3)
    for term in ("c0", "c2", "c3"):
        assert values["fit", "svgp-collapsed", term] == pytest.approx(TRUE[term], rel=1e-3)
    big = _record(99, "b3o", 100, 50, 500, 500, fit="collapsed")
    assert model.predict(big["spec"]).total == pytest.approx(big["wall_s"], rel=1e-3)
    assert model.predict(big["spec"]).total < model.predict(_record(99, "b3o", 100, 50, 500, 500)["spec"]).total
    grid = trial_grid(yaml.safe_load((ROOT / "config/smoke.yaml").read_text()))
    as_is, _ = estimate_table(trial_costs(grid, _model()), limit_min=1e9)
    refit, _ = estimate_table(trial_costs(grid, _model(), fit="collapsed"), limit_min=1e9)
    total = "all (each trial once)"
    assert as_is.set_index("experiment").loc[total, "not_predicted"] < refit.set_index("experiment").loc[
        total, "not_predicted"]  # _model never saw a collapsed fit: those trials are named, not guessed


def test_one_reading_of_a_model_specs_fit_names_it_for_svgps_only():
    """`svgp_fit` is the one place that reads a model spec's fit: the default when unnamed, None for a non-SVGP, whose
    spec `refitted` leaves alone and whose cost constants are its kind's."""
    assert [svgp_fit(m) for m in (None, {}, {"fit": "collapsed"}, {"kind": "gpr"})] == ["lbfgs", "lbfgs", "collapsed",
                                                                                          None]
    gpr = {"problem": "ackley5", "model": {"kind": "gpr"}}
    assert refitted(gpr, "collapsed") is gpr
    assert refitted({"model": {}}, "collapsed") == {"model": {"fit": "collapsed"}}
    assert [fit_key(m) for m in ({}, {"fit": "collapsed"}, {"kind": "gpr"})] == ["svgp", "svgp-collapsed", "gpr"]


def test_estimate_counts_unpredicted_trials_and_flags_those_over_the_limit():
    config = yaml.safe_load((ROOT / "config/smoke.yaml").read_text())
    grid = trial_grid(config)
    committed = CostModel.read(ROOT / "paper/tables/cost_model.csv")
    per, flagged = estimate_table(trial_costs(grid, committed), limit_min=1e-6)  # every predicted trial is over a tiny limit
    total = per.set_index("experiment").loc["all (each trial once)"]
    assert total["trials"] == len({row.spec.trial_id for row in grid})
    predicted = total["trials"] - total["not_predicted"]
    assert predicted > 0 and flagged["trials"].sum() >= predicted
    _, none = estimate_table(trial_costs(grid, committed), limit_min=1e9)
    assert none.empty


def test_estimate_command_prices_a_fit_and_writes_its_table(tmp_path):
    out = tmp_path / "estimate.csv"
    done = subprocess.run(
        [sys.executable, "-m", "bench.cli", "estimate", "--configfile", "config/paper.yaml", "--fit", "collapsed",
         "--out", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "every SVGP with the collapsed fit" in done.stdout
    table = pd.read_csv(out).set_index("experiment")
    assert (table["fit"] == "collapsed").all() and (table["config"] == "paper.yaml").all()
    default_fit, _ = estimate_table(trial_costs(trial_grid(yaml.safe_load((ROOT / "config/paper.yaml").read_text())),
                                                CostModel.read(ROOT / "paper/tables/cost_model.csv"), "lbfgs"),
                                    limit_min=240)
    total = "all (each trial once)"
    assert table.loc[total, "core_hours"] < default_fit.set_index("experiment").loc[total, "core_hours"]


def test_estimate_prices_each_planned_look_and_with_results_only_what_is_left(tmp_path):
    """A config planned in looks is priced per look (each in full); `--results` leaves out the trials whose finished
    record the run already has (an incomplete record still counts), so a run going on is told what is left of it."""
    import shutil

    from bench.estimate import finished_trials, look_table

    config = yaml.safe_load((ROOT / "config/large_batch.yaml").read_text())
    costs = trial_costs(trial_grid(config), CostModel.read(ROOT / "paper/tables/cost_model.csv"), config=config)
    looks = look_table(costs)
    assert list(looks["look"]) == [f"synthetic_b100, look {k} (seeds {300 + 10 * (k - 1)}–{309 + 10 * (k - 1)})"
                                   for k in (1, 2, 3)]
    assert (looks["trials"] == 180).all() and looks["core_hours"].sum() == pytest.approx(costs["minutes"].sum() / 60)
    trials = tmp_path / "trials"
    trials.mkdir()
    done, broken = sorted(costs["trial_id"])[:2], sorted(costs["trial_id"])[2]
    record = ROOT / "tests/data/regression/random.json"
    for trial in done:
        shutil.copy(record, trials / f"{trial}.json")
    (trials / f"{broken}.json").write_text(record.read_text()[:500])  # cut short: not finished
    assert set(finished_trials(tmp_path, set(costs["trial_id"]))) == set(done)
    run = [sys.executable, "-m", "bench.cli", "estimate", "--configfile", "config/large_batch.yaml", "--results"]
    left = subprocess.run([*run, str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert left.returncode == 0, left.stderr
    assert "2 of the config's 540 trials have finished records; priced below is what is left" in left.stdout
    assert re.search(r"all \(each trial once\)\s+538\s", left.stdout)
    assert sum(map(int, re.findall(r"look \d \(seeds [^)]*\)\s+(\d+)", left.stdout))) == 538
    wrong = subprocess.run([*run, str(tmp_path / "none")], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert wrong.returncode == 2 and "is not a directory" in wrong.stderr and "Traceback" not in wrong.stderr


def test_estimate_leaves_out_a_later_looks_trials_of_the_settings_a_made_look_closed(tmp_path):
    """A run's look checkpoint (RESULTS/looks/EXPERIMENT/PLAN/lookK.json, as the workflow writes it) lists the trials
    of the settings still open; a later look runs only those settings' seeds, so what is left counts no other. The
    plan is the workflow's: the run's looks are found where the Snakefile puts them."""
    from bench.estimate import closed_by_looks
    from bench.grid import look_plan

    config = yaml.safe_load((ROOT / "config/large_batch.yaml").read_text())
    grid = trial_grid(config)
    assert closed_by_looks(tmp_path, config, grid) == []  # no look made: every later trial stays
    first_look = [row for row in grid if row.spec.seed < 310]
    still_open = [row.spec.trial_id for row in first_look if row.label != "Random"]  # claim 2 decided at look 1
    plan = tmp_path / "looks/synthetic_b100" / look_plan(config, grid, "synthetic_b100")
    plan.mkdir(parents=True)
    (plan / "look1.json").write_text(json.dumps({"experiment": "synthetic_b100", "look": 1, "open": still_open}))
    ((experiment, k, closed),) = closed_by_looks(tmp_path, config, grid)
    assert (experiment, k) == ("synthetic_b100", 1)
    assert closed == {row.spec.trial_id for row in grid if row.label == "Random" and row.spec.seed >= 310}
    assert len(closed) == 3 * 20  # Random on the three problems, looks 2 and 3
    (tmp_path / "trials").mkdir()
    left = subprocess.run([sys.executable, "-m", "bench.cli", "estimate", "--configfile", "config/large_batch.yaml",
                           "--results", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert left.returncode == 0, left.stderr
    assert "synthetic_b100: left out 60 trial(s) of later looks, of the settings look 1 closed" in left.stdout
    assert re.search(r"all \(each trial once\)\s+480\s", left.stdout)
    assert re.search(r"look 2 \(seeds 310–319\)\s+150\s", left.stdout)


def test_a_job_longer_than_a_slot_asks_for_one_slot_per_attempt_and_a_resubmission_per_further_slot():
    from bench.estimate import SAFETY, SPARE_RETRIES, slots

    assert slots(3, 240) == (10, None)  # short: at least 10 min, the profile's retries
    assert slots(100, 240) == (math.ceil(SAFETY * 100), None)
    runtime, retries = slots(557, 240)  # Seq-EHVI on the battery at paper scale: 1,114 min with the safety factor
    assert runtime == 240 and retries == math.ceil(SAFETY * 557 / 240) - 1 + SPARE_RETRIES
    assert (retries - SPARE_RETRIES + 1) * runtime >= SAFETY * 557


def test_the_committed_model_prices_paper_scale_trials_within_a_quarter_and_no_default_run_experiment_short():
    """tools/cost-validation.sh's checks of the committed model: out of sample on the M = 500 check's paper-scale
    trials (B = 100, T = 50) and on the collapsed fit's held-out trials, within 25 %; on the default run, whose
    records all its parts but the default fit were fitted to, never more than 25 % short, so that a trial job's
    slot (`bench.estimate.slots`, twice the prediction) holds."""
    checked = pd.read_csv(ROOT / "paper/tables/cost_validation.csv")
    checked = checked[checked["trials"] > 0]  # rows of records without the model's clock compare nothing
    later = checked[checked["sample"] == "out of sample"]
    assert set(later["experiment"]) >= {"m_check", "all experiments"}
    assert (np.abs(later["error"]) <= 0.25).all(), later
    held = checked[(checked["sample"] == "held out") & (checked["experiment"] != "all experiments")]
    assert len(held) >= 2 and (np.abs(held["error"]) <= 0.25).all(), held  # paper-scale trials (M = 500) it never saw
    default = checked[checked["sample"] == "default run"]
    assert set(default["experiment"]) >= {"synthetic_b100", "battery", "all experiments"}
    assert (default["error"] >= -0.25).all(), default


def test_estimate_command_refuses_a_missing_config_with_exit_2(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "bench.cli", "estimate", "--configfile", str(tmp_path / "none.yaml")],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 2 and "b3o estimate: error:" in result.stderr and "Traceback" not in result.stderr


def test_timed_slices_of_a_trial_no_run_makes_join_the_fit_and_make_its_method_predictable(tmp_path):
    """`b3o cost-model --also`: records fitted to besides the run's (the Seq-EI paper-scale slices), so a config's
    method that no run of this size has made is predicted, and checked under 'slices'."""
    import json

    def write_record(path: Path, record: dict) -> None:  # complete, as `bench.records.load_record` reads it
        rows = [{"num_evals": 0, "points": [], "observations": [], "values": [], "best_value": 0.0, **row}
                for row in record["trace"]]
        path.write_text(json.dumps({**record, "trace": rows}))

    results = tmp_path / "run"
    (results / "trials").mkdir(parents=True)
    rows = []
    for i, (b, maxiter, m) in enumerate([(5, 50, 64), (50, 50, 64), (10, 200, 256), (100, 100, 500)]):
        record = _record(i, "b3o", b, 4, maxiter, m)
        write_record(results / "trials" / f"{record['trial_id']}.json", record)
        rows.append({"experiment": "e", "trial_id": record["trial_id"], "record": f"trials/{record['trial_id']}.json"})
    pd.DataFrame(rows).to_csv(results / "grid.csv", index=False)
    sliced = _record(9, "seq-ei", 1, 6, 500, 500)
    write_record(tmp_path / "slice.record.json", sliced)
    out, validation = tmp_path / "model.csv", tmp_path / "validation.csv"
    command = [sys.executable, "-m", "bench.cli", "cost-model", "--results", str(results), "--out", str(out),
               "--validation", str(validation), "--lbfgs", "none", "--scaling", "none", "--fits", "none"]
    assert subprocess.run(command, capture_output=True, timeout=300).returncode == 0
    assert CostModel.read(out).predict(sliced["spec"]) is None  # no Seq-EI record: not predicted
    result = subprocess.run(command + ["--also", str(tmp_path / "slice.record.json")], capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr
    predicted = CostModel.read(out).predict({**sliced["spec"], "iterations": 750})
    assert predicted is not None and predicted.total > 100 * sliced["wall_s"]  # 750 steps against the slice's 6
    assert "slices" in set(pd.read_csv(validation)["experiment"])


def test_a_committed_model_is_checked_out_of_sample_on_a_later_run_without_refitting(tmp_path):
    """`b3o cost-model --model`: the committed model against a later run's records; its rows ('out of sample')
    replace an earlier check's and keep the fitted ones; the model is not rewritten; a bad path fails before any
    record is read."""
    import json

    results = tmp_path / "run"
    (results / "trials").mkdir(parents=True)
    rows = []
    for i, (b, maxiter, m) in enumerate([(5, 50, 64), (50, 50, 64), (10, 200, 256), (100, 100, 500)]):
        record = _record(i, "b3o", b, 4, maxiter, m)
        trace = [{"num_evals": 0, "points": [], "observations": [], "values": [], "best_value": 0.0, **row}
                 for row in record["trace"]]
        (results / "trials" / f"{record['trial_id']}.json").write_text(json.dumps({**record, "trace": trace}))
        rows.append({"experiment": "e", "trial_id": record["trial_id"], "record": f"trials/{record['trial_id']}.json"})
    pd.DataFrame(rows).to_csv(results / "grid.csv", index=False)
    out, validation = tmp_path / "model.csv", tmp_path / "validation.csv"
    base = [sys.executable, "-m", "bench.cli", "cost-model", "--results", str(results), "--validation",
            str(validation), "--lbfgs", "none", "--scaling", "none", "--fits", "none"]
    assert subprocess.run(base + ["--out", str(out)], capture_output=True, timeout=300).returncode == 0
    fitted = out.read_text()
    for _ in range(2):  # a second check replaces the first's rows
        done = subprocess.run(base + ["--model", str(out)], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
    checked = pd.read_csv(validation)
    assert list(checked["sample"]).count("out of sample") == list(checked["sample"]).count("fitted") > 0
    outside = checked[checked["sample"] == "out of sample"].set_index("experiment")["error"]
    assert np.allclose(outside, checked[checked["sample"] == "fitted"].set_index("experiment")["error"])  # same model
    assert out.read_text() == fitted
    per = subprocess.run(base + ["--model", str(out), "--per-setting"], capture_output=True, text=True, timeout=300)
    assert per.returncode == 0, per.stderr
    outside = pd.read_csv(validation).query("sample == 'out of sample'").set_index("experiment")
    settings = outside[outside.index.str.startswith("b3o on ")]  # one row per method, problem and size
    assert len(settings) == 4 and settings["trials"].sum() == outside.loc["all experiments", "trials"] == 4
    assert "b3o on hartmann6, B = 100, T = 4, M = 500" in settings.index  # a run may time one method at two M
    assert np.isclose(settings["measured_s"].sum(), outside.loc["e", "measured_s"])
    # --looks: the seeds 0-3 of a plan of looks at 2, 3 and 4 seeds, one row per look on the whole plan's boundaries
    planned = tmp_path / "planned.yaml"
    planned.write_text("experiments:\n  e:\n    seeds: {first: 0, start: 2, step: 1, max: 4}\n")
    per = subprocess.run(base + ["--model", str(out), "--looks", str(planned)], capture_output=True, text=True,
                         timeout=300)
    assert per.returncode == 0, per.stderr
    outside = pd.read_csv(validation).query("sample == 'out of sample'").set_index("experiment")
    looks = outside.loc[outside.index.str.startswith("e, look"), "trials"]
    assert looks.to_dict() == {"e, look 1 (seeds 0–1)": 2, "e, look 2 (seed 2)": 1, "e, look 3 (seed 3)": 1}
    alone = subprocess.run(base + ["--looks", str(planned)], capture_output=True, text=True, timeout=300)
    assert alone.returncode == 2 and "give it with --model" in alone.stderr
    # --sample: a check under a label of its own replaces that label's rows only
    before = pd.read_csv(validation)
    labelled = subprocess.run(base + ["--model", str(out), "--sample", "default run"], capture_output=True, text=True,
                              timeout=300)
    assert labelled.returncode == 0, labelled.stderr
    after = pd.read_csv(validation)
    assert after[after["sample"] != "default run"].reset_index(drop=True).equals(before)
    assert set(after.loc[after["sample"] == "default run", "experiment"]) == {"e", "all experiments"}
    unlabelled = subprocess.run(base + ["--sample", "default run"], capture_output=True, text=True, timeout=300)
    assert unlabelled.returncode == 2 and "give it with --model" in unlabelled.stderr
    bad = subprocess.run(base + ["--model", str(tmp_path / "none.csv")], capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2 and "b3o cost-model: error:" in bad.stderr


def test_a_results_directory_given_as_also_fills_in_only_the_parts_the_run_lacks(tmp_path):
    """`b3o cost-model --also DIR`: an earlier run's records, wall seconds only, make a method the run did not run
    predictable, named as fitted to wall seconds; they change no part the run's CPU records fit, and are not checked."""
    import json

    def write_run(where: Path, records: list[dict]) -> None:
        (where / "trials").mkdir(parents=True)
        rows = []
        for record in records:
            trace = [{"num_evals": 0, "points": [], "observations": [], "values": [], "best_value": 0.0, **row}
                     for row in record["trace"]]
            (where / "trials" / f"{record['trial_id']}.json").write_text(json.dumps({**record, "trace": trace}))
            rows.append({"experiment": record["spec"]["method"], "trial_id": record["trial_id"],
                         "record": f"trials/{record['trial_id']}.json"})
        pd.DataFrame(rows).to_csv(where / "grid.csv", index=False)

    write_run(tmp_path / "run", [_record(i, "b3o", b, 4, it, m, load=2.0) for i, (b, it, m) in enumerate(SIZES)])
    earlier = [_record(20 + i, "ts", 50, 4, 50, 64) for i in range(3)]
    write_run(tmp_path / "earlier", earlier + [_record(30 + i, "b3o", 5, 4, 50, 64) for i in range(2)])
    base = [sys.executable, "-m", "bench.cli", "cost-model", "--results", str(tmp_path / "run"), "--fits", "none",
            "--lbfgs", "none", "--scaling", "none", "--validation", str(tmp_path / "v.csv")]
    alone, filled = tmp_path / "alone.csv", tmp_path / "filled.csv"
    assert subprocess.run(base + ["--out", str(alone)], capture_output=True, timeout=300).returncode == 0
    done = subprocess.run(base + ["--out", str(filled), "--also", str(tmp_path / "earlier")], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    model = CostModel.read(filled)
    assert model.clock == "cpu" and model.wall_fitted == ["acquire ts", "startup ts"]
    assert CostModel.read(alone).predict(earlier[0]["spec"]) is None and model.predict(earlier[0]["spec"]) is not None
    shared = model.table[~model.table["key"].isin(["ts", "wall"])].reset_index(drop=True)
    pd.testing.assert_frame_equal(shared, CostModel.read(alone).table)  # the run's parts are the run's alone
    assert set(pd.read_csv(tmp_path / "v.csv")["experiment"]) == {"b3o", "all experiments"}


def test_extending_a_model_fits_only_the_parts_it_lacks_and_keeps_its_constants_and_checks(tmp_path):
    """`b3o cost-model --extend`: a committed model gains the collapsed fit from records of that fit alone; every
    constant it had is read back and written bit for bit, its checks stay, and held-out records are checked."""
    import json

    def write(path: Path, record: dict) -> Path:
        rows = [{"num_evals": 0, "points": [], "observations": [], "values": [], "best_value": 0.0, **row}
                for row in record["trace"]]
        path.write_text(json.dumps({**record, "trace": rows}))
        return path

    base, validation = tmp_path / "model.csv", tmp_path / "validation.csv"
    fit(observations([_record(i, "b3o", b, 4, maxiter, m, load=2.0) for i, (b, maxiter, m) in enumerate(SIZES)])
        ).table.to_csv(base, index=False)
    pd.DataFrame([{"experiment": "e", "trials": 4, "measured_s": 1.0, "predicted_s": 1.0, "left_out": 0,
                   "error": 0.0, "clock": "wall", "sample": "fitted"}]).to_csv(validation, index=False)
    before = CostModel.read(base).table
    fitted = [write(tmp_path / f"c{i}.json", _record(30 + i, "b3o", b, 4, maxiter, m, load=1.0, fit="collapsed"))
              for i, (b, maxiter, m) in enumerate(SIZES)]
    held = write(tmp_path / "held.json", _record(99, "b3o", 100, 50, 500, 500, load=1.0, fit="collapsed"))
    done = subprocess.run(
        [sys.executable, "-m", "bench.cli", "cost-model", "--extend", str(base), "--out", str(base),
         "--validation", str(validation), "--lbfgs", "none", "--scaling", "none", "--fits", "none",
         "--also", *map(str, fitted), "--holdout", str(held)], capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    after = CostModel.read(base)
    kept = after.table.merge(before, on=["part", "key", "term"], suffixes=("", "_before"))
    assert len(kept) == len(before) and (kept["value"] == kept["value_before"]).all()
    values = {(r.part, r.key, r.term): r.value for r in after.table.itertuples()}
    assert values["fit", "svgp-collapsed", "c2"] == pytest.approx(TRUE["c2"], rel=1e-3)
    checked = pd.read_csv(validation)
    assert set(checked["sample"]) == {"fitted", "held out"} and "e" in set(checked["experiment"])
    assert checked.loc[checked["sample"] == "held out", "error"].abs().max() < 1e-3


def test_fits_that_stop_short_of_their_cap_are_fitted_at_the_steps_they_took():
    """A fit that converged in fewer steps than its cap costs fewer steps, not cheaper ones: counted at the steps its
    record keeps, the constants come back exact, and a trial that runs to the cap is predicted right."""
    from bench.cost import fit_steps

    records = [_record(i, "b3o", b, 4, maxiter, m, steps=maxiter // 2) for i, (b, maxiter, m) in enumerate(SIZES)]
    assert fit_steps(records[0]["trace"][1]) == SIZES[0][1] // 2
    assert fit_steps({"fit": [{"steps": 10}, {"steps": 30}]}) == 20.0  # one model per objective
    assert math.isnan(fit_steps({"fit_s": 1.0}))  # a record from before fits kept their outcome
    values = {(r.part, r.term): r.value for r in fit(observations(records)).table.itertuples()}
    for term in ("f1", "f2", "f3"):
        assert values["fit", term] == pytest.approx(TRUE[term], rel=1e-3)
    at_cap = {(r.part, r.term): r.value for r in fit(observations(
        [{**r, "trace": [{k: v for k, v in step.items() if k != "fit"} for step in r["trace"]]} for r in records]
    )).table.itertuples()}
    assert at_cap["fit", "f2"] < 0.6 * TRUE["f2"]  # counted at the cap, the same seconds make every step cheaper


def test_refitting_the_default_fit_replaces_its_constants_only():
    from bench.cost import with_fit_refitted

    committed = _model()
    slower = {**TRUE, "f1": 0.05, "f2": 5e-10}
    records = [_record(i, "b3o", b, 4, maxiter, m, true=slower) for i, (b, maxiter, m) in enumerate(SIZES)]
    refitted = with_fit_refitted(committed, observations(records))
    old = committed.table.set_index(["part", "key", "term"])["value"]
    new = refitted.table.set_index(["part", "key", "term"])["value"]
    assert set(old.index) == set(new.index)
    changed = {key for key in old.index if old[key] != new[key]}
    assert changed and all(part == "fit" and key == "svgp" for part, key, _ in changed)
    assert new["fit", "svgp", "f2"] == pytest.approx(5e-10, rel=1e-3)
    with pytest.raises(ValueError, match="cpu seconds"):
        with_fit_refitted(committed, observations([_record(0, "b3o", 5, 4, 50, 64, load=2.0)]))


def test_what_is_left_of_a_run_is_scaled_per_setting_by_what_its_finished_trials_took(tmp_path):
    """`b3o estimate --results`: the finished trials' measured seconds against their predictions, per setting
    (`realised`), and what is left with each setting's prediction scaled by that ratio, the model's own for a setting
    none of whose trials has finished (`scaled_left`); a record without the model's clock is not counted."""
    import json

    from bench.cost import measured_seconds
    from bench.estimate import finished_trials, realised, scaled_left

    (tmp_path / "trials").mkdir()
    records = [_record(i, "b3o", 10, 3, 50, 64, load=2.0) for i in range(3)]
    records.append({**_record(3, "b3o", 10, 3, 50, 64), "trial_id": "wall-only"})  # no CPU seconds
    for record in records:
        trace = [{"num_evals": 0, "points": [], "observations": [], "values": [], "best_value": 0.0, **row}
                 for row in record["trace"]]
        (tmp_path / "trials" / f"{record['trial_id']}.json").write_text(json.dumps({**record, "trace": trace}))
    ids = [r["trial_id"] for r in records]
    costs = pd.DataFrame({"label": ["A", "A", "A", "A", "B"], "problem": "hartmann6",
                          "trial_id": [*ids, "b-left"], "minutes": [1.0, 3.0, 5.0, 7.0, 11.0]})
    finished = finished_trials(tmp_path, set(ids))
    assert set(finished) == set(ids)
    done = realised(costs, {t: finished[t] for t in [*ids[:2], "wall-only"]}, "cpu")
    measured = sum(measured_seconds(r, "cpu") for r in records[:2]) / 60
    assert done.loc[("A", "hartmann6")].to_dict() == pytest.approx({"trials": 2, "measured": measured,
                                                                    "predicted": 4.0})
    left = costs[~costs["trial_id"].isin(ids[:2])]
    assert scaled_left(left, done) == pytest.approx(measured / 4.0 * (5.0 + 7.0) + 11.0)
    assert realised(costs, {}, "cpu").empty and scaled_left(left, realised(costs, {}, "cpu")) == 23.0
