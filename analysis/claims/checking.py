"""Checking the catalogue against the per-trial table: every claim's comparisons, their verdicts and the claim's.

Checking a claim compares every method of a left slot with every method of its right slot on each problem, paired
by seed, at the smaller of the two methods' final evaluation counts (`analysis.claims.comparisons`);
`analysis.verdicts` decides each comparison (Holm over the claim's comparisons) and the claim. A (problem, slot
pair) whose problem or methods were not run is missing: the claim then says "holds on k of n" at best and lists
what is missing. Table 2 (`baselines.paper`) is checked cell by cell (`table_2_reproduced`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from analysis import verdicts
from analysis.claims import wording
from analysis.claims.catalogue import ABLATIONS, CATALOGUE, PAPER, Claim
from analysis.claims.comparisons import Compared, compare, improvement
from analysis.claims.selection import any_of, member_names, variant
from analysis.naming import ordered_problems
from analysis.verdicts import EQUIVALENT, FAILS, FEW, HOLDS, INCONCLUSIVE, NOT_MEASURED
from baselines.paper import TABLE_2_CELLS


@dataclass(frozen=True)
class Result:
    """A checked claim; `run` is what was actually run (B × T, seeds, budgets compared). `binding` names the
    comparison that binds the verdict (`wording.binding`) and `binding_mean`, `binding_lo`, `binding_hi` give its mean
    advantage and BCa interval; an inconclusive claim also carries the seeds that comparison would need."""

    name: str
    claim: str
    source: str
    experiment: str
    run: str
    measured: str
    verdict: str
    seeds_needed: int | None = None
    beyond_paper: bool = False
    binding: str = ""
    binding_mean: float = math.nan
    binding_lo: float = math.nan
    binding_hi: float = math.nan


def _result(claim: Claim, run: str, lines: list[str], verdict: str, compared: list[Compared]) -> Result:
    bound = wording.binding(compared, verdict)
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
        wording.binding_name(bound) if bound is not None else "",
        stat.mean if stat else math.nan,
        stat.lo if stat else math.nan,
        stat.hi if stat else math.nan,
    )


def _decided(compared: list[Compared]) -> list[Compared]:
    return [replace(c, stat=s) for c, s in zip(compared, verdicts.decide([c.stat for c in compared]))]


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
            compared += [compare(rows, a, b, (problem, index), claim.quantity, claim.relation) for a, b in pairs]
            involved += [rows[rows["member"].isin([a, b])] for a, b in pairs]
    compared = _decided(compared)
    units: dict[tuple[str, int], list[str]] = {}
    for c in compared:
        units.setdefault(c.unit, []).append(c.stat.verdict)
    verdict = verdicts.combine([verdicts.combine(v) for v in units.values()], len(problems) * len(claim.pairs))
    lines = wording.lines(compared, data, claim.quantity)
    if missing:
        lines.append("not run: " + wording.missing_text(missing))
    if claim.improvement:
        left = any_of(*(a.select for a, _ in claim.pairs))
        right = claim.pairs[0][1]
        found = improvement(table, claim.experiment, left, right.select, (claim.improvement, right.name))
        if found is not None:
            lines.append("across problems: " + found.text())
    run = wording.run_text(pd.concat(involved) if involved else data.iloc[:0], compared)
    return _result(claim, run, lines, verdict, compared)


#: a Table 2 cell's verdict from the comparison "the selected λ better than the paper's λ"
TABLE_2_VERDICT = {
    HOLDS: FAILS,  # another λ is better than the paper's
    EQUIVALENT: HOLDS,  # the paper's λ is as good as the selected one, within the margin
    FAILS: HOLDS,
    INCONCLUSIVE: INCONCLUSIVE,
    FEW: FEW,
}


def table_2_reproduced(table: pd.DataFrame) -> Result:
    """Per (function, variant) cell of the paper's Table 2: the λ with the lowest mean final regret is the paper's,
    or is tied with it within the problem's margin (holds); another λ is better than the paper's, paired by seed
    (does not hold); else inconclusive. A cell whose paper λ was not run is missing."""
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
    for index, ((problem, name), paper_lam) in enumerate(TABLE_2_CELLS.items()):
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
        compared.append(compare(per_seed, f"λ={pick:g}", f"λ={paper_lam:g}", (problem, index)))
    compared = _decided(compared)
    for c in compared:
        problem, name = list(TABLE_2_CELLS)[c.unit[1]]
        verdict_of[c.unit[1]] = TABLE_2_VERDICT[c.stat.verdict]
        lines.append(
            f"{problem} {name}: selected {wording.comparison_text(c)} (\"the pick is better than the paper's λ\" "
            f"{c.stat.verdict.split(':')[0]} → the cell {TABLE_2_VERDICT[c.stat.verdict]})"
        )
    if missing:
        lines.append(f"missing ({len(missing)} of {len(TABLE_2_CELLS)} cells): " + "; ".join(missing))
    verdict = verdicts.combine(list(verdict_of.values()), len(TABLE_2_CELLS))
    run = wording.run_text(pd.concat(involved), compared) if involved else "–"
    return _result(claim, run, lines, verdict, compared)


def _catalogued(claim: Claim) -> Callable[[pd.DataFrame], Result]:
    return lambda table: check(claim, table)


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
