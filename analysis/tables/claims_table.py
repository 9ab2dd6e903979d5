"""The claims table: each quantitative claim of the paper with its measured counterpart and a computed verdict.

Reads the per-trial table (`paper/tables/per_trial.csv` from `analysis.data.per_trial`, or a tidy parquet table, from
which it is built) and writes OUT.md (default paper/claims.md: how verdicts are decided, then one row per claim),
OUT.csv and OUT.tex, and with --comparisons one row per comparison (paper/tables/comparisons.csv). The claims are in
`analysis.claims`, the verdict rules in `analysis.statistics.verdicts`, the equivalence margins in `problems.margins`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path

import pandas as pd

from analysis.claims import checking, wording
from analysis.claims.comparisons import MIN_ITERATIONS
from analysis.data import per_trial
from analysis.data import resampling
from analysis.statistics import verdicts
from analysis.tables import common, dating
from problems import margins


def rules() -> list[str]:
    """How a verdict is decided, as printed above the table."""
    return [
        *verdicts.RULES,
        "",
        "Relations: " + "; ".join(verdicts.RELATIONS.values()) + ".",
        (f"Margins: {margins.RULE}; printed with each comparison (×1.25: a ratio, ±δ: a difference). Diversity is "
         "compared without a margin."),
        (
            "Budgets: each claim is read where the paper reads it (its basis): at each method's own final budget "
            '("at their finals (N vs M evals)"), or at equal evaluations, the smaller final count, each trial read at '
            'its best-so-far after the last batch that fits ("at N evals"). A comparison at a budget where a method '
            f"has completed fewer than {MIN_ITERATIONS} BO iterations is not decided (\"{verdicts.NOT_COMPARABLE}\"): "
            "a scheduled variant's first batch is uniform by construction."
        ),
        (
            "Diversity: mean batch diversity over the BO iterations at which every B3O trial had λ_t > 0 (the "
            "scheduled variants' first batch, λ_1 = 0, is uniform by construction and left out for every method)."
        ),
        (
            "Seeds to decide, for an undecided comparison only (none for one decided equivalent): the seeds that "
            f"would give {verdicts.POWER:.0%} power to decide it if the observed mean and paired standard deviation "
            f"held: a difference by the normal approximation n = ((z_(1−α/2m) + z_{verdicts.POWER:g}) · s / gap)², gap = "
            "the tested mean; a side of the margin (the tie's weaker side, e.g. log 1.25 − log(r_A/r_B), or "
            "non-inferiority's) by the sign test's, at its observed share q of seeds above 0 "
            "(n = ((z_(1−α/2m)/2 + z_0.8·√(q(1−q))) / (q − ½))²); whichever needs fewer, at the Bonferroni level α/m over "
            "the claim's m comparisons (no less strict than Holm), and at least the seeds at which the sign-flip test "
            "can reach α/m at all; a claim's column gives its binding comparison, the undecided one that needs most."
        ),
        (
            "Δ is A's advantage over B per seed, in the metric's units: B − A for regret, A − B for hypervolume and "
            f"diversity; mean [{verdicts.LEVEL:.0%} BCa bootstrap CI, {resampling.NUM_RESAMPLES} resamples, for "
            "display; the verdict is the tests'], then the verdict and why. The paper's unpaired CIs are in the figures."
        ),
    ]


def number(name: str) -> int:
    """A claim's number: its place among all claims, so it is the same in every run's table (a run lists only the
    questions beyond the paper whose experiments it has)."""
    return list(checking.CLAIMS).index(name) + 1


def numbered(name: object) -> str:
    """A claim as a reader finds it in README's table, by its number, its id secondary ("4 (`logei_c_best_batch`)");
    an id the catalogue no longer has (a renamed claim) as it stood."""
    if not isinstance(name, str) or not name:
        return ""
    return f"{number(name)} (`{name}`)" if name in checking.CLAIMS else f"`{name}`"


def comparisons(results: list[checking.Result]) -> pd.DataFrame:
    """One row per decided comparison of every claim: what the claims table says in words, as numbers (the unit's
    problem, the two methods, the budget, margin, seeds, look, mean advantage with its BCa interval, Holm-adjusted p
    values, verdict and the seeds an undecided one would need)."""
    rows = [
        {
            "number": number(r.name),
            "name": r.name,
            "experiment": r.experiment,
            "problem": c.unit[0],
            "left": c.stat.left,
            "right": c.stat.right,
            "budget": c.budgets[0],
            "right_budget": c.budgets[1],
            "margin": c.margin.text() if c.margin is not None else None,
            "n": c.stat.n,
            "look": c.look,
            "mean": c.stat.mean,
            "lo": c.stat.lo,
            "hi": c.stat.hi,
            "p_holm": c.stat.p_holm,
            "p_equivalent_holm": c.stat.p_equivalent_holm,
            "verdict": c.stat.verdict,
            "seeds_needed": c.stat.seeds_needed,
        }
        for r in results
        for c in r.comparisons
    ]
    frame = pd.DataFrame(rows, columns=COMPARISON_COLUMNS)
    for column in ("budget", "right_budget", "look", "seeds_needed"):
        frame[column] = frame[column].astype("Int64")
    return frame


COMPARISON_COLUMNS = [
    "number", "name", "experiment", "problem", "left", "right", "budget", "right_budget", "margin", "n", "look", "mean",
    "lo", "hi",
    "p_holm", "p_equivalent_holm", "verdict", "seeds_needed",
]


def where(r: checking.Result) -> str:
    """The paper's section, what it says there (paraphrased) and the claim's comparison basis."""
    said = f": {r.paper}" if r.paper else ""
    basis = {"final": "each method at its own final budget", "equal": "at equal evaluations"}.get(r.basis, "")
    return f"{r.source}{said}" + (f" (basis: {basis})" if basis else "")


@dataclass(frozen=True)
class Seen:
    """When a run's results could first be seen (None: some trial's start is unknown), in words, and the oldest
    judged trial's start when an earlier publication of the same values came first."""

    when: pd.Timestamp | None
    words: str = ""
    oldest: pd.Timestamp | None = None

    def status(self, subject: str, stamp: str, at: pd.Timestamp) -> str:
        """"Margins set before these trials: <stamp>, before <words>." for something set at `at`."""
        side = "before" if at < self.when else "after"
        if self.oldest is None:
            return f"{subject} set {side} these trials: {stamp}, {side} {self.words}."
        started = ("and after" if at >= self.oldest else "though before") + " the oldest trial judged here started"
        return (f"{subject} set {side} these results were first published: {stamp}, {side} {self.words}, {started} "
                f"({self.oldest:%Y-%m-%d %H:%M} UTC).")


