"""Re-decide a published run from the records it has, without running a trial: after a change of the verdict rules.

A sequential run's looks chose which settings got more seeds under the rules of their day; under new rules a look may
keep open a comparison that was closed then, whose later seeds were never run. Continuing the design would run them;
re-deciding does not: every comparison is decided through the whole plan's looks on the seeds it has (a comparison
still open at a look whose seeds it lacks keeps its last look's statistics, as stopping early without a decision
spends no error rate). This writes the grid of the trials that exist and that the looks reach under today's rules
(`through_looks`; those the config runs, up to each plan's `until`, each look whole or not at all), the tidy, per-trial and per-iteration tables,
the claims tables, the tables the run's experiments declare (`analysis.tables.declared`: e.g. the horizon table, whose
verdicts follow the same rules), the tables with rules of their own that follow from these (`own_rule_commands`: the
confirmation's readings, the automatic temperature's test) and, for a config read along its horizon (`horizon`), that
table, as the workflow's rules would:

    python -m analysis.presentation.redecide --configfile config/extended.yaml --records DIR/trials --work DIR

and with --report the figures' PDFs (which git does not keep), every anytime view (the report shows some, the site
all), the report's source and, where latexmk is installed, its PDF; `python -m analysis.presentation.readme
--published` then rewrites the README and docs/ from the committed tables.
"""

from __future__ import annotations

import argparse
import io
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import yaml

from analysis.data import per_iteration, per_trial, tidy
from analysis.claims.looks import open_trials
from analysis.tables import claims_table
from bench.grid import horizon_arguments, seed_numbers, sequential_experiments, trial_grid


def existing_grid(config: dict, records: Path) -> tuple[pd.DataFrame, int]:
    """The grid rows of the config's trials whose records exist in `records` (seeds up to each plan's `until`), and
    how many of the config's trials have none."""
    rows, absent = [], 0
    for row in trial_grid(config):
        seeds = seed_numbers(config["experiments"][row.experiment]["seeds"])
        if row.spec.seed not in seeds:
            continue
        path = records / f"{row.spec.trial_id}.json"
        if path.is_file():
            rows.append({**row.as_row(), "record": str(path)})
        else:
            absent += 1
    return pd.DataFrame(rows), absent


def through_looks(config: dict, grid: pd.DataFrame, table: pd.DataFrame, last: int | None = None) -> pd.DataFrame:
    """The rows of `grid` that the workflow's looks (up to look `last`, when given) run under today's rules: of a
    sequential experiment, every
    setting's (label and problem's) first look, then each later look's seeds only for the settings of comparisons
    still open at the look before (`analysis.claims.looks.open_trials` on `table`, the per-trial table of `grid`),
    as far as their records go, each setting's look whole or not at all. Records the looks do not reach (a trial
    shared with another config's run, or run because an older rule kept its comparison open) are left out: they would
    change the run's summaries and figures, never its verdicts, and would leave its settings unequally seeded. So are
    a setting's records of a look it has only part of (a look still running): no summary shows part of a look."""
    keep = [grid[~grid["experiment"].isin(sequential_experiments(config))]]
    for experiment, looks in sequential_experiments(config).items():
        seeds = list(seed_numbers(config["experiments"][experiment]["seeds"]))
        rows = grid[grid["experiment"] == experiment]
        setting = pd.Series(list(zip(rows["label"], rows["problem"])), index=rows.index)
        chosen = _whole_look(rows["seed"].isin(seeds[: looks[0]]), setting, looks[0], experiment, 1)
        for k in range(1, len(looks) if last is None else min(len(looks), last)):
            later = rows["seed"].isin(seeds[looks[k - 1] : looks[k]])
            if not later.any():
                break
            still_open, _, _ = open_trials(table[table["trial_id"].isin(rows.loc[chosen, "trial_id"])], experiment,
                                           looks, k)
            reached = later & setting.isin(set(setting[rows["trial_id"].isin(still_open)]))
            chosen |= _whole_look(reached, setting, looks[k] - looks[k - 1], experiment, k + 1)
        keep.append(rows[chosen])
    return pd.concat(keep).sort_index()


def _whole_look(rows: pd.Series, setting: pd.Series, size: int, experiment: str, look: int) -> pd.Series:
    """`rows` (one look's, a mask) less the settings that have fewer than the look's `size` seeds of it, named."""
    counts = setting[rows].value_counts()
    short = counts[counts < size]
    if len(short):
        parts = ", ".join(f"{label} on {problem} ({n} of {size})" for (label, problem), n in sorted(short.items()))
        print(f"{experiment}, look {look}: left out, as only part of the look has records: {parts}")
    return rows & ~setting.isin(set(short.index))


