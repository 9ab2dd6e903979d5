"""What one default SVGP fit costs as the data size N and the inducing points M grow: a source of the cost model.

The cost model (`bench.cost`) prices a fit of the default kind by a form in N and m whose terms the reduced runs'
records (M = 64, N up to a few hundred) and the paper-scale step timings (M = 500) cannot all separate. This script
measures, on Hartmann-6 data with the paper's noise, the CPU seconds of one fit as a trial makes it after its first
(the inducing points updated to the data, then L-BFGS-B from the last fit's state, traced anew as every fit is), at
M = 64 to 500 and N up to 5,000; `b3o cost-model` fits the form to it (`--fits`) beside the records.

    python tests/benchmarks/fit_scaling.py --out paper/tables/fit_scaling.csv

One row per (M, N): the fit's CPU seconds and L-BFGS-B steps. Runs pinned, as trials do (one thread); run it on an
otherwise idle machine (a second job's cache traffic inflates CPU seconds too).
"""

from __future__ import annotations

import argparse

from bench.numerics import pin_process

pin_process([])  # before NumPy loads: the trials' numerical platform

import time
from pathlib import Path

import numpy as np
import pandas as pd
import tensorflow as tf
from check_shapes import disable_check_shapes

import problems
from problems.design import initial_design
from bench.design import model_dataset
from bench.model_spec import ModelSpec
from bench.models import build_models

INDUCING, SIZES = (64, 128, 256, 500), (500, 1000, 2500, 5000)
MAXITER = 50  # the reduced runs' and the large-batch study's cap


def fit_seconds(m: int, first, data, problem) -> tuple[float, int]:
    """CPU seconds and L-BFGS-B steps of a fit at M = m on `data`, after a first fit on `first` (a trial's t = 1)."""
    tf.random.set_seed(0)
    model = build_models(ModelSpec(num_inducing=m, maxiter=MAXITER), problem.search_space, first)
    model.update(first)
    model.optimize(first)
    start = time.process_time()
    model.update(data)
    steps = int(model.optimize(data).nit)
    return time.process_time() - start, steps


def measure() -> pd.DataFrame:
    problem = problems.get("hartmann6")
    x = initial_design(problem, max(SIZES), 0)
    y = problem.observe(x, np.random.default_rng(0))
    rows = []
    with disable_check_shapes():
        first, _ = model_dataset(problem, x[:100], y[:100])
        for m in INDUCING:
            for n in SIZES:
                data, _ = model_dataset(problem, x[:n], y[:n])
                seconds, steps = fit_seconds(m, first, data, problem)
                rows.append({"m": m, "n": n, "cpu_s": seconds, "steps": steps})
                print(rows[-1], flush=True)
    return pd.DataFrame(rows)


def main() -> None:
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("--out", type=Path, required=True, help="one row per (M, N) (CSV)")
    args = cli.parse_args()
    table = measure()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(args.out, index=False)


if __name__ == "__main__":
    main()
