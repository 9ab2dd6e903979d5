"""Experiments (the workflow config) -> a sparse table of trials.

An experiment's `seeds` is a count, or `{start, step, max}` for seeds that come in planned looks: the grid then
holds every trial up to `max`, and the workflow runs a look's seeds only for the settings still open
(`analysis.claims.looks`); a trial's id never depends on the look. Seeds are numbered from 0, or from `first` (in
the mapping form): a plan written after some seeds' results were seen is then judged on seeds nobody has seen, and the
analysis counts seeds by rank, not by number.

An experiment lists problems, seeds, trial settings and methods. A method entry has a display `label`, a registry
`method`, fixed `params`, optionally `lam` (a number, a number per problem, or `table2`: the paper's Table 2 value
for the problem and the method's acquisition and temperature, `bench.paper`) and a `grid` of parameter lists whose
Cartesian product it spans (the lambda and sampler ablations) - so lambda and the sampler exist only where B3O is
run, and the grid is not a full product. Identical trials in several experiments share one trial id and one
record.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from bench.paper import TABLE_2_NAME, table_2_lam
from bench.spec import TrialSpec

_TRIAL_KEYS = ("batch_size", "iterations", "n_init", "model", "problem_options")
_COLUMNS = ("acquisition", "temperature", "lam", "sampler")


@dataclass(frozen=True)
class GridRow:
    experiment: str
    label: str
    spec: TrialSpec

    def as_row(self) -> dict[str, Any]:
        params = self.spec.params
        return {
            "trial_id": self.spec.trial_id,
            "experiment": self.experiment,
            "label": self.label,
            "problem": self.spec.problem,
            "method": self.spec.method,
            **{key: params.get(key) for key in _COLUMNS},
            "batch_size": self.spec.batch_size,
            "iterations": self.spec.iterations,
            "n_init": self.spec.n_init,
            "seed": self.spec.seed,
        }


def planned_looks(start: int, step: int, maximum: int) -> tuple[int, ...]:
    """The planned seed counts of `seeds: {start, step, max}`: start, start + step, … up to and including max."""
    if not (0 < start <= maximum and step > 0):
        raise ValueError(f"seeds: need 0 < start <= max and step > 0, got start={start}, step={step}, max={maximum}")
    counts = list(range(start, maximum + 1, step))
    return tuple(counts if counts[-1] == maximum else counts + [maximum])


def seed_looks(seeds: int | Mapping[str, int]) -> tuple[int, ...]:
    """An experiment's `seeds` as its looks: one look for a fixed count, the planned counts for {start, step, max}."""
    if isinstance(seeds, Mapping):
        return planned_looks(seeds["start"], seeds["step"], seeds["max"])
    return (seeds,)


def looks_run(seeds: int | Mapping[str, int]) -> tuple[int, ...]:
    """The planned looks a config runs: all of them, or those up to `until` (one of the planned counts).

    `until` lets a cheap config stop a plan early that a larger config sharing its results directory continues: it
    decides at the looks it reached on the whole plan's boundaries (stopping early without a decision spends no
    error rate), so what it decides stands when the larger config goes on."""
    looks = seed_looks(seeds)
    until = seeds.get("until") if isinstance(seeds, Mapping) else None
    if until is None:
        return looks
    if until not in looks:
        raise ValueError(f"seeds: until={until} must be one of the planned seed counts {list(looks)}")
    return looks[: looks.index(until) + 1]


def seed_numbers(seeds: int | Mapping[str, int]) -> range:
    """Every seed an experiment's `seeds` may run in this config: up to `until`, `max` (or the count) of them from
    `first` (default 0)."""
    first = seeds.get("first", 0) if isinstance(seeds, Mapping) else 0
    return range(first, first + looks_run(seeds)[-1])


