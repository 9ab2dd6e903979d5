"""Experiments -> sparse trial grid, and config validation against the workflow's JSON schema."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml
from snakemake.utils import validate

from bench.grid import look_plan, looks_run, settings_to_check, seed_numbers, sequential_experiments, trial_grid

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = str(ROOT / "workflow/schemas/config.schema.yaml")
CONFIGS = sorted((ROOT / "config").glob("*.yaml"))


def _load(name: str) -> dict:
    return yaml.safe_load((ROOT / "config" / name).read_text())


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.name)
def test_shipped_configs_are_valid_and_expand(path):
    config = yaml.safe_load(path.read_text())
    validate(config, SCHEMA)
    rows = trial_grid(config)
    assert rows and all(r.spec.trial_id.isalnum() for r in rows)


def test_paper_grid_is_sparse_and_has_the_papers_settings():
    rows = trial_grid(_load("paper.yaml"))
    by_experiment = {}
    for row in rows:
        by_experiment.setdefault(row.experiment, []).append(row)
    # lambda and the sampler belong to B3O only
    for row in rows:
        if row.spec.method != "b3o":
            assert "lam" not in row.spec.params and "sampler" not in row.spec.params
    b100 = by_experiment["synthetic_b100"]
    assert {r.spec.seed for r in b100} == set(range(30))
    assert {(r.spec.batch_size, r.spec.iterations, r.spec.n_init) for r in b100 if r.label != "Seq-EI"} == {(100, 50, 100)}
    assert {r.spec.iterations for r in b100 if r.label == "Seq-EI"} == {750}
    # Table 2 lambdas, per function and variant
    lam = {(r.label, r.spec.problem): r.spec.params["lam"] for r in b100 if r.spec.method == "b3o"}
    assert lam[("B3O-UCB-c", "ackley5")] == 10 and lam[("B3O-LogEI-s", "shekel4")] == 5
    ablation = by_experiment["lambda_ablation"]
    assert len({(r.spec.problem, r.label, r.spec.params["lam"]) for r in ablation}) == 3 * 4 * 4
    assert {r.spec.params["sampler"] for r in by_experiment["sampler_ablation"]} == {"defer", "defer-is", "mh", "langevin", "dmc"}
    # a trial shared by two experiments is one trial
    shared = {r.spec.trial_id for r in b100} & {r.spec.trial_id for r in ablation}
    assert shared


def test_seeds_in_looks_may_start_at_a_first_seed_and_fixed_counts_start_at_zero():
    config = _load("config.yaml")
    config["experiments"]["synthetic_b100"]["seeds"] = {"first": 100, "start": 2, "step": 2, "max": 4}
    config["experiments"]["battery"]["seeds"] = 3
    seeds = {}
    for row in trial_grid(config):
        seeds.setdefault(row.experiment, set()).add(row.spec.seed)
    assert seeds["synthetic_b100"] == {100, 101, 102, 103}
    assert seeds["battery"] == {0, 1, 2}
    assert list(seed_numbers({"first": 100, "start": 2, "step": 2, "max": 4})[:2]) == [100, 101]  # the first look's


def test_until_stops_a_plan_early_but_keeps_the_whole_plan_for_its_boundaries():
    """`until` runs only the plan's first looks; the analysis still gets every planned look (its boundaries)."""
    config = _load("smoke.yaml")
    plan = {"first": 100, "start": 2, "step": 2, "max": 6}
    config["experiments"]["synthetic_b100"]["seeds"] = {**plan, "until": 4}
    validate(config, SCHEMA)
    assert {r.spec.seed for r in trial_grid(config) if r.experiment == "synthetic_b100"} == {100, 101, 102, 103}
    assert sequential_experiments(config)["synthetic_b100"] == (2, 4, 6)
    assert looks_run({**plan, "until": 4}) == (2, 4) and looks_run(plan) == (2, 4, 6)
    with pytest.raises(ValueError, match=r"until=3 must be one of the planned seed counts \[2, 4, 6\]"):
        looks_run({**plan, "until": 3})


def test_a_plans_looks_stay_where_a_run_going_on_keeps_them():
    """A long run keeps its looks under its plan's hash (RESULTS/looks/EXPERIMENT/PLAN/) across sittings and code
    changes: the published runs' plans are pinned, and `until` (where a config stops) does not move them. (The
    large-batch plan was 44903c204b0c while it ran Ackley-5 and Hartmann-6 alone; Shekel-4 joining is a new plan.)"""
    for name, experiment, plan in [("large_batch.yaml", "synthetic_b100", "67b5e7fc20d9"),
                                   ("collapsed_fit_m500.yaml", "collapsed_fit_m500", "e865702551ef")]:
        config = _load(name)
        assert look_plan(config, trial_grid(config), experiment) == plan, name
    config = _load("large_batch.yaml")
    seeds = config["experiments"]["synthetic_b100"]["seeds"]
    stopped = {**config, "experiments": {"synthetic_b100": {**config["experiments"]["synthetic_b100"],
                                                            "seeds": {**seeds, "until": seeds["start"]}}}}
    assert look_plan(stopped, trial_grid(stopped), "synthetic_b100") == "67b5e7fc20d9"


