"""Shared state: the trial grid built from the validated config, and the list of final outputs."""

import functools
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import yaml

from analysis.presentation.captions import caption  # plain text; TensorFlow-free (analysis.naming)
from analysis.data import published as published_runs  # paths only, imports nothing
from analysis.presentation.run_names import STUDY_TITLE  # a study's report and page title
from analysis.statistics.sequential import HORIZON as HORIZON_PLAN  # the horizon run's plan: its experiment
# reads the figure scripts' declarations without importing them
from analysis.figures import ANYTIME_REPORTED, ANYTIME_VIEWS, paper_experiments, run_figures
from analysis.tables import declared as declared_tables
from bench.grid import horizon_arguments, look_blocks, look_plan as grid_look_plan, looks_run, seed_numbers, sequential_experiments, setting, settings_to_check, trial_grid, trial_jobs  # TensorFlow-free: every job re-parses this file, so the DAG build stays cheap
from bench.cost import CostModel  # TensorFlow-free too
from bench.estimate import DEFAULT_LIMIT_MIN, cost_model_path, memory_mb, slots
from bench.scaling import ScalingSpec  # TensorFlow-free too
from bench.records import FAILED, finished_copy, set_aside
from harness.plugin_code import code_hash, references
from analysis.site.build import (  # the results site's names (workflow/rules/site.smk)
    PER_ITERATION,
    PER_TRIAL,
    PER_TRIAL_PARQUET,
    SCORE_AGGREGATE,
    SCORE_FIGURE,
    SCORES,
    VERDICTS_ALONG,
    page_path,
)

ENV = "../envs/b3o.yaml"  # used with --use-conda only
CAPTION = "../report/figure.rst"  # a figure's caption in Snakemake's HTML report: its rule's `caption` parameter
RESULTS = config["results"]
#: the published run's directory (committed: paper/...) the config names, and where this run writes its figures,
#: tables and report: there only when publishing is asked for (`publish: true`), else under the results directory, so
#: that a run leaves the checkout's tracked files as they are (a `paper` inside `results` is used as it is)
PUBLISHED = config["paper"]
PUBLISH = config.get("publish", False)
PAPER = PUBLISHED if PUBLISH or Path(RESULTS) in Path(PUBLISHED).parents else f"{RESULTS}/{PUBLISHED}"
#: this run's verdicts and numbers against the published ones, when they exist (printed as the run's last lines)
COMPARED = f"{RESULTS}/against_published.md"
COMPARE = PAPER != PUBLISHED and Path(PUBLISHED, "claims.csv").is_file() and Path(PUBLISHED, "tables", PER_TRIAL).is_file()
REFUSED = f"b3o workflow: {CONFIGFILE}"  # a config error's prefix (bench.config_check)
with config_check.refusing(REFUSED):
    GRID = trial_grid(config)
SPECS = {row.spec.trial_id: row.spec for row in GRID}


def record_path(trial_id):
    return f"{RESULTS}/trials/{trial_id}.json"


def _drop_stale_plugin_records():
    """Move aside (to `trials/.stale/`) the finished records of trials whose plugin code (a `module:factory`
    reference's files, `harness.plugin_code`) changed since they ran, so that they run again (their checkpoints too:
    `bench.runner`), and say so in one line per plugin: a study never mixes results of old and new code, and loses
    none. A dry run only says so. Built-in problems and methods have no stamp; their records are reused by spec (the
    package's archive keeps its rule, docs/reproducibility.md)."""
    dry = workflow.output_settings.dryrun
    hashes = functools.cache(code_hash)
    changed = {}
    for trial_id, spec in SPECS.items():
        plugins = references({"problem": spec.problem, "method": spec.method})  # cheap: no asdict per spec
        path = Path(record_path(trial_id))
        if plugins and not path.exists():  # a failed job's finished record lives on in its copy (`finished_copy`)
            path = finished_copy(path) if finished_copy(path).exists() else path
        if not plugins or not path.exists():
            continue
        try:
            recorded = json.loads(path.read_bytes())["provenance"].get("plugin_code") or {}
        except (ValueError, KeyError, TypeError, AttributeError):
            continue  # an unusable record: the runner moves it aside and runs the trial
        old = [reference for reference in plugins if recorded.get(reference) != hashes(reference)]
        for reference in old:
            changed.setdefault(reference, []).append(trial_id)
        if old and not dry:
            set_aside(Path(record_path(trial_id)), recorded)
    for reference, trial_ids in changed.items():
        print(f"b3o workflow: {reference} changed since {len(trial_ids)} of its finished trial(s) ran: they "
              + ("would run again (a dry run keeps them)" if dry else
                 f"run again (their records kept in {Path(RESULTS, 'trials', '.stale')})"), file=sys.stderr)


