"""What one Seq-EI trial of config/paper.yaml costs (Hartmann-6: 100 initial points, then 750 single-point steps, each
refitting the SVGP with M = 500 inducing points and up to 500 L-BFGS-B iterations), from two timed slices of it:

    b3o run-trial --spec tests/benchmarks/paper_scale/seq-ei-start.json --out start.json   # steps 1-20, N = 100-119
    b3o run-trial --spec tests/benchmarks/paper_scale/seq-ei-end.json --out end.json       # 5 steps at N = 830-834
    python tests/benchmarks/paper_scale/seq_ei_cost.py start.json end.json --out paper/tables/seq_ei_paper_scale.csv

A step's cost (fit + acquire + evaluate) is taken as linear in N between the two slices' mean steps, which is the form
of the cost model's fit term (f1 + f2·N·m² at fixed m), and summed over the trial's 750 steps (N = 100 … 849). The
slices' times are wall seconds; on a shared machine they are upper bounds.
"""

from __future__ import annotations

import argparse
import json
import math

import numpy as np
import pandas as pd

from bench.estimate import SAFETY

STEPS, FIRST_N = 750, 100  # the paper config's Seq-EI on Hartmann-6
SLOT_MIN = 240.0  # the config's default slot_minutes


def slice_cost(record: dict) -> tuple[float, float]:
    """(mean N before a step, mean seconds per step) of a record's BO steps."""
    steps = record["trace"][1:]
    sizes = [s["num_evals"] - 1 for s in steps]
    seconds = [s["fit_s"] + s["acquire_s"] + s["evaluate_s"] for s in steps]
    return float(np.mean(sizes)), float(np.mean(seconds))


def estimate(start: dict, end: dict) -> pd.DataFrame:
    (n0, t0), (n1, t1) = slice_cost(start), slice_cost(end)
    per_point = (t1 - t0) / (n1 - n0)
    sizes = np.arange(FIRST_N, FIRST_N + STEPS)
    total_s = float(np.sum(t0 + per_point * (sizes - n0))) + start["startup_s"]
    return pd.DataFrame([{
        "start_mean_n": n0, "start_s_per_step": t0, "start_steps": len(start["trace"]) - 1,
        "end_mean_n": n1, "end_s_per_step": t1, "end_steps": len(end["trace"]) - 1,
        "steps": STEPS, "predicted_hours": total_s / 3600.0, "slot_minutes": SLOT_MIN,
        "slots_with_safety": math.ceil(SAFETY * total_s / 60.0 / SLOT_MIN), "safety": SAFETY,
    }])


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("start", help="record of seq-ei-start.json")
    cli.add_argument("end", help="record of seq-ei-end.json")
    cli.add_argument("--out", required=True)
    args = cli.parse_args(argv)
    table = estimate(*(json.load(open(path)) for path in (args.start, args.end)))
    table.to_csv(args.out, index=False)
    print(table.T.to_string(header=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