def seen(table: pd.DataFrame, publication: dating.Publication | None = None) -> Seen:
    """When these results could first be seen: the oldest judged trial's start, or an earlier first publication of
    the same trials with the same values (`analysis.tables.dating.first_published`)."""
    oldest = dating.oldest_start(table)
    if oldest is None:
        return Seen(None)
    if publication is not None and publication.first.when < oldest:
        first = publication.first.when
        return Seen(first, f"identical results were first published ({first:%Y-%m-%d %H:%M} UTC)", oldest)
    return Seen(oldest, f"the oldest trial judged here started ({oldest:%Y-%m-%d %H:%M} UTC)")


def margins_status(table: pd.DataFrame, publication: dating.Publication | None = None) -> str:
    """Whether the margins (`problems/margins.yaml`'s last commit that changed a margin) were set before these results
    could first be seen: git's commit time against the trials' `started_utc` and an earlier first publication."""
    found = margins.margins_commit()
    if found is None:
        return ("Margins set after these trials: `problems/margins.yaml` has uncommitted changes or no git history "
                "here, so no trial can be shown to postdate it.")
    sha, when = found
    committed = pd.Timestamp(when, unit="s", tz="UTC")
    stamp = f"`problems/margins.yaml` last changed a margin in {sha[:10]} ({committed:%Y-%m-%d %H:%M} UTC)"
    moment = seen(table, publication)
    if moment.when is None:
        return f"Margins set after these trials: {stamp}; some trials' start times are unknown."
    return moment.status("Margins", stamp, committed)