def write_tidy(config: dict, grid: pd.DataFrame, work: Path, last: int | None = None) -> pd.DataFrame:
    """Write to `work` the grid of the trials the looks reach (`through_looks`, up to look `last` when given) and its
    tidy and Pareto tables, as the workflow's rule `tidy` would from that grid, reading each record once; returns that
    grid."""
    grid = grid.reset_index(drop=True)
    frame = tidy.read_grid(io.StringIO(grid.to_csv(index=False)))  # the dtypes the workflow's rule reads from its CSV
    records = tidy.load_records(frame, Path("."))
    table = tidy.tidy_table(frame, records)
    if sequential_experiments(config):
        reached = through_looks(config, grid, per_trial.per_trial(table), last)
        print(f"{len(grid) - len(reached)} record(s) of trials the looks do not reach are left out")
        grid, frame = reached, frame.loc[reached.index]
        kept = pd.MultiIndex.from_frame(frame[["experiment", "trial_id"]])
        table = table[pd.MultiIndex.from_frame(table[["experiment", "trial_id"]]).isin(kept)].reset_index(drop=True)
    grid.to_csv(work / "grid.csv", index=False)
    tidy.write_parquet(table, work / "tidy.parquet")
    tidy.write_parquet(tidy.pareto_table(frame, records), work / "pareto.parquet")
    return grid


def looks_arguments(config: dict) -> list[str]:
    """The claims table's --looks: every sequential experiment's whole plan."""
    return [f"{e}={','.join(map(str, n))}" for e, n in sequential_experiments(config).items()]


#: illustrations drawn from the method itself (the workflow's ILLUSTRATIONS), with their scripts
ILLUSTRATIONS = {"illustration_1d": "illustration_1d", "lambda_effect": "lambda_effect", "theorem1": "theorem1"}


def _runs(grid: pd.DataFrame, experiment: str, when: dict) -> bool:
    """Whether some trial of `experiment` has the grid values `when` (a figure's condition, as the workflow's)."""
    rows = grid[grid["experiment"] == experiment]
    values = rows.assign(temperature=rows["temperature"].fillna("constant"))
    return bool(len(rows)) and bool(((values[list(when)] == pd.Series(when)).all(axis=1)).any() if when else True)


def table_commands(config: dict, work: Path) -> list[list[str]]:
    """The workflow's rule `table` for every table declared for the run's experiments (or for any run), from the
    re-decided tidy table."""
    from analysis.tables import declared

    paper = Path(config["paper"])
    return [
        ["python", "-m", f"analysis.tables.{table.script}", "--table", str(work / "tidy.parquet"),
         "--out", str(paper / "tables" / name)]
        for name, table in declared().items() if table.experiment in (None, *config["experiments"])
    ] + _along_horizon(config, work, "tables")


def own_rule_commands(config: dict) -> list[list[str]]:
    """The workflow's tables with rules of their own that derive from the tables written above, for a config whose
    experiments make them: the fresh-seed confirmation's readings and their figure (rules `confirmation` and
    `confirmation_figure`) and the automatic temperature's test (rule `automatic`). Left unwritten, a republished
    run would show these from the rules of an older day."""
    from analysis.statistics.confirmation import plan_for
    from analysis.tables import automatic

    tables = Path(config["paper"]) / "tables"
    commands = []
    if any(plan_for(e) is not None for e in config["experiments"]):
        commands.append(["python", "-m", "analysis.statistics.confirmation", "--table", str(tables / "per_trial.csv"),
                         "--out", str(tables / "confirmation.csv")])
        commands.append(["python", "-m", "analysis.figures.confirmation", "--table", str(tables / "confirmation.csv"),
                         "--out", str(tables.parent / "figures" / "confirmation")])
    if set(automatic.EXPERIMENTS) & set(config["experiments"]):
        commands.append(["python", "-m", "analysis.tables.automatic", "--comparisons", str(tables / "comparisons.csv"),
                         "--density", str(tables / "density.csv"), "--out", str(tables / "automatic")])
    return commands


def _along_horizon(config: dict, work: Path, kind: str) -> list[list[str]]:
    """The rule `horizon_along`'s table or figure, for a config read along its horizon (its `horizon`)."""
    plan = horizon_arguments(config)
    out = Path(config["paper"]) / kind / "horizon_along"
    return [["python", "-m", f"analysis.{kind}.horizon", "--table", str(work / "tidy.parquet"), *plan,
             "--out", str(out)]] if plan else []