def _check_specs():
    """Validate each distinct trial setting without a record yet (`bench.grid.settings_to_check`), so that bad
    names fail now, before any job runs.

    Validation builds problems and methods, which imports TensorFlow (seconds): it runs in a subprocess, and only in the
    main Snakemake process, not again in each job's (a cluster job re-parses the workflow).
    """
    settings = settings_to_check(SPECS, lambda trial_id: os.path.exists(record_path(trial_id)))
    if not settings:
        return
    check = subprocess.run(
        [sys.executable, "-m", "bench.cli", "check-specs"],
        input=json.dumps(settings, default=str),
        capture_output=True,
        text=True,
    )
    if check.returncode != 0:  # its error lines, each (a crash: its last line)
        prefix = "b3o check-specs: error: "
        lines = check.stderr.strip().splitlines() or ["b3o check-specs failed"]
        errors = [line.removeprefix(prefix) for line in lines if line.startswith(prefix)] or lines[-1:]
        config_check.refuse(errors, REFUSED)


def _check_plans():
    """Refuse a planned look at which no claim can decide anything (`analysis.claims.plans`), before any job; the claims
    that cannot decide at some look are counted in one line (`b3o check-plans` names them). The claims engine imports
    pandas and SciPy, so only the main process checks."""
    from analysis.claims.plans import check, undecidable, undecidable_warning

    notes = check(config)
    if warning := undecidable_warning(undecidable(config)):
        print(f"b3o workflow: warning: {warning}", file=sys.stderr)
    if notes:
        print(f"b3o workflow: {len(notes)} note(s) on claims too few seeds leave undecidable at a look; "
              f"`b3o check-plans --configfile {CONFIGFILE}` lists them", file=sys.stderr)


if workflow.is_main_process:
    # a new run tries again the trials that failed on an error in an earlier one (`bench.records.failure_note`)
    shutil.rmtree(Path(RESULTS, "trials", FAILED), ignore_errors=True)
    _drop_stale_plugin_records()
    with config_check.refusing(REFUSED):
        _check_plans()
    _check_specs()


wildcard_constraints:
    trial_id="[0-9a-f]{16}",


#: a user's own study: a config that runs none of the paper's experiments (its report and outputs are its own)
STUDY = not ({row.experiment for row in GRID} & paper_experiments())
#: trials per job when the config names none: a study's trials are small, so several share one process's start-up
#: (importing TensorFlow, gpflow and trieste); the paper's runs keep one trial per job
STUDY_TRIALS_PER_JOB = 6
#: a study's own results page (made by the site rules' study_site), under its results
STUDY_SITE = f"{RESULTS}/site/index.html"
#: the config declares comparisons of its own (`compare:` of an experiment, analysis/claims/declared.py)
DECLARED = any(experiment.get("compare") for experiment in config["experiments"].values())

with config_check.refusing(REFUSED):
    TRIAL_JOBS = trial_jobs(SPECS, config.get("trials_per_job", STUDY_TRIALS_PER_JOB if STUDY else 1),
                            look_blocks(config, GRID))  # no job spans two looks
COST_MODEL = cost_model_path(config)  # the study's pilot's, else the package's (found from the package, not here)
COST = CostModel.read(COST_MODEL) if COST_MODEL.is_file() else None


def trials_param(trial_ids):
    """A job's trials for `b3o run-trials --trials`: each spec with its record path, as compact JSON."""
    return json.dumps([{"spec": SPECS[t].to_dict(), "out": record_path(t)} for t in trial_ids], separators=(",", ":"))


SLOT_MIN = config.get("slot_minutes", DEFAULT_LIMIT_MIN)