def rules_status(table: pd.DataFrame, publication: dating.Publication | None = None) -> str:
    """Whether the verdict rules (the last commit to the verdict engine and the claim catalogue, `dating.RULES`)
    were set before these results could first be seen; if not, also their last change before that moment."""
    modules = ", ".join(f"`{m.__name__}`" for m in dating.RULE_MODULES)
    commits = dating.history(dating.RULES)
    if not commits:
        return (f"Rules set after these trials: the verdict engine and claim catalogue ({modules}) have uncommitted "
                "changes or no git history here, so no trial can be shown to postdate them.")
    latest = commits[0]
    stamp = f"the verdict engine and claim catalogue ({modules}) last changed in {latest.text()}"
    moment = seen(table, publication)
    if moment.when is None:
        return f"Rules set after these trials: {stamp}; some trials' start times are unknown."
    text = moment.status("Rules", stamp, latest.when)
    if latest.when < moment.when:
        return text
    before = next((c for c in commits if c.when < moment.when), None)
    stood = f"had last changed in {before.text()}" if before is not None else "were not yet committed"
    return text[:-1] + f"; as they stood then, they {stood}."


def dates(table: pd.DataFrame, published: Path | None = None) -> list[str]:
    """What claims.md states about time: when these results were first published (`published`: the run's per-trial
    table in git), and whether the margins and the verdict rules were set before they could first be seen."""
    publication = dating.first_published(table, published) if published is not None else None
    lines = []
    if published is not None:
        oldest = dating.oldest_start(table)
        if publication is None:
            lines.append("First published: here (no committed per-trial table of this run shows these trials' values).")
        else:
            early = oldest is not None and publication.first.when < oldest
            lines.append(
                f"First published: {publication.text()}"
                + (f", before the oldest trial judged here started ({oldest:%Y-%m-%d %H:%M} UTC): these trials "
                   "recomputed them." if early else ".")
            )
    return [*lines, margins_status(table, publication), rules_status(table, publication)]


#: the page that says what every word of a claims table means, from the repository root
GLOSSARY = Path("docs/glossary.md")


def markdown(results: list[checking.Result], source: str, dated: Sequence[str] = (), glossary: str = "") -> str:
    """claims.md: how verdicts are decided, then one row per claim; `glossary`: the link to the glossary from where
    the page is written (none: not linked)."""
    rows = [
        f"| {number(r.name)} | {cell(r.claim)} | {cell(where(r))} | {cell(r.run)} | {cell(r.measured)} | "
        f"**{r.verdict}** | {seeds_text(r.seeds_needed, r.binding)} |"
        for r in results
    ]
    return "\n".join(
        [
            "# Claims of the paper against our measurements",
            "",
            f"Generated by `python -m analysis.tables.claims_table` from `{source}`; do not edit by hand."
            + (f" Every word: [the glossary]({glossary})." if glossary else ""),
            "",
            *rules(),
            "",
            *(line for stated in dated for line in (stated, "")),
            "Verdicts: " + wording.counts(results) + ".",
            "",
            "| # | Claim (paper) | Where (paper's setting) | Run | Measured: Δ [95% CI] per comparison | Verdict "
            + "| Seeds to decide (binding comparison) |",
            "|---|---|---|---|---|---|---|",
            *rows,
            "",
        ]
    )


def seeds_text(seeds: object, binding: object) -> str:
    """ "32 (hartmann6: A vs B)", or nothing for a decided claim."""
    if seeds is None or pd.isna(seeds):
        return ""
    return f"{int(seeds)} ({binding})" if isinstance(binding, str) and binding else str(int(seeds))


