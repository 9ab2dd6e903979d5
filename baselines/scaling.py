"""`b3o scaling`: batch-generation time and memory versus batch size B, side by side, on one fitted SVGP.

One SVGP (N points, M inducing points, seeded) is fitted once; its variables are saved and every configuration
(method x sampler x acquisition) is measured in its own child process that restores that exact model, so peak memory
is per configuration and a configuration that runs away can be killed. A child measures batch sizes in ascending
order, up to `repeats` times each after a warm-up (min and median reported; repeats stop early once one run exceeds
the time cap). A larger B is skipped, with the reason recorded, once one B took longer than the time cap or when the
straight line through the last two measured (B, time) points predicts more than the cap for it (an estimate: q-EI
grows faster than linearly and is then stopped by the deadline). The parent kills a child that exceeds a hard
deadline, records what was left, and rewrites the CSV after every configuration so an interrupted run keeps what it
measured.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

COLUMNS = (
    "method",
    "sampler",
    "acquisition",
    "batch_size",
    "seconds_median",
    "seconds_min",
    "peak_rss_mb",
    "num_acquisition_evals",
    "density_seconds",
    "repeats",
    "skipped",
)
CONTINUOUS_SAMPLERS = ("defer", "mh", "langevin", "dmc")


@dataclass(frozen=True)
class Config:
    method: str
    sampler: str | None = None
    acquisition: str | None = None

    def params(self, sampler_options: dict[str, Any]) -> dict[str, Any]:
        if self.method != "b3o":
            return {}
        return {
            "acquisition": self.acquisition,
            "sampler": self.sampler,
            "sampler_options": sampler_options.get(self.sampler, {}),
        }


def configurations(methods: list[str], samplers: list[str] = list(CONTINUOUS_SAMPLERS)) -> list[Config]:
    """B3O with each given continuous sampler and with UCB and LogEI; the baselines once each."""
    out = []
    for method in methods:
        if method == "b3o":
            out += [Config("b3o", s, a) for s in samplers for a in ("ucb", "logei")]
        else:
            out.append(Config(method))
    return out


def _fit_model(problem_name: str, num_data: int, num_inducing: int, seed: int, state_path: Path) -> None:
    import numpy as np
    import tensorflow as tf

    import problems
    from baselines.models import ModelSpec, build_models, fit, model_state

    problem = problems.get(problem_name)
    data = _dataset(problem, num_data, seed)
    tf.random.set_seed(seed)
    model = build_models(ModelSpec(num_inducing=num_inducing), problem.search_space, data)
    fit(model, data)
    np.savez(state_path, **model_state(model))


def _dataset(problem, num_data: int, seed: int):
    """The data a trial's model would see: the runner's initial design, observed, in the model's units."""
    import numpy as np

    from baselines.runner import initial_design, model_dataset

    x = initial_design(problem, num_data, seed)
    return model_dataset(problem, x, problem.observe(x, np.random.default_rng(seed)))[0]


def _child(args: argparse.Namespace) -> int:
    """Measure one configuration; print one JSON row per batch size."""
    import numpy as np
    import tensorflow as tf
    from trieste.observer import OBJECTIVE

    import baselines
    import problems
    from baselines.base import TrialContext
    from baselines.models import ModelSpec, build_models, restore_model_state

    config = Config(**json.loads(args.config))
    problem = problems.get(args.problem)
    data = _dataset(problem, args.num_data, args.seed)
    tf.random.set_seed(args.seed)
    model = build_models(ModelSpec(num_inducing=args.num_inducing), problem.search_space, data)
    with np.load(args.state) as saved:
        restore_model_state(model, {k: saved[k] for k in saved.files})
    too_slow: str | None = None
    measured: list[tuple[int, float]] = []  # (B, fastest time) of the batch sizes measured so far
    for batch_size in args.batch_sizes:
        row: dict[str, Any] = {
            "method": config.method,
            "sampler": config.sampler,
            "acquisition": config.acquisition,
            "batch_size": batch_size,
        }
        too_slow = too_slow or predicted_over_cap(measured, batch_size, args.time_cap)
        if too_slow:
            print(json.dumps({**row, "skipped": too_slow}), flush=True)
            continue
        method = baselines.get(config.method, **config.params(json.loads(args.sampler_options)))
        context = TrialContext(problem=problem, batch_size=batch_size, iterations=1, seed=args.seed)
        method.check(context)
        method.setup(context)
        method.ask({OBJECTIVE: model}, data, 2)  # warm-up: tracing and compilation are not batch cost
        times = []
        for _ in range(args.repeats):
            start = time.perf_counter()
            method.ask({OBJECTIVE: model}, data, 2)
            times.append(time.perf_counter() - start)
            if times[-1] > args.time_cap:
                break
        diagnostics = method.diagnostics
        row.update(
            seconds_median=statistics.median(times),
            seconds_min=min(times),
            peak_rss_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            num_acquisition_evals=diagnostics.get("num_acquisition_evals"),
            density_seconds=diagnostics.get("density_seconds"),
            repeats=len(times),
        )
        print(json.dumps(row), flush=True)
        measured.append((batch_size, min(times)))
        if min(times) > args.time_cap:
            too_slow = f"B={batch_size} took {min(times):.1f} s > time cap {args.time_cap:g} s"
    return 0


