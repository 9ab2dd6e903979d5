"""`python -m analysis.report --paper PAPER [--scaling SCALING.csv] [--config CONFIG] [--out PAPER/report.tex]`:
write the report."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from analysis.presentation.run_names import STUDY_TITLE
from analysis.report import inputs, latex, scale, sections


def build(paper: str | Path, scaling: str | Path | None = None, config: str = "", study: bool = False) -> str:
    """The report's LaTeX source for the run in `paper`: only the sections whose parts the run produced, under the
    run's title and scale where the listing names it. A user's study (`study`) reports its own experiments only: no
    page of the paper's claims, under a title of its own."""
    run = inputs.load(paper, scaling, config)
    if study:
        run = replace(run, claims=None, study=True)
    made = [s for s in (make(run) for make in sections.ALL) if s is not None]
    if study:
        return latex.document(made, STUDY_TITLE.format(config=config or Path(paper)))
    return latex.document(made, *(scale.title_block(run) or (None, None)))


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m analysis.report", description=__doc__.splitlines()[0])
    cli.add_argument("--paper", required=True, help="the run's paper directory (claims.csv, tables/, figures/)")
    cli.add_argument("--scaling", help="batch-timing table (the workflow's scaling.csv), for the cost section's text")
    cli.add_argument("--out", help="where to write the LaTeX source (default PAPER/report.tex)")
    cli.add_argument("--config", default="", help="the config file the run was made from (for its provenance)")
    cli.add_argument("--study", action="store_true", help="a user's own study: its experiments only, no paper claims")
    args = cli.parse_args(argv)
    try:
        source = build(args.paper, args.scaling, args.config, args.study)
    except FileNotFoundError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    out = Path(args.out or Path(args.paper) / "report.tex")
    out.write_text(source)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
