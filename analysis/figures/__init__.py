"""One module per figure; each has `main(argv)` and runs as `python -m analysis.figures.<name>`.

A script that the workflow runs on the tidy table declares the figures it draws there in a module-level literal
`FIGURES`: figure name -> (the experiment it needs, its command-line arguments[, grid values that some trial of
that experiment must have for the figure to be drawn]). `declared()` reads these literals from the source instead of
importing the scripts: a script imports matplotlib and seaborn, seconds that every build of the workflow's DAG (and a
cluster job's re-parse) would pay. A literal may name a constant assigned above it in the same script.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from analysis.data.declarations import collect

#: the anytime views drawn from a run's per-iteration table (the workflow's rule `anytime`): the figure's name less
#: "anytime_" -> the arguments of `python -m analysis.figures.anytime`. Every run draws ANYTIME_REPORTED for its
#: report (the best evaluated point's regret beside the recommended point's); the results site shows them all.
ANYTIME_VIEWS = {"metric": "--view metric", "recommended": "--view metric --regret recommended", "ecdf": "--view ecdf"}
ANYTIME_REPORTED = ("metric", "recommended")
#: the horizon figure of a run read along its own horizon (`analysis.figures.horizon` on its config's `horizon`
#: experiment, which the table of the same name records)
HORIZON_ALONG = "horizon_along"


@dataclass(frozen=True)
class Declared:
    """One figure as its script declares it."""

    script: str
    experiment: str
    args: str = ""
    when: dict[str, Any] = field(default_factory=dict)

    @property
    def command(self) -> str:
        """What follows `python -m analysis.figures.`: the script and its arguments."""
        return f"{self.script} {self.args}".strip()


def declared(folder: Path = Path(__file__).parent) -> dict[str, Declared]:
    """Figure name -> its declaration, from every script in `folder` that has `FIGURES`."""
    return collect(folder, "FIGURES", lambda script, fields: Declared(script, *fields))


def paper_experiments() -> set[str]:
    """The experiments the package's figures are declared for (the paper's); a config running none of them is a
    user's own study."""
    return {figure.experiment for figure in declared().values()}


def run_figures(experiments: Iterable[str]) -> dict[str, Declared]:
    """The figures a run of `experiments` draws (the workflow's and a republication's): every declared one, and for
    each experiment no declared figure draws (a user's own, named freely in a config) a progress figure of each
    problem's headline metric against evaluations."""
    figures = declared()
    drawn = paper_experiments()
    others = sorted(set(experiments) - drawn)
    figures.update({f"progress_{e}": Declared("regret", e, f"--experiment {e}") for e in others})
    return figures


def repeated_by_horizon(run: Path, drawn: Iterable[str]) -> set[str]:
    """The diversity figures (`analysis.figures.diversity`) that a horizon figure among `drawn` (the run's figure
    names) repeats whole as its middle row (`analysis.figures.horizon`). A page or report that showed both would show
    the same curves twice: it keeps the horizon figure, which sets them beside the advantage they are said to explain."""
    figures, drawn = declared(), set(drawn)
    experiments = {figure.experiment for name, figure in figures.items() if figure.script == "horizon" and name in drawn}
    along = run / "tables" / f"{HORIZON_ALONG}.csv"
    if HORIZON_ALONG in drawn and along.is_file():
        import pandas as pd  # here only: the workflow imports this module to build its DAG

        experiments |= set(pd.read_csv(along, usecols=["experiment"])["experiment"])
    return {name for name, figure in figures.items() if figure.script == "diversity" and figure.experiment in experiments}
