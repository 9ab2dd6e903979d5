"""`b3o study`: a user's config and problem module, in a directory outside the checkout, run by one command.

The package's Snakefile drives it from the user's directory: records and tables land where the config says, relative
to that directory, and the problem and a method are the user's own modules there (`my_problem:shifted_sphere`,
`my_method:RandomLCB`), found because the command puts that directory on the jobs' PYTHONPATH. Tiny sizes, the
model left to its default (exact GPR for so few points), all six trials in one job. The whole run is `-m long` (CI runs
it after the default suite); the dry runs and refusals below are in the default suite."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


@pytest.mark.long  # a whole `b3o study` run, minutes: CI runs it (docs/testing.md: what covers its parts by default)
def test_a_user_study_runs_from_a_directory_outside_the_checkout(tmp_path):
    user = tmp_path / "my-study"
    user.mkdir()
    assert ROOT not in user.parents
    for module in ("my_problem.py", "my_method.py"):
        (user / module).write_text((EXAMPLES / module).read_text())
    config = yaml.safe_load((EXAMPLES / "my.yaml").read_text())
    config |= {"trials_per_job": 6}
    study = config["experiments"]["my_sphere_study"]
    study.update(seeds=2, batch_size=3, iterations=2, n_init=4)
    for method in study["methods"]:
        if method["method"] == "b3o":
            method["params"] |= {"sampler": "defer", "sampler_options": {"budget": 300}}
    study["compare"][1]["problems"] = ["shifted-sphere"]  # the problem by the name its tables show (issue 80)
    (user / "my.yaml").write_text(yaml.safe_dump(config))
    targets = ["results/mine/paper/tables/summary.csv", "results/mine/paper/figures/progress_my_sphere_study.png",
               "results/mine/paper/tables/declared.csv", "results/mine/paper/report.tex", "results/mine/site/index.html"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "bench.cli", "study", "--configfile", "my.yaml", "--cores", "2", *targets],
        cwd=user, env=env, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert len(list((user / "results/mine/trials").glob("*.json"))) == 2 * len(study["methods"])
    summary = pd.read_csv(user / "results/mine/paper/tables/summary.csv")
    assert set(summary["label"]) == {m["label"] for m in study["methods"]} and set(summary["n"]) == {2}
    assert (user / "results/mine/paper/figures/progress_my_sphere_study.png").stat().st_size > 10_000
    # the comparisons the config declares, each decided (two seeds cannot decide anything: the rule says so)
    declared = pd.read_csv(user / "results/mine/paper/tables/declared.csv")
    assert declared[["a", "b", "relation"]].values.tolist() == [
        [entry["a"], entry["b"], entry.get("relation", "better")] for entry in study["compare"]]
    assert set(declared["verdict"]) == {"inconclusive (too few seeds to decide)"}
    declared_md = (user / "results/mine/paper/tables/declared.md").read_text()
    assert "Random-LCB matches or beats Random" in declared_md
    # the problem by its object's own name (the per-trial table carries it), never by its module reference
    assert "shifted-sphere: B3O-UCB-c vs Random" in declared_md and "my_problem:" not in declared_md
    assert not (ROOT / "results/mine").exists()  # nothing written into the checkout
    # it ends by naming what to read, and says first that 2 seeds cannot decide its comparisons
    assert done.stderr.strip().splitlines()[-1] == (
        "b3o study: done; read results/mine/paper/tables/declared.md, results/mine/paper/report.tex, "
        "results/mine/site/index.html"), done.stderr[-2000:]
    assert "b3o workflow: warning: experiment 'my_sphere_study' runs 2 seed(s), too few to decide" in done.stderr
    # the model a spec that names none gets at this size, written into every record
    assert {json.dumps(r["spec"]["model"]) for r in records(user)} == {'{"kind": "gpr"}'}
    # the study's own report: its comparisons first, its model said, no paper claims
    report = (user / "results/mine/paper/report.tex").read_text()
    assert "A study run with the B3O workflow: my.yaml" in report and "Your declared comparisons" in report
    assert report.index("Your declared comparisons") < report.index("Method as implemented")
    assert "Its surrogate is an exact GP (GPR)" in report
    assert "shifted-sphere" in report and "my\\_problem" not in report
    assert "claims" not in report.lower().replace("the paper's claims are", "")
    assert not (user / "results/mine/paper/claims.csv").exists()
    # and its own page: the declared comparisons where the paper's claims would be
    page = (user / "results/mine/site/paper/index.html").read_text()
    assert "A study run with the B3O workflow: my.yaml" in page and "<h2>Your comparisons</h2>" in page
    assert "Claims and verdicts" not in page and "Random-LCB matches or beats Random" in page
    assert "shifted-sphere" in page and "my_problem:" not in page
    index = (user / "results/mine/site/index.html").read_text()
    assert "your comparisons: 2 inconclusive (too few seeds to decide)" in index
    # issue 80: its pages are its own, with no paper wording and no placeholder for what a study does not make
    for text in (report, page):
        for paper_words in ("battery", "Formula E", "beyond the paper", "Further experiments", "not in this run"):
            assert paper_words not in text, paper_words
    assert "The study's experiments" in report
    iterations = pd.read_parquet(user / "results/mine/paper/tables/per_iteration.parquet")
    assert set(iterations["problem_name"]) == {"shifted-sphere"}  # its anytime figures' titles


def records(user: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in (user / "results/mine/trials").glob("*.json")]


def test_a_study_names_what_it_wrote_and_nothing_older(tmp_path, monkeypatch):
    from bench.study import outputs

    monkeypatch.chdir(tmp_path)
    config = {"results": "r", "paper": "r/paper"}
    for name in ("r/paper/tables/declared.md", "r/paper/report.tex", "r/site/index.html"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    os.utime(tmp_path / "r/site/index.html", (0, 0))  # left by an earlier run
    assert outputs(config, since=1.0) == ["r/paper/tables/declared.md", "r/paper/report.tex"]
    (tmp_path / "r/paper/report.pdf").write_text("")  # LaTeX made the PDF: that is what to read
    assert outputs(config, since=1.0) == ["r/paper/tables/declared.md", "r/paper/report.pdf"]
    assert outputs(config, since=time.time() + 60) == []  # a dry run writes nothing


def test_b3o_study_refuses_a_missing_config_in_one_line(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "bench.cli", "study", "--configfile", "nope.yaml", "--cores", "1"],
        cwd=tmp_path, env=os.environ | {"PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 2 and done.stderr.strip() == f"b3o study: error: no config file 'nope.yaml' in {tmp_path}"


def test_other_commands_still_refuse_unknown_arguments(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "bench.cli", "list", "--cores", "1"],
        cwd=tmp_path, env=os.environ | {"PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 2 and "unrecognized arguments: --cores 1" in done.stderr


def test_b3o_study_refuses_a_bad_config_one_line_per_error_before_snakemake(tmp_path):
    """Issue 69: `seeds: 0` and λ = −1 are two lines on stderr (field, value, what is allowed), exit 2, no schema."""
    for module in ("my_problem.py", "my_method.py"):
        (tmp_path / module).write_text((EXAMPLES / module).read_text())
    config = yaml.safe_load((EXAMPLES / "my.yaml").read_text())
    study = next(iter(config["experiments"].values()))
    study["seeds"] = 0
    study["methods"][0]["lam"] = -1
    (tmp_path / "my.yaml").write_text(yaml.safe_dump(config))
    done = subprocess.run(
        [sys.executable, "-m", "bench.cli", "study", "--configfile", "my.yaml", "--cores", "1", "-n"],
        cwd=tmp_path, env=os.environ | {"PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=120,
    )
    experiment = next(iter(config["experiments"]))
    assert done.returncode == 2 and done.stdout == "", done.stdout
    assert done.stderr.splitlines() == [
        f"b3o study: my.yaml: error: experiments.{experiment}.methods[0].lam: -1 not allowed "
        "(allowed: a number > 0, or a mapping of names to a number > 0, or 'table2')",
        f"b3o study: my.yaml: error: experiments.{experiment}.seeds: 0 not allowed "
        "(allowed: an integer ≥ 1, or a mapping with start, step, max (optional: first, until))",
    ]


def test_a_study_plans_none_of_the_paper_s_illustrations(tmp_path):
    """Issue 69: a config running none of the paper's experiments is a study of its own; the paper's illustrations
    (Theorem 1, the λ effect, the 1-D illustration: minutes of a small study) are not in its plan."""
    for module in ("my_problem.py", "my_method.py"):
        (tmp_path / module).write_text((EXAMPLES / module).read_text())
    (tmp_path / "my.yaml").write_text((EXAMPLES / "my.yaml").read_text())
    plan = subprocess.run(
        [sys.executable, "-m", "bench.cli", "study", "--configfile", "my.yaml", "--cores", "1", "-n"],
        cwd=tmp_path, env=os.environ | {"PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=600,
    )
    assert plan.returncode == 0, plan.stderr[-3000:]
    assert "progress_my_sphere_study" in plan.stdout and "rule report_tex" in plan.stdout
    assert "illustration" not in plan.stdout and "theorem1" not in plan.stdout


def test_the_small_study_s_time_in_the_docs_is_the_measured_table_s(monkeypatch):
    """docs/extending.md's block is what tools/measure_study.py writes from docs/tables/small_study.csv, whose whole
    study is within the issue's target (2 minutes on 2 cores, exact GPR: the default at that size)."""
    import csv
    import importlib.util

    monkeypatch.syspath_prepend(str(ROOT / "tools"))  # as `python tools/measure_study.py` finds its helper beside it
    import example_study

    spec = importlib.util.spec_from_file_location("measure_study", ROOT / "tools" / "measure_study.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rows = list(csv.DictReader(module.TABLE.open()))
    assert module.block(rows) in example_study.PAGE.read_text(), "run `python tools/measure_study.py --page-only`"
    whole = rows[0]
    assert whole["phase"] == "whole study (b3o study)" and whole["cores"] == "2" and whole["models"] == '{"kind": "gpr"}'
    assert float(whole["seconds"]) <= 120
