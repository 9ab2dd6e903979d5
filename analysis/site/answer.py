"""A horizon run's answer on the site, as README.md opens its results (`analysis.presentation.headline`): on the index
and at the top of the run's page; and the glossary link every page carries."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from analysis.data import published
from analysis.naming import problem_title
from analysis.presentation import confirmation_block, headline
from analysis.presentation.captions import caption
from analysis.site import glossary, html

#: a confirmation run's decided readings (`analysis.statistics.confirmation`), under its tables/, and its figure
CONFIRMATION, CONFIRMATION_FIGURE = "confirmation.csv", "confirmation"
#: the figures an answer section shows, which its page does not show again among its other figures
FIGURES = {Path(headline.FIGURE).stem, CONFIRMATION_FIGURE}
def answer_section(run: Path, page_dir: Path, site: Path, config: Path | None = None) -> str:
    """A horizon run's answer, as README.md opens its results (`analysis.presentation.headline`): its scale, a
    sentence per problem, the leaderboard, the stuck and basin readings and the figure that answers, captioned; a
    confirmation run's readings instead where it has them (`confirmation_section`); empty for a run with neither.
    `config`: the config that ran it, for its M (the README's run: its own; the M = 500 check is named on that run's
    page only)."""
    path = run / "tables" / "headline.csv"
    if (run / "tables" / CONFIRMATION).is_file():
        return confirmation_section(pd.read_csv(run / "tables" / CONFIRMATION), page_dir, site,
                                    run / "figures" / f"{CONFIRMATION_FIGURE}.png")
    if not path.is_file():
        return ""
    table = pd.read_csv(path)
    if table.empty:
        return f"<h2>The answer</h2><p>{html.text(headline.EMPTY)}</p>"
    figure = run / "figures" / headline.FIGURE
    shown = (f"<p>{html.text(caption(figure.stem))}</p>" + html.figure(_href(figure, page_dir), figure.name)
             if figure.is_file() else f"<p><em>{html.text(figure.as_posix())} is not in this run.</em></p>")
    one_line = f"<p>{_plain(headline.answer_line(table, link=None))}</p>" if _readmes(run) else ""
    return (
        "<h2>The answer</h2>" + one_line
        + f"<p>{_plain(headline.intro(table, headline.inducing(config)) + _checks(run))}</p>"
        + html.items(f"<strong>{html.text(title)}</strong>, {_plain(text)}" for title, text in headline.bullets(table))
        + html.table(headline.leaderboard(table))
        + f"<p>{_plain(headline.stuck_line(table))}</p><p>{_plain(headline.basin_line(table))}</p>"
        + shown + glossary.link(page_dir, site)
    )


def confirmation_section(table: pd.DataFrame, page_dir: Path, site: Path, figure: Path | None = None) -> str:
    """A confirmation run's answer (`analysis.presentation.confirmation_block`): which exploratory readings replicated
    on fresh seeds, in words, and its figure where drawn (`analysis.figures.confirmation`); then each tested reading
    with its fresh-seed counts, one-sided p, the level Holm held it to, its look and status; the readings with no
    expected direction apart, as they decide nothing."""
    words = table.apply(lambda r: confirmation_block.SAYS.get((r["kind"], r["expect"]), f"{r['kind']} (described)"),
                        axis=1)
    shown = table.assign(problem=table["problem"].map(problem_title), reading=words)[
        ["problem", "variant", "reading", "seen", "look", "seeds", "for_variant", "for_rival", "p", "holm_level",
         "status"]].rename(columns={"seen": "exploratory (B3O/TS)", "for_variant": "fresh: for B3O",
                                    "for_rival": "fresh: for TS", "holm_level": "Holm level"})
    tested = shown[table["status"] != confirmation_block.DESCRIPTIVE]
    described = shown[table["status"] == confirmation_block.DESCRIPTIVE].drop(columns=["look", "Holm level"])
    return (
        "<h2>What replicated</h2>"
        + f"<p>{html.text(confirmation_block.headline(table))}</p>"
        + (f"<p>{html.text(caption(figure.stem))}</p>" + html.figure(_href(figure, page_dir), figure.name)
           if figure is not None and figure.is_file() else "")
        + "<p>Each reading tested, one-sided in the direction the exploration found (fresh: the seeds for B3O and for "
        "TS, ties left out; a basin reading counts the seeds where only one of the two ends in the basin):</p>"
        + html.table(tested)
        + "<p>Readings with no expected direction, described on the same seeds (two-sided p, unadjusted):</p>"
        + html.table(described)
        + glossary.link(page_dir, site)
    )


def _plain(words: str) -> str:
    """The markdown's words as HTML text: its code and bold marks dropped."""
    return html.text(words.replace("`", "").replace("**", ""))


def _readmes(run: Path) -> bool:
    """Whether `run` is the README's headline run (the one its answer, the M = 500 check and the confirmation are of)."""
    return run == Path(published.TABLES["headline"]).parent.parent


def _checks(run: Path) -> str:
    """The M = 500 check's outcome and the fresh-seed confirmation's, for the run they check (the README's headline
    run)."""
    return headline.checks_note() if _readmes(run) else ""


def _href(target: Path, page_dir: Path) -> str:
    return Path(os.path.relpath(target, page_dir)).as_posix()