def sequential_experiments(config: dict[str, Any]) -> dict[str, tuple[int, ...]]:
    """Experiment -> its planned looks (the whole plan, which sets every look's boundary, whatever `until` stops at),
    for the enabled experiments whose seeds come in looks."""
    return {
        name: seed_looks(settings["seeds"])
        for name, settings in config["experiments"].items()
        if settings.get("enabled", True) and isinstance(settings["seeds"], Mapping)
    }


def horizon_arguments(config: dict[str, Any]) -> list[str]:
    """The plan options of `analysis.tables.horizon` and `analysis.figures.horizon` for a config's `horizon` (its
    experiment, checkpoints and planned looks, α spent as the claims engine spends it), or none without one: the
    workflow's rule `horizon_along` and `analysis.presentation.redecide` both read the run along its horizon so."""
    horizon = config.get("horizon")
    if not horizon:
        return []
    experiment = horizon["experiment"]
    looks = sequential_experiments(config).get(experiment) or (len(seed_numbers(config["experiments"][experiment]["seeds"])),)
    return ["--experiment", experiment, "--checkpoints", ",".join(map(str, horizon["checkpoints"])),
            "--looks", ",".join(map(str, looks)), "--spending", "pocock"]


def trial_grid(config: dict[str, Any]) -> list[GridRow]:
    """Every (experiment, trial) of a validated workflow config, in config order."""
    defaults = config.get("defaults", {})
    rows = []
    for experiment, settings in config["experiments"].items():
        if not settings.get("enabled", True):
            continue
        labels = [entry["label"] for entry in settings["methods"]]
        repeated = sorted({label for label in labels if labels.count(label) > 1})
        if repeated:
            raise ValueError(f"experiment {experiment!r} lists method label(s) {repeated} more than once; "
                             "a label names one curve of its figures")
        for problem in settings["problems"]:
            for entry in settings["methods"]:
                for params in _expand(entry, problem):
                    for seed in seed_numbers(settings["seeds"]):  # up to max: the looks choose
                        trial = {k: entry.get(k, settings.get(k, defaults.get(k))) for k in _TRIAL_KEYS}
                        trial = {k: v for k, v in trial.items() if v is not None}
                        spec = TrialSpec.from_dict(
                            {"problem": problem, "method": entry["method"], "params": params, "seed": seed, **trial}
                        )
                        rows.append(GridRow(experiment, _label(entry["label"], params), spec))
    _refuse_shared_settings(rows)
    return rows


def _refuse_shared_settings(rows: list[GridRow]) -> None:
    """Two labels of one experiment whose settings are identical would run the same trials: their records cannot
    be told apart, so the tables, looks and figures could not say which curve a trial belongs to."""
    labels: dict[tuple[str, str], str] = {}
    for row in rows:
        other = labels.setdefault((row.experiment, row.spec.trial_id), row.label)
        if other != row.label:
            raise ValueError(f"experiment {row.experiment!r}: methods {other!r} and {row.label!r} have identical "
                             "settings, so they would run the same trials; give one label per setting")


def look_blocks(config: dict[str, Any], rows: Iterable[GridRow]) -> dict[str, tuple[tuple[str, int], ...]]:
    """Trial id -> the planned look that first calls for it in each sequential experiment listing it ((experiment,
    k) pairs, on the whole plan's boundaries); trials of fixed-count experiments have none."""
    plans = sequential_experiments(config)
    blocks: dict[str, set[tuple[str, int]]] = {}
    for row in rows:
        if row.experiment in plans:
            seeds = config["experiments"][row.experiment]["seeds"]
            offset = row.spec.seed - seeds.get("first", 0)
            look = next(k for k, count in enumerate(plans[row.experiment], start=1) if offset < count)
            blocks.setdefault(row.spec.trial_id, set()).add((row.experiment, look))
    return {trial_id: tuple(sorted(looks)) for trial_id, looks in blocks.items()}