def report(config: dict, configfile: str, work: Path, scaling: str | None) -> int:
    """Every figure of the run's experiments (`analysis.figures.run_figures`), the illustrations, the anytime views
    and the timing figure, then the report."""
    from analysis.figures import ANYTIME_VIEWS, run_figures

    paper = Path(config["paper"])
    grid = pd.read_csv(work / "grid.csv")
    commands = [
        ["python", "-m", f"analysis.figures.{figure.script}", *figure.args.split(), "--table", str(work / "tidy.parquet"),
         "--pareto", str(work / "pareto.parquet"), "--out", str(paper / "figures" / name)]
        for name, figure in run_figures(grid["experiment"].unique()).items()
        if _runs(grid, figure.experiment, figure.when)
    ]
    commands += _along_horizon(config, work, "figures")
    commands += [["python", "-m", f"analysis.figures.{m}", "--seed", "0", "--out", str(paper / "figures" / n)]
                 for n, m in ILLUSTRATIONS.items()]
    commands += [["python", "-m", "analysis.figures.anytime", *ANYTIME_VIEWS[view].split(), "--table",
                  str(paper / "tables" / per_iteration.NAME), "--out", str(paper / "figures" / f"anytime_{view}")]
                 for view in ANYTIME_VIEWS]  # the site shows every one: none left as an older table drew it
    if scaling:
        commands.append(["python", "-m", "analysis.figures.timing", "--table", scaling,
                         "--out", str(paper / "figures" / "timing")])
    commands.append(["python", "-m", "analysis.report", "--paper", str(paper), "--config", configfile,
                     *(["--scaling", scaling] if scaling else [])])
    for command in commands:
        if subprocess.run(command, check=False, stdout=subprocess.DEVNULL).returncode != 0:
            print(f"error: {' '.join(command)} failed", file=sys.stderr)
            return 2
    if shutil.which("latexmk"):
        done = subprocess.run(["latexmk", "-pdf", "-interaction=nonstopmode", "-halt-on-error", "report.tex"],
                              check=False, cwd=paper, stdout=subprocess.DEVNULL)
        return 0 if done.returncode == 0 else 2
    return 0


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m analysis.presentation.redecide", description=__doc__.splitlines()[0])
    cli.add_argument("--configfile", required=True, help="the published run's config")
    cli.add_argument("--records", required=True, help="directory of its trial records (b3o restore)")
    cli.add_argument("--work", required=True, help="directory for the grid and the tidy tables")
    cli.add_argument("--report", action="store_true", help="also redraw the figures and rebuild the report")
    cli.add_argument("--scaling", help="the run's batch-timing table, for its timing figure and cost section")
    cli.add_argument("--through-look", type=int, metavar="K",
                     help="publish the run as of its K-th look: the later looks' records are left out even where a "
                          "setting has them whole (a look published while the next one runs)")
    args = cli.parse_args(argv)
    if args.through_look is not None and args.through_look < 1:
        cli.error("--through-look counts looks from 1")
    config = yaml.safe_load(Path(args.configfile).read_text())
    work, paper = Path(args.work), Path(config["paper"])
    grid, absent = existing_grid(config, Path(args.records))
    if grid.empty:
        print(f"error: no record of {args.configfile}'s trials in {args.records}", file=sys.stderr)
        return 2
    work.mkdir(parents=True, exist_ok=True)
    try:
        grid = write_tidy(config, grid, work, args.through_look)
    except (OSError, ValueError) as err:  # unreadable or incomplete records: named, no traceback
        print(f"error: {err}", file=sys.stderr)
        return 2
    steps = [
        (per_trial.main, ["--table", str(work / "tidy.parquet"), "--out", str(paper / "tables/per_trial.csv")]),
        (per_iteration.main, ["--table", str(work / "tidy.parquet"),
                              "--out", str(paper / "tables" / per_iteration.NAME)]),
        (claims_table.main, ["--table", str(paper / "tables/per_trial.csv"), "--out", str(paper / "claims"),
                             "--comparisons", str(paper / "tables/comparisons.csv"),
                             "--looks", *looks_arguments(config)]),
    ]
    for step, arguments in steps:
        if step(arguments) != 0:
            return 2
    for command in table_commands(config, work) + own_rule_commands(config):
        if subprocess.run(command, check=False, stdout=subprocess.DEVNULL).returncode != 0:
            print(f"error: {' '.join(command)} failed", file=sys.stderr)
            return 2
    print(f"{args.configfile}: re-decided on {len(grid)} grid rows; {absent} of its trials have no record (not run)")
    return report(config, args.configfile, work, args.scaling) if args.report else 0


if __name__ == "__main__":
    raise SystemExit(main())
