"""Every change of a published verdict, claim or comparison, with the commit that made it and why: from git alone.

    python -m analysis.presentation.verdict_history            # docs/verdict-history.md, its CSV, each claims.md's block

For each published run of workflow/site.yaml, every commit that changed its `claims.csv`, `tables/comparisons.csv` or
`tables/robust.csv` (the typical-seed readings of the headline and the robust tables)
(merges left out: the commit on the branch that made the change is the one named) is compared with the version
before it; each claim or comparison whose verdict differs is a row: the run, what moved, before → after, the commit
and its date, and why — "rules" when the verdict engine, the claim catalogue or the margins changed since the run's
previous publication (those commits are named), "data" when the run's per-trial table changed in the same commit
(new seeds or trials), both, or "republished" when neither did. A run's first publication is a row of its own. Each
run's claims.md gets a block naming the rule changes that moved its own verdicts and linking the history.
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pandas as pd
import yaml

from analysis.presentation.readme_blocks import markers
from analysis.tables.claims_table import numbered
from analysis.tables.dating import RULES

ROOT = Path(__file__).resolve().parents[2]
SITE = Path("workflow/site.yaml")
OUT = Path("docs/verdict-history.md")
TABLE = Path("docs/tables/verdict_history.csv")
COLUMNS = ["run", "claim", "comparison", "before", "after", "commit", "date", "why", "rule_commits", "subject"]
#: the files whose change can move a verdict without new data: the engine and catalogue, and the margins
RULE_PATHS = tuple(str(Path(p).resolve().relative_to(ROOT)) for p in RULES) + ("problems/margins.yaml",)
COMPARISON_KEY = ["name", "problem", "left", "right", "budget"]
BLOCK = "history"
#: the page's own generated section (all of it but its title)
PAGE_SECTION = "verdict_history"


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout


def _at(commit: str, path: str) -> pd.DataFrame | None:
    try:
        return pd.read_csv(io.StringIO(_git("show", f"{commit}:{path}")))
    except (subprocess.CalledProcessError, pd.errors.EmptyDataError):
        return None


def _verdicts(frame: pd.DataFrame | None, comparisons: bool) -> dict[tuple, str]:
    if frame is None or not {"name", "verdict"} <= set(frame.columns):  # the earliest tables had no claim names
        return {}
    if not comparisons:
        return dict(zip(((n,) for n in frame["name"]), frame["verdict"]))
    if not set(COMPARISON_KEY) <= set(frame.columns):
        return {}
    budget = pd.to_numeric(frame["budget"], errors="coerce").astype("Int64").astype(str)
    keys = zip(frame["name"], frame["problem"], frame["left"], frame["right"], budget)
    return dict(zip(keys, frame["verdict"]))


#: a robust reading's identity in tables/robust.csv (the typical-seed sign test, per claim comparison or checkpoint)
READING_KEY = ["kind", "name", "problem", "left", "right", "budget", "iteration"]


def _readings(frame: pd.DataFrame | None) -> dict[tuple, str]:
    """The typical-seed readings (ahead / behind / open) of a run's tables/robust.csv by `READING_KEY`."""
    if frame is None or not set(READING_KEY + ["reading"]) <= set(frame.columns):
        return {}
    keys = frame[READING_KEY].astype(str).replace({"nan": ""})
    return dict(zip(map(tuple, keys.to_numpy()), frame["reading"]))


def _reading(key: tuple) -> str:
    """'typical seed, ackley5: B3O-UCB-c vs TS at t = 50' (a checkpoint) or '... at 5100' (a claim's budget)."""
    _, _, problem, left, right, budget, iteration = key
    at = f"t = {float(iteration):g}" if iteration else f"{float(budget):g}" if budget else ""
    return f"typical seed, {problem}: {left} vs {right}" + (f" at {at}" if at else "")


def _changes(path: str) -> list[tuple[str, str, str]]:
    """(sha, ISO date, subject) of every non-merge commit that changed `path`, oldest first."""
    out = _git("log", "--no-merges", "--reverse", "--format=%H%x09%cI%x09%s", "--", path)
    return [tuple(line.split("\t", 2)) for line in out.splitlines() if line]  # type: ignore[misc]


def _comparison(key: tuple) -> str:
    at = f" at {key[4]}" if key[4] not in ("<NA>", "nan") else ""  # a diversity comparison has no budget
    return f"{key[1]}: {key[2]} vs {key[3]}{at}"


def _short(rule_commits: str, shown: int = 3) -> str:
    """The first few of a long list of rule commits, and how many there are."""
    commits = [c for c in str(rule_commits).split("; ") if c and c != "nan"]
    more = f" and {len(commits) - shown} more" if len(commits) > shown else ""
    return ", ".join(c.split()[0] for c in commits[:shown]) + more


