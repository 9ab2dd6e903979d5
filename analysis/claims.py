"""The paper's quantitative claims (Sec. 6 and the appendices), as data, checked against the per-trial table.

Each claim names an experiment, the problems it covers, pairs of method groups ("slots", selected by grid columns,
not display labels) and a relation from `analysis.verdicts.RELATIONS`. Checking a claim compares every method of a
left slot with every method of its right slot on each problem, paired by seed, at the smaller of the two methods'
final evaluation counts; `analysis.verdicts` decides each comparison and the claim. A (problem, slot pair) whose
problem or methods were not run is missing: the claim then says "holds on k of n" at best and lists what is missing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analysis import verdicts
from analysis.formatting import number, signed
from analysis.naming import VARIANTS, ordered_problems
from analysis.verdicts import FAILS, FEW, HOLDS, INCONCLUSIVE, NOT_MEASURED, Paired
from baselines.paper import TABLE_2

SYNTHETIC = ("shekel4", "ackley5", "hartmann6")
SMOOTH = ("ackley5", "hartmann6")

#: the paper's Table 2 (`baselines.paper`) by cell: (problem, variant) -> λ (λ0 for scheduled variants)
PAPER_TABLE_2 = {(problem, name): lam for problem, row in TABLE_2.items() for name, lam in zip(VARIANTS, row)}

Predicate = Callable[[pd.DataFrame], pd.Series]
#: columns that identify one method setting within an experiment
SETTING = ["label", "acquisition", "temperature", "lam", "sampler"]


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
    return lambda df: pd.Series(np.logical_or.reduce([p(df) for p in predicates]), index=df.index)


def but(predicate: Predicate, *excluded: Predicate) -> Predicate:
    return lambda df: predicate(df) & ~any_of(*excluded)(df)


def everything(df: pd.DataFrame) -> pd.Series:
    return pd.Series(True, index=df.index)


def batch_method(df: pd.DataFrame) -> pd.Series:
    """The paper's batch BO methods: batch size above one; random search and our scale-free-λ B3O row excluded."""
    return (df["batch_size"] > 1) & (df["method"] != "random") & (df["temperature"] != "normalised")


@dataclass(frozen=True)
class Slot:
    """A named group of method settings that a claim compares ("B3O-UCB-c", "batch methods")."""

    name: str
    select: Predicate


B3O = Slot("B3O", where(method="b3o"))
TS = Slot("TS", where(method="ts"))
VARIANT_SLOTS = tuple(Slot(f"B3O-{v}", variant(v)) for v in VARIANTS)


def against(lefts: tuple[Slot, ...], rights: tuple[Slot, ...]) -> tuple[tuple[Slot, Slot], ...]:
    """Every left slot against every right slot."""
    return tuple((a, b) for a in lefts for b in rights)


