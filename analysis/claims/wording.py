"""How a checked claim reads: one line per comparison with its outcome and the reason for it, what was run and
what is missing, and the tally of verdicts."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pandas as pd

from analysis.claims.comparisons import MIN_ITERATIONS, Compared
from analysis.claims.selection import SETTING
from analysis.formatting import number, signed
from analysis.naming import comparison_title, problem_title
from analysis.statistics.verdicts import ALPHA, EQUIVALENT, FAILS, FEW, HOLDS, INCONCLUSIVE, NOT_COMPARABLE
from bench.paper import SEQ_EI_STEPS


def p_text(p: float) -> str:
    """p rounded up to two significant figures (so never printed below what the test attained)."""
    if math.isnan(p):
        return "–"
    if p >= 1:
        return "1"
    digits = 1 - math.floor(math.log10(p))
    return f"{math.ceil(p * 10**digits) / 10**digits:.{max(digits, 0)}f}".rstrip("0").rstrip(".")


def held(c: Compared, p: float) -> str:
    """An adjusted p with the level it was held to ("0.038 at level 0.031"): under planned looks a look's level is
    below α, so a p under α can leave a comparison open, and a reader comparing two comparisons' p needs both."""
    return p_text(p) + (f" at level {c.level:.2g}" if c.level is not None and not math.isnan(p) else "")


def reason(c: Compared) -> str:
    """Why the comparison got its verdict, in words and numbers."""
    s = c.stat
    if s.verdict == NOT_COMPARABLE:
        return f"a method has completed fewer than {MIN_ITERATIONS} BO iterations at this budget"
    if s.verdict == FEW:
        return f"with {s.n} seeds the smallest attainable p is {p_text(s.p_floor)} ≥ α = {ALPHA:g}"
    if s.tail_withheld:
        return (f"tied on the typical seed (p_Holm {held(c, _decisive(s))}), withheld by the tail guard: far seeds "
                f"in excess (p_tail {p_text(s.p_tail)})")
    if s.relation == "matches_or_beats":
        side = "not worse than" if s.tested_share > 0.5 else "worse than"
        shown = "shown" if s.verdict != INCONCLUSIVE else "not shown"
        return f"{shown} {side} B beyond the margin on the typical seed (p_Holm {held(c, s.p_holm)})"
    if s.relation == "similar":
        if s.verdict == HOLDS:
            return f"shown tied within the margin on the typical seed (TOST p_Holm {held(c, s.p_equivalent_holm)})"
        if s.verdict == FAILS:
            return f"shown apart beyond the margin (p_Holm {held(c, s.p_holm)})"
        return (f"neither shown tied (TOST p_Holm {held(c, s.p_equivalent_holm)}) nor apart beyond the margin "
                f"(p_Holm {held(c, s.p_holm)})")
    if s.verdict == HOLDS:
        return f"shown above 0 (p_Holm {held(c, s.p_holm)})"
    if s.verdict == FAILS:
        return f"shown below 0, A worse (p_Holm {held(c, s.p_holm)})"
    if s.verdict == EQUIVALENT:
        return f"shown tied within the margin on the typical seed (TOST p_Holm {held(c, s.p_equivalent_holm)})"
    tie = f", nor tied within the margin (TOST p_Holm {held(c, s.p_equivalent_holm)})" if c.margin is not None else ""
    return f"not shown different from 0 (p_Holm {held(c, s.p_holm)}){tie}"


def budget_text(c: Compared) -> str:
    """" at 350 evals" on equal budgets, " at their finals (350 vs 100 evals)" otherwise, "" without a budget."""
    left, right = c.budgets
    if left is None:
        return ""
    return f" at {left} evals" if left == right else f" at their finals ({left} vs {right} evals)"


def comparison_text(c: Compared) -> str:
    s = c.stat
    at = budget_text(c)
    if s.n < 2:
        return f"{s.left} vs {s.right}{at}: Δ {number(s.mean)} ({s.n} seed{'' if s.n == 1 else 's'}) → {s.verdict}"
    margin = f", margin {c.margin.text()}" if c.margin is not None else ""
    needs = f", ≈{s.seeds_needed} seeds would decide it" if s.seeds_needed else ""
    look = f" at look {c.look}" if c.look is not None else ""
    return (
        f"{s.left} vs {s.right}{at}: Δ {signed(s.mean)} [{number(s.lo)}, {number(s.hi)}]{margin}, {s.n} seeds{look} "
        f"→ {s.verdict}: {reason(c)}{needs}{tail_text(c)}"
    )


def tail_text(c: Compared) -> str:
    """The tail beside a comparison with a margin: the seeds beyond it each way, the far ones among them (the tail
    guard's, `analysis.statistics.tail`) and each side's stuck seeds (the stuck-seed rule's, per method)."""
    s = c.stat
    if s.worse_beyond < 0:
        return ""
    text = (f" · tail: A worse beyond the margin on {s.worse_beyond} of {s.n} seeds ({s.far_worse} far), better beyond "
            f"it on {s.better_beyond} ({s.far_better} far)")
    if c.stuck is not None:
        text += f", stuck seeds (above {number(c.stuck_above)}) A {c.stuck[0]}, B {c.stuck[1]}"
    return text