def test_the_spec_check_skips_only_settings_whose_every_trial_has_a_record():
    """The workflow checks each setting once, before any job, and not again once all its trials have run: a finished
    run's dry run starts no check (it imports TensorFlow), while a setting with a seed left is still checked."""
    config = _load("large_batch.yaml")
    specs = {row.spec.trial_id: row.spec for row in trial_grid(config)}
    everything = settings_to_check(specs, lambda trial_id: False)
    assert len(everything) == 18 and all(s["seed"] == 0 for s in everything)  # 6 methods x 3 problems, once each
    assert settings_to_check(specs, lambda trial_id: True) == []
    ts_last_seed = {t for t, spec in specs.items() if spec.method == "ts" and spec.seed == 329}
    left = settings_to_check(specs, lambda trial_id: trial_id not in ts_last_seed)
    assert sorted(s["problem"] for s in left) == ["ackley5", "hartmann6", "shekel4"]
    assert {s["method"] for s in left} == {"ts"}


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda c: c.update(colour="red"), "colour"),
        (lambda c: c["experiments"]["synthetic_b100"].update(seeds=0), "seeds"),
        (lambda c: c["experiments"].update({"My study": c["experiments"]["synthetic_b100"]}), "My study"),
        (lambda c: c["experiments"]["synthetic_b100"]["methods"][0].update(lambda_=1), "lambda_"),
        (lambda c: c["experiments"]["synthetic_b100"]["methods"][0].update(lam=-1), "lam"),
        (lambda c: c["experiments"]["synthetic_b100"]["methods"][0].update(lam="tabel2"), r"tabel2(.|\n)*\['lam'\]"),
    ],
)
def test_bad_config_fails_naming_the_key(mutate, message):
    config = copy.deepcopy(_load("smoke.yaml"))
    mutate(config)
    with pytest.raises(Exception, match=message):
        validate(config, SCHEMA)


def test_an_experiment_may_have_any_safe_name():
    """A user's own experiment (the paper's names keep their figures, declared by the figure scripts, and claims)."""
    config = _load("smoke.yaml")
    config["experiments"] = {"my_study_2": config["experiments"]["synthetic_b100"]}
    validate(config, SCHEMA)
    assert {row.experiment for row in trial_grid(config)} == {"my_study_2"}


def test_per_problem_lambda_must_cover_every_problem():
    config = _load("smoke.yaml")
    config["experiments"]["synthetic_b100"]["methods"][0]["lam"] = {"ackley5": 1.0}
    with pytest.raises(ValueError, match="not for 'shekel4'"):
        trial_grid(config)


def test_lam_table2_is_the_papers_table_2_as_the_configs_wrote_it():
    """`lam: table2` expands to the very specs (hence trial ids) of the per-problem numbers it replaced."""
    config = _load("smoke.yaml")
    config["experiments"]["synthetic_b100"]["problems"] = ["shekel4", "ackley5", "hartmann6"]
    written = {"shekel4": 5, "ackley5": 10, "hartmann6": 10}  # B3O-UCB-c's row of Table 2, integers as in YAML
    method = {**config["experiments"]["synthetic_b100"]["methods"][0], "lam": written}
    config["experiments"]["synthetic_b100"]["methods"] = [method]
    explicit = [row.spec.trial_id for row in trial_grid(config)]
    method["lam"] = "table2"
    validate(config, SCHEMA)
    assert [row.spec.trial_id for row in trial_grid(config)] == explicit


def test_lam_table2_names_what_table_2_lacks():
    config = _load("smoke.yaml")
    config["experiments"]["synthetic_b5"]["methods"][0]["lam"] = "table2"
    config["experiments"]["synthetic_b5"]["problems"] = ["branin2"]
    with pytest.raises(ValueError, match="no λ for problem 'branin2' with acquisition/temperature logei/constant"):
        trial_grid(config)


def test_a_trial_whose_config_names_no_model_fits_an_exact_gp_while_it_is_small():
    """Issue 69: exact GPR up to `EXACT_GP_UP_TO` points (n_init + B·T), the paper's SVGP above, written into the spec
    (so its record and trial id say which ran); a model the config names is kept, and every shipped config names one."""
    from bench.model_spec import EXACT_GP_UP_TO
    from bench.spec import TrialSpec

    def spec(**counts):
        return TrialSpec.from_dict({"problem": "branin", "method": "random", "seed": 0, **counts})

    assert spec(n_init=EXACT_GP_UP_TO - 20, batch_size=10, iterations=2).model == {"kind": "gpr"}
    assert spec(n_init=EXACT_GP_UP_TO - 19, batch_size=10, iterations=2).model == {"kind": "svgp"}
    named = TrialSpec.from_dict({"problem": "branin", "method": "random", "seed": 0, "n_init": 5, "batch_size": 1,
                                 "iterations": 1, "model": {"kind": "svgp", "num_inducing": 8}})
    assert named.model == {"kind": "svgp", "num_inducing": 8}
    for path in CONFIGS:
        assert "model" in yaml.safe_load(path.read_text()).get("defaults", {}), path.name