# --- the catalogue ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    """One claim: `relation` between the slots of each pair, on each problem (None: every problem run).

    `quantity` names the per-trial columns compared on the left and the right: "value" is the headline metric at
    the matched budget; "diversity", "diversity_first", "diversity_last" are compared as higher-is-better.
    `margin` is the equivalence margin of "matches_or_beats", as a fraction of the range of the methods' means.
    `beyond_paper` marks a question the paper does not state as a claim; it is checked the same way, counted apart.
    """

    name: str
    text: str
    source: str
    experiment: str
    relation: str
    pairs: tuple[tuple[Slot, Slot], ...]
    problems: tuple[str, ...] | None = None
    quantity: tuple[str, str] = ("value", "value")
    margin: float = verdicts.MARGIN_FRACTION
    beyond_paper: bool = False


CATALOGUE = (
    Claim(
        "b3o_beats_ts_b100",
        "All four B3O variants reach a lower final regret than TS on every benchmark",
        "Sec. 6.1 (B = 100)",
        "synthetic_b100",
        "better",
        against(VARIANT_SLOTS, (TS,)),
        SYNTHETIC,
    ),
    Claim(
        "batch_beats_random_b100",
        "All batch methods reach a lower final regret than random search",
        "Sec. 6.1 (B = 100)",
        "synthetic_b100",
        "better",
        ((Slot("batch methods", batch_method), Slot("Random", where(method="random"))),),
        SYNTHETIC,
    ),
    Claim(
        "batch_matches_seq_ei",
        "On Ackley and Hartmann the batch methods (B3O, TS) match or beat Seq-EI's regret",
        "Sec. 6.1 (B = 100)",
        "synthetic_b100",
        "matches_or_beats",
        ((Slot("batch methods", batch_method), Slot("Seq-EI", where(method="seq-ei"))),),
        SMOOTH,
    ),
    Claim(
        "logei_c_best_batch",
        "B3O-LogEI-c reaches the lowest final regret among batch methods on Ackley and Hartmann",
        "Fig. 3 caption (B = 100)",
        "synthetic_b100",
        "better",
        (
            (
                Slot("B3O-LogEI-c", variant("LogEI-c")),
                Slot("other batch methods", but(batch_method, variant("LogEI-c"))),
            ),
        ),
        SMOOTH,
    ),
    Claim(
        "seq_ei_best_on_shekel",
        "On Shekel, Seq-EI reaches the lowest regret of all methods",
        "Sec. 6.1 (B = 100)",
        "synthetic_b100",
        "better",
        ((Slot("Seq-EI", where(method="seq-ei")), Slot("all other methods", but(everything, where(method="seq-ei")))),),
        ("shekel4",),
    ),
    Claim(
        "ucb_s_best_parallel_on_shekel",
        "On Shekel, B3O-UCB-s is the best parallel method",
        "Sec. 6.1 (B = 100)",
        "synthetic_b100",
        "better",
        ((Slot("B3O-UCB-s", variant("UCB-s")), Slot("other batch methods", but(batch_method, variant("UCB-s")))),),
        ("shekel4",),
    ),
    Claim(
        "constant_beats_ts",
        "A constant temperature suffices to beat TS: B3O-UCB-c and B3O-LogEI-c reach a lower final regret than TS "
        "on all three benchmarks",
        "Sec. 6.1 (B = 100)",
        "synthetic_b100",
        "better",
        against((Slot("B3O-UCB-c", variant("UCB-c")), Slot("B3O-LogEI-c", variant("LogEI-c"))), (TS,)),
        SYNTHETIC,
    ),
    Claim(
        "b3o_matches_qei_lp_b5",
        "At B = 5 every B3O variant matches or beats q-EI and LP on Ackley and Hartmann",
        "Sec. 6.1 (B = 5)",
        "synthetic_b5",
        "matches_or_beats",
        against(VARIANT_SLOTS, (Slot("q-EI", where(method="qei")), Slot("LP", where(method="lp")))),
        SMOOTH,
    ),
    Claim(
        "ucb_s_best_on_shekel_b5",
        "At B = 5 on Shekel, B3O-UCB-s reaches the lowest final regret",
        "Sec. 6.1 (B = 5)",
        "synthetic_b5",
        "better",
        ((Slot("B3O-UCB-s", variant("UCB-s")), Slot("all other methods", but(everything, variant("UCB-s")))),),
        ("shekel4",),
    ),
    Claim(
        "lp_second_on_shekel_b5",
        "At B = 5 on Shekel, LP is the next best after B3O-UCB-s",
        "Sec. 6.1 (B = 5)",
        "synthetic_b5",
        "better",
        (
            (
                Slot("LP", where(method="lp")),
                Slot("others but B3O-UCB-s", but(everything, where(method="lp"), variant("UCB-s"))),
            ),
        ),
        ("shekel4",),
    ),
    Claim(
        "ucb_s_beats_ucb_c_b5",
        "At B = 5 on Shekel, B3O-UCB-c is weaker than B3O-UCB-s",
        "Sec. 6.1 (B = 5)",
        "synthetic_b5",
        "better",
        ((Slot("B3O-UCB-s", variant("UCB-s")), Slot("B3O-UCB-c", variant("UCB-c"))),),
        ("shekel4",),
    ),
    Claim(
        "battery_constant_beats_scheduled",
        "Battery: constant-λ B3O-EHVI reaches a higher final hypervolume than scheduled",
        "Sec. 6.2 (B = 50)",
        "battery",
        "better",
        (
            (
                Slot("B3O constant", where(method="b3o", temperature="constant")),
                Slot("B3O scheduled", where(method="b3o", temperature="scheduled")),
            ),
        ),
        ("battery",),
    ),
    Claim(
        "battery_matches_seq_ehvi",
        "Battery: B3O-EHVI matches sequential EHVI's hypervolume with the same budget",
        "Sec. 6.2 (B = 50)",
        "battery",
        "matches_or_beats",
        ((B3O, Slot("Seq-EHVI", where(method="seq-ehvi"))),),
        ("battery",),
    ),
    Claim(
        "formula_e_b3o_best",
        "Formula E: all four B3O variants reach a lower final objective than TS and LogEI-MV",
        "Sec. 6.3",
        "formula_e",
        "better",
        against(VARIANT_SLOTS, (TS, Slot("LogEI-MV", where(method="logei-mv")))),
        ("formula-e",),
    ),
    Claim(
        "b3o_more_diverse_than_ts",
        "B3O keeps a higher batch diversity than TS (mean over the BO iterations with λ_t > 0 for every B3O trial)",
        "App. E (B = 100)",
        "synthetic_b100",
        "better",
        against(VARIANT_SLOTS, (TS,)),
        SYNTHETIC,
        ("diversity", "diversity"),
    ),
    Claim(
        "ts_diversity_drops",
        "TS batch diversity drops between the first and the last BO iteration",
        "App. E (B = 100)",
        "synthetic_b100",
        "better",
        ((TS, TS),),
        SYNTHETIC,
        ("diversity_first", "diversity_last"),
    ),
    Claim(
        "ucb_c_low_lambda_worse",
        "Constant UCB degrades at low λ: λ ∈ {5, 10} reach a lower final regret than λ = 0.1",
        "App. C.1, Fig. 9",
        "lambda_ablation",
        "better",
        against(
            (Slot("UCB-c λ=5", variant("UCB-c", lam=5.0)), Slot("UCB-c λ=10", variant("UCB-c", lam=10.0))),
            (Slot("UCB-c λ=0.1", variant("UCB-c", lam=0.1)),),
        ),
        SYNTHETIC,
    ),
    Claim(
        "logei_s_high_lambda_worse",
        "Scheduled LogEI deteriorates with large λ0: λ0 = 0.1 reaches a lower final regret than λ0 ∈ {5, 10} on "
        "Ackley and Hartmann",
        "App. C.1, Fig. 10",
        "lambda_ablation",
        "better",
        against(
            (Slot("LogEI-s λ0=0.1", variant("LogEI-s", lam=0.1)),),
            (Slot("LogEI-s λ0=5", variant("LogEI-s", lam=5.0)), Slot("LogEI-s λ0=10", variant("LogEI-s", lam=10.0))),
        ),
        SMOOTH,
    ),
    Claim(
        "defer_best_sampler",
        "DEFER gives the lowest final regret of the samplers, for every variant, on Ackley and Hartmann",
        "App. D",
        "sampler_ablation",
        "better",
        tuple(
            (
                Slot(f"B3O-{v} DEFER", variant(v, sampler="defer")),
                # defer-is (importance-corrected DEFER) is beyond the paper: not one of the "other samplers"
                Slot(f"B3O-{v} other samplers", but(variant(v), where(sampler="defer"), where(sampler="defer-is"))),
            )
            for v in VARIANTS
        ),
        SMOOTH,
    ),
    Claim(
        "normalised_lambda_matches_tuned",
        "One scale-free λ for every problem (B3O-LogEI with the `normalised` temperature, λ = 2 on α standardised over "
        "a fixed reference set) matches or beats B3O-LogEI-c with Table 2's per-function λ",
        "Beyond the paper (Sec. 7 asks for a λ that needs no tuning)",
        "synthetic_b100",
        "matches_or_beats",
        (
            (
                Slot("B3O-LogEI-n", where(method="b3o", acquisition="logei", temperature="normalised")),
                Slot("B3O-LogEI-c (Table 2 λ)", variant("LogEI-c")),
            ),
        ),
        beyond_paper=True,
    ),
    Claim(
        "battery_b3o_beats_random",
        "Battery: every B3O variant reaches a higher final hypervolume than random search at equal evaluations",
        "Beyond the paper (a floor for Sec. 6.2)",
        "battery",
        "better",
        ((B3O, Slot("Random", where(method="random"))),),
        ("battery",),
        beyond_paper=True,
    ),
    Claim(
        "formula_e_b3o_beats_random",
        "Formula E: every B3O variant reaches a lower final objective than random search at equal evaluations",
        "Beyond the paper (a floor for Sec. 6.3)",
        "formula_e",
        "better",
        against(VARIANT_SLOTS, (Slot("Random", where(method="random")),)),
        ("formula-e",),
        beyond_paper=True,
    ),
)


# --- checking a claim -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    """A checked claim; `run` is what was actually run (B × T, seeds, budgets compared)."""

    name: str
    claim: str
    source: str
    experiment: str
    run: str
    measured: str
    verdict: str
    seeds_needed: int | None = None
    beyond_paper: bool = False


@dataclass(frozen=True)
class Compared:
    """One comparison of a claim before its verdict: the unit (problem, pair) it belongs to and its budget."""

    unit: tuple[str, int]
    budget: int | None
    margin: float | None
    stat: Paired



def _result(claim: Claim, run: str, lines: list[str], verdict: str, compared: list) -> Result:
    """The checked claim; an inconclusive one carries the most seeds any of its comparisons needs."""
    needed = [c.stat.seeds_needed for c in compared if c.stat.seeds_needed is not None]
    seeds = max(needed) if needed and verdict.startswith(INCONCLUSIVE) else None
    return Result(
        claim.name, claim.text, claim.source, claim.experiment, run, "\n".join(lines), verdict, seeds, claim.beyond_paper
    )

def member_names(data: pd.DataFrame) -> pd.Series:
    """Display name per row: the label, plus the settings (λ, sampler, temperature) that tell apart settings
    sharing one label within the experiment."""
    names = data["label"].astype(str)
    for column, text in (("lam", " λ={:g}"), ("sampler", " ({})"), ("temperature", " {}")):
        varies = data.groupby("label")[column].transform(lambda s: s.nunique(dropna=True) > 1)
        suffix = [
            text.format(v) if vary and not pd.isna(v) and v != "" else "" for v, vary in zip(data[column], varies)
        ]
        names = names + pd.Series(suffix, index=data.index)
    return names


def _per_seed(rows: pd.DataFrame, column: str, budget: int | None) -> pd.Series:
    chosen = rows[rows["budget"] == budget] if column == "value" else rows[rows["budget"] == rows["final_budget"]]
    return chosen.groupby("seed")[column].mean().dropna()


def _margin(rows: pd.DataFrame, column: str, budget: int | None, fraction: float) -> float:
    """`fraction` of the range of the methods' means of `column` (at `budget` for values) on one problem."""
    chosen = rows[rows["budget"] == budget] if column == "value" else rows[rows["budget"] == rows["final_budget"]]
    means = chosen.groupby("member")[column].mean().dropna()
    return fraction * float(means.max() - means.min()) if len(means) else np.nan


