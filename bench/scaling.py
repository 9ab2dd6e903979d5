"""`b3o scaling`: batch-generation time and memory versus batch size B, side by side, on one fitted SVGP.

What is measured is one `ScalingSpec`, which travels whole, as JSON, from the command line or the workflow config to
every child process. One surrogate (the spec's `ModelSpec` settings, N points, seeded) is fitted once; its variables
are saved and every configuration (method x sampler x acquisition) is measured in its own child process that restores
that exact model, so peak memory is per configuration and a configuration that runs away can be killed. A child
measures batch sizes in ascending order, up to `repeats` times each after a warm-up (min and median reported; repeats
stop early once one run exceeds the time cap). A larger B is skipped, with the reason recorded, once one B took longer
than the time cap or when the straight line through the last two measured (B, time) points predicts more than the cap
for it (an estimate: q-EI grows faster than linearly and is then stopped by the deadline). The parent kills a child
that exceeds a hard deadline, records what was left, and rewrites the CSV after every configuration so an
interrupted run keeps what it measured.
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
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from b3o import samplers as b3o_samplers
from bench.records import SCALING_COLUMNS, atomic_write_text
from harness.keys import check_keys


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


@dataclass(frozen=True)
class ScalingSpec:
    """What one `b3o scaling` run measures; it travels whole (as JSON) to every child process.

    `model` holds `ModelSpec` settings (default: `ModelSpec()`, an SVGP with 500 inducing points). From a workflow
    config it is the trials' `defaults.model` with the scaling section's `num_inducing` (`from_config`).
    """

    problem: str = "hartmann6"
    batch_sizes: tuple[int, ...] = (1, 10, 100, 1000)
    methods: tuple[str, ...] = ("b3o", "ts", "qei", "lp")
    samplers: tuple[str, ...] = field(default_factory=lambda: tuple(b3o_samplers.continuous()))
    sampler_options: dict[str, dict[str, Any]] = field(default_factory=dict)
    num_data: int = 500
    repeats: int = 3
    time_cap: float = 60.0
    seed: int = 0
    model: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ScalingSpec:
        if not isinstance(data, dict):
            raise ValueError(f"a scaling spec is a mapping of keys to values, got {data!r}")
        check_keys("scaling", data, cls)
        data = {k: tuple(v) if k in _SEQUENCES and isinstance(v, list) else v for k, v in data.items()}
        return cls(**data)

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> ScalingSpec:
        """The spec of a workflow config's `scaling` section, with the model of its `defaults`."""
        section = {k: v for k, v in config.get("scaling", {}).items() if k != "enabled"}
        model = dict(config.get("defaults", {}).get("model", {}))
        if "num_inducing" in section:
            model["num_inducing"] = section.pop("num_inducing")
        return cls.from_dict({**section, "model": model})

    def to_dict(self) -> dict[str, Any]:
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}

    def check(self) -> None:
        """One clear ValueError for anything wrong, before any model is fitted."""
        import baselines
        import problems
        from bench.model_spec import ModelSpec

        problems.get(self.problem)
        for method in self.methods:
            baselines.method_class(method)
        allowed = b3o_samplers.continuous()
        unknown = sorted(set(self.samplers) - set(allowed))
        if unknown:
            raise ValueError(f"scaling samplers must be among {', '.join(allowed)}, got {unknown}")
        if not self.batch_sizes or min(self.batch_sizes) < 1 or self.repeats < 1 or self.num_data < 1:
            raise ValueError("batch sizes, repeats and num_data must be >= 1")
        if not self.time_cap > 0:
            raise ValueError(f"time_cap must be positive, got {self.time_cap}")
        ModelSpec.from_dict(self.model)


_SEQUENCES = ("batch_sizes", "methods", "samplers")


def configurations(methods: list[str], samplers: list[str] | None = None) -> list[Config]:
    """B3O with each given continuous sampler (all, by default) and with UCB and LogEI; the baselines once each."""
    samplers = b3o_samplers.continuous() if samplers is None else samplers
    out = []
    for method in methods:
        if method == "b3o":
            out += [Config("b3o", s, a) for s in samplers for a in ("ucb", "logei")]
        else:
            out.append(Config(method))
    return out


def _fitted_model(spec: ScalingSpec, state_path: Path, fit_it: bool):
    """(problem, data, model): the SVGP of `spec` on N points of a trial-like initial design; fitted and saved to
    `state_path` (parent), or restored from it (children), so every configuration measures the same model."""
    import numpy as np
    import tensorflow as tf

    import problems
    from bench.design import observed_dataset
    from problems.design import initial_design
    from bench.model_spec import ModelSpec
    from bench.models import build_models, fit, model_state, restore_model_state

    problem = problems.get(spec.problem)
    x = initial_design(problem, spec.num_data, spec.seed)
    data = observed_dataset(problem, x, np.random.default_rng(spec.seed))
    tf.random.set_seed(spec.seed)
    model = build_models(ModelSpec.from_dict(spec.model), problem.search_space, data)
    if fit_it:
        fit(model, data)
        np.savez(state_path, **model_state(model))
    else:
        with np.load(state_path) as saved:
            restore_model_state(model, {k: saved[k] for k in saved.files})
    return problem, data, model


