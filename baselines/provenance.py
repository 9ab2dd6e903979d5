"""Provenance stamped on every record: code revision, library versions (and those of installed b3o plugin packages:
their code is not under our git revision), machine, devices and thread settings, and the SLURM job that ran it (if
any)."""

from __future__ import annotations

import os
import platform
import subprocess
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any

from b3o.registry import plugin_versions

_PACKAGES = ("b3o", "trieste", "gpflow", "tensorflow", "tensorflow-probability", "numpy", "scipy", "pybamm", "pymoo")


def _git(*args: str) -> str | None:
    try:
        return subprocess.run(
            ["git", *args], cwd=Path(__file__).resolve().parent, capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def provenance() -> dict[str, Any]:
    import tensorflow as tf

    status = _git("status", "--porcelain", "--untracked-files=no")
    return {
        "git_sha": _git("rev-parse", "HEAD"),
        "git_dirty": None if status is None else bool(status),
        "versions": {"python": platform.python_version(), **{p: _version(p) for p in _PACKAGES}, **plugin_versions()},
        "host": platform.node(),
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "gpus": [device.name for device in tf.config.list_physical_devices("GPU")],  # TensorFlow places work on these
        "slurm_job_id": os.environ.get("SLURM_JOB_ID"),
        "threads": {
            "tf_intra_op": tf.config.threading.get_intra_op_parallelism_threads(),
            "tf_inter_op": tf.config.threading.get_inter_op_parallelism_threads(),
            **{k: os.environ.get(k) for k in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")},
        },
        "finished_utc": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