def _decisive(s) -> float:
    """The Holm p on which a tie or non-inferiority was shown: the TOST's for a tie, the tested side's otherwise."""
    return s.p_holm if s.relation == "matches_or_beats" else s.p_equivalent_holm


def lines(compared: list[Compared], data: pd.DataFrame, quantity: tuple[str, str]) -> list[str]:
    """One line per problem: its comparisons; diversity lines say which iterations were skipped."""
    out = []
    for problem in dict.fromkeys(c.unit[0] for c in compared):
        note = ""
        if "diversity" in quantity:
            skipped = set(data.loc[data["problem"] == problem, "diversity_skipped"]) - {""}
            note = f" (iterations t = {', '.join(sorted(skipped))} skipped: λ_t = 0)" if skipped else ""
        out.append(
            f"{problem_title(problem)}{note}: " + "; ".join(comparison_text(c) for c in compared if c.unit[0] == problem)
        )
    return out


def missing_text(missing: list[str]) -> str:
    """ "Shekel (4D); Ackley (5D): B3O-UCB-s, TS" from ["shekel4", "ackley5: B3O-UCB-s", "ackley5: TS"]."""
    by_problem: dict[str, list[str]] = {}
    for item in missing:
        problem, _, what = item.partition(": ")
        by_problem.setdefault(problem, [])
        if what and what not in by_problem[problem]:
            by_problem[problem].append(what)
    return "; ".join(
        f"{problem_title(p)}: {', '.join(w)}" if w else problem_title(p) for p, w in by_problem.items()
    )


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
    budgets = sorted({b for c in compared for b in c.budgets if b is not None})
    if budgets:
        parts.append("compared at " + ", ".join(map(str, budgets)) + " evals")
    return "; ".join(parts)


def typical_note(relation: str) -> str:
    """" (on the typical seed)" after a claim decided within a margin ("similar", "matches or beats"): what a tie
    decides is the median seed, not every seed; its tail stands beside each comparison (`tail_text`)."""
    return " (on the typical seed)" if relation in ("similar", "matches_or_beats") else ""


def seq_ei_note(rows: pd.DataFrame) -> str:
    """" (here Seq-EI ran 50 sequential steps, the paper's 750)" where the compared rows hold Seq-EI trials of other
    than the paper's length (Sec. 6.1), so that a verdict is never shown without it; else ""."""
    steps = sorted({int(t) for t in rows.loc[rows["method"] == "seq-ei", "iterations"]})
    if not steps or steps == [SEQ_EI_STEPS]:
        return ""
    ran = str(steps[0]) if len(steps) == 1 else f"{steps[0]}–{steps[-1]}"
    return f" (here Seq-EI ran {ran} sequential steps, the paper's {SEQ_EI_STEPS})"


def binding(compared: list[Compared], verdict: str) -> Compared | None:
    """The comparison that binds the claim's verdict: for an inconclusive claim the undecided one that needs the most
    seeds; for one that does not hold, the most clearly failing one (smallest Holm p); for one that holds (on all or
    some problems), the least clearly holding one (largest Holm p). None when no comparison qualifies."""
    if verdict.startswith(INCONCLUSIVE):
        needing = [c for c in compared if c.stat.seeds_needed is not None]
        return max(needing, key=lambda c: c.stat.seeds_needed) if needing else None
    if verdict.startswith(FAILS):
        failing = [c for c in compared if c.stat.verdict.startswith(FAILS)]
        return min(failing, key=lambda c: np.nanmin([c.stat.p_holm, c.stat.p_equivalent_holm])) if failing else None
    holding = [c for c in compared if c.stat.verdict == HOLDS]
    return max(holding, key=_decisive_p) if verdict.startswith(HOLDS) and holding else None


def _decisive_p(c: Compared) -> float:
    """The p that decided a holding comparison: the tie's for "similar", else the difference test's."""
    return c.stat.p_equivalent_holm if c.stat.relation == "similar" else c.stat.p_holm


def binding_name(c: Compared) -> str:
    return comparison_title(c.unit[0], c.stat.left, c.stat.right)


def tally(chosen: list[str]) -> str:
    return ", ".join(f"{v}: {n}" for v, n in Counter(chosen).most_common())


def counts(results: list) -> str:
    """ "holds: 3, inconclusive: 5, ..." in decreasing order, the paper's claims and those beyond it apart."""
    paper = [r.verdict for r in results if not r.beyond_paper]
    beyond = [r.verdict for r in results if r.beyond_paper]
    text = f"the paper's {len(paper)} claims: {tally(paper)}"
    return text + (f"; {len(beyond)} beyond the paper: {tally(beyond)}" if beyond else "")
