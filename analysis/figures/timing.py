"""Cost of one batch against batch size B, log-log, with the fitted scaling exponent of each method in the legend.

Input: the scaling CSV of `b3o scaling` (columns `bench.records.SCALING_COLUMNS`). The slope of log(time) on
log(B) is the empirical exponent: ≈ 1 is linear in B, ≈ 0 means the per-iteration cost (building the sampler)
dominates. Right: peak memory of the process.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.figure import Figure

from analysis.figures import common
from analysis.naming import method_title
from bench.records import SCALING_COLUMNS as COLUMNS


def series_name(row: pd.Series) -> str:
    """The method setting's name ("B3O-UCB (DEFER)", "q-EI"), leaving out the parts a method does not have."""
    return method_title(row["method"], row["acquisition"], "", row["sampler"])


def scaling(table: pd.DataFrame) -> pd.DataFrame:
    """One row per measured (series, batch size) with the least-squares log-log slope of median time on B per series.

    Batch sizes that were skipped (no time: over the time cap) are left out of the fit and the plot.
    """
    measured = table[table["seconds_median"].notna()]
    data = measured.assign(series=measured.apply(series_name, axis=1)).sort_values(["series", "batch_size"])
    slopes = {
        name: np.polyfit(np.log(runs["batch_size"]), np.log(runs["seconds_median"]), 1)[0]
        if runs["batch_size"].nunique() > 1
        else np.nan
        for name, runs in data.groupby("series")
    }
    return data.assign(slope=data["series"].map(slopes))


def draw(data: pd.DataFrame) -> Figure:
    fig, axes = common.panels(["time", "memory"], height=2.8)
    # B3O: tab20 pairs a dark and a light shade, one pair per sampler (UCB, LogEI), solid with circles; baselines
    # in their own colours and line styles, with squares
    ours = data[data["method"] == "b3o"]["series"].unique()
    palette = dict(zip(sorted(ours), sns.color_palette("tab20", max(len(ours), 1))))
    for name, runs in data.groupby("series"):
        slope = runs["slope"].iloc[0]
        label = f"{name} (slope {slope:.2f})" if np.isfinite(slope) else name
        colour = palette[name] if name in palette else common.colour(name)
        style = {"marker": "o", "ls": "-"} if name in palette else {"marker": "s", "ls": common.line_style(name)}
        axes["time"].plot(runs["batch_size"], runs["seconds_median"], color=colour, label=label, **style)
        if (runs["repeats"] > 1).any():  # one repeat: its minimum is its median, a second line says nothing
            axes["time"].plot(runs["batch_size"], runs["seconds_min"], ":", color=colour, lw=1)
        axes["memory"].plot(runs["batch_size"], runs["peak_rss_mb"], color=colour, **style)
    axes["time"].set(xscale="log", yscale="log", xlabel="Batch size B", ylabel="Time per batch [s]")
    axes["memory"].set(xscale="log", xlabel="Batch size B", ylabel="Peak resident memory [MB]")
    repeats = "median of repeats, dotted: their minimum" if (data["repeats"] > 1).any() else "one repeat"
    return common.titled(
        fig, f"Batch cost against batch size (solid: {repeats}; legend: fitted log-log slope)", [axes["time"]]
    )


def main(argv: list[str] | None = None) -> int:
    cli = common.parser("timing", __doc__.splitlines()[0], table_help="scaling table (CSV) of batch timings")
    args = cli.parse_args(argv)
    table = common.load_table(args.table)
    absent = [c for c in COLUMNS if c not in table.columns]
    if absent:
        missing = f"{args.table}: not a scaling table (missing columns {absent})"
    else:
        missing = f"{args.table}: no measured timings" if table["seconds_median"].isna().all() else None
    return common.publish(args.out, lambda: draw(scaling(table)), missing)


if __name__ == "__main__":
    raise SystemExit(main())
