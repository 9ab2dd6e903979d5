"""Number formatting shared by the statistics, the claims and the tables (below all of them: imports nothing here)."""

from __future__ import annotations

import math


def number(value: float) -> str:
    """Three significant digits (whole numbers from 1000 on, never e-notation there); NaN as an en dash."""
    if value is None or math.isnan(value):
        return "–"
    return f"{value:.0f}" if abs(value) >= 1000 else f"{value:.3g}"


def with_ci(mean: float, lo: float, hi: float) -> str:
    """`mean [lo, hi]`, or just the mean when the CI is undefined (a single seed)."""
    if isinstance(lo, float) and math.isnan(lo):
        return f"{number(mean)} (1 seed)"
    return f"{number(mean)} [{number(lo)}, {number(hi)}]"


def signed(value: float) -> str:
    """A difference with its sign always shown (+0.3, −1.2)."""
    text = number(value)
    return text if text.startswith(("-", "–")) else f"+{text}"


def series(items: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
