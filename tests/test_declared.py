"""Comparisons a study declares in its config (`compare:`): refused in one line when they name what the experiment
lacks, decided by the claims' engine as the paper's claims are (`analysis.claims.declared`)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import yaml

from analysis.claims import checking, declared
from analysis.claims.catalogue import CATALOGUE
from analysis.data import per_trial
from analysis.statistics import verdicts
from bench import config_check

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "paper/tables/per_trial.csv"


def _experiments(*entries: dict) -> dict:
    config = yaml.safe_load((ROOT / "config/config.yaml").read_text())
    experiment = config["experiments"]["synthetic_b100"]
    return {"synthetic_b100": {**experiment, "compare": list(entries)}}


def test_a_declared_comparison_is_decided_as_the_catalogue_decides_the_same_pairs():
    """"Every batch method beats Random" (claim 2) declared as TS vs Random and B3O-UCB-c vs Random: one Holm family
    of those pairs on every problem. Decided here, each comparison has the p and verdict the engine gives the same
    pairs as a family of their own; the catalogue's claim 2 (a larger family) agrees wherever it decided them."""
    table = per_trial.load(DEFAULT)
    entries = ({"a": "TS", "b": "Random"}, {"a": "B3O-UCB-c", "b": "Random"})
    decided = declared.decide(table, _experiments(*entries))
    assert [(v.entry.a, v.entry.b) for v in decided] == [(e["a"], e["b"]) for e in entries]
    problems = set(table.loc[table["experiment"] == "synthetic_b100", "problem"])
    for v in decided:
        assert {c.unit[0] for c in v.compared} == problems
        assert v.verdict == verdicts.combine([c.stat.verdict for c in v.compared], len(problems))
        assert v.verdict == verdicts.HOLDS, v.measured  # the committed default run shows both ahead of Random
    claim_2 = next(c for c in CATALOGUE if c.name == "batch_beats_random_b100")
    catalogue = {(c.unit[0], c.stat.left, c.stat.right): c.stat for c in checking.compared(claim_2, table).compared}
    for v in decided:
        for c in v.compared:
            theirs = catalogue[(c.unit[0], c.stat.left, c.stat.right)]
            assert c.stat.p == theirs.p and c.stat.n == theirs.n  # the same paired test; Holm's family differs
    frame = declared.frame(decided)
    assert frame["comparison"].tolist() == ["TS ends better than Random", "B3O-UCB-c ends better than Random"]
    assert (frame["verdict"] == verdicts.HOLDS).all() and frame["seeds_needed"].isna().all()


def test_more_declared_comparisons_make_each_harder_to_show():
    """Holm over the entries of one experiment, relation and problem list: a comparison's adjusted p never falls when more are
    declared beside it."""
    table = per_trial.load(DEFAULT)
    alone = declared.decide(table, _experiments({"a": "TS", "b": "Random"}))[0]
    beside = declared.decide(table, _experiments({"a": "TS", "b": "Random"}, {"a": "B3O-LogEI-s", "b": "TS"}))[0]
    for a, b in zip(alone.compared, beside.compared):
        assert b.stat.p_holm >= a.stat.p_holm


def test_a_comparison_whose_experiment_did_not_run_is_not_measured():
    table = per_trial.load(DEFAULT)
    experiments = {"elsewhere": {"problems": ["ackley5"], "compare": [{"a": "TS", "b": "Random"}]}}
    (v,) = declared.decide(table, experiments)
    assert v.verdict == verdicts.NOT_MEASURED


def test_a_declared_comparison_naming_what_its_experiment_lacks_is_one_line_each(monkeypatch):
    """Every error at once (issue 80), each with the closest allowed spelling; a problem may be named as listed or by
    its object's name."""
    monkeypatch.chdir(ROOT / "examples")  # the study's directory: its problem's module is there
    config = yaml.safe_load((ROOT / "examples/my.yaml").read_text())
    study = config["experiments"]["my_sphere_study"]
    study["compare"] = [{"a": "B3O-UCB-c", "b": "MaxVar"}, {"a": "Random", "b": "Random"},
                        {"a": "Random", "b": "Random-LCB", "problems": ["hartmann6"]},
                        {"a": "Random", "b": "Random-LCB", "relation": "beats"}]
    assert config_check.errors(config) == [
        "experiments.my_sphere_study.compare[3].relation: 'beats' not allowed (allowed: one of better, "
        "matches_or_beats, similar)",
        "experiments.my_sphere_study.compare[0].b: 'MaxVar' not allowed (allowed: one of this experiment's labels, "
        "B3O-UCB-c, Random-LCB, Random)",
        "experiments.my_sphere_study.compare[1]: a and b are both 'Random' (allowed: two different labels)",
        "experiments.my_sphere_study.compare[2].problems: 'hartmann6' not allowed (allowed: one of this experiment's "
        "problems, my_problem:shifted_sphere, shifted-sphere)",
    ]


def test_the_declared_table_and_its_page_are_written(tmp_path):
    from analysis.tables import declared_comparisons as declared_table

    config = tmp_path / "c.yaml"
    config.write_text(yaml.safe_dump({"experiments": _experiments({"a": "TS", "b": "Random", "relation": "similar"})}))
    assert declared_table.main(["--table", str(DEFAULT), "--config", str(config), "--out", str(tmp_path / "declared")]) == 0
    table = pd.read_csv(tmp_path / "declared.csv")
    assert table["comparison"].tolist() == ["TS and Random end alike"]
    page = (tmp_path / "declared.md").read_text()
    assert "# Your declared comparisons" in page and verdicts.RELATIONS["similar"] in page


def test_a_comparison_may_name_a_problem_by_its_object_s_name():
    """Issue 80: `compare: problems:` takes the name the tables and figures show (a user's problem's object's name)
    as well as the reference the experiment lists; both decide the same pairs."""
    table = per_trial.load(DEFAULT)
    table["problem_name"] = table["problem"].map({"ackley5": "my-ackley"}).fillna("")
    by_name, as_listed = (declared.decide(table, _experiments({"a": "TS", "b": "Random", "problems": [p]}))[0]
                          for p in ("my-ackley", "ackley5"))
    assert {c.unit[0] for c in by_name.compared} == {"ackley5"}
    assert (by_name.verdict, by_name.measured) == (as_listed.verdict, as_listed.measured)
