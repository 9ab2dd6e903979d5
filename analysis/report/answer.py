"""The report's first page: a run's answer, as README.md opens its results (`analysis.presentation.headline`), the
glossary's pointer and the table of the verdicts it measured; and where the numbers come from, its last section."""

from __future__ import annotations

from pathlib import Path

from analysis.data import published
from analysis.presentation import confirmation_block, headline
from analysis.report import text as say
from analysis.report.inputs import Run
import pandas as pd

from analysis.formatting import number, signed
from analysis.report.latex import Section, figure, long_table, text

#: where every word of the report is explained, said on its first page
GLOSSARY = r"Every term of this report (look, Holm, BCa, typical seed, margin, stuck, basin, ...) is explained in " \
    r"\texttt{docs/glossary.md}."


def answer(run: Run) -> list[str]:
    """A horizon run's answer, as README.md opens its results: the scale, a sentence per problem and the leaderboard;
    the fresh-seed confirmation's, as its README section and site page give it: what replicated, then its figure;
    nothing for another run."""
    if run.confirmation is not None:
        return [say_plain(confirmation_block.headline(run.confirmation)),
                *([figure(CONFIRMATION)] if run.has_figure(CONFIRMATION) else [])]
    if run.headline is None:
        return []
    table = run.headline
    intro = headline.intro(table, headline.inducing(Path(run.config)) if run.config else None)
    if Path(run.paper).resolve() == Path(published.TABLES["headline"]).parent.parent.resolve():
        intro += headline.m_check_note()  # the M = 500 check is of this run
    sentences = " ".join(f"{title}, {said}" for title, said in headline.bullets(table))
    board = headline.leaderboard(table)
    board["problem"] = board["problem"].where(board["problem"].ne(board["problem"].shift()), "")
    columns = "L{1.9cm} L{2.1cm} L{3.2cm} R{1.3cm} L{2.6cm} Y L{1.6cm}"
    return [
        say_plain(intro), say_plain(sentences),
        long_table(board, [text(c) for c in board.columns], columns,
                   "The answer at the last checkpoint: each method's final regret, and how often a B3O variant ends "
                   "below TS on the same seed.", "answer", size=r"\footnotesize"),
        say_plain(headline.stuck_line(table)), say_plain(headline.basin_line(table)),
        *([figure(FIGURE)] if run.has_figure(FIGURE) else []),
    ]


#: the figure that answers, on page one (a horizon run's; the confirmation's)
FIGURE = Path(headline.FIGURE).stem
CONFIRMATION = "confirmation"


def say_plain(words: str) -> str:
    """Markdown's words as LaTeX text: its code and bold marks dropped."""
    return text(words.replace("`", "").replace("**", ""))


def provenance(run: Run) -> Section | None:
    """Where the numbers come from: the run's commits, platforms and machines (its provenance table), last."""
    if run.provenance is None:
        return None
    return Section("Provenance", [say.provenance(dict(zip(run.provenance["item"], run.provenance["value"])),
                                                 run.config)], "provenance")


def measured(table: pd.DataFrame) -> pd.DataFrame:
    """The claims a run measured: page one's table leaves the rest to a sentence."""
    return table[table["verdict"] != "not measured"]


def glance_table(table: pd.DataFrame, caption: str, label: str) -> str:
    def binding(r) -> str:  # claims tables written before the binding comparison was recorded have none
        name, mean = getattr(r, "binding", ""), getattr(r, "binding_mean", float("nan"))
        if not isinstance(name, str) or not name or pd.isna(mean):
            return ""
        return f"{name}: {signed(mean)} [{number(r.binding_lo)}, {number(r.binding_hi)}]"

    shown = pd.DataFrame(
        [[str(r.number), r.claim, r.verdict, binding(r)] for r in table.itertuples()],
        columns=["#", "claim", "verdict", "binding comparison: advantage [95% CI]"],
    )
    header = ["\\#", "Claim", "Verdict", r"Binding comparison: advantage [95\,\% CI]"]
    return long_table(shown, header, "l Y L{2.2cm} L{5.2cm}", caption, label, size=r"\footnotesize", breaks=True)
