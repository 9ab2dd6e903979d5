"""One module per table; each has `main(argv)` and runs as `python -m analysis.tables.<name> --table TIDY --out OUT`.

A script that makes a table from the tidy table alone declares it in a module-level literal `TABLES`: table name ->
the experiment it needs (None: any run). The workflow builds every declared table whose experiment the config runs
and hands it to the report (`declared()`; read from the source, see `analysis.data.declarations`), so adding such a
table is adding its script. The per-trial table (`analysis.data.per_trial`), the claims (`claims_table`, from the
per-trial table) and the run times (`run_times`, from the grid and the benchmarks) have rules of their own.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from analysis.data.declarations import collect


@dataclass(frozen=True)
class Table:
    """One table as its script declares it."""

    script: str
    experiment: str | None


def declared(folder: Path = Path(__file__).parent) -> dict[str, Table]:
    """Table name -> its declaration, from every script in `folder` that has `TABLES`."""
    return collect(folder, "TABLES", Table)
