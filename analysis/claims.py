"""The paper's quantitative claims (Sec. 6 and the appendices) checked against the tidy table.

Each claim is a small function of the tidy table returning a `Result`: the claim, where the paper makes it, the
measured counterpart (means with 95% bootstrap CIs over seeds) and a verdict computed from them, never written by
hand. Methods are selected by grid columns (method, acquisition, temperature, λ, sampler), not by display labels.

Verdict rules, per pairwise comparison of A with B on one problem (final values unless the claim says otherwise):
* "A better than B": holds if A's CI lies entirely on the better side of B's, does not hold if entirely on the worse
  side, else "inconclusive (CIs overlap)".
* "A matches or beats B": does not hold only if A's CI lies entirely on the worse side of B's; overlapping CIs
  (statistically indistinguishable) count as matching, so it holds otherwise.
* With a single seed a CI is undefined: "inconclusive (single seed)".
A claim holds if all its comparisons hold, does not hold if any does not, and is inconclusive otherwise. It is
"not measured" when its experiment or the methods it compares are absent. Problems the claim names but the table
lacks are listed in the measured text; the verdict covers the problems present.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analysis.naming import VARIANTS, ordered_problems
from analysis.summary import bootstrap_ci, final, final_values
from analysis.tables.best_lambda import candidates
from analysis.tables.common import with_ci
from analysis.tidy import TRIAL_COLUMNS

HOLDS = "holds"
FAILS = "does not hold"
OVERLAP = "inconclusive (CIs overlap)"
SINGLE = "inconclusive (single seed)"
NOT_MEASURED = "not measured"

SYNTHETIC = ("shekel4", "ackley5", "hartmann6")
SMOOTH = ("ackley5", "hartmann6")

#: the paper's Table 2: (problem, variant) -> λ (λ0 for scheduled variants)
PAPER_TABLE_2 = {
    ("shekel4", "LogEI-s"): 5.0,
    ("shekel4", "LogEI-c"): 1.0,
    ("shekel4", "UCB-s"): 1.0,
    ("shekel4", "UCB-c"): 5.0,
    ("ackley5", "LogEI-s"): 0.1,
    ("ackley5", "LogEI-c"): 1.0,
    ("ackley5", "UCB-s"): 5.0,
    ("ackley5", "UCB-c"): 10.0,
    ("hartmann6", "LogEI-s"): 0.1,
    ("hartmann6", "LogEI-c"): 0.1,
    ("hartmann6", "UCB-s"): 5.0,
    ("hartmann6", "UCB-c"): 10.0,
}

Predicate = Callable[[pd.DataFrame], pd.Series]


@dataclass(frozen=True)
class Stat:
    """Mean and 95% CI over seeds of one method on one problem."""

    name: str
    mean: float
    lo: float
    hi: float
    n: int
    lower_is_better: bool

    def text(self) -> str:
        return f"{self.name} {with_ci(self.mean, self.lo, self.hi)}"


@dataclass(frozen=True)
class Result:
    claim: str
    source: str
    experiment: str
    measured: str
    verdict: str


# --- verdicts ------------------------------------------------------------------------------------------------------


def _verdict(a: Stat, b: Stat, overlap: str) -> str:
    if a.n < 2 or b.n < 2:
        return SINGLE
    a_above, a_below = a.lo > b.hi, a.hi < b.lo
    better, worse = (a_below, a_above) if a.lower_is_better else (a_above, a_below)
    return HOLDS if better else FAILS if worse else overlap


def better(a: Stat, b: Stat) -> str:
    """Is A better than B (CIs separated on A's better side)?"""
    return _verdict(a, b, OVERLAP)


def matches_or_beats(a: Stat, b: Stat) -> str:
    """Is A not worse than B (CIs not separated on A's worse side)?"""
    return _verdict(a, b, HOLDS)


def combine(verdicts: list[str]) -> str:
    if not verdicts:
        return NOT_MEASURED
    if FAILS in verdicts:
        return FAILS
    if all(v == HOLDS for v in verdicts):
        return HOLDS
    return OVERLAP if OVERLAP in verdicts else SINGLE


# --- selections ------------------------------------------------------------------------------------------------------


def where(**equals: object) -> Predicate:
    """Rows whose columns equal the given values (λ compared with a tolerance)."""

    def predicate(df: pd.DataFrame) -> pd.Series:
        mask = pd.Series(True, index=df.index)
        for column, value in equals.items():
            mask &= np.isclose(df[column], value) if column == "lam" else df[column] == value
        return mask

    return predicate


def variant(name: str, **more: object) -> Predicate:
    """A paper B3O variant (e.g. "UCB-c"), optionally restricted further (lam=..., sampler=...)."""
    acquisition, temperature = VARIANTS[name]
    return where(method="b3o", acquisition=acquisition, temperature=temperature, **more)


def any_of(*predicates: Predicate) -> Predicate:
    return lambda df: np.logical_or.reduce([p(df) for p in predicates])


def but(predicate: Predicate, *excluded: Predicate) -> Predicate:
    return lambda df: predicate(df) & ~any_of(*excluded)(df)


def everything(df: pd.DataFrame) -> pd.Series:
    return pd.Series(True, index=df.index)


B3O = where(method="b3o")
FOUR_VARIANTS = any_of(*(variant(v) for v in VARIANTS))


def batch_method(df: pd.DataFrame) -> pd.Series:
    """Batch BO methods: batch size above one, random search excluded."""
    return (df["batch_size"] > 1) & (df["method"] != "random")


# --- comparisons -----------------------------------------------------------------------------------------------------

#: in these experiments one label covers several settings, so names carry the setting
_SETTING = {"lambda_ablation": lambda r: f" λ={r['lam']:g}", "sampler_ablation": lambda r: f" ({r['sampler']})"}


def stats(values: pd.DataFrame, experiment: str) -> list[Stat]:
    """One Stat per method setting (label, λ, sampler) among `values` (one row per trial, column `value`)."""
    out = []
    for _, runs in values.groupby(["label", "lam", "sampler"], dropna=False, sort=True):
        first = runs.iloc[0]
        name = first["label"] + _SETTING.get(experiment, lambda r: "")(first)
        mean, lo, hi = bootstrap_ci(runs["value"])
        out.append(Stat(name, mean, lo, hi, int(runs["value"].notna().sum()), bool(first["lower_is_better"])))
    return out


def compare(
    claim: str,
    source: str,
    values: pd.DataFrame,
    experiment: str,
    left: Predicate,
    right: Predicate,
    relation: Callable[[Stat, Stat], str],
    problems: tuple[str, ...] | None = None,
) -> Result:
    """Compare every left method with every right method on each problem; see the module docstring for verdicts."""
    data = values[values["experiment"] == experiment]
    if data.empty:
        return Result(claim, source, experiment, f"experiment '{experiment}' is not in the table", NOT_MEASURED)
    expected = list(problems) if problems else ordered_problems(data["problem"])
    present = [p for p in expected if p in set(data["problem"])]
    lines, verdicts = [], []
    for problem in present:
        rows = data[data["problem"] == problem]
        lefts, rights = stats(rows[left(rows)], experiment), stats(rows[right(rows)], experiment)
        if not lefts or not rights:
            lines.append(f"{problem}: no runs of the {'first' if not lefts else 'second'} group of methods")
            continue
        pairs = [(a, b, relation(a, b)) for a in lefts for b in rights if a.name != b.name]
        verdicts += [v for _, _, v in pairs]
        shown = lefts + [b for b in rights if b not in lefts]
        exceptions = [f"{a.name} vs {b.name}: {v}" for a, b, v in pairs if v != HOLDS]
        lines.append(
            f"{problem}: " + "; ".join(s.text() for s in shown) + (f" → {'; '.join(exceptions)}" if exceptions else "")
        )
    missing = [p for p in expected if p not in present]
    if missing:
        lines.append(f"not in the table: {', '.join(missing)}")
    return Result(claim, source, experiment, "\n".join(lines), combine(verdicts))


def mean_diversity(df: pd.DataFrame) -> pd.DataFrame:
    """Per trial: batch diversity averaged over its BO iterations (t ≥ 1), as a `value` to compare (higher better)."""
    batches = df[(df["iteration"] >= 1) & df["diversity"].notna()]
    trial_columns = [c for c in TRIAL_COLUMNS if c in df.columns]
    means = batches.groupby(["experiment", "trial_id"], as_index=False)["diversity"].mean()
    per_trial = batches.drop_duplicates(["experiment", "trial_id"])[trial_columns]
    return (
        per_trial.merge(means, on=["experiment", "trial_id"])
        .rename(columns={"diversity": "value"})
        .assign(lower_is_better=False)
    )


# --- the claims -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Comparison:
    """A claim that is one comparison: every `left` method against every `right` one, per problem."""

    name: str
    claim: str
    source: str
    experiment: str
    left: Predicate
    right: Predicate
    relation: Callable[[Stat, Stat], str]
    problems: tuple[str, ...] | None = None
    values: Callable[[pd.DataFrame], pd.DataFrame] = final_values  # one `value` per trial

    def __call__(self, df: pd.DataFrame) -> Result:
        return compare(
            self.claim,
            self.source,
            self.values(df),
            self.experiment,
            self.left,
            self.right,
            self.relation,
            self.problems,
        )


COMPARISONS = (
    Comparison(
        "b3o_beats_ts_b100",
        "All four B3O variants reach a lower final regret than TS on every benchmark (B = 100)",
        "Sec. 6.1",
        "synthetic_b100",
        FOUR_VARIANTS,
        where(method="ts"),
        better,
        SYNTHETIC,
    ),
    Comparison(
        "batch_beats_random_b100",
        "All batch methods reach a lower final regret than random search (B = 100)",
        "Sec. 6.1",
        "synthetic_b100",
        batch_method,
        where(method="random"),
        better,
        SYNTHETIC,
    ),
    Comparison(
        "batch_matches_seq_ei",
        "On Ackley and Hartmann the batch methods (B3O, TS) match or beat Seq-EI's final regret (B = 100)",
        "Sec. 6.1",
        "synthetic_b100",
        batch_method,
        where(method="seq-ei"),
        matches_or_beats,
        SMOOTH,
    ),
    Comparison(
        "logei_c_best_batch",
        "B3O-LogEI-c reaches the lowest final regret among batch methods on Ackley and Hartmann (B = 100)",
        "Fig. 3 caption",
        "synthetic_b100",
        variant("LogEI-c"),
        but(batch_method, variant("LogEI-c")),
        better,
        SMOOTH,
    ),
    Comparison(
        "seq_ei_best_on_shekel",
        "On Shekel, Seq-EI reaches the lowest final regret of all methods (B = 100)",
        "Sec. 6.1",
        "synthetic_b100",
        where(method="seq-ei"),
        but(everything, where(method="seq-ei")),
        better,
        ("shekel4",),
    ),
    Comparison(
        "ucb_s_best_parallel_on_shekel",
        "On Shekel, B3O-UCB-s is the best parallel method (B = 100)",
        "Sec. 6.1",
        "synthetic_b100",
        variant("UCB-s"),
        but(batch_method, variant("UCB-s")),
        better,
        ("shekel4",),
    ),
    Comparison(
        "constant_beats_ts",
        "A constant temperature suffices to beat TS: B3O-UCB-c and B3O-LogEI-c reach a lower final regret "
        "than TS on all three benchmarks (B = 100)",
        "Sec. 6.1",
        "synthetic_b100",
        any_of(variant("UCB-c"), variant("LogEI-c")),
        where(method="ts"),
        better,
        SYNTHETIC,
    ),
    Comparison(
        "b3o_matches_qei_lp_b5",
        "At B = 5 every B3O variant matches or beats q-EI and LP on Ackley and Hartmann",
        "Sec. 6.1",
        "synthetic_b5",
        B3O,
        any_of(where(method="qei"), where(method="lp")),
        matches_or_beats,
        SMOOTH,
    ),
    Comparison(
        "ucb_s_best_on_shekel_b5",
        "At B = 5 on Shekel, B3O-UCB-s reaches the lowest final regret",
        "Sec. 6.1",
        "synthetic_b5",
        variant("UCB-s"),
        but(everything, variant("UCB-s")),
        better,
        ("shekel4",),
    ),
    Comparison(
        "lp_second_on_shekel_b5",
        "At B = 5 on Shekel, LP is the next best after B3O-UCB-s",
        "Sec. 6.1",
        "synthetic_b5",
        where(method="lp"),
        but(everything, where(method="lp"), variant("UCB-s")),
        better,
        ("shekel4",),
    ),
    Comparison(
        "ucb_s_beats_ucb_c_b5",
        "At B = 5 on Shekel, B3O-UCB-c is weaker than B3O-UCB-s",
        "Sec. 6.1",
        "synthetic_b5",
        variant("UCB-s"),
        variant("UCB-c"),
        better,
        ("shekel4",),
    ),
    Comparison(
        "battery_constant_beats_scheduled",
        "Battery: constant-λ B3O-EHVI reaches a higher final hypervolume than scheduled",
        "Sec. 6.2",
        "battery",
        where(method="b3o", temperature="constant"),
        where(method="b3o", temperature="scheduled"),
        better,
    ),
    Comparison(
        "battery_matches_seq_ehvi",
        "Battery: B3O-EHVI matches sequential EHVI's final hypervolume with the same budget",
        "Sec. 6.2",
        "battery",
        B3O,
        where(method="seq-ehvi"),
        matches_or_beats,
    ),
    Comparison(
        "formula_e_b3o_best",
        "Formula E: all four B3O variants reach a lower final objective than TS and LogEI-MV",
        "Sec. 6.3",
        "formula_e",
        B3O,
        any_of(where(method="ts"), where(method="logei-mv")),
        better,
    ),
    Comparison(
        "b3o_more_diverse_than_ts",
        "B3O keeps a higher batch diversity than TS (mean over BO iterations, B = 100)",
        "App. E",
        "synthetic_b100",
        B3O,
        where(method="ts"),
        better,
        SYNTHETIC,
        values=mean_diversity,
    ),
    Comparison(
        "ucb_c_low_lambda_worse",
        "Constant UCB degrades at low λ: λ ∈ {5, 10} reach a lower final regret than λ = 0.1",
        "App. C.1, Fig. 9",
        "lambda_ablation",
        any_of(variant("UCB-c", lam=5.0), variant("UCB-c", lam=10.0)),
        variant("UCB-c", lam=0.1),
        better,
    ),
    Comparison(
        "logei_s_high_lambda_worse",
        "Scheduled LogEI deteriorates with large λ0: λ0 = 0.1 reaches a lower final regret than "
        "λ0 ∈ {5, 10} on Ackley and Hartmann",
        "App. C.1, Fig. 10",
        "lambda_ablation",
        variant("LogEI-s", lam=0.1),
        any_of(variant("LogEI-s", lam=5.0), variant("LogEI-s", lam=10.0)),
        better,
        SMOOTH,
    ),
)


def ts_diversity_drops(df: pd.DataFrame) -> Result:
    """TS's first batch against its last, as two pseudo-methods."""
    ts = df[(df["method"] == "ts") & (df["iteration"] >= 1) & df["diversity"].notna()]
    first = ts[ts["iteration"] == 1].assign(label="TS first batch")
    last = final(ts).assign(label="TS last batch")
    values = pd.concat([first, last]).rename(columns={"diversity": "value"}).assign(lower_is_better=False)
    return compare(
        "TS batch diversity drops between the first and the last BO iteration (B = 100)",
        "App. E",
        values,
        "synthetic_b100",
        where(label="TS first batch"),
        where(label="TS last batch"),
        better,
        SYNTHETIC,
    )


def _lambda_stat(row: pd.Series) -> Stat:
    return Stat(f"λ={row['lam']:g}", row["mean"], row["lo"], row["hi"], int(row["n"]), True)


def table_2_reproduced(df: pd.DataFrame) -> Result:
    """Per (function, variant): the selected λ equals the paper's; a different pick whose CI overlaps the paper's
    λ's is inconclusive; the paper's λ not run is not measured."""
    claim = "The best λ per function and variant (min. mean final regret) equals the paper's Table 2"
    found = candidates(df)
    if found.empty:
        return Result(claim, "App. C.1, Table 2", "lambda_ablation", "no λ-ablation runs in the table", NOT_MEASURED)
    lines, verdicts = [], []
    for (problem, name), paper_lam in PAPER_TABLE_2.items():
        cell = found[(found["problem"] == problem) & (found["variant"] == name)]
        paper = cell[np.isclose(cell["lam"], paper_lam)]
        if paper.empty:
            continue
        pick = cell[cell["selected"]].iloc[0]
        if np.isclose(pick["lam"], paper_lam):
            verdict = HOLDS
        else:  # the paper's λ is beaten: clearly (its CI above the pick's), or within noise
            separated = better(_lambda_stat(pick), _lambda_stat(paper.iloc[0]))
            verdict = FAILS if separated == HOLDS else SINGLE if separated == SINGLE else OVERLAP
        verdicts.append(verdict)
        paper_text = "" if verdict == HOLDS else f": {_lambda_stat(paper.iloc[0]).text()} → {verdict}"
        lines.append(f"{problem} {name}: selected {_lambda_stat(pick).text()}; paper λ={paper_lam:g}{paper_text}")
    measured = "\n".join(lines) if lines else "none of the paper's (function, variant, λ) cells were run"
    return Result(claim, "App. C.1, Table 2", "lambda_ablation", measured, combine(verdicts))


def defer_best_sampler(df: pd.DataFrame) -> Result:
    """Samplers compared within each variant, never across."""
    values = final_values(df)
    parts = [
        compare(
            "",
            "",
            values,
            "sampler_ablation",
            variant(v, sampler="defer"),
            but(variant(v), where(sampler="defer"), where(sampler="defer-is")),  # defer-is is beyond the paper
            better,
            SMOOTH,
        )
        for v in VARIANTS
    ]
    return merge(
        "DEFER gives the lowest final regret of the samplers, for every variant, on Ackley and Hartmann",
        "App. D",
        "sampler_ablation",
        dict(zip(VARIANTS, parts)),
    )


def merge(claim: str, source: str, experiment: str, parts: dict[str, Result]) -> Result:
    """One claim from several sub-comparisons; parts that measured nothing are reported but not judged."""
    measured = "\n".join(f"{name}: {line}" for name, part in parts.items() for line in part.measured.split("\n"))
    verdicts = [part.verdict for part in parts.values() if part.verdict != NOT_MEASURED]
    return Result(claim, source, experiment, measured, combine(verdicts))


#: every claim by name, in the order of the claims table
CLAIMS: dict[str, Callable[[pd.DataFrame], Result]] = {
    **{c.name: c for c in COMPARISONS if c.experiment != "lambda_ablation"},
    "ts_diversity_drops": ts_diversity_drops,
    "table_2_reproduced": table_2_reproduced,
    **{c.name: c for c in COMPARISONS if c.experiment == "lambda_ablation"},
    "defer_best_sampler": defer_best_sampler,
}


def check_all(df: pd.DataFrame) -> list[Result]:
    return [claim(df) for claim in CLAIMS.values()]
