"""One claim as data: what it compares, on which problems, by which relation, where the paper reads it
(`analysis.claims.catalogue` lists them)."""

from __future__ import annotations

from dataclasses import dataclass

from analysis.claims.selection import Slot


@dataclass(frozen=True)
class Claim:
    """One claim: `relation` between the slots of each pair, on each problem (None: every problem run).

    `quantity` names the per-trial columns compared on the left and the right: "value" is the headline metric at
    the matched budget, decided against the problem's equivalence margin (`problems.margins`); "diversity",
    "diversity_first", "diversity_early" are compared as higher-is-better, without a margin (no "equivalent").
    `improvement` (the left side's name in words) adds the probability that a left method beats the right one on a
    random problem and seed (`analysis.claims.comparisons.improvement`), with its stratified bootstrap CI.
    `beyond_paper` marks a question the paper does not state as a claim; it is checked the same way, counted apart.
    `paper` paraphrases the sentence of the paper (`source`) the claim rests on; `basis` is where the paper reads
    it (`analysis.claims.comparisons.BASES`): "final", each method at its own final budget (Sec. 6.1 compares
    Seq-EI's 750 steps with the batch methods' 5,000 queries, Sec. 6.3 LogEI-MV's 250 evaluations with B3O's 1,530),
    or "equal", at the same number of evaluations (the battery's 600 against 600).
    """

    name: str
    text: str
    source: str
    experiment: str
    relation: str
    pairs: tuple[tuple[Slot, Slot], ...]
    problems: tuple[str, ...] | None = None
    quantity: tuple[str, str] = ("value", "value")
    improvement: str = ""
    beyond_paper: bool = False
    paper: str = ""
    basis: str = "final"
