"""python -m analysis.site [--paper paper --paper paper/extended ...] [--out site]

Without --paper: every run workflow/site.yaml lists, as the workflow's rule `site` builds them. A run listed there
opens its page with the header of the config that ran it."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from analysis.presentation.run_names import titles
from analysis.site import __doc__ as about
from analysis.site.index import build, site_configs

#: the published runs, as the workflow's site rule reads them (run from the repository's root)
RUNS = "workflow/site.yaml"


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m analysis.site", description=about.splitlines()[0])
    cli.add_argument("--paper", action="append", help="a published run directory (repeat for each; default: every "
                     f"run of {RUNS})")
    cli.add_argument("--out", default="site", help="the site's folder (default: site)")
    cli.add_argument("--config", help="the config that ran the --paper runs: its header opens their pages")
    cli.add_argument("--title", help="the --paper runs' title (default: from the listing, else the directory)")
    args = cli.parse_args(argv)
    if (args.config or args.title) and not args.paper:
        cli.error("--config and --title name the --paper runs: give them")
    if not args.paper and not Path(RUNS).exists():
        cli.error(f"no --paper given and no {RUNS} here: run from the repository's root, or name the runs")
    configs = site_configs(Path(RUNS)) if Path(RUNS).exists() else {}
    papers = [Path(p) for p in args.paper] if args.paper else list(configs)
    if args.config:
        configs = {**configs, **{paper: Path(args.config) for paper in papers}}
    absent = [p.as_posix() for p in [*papers, *(configs[p] for p in papers if p in configs)] if not p.exists()]
    if absent:
        cli.error(f"not found: {', '.join(absent)}")
    try:
        titles(Path(RUNS))  # every listed run has its title, before any page is written
    except ValueError as error:
        cli.error(str(error))
    start = time.perf_counter()
    pages = build(papers, Path(args.out), configs, Path(RUNS), titles={paper: args.title for paper in papers}
                  if args.title else None)
    print(f"wrote {len(pages)} pages under {args.out} in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
