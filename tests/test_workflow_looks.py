"""Seeds in planned looks on the real Snakefile, in a temporary directory: every experiment's first look planned at
once, and the next look's seeds only where a comparison is open."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
import yaml
from tiny_config import reruns_trials_or_looks, snakemake, tiny_config, workflow_copy


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    return workflow_copy(tmp_path_factory.mktemp("workflow-looks"))


def test_every_sequential_experiment_s_first_look_is_planned_at_once(workdir):
    """Two experiments with seeds in looks: before anything ran, the plan holds both first looks and their trials, so
    one experiment's looks never wait for another's."""
    configfile = tiny_config(workdir, "two-looks", seeds=2, results="results/two-looks")
    config = yaml.safe_load((workdir / configfile).read_text())
    first = config["experiments"]["synthetic_b100"]
    first.update(seeds={"start": 2, "step": 2, "max": 4})
    config["experiments"]["my_second_study"] = {**first, "problems": ["hartmann6"]}
    (workdir / configfile).write_text(yaml.safe_dump(config))
    plan = snakemake(workdir, configfile, "-n")
    assert plan.returncode == 0, plan.stderr[-4000:]
    for experiment in ("synthetic_b100", "my_second_study"):
        assert re.search(rf"looks/{experiment}/[0-9a-f]{{12}}/look1\.json", plan.stdout), experiment
    # an experiment of a user's own gets its progress figure (`analysis.figures.run_figures`, as a republication's)
    assert re.search(r"figures/progress_my_second_study\.png", plan.stdout), "no progress figure planned"
    # both experiments' first-look trials: 2 seeds x 2 methods each, one trial per job
    assert len(re.findall(r"rule trials_[0-9a-f]{16}:", plan.stdout)) == 8


@pytest.mark.long  # 16 Hartmann-6 trials and two looks, a minute or more: CI runs it (docs/testing.md)
def test_seeds_in_looks_run_the_next_look_only_where_a_comparison_is_open(workdir):
    """`seeds: {start, step, max}`: a checkpoint decides the claims at each look and the next look's seeds go only to
    the settings of comparisons still open; the claims then name the look each comparison reached."""
    # as many trials per job as the most seeds: each look's seeds of a setting in one job (`trial_jobs` cuts jobs at
    # the looks), the fewest trial processes, each paying TensorFlow's start-up
    configfile = tiny_config(workdir, "looks", seeds=2, results="results/looks", trials_per_job=8)
    config = yaml.safe_load((workdir / configfile).read_text())
    experiment = config["experiments"]["synthetic_b100"]
    # the fewest seeds at which a first look can decide (the workflow refuses one that cannot,
    # analysis/claims/plans.py): 2^(1−7) = 0.016 is below the first look's level 0.046, and for the wider config's 2
    # comparisons 0.031 is too
    experiment.update(problems=["hartmann6"], iterations=2, seeds={"start": 7, "step": 1, "max": 8})
    (workdir / configfile).write_text(yaml.safe_dump(config))
    # the claims as target: the looks, records and verdicts, without the figures and report the tiny run checks
    claims = "results/looks/paper/claims.md"
    result = snakemake(workdir, configfile, "--keep-going", claims)  # (a flag ends --configfile's list: see below)
    assert result.returncode == 0, result.stderr[-4000:]
    out = workdir / "results/looks"
    (look_file,) = (out / "looks/synthetic_b100").glob("*/look1.json")  # under the experiment's plan
    look = json.loads(look_file.read_text())
    grid = pd.read_csv(out / "grid.csv")
    seeds = grid.groupby("label")["seed"].nunique()
    # B3O against Random on Hartmann-6 (claim 2) is open at 7 seeds: B3O-LogEI-s's second batch (the first that
    # counts: its first, λ_1 = 0, is not comparable) is nearly uniform at λ_2 = 0.1·√2·log 2, as Random's, so there
    # is no difference to find; both settings go on
    assert look["comparisons_open"] >= 1 and len(look["open"]) == 14
    assert seeds.to_dict() == {"B3O-LogEI-s": 8, "Random": 8}
    assert len(list((out / "trials").glob("*.json"))) == 16
    assert "at look 2" in (out / "paper/claims.md").read_text()

    # a second config on the same results directory whose synthetic_b100 has one more method keeps its own looks:
    # the first config's plan (which never heard of that method's trials) still builds, its look unchanged
    # (random search at half the batch size: a setting of its own whose trials are cheap)
    config["experiments"]["synthetic_b100"]["methods"].append({"label": "Random-B4", "method": "random", "batch_size": 4})
    (workdir / "config/looks-wider.yaml").write_text(yaml.safe_dump(config))
    # (a flag after the config file ends --configfile's list, so the target is not read as a second config)
    wider = snakemake(workdir, "config/looks-wider.yaml", "--keep-going", "results/looks/grid.csv")
    assert wider.returncode == 0, wider.stderr[-4000:]
    assert len(list((out / "looks/synthetic_b100").glob("*/look1.json"))) == 2
    assert json.loads(look_file.read_text()) == look
    # and the first config, run again, reruns no trial and no look: neither its own run nor the wider one left it any
    again = snakemake(workdir, configfile, "-n", claims)
    assert again.returncode == 0, again.stderr[-4000:]
    assert not reruns_trials_or_looks(again.stdout), again.stdout
