"""Runtime ECDFs over fixed targets (COCO's fixed-target view): how much of the way to the best each method has come
after each budget.

The table is a per-trial table or, as the anytime view passes it, the per-iteration table in its terms
(`analysis.data.per_iteration.as_budgets`): every iteration is a budget, so a method's curve steps wherever one of its
trials gains, not only at the budgets some trial finished at.

Targets are fixed per (experiment, problem) before any method is looked at: `TARGETS` gaps
(`analysis.statistics.scores.gaps`: regret, or distance to the run's best value) log-evenly spaced from an easy one to
the hardest one reached. The easy end is the median gap of Random at the problem's smallest budget in the table: the
initial design in the per-iteration table (every method's is random, shared per seed); the per-trial table holds no
initial design, and random search at its first budget stands in for it. Without Random it is the median gap of all
trials there. The hard end is the smallest positive gap any trial of the experiment reached. A trial reaches a target at
the first budget at which its gap is at most the target; the ECDF of a method at budget b is the fraction of its
(target, trial) pairs reached by b, up to the largest budget any of its trials ran to (a trial that ended before b keeps
what it reached).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.statistics.scores import RANDOM, gaps

TARGETS = 20


def targets(rows: pd.DataFrame) -> tuple[np.ndarray, str]:
    """One (experiment, problem)'s targets, hardest last, and where the easy end came from (empty when no target
    range exists: nothing positive reached, or the easy end is already the hardest)."""
    first = rows[rows["budget"] == rows["budget"].min()]
    random = first[first["method"] == RANDOM]
    easy, source = (random["gap"].median(), "Random's median") if len(random) else (first["gap"].median(), "all trials' median")
    positive = rows.loc[rows["gap"] > 0, "gap"]
    if positive.empty or not easy > positive.min():
        return np.array([]), source
    return np.logspace(np.log10(easy), np.log10(positive.min()), TARGETS), source


def ecdf(table: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(curves, target ranges): per (experiment, problem, label, budget) the fraction of (target, trial) pairs reached;
    per (experiment, problem) its easy and hard targets and where the easy end came from."""
    curves, ranges = [], []
    for (experiment, problem), rows in gaps(table).groupby(["experiment", "problem"], sort=True):
        levels, source = targets(rows)
        ranges.append({
            "experiment": experiment, "problem": problem, "easy": levels[0] if len(levels) else np.nan,
            "hard": levels[-1] if len(levels) else np.nan, "easy_from": source, "targets": len(levels),
        })
        if not len(levels):
            continue
        budgets = np.sort(rows["budget"].unique())
        # first budget at which each trial reaches each target (inf: never)
        reached = rows.assign(**{f"t{i}": np.where(rows["gap"] <= t, rows["budget"], np.inf) for i, t in enumerate(levels)})
        first = reached.groupby(["label", "trial_id"])[[f"t{i}" for i in range(len(levels))]].min()
        ran_to = rows.groupby("label")["final_budget"].max()
        for label, hits in first.groupby(level="label", sort=True):
            hits = hits.to_numpy()
            curves += [
                {"experiment": experiment, "problem": problem, "label": label, "budget": int(b),
                 "fraction": float(np.mean(hits <= b)), "trials": len(hits)}
                for b in budgets[budgets <= ran_to[label]]
            ]
    columns = ["experiment", "problem", "label", "budget", "fraction", "trials"]
    return pd.DataFrame(curves, columns=columns), pd.DataFrame(ranges)