def predicted_over_cap(measured: list[tuple[int, float]], batch_size: int, time_cap: float) -> str | None:
    """Why `batch_size` is skipped, if the line through the last two measured (B, seconds) exceeds the cap there."""
    if len(measured) < 2:
        return None
    (b0, t0), (b1, t1) = measured[-2:]
    predicted = t1 + (t1 - t0) / (b1 - b0) * (batch_size - b1)
    if predicted <= time_cap:
        return None
    return (
        f"B={b0}, {b1} took {t0:.1f}, {t1:.1f} s, so B={batch_size} would take about {predicted:.0f} s "
        f"> time cap {time_cap:g} s"
    )


def run(
    problem: str,
    batch_sizes: list[int],
    methods: list[str],
    out: Path,
    num_data: int = 500,
    num_inducing: int = 500,
    repeats: int = 3,
    time_cap: float = 60.0,
    seed: int = 0,
    sampler_options: dict[str, Any] | None = None,
    samplers: list[str] = list(CONTINUOUS_SAMPLERS),
) -> list[dict[str, Any]]:
    import pandas as pd

    from baselines.runner import atomic_write_text

    batch_sizes = sorted(batch_sizes)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        state = Path(tmp) / "model.npz"
        _fit_model(problem, num_data, num_inducing, seed, state)
        for config in configurations(methods, samplers):
            command = [
                sys.executable,
                "-m",
                "baselines.scaling",
                "--child",
                "--config",
                json.dumps(config.__dict__),
                "--problem",
                problem,
                "--state",
                str(state),
                "--num-data",
                str(num_data),
                "--num-inducing",
                str(num_inducing),
                "--repeats",
                str(repeats),
                "--time-cap",
                str(time_cap),
                "--seed",
                str(seed),
                "--sampler-options",
                json.dumps(sampler_options or {}),
                "--batch-sizes",
                *map(str, batch_sizes),
            ]
            # hard deadline: every B at the cap (with warm-up), plus start-up and model restoring
            deadline = 120 + time_cap * (repeats + 1) * len(batch_sizes)
            measured = _run_child(command, deadline)
            done = {r["batch_size"] for r in measured}
            for b in batch_sizes:
                if b not in done:
                    measured.append(
                        {
                            **config.__dict__,
                            "batch_size": b,
                            "skipped": f"child killed or failed before B={b} (deadline {deadline:.0f} s)",
                        }
                    )
            rows += measured
            atomic_write_text(out, pd.DataFrame(rows).reindex(columns=list(COLUMNS)).to_csv(index=False))
            print(f"scaling: {config.__dict__} done", file=sys.stderr)
    return rows


def _run_child(command: list[str], deadline: float) -> list[dict[str, Any]]:
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        stdout, _ = process.communicate(timeout=deadline)
    except subprocess.TimeoutExpired:
        process.kill()
        stdout, _ = process.communicate()
    return [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("scaling", help="time batch generation versus batch size on one fitted SVGP")
    _arguments(parser)
    parser.add_argument("--out", required=True, type=Path, help="tidy CSV of measurements")
    parser.set_defaults(func=_main)


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--problem", default="hartmann6")
    parser.add_argument("--batch-sizes", nargs="+", type=int, default=[1, 10, 100, 1000])
    parser.add_argument("--methods", nargs="+", default=["b3o", "ts", "qei", "lp"])
    parser.add_argument("--num-data", type=int, default=500)
    parser.add_argument("--num-inducing", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--time-cap", type=float, default=60.0, help="seconds per batch beyond which larger B are skipped"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--samplers", nargs="+", default=list(CONTINUOUS_SAMPLERS), choices=CONTINUOUS_SAMPLERS)
    parser.add_argument(
        "--sampler-options", default="{}", help='JSON per sampler, e.g. \'{"defer": {"budget": 10000}}\''
    )


def _main(args: argparse.Namespace) -> int:
    import baselines
    import problems

    try:
        problems.get(args.problem)
        for method in args.methods:
            baselines.method_class(method)
        if min(args.batch_sizes) < 1 or args.repeats < 1:
            raise ValueError("batch sizes and repeats must be >= 1")
        options = json.loads(args.sampler_options)
    except (ValueError, json.JSONDecodeError) as err:
        print(f"b3o scaling: error: {err}", file=sys.stderr)
        return 2
    run(
        args.problem,
        args.batch_sizes,
        args.methods,
        args.out,
        args.num_data,
        args.num_inducing,
        args.repeats,
        args.time_cap,
        args.seed,
        options,
        args.samplers,
    )
    return 0


if __name__ == "__main__":  # the child process
    child = argparse.ArgumentParser()
    _arguments(child)
    child.add_argument("--child", action="store_true", required=True)
    child.add_argument("--config", required=True)
    child.add_argument("--state", required=True)
    raise SystemExit(_child(child.parse_args()))
