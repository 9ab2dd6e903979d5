"""The default test suite's size and wall time, from the JUnit XML that pytest writes, for the README and
docs/testing.md (`python -m analysis.presentation.readme --test-run`): the numbers there are measured, not typed.

    python -m analysis.tables.test_run --junit results/ci/junit.xml --collection results/ci/collection_s \
        --out paper/tables/test_run.csv

`.ci/run` asks pytest for that XML (through PYTEST_ADDOPTS, so that the README's test command stays verbatim), times
`pytest --collect-only` in one process (what every worker pays before its first test) and writes this table in its
clone, on the machine it ran on, with that machine's CPU model and CPU count (a time means little without them);
commit it from a run on a clean clone.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pandas as pd

from bench.numerics import cpu_model

COLUMNS = ("tests", "passed", "skipped", "failed", "minutes", "date", "cpus", "cpu", "collection_s")


def test_run(junit: Path, cpus: int | None = None, collection_s: float | None = None) -> pd.DataFrame:
    """One row: the suite's tests, passed, skipped, failed (failures and errors), wall minutes, date, the CPU count
    and this machine's CPU model (where the suite ran) and the seconds of collecting the tests in one process (NaN
    where not timed)."""
    root = ElementTree.parse(junit).getroot()
    suite = root if root.tag == "testsuite" else root.find("testsuite")
    if suite is None:
        raise ValueError(f"{junit} holds no <testsuite>: is it pytest's --junitxml output?")
    count = {k: int(suite.get(k, 0)) for k in ("tests", "skipped", "failures", "errors")}
    failed = count["failures"] + count["errors"]
    return pd.DataFrame(
        [{
            "tests": count["tests"],
            "passed": count["tests"] - count["skipped"] - failed,
            "skipped": count["skipped"],
            "failed": failed,
            "minutes": round(float(suite.get("time", "nan")) / 60, 1),
            "date": suite.get("timestamp", "")[:10],
            "cpus": cpus or os.cpu_count(),
            "cpu": cpu_model(),
            "collection_s": float("nan") if collection_s is None else round(collection_s, 1),
        }],
        columns=list(COLUMNS),
    )


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m analysis.tables.test_run", description=__doc__.splitlines()[0])
    cli.add_argument("--junit", required=True, type=Path, help="pytest's --junitxml file")
    cli.add_argument("--collection", type=Path, help="bash's `time -p` output for `pytest --collect-only`")
    cli.add_argument("--out", required=True, type=Path)
    args = cli.parse_args(argv)
    try:
        table = test_run(args.junit, collection_s=_seconds(args.collection) if args.collection else None)
    except (OSError, ValueError, ElementTree.ParseError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    args.out.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(args.out, index=False)
    print(f"wrote {args.out}: {table.iloc[0].to_dict()}")
    return 0


def _seconds(path: Path) -> float:
    """The wall seconds of bash's `time -p` output in `path` (its `real` line)."""
    match = re.search(r"^real ([0-9.]+)$", path.read_text(), re.MULTILINE)
    if match is None:
        raise ValueError(f"{path} holds no `real` line of bash's `time -p`")
    return float(match.group(1))


if __name__ == "__main__":
    raise SystemExit(main())