def _why(commit: str, previous: str | None, per_trial: str) -> tuple[str, str]:
    """("rules" / "data" / "rules and data" / "republished", the rule commits since `previous`, short, with dates)."""
    rule_commits = []
    if previous is not None:
        # full hashes cut to a fixed length: git's own short form grows with the clone's object count (CI's is shorter)
        log = _git("log", "--no-merges", "--format=%H %cs", f"{previous}..{commit}", "--", *RULE_PATHS)
        rule_commits = [f"{line[:10]}{line[40:]}" for line in log.splitlines() if line]
    changed = set(_git("show", "--name-only", "--format=", commit).split())
    kinds = [k for k, present in (("rules", bool(rule_commits)), ("data", per_trial in changed)) if present]
    return (" and ".join(kinds) or "republished"), "; ".join(rule_commits)


#: the row of a publication re-decided under changed rules in which no verdict moved (a rule change that moved
#: nothing is named too)
UNMOVED = "no verdict moved"


def history(runs: Iterable[str]) -> pd.DataFrame:
    rows = []
    for run in runs:
        claims = f"{run}/claims.csv"
        per_trial = f"{run}/tables/per_trial.csv"
        under_new_rules = {}
        for path, kind in ((claims, "claim"), (f"{run}/tables/comparisons.csv", "comparison"),
                           (f"{run}/tables/robust.csv", "reading")):
            comparisons = kind != "claim"
            read = _readings if kind == "reading" else lambda frame: _verdicts(frame, comparisons)
            named = _reading if kind == "reading" else _comparison
            previous = None
            for sha, when, subject in _changes(path):
                before, after = read(_at(f"{sha}^", path)), read(_at(sha, path))
                if not comparisons and previous is None:  # the claims table's first commit, whatever its columns
                    rows.append({"run": run, "claim": "", "comparison": "", "before": "", "after": "first published",
                                 "commit": sha[:10], "date": when[:16].replace("T", " "), "why": "",
                                 "rule_commits": "", "subject": subject})
                why, rule_commits = _why(sha, previous, per_trial)
                if not comparisons and "rules" in why:
                    under_new_rules[sha[:10]] = {"run": run, "claim": "", "comparison": "", "before": "",
                                                 "after": UNMOVED, "commit": sha[:10],
                                                 "date": when[:16].replace("T", " "), "why": why,
                                                 "rule_commits": rule_commits, "subject": subject}
                for key, verdict in after.items():
                    if key in before and before[key] != verdict:
                        rows.append({"run": run, "claim": key[1] if kind == "reading" else key[0],
                                     "comparison": named(key) if comparisons else "",
                                     "before": before[key], "after": verdict, "commit": sha[:10],
                                     "date": when[:16].replace("T", " "), "why": why, "rule_commits": rule_commits,
                                     "subject": subject})
                previous = sha
        moved_in = {r["commit"] for r in rows if r["run"] == run}
        rows += [row for commit, row in under_new_rules.items() if commit not in moved_in]
    return pd.DataFrame(rows, columns=COLUMNS)


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ") if pd.notna(text) else ""


def _subject(text: object, limit: int = 160) -> str:
    """A commit message cut at a word, marked with an ellipsis, never mid-word."""
    text = _cell(text)
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0].rstrip(",;:") + " …"


def page(table: pd.DataFrame) -> str:
    begin, end = markers(PAGE_SECTION)
    lines = [
        "# Verdict history",
        "",
        begin,
        "<!-- generated by `python -m analysis.presentation.verdict_history` from git; do not edit by hand -->",
        "Every change of a published verdict, claim or comparison, and of a typical-seed reading (ahead, behind or "
        "open: the headline's and the robust tables'), back to each run's first publication as far as git "
        "has it: the commit that changed it and why. *rules*: the verdict engine, the claim catalogue or the margins "
        "(`problems/margins.yaml`) changed since the run's previous publication (those commits are named); *data*: the "
        "run's per-trial table changed in the same commit (new seeds or trials); *republished*: neither (wording or "
        "a table's layout). The commit's own message says what it meant to do. A claim is named by its number in "
        "README.md's table, its id in `claims.csv` beside it. Terms: [glossary](glossary.md).",
        "",
    ]
    for run, rows in table.groupby("run", sort=False):
        moved = rows[~rows["after"].isin(["first published", UNMOVED])]
        first = rows[rows["after"] == "first published"]
        unmoved = rows[rows["after"] == UNMOVED]
        lines += [f"## {run}", ""]
        if len(first):
            lines += [f"First published in {first.iloc[0]['commit']} ({first.iloc[0]['date']} UTC).", ""]
        if len(unmoved):
            lines += ["Re-decided under changed rules with no verdict moved: " + "; ".join(
                f"{r.commit} ({r.date} UTC, rules changed in {_short(r.rule_commits)})" for r in unmoved.itertuples())
                + ".", ""]
        if moved.empty:
            lines += ["No published verdict of this run has changed since.", ""]
            continue
        lines += ["| Claim | Comparison | Before → after | Commit (UTC) | Why | Rule changes since the previous "
                  "publication | Commit message |", "|---|---|---|---|---|---|---|"]
        lines += [f"| {numbered(r.claim)} | {_cell(r.comparison)} | {r.before} → {r.after} | {r.commit} ({r.date}) | "
                  f"{r.why} | {_short(r.rule_commits)} | {_subject(r.subject)} |"
                  for r in moved.sort_values("date", kind="stable").itertuples()]
        lines.append("")
    return "\n".join([*lines, end])


