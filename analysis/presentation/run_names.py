"""What a reader calls a published run: its question in words, the `title:` of its entry in workflow/site.yaml (the
one owner of a run's name; not the run's config, which a frozen runner reads), and its scale (B, T, N₀, seeds,
problems), generated from its per-trial table so it cannot go stale. Its directory is shown beside, secondary. Read by
the site's pages and index, the report's first page and the README's glance table.

A run the listing does not name (a user's own run) is called by its directory.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import yaml

#: the published runs and their titles (also the site's list of runs: `analysis.site`)
LISTING = Path("workflow/site.yaml")
PER_TRIAL = Path("tables") / "per_trial.csv"
#: the per-trial columns the scale is read from
COLUMNS = ["experiment", "trial_id", "label", "problem", "batch_size", "iterations", "n_init", "seed"]


#: a user's study's title in its report and on its page (a study is not in the listing)
STUDY_TITLE = "A study run with the B3O workflow: {config}"


@dataclass(frozen=True)
class RunName:
    directory: str  # as the run is given ("paper/large_batch")
    title: str  # its question in words; its directory where the listing does not name it
    scale: str  # "B = 100, T = 50, N₀ = 100, 30 seeds, 2 problems"; "" without a per-trial table

    def words(self) -> str:
        """'Title (scale)', or the title alone."""
        return f"{self.title} ({self.scale})" if self.scale else self.title


def titles(listing: Path = LISTING) -> dict[str, str]:
    """run directory (as the listing gives it) -> its title; every run listed must have one. No listing: none."""
    listing = Path(listing)
    if not listing.is_file():
        return {}
    runs = yaml.safe_load(listing.read_text(encoding="utf-8"))["runs"]
    untitled = [run for run, entry in runs.items() if not entry.get("title")]
    if untitled:
        raise ValueError(f"{listing}: runs without a title: {', '.join(untitled)}")
    return {run: entry["title"] for run, entry in runs.items()}


def _span(values: pd.Series) -> str:
    lo, hi = int(values.min()), int(values.max())
    return str(lo) if lo == hi else f"{lo}–{hi}"


def scale(per_trial: pd.DataFrame) -> str:
    """'B = 100, T = 50, N₀ = 100, 30 seeds, 2 problems': per experiment its most common B, T and N₀ (a sequential
    baseline's own steps aside), as a range over the run's experiments, the seeds per method and problem as a range,
    and how many problems (and experiments, where more than one)."""
    trials = per_trial.drop_duplicates("trial_id")
    shapes = trials.groupby("experiment", sort=False)[["batch_size", "iterations", "n_init"]].agg(
        lambda column: column.mode().iloc[0])
    seeds = trials.groupby(["experiment", "problem", "label"])["seed"].nunique()
    problems = trials["problem"].nunique()
    parts = [f"B = {_span(shapes['batch_size'])}", f"T = {_span(shapes['iterations'])}",
             f"N₀ = {_span(shapes['n_init'])}", f"{_span(seeds)} seeds", f"{problems} problem{'s' * (problems != 1)}"]
    if len(shapes) > 1:
        parts.append(f"{len(shapes)} experiments")
    return ", ".join(parts)


def _listed(run: Path) -> str:
    """The run as the listing names it: its path from the working directory (the repository's root)."""
    return Path(os.path.relpath(run)).as_posix() if run.is_absolute() else run.as_posix()


def name(run: Path, listing: Path = LISTING) -> RunName:
    """The run's name: its title from `listing` and its scale from its per-trial table."""
    run = Path(run)
    table = run / PER_TRIAL
    shown = scale(pd.read_csv(table, usecols=COLUMNS)) if table.is_file() else ""
    return RunName(run.as_posix(), titles(listing).get(_listed(run), run.as_posix()), shown)
