"""Sentences from the run's tables: what was run, final values with CIs, verdicts. Every number comes from a table."""

from __future__ import annotations

import math
from collections import Counter

import pandas as pd

from analysis.formatting import number, series, signed, with_ci
from analysis.naming import experiment_title, ordered_problems, problem_title
from analysis.report.latex import text
from analysis.tables import provenance as provenance_table

METRICS = {
    "simple_regret": "final simple regret",
    "hypervolume": "final hypervolume",
    "best_value": "final best objective",
}


def problems_of(frame: pd.DataFrame) -> list[str]:
    return ordered_problems(frame["problem"].unique())


def setup(per_trial: pd.DataFrame, experiment: str) -> str:
    """What was run: methods, problems, B, T, initial points and seeds (LaTeX), from the per-trial table."""
    trials = per_trial[per_trial["experiment"] == experiment].drop_duplicates("trial_id")
    shape = {
        label: (int(g["batch_size"].iloc[0]), int(g["iterations"].iloc[0]), int(g["n_init"].iloc[0]))
        for label, g in trials.groupby("label", sort=False)
    }
    common_shape = Counter(shape.values()).most_common(1)[0][0]
    others = [f"{text(label)}: B = {b}, T = {t}" for label, (b, t, _) in shape.items() if (b, t, _) != common_shape]
    seeds = trials.groupby(["problem", "label"])["seed"].nunique()
    seed_text = str(seeds.min()) if seeds.min() == seeds.max() else f"{seeds.min()}–{seeds.max()}"
    b, t, n0 = common_shape
    return (
        f"We ran {len(shape)} methods ({series([text(label) for label in shape])}) on "
        f"{series([text(problem_title(p)) for p in problems_of(trials)])}: batches of B = {b} points for T = {t} "
        f"iterations after {n0} initial points"
        + (f" ({'; '.join(others)})" if others else "")
        + f", {seed_text} seeds per method and problem, {len(trials)} trials in all."
    )


def provenance(items: dict[str, str], config: str = "") -> str:
    """Page one's account of where the numbers come from (the provenance table's items): the trials and commits, the
    machines in words (`analysis.tables.provenance.machines`), when the trials ran and what they cost."""
    experiments = series([text(experiment_title(e)) for e in items["experiments"].split(", ")])
    named = rf" (\texttt{{{text(config)}}})" if config else ""
    made = (
        f"This run{named} made {text(items['trials'])} trials of {experiments}, from commit(s) "
        f"{text(items['commits'])}."
    )
    finished = (
        f"Its trials finished between {text(items['first trial finished'])} and "
        f"{text(items['last trial finished'])} (UTC) and took {text(items['core-minutes'])} core-minutes."
    )
    return " ".join([made, text(provenance_table.machines(items)), finished])


def metric(rows: pd.DataFrame) -> tuple[str, bool]:
    """The headline metric's name and whether lower is better, from summary rows of one problem."""
    return METRICS.get(rows["metric"].iloc[0], rows["metric"].iloc[0]), bool(rows["lower_is_better"].iloc[0])


def value(row: pd.Series) -> str:
    return with_ci(row["mean"], row["lo"], row["hi"])


def best_against(rows: pd.DataFrame, baselines: tuple[str, ...] = ("TS", "Random")) -> str:
    """'On P, A reaches the lowest mean M, v [lo, hi], against ... for TS and ... for Random.' (summary rows of one
    experiment and problem); the best B3O variant is added when a baseline is best."""
    name, lower = metric(rows)
    ranked = rows.sort_values("mean", ascending=lower)
    best = ranked.iloc[0]
    compared = [ranked[ranked["label"].str.startswith("B3O")].head(1)] if not best["label"].startswith("B3O") else []
    compared += [rows[rows["label"] == b] for b in baselines]
    others = [r for frame in compared for _, r in frame.iterrows() if r["label"] != best["label"]]
    sentence = (
        f"On {text(problem_title(best['problem']))}, {text(best['label'])} reaches the "
        f"{'lowest' if lower else 'highest'} mean {name}, {text(value(best))}"
    )
    if others:
        sentence += ", against " + series([f"{text(value(r))} for {text(r['label'])}" for r in others])
    return sentence + "."