@functools.cache
def trial_slots(trial_ids):
    """(runtime, retries) of a trial job: the cost model's prediction for its trials (`bench.cost`, fitted to the
    published run: the package's paper/tables/cost_model.csv, or a study's pilot's, `bench.estimate.cost_model_path`;
    DEFAULT_LIMIT_MIN for each trial it cannot predict) in slots of at
    most the config's `slot_minutes` (`bench.estimate.slots`): a job that runs out of time is resubmitted and its
    trials resume from their checkpoints."""
    predicted = [COST.predict(SPECS[t].to_dict()) if COST else None for t in trial_ids]
    return slots(sum(c.total / 60 if c else DEFAULT_LIMIT_MIN for c in predicted), SLOT_MIN)


def trial_resources(trial_ids):
    """A trial job's resources: the memory its largest trial needs (`bench.estimate.memory_mb`) and its slot's runtime
    (`trial_slots`); the config's `trial_resources` go on top (e.g. {gpu: 1}; a `runtime` there is per trial and
    replaces the prediction)."""
    specs = [SPECS[t].to_dict() for t in trial_ids]
    memory = max(memory_mb(spec, COST.uses_model(spec) if COST else True) for spec in specs)
    resources = {"mem_mb": memory, **config.get("trial_resources", {})}
    if "runtime" in resources:
        return {**resources, "runtime": resources["runtime"] * len(trial_ids)}
    return {**resources, "runtime": trial_slots(tuple(trial_ids))[0]}


# experiment -> its planned looks, for the experiments whose seeds come in looks (`seeds: {start, step, max}`), and
# how many of them this config runs (`until` stops a plan early; the boundaries stay the whole plan's)
with config_check.refusing(REFUSED):
    LOOKS = sequential_experiments(config)
    LOOKS_RUN = {experiment: len(looks_run(config["experiments"][experiment]["seeds"])) for experiment in LOOKS}
# an experiment read along its horizon (`horizon:` in the config), with its checkpoints
HORIZON = config.get("horizon")
if HORIZON and HORIZON["experiment"] not in config["experiments"]:
    config_check.refuse([f"horizon.experiment: {HORIZON['experiment']!r} not allowed (allowed: one of this config's "
                         f"experiments, {', '.join(config['experiments'])})"], REFUSED)


def horizon_source(run_config):
    """The table a run's claims 1 and 7 are read along at its checkpoints (`analysis.claims.verdicts_along --horizon`), and
    the experiment it reads, or None: a config's `horizon` entry (rule `horizon_along`), or the `horizon` table of the
    experiment of that name (analysis.statistics.sequential.HORIZON, the horizon table's default plan)."""
    if run_config.get("horizon"):
        return "horizon_along.csv", run_config["horizon"]["experiment"]
    if HORIZON_PLAN.experiment in run_config.get("experiments", {}):
        return "horizon.csv", HORIZON_PLAN.experiment
    return None


def horizon_args():
    """`analysis.tables.horizon`'s plan options for the config's `horizon` (`bench.grid.horizon_arguments`)."""
    return shlex.join(horizon_arguments(config))


@functools.cache
def look_plan(experiment):
    """The plan a sequential experiment's looks are kept under (`bench.grid.look_plan`)."""
    return grid_look_plan(config, GRID, experiment)


def look_file(experiment, k):
    return f"{RESULTS}/looks/{experiment}/{look_plan(experiment)}/look{k}.json"


@functools.cache  # input functions ask again and again; a look's trials never change within a run
def look_trials(experiment, k):
    """The trials of a sequential experiment run by its look k: its first n_k seeds of every setting at the first
    look, and after it of the settings still open at the previous look (`analysis.claims.looks`, a checkpoint)."""
    seeds = seed_numbers(config["experiments"][experiment]["seeds"])[: LOOKS[experiment][k - 1]]
    rows = [row for row in GRID if row.experiment == experiment and row.spec.seed in seeds]
    if k == 1:
        return tuple(sorted({row.spec.trial_id for row in rows}))
    previous = checkpoints.look.get(experiment=experiment, plan=look_plan(experiment), k=k - 1).output[0]
    with open(previous) as handle:
        still_open = {setting(SPECS[t]) for t in json.load(handle)["open"]}
    later = {row.spec.trial_id for row in rows if setting(row.spec) in still_open}
    return tuple(sorted(set(look_trials(experiment, k - 1)) | later))


