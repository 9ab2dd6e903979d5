"""Does one fit reach at least the bound of another on the same data? Replays a trial's data with another fit.

A trial's record keeps, at every iteration t, the data its fit saw (the points and observations before batch t) and
the SVGP's ELBO after that fit (`model_objective`). This script builds the trial's model the way the runner does
(on the initial design, seeded as the trial), then fits it with `--fit` on the same data at t = 1, 2, …, T in turn,
each fit warm-started from the last as in a trial, and records the ELBO it reaches beside the recorded one. With the
collapsed fit, q(u) is set to its optimum for the fitted hyperparameters, so the ELBO is the collapsed bound.

    python tests/benchmarks/paper_scale/bound_check.py RECORD.json ... --fit collapsed --out BOUND.csv

One row per record and iteration: N, the recorded and the replayed ELBO (nats) and their difference, the replayed
fit's L-BFGS-B steps, why it stopped, its kernel variance (and the recorded fit's) and its CPU seconds.

`--fresh` also fits, at every iteration, a model built afresh on that iteration's data (as a trial builds its model
at the start) rather than warm-started: its ELBO and kernel variance, to see whether a bound above the recorded one is
to be had at all and at what hyperparameters. Runs pinned, as trials do.
"""

from __future__ import annotations

import argparse

from bench.numerics import pin_process

pin_process([])  # before NumPy loads: the trials' numerical platform

import json
import time
from pathlib import Path

import numpy as np
import pandas as pd
from check_shapes import disable_check_shapes

from bench.design import model_dataset
from bench.models import build_models, fit_and_report
from bench.model_spec import FITS, svgp_fit
from bench.spec import TrialSpec, validate
from harness.seeding import Purpose, seed_tensorflow


def replay(record: dict, fit: str, fresh: bool = False) -> pd.DataFrame:
    """The record's fits replayed with `fit`, one row per iteration; with `fresh`, each also from a fresh start."""
    spec = record["spec"]
    model_spec = {**spec["model"], "fit": fit}
    trial = validate(TrialSpec.from_dict({**spec, "model": model_spec}))
    trace = record["trace"]

    def data(upto: int):
        x = np.concatenate([np.array(r["points"], dtype=np.float64) for r in trace[:upto]])
        y = np.concatenate([np.array(r["observations"], dtype=np.float64) for r in trace[:upto]])
        return model_dataset(trial.problem, x, y)[0]

    seed_tensorflow(spec["seed"], 0, Purpose.TENSORFLOW)
    model = build_models(trial.model_spec, trial.problem.search_space, data(1))
    rows = []
    for t in range(1, len(trace)):
        seen = data(t)
        seed_tensorflow(spec["seed"], t, Purpose.TENSORFLOW)
        cpu = time.process_time()
        objective, outcome = fit_and_report(model, seen)
        recorded = trace[t].get("model_objective")
        rows.append({
            "trial_id": record["trial_id"],
            "problem": spec["problem"],
            "recorded_fit": svgp_fit(spec["model"]),
            "replayed_fit": fit,
            "iteration": t,
            "n": len(seen),
            "recorded_elbo": recorded,
            "replayed_elbo": objective,
            "difference": np.nan if recorded is None else objective - recorded,
            "steps": (outcome or {}).get("steps"),
            "stopped": (outcome or {}).get("stopped"),
            "kernel_variance": (outcome or {}).get("kernel_variance"),
            "recorded_kernel_variance": (trace[t].get("fit") or {}).get("kernel_variance"),
            "cpu_s": time.process_time() - cpu,
        })
        if fresh:
            seed_tensorflow(spec["seed"], t, Purpose.TENSORFLOW)
            restart = build_models(trial.model_spec, trial.problem.search_space, seen)
            fresh_objective, fresh_outcome = fit_and_report(restart, seen)
            rows[-1].update({
                "fresh_elbo": fresh_objective,
                "fresh_difference": np.nan if recorded is None else fresh_objective - recorded,
                "fresh_kernel_variance": (fresh_outcome or {}).get("kernel_variance"),
            })
    return pd.DataFrame(rows)


def main() -> None:
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("records", nargs="+", type=Path, help="trial records (JSON) whose fits to replay")
    cli.add_argument("--fit", choices=FITS, required=True, help="the fit to replay them with")
    cli.add_argument("--out", type=Path, required=True, help="one row per record and iteration (CSV)")
    cli.add_argument("--fresh", action="store_true", help="also fit each iteration's data from a fresh start")
    args = cli.parse_args()
    with disable_check_shapes():  # as the runner: gpflow's shape checks check, they do not compute
        replays = [replay(json.loads(path.read_text()), args.fit, args.fresh) for path in args.records]
    table = pd.concat(replays, ignore_index=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(args.out, index=False)
    below = table[table["difference"] < 0]
    print(f"{len(table)} fits replayed; the replayed ELBO is below the recorded one in {len(below)}: "
          f"differences from {table['difference'].min():.4g} to {table['difference'].max():.4g} nats")


if __name__ == "__main__":
    main()
