"""LaTeX pieces of the report: escaped text, sections whose floats stay in them, figures, tables that fit the page."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from analysis.figures import printed
from analysis.presentation.captions import caption
from analysis.tables import common

TEMPLATE = Path(__file__).with_name("template.tex")
BODY = "%% BODY %%"
GEOMETRY = "%% GEOMETRY %%"


def text(value: object) -> str:
    """Plain text (Unicode symbols allowed: the preamble maps them) escaped for LaTeX."""
    return common.escape(value)


def path(value: str) -> str:
    """A file path in typewriter type, escaped, that may break after each '/' (a long run directory still fits)."""
    return rf"\texttt{{{text(value).replace('/', '/' + chr(92) + 'allowbreak{}')}}}"


@dataclass
class Section:
    """A section: its parts in order (paragraphs, subsection heads, floats, tables; LaTeX), all placed before the
    next section starts."""

    title: str
    parts: list[str]
    label: str = ""
    appendix: bool = False  # the first appendix section starts the appendices
    new_page: bool = False  # starts on a page of its own: its figures then go on its first page, before a long table

    def render(self) -> str:
        head = (r"\clearpage" + "\n" if self.new_page else "") + rf"\section{{{self.title}}}" + (
            rf"\label{{sec:{self.label}}}" if self.label else "")
        # \FloatBarrier: every float of this section is placed before the next section begins
        return "\n\n".join([head, *(p for p in self.parts if p), r"\FloatBarrier"]) + "\n"


def subsection(title: str, paragraphs: list[str], blocks: list[str]) -> list[str]:
    """A subsection's parts: its paragraphs, its floats and tables, and a barrier keeping the floats inside it."""
    paragraphs = [p for p in paragraphs if p]
    # floats follow the first paragraph, so they can go on its page; long tables (not floats) after the text
    figures = [b for b in blocks if b.startswith((r"\begin{figure}", r"\begin{table}"))]
    tables = [b for b in blocks if b not in figures]
    return [rf"\subsection{{{title}}}", *paragraphs[:1], *figures, *paragraphs[1:], *tables, r"\FloatBarrier"]


def figure(name: str) -> str:
    """One figure float, full width (the width it was drawn at, `analysis.figures.printed`) but never taller than
    `printed.FIGURE_HEIGHT` of the text height, with the shared caption; label fig:NAME."""
    height = rf"{printed.FIGURE_HEIGHT:g}\textheight"
    return "\n".join(
        [
            r"\begin{figure}[!htbp]",
            r"\centering",
            rf"\includegraphics[width=\linewidth,height={height},keepaspectratio]{{{name}}}",
            rf"\caption{{{text(caption(name))}}}\label{{fig:{name}}}",
            r"\end{figure}",
        ]
    )


def ref(name: str) -> str:
    """`Figure~\\ref{fig:NAME}`."""
    return rf"Figure~\ref{{fig:{name}}}"


def blank_repeats(rows: pd.DataFrame, column: str, within: str | None = None) -> pd.DataFrame:
    """`column` shown only where it changes (or where `within` changes): grouped rows read as groups."""
    shown = rows.copy()
    repeated = shown[column].eq(shown[column].shift())
    if within is not None:
        repeated &= shown[within].eq(shown[within].shift())
    shown[column] = shown[column].astype(object).where(~repeated, "")
    return shown


#: tables up to this many rows are floats (they stay on one page); longer ones break across pages
FLOAT_ROWS = 30


def long_table(
    rows: pd.DataFrame,
    header: list[str],
    columns: str,
    caption_text: str,
    label: str,
    size: str = r"\small",
    breaks: bool | None = None,
    group: str | None = None,
) -> str:
    """A full-width table with its caption (LaTeX). Short tables are `table` floats holding a `tabularx`; long ones
    (or `breaks=True`) an `xltabular` that breaks across pages and repeats its header there. `columns` may use the
    preamble's `L{width}`, `R{width}` (ragged p) and `Y` (ragged X: takes the rest of the line) columns. With
    `group`, that column (and its header and column spec, the first ones) is dropped and each of its values heads
    its rows on a line of its own."""
    starts, titles = [], []
    if group is not None:
        starts = [i for i, changed in enumerate(rows[group].ne(rows[group].shift())) if changed]
        titles = [text(rows[group].iloc[i]) for i in starts]
        rows, header, columns = rows.drop(columns=group), header[1:], columns.split(" ", 1)[1]
    breaks = len(rows) > FLOAT_ROWS if breaks is None else breaks
    lines = common.latex(
        rows, header, columns, environment="xltabular" if breaks else "tabularx", width=r"\linewidth"
    ).splitlines()
    first_row = lines.index(r"\midrule") + 1 + breaks  # after \endhead in an xltabular
    for i, title in reversed(list(zip(starts, titles))):
        rule = [r"\addlinespace"] if i else []
        lines[first_row + i : first_row + i] = [
            *rule,
            rf"\multicolumn{{{len(header)}}}{{@{{}}l}}{{\itshape {title}}}\\",
        ]
    caption_line = rf"\caption{{{caption_text}}}\label{{tab:{label}}}"
    setup = [size, r"\setlength{\tabcolsep}{4pt}"]
    if not breaks:
        return "\n".join([r"\begin{table}[!htbp]", r"\centering", caption_line, *setup, *lines, r"\end{table}"])
    begin, head = lines[0], lines[1:4]  # \toprule, header, \midrule; then \endhead
    continued = rf"\multicolumn{{{len(header)}}}{{@{{}}l}}{{\itshape continued from the previous page}}\\"
    table = [begin, caption_line + r"\\", *head, r"\endfirsthead", continued, *head, r"\endhead", *lines[5:]]
    return "\n".join([r"\begingroup", *setup, *table, r"\endgroup"])


def document(sections: list[Section], title: str | None = None, byline: str | None = None) -> str:
    """The whole report: the template's preamble around the sections (under `title` instead of the template's, with
    `byline`, LaTeX, above the template's author line)."""
    rendered = []
    for i, s in enumerate(sections):
        starts = s.appendix and not any(earlier.appendix for earlier in sections[:i])
        rendered.append((r"\appendix" + "\n" if starts else "") + s.render())
    body = "\n".join(rendered)
    # "λ_t" in plain text (captions, claims) reads as a subscript, not as an escaped underscore
    page = TEMPLATE.read_text().replace(GEOMETRY, printed.geometry())
    if title is not None:
        page = re.sub(r"\\title\{[^\n]*\}", lambda _: rf"\title{{{text(title)}}}", page, count=1)
    if byline is not None:
        page = re.sub(r"\\author\{([^\n]*)\}", lambda m: rf"\author{{{byline}\\ {m.group(1)}}}", page, count=1)
    return page.replace(BODY, body.replace(r"λ\_t", r"\ensuremath{\lambda_t}"))
