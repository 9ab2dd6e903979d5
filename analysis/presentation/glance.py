"""Which run's verdict a claim shows at a glance: the one owner of that choice, read by the README's glance table
(`analysis.presentation.readme`) and the results site's index (`analysis.site`)."""

from __future__ import annotations

import math
import re
from functools import cache
from pathlib import Path

import pandas as pd

from analysis.data import published
from analysis.formatting import number, signed
from analysis.naming import comparison_title
from analysis.presentation.run_names import RunName
from analysis.presentation.readme_blocks import generated
from analysis.statistics import verdicts
from analysis.tables.claims_table import cell

#: the published runs in published.CLAIMS' order, smallest first: a claim's verdict at a glance is the one of the last
#: run here that measured it (battery_temperature, claim 12 alone on fresh seeds, decides it by the rule its config
#: wrote before it ran)
RUNS = tuple(published.CLAIMS)


def chosen(tables: dict[str, pd.DataFrame]) -> dict[int, tuple[str, pd.Series]]:
    """claim number -> (run, its row) of the last run in RUNS' order that measured it; a claim no run measured keeps
    the first run's row (saying so). A run outside RUNS comes last."""
    picked: dict[int, tuple[str, pd.Series]] = {}
    for run in sorted(tables, key=lambda r: RUNS.index(r) if r in RUNS else len(RUNS)):
        for _, row in tables[run].iterrows():
            if row["verdict"] != verdicts.NOT_MEASURED or row["number"] not in picked:
                picked[row["number"]] = (run, row)
    return dict(sorted(picked.items()))


def decided_otherwise(tables: dict[str, pd.DataFrame], names: dict[str, RunName]) -> list[str]:
    """A line naming the claims the table takes from another run than the first (the default) where the first run
    decides otherwise, and why the table shows the other (none where there are none)."""
    first = min(tables, key=lambda run: RUNS.index(run) if run in RUNS else len(RUNS))
    own = tables[first].set_index("number")["verdict"]
    moved = [f"{number_} ({own[number_]})" for number_, (run, r) in chosen(tables).items()
             if run != first and number_ in own.index and own[number_] not in (verdicts.NOT_MEASURED, r["verdict"])]
    if not moved:
        return []
    return ["", f"Where the first run listed below (`{names[first].directory}`) decides a claim otherwise: claims "
            f"{', '.join(moved)} there. The table shows the verdict of the last run listed that measured the claim, "
            "with more seeds or at a larger scale; the first reads it at its own, smaller scale."]


#: a claim read at a scale the paper did not use, as the claims' texts say it: "(here Seq-EI ran 50 sequential steps,
#: the paper's 750)"
AT_SCALE = re.compile(r"\(here (?P<what>\S+) ran (?P<ours>\d+) (?P<unit>[^,]+), the paper's (?P<paper>\d+)\)")


def verdict_at_scale(claim: str, verdict: str) -> str:
    """A verdict read at a scale the paper did not use, saying so ("does not hold at 50 Seq-EI sequential steps; the
    paper's 750 not run"): not an answer to the paper's claim. Other verdicts as they are."""
    found = AT_SCALE.search(claim)
    if found is None or verdict == verdicts.NOT_MEASURED:
        return verdict
    return (f"{verdict} at {found['ours']} {found['what']} {found['unit']}; the paper's {found['paper']} not run, so "
            "not an answer to the paper's claim")


@cache
def _final_claim_readings(path: Path, stamp: int) -> pd.DataFrame:
    """A run's claims' typical-seed readings at the final budget (tables/robust.csv), read once per version of the
    file (`stamp`, its modification time) however many of its claims a page shows."""
    robust = pd.read_csv(path)
    return robust[(robust["kind"] == "claim") & robust["iteration"].isna()]


def typical_against_mean(run: str | Path, row: pd.Series) -> str:
    """' (typical seed: behind on 24 of 30 seeds, decided)' where the binding comparison's sign test (the run's
    tables/robust.csv) is decided against its mean's sign: one far seed can carry a mean the seeds contradict, and a
    reader of "+0.04" would take the first method to be ahead. Empty otherwise."""
    path, mean = Path(run) / "tables" / "robust.csv", row.get("binding_mean", math.nan)
    if not path.is_file() or not isinstance(row.get("binding"), str) or not mean or math.isnan(mean):
        return ""
    robust = _final_claim_readings(path, path.stat().st_mtime_ns)
    for r in robust[robust["number"] == row["number"]].itertuples():
        against = (r.reading == "behind" and mean > 0) or (r.reading == "ahead" and mean < 0)
        if against and comparison_title(r.problem, r.left, r.right) == row["binding"]:
            seeds = r.losses if r.reading == "behind" else r.wins
            return f" (typical seed: {r.reading} on {int(seeds)} of {int(r.n)} seeds, decided)"
    return ""


def asked_elsewhere(picked: dict[int, tuple[str, pd.Series]]) -> list[str]:
    """A line naming the claim numbers these runs skip (the questions only a check of ours asks, each decided on its
    check's page of the site), so that a gap in the table's numbers is not read as a claim left out."""
    numbers = sorted(int(n) for n in picked)
    gaps = [n for n in range(numbers[0], numbers[-1] + 1) if n not in picked] if numbers else []
    if not gaps:
        return []
    return ["", f"Claim{'s' if len(gaps) > 1 else ''} {', '.join(map(str, gaps))}: asked only by a check of ours, "
            "decided on that check's page ([site/index.html](site/index.html) lists each at a glance)."]


def glance_block(tables: dict[str, pd.DataFrame], source: str, names: dict[str, RunName],
                 fragile: dict[str, set[str]] | None = None) -> str:
    """One line per claim: verdict (marked *fragile* where leaving out one seed or the Wilcoxon reading moves it,
    `analysis.presentation.fragile_marks`), the binding comparison with its mean advantage and BCa CI, and which run
    (`chosen`) by its title, its directory secondary; then each run's scale (the README's table)."""
    def run_cell(run: str) -> str:  # a run the listing does not name is called by its directory
        name = names[run]
        return f"`{name.directory}`" if name.title == name.directory else f"{cell(name.title)} (`{name.directory}`)"

    rows = []
    picked = chosen(tables)
    for number_, (run, r) in picked.items():
        binding = r.get("binding")
        delta = (
            f"{cell(binding)}: {signed(r['binding_mean'])} [{number(r['binding_lo'])}, {number(r['binding_hi'])}]"
            if isinstance(binding, str) and binding and not math.isnan(r.get("binding_mean", math.nan))
            else ""
        )
        delta += typical_against_mean(names[run].directory, r) if delta else ""
        shown_run = run_cell(run) if r["verdict"] != verdicts.NOT_MEASURED else "–"
        mark = " (*fragile*)" if r.get("name") in (fragile or {}).get(run, set()) else ""
        rows.append(f"| {number_} | {cell(r['claim'])} | **{cell(verdict_at_scale(r['claim'], r['verdict']))}**{mark} "
                    f"| {delta} | {shown_run} |")
    return generated(
        "glance",
        source,
        [
            "| # | claim | verdict | binding comparison: mean advantage [95% CI] | run |",
            "|---|---|---|---|---|",
            *rows,
            *decided_otherwise(tables, names),
            "",
            "*fragile*: leaving out one seed, or reading the differences by the Wilcoxon signed-rank test, moves "
            "the verdict (each run's claims.md says how).",
            "",
            "The runs, each at its scale (from its per-trial table):",
            "",
            *(f"- {run_cell(run)}: {names[run].scale or 'no per-trial table'}" for run in tables),
            *asked_elsewhere(picked),
        ],
    )
