"""Means over seeds with 95% bootstrap confidence intervals, final values, and traces on a common evaluation grid.

CI method (used by every figure and table; the claims compare paired differences instead,
`analysis.statistics.verdicts`): the percentile bootstrap of the mean over the trials (seeds) of a group, with
`analysis.data.resampling.NUM_RESAMPLES` resamples drawn by `numpy.random.default_rng(SEED)`. The resamples depend
only on the number of seeds n, so every group of n seeds uses the same index sets: a group's CI is the same whatever
other groups are summarised with it, and the same on every run. NaN values are dropped first (a trial that has not
reached an evaluation count contributes nothing there). A group with a single value has mean = that value and CI = NaN:
plots draw its line without a band.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from analysis.data.tidy import TRIAL_COLUMNS
from analysis.data.resampling import LEVEL, NUM_RESAMPLES, SEED

#: a problem's headline metric: the first of these its trials record
HEADLINE_METRICS = ("simple_regret", "hypervolume", "best_value")


def _resample_counts(n: int) -> np.ndarray:
    """[NUM_RESAMPLES, n] how often each of n values appears in each resample (seeded, depends on n only)."""
    index = np.random.default_rng(SEED).integers(0, n, size=(NUM_RESAMPLES, n))
    counts = np.zeros((NUM_RESAMPLES, n))
    np.add.at(counts, (np.arange(NUM_RESAMPLES)[:, None], index), 1.0)
    return counts


def bootstrap_means(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean, lower and upper CI bound of each row of `values` [G, n] (all rows complete, no NaN)."""
    values = np.asarray(values, dtype=np.float64)
    mean = values.mean(axis=1)
    if values.shape[1] < 2:
        nan = np.full(len(values), np.nan)
        return mean, nan, nan
    resampled = values @ _resample_counts(values.shape[1]).T / values.shape[1]  # [G, NUM_RESAMPLES]
    tail = 100 * (1 - LEVEL) / 2
    lo, hi = np.percentile(resampled, [tail, 100 - tail], axis=1)
    return mean, lo, hi


def bootstrap_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """(mean, lower, upper) of one sample; NaNs dropped; CI NaN for fewer than two values."""
    values = np.asarray(values, dtype=np.float64)
    values = values[~np.isnan(values)]
    if len(values) == 0:
        return np.nan, np.nan, np.nan
    mean, lo, hi = bootstrap_means(values[None, :])
    return float(mean[0]), float(lo[0]), float(hi[0])


def summarise(df: pd.DataFrame, by: Sequence[str], value: str, x: str | None = None) -> pd.DataFrame:
    """Mean and 95% CI of `value` over the rows (seeds) of each (`by`..., `x`) group.

    Returns columns `by`, `x` (if given), `mean`, `lo`, `hi`, `n` (number of non-NaN values), sorted by the keys.
    Groups are batched by their number of values so that thousands of (group, x) cells cost one matrix product each.
    """
    keys = list(by) + ([x] if x is not None else [])
    data = df.loc[df[value].notna(), keys + [value]]
    if data.empty:
        return pd.DataFrame(columns=keys + ["mean", "lo", "hi", "n"])
    grouped = data.groupby(keys, sort=True, dropna=False)
    group = grouped.ngroup().to_numpy()
    position = grouped.cumcount().to_numpy()
    values = data[value].to_numpy(dtype=np.float64)
    sizes = np.bincount(group)
    stats = np.full((len(sizes), 3), np.nan)
    for n in np.unique(sizes):
        ids = np.flatnonzero(sizes == n)
        row_of = np.full(len(sizes), -1)
        row_of[ids] = np.arange(len(ids))
        member = row_of[group] >= 0
        matrix = np.empty((len(ids), n))
        matrix[row_of[group[member]], position[member]] = values[member]
        stats[ids] = np.column_stack(bootstrap_means(matrix))
    out = grouped.size().index.to_frame(index=False)
    out[["mean", "lo", "hi"]] = stats
    out["n"] = sizes
    return out


