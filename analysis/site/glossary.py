"""The glossary as a page of the site (`<site>/glossary.html`), so that the link every page carries opens a page
wherever the site is served, not raw Markdown: rendered from docs/glossary.md, which stays its one source (CommonMark
with tables, markdown-it-py), its links to the other docs pointed at docs/ from the site's folder."""

from __future__ import annotations

import os
from pathlib import Path

from markdown_it import MarkdownIt

from analysis.presentation.headline import GLOSSARY
from analysis.site import html

#: the glossary's source, from the repository root the site is built from (a user's study elsewhere: none, as its
#: claims.md links none)
SOURCE = Path(GLOSSARY)
PAGE = "glossary.html"


def link(page_dir: Path, site: Path, source: Path = SOURCE) -> str:
    """'Every word of these pages: the glossary.' linked from a page in `page_dir`; empty where there is no glossary."""
    if not source.is_file():
        return ""
    href = Path(os.path.relpath(site / PAGE, page_dir)).as_posix()
    return f"<p>Every word of these pages: {html.link(href, 'the glossary')}.</p>"


def write(site: Path, source: Path = SOURCE) -> Path | None:
    """Render `source` to `site`/glossary.html; None (nothing written) where it is not at hand."""
    if not source.is_file():
        return None
    renderer = MarkdownIt("commonmark").enable("table")
    tokens = renderer.parse(source.read_text(encoding="utf-8"))
    if tokens and tokens[0].type == "heading_open" and tokens[0].tag == "h1":
        tokens = tokens[3:]  # its title: the page has its own
    for token in (child for t in tokens for child in (t.children or [])):
        href = token.attrGet("href") if token.type == "link_open" else None
        if isinstance(href, str) and not href.startswith(("http://", "https://", "#", "/", "mailto:")):
            token.attrSet("href", Path(os.path.relpath(source.parent / href, site)).as_posix())
    body = renderer.renderer.render(tokens, renderer.options, {})
    site.mkdir(parents=True, exist_ok=True)
    target = site / PAGE
    target.write_text(html.page("B3O results: glossary", body), encoding="utf-8")
    return target
