"""Screenshots of the results site's first screen, as a reader sees it above the fold: the index and the paper-horizon
run's page, rendered by headless Chromium (tools/install-chromium.sh), so docs/ shows what the site opens with.

    python -m analysis.site.screenshots --site site --out docs/screenshots
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from analysis.data import published

#: the first screen of a laptop: what a reader sees before scrolling
WINDOW = (1280, 1000)


def pages(site: Path) -> dict[str, Path]:
    """name -> page: the index and the paper-horizon run's page (the run of the README's headline)."""
    run = Path(published.TABLES["headline"]).parent.parent
    return {"index": site / "index.html", "-".join(run.parts): site / "-".join(run.parts) / "index.html"}


def shoot(page: Path, out: Path, chromium: str, window: tuple[int, int] = WINDOW) -> Path:
    """`page`'s first screen as PNG at `out`, by headless Chromium; an error names the page and Chromium's words."""
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run(
            [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             f"--user-data-dir={profile}", f"--window-size={window[0]},{window[1]}", "--virtual-time-budget=3000",
             f"--screenshot={out.resolve()}", page.resolve().as_uri()],
            capture_output=True, text=True, timeout=120, check=False,
        )
    if done.returncode != 0 or not out.is_file():
        raise RuntimeError(f"chromium could not screenshot {page}: {done.stderr[-500:]}")
    return out


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m analysis.site.screenshots", description=__doc__.splitlines()[0])
    cli.add_argument("--site", default="site", help="the built site (python -m analysis.site)")
    cli.add_argument("--out", default="docs/screenshots", help="folder for the PNGs")
    args = cli.parse_args(argv)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    missing = [str(p) for p in pages(Path(args.site)).values() if not p.is_file()]
    if chromium is None or missing:
        print(f"error: {'no chromium on PATH (tools/install-chromium.sh)' if chromium is None else f'missing {missing}'}",
              file=sys.stderr)
        return 2
    Path(args.out).mkdir(parents=True, exist_ok=True)
    for name, page in pages(Path(args.site)).items():
        print(f"wrote {shoot(page, Path(args.out) / f'{name}.png', chromium)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
