"""Does a compiled fit's gradient depend on the process's history? Traces the same loss afresh, K times, and counts
the distinct gradients.

The trial runner fits each surrogate through gpflow's Scipy optimiser with `compile=True`: every fit traces its loss
and gradient into a new `tf.function`, which TensorFlow's graph optimiser (Grappler) rewrites before it runs. Two
paper-scale runs of one spec were bit-identical up to N = 4,000 points and then parted; replaying the fits showed the
bound and gradient of one traced function identical on every call, but a fresh trace of the same loss, at the same
parameters and data, giving another gradient in its last bits, by which other functions had been traced before it.

This script measures that on a committed paper-scale record's data: for each objective (the SVGP's ELBO, the default
fit's loss; the collapsed bound, `fit: collapsed`'s), N (the data up to an iteration) and M, it builds the model as the
runner does, then traces loss and gradient afresh K times (trace k after k other small functions were traced, as a
trial's history makes) with Grappler on and off, and counts the distinct gradients (bit for bit), and whether they
equal the eager gradient.

    python tests/benchmarks/trace_determinism.py --out paper/tables/trace_determinism.csv

One row per (objective, M, N, grappler): traces, distinct gradients, distinct losses, whether every trace equals the
eager computation. Runs pinned, as trials do.
"""

from __future__ import annotations

import argparse

from bench.numerics import pin_process

pin_process([])  # before NumPy loads: the trials' numerical platform

import hashlib
import json
from pathlib import Path

import gpflow
import numpy as np
import pandas as pd
import tensorflow as tf
from check_shapes import disable_check_shapes

from bench.design import model_dataset
from bench.models import build_models, collapsed_bound
from bench.spec import TrialSpec, validate
from harness.seeding import Purpose, seed_tensorflow

HERE = Path(__file__).resolve().parent
#: a paper-scale trial (Hartmann-6, B = 100, T = 50, N0 = 100): its data reach N = 5,000
RECORD = HERE / "paper_scale/b3o-logei-c-collapsed.record.json"
OBJECTIVES = ("elbo", "collapsed")


def _hash(tensors) -> str:
    flat = np.concatenate([np.asarray(t).ravel() for t in tensors])
    return hashlib.sha1(flat.tobytes()).hexdigest()


def _loss(model: gpflow.models.SVGP, data: tuple[tf.Tensor, tf.Tensor], objective: str):
    """The objective's loss closure and the variables it is minimised over, as the two fits build them."""
    if objective == "elbo":
        return model.training_loss_closure(data, compile=False), model.trainable_variables
    collapsed = collapsed_bound(model, data)  # as bench.models.CollapsedFit builds it
    return collapsed.training_loss, collapsed.trainable_variables


def measure(record: dict, objective: str, num_inducing: int, upto: int, traces: int) -> list[dict]:
    spec = record["spec"]
    model_spec = {**spec["model"], "num_inducing": num_inducing, "fit": "lbfgs"}
    trial = validate(TrialSpec.from_dict({**spec, "model": model_spec}))
    trace = record["trace"]
    x = np.concatenate([np.array(r["points"], dtype=np.float64) for r in trace[:upto]])
    y = np.concatenate([np.array(r["observations"], dtype=np.float64) for r in trace[:upto]])
    dataset = model_dataset(trial.problem, x, y)[0]
    seed_tensorflow(spec["seed"], upto, Purpose.TENSORFLOW)
    model = build_models(trial.model_spec, trial.problem.search_space, dataset).model
    data = (tf.convert_to_tensor(dataset.query_points), tf.convert_to_tensor(dataset.observations))
    loss, variables = _loss(model, data, objective)

    def loss_and_gradient():
        with tf.GradientTape() as tape:
            value = loss()
        return value, tape.gradient(value, variables)

    eager_value, eager_gradient = loss_and_gradient()
    eager = _hash(eager_gradient)
    rows = []
    for grappler in (True, False):
        tf.config.optimizer.set_experimental_options({"disable_meta_optimizer": not grappler})
        values, gradients = set(), set()
        for k in range(traces):
            for _ in range(k):  # other functions traced before this one, as a trial's history makes
                tf.function(lambda: tf.reduce_sum(tf.ones(3)) * 2.0)()
            value, gradient = tf.function(loss_and_gradient)()
            values.add(float(value).hex())
            gradients.add(_hash(gradient))
        rows.append({
            "objective": objective, "num_inducing": num_inducing, "n": len(x), "grappler": grappler,
            "traces": traces, "distinct_gradients": len(gradients), "distinct_losses": len(values),
            "all_equal_eager": gradients == {eager} and values == {float(eager_value).hex()},
        })
    tf.config.optimizer.set_experimental_options({"disable_meta_optimizer": False})
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", type=Path, default=RECORD)
    parser.add_argument("--iterations", type=int, nargs="+", default=[10, 20, 30, 41, 50],
                        help="data up to these iterations (N = N0 + B·(t − 1))")
    parser.add_argument("--num-inducing", type=int, nargs="+", default=[64, 500])
    parser.add_argument("--traces", type=int, default=5)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    record = json.loads(args.record.read_text())
    tf.get_logger().setLevel("ERROR")  # the retracing warnings are what this script does on purpose
    rows = []
    with disable_check_shapes():
        for objective in OBJECTIVES:
            for m in args.num_inducing:
                for t in args.iterations:
                    rows += measure(record, objective, m, t, args.traces)
                    print(rows[-2], rows[-1], flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(args.out, index=False)


if __name__ == "__main__":
    main()
