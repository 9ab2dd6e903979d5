"""What replicated on fresh seeds, in words: the headline of the confirmation run (config/large_batch_confirm.yaml),
from its decided readings (`analysis.statistics.confirmation`'s table, tables/confirmation.csv), for the README (its
section "confirmation", `analysis.presentation.readme_blocks.confirmation_block`), its answer line and the run's
page. Plain words first: which exploratory readings replicated, which did not, which are still open, each with its
counts on the fresh seeds; the descriptive readings apart, as they decide nothing."""

from __future__ import annotations

import pandas as pd

from analysis.formatting import series
from analysis.naming import problem_title
from analysis.statistics.confirmation import DESCRIPTIVE, NOT_REPLICATED, OPEN, REPLICATED, plan

#: what each kind of reading says, in words, given its expected direction
SAYS = {
    ("typical", "ahead"): "ends below TS on the typical seed",
    ("typical", "behind"): "ends above TS on the typical seed",
    ("basin", "more"): "ends in the global basin more often than TS",
}

#: the same, short, for a list that says the kind once ("on the typical seed" ...)
SHORT = {("typical", "ahead"): "below TS", ("typical", "behind"): "above TS",
         ("basin", "more"): "in the global basin more often"}


def counted(kind: str, mine: int, theirs: int) -> str:
    """A reading's count in words: "9 of 10 seeds" (typical), "3 of 4 seeds where only one ends in the basin"."""
    return f"{mine} of {mine + theirs} seeds" + (" where only one ends in it" if kind == "basin" else "")


def reading_words(row) -> str:
    """ "B3O-UCB-c on Shekel (4D), below TS (fresh: 8 of 10 seeds; exploratory: 27 of 30 seeds)", each count of the
    seeds that go the way the words say."""
    says = SHORT.get((row.kind, row.expect), f"{row.kind} reading")
    flip = row.expect == "behind"  # counted as the words say: the seeds on which the variant ends above

    def said(mine: int, theirs: int) -> str:
        return counted(row.kind, *((theirs, mine) if flip else (mine, theirs)))

    mine, theirs = int(row.for_variant), int(row.for_rival)
    fresh = (f"fresh: {said(mine, theirs)}" if mine + theirs else
             f"fresh: not one of {int(row.seeds)} seeds where only one ends in it" if int(row.seeds) else
             "no fresh seed counted yet")
    seen = [int(v) for v in str(row.seen).split("/")]
    return f"{row.variant} on {problem_title(row.problem)}, {says} ({fresh}; exploratory: {said(*seen)})"


def looks_made(table: pd.DataFrame) -> int:
    """How many of the plan's looks the table's directional readings were decided through (0 before the first is
    complete: `analysis.statistics.confirmation.decide` decides a look on all its seeds or not at all)."""
    looks = pd.to_numeric(table.loc[table["status"] != DESCRIPTIVE, "look"], errors="coerce")
    return int(looks.max()) if looks.notna().any() else 0


def tally(table: pd.DataFrame, looks: tuple[int, ...] | None = None, following: bool = False) -> str:
    """"after look 1 of 2 (10 fresh seeds per setting), 7 of the 12 exploratory readings replicated, 1 did not and 4
    are still open": the one count of the confirmation the README's answer, its headline and the run's page give.
    `looks`: the plan's seed counts (default: the committed plan's); `following`: say what the next look adds."""
    looks = looks if looks is not None else plan().looks
    directional = table[table["status"] != DESCRIPTIVE]
    n = {status: int((directional["status"] == status).sum()) for status in (REPLICATED, NOT_REPLICATED, OPEN)}
    made = looks_made(table)
    if not made:
        return (f"no look is complete yet (the first: {looks[0]} fresh seeds per setting), so none of the "
                f"{len(directional)} exploratory readings is decided")
    counts = [f"{n[REPLICATED]} of the {len(directional)} exploratory readings replicated"]
    if n[NOT_REPLICATED]:
        counts.append(f"{n[NOT_REPLICATED]} did not")
    if n[OPEN]:
        counts.append(f"{n[OPEN]} {'is' if n[OPEN] == 1 else 'are'} still open"
                      + (f" (look {made + 1} takes them to {looks[made]} seeds)" if following and made < len(looks)
                         else ""))
    which = "its last look" if made == len(looks) else f"look {made} of {len(looks)}"
    return f"after {which} ({looks[made - 1]} fresh seeds per setting), " + series(counts)


def headline(table: pd.DataFrame, looks: tuple[int, ...] | None = None) -> str:
    """One paragraph, plain words first: the count (`tally`), then which readings replicated, did not, or are still
    open, with their fresh and exploratory counts. `looks`: the plan's seed counts (default: the committed plan's)."""
    count = tally(table, looks, following=True)
    labels = ((REPLICATED, "Replicated"), (NOT_REPLICATED, "Did not replicate"), (OPEN, "Still open"))
    parts = [f"{label}: " + "; ".join(reading_words(r) for r in table[table["status"] == status].itertuples())
             for status, label in labels if (table["status"] == status).any()] if looks_made(table) else []
    return (
        f"{count[0].upper()}{count[1:]}, under the plan committed before the first trial (each reading: the B3O "
        "variant ends below or above TS on the typical seed, or in the global optimum's basin more often than TS). "
        + "".join(f"{p}. " for p in parts)
        + f"{int((table['status'] == DESCRIPTIVE).sum())} readings with no expected direction are described, "
        "not decided."
    )