def _compare(claim: Claim, rows: pd.DataFrame, a: str, b: str, unit: tuple[str, int]) -> Compared:
    """A's advantage over B per seed on one problem, at the smaller of their final budgets."""
    left_col, right_col = claim.quantity
    ra, rb = rows[rows["member"] == a], rows[rows["member"] == b]
    budget = int(min(ra["final_budget"].min(), rb["final_budget"].min())) if "value" in claim.quantity else None
    sa, sb = _per_seed(ra, left_col, budget), _per_seed(rb, right_col, budget)
    seeds = sa.index.intersection(sb.index)
    lower = bool(ra["lower_is_better"].iloc[0]) if left_col == "value" else False
    diffs = verdicts.advantage(sa[seeds].to_numpy(), sb[seeds].to_numpy(), lower)
    margin = _margin(rows, left_col, budget, claim.margin) if claim.relation == "matches_or_beats" else None
    names = (a, b) if left_col == right_col else (f"{a} [{left_col}]", f"{b} [{right_col}]")
    stat = verdicts.paired(*names, unit[0], diffs, -margin if margin is not None else 0.0)
    return Compared(unit, budget, margin, stat)


def check(claim: Claim, table: pd.DataFrame) -> Result:
    """Check one claim against the per-trial table; see the module docstring."""
    data = table[table["experiment"] == claim.experiment]
    if data.empty:
        return Result(
            claim.name,
            claim.text,
            claim.source,
            claim.experiment,
            "–",
            f"experiment '{claim.experiment}' was not run",
            NOT_MEASURED,
            beyond_paper=claim.beyond_paper,
        )
    data = data.assign(member=member_names(data))
    problems = list(claim.problems) if claim.problems else ordered_problems(data["problem"])
    compared, missing, involved = [], [], []
    for problem in problems:
        rows = data[data["problem"] == problem]
        if rows.empty:
            missing.append(problem)
            continue
        for index, (left, right) in enumerate(claim.pairs):
            lefts = sorted(rows.loc[left.select(rows), "member"].unique())
            rights = sorted(rows.loc[right.select(rows), "member"].unique())
            pairs = [(a, b) for a in lefts for b in rights if a != b or claim.quantity[0] != claim.quantity[1]]
            if not pairs:
                absent = [s.name for s, found in ((left, lefts), (right, rights)) if not found] or [right.name]
                missing += [f"{problem}: {name}" for name in absent]
                continue
            compared += [_compare(claim, rows, a, b, (problem, index)) for a, b in pairs]
            involved += [rows[rows["member"].isin([a, b])] for a, b in pairs]
    decided = verdicts.decide([c.stat for c in compared])
    compared = [Compared(c.unit, c.budget, c.margin, s) for c, s in zip(compared, decided)]
    units = {}
    for c in compared:
        units.setdefault(c.unit, []).append(c.stat.verdict)
    verdict = verdicts.combine([verdicts.combine(v) for v in units.values()], len(problems) * len(claim.pairs))
    lines = _lines(compared, data, claim)
    if missing:
        lines.append("not run: " + missing_text(missing))
    run = run_text(pd.concat(involved) if involved else data.iloc[:0], compared)
    return _result(claim, run, lines, verdict, compared)


