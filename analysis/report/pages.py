"""How full each page of a rendered report is, so a test can catch a page left mostly empty by a float that did not
fit (poppler's `pdftoppm` and `pdftotext`, installed with LaTeX by `tools/install-latex.sh`).

A page's fill is how far down its body the lowest ink reaches: the page is rendered in grey at low resolution, its
footer (the page number: a last line of ink at the same height on most pages) is left out, and the body runs from
the highest ink row of any page to the lowest of any. A page that ends a section (the page before one
whose text starts a section, and the last page) may be short.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from collections import Counter
from pathlib import Path

import numpy as np
from PIL import Image

INK = 200  # grey levels below this are ink


def _blocks(page: np.ndarray) -> list[tuple[int, int]]:
    """(first, last) pixel rows of each run of ink rows, top to bottom."""
    rows = np.flatnonzero((page < INK).any(axis=1))
    if not rows.size:
        return []
    cuts = np.flatnonzero(np.diff(rows) > 2)
    return [(int(rows[a]), int(rows[b])) for a, b in zip(np.r_[0, cuts + 1], np.r_[cuts, rows.size - 1])]


def page_fill(pdf: Path, dpi: int = 30) -> list[float]:
    """Each page's fill in [0, 1]: how far down the body its lowest ink (above the footer) reaches."""
    with tempfile.TemporaryDirectory() as scratch:
        subprocess.run(["pdftoppm", "-gray", "-r", str(dpi), str(pdf), f"{scratch}/page"], check=True)
        pages = [_blocks(np.asarray(Image.open(p))) for p in sorted(Path(scratch).glob("page-*.pgm"))]
    lasts = Counter(blocks[-1] for blocks in pages if blocks)
    footer, count = lasts.most_common(1)[0] if lasts else (None, 0)
    if count <= len(pages) / 2:
        footer = None
    bodies = [[b for b in blocks if b != footer] for blocks in pages]
    top = min((blocks[0][0] for blocks in bodies if blocks), default=0)
    bottom = max((blocks[-1][1] for blocks in bodies if blocks), default=1)
    return [max(0.0, (blocks[-1][1] - top) / max(bottom - top, 1)) if blocks else 0.0 for blocks in bodies]


def section_starts(pdf: Path, titles: list[str]) -> set[int]:
    """1-based pages on which a section titled one of `titles` starts: a line that is its title alone, as
    `pdftotext` reads a heading (it may set the number apart)."""
    text = subprocess.run(["pdftotext", str(pdf), "-"], check=True, capture_output=True, text=True).stdout
    starts = set()
    for number, page in enumerate(text.split("\f"), start=1):
        if any(line.strip() in titles for line in page.splitlines()):
            starts.add(number)
    return starts


def short_pages(pdf: Path, tex: Path, least: float = 1 / 3) -> list[tuple[int, float]]:
    """(page, fill) of every page less than `least` full that does not end a section."""
    titles = re.findall(r"\\section\{([^}]*)\}", tex.read_text())
    fill = page_fill(pdf)
    ends = {start - 1 for start in section_starts(pdf, titles)} | {len(fill)}
    return [(page, round(f, 2)) for page, f in enumerate(fill, start=1) if f < least and page not in ends]
