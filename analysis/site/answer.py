"""A horizon run's answer on the site, as README.md opens its results (`analysis.presentation.headline`): on the index
and at the top of the run's page; and the glossary link every page carries."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from analysis.data import published
from analysis.presentation import headline
from analysis.presentation.captions import caption
from analysis.site import html

#: the glossary, from the repository root: every page links it
GLOSSARY = Path(headline.GLOSSARY)


def glossary_link(page_dir: Path) -> str:
    return f"<p>Every word of these pages: {html.link(_href(GLOSSARY, page_dir), 'the glossary')}.</p>"


def answer_section(run: Path, page_dir: Path, config: Path | None = None) -> str:
    """A horizon run's answer, as README.md opens its results (`analysis.presentation.headline`): its scale, a
    sentence per problem, the leaderboard, the stuck and basin readings and the figure that answers, captioned; empty
    for a run without a headline table. `config`: the config that ran it, for its M (the README's run: its own; the
    M = 500 check is named on that run's page only)."""
    path = run / "tables" / "headline.csv"
    if not path.is_file():
        return ""
    table = pd.read_csv(path)
    if table.empty:
        return f"<h2>The answer</h2><p>{html.text(headline.EMPTY)}</p>"
    figure = run / "figures" / headline.FIGURE
    shown = (f"<p>{html.text(caption(figure.stem))}</p>" + html.figure(_href(figure, page_dir), figure.name)
             if figure.is_file() else f"<p><em>{html.text(figure.as_posix())} is not in this run.</em></p>")
    return (
        "<h2>The answer</h2>"
        + f"<p>{_plain(headline.intro(table, headline.inducing(config)) + _m_check(run))}</p>"
        + html.items(f"<strong>{html.text(title)}</strong>, {_plain(text)}" for title, text in headline.bullets(table))
        + html.table(headline.leaderboard(table))
        + f"<p>{_plain(headline.stuck_line(table))}</p><p>{_plain(headline.basin_line(table))}</p>"
        + shown + glossary_link(page_dir)
    )


def _plain(words: str) -> str:
    """The markdown's words as HTML text: its code and bold marks dropped."""
    return html.text(words.replace("`", "").replace("**", ""))


def _m_check(run: Path) -> str:
    """The M = 500 check's outcome, for the run it checked (the README's headline run)."""
    return headline.m_check_note() if run == Path(published.TABLES["headline"]).parent.parent else ""


def _href(target: Path, page_dir: Path) -> str:
    return Path(os.path.relpath(target, page_dir)).as_posix()
