"""The example study (examples/my.yaml: the user's own problem and method) set up as a user would, in a directory
outside the checkout, for the tools that measure it (tools/measure_study.py, tools/estimate_study.py): their shared
command line, the study's directory and config at each tool's size, and the docs' block each rewrites. Imported by
those tools from beside them (`python tools/NAME.py` puts tools/ first on the path)."""

from __future__ import annotations

import argparse
import csv
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import yaml

from analysis.presentation.readme_blocks import rewrite

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
#: the page whose generated blocks the tools rewrite
PAGE = ROOT / "docs" / "extending.md"
#: the user's own modules the example config names
MODULES = ("my_problem.py", "my_method.py")


def study_config(size: dict) -> dict:
    """examples/my.yaml with its one experiment at `size` (seeds, B, T, N₀)."""
    config = yaml.safe_load((EXAMPLES / "my.yaml").read_text())
    (study,) = config["experiments"].values()
    study.update(size)
    return config


def command_line(description: str) -> argparse.Namespace:
    """The tools' options: the cores the study may use, a directory to keep it in, or only the docs' block rewritten."""
    cli = argparse.ArgumentParser(description=description)
    cli.add_argument("--cores", type=int, default=2)
    cli.add_argument("--keep", help="run the study in this new directory and keep it (default: a temporary one)")
    cli.add_argument("--page-only", action="store_true", help=f"rewrite {PAGE.relative_to(ROOT)}'s block from the table")
    return cli.parse_args()


def write_page(block: str, name: str) -> None:
    """Rewrite the page's generated block `name` with `block` (its markers included)."""
    PAGE.write_text(rewrite(PAGE.read_text(), block, name))


def page_from_table(table: Path, block: Callable[[list[dict]], str], name: str) -> None:
    """Rewrite the block `name` from the committed table's rows, as `block` words them (--page-only)."""
    with table.open() as handle:
        write_page(block(list(csv.DictReader(handle))), name)


def study_directory(keep: str | None, prefix: str, config: dict) -> Path:
    """A new directory (`keep`, else a temporary one) holding the user's modules and the study's config as my.yaml."""
    user = Path(keep) if keep else Path(tempfile.mkdtemp(prefix=prefix))
    user.mkdir(parents=True, exist_ok=not keep)
    for module in MODULES:
        shutil.copy(EXAMPLES / module, user / module)
    (user / "my.yaml").write_text(yaml.safe_dump(config))
    return user


def finish(user: Path, keep: str | None) -> None:
    """Say where the study ran, and remove its directory unless it was asked to be kept."""
    print(f"study directory: {user}" + ("" if keep else " (temporary; removed)"))
    if not keep:
        shutil.rmtree(user)