def wanted_trials(reached_only=False):
    """Every trial the config runs: all of a fixed experiment's, and of a sequential one those its looks reach.

    With `reached_only`, a sequential experiment's trials only through the looks made so far: this never asks for an
    unfinished checkpoint, so the default target's list does not stop at the first one."""
    wanted = {row.spec.trial_id for row in GRID if row.experiment not in LOOKS}
    for experiment, run in LOOKS_RUN.items():
        if reached_only:
            run = max(k for k in range(1, run + 1) if k == 1 or os.path.exists(look_file(experiment, k - 1)))
        wanted |= set(look_trials(experiment, run))
    return wanted


def record_paths(trials):
    return sorted({record_path(t) for t in trials})


def look_rows(experiment, k):
    """The grid rows of a look's trials, as inline JSON for `analysis.claims.looks`."""
    wanted = set(look_trials(experiment, k))
    rows = [{**row.as_row(), "record": record_path(row.spec.trial_id)} for row in GRID
            if row.experiment == experiment and row.spec.trial_id in wanted]
    return json.dumps(rows, separators=(",", ":"))


def grid_rows():
    """The grid table's rows: every (experiment, trial) the config runs."""
    wanted = wanted_trials()
    return [{**row.as_row(), "record": record_path(row.spec.trial_id)} for row in GRID if row.spec.trial_id in wanted]


def all_records(wildcards=None):
    """Every record the config runs; with sequential experiments, known only as their looks are made (an input
    function: Snakemake re-evaluates it as each look's checkpoint finishes)."""
    return record_paths(wanted_trials() if LOOKS else SPECS)


def look_files(wildcards=None):
    """Every look's decision file of the sequential experiments, the last look's too (the grid table waits for them).

    Each look is a checkpoint whose own input function asks for the previous one, so listing them all here lets
    Snakemake follow every experiment's looks at once; an input function that walked the experiments in turn would
    stop at the first unfinished look and leave the other experiments' trials out of the DAG until it was done."""
    return [look_file(e, k) for e, run in LOOKS_RUN.items() for k in range(1, run + 1)]


def experiments():
    return {row.experiment for row in GRID}


def final_outputs():
    """The default target. It lists every record known so far too (the rest join through the tidy table's input):
    Snakemake does not remake a deleted intermediate file whose consumers are up to date, so only a target's inputs
    make it notice a record that has gone (deleted, or moved aside by the tidy step as unusable). For the same reason it lists the run's own marks of the outputs that do not
    depend on trials (illustrations, the scaling table): their committed copies under the paper directory would
    otherwise count as up to date on a fresh clone, and the run would publish them without remaking them."""
    own = [f"{RESULTS}/illustrations/{name}.done" for name in ILLUSTRATIONS]
    own += [f"{RESULTS}/scaling.csv"] if SCALING.get("enabled", False) else []
    own += [STUDY_SITE] if STUDY else []
    return [f"{RESULTS}/tidy.parquet"] + figure_outputs() + own + look_files() + record_paths(wanted_trials(reached_only=True))


def final_inputs(wildcards):
    """The default target as an input function, so that sequential experiments' later looks join it as they are
    made."""
    return final_outputs()


# figure name -> its script, the experiment it needs and its arguments, as each figure script declares it, and a
# progress figure for any other experiment (a user's own, named freely in the config)
FIGURES = run_figures(experiments())
# table name -> its script and the experiment it needs, as each table script computed from the tidy table declares it
TABLES = declared_tables()
# the paper's illustrations, computed from the method itself, not from trials (none in a study)
ILLUSTRATIONS = {} if STUDY else {
    "illustration_1d": "illustration_1d", "lambda_effect": "lambda_effect", "theorem1": "theorem1"
}


SCALING = config.get("scaling", {})
LATEX = shutil.which("latexmk")
if not LATEX:
    print("b3o workflow: no latexmk found - figures and tables are built, the PDF report is skipped", file=sys.stderr)


def _runs(experiment, when):
    """Whether the config runs `experiment` with some trial that has the grid values `when` (a figure's condition;
    B3O's temperature is constant unless given)."""
    return any(
        row.experiment == experiment
        and all({"temperature": "constant", **row.spec.params}.get(k) == v for k, v in when.items())
        for row in GRID
    )