def paper_and_beyond(table: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Rows of claims.csv: the paper's claims and the questions beyond it (`beyond_paper`; absent in older tables)."""
    beyond = table["beyond_paper"].astype(bool) if "beyond_paper" in table else pd.Series(False, index=table.index)
    return table[~beyond], table[beyond]


def parse_looks(pairs: list[str]) -> dict[str, tuple[int, ...]]:
    """["synthetic_b100=10,15,20", ...] -> {"synthetic_b100": (10, 15, 20)}; a growing list of positive counts."""
    looks = {}
    for pair in pairs:
        experiment, _, counts = pair.partition("=")
        try:
            seeds = tuple(int(c) for c in counts.split(","))
        except ValueError:
            seeds = ()
        if not experiment or not seeds or seeds[0] < 1 or any(b <= a for a, b in zip(seeds, seeds[1:])):
            raise ValueError(f"--looks takes EXPERIMENT=N1,N2,... with growing positive counts, got {pair!r}")
        looks[experiment] = seeds
    return looks


def cell(text: str) -> str:
    """Text for a markdown table cell: pipes escaped, lines as <br>."""
    return text.replace("|", "\\|").replace("\n", "<br>")


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m analysis.tables.claims_table", description=__doc__.splitlines()[0])
    cli.add_argument("--table", required=True, help="per-trial table (CSV, analysis.data.per_trial) or tidy table (parquet)")
    cli.add_argument("--out", default="paper/claims", help="output prefix; writes OUT.md, OUT.csv and OUT.tex")
    cli.add_argument(
        "--looks", nargs="*", default=[], metavar="EXPERIMENT=N1,N2,...",
        help="planned seed counts of an experiment whose seeds were added in looks (the config's seeds: {start, step, max})",
    )
    cli.add_argument("--comparisons", help="also write one row per comparison to this CSV (default: none)")
    cli.add_argument(
        "--published", help="the run's published per-trial table in git, whose history dates its first publication "
        "(default: OUT's folder/tables/per_trial.csv, where the workflow and analysis.presentation.redecide write it)",
    )
    args = cli.parse_args(argv)
    try:
        looks = parse_looks(args.looks)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    table = per_trial.load(args.table)
    results = checking.check_all(table, looks)
    frame = pd.DataFrame([{f.name: getattr(r, f.name) for f in fields(r) if f.name != "comparisons"} for r in results])
    frame.insert(0, "number", [number(name) for name in frame["name"]])
    frame["seeds_needed"] = frame["seeds_needed"].astype("Int64")
    for column in ("binding_mean", "binding_lo", "binding_hi"):  # 10 digits: the same from the tidy or per-trial table
        frame[column] = frame[column].map(lambda v: float(f"{v:.10g}"))
    ragged = r">{\raggedright\arraybackslash}"
    common.write(
        args.out,
        frame,
        # full width, breaking across pages (xltabular, array): the measured column takes what the others leave
        common.latex(
            frame[["claim", "source", "run", "measured", "verdict"]],
            ["Claim", "Where", "Run", "Measured", "Verdict"],
            " ".join(
                ragged + c
                for c in (r"p{0.2\linewidth}", r"p{0.1\linewidth}", r"p{0.13\linewidth}", "X", r"p{0.1\linewidth}")
            ),
            environment="xltabular",
            width=r"\linewidth",
        ),
    )
    md = Path(args.out).with_name(Path(args.out).name + ".md")
    published = Path(args.published) if args.published else Path(args.out).parent / "tables" / "per_trial.csv"
    glossary = os.path.relpath(GLOSSARY, md.parent) if GLOSSARY.is_file() else ""  # a study outside the repository: none
    md.write_text(markdown(results, args.table, dates(table, published), glossary))
    print(f"wrote {md}")
    if args.comparisons:
        Path(args.comparisons).parent.mkdir(parents=True, exist_ok=True)
        comparisons(results).to_csv(args.comparisons, index=False)
        print(f"wrote {args.comparisons}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
