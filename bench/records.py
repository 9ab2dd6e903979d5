"""A trial's files on disk and the names in them: the record, trace and scaling-table columns (the runner and
`b3o scaling` write them, `analysis.data.tidy` and the figures read them), the hypervolume recorded for multi-objective
trials, output-path checks, atomic writes, and what to do with a record or checkpoint that cannot be trusted.
TensorFlow-free: the tidy step and the figures import it.

A record is complete only if it is a JSON object of this trial whose trace has iterations 0..T (T = the spec's
iterations). A file that is not - cut short, empty, random bytes, a flipped byte, a trace cut short - is moved aside
(renamed `<name>.corrupt-<UTC time>`) with one warning, and the trial starts again from the last state that can be
read: a readable checkpoint, else the initial design. Runs are deterministic, so the result is the record an
uninterrupted run writes. A readable file of *another* trial is never moved or overwritten: that is an
`OutputError` (bad --out), as is an output path that cannot be written.
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, NamedTuple

import numpy as np

log = logging.getLogger("b3o.trial")

#: the keys of a trial record (`bench.runner` writes it, `analysis.data.tidy` reads it)
RECORD_KEYS = (
    "spec", "trial_id", "problem", "provenance", "startup_s", "startup_cpu_s", "wall_s", "trace", "final_recommendation"
)
#: keys every trace row must have for the record to be used
TRACE_KEYS = ("iteration", "num_evals", "points", "observations", "values", "best_value")
#: per-iteration scalars of a trace row (None where they do not apply: regret without a known optimum, say)
TRACE_SCALARS = (
    "iteration",
    "num_evals",
    "best_value",
    "best_observed",
    "simple_regret",
    "hypervolume",
    "diversity",
    "fit_s",
    "acquire_s",
    "evaluate_s",
    "io_s",
    "cpu_s",
    "fit_cpu_s",
    "acquire_cpu_s",
    "peak_rss_mb",
    "model_objective",
)
#: trace fields that measure the machine, not the method: wall and CPU times and memory (timings inside a row's
#: `diagnostics` are the keys with "seconds" in their name)
TIMING_KEYS = ("fit_s", "acquire_s", "evaluate_s", "io_s", "cpu_s", "fit_cpu_s", "acquire_cpu_s", "peak_rss_mb")
#: keys records gained after records were first published - in trace rows from t = 1: `fit` (the fit's outcome,
#: `bench.models.fit_outcome`) and `recommended_value` / `_regret` / `_evals` (the point the method would
#: recommend from the data before that row's batch); in the record: `final_recommendation` (from all the data); in
#: a resampling sampler's diagnostics: `repeated_picks` and `move_evals` (`b3o.samplers.base.distinct_picks`); in
#: B3O's diagnostics: the batch's nearest-neighbour distances and its `degenerate` reading (`b3o.degeneracy.kind`).
#: A record without one is an older record, compared on the keys it has (`same_run`).
ADDED_KEYS = ("fit", "recommended_value", "recommended_regret", "recommended_evals", "final_recommendation",
              "repeated_picks", "move_evals", "nearest_neighbour", "relative_nearest_neighbour", "degenerate")
#: columns of the `b3o scaling` table: one row per (configuration, batch size)
SCALING_COLUMNS = (
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


class OutputError(ValueError):
    """The output path cannot hold this trial's record: not writable, a directory, or another trial's files."""


#: a checkpoint's file name is its record's plus this
CHECKPOINT_SUFFIX = ".checkpoint.npz"


def check_output(out: Path) -> None:
    """Create the record's directory and prove it writable, before any work is done."""
    if out.is_dir():
        raise OutputError(f"--out {out} is a directory; give a file path such as {out / 'RECORD.json'}")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out.parent, prefix=f".{out.name}.", suffix=".probe"):
            pass
    except OSError as err:
        raise OutputError(f"cannot write the record {out}: {err.strerror or err} ({err.filename or out.parent})") from None


def atomic_write(path: Path, write: Callable[[IO[bytes]], None]) -> None:
    """Write `path` through a temporary file in its directory and a rename: readers see the old file or the new one,
    and a failed write (a full disk) leaves neither a partial file nor the temporary one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary: Path | None = None
    try:
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp", delete=False) as handle:
            temporary = Path(handle.name)
            write(handle)
        os.replace(temporary, path)
    except BaseException:
        if temporary is not None:
            temporary.unlink(missing_ok=True)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write(path, lambda handle: handle.write(text.encode()))


def quarantine(path: Path, reason: str) -> Path:
    """Move an untrustworthy file aside (kept for inspection, never read again) with one warning."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    for n in range(1, 1000):
        if not target.exists():
            break
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    os.replace(path, target)
    log.warning("%s cannot be used (%s); moved aside to %s, the trial restarts from its last readable state", path,
                reason, target.name)
    return target


