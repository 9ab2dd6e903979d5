"""Cost of one paper-scale B3O trial on Hartmann-6, estimated from measured pieces.

The paper's trial: B = 100, T = 50, 100 initial points (N = 100 + 100 (t - 1) at iteration t, up to 5,000), SVGP with
M = 500 and L-BFGS capped at 500 iterations (config/paper.yaml), B3O-UCB-c with DEFER (10^4 evaluations). Running it
takes over an hour here, so this script measures at a few data sizes what one iteration costs - the inducing-point
update, one L-BFGS iteration, one B3O batch - checks that a warm-started fit does hit the 500-iteration cap, and sums
the per-iteration cost over t = 1..50 by linear interpolation in N. Writes a CSV (one row per measured N, plus the
estimate). Run: `python tests/benchmarks/paper_scale_cost.py --out paper/tables/paper_scale_cost.csv` (~10 min).

Times are CPU seconds of this process, pinned to one thread as trials are (`bench.numerics`): what a trial takes
on a core of its own, the clock of the cost model, which fits its default-fit constants to these steps.
"""

from __future__ import annotations

import argparse

from bench.numerics import pin_process

pin_process([])  # before NumPy loads: the trials' numerical platform

import time

import numpy as np
import pandas as pd
import tensorflow as tf
from check_shapes import disable_check_shapes
from trieste.observer import OBJECTIVE

import problems
from problems.design import initial_design
from b3o import BoltzmannBatch, Constant, acquisitions, samplers
from bench.design import model_dataset
from bench.model_spec import ModelSpec
from bench.models import build_models

SIZES = (100, 1100, 2600, 5000)
MAXITER, PROBE_ITERATIONS, ITERATIONS, BATCH = 500, 20, 50, 100


def measure(out: str) -> pd.DataFrame:
    problem = problems.get("hartmann6")
    x = initial_design(problem, max(SIZES) + BATCH, 0)
    y = problem.observe(x, np.random.default_rng(0))
    rows = []
    with disable_check_shapes():
        data, _ = model_dataset(problem, x[:100], y[:100])
        tf.random.set_seed(0)
        model = build_models(ModelSpec(num_inducing=500, maxiter=PROBE_ITERATIONS), problem.search_space, data)
        model.optimize(data)  # traces the training loss once, as a trial's first fit does
        rule = BoltzmannBatch(acquisitions.get("ucb"), samplers.get("defer"), Constant(10.0), BATCH, seed=0)
        for n in SIZES:
            data, _ = model_dataset(problem, x[:n], y[:n])
            start = time.process_time()
            model.update(data)
            update_s = time.process_time() - start
            start = time.process_time()
            result = model.optimize(data)
            per_iteration_s = (time.process_time() - start) / max(int(result.nit), 1)
            rule.resume(1)
            rule.acquire(problem.search_space, {OBJECTIVE: model}, {OBJECTIVE: data})  # traces at a new N
            start = time.process_time()
            rule.acquire(problem.search_space, {OBJECTIVE: model}, {OBJECTIVE: data})
            rows.append(
                {
                    "N": n,
                    "update_s": update_s,
                    "lbfgs_iteration_s": per_iteration_s,
                    "acquire_s": time.process_time() - start,
                    "density_calls": rule.diagnostics["num_density_calls"],
                    "density_s": rule.diagnostics["density_seconds"],
                }
            )
            print(rows[-1], flush=True)
        # does a warm-started paper fit stop before the cap? (one more batch of data, full maxiter)
        model.optimizer.minimize_args["options"]["maxiter"] = MAXITER
        data, _ = model_dataset(problem, x[: SIZES[1] + BATCH], y[: SIZES[1] + BATCH])
        model.update(data)
        cap_hit = int(model.optimize(data).nit) >= MAXITER
    table = pd.DataFrame(rows)
    n_t = 100 + BATCH * np.arange(ITERATIONS)
    interpolate = {c: np.interp(n_t, table["N"], table[c]) for c in ("update_s", "lbfgs_iteration_s", "acquire_s")}
    fit_s = float(np.sum(interpolate["update_s"] + MAXITER * interpolate["lbfgs_iteration_s"]))
    acquire_s = float(np.sum(interpolate["acquire_s"]))
    estimate = {"N": "trial estimate (t = 1..50)", "fit_s": fit_s, "acquire_s": acquire_s,
                "total_min": (fit_s + acquire_s) / 60, "maxiter_binds": cap_hit}
    table = pd.concat([table, pd.DataFrame([estimate])], ignore_index=True)
    table.to_csv(out, index=False)
    print(estimate)
    return table


if __name__ == "__main__":
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("--out", default="paper/tables/paper_scale_cost.csv")
    measure(cli.parse_args().out)
