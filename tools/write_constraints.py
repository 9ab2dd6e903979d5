"""Write `constraints.txt`: the exact version of every package b3o[test,slurm] installs, as this environment has
them, so that `pip install -e . -c constraints.txt` on a fresh machine gives the library versions that enter the
platform id (`b3o platform`) of the run published from here.

    python tools/write_constraints.py [--out constraints.txt]

Run it in the environment that made the published run (the versions are also in every record's provenance).
"""

from __future__ import annotations

import argparse
import re
import sys
from importlib import metadata
from pathlib import Path

EXTRAS = ("test", "slurm")


def _name(requirement: str) -> str:
    return re.split(r"[\s;<>=!~\[(]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def closure(root: str = "b3o", extras: tuple[str, ...] = EXTRAS) -> dict[str, str]:
    """name -> installed version of everything `root[extras]` requires, directly or not (markers that do not hold
    here are skipped, as pip skips them)."""
    from packaging.requirements import Requirement

    found: dict[str, str] = {}
    todo = [(root, set(extras))]
    while todo:
        name, wanted = todo.pop()
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        for text in dist.requires or []:
            requirement = Requirement(text)
            env = [{"extra": e} for e in (wanted or {""})]
            if requirement.marker and not any(requirement.marker.evaluate(e) for e in env):
                continue
            child = _name(requirement.name)
            if child not in found:
                try:
                    found[child] = metadata.version(child)
                except metadata.PackageNotFoundError:
                    continue
                todo.append((child, set(requirement.extras)))
    return dict(sorted(found.items()))


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("--out", default="constraints.txt", type=Path)
    args = cli.parse_args(argv)
    versions = closure()
    if not versions:
        print("error: b3o is not installed here (pip install -e '.[test,slurm]')", file=sys.stderr)
        return 2
    py = ".".join(map(str, sys.version_info[:2]))
    header = [f"# Exact versions of everything b3o[{','.join(EXTRAS)}] installs, from the environment of the published",
              f"# run (Python {py}); written by `python tools/write_constraints.py`. Use: pip install -e . -c constraints.txt"]
    args.out.write_text("\n".join(header + [f"{n}=={v}" for n, v in versions.items()]) + "\n")
    print(f"wrote {args.out}: {len(versions)} packages")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
