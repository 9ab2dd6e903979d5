"""Checking the catalogue against the per-trial table: every claim's comparisons, their verdicts and the claim's.

Checking a claim compares every method of a left slot with every method of its right slot on each problem, paired
by seed, at the smaller of the two methods' final evaluation counts (`analysis.claims.comparisons`);
`analysis.statistics.verdicts` decides each comparison (Holm over the claim's comparisons) and the claim. A (problem,
slot pair) whose problem or methods were not run is missing: the claim then says "holds on k of n" at best and lists
what is missing. Table 2 (`bench.paper`) is checked cell by cell (`table_2_reproduced`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from analysis.claims import wording
from analysis.claims.catalogue import ABLATIONS, CATALOGUE, Claim
from analysis.claims.comparisons import Compared, compare, improvement, typical_value
from analysis.claims.selection import any_of, member_names, variant
from analysis.data.aggregate import on_shared_seeds
from analysis.naming import VARIANTS, method_title, ordered_problems, problem_title
from analysis.statistics import sequential, verdicts
from analysis.statistics.verdicts import EQUIVALENT, FAILS, FEW, HOLDS, INCONCLUSIVE, NOT_COMPARABLE, NOT_MEASURED
from bench.paper import TABLE_2_CELLS


@dataclass(frozen=True)
class Result:
    """A checked claim; `run` is what was actually run (B × T, seeds, budgets compared). `binding` names the
    comparison that binds the verdict (`wording.binding`) and `binding_mean`, `binding_lo`, `binding_hi` give its mean
    advantage and BCa interval; an inconclusive claim also carries the seeds that comparison would need.
    `comparisons` are the decided comparisons themselves (`analysis.tables.claims_table` writes one row each)."""

    name: str
    claim: str
    source: str
    experiment: str
    run: str
    measured: str
    verdict: str
    seeds_needed: int | None = None
    beyond_paper: bool = False
    paper: str = ""
    basis: str = ""
    binding: str = ""
    binding_mean: float = math.nan
    binding_lo: float = math.nan
    binding_hi: float = math.nan
    comparisons: tuple[Compared, ...] = field(default=(), repr=False)


def _result(
    claim: Claim, run: str, lines: list[str], verdict: str, compared: list[Compared], bound: Compared | None = None
) -> Result:
    """The checked claim; `bound` overrides the binding comparison `wording.binding` would pick."""
    bound = wording.binding(compared, verdict) if bound is None else bound
    seeds = bound.stat.seeds_needed if bound is not None and verdict.startswith(INCONCLUSIVE) else None
    stat = bound.stat if bound is not None else None
    return Result(
        claim.name,
        claim.text,
        claim.source,
        claim.experiment,
        run,
        "\n".join(lines),
        verdict,
        seeds,
        claim.beyond_paper,
        claim.paper,
        claim.basis,
        wording.binding_name(bound) if bound is not None else "",
        stat.mean if stat else math.nan,
        stat.lo if stat else math.nan,
        stat.hi if stat else math.nan,
        tuple(compared),
    )


def _decided(compared: list[Compared], alpha: float = verdicts.ALPHA) -> list[Compared]:
    return [replace(c, stat=s, level=alpha)
            for c, s in zip(compared, verdicts.decide([c.stat for c in compared], alpha))]


def _through_looks(
    claim: Claim, data: pd.DataFrame, plan: list[tuple], looks: tuple[int, ...], spending: str
) -> list[Compared]:
    """The comparisons decided through planned looks (`analysis.statistics.sequential`): at look k, on the first n_k
    seeds, the comparisons still open that have all n_k seeds are Holm-adjusted among themselves (Holm's step-down goes
    on past those already decided) and decided at the look's nominal level; a decision stands. An open comparison keeps
    its last look's statistics; one that never reached a look is decided on what it has at the first look's level."""
    levels = sequential.nominal(looks, spending=spending)
    rank = data["seed"].rank(method="dense")  # seeds may start anywhere (`seeds: {first: …}`)
    final: list[Compared | None] = [None] * len(plan)
    typical = _typical(plan, data)  # the stuck-seed reference is the rule's, on all the run's seeds, at every look
    current = [replace(c, look=None) for c in _decided(_compare_all(plan, data, claim, typical), levels[0])]
    for k, (n, level) in enumerate(zip(looks, levels), start=1):
        at = _compare_all(plan, data[rank <= n], claim, typical)
        open_ = [i for i in range(len(plan)) if final[i] is None and at[i].stat.n == n]
        for i, stat in zip(open_, verdicts.decide([at[i].stat for i in open_], alpha=level)):
            current[i] = replace(at[i], stat=stat, look=k, level=level)
            if stat.verdict not in (INCONCLUSIVE, FEW):
                final[i] = current[i]
    return [f if f is not None else c for f, c in zip(final, current)]


def _typical(plan: list[tuple], data: pd.DataFrame) -> dict[str, float]:
    """Per problem of the plan, its typical final value over all of `data`'s seeds (`typical_value`)."""
    return {problem: typical_value(data[data["problem"] == problem]) for problem in dict.fromkeys(p for p, *_ in plan)}


