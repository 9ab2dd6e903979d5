"""Why a paper-scale trial's peak memory grew by about the same amount at every iteration: what one fit leaves behind.

The paper-scale collapsed-fit trials' records (tests/benchmarks/paper_scale/*collapsed*.record.json) show the peak
resident memory rising steadily with the iteration, to 2.3 GB at t = 50, although nothing a trial keeps grows that
fast. This script fits one model again and again on the same data, as a trial's fits follow one another, each way of
fitting in a fresh pinned process, and writes the resident memory after every fit: what stays after a fit is what a
trial accumulates.

- `collapsed` — the collapsed fit as `bench.models.CollapsedFit` makes it now: the bound computed eagerly;
- `collapsed, traced` — the way it was made before: the bound traced into a new `tf.function` at every fit (gpflow's
  `compile=True`) and run with TensorFlow's graph optimiser switched off around it;
- `default` — the default fit (L-BFGS-B on the ELBO over q(u) too, traced by trieste).

    python tests/benchmarks/fit_memory.py --out paper/tables/fit_memory.csv

One row per (fit, M, N, fit number): resident MB after that fit, its CPU seconds, and its final loss (the two
collapsed ways must give the same losses bit for bit).

A whole paper-scale trial each way (`tests/benchmarks/paper_scale/b3o-logei-c-collapsed.json`, run one after the
other on one machine by the code before and after the change, both records committed under
`tests/benchmarks/paper_scale/fit_memory/`) is summarised by

    python tests/benchmarks/fit_memory.py --trials P/traced.record.json P/eager.record.json \
        --out paper/tables/fit_memory_trials.csv

one row per record: its CPU minutes (all, fits), peak resident GiB, and whether it is the first record bit for bit
apart from times and provenance (`bench.records.stable`).
"""

from __future__ import annotations

import argparse

from bench.numerics import pin_process

pin_process([])  # before NumPy loads: the trials' numerical platform, here and in each child

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd

FITS = ("collapsed", "collapsed, traced", "default")
SIZES = ((64, 1000), (500, 1000))  # (M, N)
REPEATS = 12


def _measure(fit: str, m: int, n: int, repeats: int) -> list[dict]:
    """In this process: `repeats` fits of one model on one dataset, the memory after each."""
    import gc
    import time

    import gpflow
    import numpy as np
    import psutil
    import tensorflow as tf
    from check_shapes import disable_check_shapes

    import problems
    from bench import models
    from bench.model_spec import ModelSpec
    from bench.design import model_dataset
    from problems.design import initial_design

    class Traced(models.CollapsedFit):
        """The collapsed fit as it was: a traced bound per fit, Grappler off around it."""

        def optimize(self, model, dataset):
            data = (tf.convert_to_tensor(dataset.query_points), tf.convert_to_tensor(dataset.observations))
            collapsed = models.collapsed_bound(model, data)
            tf.config.optimizer.set_experimental_options({"disable_meta_optimizer": True})
            try:
                loss = gpflow.optimizers.Scipy().minimize(
                    collapsed.training_loss, collapsed.trainable_variables, compile=True, **self.minimize_args
                )
            finally:
                tf.config.optimizer.set_experimental_options({"disable_meta_optimizer": False})
            q_mu, q_sqrt = models.optimal_q(model, *data)
            model.q_mu.assign(q_mu)
            model.q_sqrt.assign(q_sqrt[None])
            return loss

    if fit == "collapsed, traced":
        models.CollapsedFit = Traced  # build_model looks it up when it builds
    problem = problems.get("hartmann6")
    x = initial_design(problem, n, 0)
    y = problem.observe(x, np.random.default_rng(0))
    process, rows = psutil.Process(), []
    with disable_check_shapes():
        data, _ = model_dataset(problem, x, y)
        tf.random.set_seed(0)
        spec = ModelSpec(num_inducing=m, maxiter=50, fit="lbfgs" if fit == "default" else "collapsed")
        model = models.build_models(spec, problem.search_space, data)
        for number in range(1, repeats + 1):
            start = time.process_time()
            model.update(data)
            loss = float(model.optimize(data).fun)
            gc.collect()
            rows.append({"fit": fit, "m": m, "n": n, "fit_number": number, "rss_mb": process.memory_info().rss / 2**20,
                         "cpu_s": time.process_time() - start, "loss": loss})
    return rows


def measure(repeats: int = REPEATS) -> pd.DataFrame:
    rows = []
    for m, n in SIZES:
        for fit in FITS:
            args = json.dumps([fit, m, n, repeats])
            done = subprocess.run([sys.executable, __file__, "--child", args], capture_output=True, text=True, check=True)
            rows += json.loads(done.stdout.strip().splitlines()[-1])
    return pd.DataFrame(rows)


def trials_table(paths: list[Path]) -> pd.DataFrame:
    """One row per trial record: CPU minutes, peak memory, and whether it is the first record apart from times."""
    from bench.records import stable

    records = [json.loads(path.read_text()) for path in paths]
    return pd.DataFrame([{
        "record": path.name,
        "cpu_min": sum(e.get("cpu_s") or 0.0 for e in record["trace"]) / 60,
        "fit_cpu_min": sum(e.get("fit_cpu_s") or 0.0 for e in record["trace"]) / 60,
        "peak_gib": max(e.get("peak_rss_mb") or 0.0 for e in record["trace"]) / 1024,
        "platform_id": record["provenance"]["platform_id"],
        "same_as_first": stable(record) == stable(records[0]),
    } for path, record in zip(paths, records)])


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("--out", type=Path, help="the table (CSV)")
    cli.add_argument("--trials", nargs="+", type=Path, help="summarise these trial records instead of fitting")
    cli.add_argument("--child", help=argparse.SUPPRESS)  # one (fit, M, N, repeats) in this process
    args = cli.parse_args(argv)
    if args.child:
        print(json.dumps(_measure(*json.loads(args.child))))
        return 0
    if args.out is None:
        cli.error("--out is required")
    if args.trials:
        table = trials_table(args.trials)
        table.to_csv(args.out, index=False)
        print(table.to_string())
        return 0
    table = measure()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(args.out, index=False)
    print(table.groupby(["m", "n", "fit"], sort=False)["rss_mb"].agg(["first", "last"]).to_string())
    return 0


if __name__ == "__main__":
    sys.exit(main())
