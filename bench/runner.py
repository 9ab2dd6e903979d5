"""Run one trial and write one record, resumably.

Loop: initial design (iteration 0, the same for every method given (problem, seed)) -> for t = 1..T: fit the
surrogate, recommend a point, ask the method for a batch, evaluate it, append to the trace, checkpoint. After the
loop one more fit on all the data (model-based methods; seeded as an iteration T + 1 would be) gives the final
recommendation, so the record holds the regret of the point each method would recommend as well as of the best point
it evaluated (Ax's two traces). Everything random is derived
from (seed, purpose, t) - observation noise, TensorFlow's global seed, the method's own draws - so no generator state
has to be saved: a checkpoint holds the trace so far and the model's variables (the warm start of the next fit), and a
resumed trial produces the same record as an uninterrupted one. So a finished trial's last checkpoint is kept, and a
trial that differs from it only in having more iterations continues from it (`bench.extension`). Files are
written atomically (temp file + rename).
"""

from __future__ import annotations

import json
import logging
import resource
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import psutil
from check_shapes import disable_check_shapes
from trieste.observer import OBJECTIVE

from b3o import degeneracy
from b3o.diversity import mean_pairwise_distance
from bench import numerics
from bench.design import model_dataset
from bench.extension import continue_from_longest, keep_final_state
from bench.models import build_models, fit_and_report, model_state, restore_model_state
from bench.provenance import provenance, writer
from bench.records import (
    atomic_write_text,
    check_output,
    checkpoint_path,
    finished_copy,
    load_record,
    read_checkpoint,
    read_record,
    save_checkpoint,
    set_aside,
)
from bench.spec import Trial, TrialSpec, validate
from bench.standardise import OutputScale
from harness.plugin_code import plugin_code, stale
from harness.seeding import Purpose, derived_seed, seed_tensorflow
from problems import Problem
from problems.design import trial_design

if TYPE_CHECKING:
    from trieste.data import Dataset

log = logging.getLogger("b3o.trial")


def run_trial(spec: TrialSpec | dict[str, Any], out: str | Path) -> dict[str, Any]:
    """Run (or resume, or return) the trial of `spec`, writing its record to `out`; returns the record."""
    spec = spec if isinstance(spec, TrialSpec) else TrialSpec.from_dict(spec)
    out = Path(out)
    trial = validate(spec)  # every cheap check before any model exists
    check_output(out)
    record = _current(read_record(out, spec.trial_id), spec, out)  # None if absent, unusable (moved aside) or stale
    if record is not None:
        return record
    record = _current(_finished_before(out, spec.trial_id), spec, out)
    if record is not None:  # its output was deleted since (a failed or rerun job of several trials)
        atomic_write_text(out, json.dumps(record))
        return record
    _warn_if_not_pinned()
    # gpflow's run-time shape checks run on every eager kernel call (the inducing-point selection makes many); they
    # check, they do not compute, so the record is the same without them.
    with disable_check_shapes():
        return _Runner(trial, out).run()


def _current(record: dict[str, Any] | None, spec: TrialSpec, out: Path) -> dict[str, Any] | None:
    """`record`, unless a plugin it ran has changed since (`harness.plugin_code`): then it is set aside
    (`bench.records.set_aside`) and the trial runs again, so that no result of older code is read beside the new
    code's, and none is lost."""
    code = None if record is None else record["provenance"].get("plugin_code")
    changed = [] if record is None else stale(code, spec.to_dict())
    if changed:
        aside = set_aside(out, code)
        log.warning("%s: %s changed since this trial ran: running it again (the old record is kept as %s)",
                    spec.trial_id, ", ".join(changed), aside)
        return None
    return record


def _finished_before(out: Path, trial_id: str) -> dict[str, Any] | None:
    """The kept copy of this trial's finished record, if there is a usable one. A copy of another trial (an --out
    reused for another spec) or a damaged one is not an error: this trial's own copy replaces it when it finishes."""
    copy = finished_copy(out)
    record = load_record(copy)[0] if copy.exists() else None
    return record if record is not None and record["trial_id"] == trial_id else None


def _warn_if_not_pinned() -> None:
    """Once per process: a trial run through the Python API in a process that did not pin its platform (the `b3o`
    trial commands do) still runs, and its record says so (`provenance.numerics.pinned`)."""
    global _PLATFORM_CHECKED
    if _PLATFORM_CHECKED:
        return
    _PLATFORM_CHECKED = True
    found = numerics.mismatches()
    if found:
        log.warning("numerical platform not pinned (%s): this record matches only runs on the same platform; "
                    "`b3o run-trial` pins it", "; ".join(found))


