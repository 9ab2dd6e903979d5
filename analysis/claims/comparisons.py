"""Paired comparisons of two method settings on one problem, without any claim: the per-seed advantage of A over
B at their common budget, its statistics (`analysis.statistics.verdicts`), the per-problem table of such comparisons
that the paired figure draws, and the probability of improvement across problems.

Every method shares its initial design with the others for a given (problem, seed), so A and B are compared
through their per-seed differences, at the smaller of their final evaluation counts. The headline metric
("value") is compared against the problem's equivalence margin (`problems.margins`); diversity without one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from analysis.claims.selection import Predicate, member_names
from analysis.naming import problem_title, quantity_title
from analysis.statistics import robust, tail, verdicts
from analysis.data.resampling import bca
from analysis.statistics.verdicts import Paired
from problems.margins import Margin
from problems.margins import margin as problem_margin

#: a method is read only after this many completed BO iterations: a scheduled variant's first batch is uniform by
#: construction (λ_1 = 0), so a budget inside it compares random draws, not the method
MIN_ITERATIONS = 2
#: how a claim's comparisons pick their budgets: "final", each method at its own final budget (the paper compares
#: Seq-EI's and LogEI-MV's finals with the batch methods'); "equal", both at the smaller of their final budgets
BASES = ("final", "equal")


@dataclass(frozen=True)
class Compared:
    """One comparison: the unit (problem, pair index) it belongs to, A's and B's budgets (None: not a budget
    quantity; equal on the "equal" basis), its margin (None: none) and its statistics."""

    unit: tuple[str, int]
    budget: int | None
    margin: Margin | None
    stat: Paired
    look: int | None = None  # under planned looks: the look (1, 2, ...) at which it was decided, or the last one seen
    level: float | None = None  # the level its adjusted p was held to: α, or under planned looks its look's
    right_budget: int | None = None
    #: A's and B's stuck seeds among the compared seeds (the stuck-seed rule, `analysis.statistics.robust`: above k
    #: times the problem's typical final value, `stuck_above`), for a headline metric the rule reads; None otherwise
    stuck: tuple[int, int] | None = None
    stuck_above: float = float("nan")

    @property
    def budgets(self) -> tuple[int | None, int | None]:
        return self.budget, self.budget if self.right_budget is None else self.right_budget


def per_seed(rows: pd.DataFrame, column: str, budget: int | None) -> pd.Series:
    """`column` per seed: the value at `budget` (None: each trial's final), any other column at the final budget."""
    at = rows["budget"] == (rows["final_budget"] if budget is None or column != "value" else budget)
    return rows[at].groupby("seed")[column].mean().dropna()


def _iterations(rows: pd.DataFrame, budget: int | None) -> int:
    """The fewest BO iterations any of these trials completed by `budget` (None: by its final budget)."""
    spent = (rows["final_budget"] if budget is None else budget) - rows["n_init"]
    return int((spent // rows["batch_size"]).min())


@dataclass(frozen=True)
class Sides:
    """A and B per seed (the seeds both have) at their budgets, and whether lower is better."""

    budgets: tuple[int | None, int | None]
    a: pd.Series
    b: pd.Series
    lower_is_better: bool

    @property
    def advantage(self) -> pd.Series:
        return pd.Series(verdicts.advantage(self.a.to_numpy(), self.b.to_numpy(), self.lower_is_better), self.a.index)


def sides(
    rows: pd.DataFrame, a: str, b: str, quantity: tuple[str, str] = ("value", "value"), basis: str = "equal"
) -> Sides:
    """A's and B's values per seed on one problem (rows with a `member` column): the headline value at the smaller
    of their final budgets ("equal") or each at its own ("final"), other quantities at the final budget."""
    if basis not in BASES:
        raise ValueError(f"unknown comparison basis {basis!r}; one of {', '.join(BASES)}")
    left_col, right_col = quantity
    ra, rb = rows[rows["member"] == a], rows[rows["member"] == b]
    budgets: tuple[int | None, int | None] = (None, None)
    if "value" in quantity:
        if basis == "equal":
            common = int(min(ra["final_budget"].min(), rb["final_budget"].min()))
            budgets = (common, common)
        else:
            budgets = (int(ra["final_budget"].min()), int(rb["final_budget"].min()))
    sa, sb = per_seed(ra, left_col, budgets[0]), per_seed(rb, right_col, budgets[1])
    seeds = sa.index.intersection(sb.index)
    lower = bool(ra["lower_is_better"].iloc[0]) if left_col == "value" else False
    return Sides(budgets, sa[seeds], sb[seeds], lower)


def advantages(
    rows: pd.DataFrame, a: str, b: str, quantity: tuple[str, str] = ("value", "value"), basis: str = "equal"
) -> tuple[int | None, pd.Series]:
    """(A's budget, A's advantage over B per seed) on one problem (rows with a `member` column)."""
    found = sides(rows, a, b, quantity, basis)
    return found.budgets[0], found.advantage


def compare(
    rows: pd.DataFrame,
    a: str,
    b: str,
    unit: tuple[str, int],
    quantity: tuple[str, str] = ("value", "value"),
    relation: str = "better",
    basis: str = "equal",
    typical: float | None = None,
) -> Compared:
    """A's advantage over B per seed on one problem (rows with a `member` column) at the claim's basis; tested
    for `relation` against the problem's margin for the headline value (`problems.margins`). A comparison at a
    budget where either method has completed fewer than MIN_ITERATIONS BO iterations is not decided: its verdict
    reads NOT_COMPARABLE. Given the problem's `typical` final value (`typical_value`), each side's stuck seeds are
    counted (for the metrics the stuck rule reads, `robust_readings.yaml`)."""
    left_col, right_col = quantity
    found = sides(rows, a, b, quantity, basis)
    headline = quantity == ("value", "value")
    margin = problem_margin(unit[0], str(rows["metric"].iloc[0])) if headline else None
    if relation != "better" and margin is None:
        raise ValueError(f"{relation!r} on {unit[0]} [{left_col}] needs an equivalence margin: none is set")
    names = (a, b) if left_col == right_col else (f"{a} [{quantity_title(left_col)}]", f"{b} [{quantity_title(right_col)}]")
    tie = margin.sides(found.a.to_numpy(), found.b.to_numpy(), found.lower_is_better) if margin else None
    stat = verdicts.paired(*names, unit[0], found.advantage.to_numpy(), relation, tie, margin.text() if margin else None,
                           far_below=margin.far_below(tail.far_factor()) if margin else float("inf"))
    if headline and min(
        _iterations(rows[rows["member"] == m], budget) for m, budget in zip((a, b), found.budgets)
    ) < MIN_ITERATIONS:
        stat = replace(stat, verdict=verdicts.NOT_COMPARABLE)
    stuck, above = None, float("nan")
    reads_stuck = set(rows["metric"]) <= set(robust.rule()["metrics"])  # the stuck rule's metrics (regret)
    if headline and reads_stuck and typical is not None and np.isfinite(typical):
        stuck = (robust.stuck(found.a.to_numpy(), typical), robust.stuck(found.b.to_numpy(), typical))
        above = robust.stuck_factor() * typical
    return Compared(unit, found.budgets[0], margin, stat, right_budget=found.budgets[1], stuck=stuck, stuck_above=above)


def typical_value(rows: pd.DataFrame) -> float:
    """The problem's typical final value among these rows (one problem, with `member`): the median of its settings'
    median final values (`analysis.statistics.robust.reference`), what a stuck seed is measured against."""
    finals = rows[rows["budget"] == rows["final_budget"]]
    return robust.reference(finals.groupby("member")["value"].median().to_numpy()) if len(finals) else float("nan")


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


COLUMNS = ["problem", "left", "right", "budget", "n", "mean", "lo", "hi", "lower_is_better", "bound"]


def differences(table: pd.DataFrame, experiment: str, left: Predicate, right: Predicate) -> pd.DataFrame:
    """Per problem: every `left` method's paired advantage over each `right` method at their common budget, with
    its unadjusted BCa 95% CI (for figures); `bound`, the margin beside B's mean in the metric's units
    (`problems.margins.Margin.bound`; NaN without one). Columns: COLUMNS."""
    rows = []
    for problem, on_problem, a, b in _pairs(table, experiment, left, right):
        c = compare(on_problem, a, b, (problem, 0))
        s = c.stat
        lower = bool(on_problem["lower_is_better"].iloc[0])
        b_mean = float(sides(on_problem, a, b).b.mean())
        bound = c.margin.bound(b_mean) if c.margin is not None else np.nan
        rows.append(dict(zip(COLUMNS, (problem, a, b, c.budget, s.n, s.mean, s.lo, s.hi, lower, bound))))
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
        where = ", ".join(f"{problem_title(p)} ({n} seeds)" for p, n in zip(self.problems, self.seeds))
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
