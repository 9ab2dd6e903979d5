"""The real Snakefile, in a temporary directory: lint, dry runs of every shipped config, bad configs, a tiny real
run (default suite) and the whole smoke config end to end (`-m slow`); its planned looks are
tests/test_workflow_looks.py's (their run end to end is `-m long`, which CI runs after the default suite)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest
import yaml
from tiny_config import snakemake, tiny_config, workflow_copy


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    return workflow_copy(tmp_path_factory.mktemp("workflow"))


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


def test_lint_is_clean(workdir):
    result = snakemake(workdir, "config/smoke.yaml", "--lint")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Lints for" not in result.stdout, result.stdout


@pytest.mark.parametrize("configfile", ["config/smoke.yaml", "config/config.yaml",
                                        pytest.param("config/paper.yaml", marks=pytest.mark.long)])  # paper scale: 22 s
def test_every_shipped_config_enumerates(workdir, configfile):
    result = snakemake(workdir, configfile, "-n", "--quiet", timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]


def test_bad_config_fails_at_parse_time_naming_the_key(workdir, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text((workdir / "config/smoke.yaml").read_text() + "\ncolour: red\n")
    result = snakemake(workdir, str(bad), "-n", timeout=300)
    assert result.returncode != 0 and "colour" in result.stdout + result.stderr


def test_bad_method_name_fails_before_any_job(workdir, tmp_path):
    config = yaml.safe_load((workdir / "config/smoke.yaml").read_text())
    config["experiments"]["synthetic_b100"]["methods"][0]["params"]["sampler"] = "gibbs"
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(config))
    result = snakemake(workdir, str(bad), "-n", timeout=300)
    assert result.returncode != 0 and "valid samplers" in result.stdout + result.stderr


def test_tiny_config_runs_end_to_end_and_reruns_nothing(workdir):
    configfile = _tiny_config(workdir)
    result = snakemake(workdir, configfile)
    assert result.returncode == 0, result.stderr[-4000:]
    _check_outputs(workdir / "results/tiny run", {"regret_b100", "diversity_b100", "illustration_1d", "theorem1"})
    rerun = snakemake(workdir, configfile, "-n")
    assert rerun.returncode == 0 and "Nothing to be done" in rerun.stdout + rerun.stderr
    # a deleted record is run again (Snakemake alone would keep the up-to-date table and do nothing)
    records = {path: path.read_text() for path in (workdir / "results/tiny run/trials").glob("*.json")}
    assert len(records) == 4
    record = min(records)
    record.unlink()
    rerun = snakemake(workdir, configfile, "-n")
    assert rerun.returncode == 0 and str(record.relative_to(workdir)) in rerun.stdout, rerun.stdout
    # its job reruns: Snakemake deletes the job's other record too, and both come back from the finished copies
    # unchanged (a recomputed record would differ in its timings); the record as target, so that the tables and
    # figures below it, which the tiny run checked above, are not rebuilt (a flag ends --configfile's list)
    rerun = snakemake(workdir, configfile, "--keep-going", str(record.relative_to(workdir)))
    assert rerun.returncode == 0, rerun.stderr[-4000:]
    assert {p: p.read_text() for p in records} == records


@pytest.mark.slow
def test_smoke_config_runs_end_to_end(workdir):
    result = snakemake(workdir, "config/smoke.yaml")
    assert result.returncode == 0, result.stderr[-4000:]
    figures = {
        "regret_b100", "regret_b5", "diversity_b100", "diversity_b5", "lambda_constant", "lambda_scheduled",
        "sampler_ucb_c", "battery", "formula_e", "timing", "illustration_1d", "lambda_effect", "theorem1",
    }
    _check_outputs(workdir / "results/smoke", figures)
