"""What every table script shares: the command line, number formatting, and writing OUT.csv with OUT.tex.

The CSV is the machine-readable table (full precision, long form); the .tex is a booktabs `tabular` for the paper.
A table without data is still written, as a one-line note, so a workflow expecting the files never breaks.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from analysis.formatting import number, with_ci  # noqa: F401 (re-exported for the tables)

_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def parser(name: str, description: str) -> argparse.ArgumentParser:
    cli = argparse.ArgumentParser(prog=f"python -m analysis.tables.{name}", description=description)
    cli.add_argument("--table", required=True, help="tidy table (parquet) from analysis.data.tidy")
    cli.add_argument("--out", default=f"paper/tables/{name}", help="output prefix; writes OUT.csv and OUT.tex")
    return cli


def escape(text: object) -> str:
    return "".join(_LATEX_SPECIAL.get(c, c) for c in str(text))


def latex(
    rows: pd.DataFrame,
    header: Sequence[str] | None = None,
    columns: str | None = None,
    environment: str = "tabular",
    width: str | None = None,
) -> str:
    """A booktabs table of `rows`, cells escaped (a line break in a cell becomes `\\newline`, for p{} and X columns);
    `header` (raw LaTeX) overrides the escaped column names, `columns` the column specification (default: all
    left-aligned; p{width} for long text), and `environment` may be "longtable" or "xltabular" (then `width`, e.g.
    `\\linewidth`) for tables that span pages: their header is repeated on every page."""
    header = [escape(c) for c in rows.columns] if header is None else list(header)
    begin = rf"\begin{{{environment}}}" + (f"{{{width}}}" if width else "")
    lines = [
        begin + "{@{} " + (columns or "l" * len(header)) + " @{}}",
        r"\toprule",
        " & ".join(header) + r" \\",
        r"\midrule",
    ]
    if environment in ("longtable", "xltabular"):
        lines.append(r"\endhead")
    lines += [
        " & ".join(escape(v).replace("\n", r"\newline ") for v in row) + r" \\" for row in rows.itertuples(index=False)
    ]
    lines += [r"\bottomrule", rf"\end{{{environment}}}"]
    return "\n".join(lines) + "\n"


def write(out: str | Path, csv: pd.DataFrame, tex: str) -> list[Path]:
    """Write OUT.csv and OUT.tex."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    paths = [out.with_name(out.name + ".csv"), out.with_name(out.name + ".tex")]
    csv.to_csv(paths[0], index=False)
    paths[1].write_text(tex)
    print("wrote " + ", ".join(map(str, paths)))
    return paths


def write_empty(out: str | Path, message: str) -> list[Path]:
    """The files of a table without data: each says why."""
    print(f"note: {message}", file=sys.stderr)
    return write(out, pd.DataFrame({"note": [message]}), f"% {message}\n\\textit{{{escape(message)}}}\n")
