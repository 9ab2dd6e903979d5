"""`b3o verify`: rerun a seeded sample of published trials and say, per trial, whether it reproduced exactly.

What is promised: on the pinned numerical platform (`bench.numerics`) a trial's record is bit-identical wherever
its platform id matches the published one. Where the ids differ (another CPU's cache sizes, other library versions)
the per-seed values may differ - BO is chaotic - and the check is statistical instead: every seed of the trial's
setting is rerun and the reruns are compared with the published values, paired by seed, through the verdict engine
(`statistical`).

Published trials come from a results directory (its `grid.csv` and records: whole records are compared) or from a
paper directory (its `tables/per_trial.csv`: final values are compared; the specs are rebuilt from the config that
made it, `--configfile`, and matched by trial id, which hashes the whole spec). Reruns are kept under `--work`, so a
verify run that stops resumes where it stopped.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import yaml

from analysis.claims.checking import check_all
from analysis.data.aggregate import HEADLINE_METRICS
from analysis.data.per_trial import load as load_per_trial
from analysis.statistics.verdicts import EQUIVALENT, FAILS, HOLDS, NOT_MEASURED, decide, paired
from bench.grid import trial_grid
from bench.records import record_platform, same_run
from bench.spec import TrialSpec
from problems.margins import margin

log = logging.getLogger("b3o.verify")

EXACT = "exact"
DIFFERS = "differs"
CONSISTENT = "consistent (equivalent within the margin)"
INCONSISTENT = "inconsistent"


@dataclass(frozen=True)
class Published:
    """One published trial: its spec, its published final value and record (if a results directory) and where it
    appears."""

    spec: TrialSpec
    experiment: str
    label: str
    metric: str
    value: float
    platform_id: str
    record: dict[str, Any] | None = None

    @property
    def setting(self) -> tuple[str, str, str]:
        return self.experiment, self.label, self.spec.problem


def published_trials(published: Path, config: dict[str, Any] | None) -> list[Published]:
    """The trials of a results directory (records) or a paper directory (per-trial table + the config's grid)."""
    if (published / "grid.csv").exists():
        return _from_results(published)
    table = published / "tables" / "per_trial.csv"
    if not table.exists():
        raise ValueError(f"{published} is neither a results directory (grid.csv) nor a paper directory "
                         "(tables/per_trial.csv)")
    if config is None:
        raise ValueError("a paper directory needs --configfile, the config that made it (its trials' specs)")
    return _from_paper(table, config)


def _from_paper(table: Path, config: dict[str, Any]) -> list[Published]:
    # values as text: float(repr) round-trips exactly, pandas' default float parser need not
    rows = pd.read_csv(table, dtype=str, keep_default_na=False)
    final = rows[rows["budget"] == rows["final_budget"]].drop_duplicates("trial_id")
    specs = {row.spec.trial_id: row.spec for row in trial_grid(config)}
    missing = sorted(set(final["trial_id"]) - set(specs))
    if missing:
        raise ValueError(f"{len(missing)} published trial(s) are not in the config's grid (first: {missing[0]}); "
                         "pass the --configfile that made this directory")
    return [
        Published(specs[r.trial_id], r.experiment, r.label, r.metric, float(r.value), r.get("platform_id", ""))
        for r in (pd.Series(row) for row in final.to_dict("records"))
    ]


def _from_results(results: Path) -> list[Published]:
    grid = pd.read_csv(results / "grid.csv").drop_duplicates("trial_id")
    trials = []
    for row in grid.to_dict("records"):
        listed = Path(row["record"]) if isinstance(row.get("record"), str) else None
        path = listed if listed is not None and listed.exists() else results / "trials" / f"{row['trial_id']}.json"
        if not path.exists():
            continue  # not run (yet): nothing published to check
        record = json.loads(path.read_text())
        metric = _metric(record)
        trials.append(Published(
            TrialSpec.from_dict(record["spec"]), row["experiment"], row["label"], metric,
            record["trace"][-1][metric], record_platform(record), record,
        ))
    return trials


def _metric(record: dict[str, Any]) -> str:
    last = record["trace"][-1]
    return next(m for m in HEADLINE_METRICS if last.get(m) is not None)


def sample(trials: list[Published], k: int, seed: int) -> list[Published]:
    """k trials drawn with `seed`, spread over methods: the methods take turns (in name order), each giving its
    trials in a seeded random order, so a small sample still covers B3O, TS, random search and the others."""
    rng = np.random.default_rng(seed)
    by_method: dict[str, list[Published]] = {}
    for trial in sorted(trials, key=lambda t: t.spec.trial_id):
        by_method.setdefault(trial.spec.method, []).append(trial)
    queues = {m: [by_method[m][i] for i in rng.permutation(len(by_method[m]))] for m in sorted(by_method)}
    chosen: list[Published] = []
    while len(chosen) < k and any(queues.values()):
        for queue in queues.values():
            if queue and len(chosen) < k:
                chosen.append(queue.pop(0))
    return chosen


def rerun(trial: Published, work: Path) -> dict[str, Any]:
    from bench.runner import run_trial

    return run_trial(trial.spec, work / f"{trial.spec.trial_id}.json")


def compare(trial: Published, record: dict[str, Any]) -> dict[str, Any]:
    """One line of the report: the published and rerun values and platform ids, and whether the rerun is identical
    (the whole record without times where a record was published - keys added to records since it was made are
    left out, `bench.records.same_run` - else the final value to the last bit)."""
    value = record["trace"][-1][trial.metric]
    same = same_run(record, trial.record) if trial.record is not None else value == trial.value
    rerun_platform = record["provenance"]["platform_id"]
    return {
        "trial_id": trial.spec.trial_id,
        "experiment": trial.experiment,
        "label": trial.label,
        "problem": trial.spec.problem,
        "seed": trial.spec.seed,
        "metric": trial.metric,
        "published": trial.value,
        "rerun": value,
        "result": EXACT if same else DIFFERS,
        "published_platform": trial.platform_id or "unrecorded",
        "rerun_platform": rerun_platform,
        "same_platform": trial.platform_id == rerun_platform,
    }


def value_at(record: dict[str, Any], metric: str, budget: int) -> float:
    """The metric's value after the last batch within `budget` evaluations (as the per-trial table has it)."""
    within = [row for row in record["trace"] if row["num_evals"] <= budget]
    return within[-1][metric] if within else math.nan


def statistical(trials: list[Published], lines: list[dict[str, Any]], work: Path) -> list[dict[str, Any]]:
    """For each setting (experiment, label, problem) with a trial that differs off its published platform: rerun
    every seed and test, paired by seed, whether the reruns are equivalent to the published values within the
    problem's pre-set margin (`problems.margins`, two one-sided tests at the verdict engine's level)."""
    differing = {(r["experiment"], r["label"], r["problem"]) for r in lines if r["result"] == DIFFERS
                 and not r["same_platform"]}
    out = []
    for setting in sorted(differing):
        members = sorted((t for t in trials if t.setting == setting), key=lambda t: t.spec.seed)
        reruns = [rerun(t, work) for t in members]
        again = np.array([record["trace"][-1][t.metric] for t, record in zip(members, reruns)], dtype=np.float64)
        before = np.array([t.value for t in members], dtype=np.float64)
        tie = margin(setting[2], members[0].metric)
        sides = tie.sides(again, before, lower_is_better=True) if tie else None  # a tie is symmetric in the sign
        delta = tie.text() if tie else None
        compared = decide([paired("rerun", "published", members[0].metric, again - before, "better", sides, delta)])[0]
        out.append({
            "experiment": setting[0], "label": setting[1], "problem": setting[2], "seeds": compared.n,
            "mean_difference": compared.mean, "ci_low": compared.lo, "ci_high": compared.hi, "margin": delta,
            "p_equivalent": compared.p_equivalent, "result": _consistency(compared.verdict),
            "reruns": {t.spec.trial_id: record for t, record in zip(members, reruns)},
        })
    return out


def _consistency(verdict: str) -> str:
    if verdict == EQUIVALENT:
        return CONSISTENT
    return INCONSISTENT if verdict in (HOLDS, FAILS) else "inconclusive"


def claims_changed(table: pd.DataFrame, settings: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The claims whose verdict changes when the published per-trial table takes the reruns' values."""
    trials = {trial_id: record for s in settings for trial_id, record in s["reruns"].items()}
    if not trials:
        return []
    rerun = table.copy()
    rows = rerun["trial_id"].isin(list(trials))
    rerun.loc[rows, "value"] = [
        value_at(trials[r.trial_id], r.metric, int(r.budget)) for r in rerun[rows].itertuples()
    ]
    before, after = check_all(table), check_all(rerun)
    return [{"claim": b.name, "published": b.verdict, "rerun": a.verdict}
            for b, a in zip(before, after) if b.verdict != a.verdict]


@dataclass
class Verification:
    lines: list[dict[str, Any]]  # one per sampled trial
    settings: list[dict[str, Any]]  # one per setting rerun in full (statistical mode)
    claims: list[dict[str, str]]  # claims whose verdict the reruns would change

    @property
    def failed(self) -> bool:
        """A trial that differs on its own published platform, or a setting whose reruns are shown to differ."""
        return any(r["result"] == DIFFERS and r["same_platform"] for r in self.lines) or any(
            s["result"] == INCONSISTENT for s in self.settings
        )


def verify(
    published: Path, config: dict[str, Any] | None, k: int, seed: int, work: Path, statistical_mode: bool = True
) -> Verification:
    """Rerun a sample of k published trials (records kept under `work`), compare each with its publication and,
    where one differs off its platform, check its whole setting statistically and the claims it enters."""
    trials = published_trials(published, config)
    chosen = sample(trials, k, seed)
    if not chosen:
        raise ValueError(f"{published} holds no finished trials to verify")
    work.mkdir(parents=True, exist_ok=True)
    lines = []
    for trial in chosen:
        lines.append(compare(trial, rerun(trial, work)))
        log.info("%s %s: %s", trial.spec.trial_id, trial.label, lines[-1]["result"])
    settings = statistical(trials, lines, work) if statistical_mode else []
    table = _per_trial_table(published)
    changed = claims_changed(table, settings) if table is not None else []
    return Verification(lines, settings, changed)


def _per_trial_table(published: Path) -> pd.DataFrame | None:
    for path in (published / "tables" / "per_trial.csv", published / "tidy.parquet"):
        if path.exists():
            return load_per_trial(path)
    return None


def report(found: Verification, published: Path) -> str:
    """The verify report as Markdown: a summary, one row per rerun trial, the settings checked statistically and the
    claims whose verdict would change."""
    table = pd.DataFrame(found.lines)
    exact = int((table["result"] == EXACT).sum())
    text = [
        f"# `b3o verify` of `{published}`",
        "",
        f"{exact} of {len(table)} sampled trials reproduced exactly "
        f"({int(table['same_platform'].sum())} of the {len(table)} were rerun on their published platform id).",
        "",
        "| trial | experiment | method | problem | seed | metric | published | rerun | result | published platform "
        "| rerun platform |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    text += [
        f"| {r['trial_id']} | {r['experiment']} | {r['label']} | {r['problem']} | {r['seed']} | {r['metric']} | "
        f"{r['published']!r} | {r['rerun']!r} | {r['result']} | {r['published_platform']} | {r['rerun_platform']} |"
        for r in found.lines
    ]
    if found.settings:
        text += [
            "",
            "Settings with a trial that differs off its published platform, every seed rerun and compared with the "
            "published values, paired by seed (two one-sided tests against the problem's margin):",
            "",
            "| experiment | method | problem | seeds | mean rerun − published [95 % CI] | margin | p (equivalent) | "
            "result |",
            "|---|---|---|---|---|---|---|---|",
        ]
        text += [
            f"| {s['experiment']} | {s['label']} | {s['problem']} | {s['seeds']} | {s['mean_difference']:.4g} "
            f"[{s['ci_low']:.4g}, {s['ci_high']:.4g}] | {s['margin']} | {s['p_equivalent']:.3g} | {s['result']} |"
            for s in found.settings
        ]
        text += ["", "Claims whose verdict the reruns would change: " + (
            "; ".join(f"{c['claim']} ({c['published']} → {c['rerun']})" for c in found.claims) or "none") + "."]
    return "\n".join(text) + "\n"


def _final_values(paper: Path) -> pd.Series:
    """Each trial's final value in a paper directory's per-trial table, as text (float(repr) round-trips exactly)."""
    rows = pd.read_csv(paper / "tables" / "per_trial.csv", dtype=str, keep_default_na=False)
    return rows[rows["budget"] == rows["final_budget"]].drop_duplicates("trial_id").set_index("trial_id")["value"]


def _verdicts(paper: Path) -> pd.Series:
    """Each measured claim's verdict in a paper directory's claims table, by claim name."""
    verdicts = pd.read_csv(paper / "claims.csv").set_index("name")["verdict"]
    return verdicts[verdicts != NOT_MEASURED]


def against_published(run: Path, published: Path) -> str:
    """A finished run's paper directory against the published one, without rerunning anything: each claim's verdict
    (claims.csv, by name) and each trial's final value (tables/per_trial.csv, by trial id, to the last bit), as the
    few lines the workflow ends with."""
    mine, theirs = _verdicts(run), _verdicts(published)
    both = mine.index.intersection(theirs.index)
    changed = [f"{name} ({theirs[name]} → {mine[name]})" for name in both if mine[name] != theirs[name]]
    ours, published_values = _final_values(run), _final_values(published)
    shared = ours.index.intersection(published_values.index)
    exact = int((ours[shared] == published_values[shared]).sum())
    return "\n".join([
        f"# `{run}` against the published `{published}`",
        "",
        f"Verdicts: {len(both) - len(changed)} of the {len(both)} claims both measured have the published verdict"
        + (f"; changed: {'; '.join(changed)}." if changed else "."),
        f"Numbers: {exact} of the {len(shared)} trials both ran reach the published final value to the last bit, "
        f"{len(shared) - exact} differ (bit-identical needs the published platform id: `b3o platform`); "
        f"{len(ours.index.difference(shared))} trial(s) of this run are not published.",
    ]) + "\n"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "verify", help="rerun a seeded sample of published trials and report which reproduce exactly"
    )
    parser.add_argument("--published", required=True, help="a results directory (grid.csv) or a paper directory "
                        "(tables/per_trial.csv)")
    parser.add_argument("--configfile", help="the config that made a paper directory (its trials' specs)")
    parser.add_argument("--sample", type=int, default=8, help="trials to rerun, spread over methods (default 8)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sample (default 0)")
    parser.add_argument("--work", default="results/verify", help="where the reruns' records are kept")
    parser.add_argument("--out", help="write the Markdown report here (and its table as CSV beside it)")
    parser.add_argument("--run", help="compare this finished run's paper directory with --published instead of "
                        "rerunning: each claim's verdict and each trial's final value (nothing is rerun)")
    parser.add_argument("--exact-only", action="store_true",
                        help="skip the statistical check of settings that differ off their published platform")
    parser.set_defaults(func=_main)


def _main(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    if args.run:
        return _against(Path(args.run), Path(args.published), args.out)
    try:
        if args.sample < 1:
            raise ValueError(f"--sample must be >= 1, got {args.sample}")
        config = yaml.safe_load(Path(args.configfile).read_text()) if args.configfile else None
        published = Path(args.published)
        published_trials(published, config)  # every check before the first rerun
    except (ValueError, OSError, yaml.YAMLError) as err:
        print(f"b3o verify: error: {err}", file=sys.stderr)
        return 2
    found = verify(published, config, args.sample, args.seed, Path(args.work), not args.exact_only)
    text = report(found, published)
    if args.out:
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text)
        pd.DataFrame(found.lines).to_csv(out.with_suffix(".csv"), index=False)
    print(text)
    return 1 if found.failed else 0


def _against(run: Path, published: Path, out: str | None) -> int:
    try:
        text = against_published(run, published)
    except (OSError, KeyError, pd.errors.ParserError) as err:
        print(f"b3o verify: error: {err}", file=sys.stderr)
        return 2
    if out:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(text)
    print(text)
    return 0
