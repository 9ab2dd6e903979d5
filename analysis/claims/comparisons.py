"""Paired comparisons of two method settings on one problem, without any claim: the per-seed advantage of A over
B at their common budget, its statistics (`analysis.verdicts`), the per-problem table of such comparisons that the
paired figure draws, and the probability of improvement across problems.

Every method shares its initial design with the others for a given (problem, seed), so A and B are compared
through their per-seed differences, at the smaller of their final evaluation counts. The headline metric
("value") is compared against the problem's equivalence margin (`problems.margins`); diversity without one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from analysis import verdicts
from analysis.claims.selection import Predicate, member_names
from analysis.resampling import bca
from analysis.verdicts import Paired
from problems.margins import margin as problem_margin


@dataclass(frozen=True)
class Compared:
    """One comparison: the unit (problem, pair index) it belongs to, its budget (None: not a budget quantity),
    its equivalence margin (None: none) and its statistics."""

    unit: tuple[str, int]
    budget: int | None
    margin: float | None
    stat: Paired
    look: int | None = None  # under planned looks: the look (1, 2, ...) at which it was decided, or the last one seen


def per_seed(rows: pd.DataFrame, column: str, budget: int | None) -> pd.Series:
    """`column` per seed: the value at `budget`, any other column at the trial's final budget."""
    chosen = rows[rows["budget"] == budget] if column == "value" else rows[rows["budget"] == rows["final_budget"]]
    return chosen.groupby("seed")[column].mean().dropna()


def advantages(
    rows: pd.DataFrame, a: str, b: str, quantity: tuple[str, str] = ("value", "value")
) -> tuple[int | None, pd.Series]:
    """(the common budget, A's advantage over B per seed) on one problem (rows with a `member` column)."""
    left_col, right_col = quantity
    ra, rb = rows[rows["member"] == a], rows[rows["member"] == b]
    budget = int(min(ra["final_budget"].min(), rb["final_budget"].min())) if "value" in quantity else None
    sa, sb = per_seed(ra, left_col, budget), per_seed(rb, right_col, budget)
    seeds = sa.index.intersection(sb.index)
    lower = bool(ra["lower_is_better"].iloc[0]) if left_col == "value" else False
    return budget, pd.Series(verdicts.advantage(sa[seeds].to_numpy(), sb[seeds].to_numpy(), lower), index=seeds)


def compare(
    rows: pd.DataFrame,
    a: str,
    b: str,
    unit: tuple[str, int],
    quantity: tuple[str, str] = ("value", "value"),
    relation: str = "better",
) -> Compared:
    """A's advantage over B per seed on one problem (rows with a `member` column), at the smaller of their final
    budgets; for "matches_or_beats" tested against −margin, for "better" against 0 (and ±margin for a tie)."""
    left_col, right_col = quantity
    budget, diffs = advantages(rows, a, b, quantity)
    margin = problem_margin(unit[0]) if quantity == ("value", "value") else None
    if relation == "matches_or_beats" and margin is None:
        raise ValueError(f"'matches or beats' on {unit[0]} [{left_col}] needs an equivalence margin: none is set")
    threshold = -margin if relation == "matches_or_beats" else 0.0
    names = (a, b) if left_col == right_col else (f"{a} [{left_col}]", f"{b} [{right_col}]")
    return Compared(unit, budget, margin, verdicts.paired(*names, unit[0], diffs.to_numpy(), threshold, margin))


def _pairs(table: pd.DataFrame, experiment: str, left: Predicate, right: Predicate):
    """(problem, rows with `member`, left member, right member) for every left and right setting of each problem."""
    data = table[table["experiment"] == experiment]
    data = data.assign(member=member_names(data))
    for problem, rows in data.groupby("problem", sort=False):
        lefts = sorted(rows.loc[left(rows), "member"].unique())
        rights = sorted(rows.loc[right(rows), "member"].unique())
        for a in lefts:
            for b in (b for b in rights if b != a):
                yield problem, rows, a, b


COLUMNS = ["problem", "left", "right", "budget", "n", "mean", "lo", "hi", "lower_is_better"]


def differences(table: pd.DataFrame, experiment: str, left: Predicate, right: Predicate) -> pd.DataFrame:
    """Per problem: every `left` method's paired advantage over each `right` method at their common budget, with
    its unadjusted BCa 95% CI (for figures). Columns: COLUMNS."""
    rows = []
    for problem, on_problem, a, b in _pairs(table, experiment, left, right):
        c = compare(on_problem, a, b, (problem, 0))
        s = c.stat
        lower = bool(on_problem["lower_is_better"].iloc[0])
        rows.append(dict(zip(COLUMNS, (problem, a, b, c.budget, s.n, s.mean, s.lo, s.hi, lower))))
    return pd.DataFrame(rows, columns=COLUMNS)


@dataclass(frozen=True)
class Improvement:
    """P(a `left` method better than a `right` one on a random problem and seed), with its stratified CI."""

    left: str
    right: str
    probability: float
    lo: float
    hi: float
    problems: tuple[str, ...]
    seeds: tuple[int, ...]

    def text(self) -> str:
        where = ", ".join(f"{p} ({n} seeds)" for p, n in zip(self.problems, self.seeds))
        return (
            f"probability of improvement P({self.left} better than {self.right}) = {self.probability:.2f} "
            f"[{self.lo:.2f}, {self.hi:.2f}] over {where}"
        )


def _average(*samples: np.ndarray, axis: int = -1) -> np.ndarray:
    """The mean over problems of each problem's mean over seeds."""
    return np.mean([np.mean(s, axis=axis) for s in samples], axis=0)


def improvement(
    table: pd.DataFrame, experiment: str, left: Predicate, right: Predicate, names: tuple[str, str]
) -> Improvement | None:
    """Probability of improvement (as rliable reports it across tasks, here paired by seed): on each problem, per
    seed, the share of (left, right) method pairs in which the left one has the better headline value at their
    common budget (a tie counts ½); averaged over seeds, then over problems. Its 95% CI is the BCa bootstrap
    stratified by problem (seeds resampled within each problem, `scipy.stats.bootstrap` with one sample per
    problem). None if no problem has both sides."""
    wins: dict[str, list[pd.Series]] = {}
    for problem, rows, a, b in _pairs(table, experiment, left, right):
        d = advantages(rows, a, b)[1]
        wins.setdefault(problem, []).append((d > 0) + 0.5 * (d == 0))
    samples = {p: pd.concat(w, axis=1).mean(axis=1).dropna().to_numpy() for p, w in wins.items()}
    samples = {p: s for p, s in samples.items() if len(s)}
    if not samples:
        return None
    data = tuple(samples.values())
    estimate = float(_average(*data))
    lo, hi = bca(data, _average)
    return Improvement(*names, estimate, lo, hi, tuple(samples), tuple(len(s) for s in data))