_PLATFORM_CHECKED = False


def _startup_seconds() -> float:
    """Seconds from this process's start to its first trial (interpreter, imports, spec checks); 0 for later trials
    of the same process, which share that start-up."""
    global _STARTED
    if _STARTED:
        return 0.0
    _STARTED = True
    return max(0.0, time.time() - psutil.Process().create_time())


_STARTED = False


class _Runner:
    def __init__(self, trial: Trial, out: Path):
        self.trial = trial
        self.spec = trial.spec
        self.problem: Problem = trial.problem
        self.out = out
        self.checkpoint = checkpoint_path(out)
        self.sign = np.full(self.problem.num_objectives, self.problem.minimisation_sign)
        self._history: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # (points, values, observations)
        self._warned = False
        self.writer: dict[str, Any] = {}  # this process's code and platform (`bench.provenance.writer`)
        self.segments: list[dict[str, Any]] = []  # which writer made which iterations (`bench.records.Checkpoint`)
        #: the plugin code this trial runs (`harness.plugin_code`), in its checkpoints' segments and in its record
        self.code = plugin_code(self.spec.to_dict())

    def run(self) -> dict[str, Any]:
        started = time.perf_counter()
        startup_s = _startup_seconds()
        startup_cpu_s = time.process_time() if startup_s else 0.0  # this process's CPU seconds since it started
        method = self.trial.method
        self.writer = writer(provenance()) | ({"plugin_code": self.code} if self.code else {})
        platform = self.writer["platform_id"]  # picks a final state to continue from; the record's is at the finish
        continued = None
        if method.horizon_free and not self.checkpoint.exists():
            continued = continue_from_longest(self.checkpoint, self.out, self.spec, platform)
        trace, model_vars = self._load_checkpoint()
        continued = continued if trace else None  # a kept state of older plugin code is not continued
        method.setup(self.trial.context)
        if not trace:
            cpu = time.process_time()
            x0 = trial_design(self.problem, self.spec.n_init, self.spec.seed)
            trace = [self._evaluate(0, x0, fit_s=0.0, acquire_s=0.0, extra={})]
            trace[0]["cpu_s"] = time.process_time() - cpu
            self._save_checkpoint(trace, None)
        else:
            method.restore([(np.array(r["points"]), self._to_min(np.array(r["observations"]))) for r in trace[1:]])
        model = None
        for t in range(len(trace), self.spec.iterations + 1):
            data, scale = self._dataset(trace)
            cpu = time.process_time()  # this process's CPU seconds: the wall parts less the waits of a loaded machine
            start = time.perf_counter()
            extra: dict[str, Any] = {"output_scale": scale.to_dict()}
            if method.uses_model:
                if model is None:
                    model = self._build_model(trace, model_vars)
                seed_tensorflow(self.spec.seed, t, Purpose.TENSORFLOW)  # after building: a resumed run built just now
                extra["model_objective"], extra["fit"] = fit_and_report(model, data)
            fit_s = time.perf_counter() - start
            extra["fit_cpu_s"] = time.process_time() - cpu
            extra.update({f"recommended_{k}": v for k, v in self._recommend(model, data).items()})
            start, acquire_cpu = time.perf_counter(), time.process_time()
            seed_tensorflow(self.spec.seed, t, Purpose.TENSORFLOW)  # the ask does not depend on whether a fit ran
            points = self._proposed(t, method.ask({OBJECTIVE: model} if model is not None else None, data, t))
            acquire_s = time.perf_counter() - start
            extra["acquire_cpu_s"] = time.process_time() - acquire_cpu
            extra["diagnostics"] = _jsonable(method.diagnostics)
            self._warn_if_degenerate(t, method.diagnostics)
            record = self._evaluate(t, points, fit_s=fit_s, acquire_s=acquire_s, extra=extra)
            record["cpu_s"] = time.process_time() - cpu  # fit, acquire and evaluate
            method.tell(points, self._to_min(np.array(record["observations"])))
            trace.append(record)
            start = time.perf_counter()
            self._save_checkpoint(trace, model_state(model) if model is not None else None)
            record["io_s"] = time.perf_counter() - start  # a resumed trial's checkpoint lacks its last entry's
            log.info(
                "%s t=%d/%d evals=%d best=%.6g fit=%.2fs acquire=%.2fs evaluate=%.2fs",
                self.spec.trial_id, t, self.spec.iterations, record["num_evals"], record["best_value"],
                fit_s, acquire_s, record["evaluate_s"],
            )
        final = self._final_recommendation(model, model_vars, trace)
        record = {
            "spec": self.spec.to_dict(),
            "trial_id": self.spec.trial_id,
            "problem": {
                "name": self.problem.name,
                "sense": self.problem.sense,
                "optimum": self.problem.optimum,
                "num_objectives": self.problem.num_objectives,
                "dim": self.problem.dim,
            },
            "provenance": provenance() | ({"plugin_code": self.code} if self.code else {}),
            "startup_s": startup_s,  # of the process that finished the trial
            "startup_cpu_s": startup_cpu_s,  # its CPU seconds, which a loaded machine inflates far less
            # start-up plus this process's part of the trial: the whole trial unless it was resumed
            "wall_s": startup_s + time.perf_counter() - started,
            "trace": trace,
            "final_recommendation": final,
        }
        if continued is not None:  # its first iterations are that trial's
            record["continued_from"] = continued
        if len(self.segments) > 1:  # resumed on another platform or revision: say which made which iterations
            record["provenance"]["segments"] = self.segments
        text = json.dumps(record)
        atomic_write_text(finished_copy(self.out), text)
        atomic_write_text(self.out, text)
        if method.horizon_free:
            keep_final_state(self.checkpoint, self.out, self.spec, platform)
        self.checkpoint.unlink(missing_ok=True)
        return record

    def _build_model(self, trace: list[dict], model_vars: dict[str, np.ndarray] | None) -> Any:
        seed_tensorflow(self.spec.seed, 0, Purpose.TENSORFLOW)
        # Built on the initial design, as at t = 1: the kernel priors depend on the build data.
        model = build_models(self.trial.model_spec, self.problem.search_space, self._dataset(trace[:1])[0])
        if model_vars is not None:
            restore_model_state(model, model_vars)
        return model

    # --- recommendation ---------------------------------------------------------------------------------------

    def _recommend(self, model: Any, data: Dataset) -> dict[str, Any]:
        """The point the method would recommend from `data` (all points evaluated so far, as the model sees them):
        with a model, the evaluated point of best posterior mean; without one (random search, NSGA-II), the best
        observation. Its noiseless value, regret (None without a known optimum) and the number of evaluations it was
        chosen among. Multi-objective problems have no single recommended point: value and regret None."""
        evals = len(data)
        if self.problem.num_objectives > 1:
            return {"value": None, "regret": None, "evals": evals}
        if model is not None:
            score = model.predict(data.query_points)[0].numpy()[:, 0]  # minimisation convention, standardised
        else:
            score = self._to_min(np.concatenate([o for _, _, o in self._history])[:evals, 0])
        value = float(np.concatenate([v for _, v, _ in self._history])[int(np.argmin(score)), 0])
        regret = None if self.problem.optimum is None else float(abs(self.problem.optimum - value))
        return {"value": value, "regret": regret, "evals": evals}

    def _final_recommendation(self, model: Any, model_vars: dict[str, np.ndarray] | None, trace: list[dict]) -> dict:
        """The recommendation from all the data: an iteration's fit saw the data before its batch only, so a
        model-based method fits once more, seeded as iteration T + 1, after the trace (which it cannot change)."""
        data = self._dataset(trace)[0]
        if self.trial.method.uses_model:
            if model is None:  # resumed after the last iteration
                model = self._build_model(trace, model_vars)
            seed_tensorflow(self.spec.seed, self.spec.iterations + 1, Purpose.TENSORFLOW)
            fit_and_report(model, data)
        return self._recommend(model, data)

    # --- evaluation and bookkeeping -------------------------------------------------------------------------

    def _proposed(self, t: int, points: Any) -> np.ndarray:
        """The method's batch as float64 [B, d], refused with the method and iteration named where its shape is wrong
        or a point has a NaN or inf (`Problem.check_points`): a bug in a method of one's own then points at the
        method, not at the problem whose check would catch it."""
        try:
            return self.problem.check_points(points)
        except ValueError as error:
            raise ValueError(
                f"method {self.spec.method!r} proposed at iteration {t} a batch the problem refuses: {error}"
            ) from error

    def _evaluate(self, t: int, points: np.ndarray, fit_s: float, acquire_s: float, extra: dict[str, Any]) -> dict:
        points = np.asarray(points, dtype=np.float64)
        start = time.perf_counter()
        values, failed = self.problem.checked_evaluation(points)  # shape and finiteness: problems.base.check_values
        noise = np.random.default_rng(derived_seed(self.spec.seed, t, Purpose.NOISE))
        observations = self.problem.observe_values(values, noise)
        evaluate_s = time.perf_counter() - start
        self._history.append((points, values, observations))
        all_values = np.concatenate([v for _, v, _ in self._history])
        all_obs = np.concatenate([o for _, _, o in self._history])
        return {
            "iteration": t,
            "num_evals": int(len(all_values)),
            "points": points.tolist(),
            "observations": observations.tolist(),
            "values": values.tolist(),
            "failed": np.asarray(failed, dtype=bool).tolist(),
            **self._progress(all_values, all_obs),
            "diversity": mean_pairwise_distance(points, self.problem.search_space) if len(points) > 1 else None,
            "fit_s": fit_s,
            "acquire_s": acquire_s,
            "evaluate_s": evaluate_s,
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            **extra,
        }

    def _progress(self, values: np.ndarray, observations: np.ndarray) -> dict[str, Any]:
        problem = self.problem
        if problem.num_objectives > 1:
            hv = problem.hypervolume(values)
            return {"best_observed": None, "best_value": hv, "simple_regret": None, "hypervolume": hv}
        best = self.sign[0] * np.min(self.sign[0] * values[:, 0])
        best_obs = self.sign[0] * np.min(self.sign[0] * observations[:, 0])
        regret = None if problem.optimum is None else float(abs(problem.optimum - best))
        return {"best_observed": float(best_obs), "best_value": float(best), "simple_regret": regret}

    def _to_min(self, observations: np.ndarray) -> np.ndarray:
        return observations * self.sign

    def _dataset(self, trace: list[dict]) -> tuple[Dataset, OutputScale]:
        x = np.concatenate([np.array(r["points"], dtype=np.float64) for r in trace])
        y = np.concatenate([np.array(r["observations"], dtype=np.float64) for r in trace])
        return model_dataset(self.problem, x, y)

    def _warn_if_degenerate(self, t: int, diagnostics: dict[str, Any]) -> None:
        """One warning per trial when the Boltzmann density is a point mass or uniform (`b3o.degeneracy`)."""
        reason = None if self._warned else degeneracy.describe(diagnostics)
        if reason:
            self._warned = True
            log.warning("%s t=%d: the Boltzmann density %s; check the surrogate and lambda", self.spec.trial_id, t, reason)

    # --- checkpoints ----------------------------------------------------------------------------------------

    def _save_checkpoint(self, trace: list[dict], model_vars: dict[str, np.ndarray] | None) -> None:
        save_checkpoint(self.checkpoint, self.spec.trial_id, trace, model_vars or {}, self.segments)

    def _load_checkpoint(self) -> tuple[list[dict], dict[str, np.ndarray] | None]:
        """The trace so far and the model's variables; `self.segments` gains this process's writer if it differs
        from the one that wrote the last iterations (the record then names both)."""
        loaded = read_checkpoint(self.checkpoint, self.spec.trial_id, self.spec.iterations)
        if loaded is None:  # none, or unreadable and moved aside: start from the initial design
            self.segments = [{"from_iteration": 0, **self.writer}]
            return [], None
        trace, model_vars, self.segments = loaded
        changed = sorted({r for segment in self.segments for r in stale(segment.get("plugin_code"), self.spec.to_dict())})
        if changed:  # iterations of older plugin code are never continued by newer code
            log.warning("%s: %s changed since its checkpoint: starting again", self.spec.trial_id, ", ".join(changed))
            self.checkpoint.unlink()
            self.segments = [{"from_iteration": 0, **self.writer}]
            return [], None
        if {k: self.segments[-1].get(k) for k in self.writer} != self.writer:
            self.segments = [*self.segments, {"from_iteration": len(trace), **self.writer}]
        self._history = [
            (np.array(r["points"]), np.array(r["values"]), np.array(r["observations"])) for r in trace
        ]
        log.info("%s resuming after iteration %d", self.spec.trial_id, len(trace) - 1)
        return trace, (model_vars or None)


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (np.floating, np.integer, np.bool_)):
        value = value.item()
    if isinstance(value, float) and not np.isfinite(value):
        return None
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return repr(value)
