"""What replicated on fresh seeds, in words: the headline of the confirmation run (config/large_batch_confirm.yaml),
from its decided readings (`analysis.statistics.confirmation`'s table, tables/confirmation.csv), for the README and
the run's page. Plain words first: which exploratory readings replicated, which did not, which are still open, each
with its counts on the fresh seeds; the descriptive readings apart, as they decide nothing."""

from __future__ import annotations

import pandas as pd

from analysis.naming import problem_title
from analysis.presentation.readme_blocks import generated
from analysis.statistics.confirmation import DESCRIPTIVE, NOT_REPLICATED, OPEN, REPLICATED

#: what each kind of reading says, in words, given its expected direction
SAYS = {
    ("typical", "ahead"): "ends below TS on the typical seed",
    ("typical", "behind"): "ends above TS on the typical seed",
    ("basin", "more"): "ends in the global basin more often than TS",
}


def reading_words(row) -> str:
    """ "B3O-UCB-c ends below TS on the typical seed on Shekel (4D) (fresh seeds: 8 of 10)"."""
    says = SAYS.get((row.kind, row.expect), f"{row.kind} reading")
    counted = int(row.for_variant) + int(row.for_rival)
    fresh = f"fresh seeds: {int(row.for_variant)} of {counted}" if counted else "no fresh seed counted yet"
    return f"{row.variant} {says} on {problem_title(row.problem)} ({fresh}; exploratory {row.seen})"


def headline(table: pd.DataFrame) -> str:
    """One paragraph: how many of the plan's directional readings replicated, did not, or are open, and which."""
    directional = table[table["status"] != DESCRIPTIVE]
    parts = []
    for status, label in ((REPLICATED, "replicated"), (NOT_REPLICATED, "did not replicate"), (OPEN, "still open")):
        rows = directional[directional["status"] == status]
        if len(rows):
            parts.append(f"{len(rows)} {label}: " + "; ".join(reading_words(r) for r in rows.itertuples()))
    seeds = int(directional["seeds"].max()) if len(directional) else 0
    return (
        f"On fresh seeds (up to {seeds} per setting, under the plan committed before the first trial), of the "
        f"{len(directional)} exploratory readings of the paper-horizon run it tested: " + ". ".join(parts) + ". "
        f"{int((table['status'] == DESCRIPTIVE).sum())} readings with no expected direction are described, not decided."
    )


def confirmation_block(table: pd.DataFrame, source: str) -> str:
    """The README's section "confirmation"."""
    return generated("confirmation", source, [headline(table)])