def missing_text(missing: list[str]) -> str:
    """ "shekel4; ackley5: B3O-UCB-s, TS" from ["shekel4", "ackley5: B3O-UCB-s", "ackley5: TS"]."""
    by_problem: dict[str, list[str]] = {}
    for item in missing:
        problem, _, what = item.partition(": ")
        by_problem.setdefault(problem, [])
        if what and what not in by_problem[problem]:
            by_problem[problem].append(what)
    return "; ".join(f"{p}: {', '.join(w)}" if w else p for p, w in by_problem.items())


def comparison_text(c: Compared) -> str:
    s = c.stat
    at = f" at {c.budget} evals" if c.budget is not None else ""
    if s.n < 2:
        return f"{s.left} vs {s.right}{at}: Δ {number(s.mean)} ({s.n} seed{'' if s.n == 1 else 's'}) → {s.verdict}"
    margin = f", margin {number(c.margin)}" if c.margin is not None else ""
    needs = f", ≈{s.seeds_needed} seeds would decide it" if s.seeds_needed else ""
    return (
        f"{s.left} vs {s.right}{at}: Δ {signed(s.mean)} [{number(s.lo)}, {number(s.hi)}]{margin}, "
        f"{s.n} seeds{p_text(s.p_holm)} → {s.verdict}{needs}"
    )