#: the experiments of the automatic temperature's pre-registered test (its claims' experiments in
#: `analysis.claims.catalogue`, which a test checks; named here so the DAG build need not import the claims)
AUTO_EXPERIMENTS = ("auto_synthetic", "auto_battery", "auto_formula_e")


def runs_automatic():
    """Whether the config runs an experiment of the automatic temperature's pre-registered test."""
    return bool(set(AUTO_EXPERIMENTS) & experiments())


def confirming():
    """Whether the config runs the fresh-seed confirmation's experiment (`analysis.statistics.confirmation`)."""
    from analysis.statistics.confirmation import plan_for  # SciPy: only where a table list is asked for

    return any(plan_for(experiment) is not None for experiment in experiments())


def table_names():
    """The tables this config makes: those declared by the table scripts whose experiment it runs, and those with
    rules of their own."""
    declared_here = [name for name, table in TABLES.items() if table.experiment in (None, *experiments())]
    return (declared_here + ["run_times", "per_trial"] + (["automatic"] if runs_automatic() else [])
            + (["declared"] if DECLARED else []) + (["confirmation"] if confirming() else []))


def figure_outputs():
    wanted = [name for name, figure in FIGURES.items() if _runs(figure.experiment, figure.when)]
    names = wanted + list(ILLUSTRATIONS) + (["timing"] if SCALING.get("enabled", False) else [])
    outputs = [f"{PAPER}/figures/{name}.png" for name in names + (["confirmation"] if confirming() else [])]
    outputs += [f"{PAPER}/tables/{t}.csv" for t in table_names()] + [f"{PAPER}/tables/{PER_ITERATION}"]
    outputs += [f"{PAPER}/figures/anytime_{view}.png" for view in ANYTIME_REPORTED]
    # across problems and along the budget (workflow/rules/site.smk's rules, on this run)
    outputs += [f"{PAPER}/tables/{SCORE_AGGREGATE}", f"{PAPER}/figures/{SCORE_FIGURE}.png"]
    if HORIZON:
        outputs += [f"{PAPER}/tables/horizon_along.csv", f"{PAPER}/figures/horizon_along.png"]
    if not STUDY:  # the paper's claims, along the budget and in the robust readings of B3O against TS
        outputs += [f"{PAPER}/figures/anytime_verdicts.png", *robust_outputs(PAPER), f"{PAPER}/claims.md"]
    outputs.append(f"{PAPER}/report.tex")
    if LATEX:
        outputs.append(f"{PAPER}/report.pdf")
    if PUBLISH and config.get("readme"):
        outputs.append(f"{RESULTS}/readme.done")
    if COMPARE:
        outputs.append(COMPARED)
    return outputs




RUN_NAME = config.get("run_name", "default")
#: where each published run's claims and run-time tables are committed (the README's claims at a glance and
#: docs/results.md's cost of every run read them all; `python -m analysis.presentation.readme --published` reads the same list)
PUBLISHED_CLAIMS, PUBLISHED_COSTS = published_runs.CLAIMS, published_runs.COSTS


def readme_files():
    """The README and the docs whose generated sections this run rewrites: the default run's results and method
    pages and the deviations page (generated whole from the configs), and the automatic temperature's page for the run of
    its test (quoted for the shell)."""
    readme = Path(config["readme"])
    names = (("results.md", "method.md", "deviations.md") if RUN_NAME == "default" else ()) + (
        ("auto-temperature.md",) if runs_automatic() else ()
    )
    docs = [readme.parent / "docs" / name for name in names]
    docs = [p for p in docs if p.is_file()]
    return " ".join(shlex.quote(str(p)) for p in [readme, *docs])


def published(tables, own):
    """RUN=CSV for every published run's table of one kind (PUBLISHED_CLAIMS, PUBLISHED_COSTS), this run's being its
    own fresh one (quoted for the shell)."""
    return " ".join(shlex.quote(f"{run}={path}") for run, path in {**tables, RUN_NAME: own}.items())


def scaling_spec():
    """The `b3o scaling` spec of the config's scaling section (with the trials' model), as inline JSON."""
    return json.dumps(ScalingSpec.from_config(config).to_dict(), separators=(",", ":"))