def on_shared_seeds(rows: pd.DataFrame, across: str, within: Sequence[str] = ()) -> pd.DataFrame:
    """The rows of the seeds that every value of `across` has (within each group of `within`): in a design paired by
    seed (each seed one initial design), means compared across those values are then taken over the same designs, not
    over whichever seeds each happens to have (a setting that shares its trials with another experiment can have
    more)."""
    have = rows.groupby([*within, "seed"])[across].transform("nunique")
    need = rows.groupby(list(within))[across].transform("nunique") if within else rows[across].nunique()
    return rows[have == need]


def final(df: pd.DataFrame) -> pd.DataFrame:
    """The last iteration of every (experiment, trial): each trial's final values."""
    last = df.groupby(["experiment", "trial_id"])["iteration"].transform("max")
    return df[df["iteration"] == last].reset_index(drop=True)


def evaluation_grid(df: pd.DataFrame, x: str = "num_evals") -> np.ndarray:
    """The union of the evaluation counts recorded by any trial in `df`: a grid on which every trace is known."""
    return np.unique(df[x].to_numpy())


def on_grid(df: pd.DataFrame, value: str, grid: np.ndarray | None = None, x: str = "num_evals") -> pd.DataFrame:
    """Each trial's `value` on a common grid of evaluation counts, so methods with different batch sizes line up.

    The value at k evaluations is the trial's last recorded value at or before k (a step function: a batch method's
    best-so-far after k evaluations is what it had after its last complete batch). It is NaN before the trial's
    first record and after its last, so no trial is extrapolated past its budget. Returns the per-trial columns of
    `df`, `x` and `value`, one row per (experiment, trial, grid point).
    """
    grid = evaluation_grid(df, x) if grid is None else np.asarray(grid)
    trial_columns = [c for c in TRIAL_COLUMNS if c in df.columns]
    ordered = df.sort_values(x).reset_index(drop=True)
    firsts, columns = [], []  # each trial's first row (its per-trial columns) and its values on the grid
    for _, trace in ordered.groupby(["experiment", "trial_id"], sort=False):
        known = trace[x].to_numpy()
        index = np.searchsorted(known, grid, side="right") - 1
        inside = (index >= 0) & (grid <= known[-1])
        columns.append(np.where(inside, trace[value].to_numpy()[np.clip(index, 0, None)], np.nan))
        firsts.append(trace.index[0])
    if not firsts:
        return pd.DataFrame(columns=trial_columns + [x, value])
    out = ordered.loc[np.repeat(firsts, len(grid)), trial_columns].reset_index(drop=True)
    out[x] = np.tile(grid, len(firsts))
    out[value] = np.concatenate(columns)
    return out


def curves(df: pd.DataFrame, by: Sequence[str], value: str, x: str = "num_evals") -> pd.DataFrame:
    """Mean and CI of `value` against evaluations for each `by` group, each problem on its own common grid.

    `by` should include "problem": traces are put on the grid of their problem (`on_grid`), then summarised.
    """
    frames = [summarise(on_grid(sub, value, x=x), by, value, x) for _, sub in df[df[value].notna()].groupby("problem")]
    return (
        pd.concat(frames, ignore_index=True)
        if frames
        else pd.DataFrame(columns=list(by) + [x, "mean", "lo", "hi", "n"])
    )


def final_values(df: pd.DataFrame) -> pd.DataFrame:
    """Each trial's final value of its problem's headline metric, with the metric's name and direction.

    The metric is simple regret where the optimum is known, else hypervolume (multi-objective), else the best
    objective value. Adds columns `metric`, `value` and `lower_is_better` to the final rows.
    """
    last = final(df)
    candidates = last[list(HEADLINE_METRICS)]
    metric = candidates.notna().idxmax(axis=1)  # the first known metric, in order of preference
    value = candidates.bfill(axis=1).iloc[:, 0]
    lower = (metric == "simple_regret") | ((metric == "best_value") & (last["sense"] == "minimise"))
    return last.assign(metric=metric, value=value, lower_is_better=lower)