def p_text(p: float) -> str:
    """ ", p_Holm 0.03" (0: no resample crossed the threshold); nothing for a comparison too small to decide."""
    if np.isnan(p):
        return ""
    return f", p_Holm < {1 / verdicts.NUM_RESAMPLES:.0e}" if p == 0 else f", p_Holm {p:.2g}"


def _lines(compared: list[Compared], data: pd.DataFrame, claim: Claim) -> list[str]:
    """One line per problem: its comparisons; diversity lines say which iterations were skipped."""
    lines = []
    for problem in dict.fromkeys(c.unit[0] for c in compared):
        note = ""
        if "diversity" in claim.quantity:
            skipped = set(data.loc[data["problem"] == problem, "diversity_skipped"]) - {""}
            note = f" (iterations t = {', '.join(sorted(skipped))} skipped: λ_t = 0)" if skipped else ""
        lines.append(f"{problem}{note}: " + "; ".join(comparison_text(c) for c in compared if c.unit[0] == problem))
    return lines


def run_text(rows: pd.DataFrame, compared: list[Compared]) -> str:
    """What was run: B × T of the compared methods (exceptions by label), their seeds, the budgets compared."""
    if rows.empty:
        return "–"
    trials = rows.drop_duplicates(["trial_id"])
    settings = trials.groupby(["batch_size", "iterations"])["label"].agg(lambda s: sorted(set(s)))
    size = trials.groupby(["batch_size", "iterations"]).size()
    common = max(size.index, key=lambda key: (size[key], key))  # the most trials; on a tie, the larger batch
    parts = [f"B = {common[0]}, T = {common[1]}"]
    parts += [f"{', '.join(labels)}: B = {b}, T = {t}" for (b, t), labels in settings.items() if (b, t) != common]
    seeds = sorted(set(trials.groupby(SETTING, dropna=False)["seed"].nunique()))
    parts.append(f"{seeds[0]}{'–' + str(seeds[-1]) if len(seeds) > 1 else ''} seed{'' if seeds == [1] else 's'}")
    budgets = sorted({c.budget for c in compared if c.budget is not None})
    if budgets:
        parts.append("compared at " + ", ".join(map(str, budgets)) + " evals")
    return "; ".join(parts)