def record_problem(record: Any) -> str | None:
    """Why `record` (parsed JSON) is not a complete trial record, or None if it is."""
    if not isinstance(record, dict):
        return f"a record is a JSON object, found {type(record).__name__}"
    if not isinstance(record.get("spec"), dict) or not isinstance(record.get("trial_id"), str):
        return "no spec or trial_id"
    iterations = record["spec"].get("iterations")
    problem = trace_problem(record.get("trace"))
    if problem:
        return problem
    if not isinstance(iterations, int) or len(record["trace"]) != iterations + 1:
        return f"trace has {len(record['trace'])} of the spec's {iterations} + 1 iterations"
    return None


def trace_problem(trace: Any) -> str | None:
    """Why `trace` is not a usable run of iterations 0, 1, ..., k, or None if it is."""
    if not isinstance(trace, list) or not trace:
        return "no trace"
    for t, row in enumerate(trace):
        if not isinstance(row, dict) or row.get("iteration") != t or any(k not in row for k in TRACE_KEYS):
            return f"trace row {t} is not iteration {t} with fields {', '.join(TRACE_KEYS)}"
    return None


def load_record(path: Path) -> tuple[dict[str, Any] | None, str | None]:
    """(record, None) if `path` holds a complete trial record, else (None, why not)."""
    try:
        record = json.loads(path.read_bytes())
    except ValueError as err:  # JSONDecodeError, UnicodeDecodeError
        return None, f"not JSON: {err}"
    problem = record_problem(record)
    return (None, problem) if problem else (_upgraded(record), None)


#: diagnostics keys renamed since records were first published: old name -> current name
RENAMED_DIAGNOSTICS = {"lam": "lambda_t"}  # 2026-11-27: the iteration's lambda_t, not the configured lambda


def _upgraded(record: dict[str, Any]) -> dict[str, Any]:
    """The record under today's key names (values untouched), so records written before a rename stay readable."""
    for step in record["trace"]:
        diagnostics = step.get("diagnostics")
        if diagnostics:
            step["diagnostics"] = {RENAMED_DIAGNOSTICS.get(k, k): v for k, v in diagnostics.items()}
    return record


def read_record(out: Path, trial_id: str) -> dict[str, Any] | None:
    """The complete record of trial `trial_id` at `out`; None if there is none (an unusable one is moved aside)."""
    if not out.exists():
        return None
    record, problem = load_record(out)
    if record is None:
        quarantine(out, problem)
        return None
    if record["trial_id"] != trial_id:
        raise OutputError(f"{out} holds trial {record['trial_id']}, not {trial_id}; choose another --out")
    return record


def record_platform(record: dict[str, Any]) -> str:
    """The numerical platform of a record's numbers: its platform id, or the ids of every platform that computed
    some of its iterations joined by '+' (a trial resumed on another machine), which no single platform reproduces."""
    prov = record.get("provenance") or {}
    segments = prov.get("segments")
    if not segments:
        return prov.get("platform_id") or ""
    return "+".join(dict.fromkeys(str(s.get("platform_id") or "unknown") for s in segments))


def checkpoint_path(out: Path) -> Path:
    """Where the runner keeps the checkpoint of the trial whose record goes to `out` (until the record is written)."""
    return out.with_name(out.name + CHECKPOINT_SUFFIX)


def set_aside(out: Path, code: dict[str, str] | None) -> Path:
    """Move a finished record of older plugin code (`harness.plugin_code`) out of the way, to `.stale/` beside the
    records, named by its trial id and that code's hashes, and drop its kept copy: its trial runs again, and the old
    result is kept, never read into a table."""
    tag = "-".join(sorted(str(h)[:12] for h in (code or {}).values())) or "unstamped"
    aside = out.parent / ".stale" / f"{out.stem}.{tag}.json"
    aside.parent.mkdir(exist_ok=True)
    kept = finished_copy(out)
    if out.exists():
        out.replace(aside)
        kept.unlink(missing_ok=True)
    elif kept.exists():  # a failed job's finished record, which Snakemake deleted: its copy is the one kept
        kept.replace(aside)
    return aside


def finished_copy(out: Path) -> Path:
    """Where the runner keeps a second copy of each finished record, beside the records but outside any workflow
    output: Snakemake deletes all outputs of a failed job, and of a job it reruns, so a job of several trials would
    otherwise lose the finished ones with the one that failed."""
    return out.parent / ".finished" / out.name


#: the failure notes' directory, beside the records (hidden: no workflow output)
FAILED = ".failed"


def failure_note(out: Path) -> Path:
    """Where `b3o run-trials` notes that the trial whose record goes to `out` failed on an error, beside the records
    but outside any workflow output: a resubmission of its job in the same workflow run (a cluster's retry, meant for
    time limits) fails it at once instead of running it into the same error. The workflow's main process clears the
    notes at each start (`workflow/rules/common.smk`), so the next run tries again."""
    return out.parent / FAILED / (out.name + ".txt")


