"""The default test suite's size and wall time, from the JUnit XML that pytest writes, for the README and
docs/testing.md (`python -m analysis.presentation.readme --test-run`): the numbers there are measured, not typed.

    python -m analysis.tables.test_run --junit results/ci/junit.xml --out paper/tables/test_run.csv

`.ci/run` asks pytest for that XML (through PYTEST_ADDOPTS, so that the README's test command stays verbatim) and
writes this table in its clone, on the machine it ran on; commit it from a run on a clean clone.
"""

from __future__ import annotations

import argparse
import os
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pandas as pd

COLUMNS = ("tests", "passed", "skipped", "failed", "minutes", "date", "cpus")


def test_run(junit: Path, cpus: int | None = None) -> pd.DataFrame:
    """One row: the suite's tests, passed, skipped, failed (failures and errors), wall minutes, date and CPUs."""
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
        }],
        columns=list(COLUMNS),
    )


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m analysis.tables.test_run", description=__doc__.splitlines()[0])
    cli.add_argument("--junit", required=True, type=Path, help="pytest's --junitxml file")
    cli.add_argument("--out", required=True, type=Path)
    args = cli.parse_args(argv)
    try:
        table = test_run(args.junit)
    except (OSError, ValueError, ElementTree.ParseError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    args.out.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(args.out, index=False)
    print(f"wrote {args.out}: {table.iloc[0].to_dict()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
