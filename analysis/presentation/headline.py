"""The headline told first: one paragraph per problem of the paper-horizon run, from its headline table alone
(`analysis.tables.headline`), for the README's results and the site's index (one owner of the words).

Per problem: where along t the mean verdict shows B3O ahead of TS, what the mean says at the last checkpoint, what the
typical seed says there (ahead on k of n seeds, P(B3O ahead) with its interval, the exact sign test's reading) and how
many seeds of each method are stuck. The mean is the paper's reading; the rest is ours, labelled with its status
(pre-registered or exploratory) from the table.
"""

from __future__ import annotations

import pandas as pd

from analysis.formatting import number
from analysis.naming import problem_title

#: where the readings' rule lives, as a reader is pointed to it
RULE = "analysis/statistics/robust_readings.yaml"
#: the typical seed's reading in a few words
TYPICAL = {"ahead": "shown ahead", "behind": "shown behind", "open": "not decided"}


def _along(rows: pd.DataFrame) -> str:
    """Where along t the mean shows the variants ahead: "t = 6 (4 of 4 variants), t = 12 (4 of 4), ..."."""
    checkpoints = [int(t) for t in str(rows["checkpoints"].iloc[0]).split(",")]
    ahead = [set(int(t) for t in str(a).split(",") if t not in ("", "nan")) for a in rows["ahead_at"]]
    counts = [sum(t in a for a in ahead) for t in checkpoints]
    parts = [f"t = {t} ({k} of {len(rows)}{' variants' if i == 0 else ''})" for i, (t, k) in enumerate(zip(checkpoints, counts))]
    return ", ".join(parts)


#: the mean's verdict of "B3O beats the rival" in the paragraph's words
MEAN_SAYS = {"holds": "B3O ahead", "does not hold": "B3O not ahead"}


def _verdicts(rows: pd.DataFrame) -> str:
    tally = rows["verdict"].value_counts()
    return ", ".join(f"{MEAN_SAYS.get(verdict, verdict)} for {k} of {len(rows)}" for verdict, k in tally.items())


def _typical(r) -> str:
    return (
        f"{r.label} ahead on {int(r.wins)} of {int(r.n)} seeds, P(ahead) {r.share:.2f} "
        f"[{r.share_lo:.2f}, {r.share_hi:.2f}], {TYPICAL[r.reading]}"
    )


def _stuck(rows: pd.DataFrame) -> str:
    first = rows.iloc[0]
    parts = [f"{first.rival} {int(first.rival_stuck)} of {int(first.rival_n)}"]
    parts += [f"{r.label} {int(r.stuck)} of {int(r.stuck_n)}" for r in rows.itertuples()]
    return ", ".join(parts)


def intro(table: pd.DataFrame) -> str:
    """The opening sentence: the run's scale and how each reading is made (plain text; `RULE` in backticks)."""
    first = table.iloc[0]
    return (
        f"At the paper's horizon (N₀ = {int(first.n_init)}, then T = {int(first.iterations)} batches of "
        f"B = {int(first.batch_size)}), B3O against {first.rival}, per problem: where along t the mean per-seed "
        f"advantage (the paper's reading) shows B3O ahead; at t = {int(first.t)} the mean's verdict, then the typical "
        f"seed (ours, pre-registered or exploratory as each problem says: an exact sign test of P(B3O ends below {first.rival}) = ½, Holm over the "
        f"checkpoint's comparisons) and the stuck seeds (final regret above {number(first.k)} times the problem's "
        f"typical final regret; rule: `{RULE}`)."
    )


def bullets(table: pd.DataFrame) -> list[tuple[str, str]]:
    """(problem's title, its sentences) per problem, in the table's order."""
    return [
        (
            problem_title(problem),
            f"ahead by the mean at {_along(rows)}. At t = {int(rows['t'].iloc[0])} the mean's verdict: "
            f"{_verdicts(rows)}. Typical seed ({' / '.join(sorted(set(rows['status'])))}): "
            f"{'; '.join(_typical(r) for r in rows.itertuples())}. Stuck seeds: {_stuck(rows)}.",
        )
        for problem, rows in table.groupby("problem", sort=False)
    ]


#: what the paragraph says when the run has no decided checkpoint yet
EMPTY = "No checkpoint of the paper-horizon run is decided yet."


def lines(table: pd.DataFrame) -> list[str]:
    """The paragraph as markdown lines: the opening sentence, then a bullet per problem."""
    if table.empty:
        return [EMPTY]
    return [intro(table), "", *(f"- **{title}**: {text}" for title, text in bullets(table))]
