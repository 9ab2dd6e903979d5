"""Where a run's numbers come from: its trials, commits, numerical platforms, dates and cost, one row per item.

Read by the report's first page. Commits and platforms are listed with how many trials each made, so a run resumed
across commits, or records reused from another machine, shows as such.
"""

from __future__ import annotations

import pandas as pd

from analysis.tables import common

#: the tables the workflow writes with this script: name -> the experiment it needs (None: any; read unimported)
TABLES = {"provenance": None}


def provenance(table: pd.DataFrame) -> pd.DataFrame:
    """Rows (item, value): trials, experiments, commits and platforms (with their trial counts), the first and
    last trial's finish (UTC), core-minutes (the trials' wall times summed) and the span from first to last finish."""
    trials = table.drop_duplicates("trial_id")
    finished = pd.to_datetime(trials["finished_utc"], utc=True)
    span = (finished.max() - finished.min()).total_seconds() / 60 if len(finished) else float("nan")

    def counted(column: str, width: int | None = None) -> str:
        values = trials[column].fillna("unknown").str[:width]
        return "; ".join(f"{value} ({n} trials)" for value, n in values.value_counts().items())

    rows = [
        ("trials", str(len(trials))),
        ("experiments", ", ".join(dict.fromkeys(table["experiment"]))),
        ("commits", counted("git_sha", 12)),
        ("platforms", counted("platform_id")),
        ("first trial finished", str(finished.min())),
        ("last trial finished", str(finished.max())),
        ("core-minutes", common.number(trials["wall_s"].sum() / 60)),
        ("minutes from the first trial's finish to the last", common.number(span)),
    ]
    return pd.DataFrame(rows, columns=["item", "value"])


def main(argv: list[str] | None = None) -> int:
    args = common.parser("provenance", __doc__.splitlines()[0]).parse_args(argv)
    table = pd.read_parquet(args.table)
    if table.empty:
        common.write_empty(args.out, f"No trials in {args.table}.")
        return 0
    rows = provenance(table)
    common.write(args.out, rows, common.latex(rows, ["Item", "Value"], "l p{10cm}"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