def _compare_all(plan: list[tuple], data: pd.DataFrame, claim: Claim, typical: dict[str, float]) -> list[Compared]:
    on = {problem: data[data["problem"] == problem] for problem in typical}
    return [
        compare(on[problem], a, b, (problem, index), claim.quantity, claim.relation, claim.basis, typical[problem])
        for problem, index, a, b in plan
    ]


@dataclass(frozen=True)
class Checked:
    """A claim's comparisons on the per-trial table, before wording: the experiment's rows (with `member`), the
    decided comparisons, what was missing and the rows involved."""

    data: pd.DataFrame
    compared: list[Compared]
    missing: list[str]
    involved: list[pd.DataFrame]
    problems: list[str]


def compared(
    claim: Claim,
    table: pd.DataFrame,
    looks: dict[str, tuple[int, ...]] | None = None,
    spending: str = sequential.CLAIMS_SPENDING,
) -> Checked | None:
    """The claim's comparisons, decided (through its experiment's planned looks, if any); None if the experiment
    was not run."""
    data = table[table["experiment"] == claim.experiment]
    if data.empty:
        return None
    data = data.assign(member=member_names(data))
    problems, plan, missing, involved = pairing(claim, data)
    planned = (looks or {}).get(claim.experiment)
    if planned:
        decided = _through_looks(claim, data, plan, tuple(planned), spending)
    else:
        decided = _decided(_compare_all(plan, data, claim, _typical(plan, data)))
    return Checked(data, decided, missing, involved, problems)


def pairing(
    claim: Claim, data: pd.DataFrame
) -> tuple[list[str], list[tuple[str, int, str, str]], list[str], list[pd.DataFrame]]:
    """(problems, plan, missing, involved rows) of a claim on its experiment's rows (with `member`): the plan lists
    (problem, pair index, left member, right member) for every comparison the claim makes, its Holm family. Needs
    only the grid columns, so a config's grid rows give the family before any trial runs
    (`analysis.claims.plans`)."""
    problems = list(claim.problems) if claim.problems else ordered_problems(data["problem"])
    plan, missing, involved = [], [], []
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
            plan += [(problem, index, a, b) for a, b in pairs]
            involved += [rows[rows["member"].isin([a, b])] for a, b in pairs]
    return problems, plan, missing, involved


