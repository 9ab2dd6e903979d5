"""Cost of one batch against batch size B, log-log, with the fitted scaling exponent of each method in the legend.

Input: the scaling CSV of `b3o scaling` (columns `baselines.records.SCALING_COLUMNS`). The slope of log(time) on
log(B) is the empirical exponent: ≈ 1 is linear in B, ≈ 0 means the per-iteration cost (building the sampler)
dominates. Right: peak memory of the process.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.figure import Figure

from analysis.figures import common
from baselines.records import SCALING_COLUMNS as COLUMNS


def series_name(row: pd.Series) -> str:
    """method/sampler/acquisition, leaving out the parts a method does not have."""
    parts = [row["method"], row["sampler"], row["acquisition"]]
    return "/".join(str(p) for p in parts if isinstance(p, str) and p)


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
    fig, axes = common.panels(["time", "memory"], width=5.0, height=4.0)
    # tab20 pairs a dark and a light shade: one pair per B3O sampler (UCB, LogEI); baselines dashed with squares
    palette = sns.color_palette("tab20", max(data["series"].nunique(), 1))
    for colour, (name, runs) in zip(palette, data.groupby("series")):
        slope = runs["slope"].iloc[0]
        label = f"{name} (slope {slope:.2f})" if np.isfinite(slope) else name
        style = "o-" if name.startswith("b3o") else "s--"
        axes["time"].plot(runs["batch_size"], runs["seconds_median"], style, color=colour, label=label)
        if (runs["repeats"] > 1).any():  # one repeat: its minimum is its median, a second line says nothing
            axes["time"].plot(runs["batch_size"], runs["seconds_min"], ":", color=colour, lw=1)
        axes["memory"].plot(runs["batch_size"], runs["peak_rss_mb"], style, color=colour)
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
