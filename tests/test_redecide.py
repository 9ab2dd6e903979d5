"""Re-deciding a published run (analysis.presentation.redecide) rewrites what the verdict rules feed, as the workflow
would."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import yaml

from analysis.presentation.redecide import table_commands

ROOT = Path(__file__).resolve().parents[1]


def _outputs(config: str) -> set[str]:
    loaded = yaml.safe_load((ROOT / "config" / config).read_text())
    return {command[-1] for command in table_commands(loaded, Path("work"))}


def test_a_republished_run_rewrites_the_tables_its_experiments_declare() -> None:
    # the horizon table decides claims 1 and 7 at t = 6, 12 and 25: a change of rules must reach it
    assert "paper/horizon/tables/horizon" in _outputs("horizon.yaml")
    assert "paper/horizon/tables/best_lambda" not in _outputs("horizon.yaml")  # its experiment is not run there
    assert {"paper/tables/summary", "paper/tables/best_lambda"} <= _outputs("config.yaml")
    assert not any(out.endswith("/horizon") for out in _outputs("config.yaml"))


def test_a_republished_run_rewrites_the_tables_with_rules_of_their_own_that_its_experiments_make() -> None:
    """The confirmation's readings and the automatic temperature's test follow from the re-decided tables: a run that
    makes them gets them rewritten (with the workflow's output paths), and no other run does."""
    from analysis.presentation.redecide import own_rule_commands

    def outputs(config: str) -> list[str]:
        loaded = yaml.safe_load((ROOT / "config" / config).read_text())
        return [command[command.index("--out") + 1] for command in own_rule_commands(loaded)]

    assert outputs("large_batch_confirm.yaml") == ["paper/large_batch_confirm/tables/confirmation.csv",
                                                   "paper/large_batch_confirm/figures/confirmation"]
    assert outputs("auto_temperature.yaml") == ["paper/auto_temperature/tables/automatic"]
    assert outputs("large_batch.yaml") == outputs("config.yaml") == []
    rules = (ROOT / "workflow" / "rules" / "analysis.smk").read_text()
    assert 'f"{PAPER}/tables/confirmation.csv"' in rules and 'csv=f"{PAPER}/tables/automatic.csv"' in rules
    assert 'png=f"{PAPER}/figures/confirmation.png"' in rules


def test_a_run_read_along_its_horizon_gets_its_horizon_table_and_figure_with_the_workflows_plan() -> None:
    """config/large_batch.yaml's `horizon`: the rule horizon_along's table, and its figure with --report, with the
    plan options the workflow passes (one owner: `bench.grid.horizon_arguments`)."""
    from analysis.presentation.redecide import _along_horizon
    from bench.grid import horizon_arguments

    config = yaml.safe_load((ROOT / "config" / "large_batch.yaml").read_text())
    assert "paper/large_batch/tables/horizon_along" in _outputs("large_batch.yaml")
    assert horizon_arguments(config) == ["--experiment", "synthetic_b100", "--checkpoints", "6,12,25,50",
                                         "--looks", "10,20,30", "--spending", "pocock"]
    (figure,) = _along_horizon(config, Path("work"), "figures")
    assert figure[:3] == ["python", "-m", "analysis.figures.horizon"]
    assert figure[figure.index("--out") + 1] == "paper/large_batch/figures/horizon_along"
    assert not _along_horizon(yaml.safe_load((ROOT / "config" / "config.yaml").read_text()), Path("work"), "figures")


def test_a_republished_run_keeps_to_the_seeds_its_looks_reach(monkeypatch) -> None:
    """Records beyond the looks (a trial another config shares, or one an older rule kept open) are left out: every
    setting gets its first look, and a later look's seeds go only to the settings still open at the look before."""
    from analysis.presentation import redecide

    config = {"experiments": {"e": {"seeds": {"first": 100, "start": 2, "step": 1, "max": 4}},
                              "fixed": {"seeds": 3}}}
    grid = pd.DataFrame(
        [{"experiment": "e", "label": label, "problem": "p", "seed": seed, "trial_id": f"{label}-{seed}"}
         for label in ("A", "B", "C") for seed in range(100, 104 if label != "C" else 106)]
        + [{"experiment": "fixed", "label": "A", "problem": "p", "seed": 0, "trial_id": "fixed-A-0"}]
    )
    asked = []

    def still_open(table, experiment, looks, look):
        asked.append((look, sorted(table["trial_id"])))
        return ([f"A-{s}" for s in range(100, 102 + look - 1)], 1, 1)  # A stays open; B and C were decided at look 1

    monkeypatch.setattr(redecide, "open_trials", still_open)
    kept = redecide.through_looks(config, grid, grid)
    assert "fixed-A-0" in set(kept["trial_id"])
    kept = kept[kept["experiment"] == "e"]
    assert sorted(kept.loc[kept["label"] == "A", "seed"]) == [100, 101, 102, 103]
    assert sorted(kept.loc[kept["label"] == "B", "seed"]) == [100, 101]
    assert sorted(kept.loc[kept["label"] == "C", "seed"]) == [100, 101]  # 102..105 reached by no look of its own
    # each look decides on what the looks before it reached, never on the records beyond
    assert asked[0] == (1, ["A-100", "A-101", "B-100", "B-101", "C-100", "C-101"])
    assert asked[1] == (2, ["A-100", "A-101", "A-102", "B-100", "B-101", "C-100", "C-101"])


def test_a_run_published_as_of_a_look_leaves_out_the_later_looks_even_where_a_setting_has_them_whole(
        monkeypatch) -> None:
    """`--through-look 1` while look 2 runs: a setting that already has all of look 2 shows look 1 only, like the
    settings still running it, so the page pairs every setting on the same seeds."""
    from analysis.presentation import redecide

    config = {"experiments": {"e": {"seeds": {"first": 100, "start": 2, "step": 2, "max": 4}}}}
    have = {"A": range(100, 104), "B": range(100, 103)}  # A has looks 1 and 2 whole; B has part of look 2
    grid = pd.DataFrame([{"experiment": "e", "label": label, "problem": "p", "seed": seed, "trial_id": f"{label}-{seed}"}
                         for label, seeds in have.items() for seed in seeds])
    monkeypatch.setattr(redecide, "open_trials", lambda table, *_: (list(table["trial_id"]), 1, 1))
    assert sorted(redecide.through_looks(config, grid, grid)["trial_id"]) == [
        "A-100", "A-101", "A-102", "A-103", "B-100", "B-101"]
    kept = redecide.through_looks(config, grid, grid, last=1)
    assert sorted(kept["trial_id"]) == ["A-100", "A-101", "B-100", "B-101"]


def test_a_look_counted_from_zero_is_refused_before_any_record_is_read(tmp_path, capsys) -> None:
    from analysis.presentation import redecide

    try:
        redecide.main(["--configfile", str(ROOT / "config" / "large_batch_confirm.yaml"), "--records",
                       str(tmp_path / "absent"), "--work", str(tmp_path / "work"), "--through-look", "0"])
    except SystemExit as stop:
        assert stop.code == 2
    else:
        raise AssertionError("--through-look 0 was accepted")
    assert "--through-look counts looks from 1" in capsys.readouterr().err
    assert not (tmp_path / "work").exists()


def test_a_look_a_setting_has_only_part_of_is_left_out_and_named(monkeypatch, capsys) -> None:
    """A republication while a look runs shows none of it: a setting's records of a look enter only when the look's
    every seed has one, so no summary shows part of a look or pairs settings on unequal seeds."""
    from analysis.presentation import redecide

    config = {"experiments": {"e": {"seeds": {"first": 100, "start": 2, "step": 2, "max": 6}}}}
    have = {"A": range(100, 105), "B": range(100, 103), "C": range(100, 101)}  # looks: 100-101, 102-103, 104-105
    grid = pd.DataFrame([{"experiment": "e", "label": label, "problem": "p", "seed": seed, "trial_id": f"{label}-{seed}"}
                         for label, seeds in have.items() for seed in seeds])
    asked = []

    def all_open(table, experiment, looks, look):
        asked.append((look, sorted(table["trial_id"])))
        return (list(table["trial_id"]), 1, 1)

    monkeypatch.setattr(redecide, "open_trials", all_open)
    kept = redecide.through_looks(config, grid, grid)
    assert sorted(kept.loc[kept["label"] == "A", "seed"]) == [100, 101, 102, 103]  # 104 alone of look 3
    assert sorted(kept.loc[kept["label"] == "B", "seed"]) == [100, 101]  # 102 alone of look 2
    assert "C" not in set(kept["label"])  # 100 alone of look 1
    assert asked[0] == (1, ["A-100", "A-101", "B-100", "B-101"])  # look 2 opens on look 1's whole settings only
    said = capsys.readouterr().out
    assert "e, look 1: left out, as only part of the look has records: C on p (1 of 2)" in said
    assert "e, look 2: left out, as only part of the look has records: B on p (1 of 2)" in said
    assert "e, look 3: left out, as only part of the look has records: A on p (1 of 2)" in said


def test_a_republished_run_draws_the_workflows_figures_a_progress_figure_for_an_undeclared_experiment() -> None:
    """One owner for the figure list (`analysis.figures.run_figures`): the workflow's FIGURES and a republication's
    report both take it, so a run's progress figures are redrawn when it is republished."""
    from analysis.figures import declared, run_figures

    figures = run_figures(["auto_formula_e", "synthetic_b100"])
    assert figures["progress_auto_formula_e"].command == "regret --experiment auto_formula_e"
    assert "progress_synthetic_b100" not in figures  # its declared figures draw it
    assert set(declared()) < set(figures)
    # (that the Snakefile plans them from it: tests/test_workflow_looks.py's plan of an experiment of a user's own)


def test_a_republished_runs_tidy_tables_are_the_workflows_of_the_grid_it_keeps(tmp_path, monkeypatch) -> None:
    """`write_tidy` reads each record once, chooses the trials the looks reach and writes the tidy and Pareto tables of
    that grid: the same tables as the workflow's `tidy` step (`analysis.data.tidy`) writes from the grid it keeps."""
    from analysis.data import tidy
    from analysis.presentation import redecide
    from bench.grid import GridRow
    from bench.spec import TrialSpec

    rows = []
    for name, label in (("random", "Random"), ("ts", "TS"), ("battery-nsga2", "NSGA-II")):
        path = ROOT / "tests/data/regression" / f"{name}.json"
        spec = TrialSpec.from_dict(json.loads(path.read_text())["spec"])
        rows.append({**GridRow("e", label, spec).as_row(), "record": str(path)})
    config = {"experiments": {"e": {"seeds": {"start": 1, "step": 1, "max": 2}}}}  # sequential: the looks choose
    monkeypatch.setattr(redecide, "through_looks", lambda config, grid, table, last: grid[grid["label"] != "TS"])
    kept = redecide.write_tidy(config, pd.DataFrame(rows), tmp_path)
    assert list(kept["label"]) == ["Random", "NSGA-II"]
    assert tidy.main(["--grid", str(tmp_path / "grid.csv"), "--out", str(tmp_path / "again.parquet"),
                      "--pareto", str(tmp_path / "again-pareto.parquet")]) == 0
    written = pd.read_parquet(tmp_path / "tidy.parquet")
    assert set(written["label"]) == {"Random", "NSGA-II"} and len(written) > 0
    pd.testing.assert_frame_equal(written, pd.read_parquet(tmp_path / "again.parquet"))
    pareto = pd.read_parquet(tmp_path / "pareto.parquet")
    assert len(pareto) > 0
    pd.testing.assert_frame_equal(pareto, pd.read_parquet(tmp_path / "again-pareto.parquet"))


def test_a_republished_run_redraws_every_anytime_view_the_site_shows(tmp_path, monkeypatch) -> None:
    """The site shows every anytime view, the report some: republishing once redrew only the report's, and
    paper/large_batch's runtime ECDF kept showing the two problems of an older table. Every view is redrawn (the
    commands recorded here, none run)."""
    import subprocess

    from analysis.figures import ANYTIME_VIEWS
    from analysis.presentation import redecide

    pd.DataFrame({"experiment": ["synthetic_b100"], "temperature": ["constant"]}).to_csv(tmp_path / "grid.csv")
    commands: list[list[str]] = []
    monkeypatch.setattr(redecide.subprocess, "run", lambda command, **_: commands.append(command)
                        or subprocess.CompletedProcess(command, 0))
    monkeypatch.setattr(redecide.shutil, "which", lambda _: None)  # no LaTeX run
    config = {"paper": str(tmp_path / "paper")}
    assert redecide.report(config, "c.yaml", tmp_path, None) == 0
    drawn = {Path(c[c.index("--out") + 1]).name for c in commands if c[2] == "analysis.figures.anytime"}
    assert drawn == {f"anytime_{view}" for view in ANYTIME_VIEWS}
