"""The real Snakefile, in a temporary directory: lint, dry runs of every shipped config, bad configs, a tiny real
run (default suite) and the whole smoke config end to end (`-m slow`)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest
import yaml
from tiny_config import tiny_config

ROOT = Path(__file__).resolve().parents[1]


def _snakemake(workdir: Path, configfile: str, *args: str, timeout: int = 3000) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["snakemake", "--cores", "2", "--configfile", configfile, *args],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("workflow")
    for name in ("Snakefile", "workflow", "config", "profiles", "paper"):
        source = ROOT / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, work / name)
    return work


def _tiny_config(workdir: Path) -> str:
    """Two seeds of two methods on a 1-D problem, both seeds of a method in one job; a space in the results path:
    every path in the rules' shell commands must be quoted."""
    return tiny_config(workdir, "tiny", seeds=2, results="results/tiny run", trials_per_job=2)


def _check_outputs(out: Path, figures: set[str]) -> None:
    grid = pd.read_csv(out / "grid.csv")
    table = pd.read_parquet(out / "tidy.parquet")
    assert len(table) == int(sum(grid["iterations"] + 1))  # one row per (experiment, trial, iteration)
    assert set(table["experiment"]) == set(grid["experiment"])
    paper = out / "paper"
    produced = {p.stem for p in (paper / "figures").glob("*.png")}
    assert figures <= produced, figures - produced
    assert {p.stem for p in (paper / "figures").glob("*.pdf")} >= figures
    for path in [*(paper / "figures").iterdir(), *(paper / "tables").iterdir(), paper / "claims.md", paper / "report.tex"]:
        assert path.stat().st_size > 0, path
    if shutil.which("latexmk"):
        assert (paper / "report.pdf").stat().st_size > 0
    times = pd.read_csv(paper / "tables/run_times.csv").set_index(["experiment", "label"])
    total = times.loc[("all experiments", "all methods")]
    assert total["trials"] == grid["trial_id"].nunique() == total["measured"] and total["total_s"] > 0


def _reruns_trials_or_looks(dry_run: str) -> bool:
    """Whether a dry run's plan holds a trial job or a look (a targeted dry run may replan the tables below its
    target after the look checkpoints are re-read; the tiny run checks that the default target reruns nothing)."""
    return re.search(r"^(rule trials_[0-9a-f]+|checkpoint look):", dry_run, re.MULTILINE) is not None


def test_lint_is_clean(workdir):
    result = _snakemake(workdir, "config/smoke.yaml", "--lint")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Lints for" not in result.stdout, result.stdout


@pytest.mark.parametrize("configfile", ["config/smoke.yaml", "config/config.yaml", "config/paper.yaml"])
def test_every_shipped_config_enumerates(workdir, configfile):
    result = _snakemake(workdir, configfile, "-n", "--quiet", timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]


def test_bad_config_fails_at_parse_time_naming_the_key(workdir, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text((workdir / "config/smoke.yaml").read_text() + "\ncolour: red\n")
    result = _snakemake(workdir, str(bad), "-n", timeout=300)
    assert result.returncode != 0 and "colour" in result.stdout + result.stderr


def test_bad_method_name_fails_before_any_job(workdir, tmp_path):
    config = yaml.safe_load((workdir / "config/smoke.yaml").read_text())
    config["experiments"]["synthetic_b100"]["methods"][0]["params"]["sampler"] = "gibbs"
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(config))
    result = _snakemake(workdir, str(bad), "-n", timeout=300)
    assert result.returncode != 0 and "valid samplers" in result.stdout + result.stderr


def test_tiny_config_runs_end_to_end_and_reruns_nothing(workdir):
    configfile = _tiny_config(workdir)
    result = _snakemake(workdir, configfile)
    assert result.returncode == 0, result.stderr[-4000:]
    _check_outputs(workdir / "results/tiny run", {"regret_b100", "diversity_b100", "illustration_1d", "theorem1"})
    rerun = _snakemake(workdir, configfile, "-n")
    assert rerun.returncode == 0 and "Nothing to be done" in rerun.stdout + rerun.stderr
    # a deleted record is run again (Snakemake alone would keep the up-to-date table and do nothing)
    records = {path: path.read_text() for path in (workdir / "results/tiny run/trials").glob("*.json")}
    assert len(records) == 4
    record = min(records)
    record.unlink()
    rerun = _snakemake(workdir, configfile, "-n")
    assert rerun.returncode == 0 and str(record.relative_to(workdir)) in rerun.stdout, rerun.stdout
    # its job reruns: Snakemake deletes the job's other record too, and both come back from the finished copies
    # unchanged (a recomputed record would differ in its timings)
    rerun = _snakemake(workdir, configfile)
    assert rerun.returncode == 0, rerun.stderr[-4000:]
    assert {p: p.read_text() for p in records} == records


