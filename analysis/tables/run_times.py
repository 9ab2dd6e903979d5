"""Where the reproduction's time goes: per experiment and method, the trials' wall time and peak memory, and its
split, all from the trials' own records (via the tidy table).

A trial's wall time is its process start-up (interpreter and imports; 0 for later trials of a job that runs several)
plus its own run; a trial resumed after a crash counts only the process that finished it. A trial shared by two
experiments (the same spec) ran once and is counted in each experiment that uses it; the `all experiments` row counts
each trial once. Trials run single-threaded, so the sum over trials is core-seconds, not the run's wall time; the
`span_min` column is the wall time from the first trial's start (its finish time minus its wall time) to the last
trial's finish, which includes any pause between resumed runs. `total_cpu_s` sums the trials' CPU seconds (start-up,
every iteration, and the checkpoints' I/O; records made since 2026-11-27 keep them, NaN if any trial lacks them):
what the trials take on cores of their own, which the wall seconds of a loaded machine exceed.

The split (mean seconds per trial): start-up, model fits, the acquire step - for B3O divided into density
(acquisition) evaluations inside the sampler and everything else (the sampler's bookkeeping, the acquisition update,
the reference-set diagnostics) - evaluations, and checkpoint I/O.
"""

from __future__ import annotations

import argparse

import pandas as pd

from analysis.naming import display_labels, experiment_title
from analysis.tables import common

#: cost-profile column -> how it is read from the tidy table (summed over a trial's iterations, except start-up)
PROFILE = ("startup_s", "fit_s", "density_s", "acquire_other_s", "evaluate_s", "io_s")


def profile(tidy: pd.DataFrame) -> pd.DataFrame:
    """One row per trial: wall seconds, peak RSS (MB) and the cost profile in seconds (see the module docstring)."""
    rows = tidy.drop_duplicates(["trial_id", "iteration"]).assign(
        density_s=lambda f: f["density_seconds"].fillna(0.0),
    )
    rows = rows.assign(acquire_other_s=rows["acquire_s"] - rows["density_s"])
    by_trial = rows.groupby("trial_id")
    sums = by_trial[["fit_s", "density_s", "acquire_other_s", "evaluate_s", "io_s"]].sum(min_count=1)
    firsts = by_trial[["startup_s", "wall_s", "finished_utc"]].first().rename(columns={"wall_s": "seconds"})
    return sums.join(firsts).join(_cpu_seconds(rows).rename("cpu_seconds")).join(
        by_trial["peak_rss_mb"].max().rename("max_rss_mb")
    ).reset_index()


def _cpu_seconds(rows: pd.DataFrame) -> pd.Series:
    """Per trial: CPU seconds of its start-up and iterations plus its checkpoints' I/O; NaN where a part is untimed."""
    if not {"startup_cpu_s", "cpu_s"} <= set(rows.columns):
        return pd.Series(float("nan"), index=rows["trial_id"].unique())
    by_trial = rows.groupby("trial_id")
    untimed = by_trial["cpu_s"].apply(lambda c: c.isna().any()) | by_trial["startup_cpu_s"].first().isna()
    return (by_trial["startup_cpu_s"].first() + by_trial["cpu_s"].sum() + by_trial["io_s"].sum()).mask(untimed)


def span_minutes(frame: pd.DataFrame) -> float:
    """Wall minutes from the first trial's start to the last one's finish (NaN without finish times)."""
    if "finished_utc" not in frame:
        return float("nan")
    finished = pd.to_datetime(frame["finished_utc"], utc=True, errors="coerce")
    started = finished - pd.to_timedelta(frame["seconds"], unit="s")
    return (finished.max() - started.min()).total_seconds() / 60


def summarise(trials: pd.DataFrame) -> pd.DataFrame:
    """Trials, total and mean seconds, and largest peak RSS per (experiment, label), with per-experiment totals."""
    trials = trials.drop_duplicates(["experiment", "trial_id"])

    def block(frame: pd.DataFrame, experiment: str, label: str) -> dict:
        return {
            "experiment": experiment,
            "label": label,
            "trials": len(frame),
            "measured": int(frame["seconds"].notna().sum()),
            "total_s": frame["seconds"].sum(),
            "total_cpu_s": frame["cpu_seconds"].sum(min_count=len(frame)) if "cpu_seconds" in frame else float("nan"),
            "mean_s": frame["seconds"].mean(),
            "max_rss_mb": frame["max_rss_mb"].max(),
            **{f"mean_{c}": frame[c].mean() for c in PROFILE if c in frame},
            "span_min": span_minutes(frame),
        }

    out = []
    for experiment, frame in trials.groupby("experiment", sort=False):
        out += [block(f, experiment, label) for label, f in frame.groupby("label", sort=False)]
        out.append(block(frame, experiment, "all methods"))
    out.append(block(trials.drop_duplicates("trial_id"), "all experiments", "all methods"))
    return pd.DataFrame(out)


#: cost-profile column -> its header in the tables
PROFILE_NAMES = {
    "startup_s": "start-up",
    "fit_s": "fit",
    "density_s": "density",
    "acquire_other_s": "acquire, other",
    "evaluate_s": "evaluate",
    "io_s": "I/O",
}


def for_paper(table: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """The summarised rows as text (total in core-minutes, the rest in seconds and MB) and their LaTeX headers."""
    columns = ["total_s", "mean_s", *(f"mean_{c}" for c in PROFILE if f"mean_{c}" in table)]
    shown = table.assign(total_s=table["total_s"] / 60, experiment=table["experiment"].map(experiment_title))[
        ["experiment", "label", "trials", *columns, "max_rss_mb"]
    ].copy()
    for c in [*columns, "max_rss_mb"]:
        shown[c] = shown[c].map(common.number)
    header = [
        "experiment",
        "method",
        "trials",
        "total (core-min)",
        "mean per trial (s)",
        *(PROFILE_NAMES[c[len("mean_") :]] + " (s)" for c in columns[2:]),
        "peak RSS (MB)",
    ]
    return shown, [common.escape(h) for h in header]


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m analysis.tables.run_times", description=__doc__.splitlines()[0])
    cli.add_argument("--grid", required=True, help="grid.csv of the workflow (experiment, label, trial_id per row)")
    cli.add_argument("--tidy", required=True, help="tidy table of the trials (wall time, memory and cost profile)")
    cli.add_argument("--out", default="paper/tables/run_times", help="output prefix; writes OUT.csv and OUT.tex")
    args = cli.parse_args(argv)
    grid = display_labels(pd.read_csv(args.grid))
    trials = grid.merge(profile(pd.read_parquet(args.tidy)), on="trial_id", how="left")
    table = summarise(trials)
    common.write(args.out, table, common.latex(*for_paper(table)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
