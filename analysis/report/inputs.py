"""What a run left in its paper directory: the tables the report reads (None where absent) and the figures drawn."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from analysis.data import per_iteration as per_iteration_table
from analysis.figures.common import NO_DATA
from analysis.naming import display_labels, name_problems_in

TABLES = ("summary", "per_trial", "run_times", "density", "best_lambda", "horizon", "provenance", "automatic", "declared",
          "confirmation")


@dataclass(frozen=True)
class Run:
    """The run's tables (None: not produced, or written as a one-line note because it had no data) and figures."""

    paper: Path
    claims: pd.DataFrame | None
    summary: pd.DataFrame | None
    per_trial: pd.DataFrame | None
    run_times: pd.DataFrame | None
    density: pd.DataFrame | None
    best_lambda: pd.DataFrame | None
    horizon: pd.DataFrame | None  # tables/horizon_along.csv if the run has it, else tables/horizon.csv
    provenance: pd.DataFrame | None
    theorem: pd.DataFrame | None
    scaling: pd.DataFrame | None
    figures: frozenset[str]
    config: str = ""  # the config file the run was made from, as the workflow names it
    automatic: pd.DataFrame | None = None  # the automatic temperature's test, per comparison (analysis.tables.automatic)
    per_iteration: pd.DataFrame | None = None  # each trial after every iteration (analysis.data.per_iteration)
    scores: pd.DataFrame | None = None  # normalised scores across problems (analysis.statistics.scores: score_aggregate.csv)
    declared: pd.DataFrame | None = None  # the config's own comparisons, decided (analysis.tables.declared_comparisons)
    headline: pd.DataFrame | None = None  # a horizon run's answer per problem and variant (analysis.tables.headline)
    confirmation: pd.DataFrame | None = None  # the fresh-seed confirmation's readings (analysis.statistics.confirmation)
    study: bool = False  # a user's own study: its sections speak of its experiments, never of the paper's

    def experiments(self) -> list[str]:
        """Experiments with trials, in the order the per-trial table lists them."""
        if self.per_trial is None:
            return [] if self.summary is None else list(dict.fromkeys(self.summary["experiment"]))
        return list(dict.fromkeys(self.per_trial["experiment"]))

    def has_figure(self, name: str) -> bool:
        return name in self.figures


def _read(path: Path) -> pd.DataFrame | None:
    """A CSV table, or None if it is missing, empty, or the note a table script writes when it had no data; methods
    in the reader's names (a table written before labels were spelled as names)."""
    if not path.is_file():
        return None
    table = pd.read_csv(path)
    if table.empty or list(table.columns) == ["note"]:
        return None
    name_problems_in(table)  # a user's problems by their own names (the per-trial table carries them)
    return display_labels(table, ("label", "auto", "rival"))


def _has_data(pdf: Path) -> bool:
    """False for the page a figure script writes when it had no data (its PDF subject says so, uncompressed)."""
    return NO_DATA.encode() not in pdf.read_bytes()


def load(paper: str | Path, scaling: str | Path | None = None, config: str = "") -> Run:
    """Read PAPER/claims.csv, PAPER/tables/{summary,per_trial,run_times,density,best_lambda,horizon,provenance,
    automatic,declared,confirmation,score_aggregate,headline}.csv, PAPER/tables/per_iteration.parquet,
    PAPER/figures/theorem1.csv and the names of the figures drawn (PAPER/figures/*.pdf, less those without data);
    `scaling` is the batch-timing CSV."""
    paper = Path(paper)
    if not paper.is_dir():
        raise FileNotFoundError(f"{paper}: no such paper directory (the workflow's `paper` setting)")
    tables = {name: _read(paper / "tables" / f"{name}.csv") for name in TABLES}
    along = _read(paper / "tables" / "horizon_along.csv")  # a run read along its own horizon (config `horizon`)
    if along is not None:
        tables["horizon"] = along
    iterations = paper / "tables" / per_iteration_table.NAME
    return Run(
        paper=paper,
        claims=_read(paper / "claims.csv"),
        theorem=_read(paper / "figures" / "theorem1.csv"),
        scaling=_read(Path(scaling)) if scaling else None,
        figures=frozenset(p.stem for p in (paper / "figures").glob("*.pdf") if _has_data(p)),
        config=config,
        per_iteration=per_iteration_table.read(iterations) if iterations.is_file() else None,
        scores=_read(paper / "tables" / "score_aggregate.csv"),
        headline=_read(paper / "tables" / "headline.csv"),
        **tables,
    )