def check(
    claim: Claim,
    table: pd.DataFrame,
    looks: dict[str, tuple[int, ...]] | None = None,
    spending: str = sequential.CLAIMS_SPENDING,
) -> Result:
    """Check one claim against the per-trial table; see the module docstring. `looks`: experiment -> its planned
    seed counts, for experiments whose seeds were added in looks (`seeds: {start, step, max}`)."""
    found = compared(claim, table, looks, spending)
    if found is None:
        return Result(
            claim.name,
            claim.text + wording.typical_note(claim.relation),
            claim.source,
            claim.experiment,
            "–",
            f"experiment '{claim.experiment}' was not run",
            NOT_MEASURED,
            beyond_paper=claim.beyond_paper,
            paper=claim.paper,
            basis=claim.basis,
        )
    data, decided, missing, involved, problems = (
        found.data, found.compared, found.missing, found.involved, found.problems
    )
    units: dict[tuple[str, int], list[str]] = {}
    for c in decided:
        units.setdefault(c.unit, []).append(c.stat.verdict)
    verdict = verdicts.combine([verdicts.combine(v) for v in units.values()], len(problems) * len(claim.pairs))
    lines = wording.lines(decided, data, claim.quantity)
    if missing:
        lines.append("not run: " + wording.missing_text(missing))
    if claim.improvement:
        left = any_of(*(a.select for a, _ in claim.pairs))
        right = claim.pairs[0][1]
        across = improvement(table, claim.experiment, left, right.select, (claim.improvement, right.name))
        if across is not None:
            lines.append("across problems: " + across.text())
    rows = pd.concat(involved) if involved else data.iloc[:0]
    # a run's departure from the paper that its verdict cannot be read without travels with the claim's words
    claim = replace(claim, text=claim.text + wording.typical_note(claim.relation) + wording.seq_ei_note(rows))
    return _result(claim, wording.run_text(rows, decided), lines, verdict, decided)


#: a Table 2 cell's verdict from one comparison "this λ better than the paper's λ"
TABLE_2_VERDICT = {
    HOLDS: FAILS,  # another λ is better than the paper's
    EQUIVALENT: HOLDS,  # the paper's λ is as good as the selected one, within the margin
    FAILS: HOLDS,
    INCONCLUSIVE: INCONCLUSIVE,
    FEW: FEW,
    NOT_COMPARABLE: NOT_COMPARABLE,
}


