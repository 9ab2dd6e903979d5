"""python -m analysis.site --paper paper --paper paper/extended ... --out site"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from analysis.site import __doc__ as about
from analysis.site.build import build


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m analysis.site", description=about.splitlines()[0])
    cli.add_argument("--paper", action="append", required=True, help="a published run directory (repeat for each)")
    cli.add_argument("--out", default="site", help="the site's folder (default: site)")
    args = cli.parse_args(argv)
    start = time.perf_counter()
    pages = build([Path(p) for p in args.paper], Path(args.out))
    print(f"wrote {len(pages)} pages under {args.out} in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