@pytest.mark.slow
def test_smoke_config_runs_end_to_end(workdir):
    result = _snakemake(workdir, "config/smoke.yaml")
    assert result.returncode == 0, result.stderr[-4000:]
    figures = {
        "regret_b100", "regret_b5", "diversity_b100", "diversity_b5", "lambda_constant", "lambda_scheduled",
        "sampler_ucb_c", "battery", "formula_e", "timing", "illustration_1d", "lambda_effect", "theorem1",
    }
    _check_outputs(workdir / "results/smoke", figures)


def test_every_sequential_experiment_s_first_look_is_planned_at_once(workdir):
    """Two experiments with seeds in looks: before anything ran, the plan holds both first looks and their trials, so
    one experiment's looks never wait for another's."""
    configfile = tiny_config(workdir, "two-looks", seeds=2, results="results/two-looks")
    config = yaml.safe_load((workdir / configfile).read_text())
    first = config["experiments"]["synthetic_b100"]
    first.update(seeds={"start": 2, "step": 2, "max": 4})
    config["experiments"]["my_second_study"] = {**first, "problems": ["hartmann6"]}
    (workdir / configfile).write_text(yaml.safe_dump(config))
    plan = _snakemake(workdir, configfile, "-n")
    assert plan.returncode == 0, plan.stderr[-4000:]
    for experiment in ("synthetic_b100", "my_second_study"):
        assert re.search(rf"looks/{experiment}/[0-9a-f]{{12}}/look1\.json", plan.stdout), experiment
    # both experiments' first-look trials: 2 seeds x 2 methods each, one trial per job
    assert len(re.findall(r"rule trials_[0-9a-f]{16}:", plan.stdout)) == 8


def test_seeds_in_looks_run_the_next_look_only_where_a_comparison_is_open(workdir):
    """`seeds: {start, step, max}`: a checkpoint decides the claims at each look and the next look's seeds go only to
    the settings of comparisons still open; the claims then name the look each comparison reached."""
    configfile = tiny_config(workdir, "looks", seeds=2, results="results/looks", trials_per_job=2)
    config = yaml.safe_load((workdir / configfile).read_text())
    experiment = config["experiments"]["synthetic_b100"]
    # the fewest seeds at which a first look can decide (the workflow refuses one that cannot,
    # analysis/statistics/plans.py): 2^(1−7) = 0.016 is below the first look's level 0.046, and for the wider config's 2
    # comparisons 0.031 is too
    experiment.update(problems=["hartmann6"], iterations=2, seeds={"start": 7, "step": 1, "max": 8})
    (workdir / configfile).write_text(yaml.safe_dump(config))
    # the claims as target: the looks, records and verdicts, without the figures and report the tiny run checks
    claims = "results/looks/paper/claims.md"
    result = _snakemake(workdir, configfile, "--keep-going", claims)  # (a flag ends --configfile's list: see below)
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
    rerun = _snakemake(workdir, configfile, "-n", claims)
    assert rerun.returncode == 0, rerun.stderr[-4000:]
    assert not _reruns_trials_or_looks(rerun.stdout), rerun.stdout

    # a second config on the same results directory whose synthetic_b100 has one more method keeps its own looks:
    # the first config's plan (which never heard of that method's trials) still builds, its look unchanged
    config["experiments"]["synthetic_b100"]["methods"].append(
        {"label": "B3O-UCB-s", "method": "b3o", "params": {"acquisition": "ucb", "temperature": "scheduled",
                                                           "sampler": "defer"}, "lam": 1}
    )
    (workdir / "config/looks-wider.yaml").write_text(yaml.safe_dump(config))
    # (a flag after the config file ends --configfile's list, so the target is not read as a second config)
    wider = _snakemake(workdir, "config/looks-wider.yaml", "--keep-going", "results/looks/grid.csv")
    assert wider.returncode == 0, wider.stderr[-4000:]
    assert len(list((out / "looks/synthetic_b100").glob("*/look1.json"))) == 2
    assert json.loads(look_file.read_text()) == look
    again = _snakemake(workdir, configfile, "-n", claims)
    assert again.returncode == 0, again.stderr[-4000:]
    assert not _reruns_trials_or_looks(again.stdout), again.stdout