def differences(table: pd.DataFrame, experiment: str, left: Predicate, right: Predicate) -> pd.DataFrame:
    """Per problem: every `left` method's paired advantage over each `right` method at their common budget, with
    its unadjusted 95% CI (for figures). Columns: problem, left, right, budget, n, mean, lo, hi, lower_is_better."""
    claim = Claim("differences", "", "", experiment, "better", ((Slot("left", left), Slot("right", right)),))
    data = table[table["experiment"] == experiment]
    data = data.assign(member=member_names(data))
    rows = []
    for problem, on_problem in data.groupby("problem", sort=False):
        lefts = sorted(on_problem.loc[left(on_problem), "member"].unique())
        rights = sorted(on_problem.loc[right(on_problem), "member"].unique())
        for a in lefts:
            for b in (b for b in rights if b != a):
                c = _compare(claim, on_problem, a, b, (problem, 0))
                lower = bool(on_problem["lower_is_better"].iloc[0])
                rows.append(
                    {
                        "problem": problem,
                        "left": a,
                        "right": b,
                        "budget": c.budget,
                        "n": c.stat.n,
                        "mean": c.stat.mean,
                        "lo": c.stat.lo,
                        "hi": c.stat.hi,
                        "lower_is_better": lower,
                    }
                )
    columns = ["problem", "left", "right", "budget", "n", "mean", "lo", "hi", "lower_is_better"]
    return pd.DataFrame(rows, columns=columns)


# --- Table 2 ----------------------------------------------------------------------------------------------------------


