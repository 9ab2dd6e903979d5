"""When a run's verdicts could first be seen, and when the rules and margins that decide them were set: from git
history and the trials' start times, for the statements every claims.md makes (`analysis.tables.claims_table`).

A run's results can be seen before its oldest judged trial started: a run recomputed from fresh trials may reproduce
values published earlier. So a run is dated by the earlier of its oldest trial's start and the first commit of its
published per-trial table that showed the same trials with the same values; the verdict rules (the verdict engine
and the claim catalogue, RULES) and the margins (`problems.margins.margins_commit`) are compared with that moment.
"""

from __future__ import annotations

import io
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.claims import catalogue, checking, comparisons, selection
from analysis.data import resampling
from analysis.statistics import mean_tests, median_tests, sequential, tail, verdicts

#: the verdict engine and the claim catalogue: the modules whose change can change a verdict (the margins apart)
RULE_MODULES = (verdicts, mean_tests, median_tests, tail, resampling, sequential, catalogue, checking, comparisons,
                selection)
#: their files, and the tail guard's rule
RULES = tuple(Path(m.__file__) for m in RULE_MODULES) + (tail.RULE_FILE,)
#: the columns that identify a trial's value in a per-trial table, and the value
KEY, VALUE = ["trial_id", "budget"], "value"


@dataclass(frozen=True)
class Commit:
    sha: str
    when: pd.Timestamp

    def text(self) -> str:
        return f"{self.sha[:10]} ({self.when:%Y-%m-%d %H:%M} UTC)"


def _git(root: Path, *args: str) -> str | None:
    try:
        return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None


def history(paths: tuple[Path, ...]) -> list[Commit] | None:
    """The commits that changed any of `paths` (all in one repository), newest first, each file followed through its
    renames (a module moved to another package keeps the changes it had before); None outside git or when one of them
    has uncommitted changes (then nothing can be dated before it)."""
    root = paths[0].parent
    dirty = _git(root, "status", "--porcelain", "--", *map(str, paths))
    logs = [_git(root, "log", "--follow", "--format=%H %ct", "--", str(path)) for path in paths]
    if dirty is None or dirty.strip() or None in logs:
        return None
    found = {sha: int(when) for log in logs for sha, when in map(str.split, log.splitlines())}
    return [Commit(sha, pd.Timestamp(when, unit="s", tz="UTC"))
            for sha, when in sorted(found.items(), key=lambda item: item[1], reverse=True)]


@dataclass(frozen=True)
class Publication:
    """The oldest commit of a run's per-trial table that showed `shared` of these `total` trials with the values
    judged now (every value of the trials it shares equal), and the oldest that showed all of them (None: none)."""

    first: Commit
    shared: int
    total: int
    complete: Commit | None

    def text(self) -> str:
        if self.complete is not None and self.complete.sha == self.first.sha:
            return f"these {self.total} trials with the values judged here in {self.first.text()}"
        text = f"{self.shared} of these {self.total} trials with the values judged here in {self.first.text()}"
        return text + (f", all of them in {self.complete.text()}" if self.complete is not None else "")


def _shared(table: pd.DataFrame, old: pd.DataFrame) -> int:
    """How many of `table`'s trials `old` shows, 0 unless every value they share is equal."""
    if not set(KEY + [VALUE]) <= set(old.columns):
        return 0
    both = table[KEY + [VALUE]].merge(old[KEY + [VALUE]], on=KEY, suffixes=("", "_old"))
    same = np.isclose(both[VALUE], both[f"{VALUE}_old"], rtol=1e-12, atol=0.0, equal_nan=True)
    return int(both["trial_id"].nunique()) if same.all() else 0


def first_published(table: pd.DataFrame, path: Path) -> Publication | None:
    """When the run's published per-trial table (`path`, in git) first showed these trials' values; None when no
    committed version shows any of them (or outside git)."""
    root = path.resolve().parent
    log = _git(root, "log", "--format=%H %ct", "--", path.name)
    top = _git(root, "rev-parse", "--show-toplevel")
    if not log or top is None:
        return None
    relative = path.resolve().relative_to(Path(top.strip()).resolve()).as_posix()
    total, first, shared, complete = int(table["trial_id"].nunique()), None, 0, None
    for sha, when in reversed([line.split() for line in log.splitlines()]):  # oldest first
        text = _git(root, "show", f"{sha}:{relative}")
        found = _shared(table, pd.read_csv(io.StringIO(text))) if text else 0
        commit = Commit(sha, pd.Timestamp(int(when), unit="s", tz="UTC"))
        if found and first is None:
            first, shared = commit, found
        if found == total:
            complete = commit
            break
    return None if first is None else Publication(first, shared, total, complete)


def oldest_start(table: pd.DataFrame) -> pd.Timestamp | None:
    """The oldest judged trial's start; None when some trial's start time is unknown."""
    raw = table["started_utc"] if "started_utc" in table else pd.Series("", index=table.index, dtype=str)
    started = pd.to_datetime(raw.replace("", None), utc=True).reset_index(drop=True)
    trials = table["trial_id"].reset_index(drop=True)
    if trials[started.notna()].nunique() < trials.nunique():
        return None
    return started.min()