def _child(spec: ScalingSpec, config: Config, state: Path) -> int:
    """Measure one configuration; print one JSON row per batch size."""
    from trieste.observer import OBJECTIVE

    import baselines
    from baselines.base import TrialContext

    problem, data, model = _fitted_model(spec, state, fit_it=False)
    too_slow: str | None = None
    measured: list[tuple[int, float]] = []  # (B, fastest time) of the batch sizes measured so far
    for batch_size in spec.batch_sizes:
        row: dict[str, Any] = {
            "method": config.method,
            "sampler": config.sampler,
            "acquisition": config.acquisition,
            "batch_size": batch_size,
        }
        too_slow = too_slow or predicted_over_cap(measured, batch_size, spec.time_cap)
        if too_slow:
            print(json.dumps({**row, "skipped": too_slow}), flush=True)
            continue
        method = baselines.get(config.method, **config.params(spec.sampler_options))
        context = TrialContext(problem=problem, batch_size=batch_size, iterations=1, seed=spec.seed)
        method.check(context)
        method.setup(context)
        # every ask is BO iteration 2, as after one completed batch: the same lambda_t and seed each time
        after_one = [(data.query_points.numpy(), data.observations.numpy())]
        method.restore(after_one)
        method.ask({OBJECTIVE: model}, data, 2)  # warm-up: tracing and compilation are not batch cost
        times = []
        for _ in range(spec.repeats):
            method.restore(after_one)
            start = time.perf_counter()
            method.ask({OBJECTIVE: model}, data, 2)
            times.append(time.perf_counter() - start)
            if times[-1] > spec.time_cap:
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
        if min(times) > spec.time_cap:
            too_slow = f"B={batch_size} took {min(times):.1f} s > time cap {spec.time_cap:g} s"
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


def run(spec: ScalingSpec, out: Path) -> list[dict[str, Any]]:
    """Measure every configuration of `spec`, each in its own child process; the CSV is rewritten after each."""
    import pandas as pd

    spec = replace(spec, batch_sizes=tuple(sorted(spec.batch_sizes)))
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        state = Path(tmp) / "model.npz"
        _fitted_model(spec, state, fit_it=True)
        for config in configurations(list(spec.methods), list(spec.samplers)):
            command = [
                sys.executable, "-m", "bench.scaling",
                "--spec", json.dumps(spec.to_dict()), "--config", json.dumps(asdict(config)), "--state", str(state),
            ]  # fmt: skip
            # hard deadline: every B at the cap (with warm-up), plus start-up and model restoring
            deadline = 120 + spec.time_cap * (spec.repeats + 1) * len(spec.batch_sizes)
            measured = _run_child(command, deadline)
            done = {r["batch_size"] for r in measured}
            for b in spec.batch_sizes:
                if b not in done:
                    measured.append(
                        {
                            **asdict(config),
                            "batch_size": b,
                            "skipped": f"child killed or failed before B={b} (deadline {deadline:.0f} s)",
                        }
                    )
            rows += measured
            atomic_write_text(out, pd.DataFrame(rows).reindex(columns=list(SCALING_COLUMNS)).to_csv(index=False))
            print(f"scaling: {asdict(config)} done", file=sys.stderr)
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
    parser.add_argument(
        "--spec", help="scaling spec: a JSON or YAML file, or inline JSON (as the workflow passes it); flags override"
    )
    parser.add_argument("--problem")
    parser.add_argument("--batch-sizes", nargs="+", type=int)
    parser.add_argument("--methods", nargs="+")
    parser.add_argument("--num-data", type=int)
    parser.add_argument("--num-inducing", type=int, help="inducing points of the SVGP (default 500)")
    parser.add_argument("--repeats", type=int)
    parser.add_argument("--time-cap", type=float, help="seconds per batch beyond which larger B are skipped")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--samplers", nargs="+", choices=b3o_samplers.continuous())
    parser.add_argument("--sampler-options", help='JSON per sampler, e.g. \'{"defer": {"budget": 10000}}\'')
    parser.add_argument("--out", required=True, type=Path, help="tidy CSV of measurements")
    parser.set_defaults(func=_main)


def spec_from_arguments(args: argparse.Namespace) -> ScalingSpec:
    """The spec of `--spec` (default: `ScalingSpec()`), with the flags given on the command line replacing its keys."""
    spec = ScalingSpec.from_dict(_load(args.spec)).to_dict() if args.spec else ScalingSpec().to_dict()
    for key in ("problem", "batch_sizes", "methods", "num_data", "repeats", "time_cap", "seed", "samplers"):
        if getattr(args, key) is not None:
            spec[key] = getattr(args, key)
    if args.sampler_options is not None:
        spec["sampler_options"] = json.loads(args.sampler_options)
    if args.num_inducing is not None:
        spec["model"] = {**spec["model"], "num_inducing": args.num_inducing}
    return ScalingSpec.from_dict(spec)


def _load(source: str) -> Any:
    """Inline JSON (starting with "{"), or a JSON or YAML file."""
    if source.lstrip().startswith("{"):
        return json.loads(source)
    text = Path(source).read_text()
    if source.endswith((".yaml", ".yml")):
        import yaml

        return yaml.safe_load(text)
    return json.loads(text)


def _main(args: argparse.Namespace) -> int:
    try:
        spec = spec_from_arguments(args)
        spec.check()
    except (ValueError, TypeError, OSError) as err:  # json.JSONDecodeError is a ValueError
        print(f"b3o scaling: error: {err}", file=sys.stderr)
        return 2
    run(spec, args.out)
    return 0


if __name__ == "__main__":  # the child process: the whole spec, one configuration and the fitted model's variables
    child = argparse.ArgumentParser()
    child.add_argument("--spec", required=True)
    child.add_argument("--config", required=True)
    child.add_argument("--state", required=True, type=Path)
    arguments = child.parse_args()
    spec = ScalingSpec.from_dict(json.loads(arguments.spec))
    raise SystemExit(_child(spec, Config(**json.loads(arguments.config)), arguments.state))