def report_inputs(wildcards=None):
    """What the report is written from: the claims, the tables, every figure's PDF and, if run, the batch timings."""
    inputs = {
        **({} if STUDY else {"claims": f"{PAPER}/claims.csv"}),  # a study's report has its declared comparisons only
        "tables": [f"{PAPER}/tables/{t}.csv" for t in table_names()],
        "per_iteration": f"{PAPER}/tables/{PER_ITERATION}",
        "scores": f"{PAPER}/tables/{SCORE_AGGREGATE}",
        "figures": [f[: -len(".png")] + ".pdf" for f in figure_outputs() if f.endswith(".png")],
    }
    if SCALING.get("enabled", False):
        inputs["scaling"] = f"{RESULTS}/scaling.csv"
    return inputs


# --- the results site (workflow/rules/site.smk) ---

# beside this file, whatever directory the workflow runs in (a user's study runs it elsewhere)
SITE = yaml.safe_load((Path(workflow.basedir) / "workflow" / "site.yaml").read_text())["runs"]
SITE_OUT = "site"


# the runs whose anytime views, scores and verdicts along the budget the workflow makes: this run's, for its report,
# and the site's
DRAWN_RUNS = "|".join(re.escape(run) for run in dict.fromkeys([PAPER, *SITE]))


wildcard_constraints:
    published=DRAWN_RUNS,


def run_configfile(published):
    """The config a run was made from: this run's, or the one workflow/site.yaml names for a published run."""
    return CONFIGFILE if published == PAPER else SITE[published]["config"]


def run_horizon(published):
    """`horizon_source` of a run's config: the table its claims 1 and 7 are read along, and its experiment."""
    return horizon_source(config if published == PAPER else yaml.safe_load(Path(run_configfile(published)).read_text()))


def horizon_inputs(wildcards):
    source = run_horizon(wildcards.published)
    return {"horizon": f"{wildcards.published}/tables/{source[0]}"} if source else {}


def horizon_option(wildcards, input):
    """`analysis.claims.verdicts_along`'s --horizon options for `horizon_inputs`' table (quoted for the shell)."""
    if "horizon" not in input.keys():
        return ""
    return f"--horizon {shlex.quote(input.horizon)} --horizon-experiment {run_horizon(wildcards.published)[1]}"


def horizon_readings(published):
    """The horizon table and per-iteration table a run's robust readings along t need, or {}: a run read along its
    horizon whose per-iteration table is made (this run) or committed (a published run)."""
    source = run_horizon(published)
    per_iteration = f"{published}/tables/{PER_ITERATION}"
    if not source or (published != PAPER and not Path(per_iteration).is_file()):
        return {}
    return {"horizon": f"{published}/tables/{source[0]}", "per_iteration": per_iteration}


def robust_inputs(wildcards):
    """`analysis.tables.robust`'s inputs for a run: its per-trial table and config, and `horizon_readings`."""
    return {"table": f"{wildcards.published}/tables/{PER_TRIAL}", "config": run_configfile(wildcards.published),
            **horizon_readings(wildcards.published)}


def horizon_readings_of(wildcards):
    return horizon_readings(wildcards.published)


def robust_outputs(published):
    """What the robust readings make for a run: its tables, and the headline and the figures along t where it
    is read along its horizon."""
    along = [f"{published}/tables/headline.csv", f"{published}/figures/seeds_along.png",
             f"{published}/figures/improvement_along.png"] if horizon_readings(published) else []
    return [f"{published}/tables/robust.csv", *along]


def site_inputs(wildcards):
    """Everything a run's page shows that the site's rules make, for every published run, and the config whose header
    opens its page; the views drawn from the per-iteration table only for a run that has one (a run published before
    it, whose records are gone, has none: its page says so); the listing, whose titles name the runs; the glossary,
    which the site renders as its own page."""
    needed = ["workflow/site.yaml", "docs/glossary.md"]
    for run in SITE:
        needed += [f"{run}/claims.csv", f"{run}/tables/{SCORES}", f"{run}/tables/{SCORE_AGGREGATE}"]
        needed.append(SITE[run]["config"])
        drawn = [f"anytime_{view}" for view in ANYTIME_VIEWS] if Path(run, "tables", PER_ITERATION).is_file() else []
        needed += [f"{run}/figures/{stem}.png" for stem in (SCORE_FIGURE, "anytime_verdicts", *drawn)]
        needed += robust_outputs(run)
    return needed
