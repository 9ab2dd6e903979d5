"""When a run's records entered the checkout: for each commit that added archives to records/, how many of the run's
trials (a published per-trial table, optionally one experiment and problem) the archives added so far hold.

    python -m analysis.data.record_timeline --table paper/large_batch/tables/per_trial.csv --problem shekel4

A pre-registration says when its rule was committed; this says when the records it judges could first have been read
in the checkout, so that a reader can set the two side by side (`git log` gives the rule's and the analysis' commits).
Reads every archive's member list (xz: each archive is decompressed once), so it takes a while on a large records/.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tarfile
from pathlib import Path

import pandas as pd


def timeline(trial_ids: set[str], root: Path = Path(".")) -> list[tuple[str, str, int]]:
    """(commit, ISO date, trials of `trial_ids` in records/ by then) for each commit whose new archives hold any."""
    log = subprocess.run(["git", "log", "--reverse", "--diff-filter=A", "--name-only", "--format=@%H %cI", "--",
                          "records/"], cwd=root, capture_output=True, text=True, check=True).stdout
    seen: set[str] = set()
    out = []
    commit, added = "", False
    for line in [*log.splitlines(), "@end"]:
        if line.startswith("@"):
            if added:
                out.append((commit[:10], commit[41:], len(seen)))  # a fixed-length short hash
            commit, added = line[1:], False
            continue
        if not line.endswith(".tar.xz") or not (root / line).is_file():  # the index and other files aside
            continue
        with tarfile.open(root / line) as archive:
            found = {Path(name).name.split(".")[0] for name in archive.getnames()} & trial_ids
        if found - seen:
            seen |= found
            added = True
    return out


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m analysis.data.record_timeline", description=__doc__.splitlines()[0])
    cli.add_argument("--table", required=True, help="a published per-trial table (its trial ids are the run's)")
    cli.add_argument("--experiment")
    cli.add_argument("--problem")
    args = cli.parse_args(argv)
    try:
        table = pd.read_csv(args.table)
    except OSError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    for column in ("experiment", "problem"):
        if getattr(args, column):
            table = table[table[column] == getattr(args, column)]
    ids = set(table["trial_id"])
    print(f"{len(ids)} trial(s) of {args.table}")
    for commit, when, count in timeline(ids):
        print(f"{commit} {when}: {count} of them in records/")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
