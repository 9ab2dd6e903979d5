"""Where the reproduction's time goes: per experiment and method, the trials' wall time from Snakemake's benchmarks.

Each trial job writes a Snakemake benchmark (wall seconds, peak RSS). A trial shared by two experiments (the same
spec) ran once and is counted in each experiment that uses it; the `all experiments` row counts each trial once.
Times are wall seconds of single-threaded jobs, so the sum over trials is core-seconds, not the run's wall time.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from analysis.tables import common


def load(grid: str | Path, benchmarks: str | Path) -> pd.DataFrame:
    """One row per (experiment, trial): its labels and its benchmark's `s` (seconds) and `max_rss` (MB)."""
    rows = pd.read_csv(grid)
    times = []
    for trial_id in rows["trial_id"].unique():
        path = Path(benchmarks) / f"{trial_id}.tsv"
        if path.exists():
            last = pd.read_csv(path, sep="\t").iloc[-1]
            times.append({"trial_id": trial_id, "seconds": last["s"], "max_rss_mb": last["max_rss"]})
    measured = pd.DataFrame(times, columns=["trial_id", "seconds", "max_rss_mb"])
    return rows.merge(measured, on="trial_id", how="left")


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
            "mean_s": frame["seconds"].mean(),
            "max_rss_mb": frame["max_rss_mb"].max(),
        }

    out = []
    for experiment, frame in trials.groupby("experiment", sort=False):
        out += [block(f, experiment, label) for label, f in frame.groupby("label", sort=False)]
        out.append(block(frame, experiment, "all methods"))
    out.append(block(trials.drop_duplicates("trial_id"), "all experiments", "all methods"))
    return pd.DataFrame(out)


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m analysis.tables.run_times", description=__doc__.splitlines()[0])
    cli.add_argument("--grid", required=True, help="grid.csv of the workflow (experiment, label, trial_id per row)")
    cli.add_argument("--benchmarks", required=True, help="directory of per-trial Snakemake benchmark TSVs")
    cli.add_argument("--out", default="paper/tables/run_times", help="output prefix; writes OUT.csv and OUT.tex")
    args = cli.parse_args(argv)
    table = summarise(load(args.grid, args.benchmarks))
    shown = table.assign(
        total_min=(table["total_s"] / 60).map(common.number),
        mean_s=table["mean_s"].map(common.number),
        max_rss_mb=table["max_rss_mb"].map(common.number),
    )[["experiment", "label", "trials", "total_min", "mean_s", "max_rss_mb"]]
    header = ["experiment", "method", "trials", "total (core-min)", "mean per trial (s)", "peak RSS (MB)"]
    common.write(args.out, table, common.latex(shown, [common.escape(h) for h in header]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