def table_2_reproduced(table: pd.DataFrame) -> Result:
    """Per (function, variant) cell of the paper's Table 2: the λ with the lowest mean final regret is the paper's
    (holds); another λ is better than the paper's, paired by seed (does not hold); else inconclusive. A cell whose
    paper λ was not run is missing."""
    claim = Claim(
        "table_2_reproduced",
        "The best λ per function and variant (min. mean final regret) equals the paper's Table 2",
        "App. C.1, Table 2",
        "lambda_ablation",
        "better",
        (),
    )
    data = table[(table["experiment"] == claim.experiment) & (table["budget"] == table["final_budget"])]
    if data.empty:
        return Result(claim.name, claim.text, claim.source, claim.experiment, "–", "no λ-ablation runs", NOT_MEASURED)
    verdict_of, compared, lines, missing, involved = {}, [], [], [], []
    for index, ((problem, name), paper_lam) in enumerate(PAPER_TABLE_2.items()):
        rows = data[(data["problem"] == problem) & variant(name)(data)]
        if not np.isclose(rows["lam"], paper_lam).any():
            missing.append(f"{problem} {name} (λ={paper_lam:g})")
            continue
        involved.append(rows)
        means = rows.groupby("lam")["value"].mean().sort_index()
        pick = float(means.idxmin())
        if np.isclose(pick, paper_lam):
            verdict_of[index] = HOLDS
            lines.append(f"{problem} {name}: selected λ={pick:g} = paper's")
            continue
        per_seed = rows.assign(member=[f"λ={v:g}" for v in rows["lam"]])
        stat = _compare(claim, per_seed, f"λ={pick:g}", f"λ={paper_lam:g}", (problem, index))
        compared.append(stat)
    decided = verdicts.decide([c.stat for c in compared])
    compared = [Compared(c.unit, c.budget, c.margin, s) for c, s in zip(compared, decided)]
    flip = {HOLDS: FAILS, INCONCLUSIVE: INCONCLUSIVE, FEW: FEW, FAILS: FAILS}  # A = the pick, B = paper's λ
    for c in compared:
        problem, name = list(PAPER_TABLE_2)[c.unit[1]]
        verdict_of[c.unit[1]] = flip[c.stat.verdict]
        lines.append(
            f"{problem} {name}: selected {comparison_text(c)} (pick better than paper's λ → {flip[c.stat.verdict]})"
        )
    if missing:
        lines.append(f"missing ({len(missing)} of {len(PAPER_TABLE_2)} cells): " + "; ".join(missing))
    verdict = verdicts.combine(list(verdict_of.values()), len(PAPER_TABLE_2))
    run = run_text(pd.concat(involved), compared) if involved else "–"
    return _result(claim, run, lines, verdict, compared)


def _catalogued(claim: Claim) -> Callable[[pd.DataFrame], Result]:
    return lambda table: check(claim, table)


ABLATIONS = ("lambda_ablation", "sampler_ablation")
PAPER = tuple(c for c in CATALOGUE if not c.beyond_paper)

#: every claim by name, in the order of the claims table: the paper's (Table 2 before the other ablation claims),
#: then the questions beyond the paper
CLAIMS: dict[str, Callable[[pd.DataFrame], Result]] = {
    **{c.name: _catalogued(c) for c in PAPER if c.experiment not in ABLATIONS},
    "table_2_reproduced": table_2_reproduced,
    **{c.name: _catalogued(c) for c in PAPER if c.experiment in ABLATIONS},
    **{c.name: _catalogued(c) for c in CATALOGUE if c.beyond_paper},
}


def check_all(table: pd.DataFrame) -> list[Result]:
    """Every claim against the per-trial table (`analysis.per_trial`)."""
    return [claim(table) for claim in CLAIMS.values()]


def counts(results: list[Result]) -> str:
    """ "holds: 3, inconclusive: 5, ..." in decreasing order, the paper's claims and those beyond it apart."""

    def tally(chosen: list[Result]) -> str:
        return ", ".join(f"{v}: {n}" for v, n in Counter(r.verdict for r in chosen).most_common())

    paper = [r for r in results if not r.beyond_paper]
    beyond = [r for r in results if r.beyond_paper]
    text = f"the paper's {len(paper)} claims: {tally(paper)}"
    return text + (f"; {len(beyond)} beyond the paper: {tally(beyond)}" if beyond else "")
