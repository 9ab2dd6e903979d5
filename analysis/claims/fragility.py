"""How fragile a published claim verdict is: does it survive leaving out one seed, or reading the differences by the
Wilcoxon signed-rank test? Readings beside the verdict, never deciders.

    python -m analysis.presentation.fragile_marks --run paper/large_batch   # RUN/tables/fragility.csv, claims.md's block

For every claim of a published run that is decided, or has a comparison within reach of deciding (an adjusted p, of
the difference or of the tie, below 1.5 α: every level of a plan is at most α), the claim is checked again by the
engine (`analysis.claims.checking.check`) on the run's committed per-trial table:
- leaving out one seed at a time (every setting of the claim's experiment loses that seed; a planned look that
  held it counts one seed fewer, its level computed for the plan so shortened);
- with the Wilcoxon signed-rank test (scipy.stats.wilcoxon, exact where scipy computes it) in place of the engine's
  difference test and of the sign test of the margin's sides, the rest of the rule (Holm, looks, relations) as is.
A claim is marked fragile where either changes its verdict; the seeds whose removal changes it are listed.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator

import numpy as np
import pandas as pd
from scipy import stats

from analysis.claims import checking
from analysis.claims.catalogue import CATALOGUE
from analysis.statistics import verdicts

#: an adjusted p below this multiple of α puts an undecided claim within reach of deciding
NEAR = 1.5
COLUMNS = ["name", "verdict", "seeds", "without_one_seed", "wilcoxon", "fragile"]
BY_NAME = {c.name: c for c in CATALOGUE}


def _wilcoxon(x: np.ndarray, alternative: str) -> np.ndarray:
    rows = np.atleast_2d(np.asarray(x, dtype=np.float64))
    out = np.ones(len(rows))
    for i, row in enumerate(rows):
        if np.any(row != 0):
            out[i] = stats.wilcoxon(row, alternative=alternative, zero_method="wilcox").pvalue
    return out if np.ndim(x) > 1 else out[0]


@contextlib.contextmanager
def wilcoxon_tests() -> Iterator[None]:
    """The engine with the Wilcoxon signed-rank test deciding differences and the margin's sides (a reading)."""
    saved = verdicts.two_sided, verdicts.margin_one_sided
    verdicts.two_sided = lambda d, theta: np.minimum(
        1.0, 2 * np.minimum(_wilcoxon(np.asarray(d) - theta, "greater"), _wilcoxon(np.asarray(d) - theta, "less")))
    verdicts.margin_one_sided = _wilcoxon
    try:
        yield
    finally:
        verdicts.two_sided, verdicts.margin_one_sided = saved


def near(result: checking.Result) -> bool:
    """Decided, or a comparison's adjusted p (difference or tie) below NEAR α."""
    if result.verdict in (verdicts.HOLDS, verdicts.FAILS, verdicts.EQUIVALENT):
        return True
    return any(min(c.stat.p_holm, c.stat.p_equivalent_holm if not math.isnan(c.stat.p_equivalent_holm) else 1.0)
               < NEAR * verdicts.ALPHA for c in result.comparisons)


def without(table: pd.DataFrame, experiment: str, seed: int, looks: dict[str, tuple[int, ...]]
            ) -> tuple[pd.DataFrame, dict[str, tuple[int, ...]]]:
    """The table without `seed` in `experiment`, and its planned looks shortened where they held it."""
    rank = sorted(table.loc[table["experiment"] == experiment, "seed"].unique()).index(seed) + 1
    kept = table[(table["experiment"] != experiment) | (table["seed"] != seed)]
    plan = looks.get(experiment)
    if not plan:
        return kept, looks
    return kept, {**looks, experiment: tuple(n - (rank <= n) for n in plan)}


def fragility(table: pd.DataFrame, looks: dict[str, tuple[int, ...]]) -> pd.DataFrame:
    """One row per catalogue claim of the run that is decided or near deciding (see the module docstring)."""
    rows = []
    for result in checking.check_all(table, looks):
        claim = BY_NAME.get(result.name)
        if claim is None or result.verdict == verdicts.NOT_MEASURED or not near(result):
            continue  # Table 2's cells are their own check; a claim not measured has nothing to read
        seeds = sorted(table.loc[table["experiment"] == claim.experiment, "seed"].unique())
        moved = []
        for seed in seeds:
            shorter, plan = without(table, claim.experiment, seed, looks)
            verdict = checking.check(claim, shorter, plan).verdict
            if verdict != result.verdict:
                moved.append(f"{seed}: {verdict}")
        with wilcoxon_tests():
            wilcoxon = checking.check(claim, table, looks).verdict
        rows.append({"name": result.name, "verdict": result.verdict, "seeds": len(seeds),
                     "without_one_seed": "; ".join(moved), "wilcoxon": wilcoxon,
                     "fragile": bool(moved) or wilcoxon != result.verdict})
    return pd.DataFrame(rows, columns=COLUMNS)