def each_value(rows: pd.DataFrame) -> str:
    """'M: A v [lo, hi], B ...' for every method of one problem, best first."""
    name, lower = metric(rows)
    ranked = rows.sort_values("mean", ascending=lower)
    values = series([f"{text(r['label'])} {text(value(r))}" for _, r in ranked.iterrows()])
    problem = text(problem_title(rows["problem"].iloc[0]))
    return f"On {problem}, the {name} ({'lower' if lower else 'higher'} is better) is {values}."


_PLURAL = {"holds": "hold", "does not hold": "do not hold"}


def predicate(verdict: str, plural: bool) -> str:
    if verdict.startswith("holds"):
        return ("hold" + verdict[len("holds") :]) if plural else verdict
    if verdict in _PLURAL:
        return _PLURAL[verdict] if plural else verdict
    return ("are " if plural else "is ") + verdict


def verdicts(claims: pd.DataFrame | None, experiments: list[str], ref: str, whose: str = "the paper's claims") -> str:
    """'Of the paper's claims on this experiment (REF), claims 1 and 2 hold and claim 3 is inconclusive.' ('' if
    none); `whose` names the claims when they are not the paper's."""
    if claims is None:
        return ""
    rows = claims[claims["experiment"].isin(experiments)]
    if rows.empty:
        return ""
    groups = rows.groupby("verdict", sort=False)["number"].apply(list)
    parts = [
        f"claim{'s' if len(ns) > 1 else ''} {series([str(n) for n in ns])} {predicate(v, len(ns) > 1)}"
        for v, ns in groups.items()
    ]
    which = "this experiment" if len(experiments) == 1 else "these experiments"
    return f"Of {whose} on {which} ({ref}), {series(parts)}."


def against_paper(claims: pd.DataFrame | None, experiments: list[str]) -> str:
    """One sentence per claim of the paper measured on these experiments: what the paper reports and where, and
    what this run found, with the binding comparison's mean advantage and 95 % BCa CI ('' if none)."""
    if claims is None:
        return ""
    beyond = claims["beyond_paper"].astype(bool) if "beyond_paper" in claims else False
    rows = claims[claims["experiment"].isin(experiments) & ~beyond & (claims["verdict"] != "not measured")]
    sentences = []
    for _, r in rows.iterrows():
        found = f"here it {predicate(r['verdict'], False)}"
        binding = r.get("binding")
        if isinstance(binding, str) and binding and not math.isnan(r.get("binding_mean", math.nan)):
            found += (f" (binding comparison {text(binding)}: "
                      f"{signed(r['binding_mean'])} [{number(r['binding_lo'])}, {number(r['binding_hi'])}])")
        sentences.append(f"The paper reports in {text(r['source'])}: ``{text(r['claim'])}''; {found}.")
    return " ".join(sentences)


def range_text(values: pd.Series) -> str:
    """'a' or 'a–b' (min to max)."""
    lo, hi = values.min(), values.max()
    return number(lo) if number(lo) == number(hi) else f"{number(lo)}–{number(hi)}"


def shows(refs: list[str], what: str) -> str:
    """'Figure 1 and Figure 2 show WHAT. ' ('' without figures)."""
    return f"{series(refs)} show{'s' if len(refs) == 1 else ''} {what}. " if refs else ""


def unmeasured(horizon: bool) -> str:
    """What a run whose experiments no claim of the catalogue names decides instead: its horizon, if it has one."""
    if not horizon:
        return "No claim of the catalogue is about the experiments of this run; the sections below report them."
    return ("The catalogue's claims name the large-batch study's experiments, which this run lacks (not measured "
            "here); it reads claims 1 and 7 along its horizon instead (Section~\\ref{sec:horizon}).")
