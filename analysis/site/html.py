"""HTML pieces for the site's pages: escaped text, tables from data frames, collapsible blocks and the page frame.

Every value is escaped here and nowhere else, so a claim or a label with `<` or `&` never breaks a page.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

import pandas as pd

#: the page's own check that its images loaded: sets <body data-images-loaded="all"> when every <img> has decoded
#: pixels, or "k of n" (read by tests/test_site.py in a headless browser)
IMAGES_CHECK = """<script>
function b3oImagesLoaded() {
  const images = Array.from(document.images);
  const loaded = images.filter((img) => img.complete && img.naturalWidth > 0).length;
  document.body.dataset.imagesLoaded = loaded === images.length ? "all" : loaded + " of " + images.length;
}
window.addEventListener("load", b3oImagesLoaded);
</script>"""

STYLE = """<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1200px; padding: 0 1em; line-height: 1.4; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.5em; vertical-align: top; text-align: left; }
th { background: #f2f2f2; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 1em 0 2em; }
figure img { max-width: 100%; border: 1px solid #eee; }
figcaption { font-family: monospace; color: #555; }
.verdict-holds { background: #e3f4e3; } .verdict-fails { background: #fbe3e3; } .verdict-open { background: #fdf6d8; }
details > summary { cursor: pointer; }
.wide { overflow-x: auto; }
pre { white-space: pre-wrap; background: #f7f7f7; padding: 0.75em; font-size: 0.85em; }
</style>"""


def text(value: object) -> str:
    """Escaped text; NaN and None as an en dash."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return "–"
    return escape(str(value))


def link(href: str, label: str) -> str:
    return f'<a href="{escape(href, quote=True)}">{text(label)}</a>'


def verdict_class(verdict: str) -> str:
    """A CSS class by the verdict's outcome (colour only; the text says it)."""
    if verdict.startswith("holds"):
        return "verdict-holds"
    if verdict.startswith("does not hold"):
        return "verdict-fails"
    return "verdict-open"


def table(frame: pd.DataFrame, raw: Sequence[str] = (), classes: dict[int, str] | None = None) -> str:
    """An HTML table of `frame`: numbers right-aligned; cells of the `raw` columns are already HTML; `classes` gives
    a row (by position) a CSS class."""
    head = "".join(f"<th>{text(c)}</th>" for c in frame.columns)
    rows = []
    for i, row in enumerate(frame.itertuples(index=False)):
        cells = []
        for column, value in zip(frame.columns, row):
            numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
            content = str(value) if column in raw else text(value)
            cells.append(f'<td class="number">{content}</td>' if numeric else f"<td>{content}</td>")
        css = f' class="{(classes or {}).get(i)}"' if (classes or {}).get(i) else ""
        rows.append(f"<tr{css}>{''.join(cells)}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def details(summary: str, body: str) -> str:
    """A block shown on a click; `summary` and `body` are HTML."""
    return f"<details><summary>{summary}</summary>{body}</details>"


def figure(src: str, name: str) -> str:
    return f'<figure><img src="{escape(src, quote=True)}" alt="{text(name)}"><figcaption>{text(name)}</figcaption></figure>'


def items(entries: Iterable[str]) -> str:
    """A bulleted list of HTML entries."""
    return "<ul>" + "".join(f"<li>{e}</li>" for e in entries) + "</ul>"


def page(title: str, body: str) -> str:
    """A whole page: its title, the style, the body and the image check."""
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{text(title)}</title>{STYLE}</head>'
        f"<body><h1>{text(title)}</h1>{body}{IMAGES_CHECK}</body></html>\n"
    )