def anchor(run: str) -> str:
    """GitHub's anchor of a run's heading: lower case, '/' and other punctuation dropped but '-' and '_'."""
    return "".join(c for c in run.lower() if c.isalnum() or c in "-_ ").replace(" ", "-")


def block(table: pd.DataFrame, run: str, claims_md: Path) -> str:
    """The claims.md block: the link to this run's history and the rule changes that moved its own verdicts."""
    link = os.path.relpath(ROOT / OUT, (ROOT / claims_md).parent)
    mine = table[(table["run"] == run) & table["why"].str.contains("rules", na=False)]
    rows, unmoved = mine[mine["after"] != UNMOVED], mine[mine["after"] == UNMOVED]
    begin, end = markers(BLOCK)
    text = [begin, "<!-- generated by `python -m analysis.presentation.verdict_history`; do not edit by hand -->"]
    if rows.empty:
        text.append(f"History: no rule change has moved a published verdict of this run ([every change]({link}#{anchor(run)})).")
    else:
        moves = rows.sort_values("date", kind="stable").groupby(["commit", "date", "why"], sort=False)
        parts = [f"{commit} ({date} UTC, rules changed in {_short(g['rule_commits'].iloc[0])}"
                 + ("; its data changed in the same commit" if "data" in why else "") + "): "
                 + ", ".join(f"claim {numbered(r.claim)}{' / ' + r.comparison if r.comparison else ''} "
                             f"{r.before} → {r.after}" for r in g.itertuples())
                 for (commit, date, why), g in moves]
        cause = "rule changes (some with new data)" if rows["why"].str.contains("data").any() else "rule changes"
        text.append(f"History: {cause} moved {len(rows)} published verdict(s) of this run ([every change, and why]"
                    f"({link}#{anchor(run)})): " + "; ".join(parts) + ".")
    if len(unmoved):
        text[-1] += " Re-decided under changed rules with no verdict moved: " + "; ".join(
            f"{r.commit} ({r.date} UTC)" for r in unmoved.itertuples()) + "."
    return "\n".join([*text, end])


def with_block(text: str, section: str) -> str:
    """claims.md with its history block replaced, or inserted after its "Verdicts:" line."""
    begin, end = markers(BLOCK)
    if begin in text:
        start, stop = text.index(begin), text.index(end) + len(end)
        return text[:start] + section + text[stop:]
    at = text.index("\nVerdicts: ")
    stop = text.index("\n", at + 1)
    return text[: stop + 1] + "\n" + section + "\n" + text[stop + 1 :]


def claims_md(run: str) -> Path:
    return Path(run) / "claims.md"


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m analysis.presentation.verdict_history", description=__doc__.splitlines()[0])
    cli.parse_args(argv)
    try:
        runs = list(yaml.safe_load((ROOT / SITE).read_text())["runs"])
        table = history(runs)
    except (OSError, subprocess.CalledProcessError) as error:
        print(f"error: the verdict history needs the git history of this checkout: {error}", file=sys.stderr)
        return 2
    (ROOT / TABLE).parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(ROOT / TABLE, index=False)
    (ROOT / OUT).write_text(page(table) + "\n")
    for run in runs:
        path = ROOT / claims_md(run)
        if path.is_file():
            path.write_text(with_block(path.read_text(), block(table, run, claims_md(run))))
    moved = table[~table["after"].isin(["first published", UNMOVED])]
    print(f"wrote {OUT} and {TABLE}: {len(moved)} verdict change(s) over {table['run'].nunique()} run(s), "
          f"{int((table['after'] == UNMOVED).sum())} re-decision(s) under changed rules that moved none")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