class Checkpoint(NamedTuple):
    """A trial part-way: its trace, the model's variables, and which code on which platform made which iterations
    (`segments`, each `{from_iteration, platform_id, git_sha, git_dirty}`; a trial resumed on another machine or
    revision has more than one)."""

    trace: list[dict]
    model_vars: dict[str, np.ndarray]
    segments: list[dict]


def save_checkpoint(path: Path, trial_id: str, trace: list[dict], model_vars: dict[str, np.ndarray],
                    segments: list[dict]) -> None:
    """Trace, segments and model variables in one .npz, with a SHA-256 digest of all so that any change is detected."""
    payload = json.dumps({"trial_id": trial_id, "trace": trace, "segments": segments})
    arrays = {f"model_{k}": np.asarray(v) for k, v in model_vars.items()}
    buffer = io.BytesIO()  # built in memory: a failed disk write then meets one plain write call, not a zip writer
    np.savez(buffer, trace=np.array(payload), digest=np.array(_digest(payload, arrays)), **arrays)
    atomic_write(path, lambda handle: handle.write(buffer.getvalue()))


def read_checkpoint(path: Path, trial_id: str, iterations: int) -> Checkpoint | None:
    """The checkpoint saved at `path` for trial `trial_id`; None if there is none or it cannot be trusted (then it is
    moved aside). A readable checkpoint of another trial is an `OutputError`. One written before checkpoints kept
    their segments gets a single segment whose writer is unknown."""
    if not path.exists():
        return None
    try:
        with np.load(path) as saved:  # allow_pickle stays False: a checkpoint is data, never code
            payload, digest = str(saved["trace"]), str(saved["digest"])
            arrays = {k: saved[k] for k in saved.files if k.startswith("model_")}
        if digest != _digest(payload, arrays):
            raise ValueError("content does not match its digest")
        saved_trial = json.loads(payload)
    except Exception as err:  # noqa: BLE001 - any failure to decode (zip, npy, JSON, digest): the file is damaged
        quarantine(path, f"unreadable checkpoint: {type(err).__name__}: {err}")
        return None
    if saved_trial["trial_id"] != trial_id:
        raise OutputError(f"{path} is a checkpoint of trial {saved_trial['trial_id']}, not {trial_id}; choose another --out")
    trace = saved_trial["trace"]
    problem = trace_problem(trace)
    if problem is None and len(trace) > iterations + 1:
        problem = f"trace has {len(trace)} rows, more than the spec's {iterations} + 1 iterations"
    if problem is not None:
        quarantine(path, f"checkpoint {problem}")
        return None
    unknown = [{"from_iteration": 0, "platform_id": None, "git_sha": None, "git_dirty": None}]
    return Checkpoint(trace, {k[len("model_") :]: v for k, v in arrays.items()}, saved_trial.get("segments", unknown))


def _digest(payload: str, arrays: dict[str, np.ndarray]) -> str:
    sha = hashlib.sha256(payload.encode())
    for name in sorted(arrays):
        value = np.ascontiguousarray(arrays[name])
        sha.update(f"{name}:{value.dtype.str}:{value.shape}".encode())
        sha.update(value.tobytes())
    return sha.hexdigest()


def stable(record: dict[str, Any], without: tuple[str, ...] = ()) -> dict[str, Any]:
    """What two runs of one trial spec on one numerical platform share: spec, id, problem, trace and final
    recommendation, the trace rows without `TIMING_KEYS` and their diagnostics without "*seconds*" (wall times,
    memory and provenance differ); `without` leaves out more keys, of the record and of its trace rows."""
    trace = []
    for row in record["trace"]:
        row = {k: v for k, v in row.items() if k not in TIMING_KEYS and k not in without}
        if "diagnostics" in row:
            row["diagnostics"] = {k: v for k, v in row["diagnostics"].items() if "seconds" not in k and k not in without}
        trace.append(row)
    kept = {"spec": record["spec"], "trial_id": record["trial_id"], "problem": record["problem"], "trace": trace}
    if "final_recommendation" in record and "final_recommendation" not in without:
        kept["final_recommendation"] = record["final_recommendation"]
    return kept


def same_run(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two records of one trial reproduce each other: `stable` content equal, except that an `ADDED_KEYS`
    key only one of them has is left out (a record published before the key existed still matches its rerun)."""
    missing = tuple(k for k in ADDED_KEYS if has_key(a, k) != has_key(b, k))
    return stable(a, missing) == stable(b, missing)


def has_key(record: dict[str, Any], key: str) -> bool:
    """Whether `key` is in the record, in any of its trace rows or in their diagnostics."""
    return key in record or any(key in row or key in row.get("diagnostics", {}) for row in record["trace"])