def setting(spec: TrialSpec) -> str:
    """What a trial's seeds share, as one string: its spec less the seed (the unit a look opens or closes)."""
    return json.dumps({**spec.to_dict(), "seed": None}, sort_keys=True, default=str)


def settings_to_check(specs: Mapping[str, TrialSpec], has_record: Callable[[str], bool]) -> list[dict[str, Any]]:
    """One spec (seed 0) per distinct setting among the trials without a record, for `b3o check-specs` before any job.

    A trial with a record ran, so its setting passed this check then; a finished run's dry run, or a run resumed with
    a few trials left, checks only what is left (the check imports TensorFlow: seconds per Snakemake start)."""
    distinct: dict[str, dict[str, Any]] = {}
    for trial_id, spec in specs.items():
        if not has_record(trial_id):
            distinct.setdefault(setting(spec), {**spec.to_dict(), "seed": 0})
    return list(distinct.values())


def look_plan(config: dict[str, Any], rows: Iterable[GridRow], experiment: str) -> str:
    """A short hash of what a sequential experiment's looks decide over: its labelled settings and its seed plan.

    A run keeps its looks under it (`RESULTS/looks/EXPERIMENT/PLAN/lookK.json`), so configs that share a results
    directory and an experiment's name but not its grid (config.yaml's and extended.yaml's synthetic_b100) keep their
    own looks, while configs that run the same experiment share its looks as they share its trials. Where a plan
    stops (`until`) is not what it decides, so it is not part of the hash."""
    settings = sorted({(row.label, setting(row.spec)) for row in rows if row.experiment == experiment})
    seeds = {k: v for k, v in config["experiments"][experiment]["seeds"].items() if k != "until"}
    key = json.dumps({"settings": settings, "seeds": seeds}, sort_keys=True)
    return hashlib.sha256(key.encode()).hexdigest()[:12]


def trial_jobs(specs: Mapping[str, TrialSpec], size: int,
               blocks: Mapping[str, Hashable] | None = None) -> dict[str, list[str]]:
    """Trial ids grouped into jobs of at most `size` trials, each job named by its first trial's id.

    A job holds trials that differ only in their seed, in seed order: its trials cost alike (so a job's size is a
    fair unit for a scheduler), and adding seeds to an experiment fills its last job and adds new ones without moving
    a trial between the earlier jobs. With `blocks` (`look_blocks`) a job also keeps to one planned look, so that no
    job runs a later look's seeds before the look that calls for them has decided whether they are needed.
    """
    if size < 1:
        raise ValueError(f"trials_per_job must be >= 1, got {size}")
    settings: dict[tuple[str, Hashable], list[TrialSpec]] = {}
    for spec in specs.values():
        settings.setdefault((setting(spec), (blocks or {}).get(spec.trial_id)), []).append(spec)
    jobs = {}
    for same in settings.values():
        ids = [spec.trial_id for spec in sorted(same, key=lambda spec: spec.seed)]
        for start in range(0, len(ids), size):
            jobs[ids[start]] = ids[start : start + size]
    return jobs


def _expand(entry: dict[str, Any], problem: str) -> Iterator[dict[str, Any]]:
    base = dict(entry.get("params", {}))
    lam = entry.get("lam")
    if isinstance(lam, dict):
        if problem not in lam:
            raise ValueError(f"method {entry['label']!r} gives lam per problem but not for {problem!r}")
        base["lam"] = lam[problem]
    elif lam is not None:
        base["lam"] = lam
    grid = entry.get("grid", {})
    keys = list(grid)
    for values in itertools.product(*(grid[k] for k in keys)):
        params = {**base, **dict(zip(keys, values))}
        if params.get("lam") == TABLE_2_NAME:
            params["lam"] = table_2_lam(problem, params)
        yield params


def _label(template: str, params: dict[str, Any]) -> str:
    """Labels may name grid parameters, e.g. "B3O-{acquisition}-{sampler}"."""
    return template.format(**params) if "{" in template else template
