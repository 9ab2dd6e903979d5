"""Where Thompson sampling's time per batch goes, at the default config's scale (Hartmann-6, B = 50, M = 64 inducing
points, 50 L-BFGS steps per fit): the whole ask, the scoring of its random starts (2000·d per trajectory,
`baselines.optimisers.chunked_sampler`) and, by difference, the trajectories' draw and the L-BFGS runs from the best
starts; for each way of drawing the starts (`starts`: each trajectory its own points, the published TS, or one
common set scored once per point, `baselines.thompson`).

    python tests/benchmarks/ts_profile.py --out paper/tables/ts_profile.csv [--repeats 3]

It runs pinned as the trials are (`bench.numerics`), one thread, and times in CPU seconds, so its shares hold on a
busy machine too (cache contention aside).
"""

from __future__ import annotations

import argparse
import time

from bench.numerics import pin_process

pin_process([])  # before NumPy loads: the trials' numerical platform

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import tensorflow as tf  # noqa: E402
from trieste.acquisition import ParallelContinuousThompsonSampling  # noqa: E402
from trieste.acquisition.optimizer import generate_initial_points  # noqa: E402
from trieste.data import Dataset  # noqa: E402
from trieste.observer import OBJECTIVE  # noqa: E402

import problems  # noqa: E402
from baselines.base import TrialContext  # noqa: E402
from bench.model_spec import ModelSpec  # noqa: E402
from bench.models import build_models, fit  # noqa: E402
from baselines.optimisers import chunked_sampler  # noqa: E402
from baselines.thompson import STARTS, SharedStartThompsonSampling, ThompsonSampling  # noqa: E402

PROBLEM, BATCH, N, INDUCING, MAXITER = "hartmann6", 50, 150, 64, 50


def _model(problem, seed: int = 0):
    rng = np.random.default_rng(seed)
    x = rng.uniform(size=(N, problem.dim))
    y = np.asarray(problem.evaluate(x), dtype=np.float64).reshape(N, -1)
    data = Dataset(tf.constant(x), tf.constant((y - y.mean()) / y.std()))
    model = build_models(ModelSpec(num_inducing=INDUCING, maxiter=MAXITER), problem.search_space, data)
    fit(model, data)
    return model, data


def _seconds(work) -> float:
    """CPU seconds of this (one-thread) process: other jobs on the machine do not inflate them."""
    start = time.process_time()
    work()
    return time.process_time() - start


def profile(repeats: int) -> pd.DataFrame:
    problem = problems.get(PROBLEM)
    model, data = _model(problem)
    rows = []
    for starts in STARTS:
        method = ThompsonSampling(starts=starts)
        method.setup(TrialContext(problem=problem, batch_size=BATCH, iterations=repeats, seed=0))
        budget = method.num_initial_samples
        builder = SharedStartThompsonSampling if method.shared_starts() else ParallelContinuousThompsonSampling
        for repeat in range(repeats):
            tf.random.set_seed(repeat)
            ask = _seconds(lambda: method.ask({OBJECTIVE: model}, data, repeat + 1))
            trajectories = builder().prepare_acquisition_function(model)
            sampler = chunked_sampler(budget, BATCH, 1, method.max_points_per_call, shared=method.shared_starts())
            trajectories(tf.zeros([1, BATCH, problem.dim], tf.float64))  # draws the weights, as the first chunk would
            scoring = _seconds(lambda: generate_initial_points(1, sampler, problem.search_space, trajectories, BATCH))
            rows.append({"starts": starts, "repeat": repeat, "ask_cpu_s": ask, "scoring_cpu_s": scoring,
                         "rest_cpu_s": ask - scoring, "batch_size": BATCH, "num_data": N,
                         "num_inducing": INDUCING, "random_starts_per_trajectory": budget})
    return pd.DataFrame(rows)


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("--out", required=True)
    cli.add_argument("--repeats", type=int, default=3)
    args = cli.parse_args(argv)
    table = profile(args.repeats)
    table.to_csv(args.out, index=False)
    print(table.groupby("starts").median(numeric_only=True).round(2).to_string())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
