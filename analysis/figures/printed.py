"""The printed page: the report's paper, margins and text block, the tallest figure it sets, and the smallest text a
figure may print. Figures are drawn at this width (`analysis.figures.common`) and the report sets them at it
(`analysis.report.latex`), so a figure is never shrunk into the column and its text prints at the size it was
drawn."""

from __future__ import annotations

PAPER_IN = (8.5, 11.0)  # US letter, LaTeX's article default
MARGIN_CM = 2.2
TEXT_WIDTH_IN = PAPER_IN[0] - 2 * MARGIN_CM / 2.54
TEXT_HEIGHT_IN = PAPER_IN[1] - 2 * MARGIN_CM / 2.54
#: the tallest a figure is set, as a fraction of the text height: taller ones are shrunk to it
FIGURE_HEIGHT = 0.75
#: the smallest text a printed figure may have (pt)
SMALLEST_FONT_PT = 7.0


def geometry() -> str:
    """The options of LaTeX's geometry package for this page."""
    return f"letterpaper,margin={MARGIN_CM}cm"


def included_scale(width_in: float, height_in: float, capped: bool = True) -> float:
    """How much the report scales a figure of this size (inches): to the text width, or less where the figure would
    be taller than `FIGURE_HEIGHT` of the text height (`capped`; a page on the site has no such cap)."""
    scale = TEXT_WIDTH_IN / width_in
    return min(scale, FIGURE_HEIGHT * TEXT_HEIGHT_IN / height_in) if capped else scale
