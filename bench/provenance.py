"""Provenance stamped on every record: code revision, library versions (and those of installed b3o plugin packages:
their code is not under our git revision), machine, devices, the numerical platform (`bench.numerics`: CPU,
BLAS kernels, threads) with its id, and the SLURM job that ran it (if any)."""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any

from bench.numerics import fingerprint, platform_id
from harness.registry import plugin_versions

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
    versions = {"python": platform.python_version(), **{p: _version(p) for p in _PACKAGES}, **plugin_versions()}
    numerics = fingerprint()
    return {
        "git_sha": _git("rev-parse", "HEAD"),
        "git_dirty": None if status is None else bool(status),
        "versions": versions,
        "platform_id": platform_id(numerics, versions),
        "numerics": numerics,
        "host": platform.node(),
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "gpus": [device.name for device in tf.config.list_physical_devices("GPU")],  # TensorFlow places work on these
        "slurm_job_id": os.environ.get("SLURM_JOB_ID"),
        "finished_utc": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }


#: what names the code and platform that computed an iteration (a checkpoint's segments, `bench.records`)
WRITER_KEYS = ("platform_id", "git_sha", "git_dirty")


def writer(record_provenance: dict[str, Any]) -> dict[str, Any]:
    """The part of a provenance that says which code on which numerical platform computed something."""
    return {key: record_provenance.get(key) for key in WRITER_KEYS}


def register(subparsers: argparse._SubParsersAction) -> None:
    platform_cmd = subparsers.add_parser(
        "platform", help="print the numerical platform trials run on here (pinned unless B3O_NUMERICS=native), its id"
    )
    platform_cmd.set_defaults(func=_print_platform)


def _print_platform(args: argparse.Namespace) -> int:
    record = provenance()
    print(json.dumps({"platform_id": record["platform_id"], "numerics": record["numerics"],
                      "versions": record["versions"]}, indent=1))
    return 0