def table_2_reproduced(
    table: pd.DataFrame, looks: dict[str, tuple[int, ...]] | None = None, spending: str = sequential.CLAIMS_SPENDING
) -> Result:
    """Per (function, variant) cell of the paper's Table 2: no λ of the cell's grid is better than the paper's. Every
    other λ run is compared with the paper's, paired by seed (over the seeds every λ of the cell has), all of them in
    one Holm family: the λ with the lowest mean is chosen by the data, so testing it alone on the seeds that chose it
    would not pay for the choice, while testing the whole grid does. A cell does not hold if some λ is shown better
    than the paper's; it holds if every other λ is shown tied with it within the problem's margin or worse; else it is
    inconclusive. A cell whose paper λ was not run, or whose grid has no other λ, is missing. Under planned looks the
    cells are decided once, on all seeds, at the last look's nominal level (a subset of the plan's rejections: valid)."""
    claim = Claim(
        "table_2_reproduced",
        "The best λ per function and variant (min. mean final regret) equals the paper's Table 2: no other λ of the "
        "grid is better than the paper's",
        "App. C.1, Table 2",
        "lambda_ablation",
        "better",
        (),
    )
    data = table[(table["experiment"] == claim.experiment) & (table["budget"] == table["final_budget"])]
    if data.empty:
        return Result(claim.name, claim.text, claim.source, claim.experiment, "–", "no λ-ablation runs", NOT_MEASURED)
    compared, lowest, missing, involved = [], {}, [], []
    for index, ((problem, name), paper_lam) in enumerate(TABLE_2_CELLS.items()):
        rows = on_shared_seeds(data[(data["problem"] == problem) & variant(name)(data)], "lam")
        means = rows.groupby("lam")["value"].mean().sort_index()
        others = [lam for lam in means.index if not np.isclose(lam, paper_lam)]
        if len(others) == len(means):
            missing.append(f"{_cell(problem, name)} (λ={paper_lam:g})")
            continue
        if not others:
            missing.append(f"{_cell(problem, name)} (no λ but the paper's {paper_lam:g})")
            continue
        involved.append(rows)
        lowest[index] = float(means.idxmin())
        per_seed = rows.assign(member=[f"λ={v:g}" for v in rows["lam"]])
        compared += [compare(per_seed, f"λ={lam:g}", f"λ={paper_lam:g}", (problem, index)) for lam in others]
    planned = (looks or {}).get(claim.experiment)
    alpha = float(sequential.nominal(tuple(planned), spending=spending)[-1]) if planned else verdicts.ALPHA
    compared = _decided(compared, alpha)
    verdict_of, lines = {}, []
    for index, pick in lowest.items():
        problem, name = list(TABLE_2_CELLS)[index]
        mine = [c for c in compared if c.unit[1] == index]
        verdict_of[index] = verdicts.combine([TABLE_2_VERDICT[c.stat.verdict] for c in mine])
        said = "; ".join(
            f"{wording.comparison_text(c)} (\"{c.stat.left} is better than the paper's λ\" "
            f"{c.stat.verdict.split(':')[0]})"
            for c in mine
        )
        lines.append(
            f"{_cell(problem, name)} (paper's λ={TABLE_2_CELLS[problem, name]:g}, lowest mean at λ={pick:g}): {said} "
            f"→ the cell {verdict_of[index]}"
        )
    if missing:
        lines.append(f"missing ({len(missing)} of {len(TABLE_2_CELLS)} cells): " + "; ".join(missing))
    verdict = verdicts.combine(list(verdict_of.values()), len(TABLE_2_CELLS))
    run = wording.run_text(pd.concat(involved), compared) if involved else "–"
    # the binding cell is one that disagrees with Table 2 (its comparison "this λ is better" holds), not one whose
    # comparison fails (a cell that agrees)
    disagreeing = [c for c in compared if TABLE_2_VERDICT[c.stat.verdict] == FAILS]
    bound = min(disagreeing, key=lambda c: c.stat.p_holm) if verdict == FAILS and disagreeing else None
    return _result(claim, run, lines, verdict, compared, bound)


def _cell(problem: str, variant_name: str) -> str:
    """A Table 2 cell as a reader names it: "Ackley (5D) B3O-UCB-c"."""
    return f"{problem_title(problem)} {method_title('b3o', *VARIANTS[variant_name])}"


def _catalogued(claim: Claim) -> Callable[..., Result]:
    return lambda table, looks=None: check(claim, table, looks)


#: the catalogue's place of Table 2: before its first ablation claim
_TABLE_2_AT = next(i for i, c in enumerate(CATALOGUE) if c.experiment in ABLATIONS)
#: every claim by name, in the order of the claims table (which numbers them by it): the catalogue's order, Table 2
#: before the ablation claims; a claim keeps its place whether it is the paper's or beyond it
CLAIMS: dict[str, Callable[..., Result]] = {
    **{c.name: _catalogued(c) for c in CATALOGUE[:_TABLE_2_AT]},
    "table_2_reproduced": table_2_reproduced,
    **{c.name: _catalogued(c) for c in CATALOGUE[_TABLE_2_AT:]},
}


def check_all(table: pd.DataFrame, looks: dict[str, tuple[int, ...]] | None = None) -> list[Result]:
    """Every claim of the paper against the per-trial table (`analysis.data.per_trial`), and each question beyond it
    whose experiment the run has (a question a run leaves out is not one of its own, while a paper claim it leaves out
    is reported not measured); `looks`: experiment -> planned seed counts."""
    ran = set(table["experiment"])
    beyond = {c.name: c.experiment for c in CATALOGUE if c.beyond_paper}
    return [check(table, looks) for name, check in CLAIMS.items() if name not in beyond or beyond[name] in ran]
