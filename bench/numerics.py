"""The numerical platform a trial's numbers depend on: pinned before NumPy and TensorFlow load, and fingerprinted.

BO is chaotic: a last-bit difference in one model fit changes every later batch. OpenBLAS (NumPy's and SciPy's) picks
its kernels by CPU, or by `OPENBLAS_CORETYPE`, and its thread count changes how it splits a sum; TensorFlow's thread
pools may too. So the trial commands (`b3o run-trial`, `run-trials`, `verify`, and through them the workflow and the
cluster) set `PINNED` before NumPy or TensorFlow is imported, re-executing the process if something imported NumPy
first. OpenBLAS's Haswell kernels run on every x86-64 CPU with AVX2. Setting the environment variable `B3O_NUMERICS`
to `native` leaves the machine's own choice (faster on some CPUs; records then match only on the same kind of CPU).

What is not pinned is recorded: `fingerprint()` goes into every record's provenance and `platform_id()`, a short hash
of what enters the numbers, into the per-trial table, so two records whose ids differ are not expected to agree bit
for bit (`b3o verify`).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

#: environment variable -> pinned value; read by OpenBLAS at load and by TensorFlow at start-up
PINNED: dict[str, str] = {
    "OPENBLAS_CORETYPE": "Haswell",  # AVX2 kernels: the same code on every x86-64 CPU with AVX2
    "OPENBLAS_NUM_THREADS": "1",  # the thread count changes OpenBLAS's summation order
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "TF_NUM_INTRAOP_THREADS": "1",
    "TF_NUM_INTEROP_THREADS": "1",
}
#: set to NATIVE to leave the platform as the machine sets it
OPT_OUT = "B3O_NUMERICS"
NATIVE = "native"
_REEXEC_GUARD = "_B3O_NUMERICS_PINNED"
#: variables recorded in the fingerprint besides the pinned ones (a machine may set them; some change kernels)
_RECORDED_PREFIXES = ("OPENBLAS_", "MKL_", "OMP_", "GOTO_", "TF_NUM_", "TF_ENABLE_ONEDNN", "ONEDNN_", "DNNL_")
#: CPU flags that decide which kernels a library may choose
_ISA_PREFIXES = ("sse", "avx", "fma", "amx")


def pinned(environ: dict[str, str] | os._Environ = os.environ) -> bool:
    """Whether this process asks for the pinned platform (not opted out with B3O_NUMERICS=native)."""
    value = environ.get(OPT_OUT, "").strip().lower()
    if value not in ("", NATIVE, "pinned"):
        raise ValueError(f"{OPT_OUT} must be 'pinned' (the default) or {NATIVE!r}, got {environ[OPT_OUT]!r}")
    return value != NATIVE


def pin_process(argv: list[str]) -> None:
    """Set `PINNED` in this process's environment, before NumPy loads; if NumPy or TensorFlow is already loaded
    with other settings, re-execute this command (once) so that they load under the pinned ones."""
    if not pinned():
        return
    changed = {k: v for k, v in PINNED.items() if os.environ.get(k) != v}
    os.environ.update(PINNED)
    loaded = any(m in sys.modules for m in ("numpy", "scipy", "tensorflow"))
    if changed and loaded and os.environ.get(_REEXEC_GUARD) != "1":
        os.environ[_REEXEC_GUARD] = "1"
        sys.stdout.flush()
        sys.stderr.flush()
        os.execv(sys.executable, [sys.executable, "-m", "bench.cli", *argv])


def mismatches() -> list[str]:
    """How this process's loaded platform differs from the pinned one (empty if it matches or is opted out)."""
    if not pinned():
        return []
    found = [f"{k}={os.environ.get(k)!r} (pinned {v!r})" for k, v in PINNED.items() if os.environ.get(k) != v]
    for lib in _blas():
        if lib["internal_api"] == "openblas" and str(lib.get("architecture")).lower() != "haswell":
            found.append(f"{lib['prefix']} uses {lib.get('architecture')} kernels (pinned Haswell)")
        if lib["num_threads"] != 1:
            found.append(f"{lib['prefix']} uses {lib['num_threads']} threads (pinned 1)")
    return found


def fingerprint() -> dict[str, Any]:
    """The platform as this process sees it: CPU, its instruction sets and caches, each BLAS library with its kernel
    and threads, the numerics environment variables and TensorFlow's threads and oneDNN setting."""
    return {
        "pinned": pinned() and not mismatches(),
        "cpu": _cpu(),
        "blas": [
            {k: lib.get(k) for k in ("internal_api", "prefix", "version", "architecture", "threading_layer",
                                      "num_threads")}
            for lib in _blas()
        ],
        "environment": {k: v for k, v in sorted(os.environ.items()) if k.startswith(_RECORDED_PREFIXES)},
        "tensorflow": _tensorflow(),
    }


def platform_id(fingerprint: dict[str, Any], versions: dict[str, Any]) -> str:
    """A 12-character hash of what enters a trial's numbers: library versions, BLAS kernels and threads,
    TensorFlow's settings, the CPU's instruction sets and cache sizes (TensorFlow's Eigen blocks its matrix
    products by cache size). Not the CPU's model name or the host: two machines with the same id should agree."""
    relevant = {
        "versions": {k: v for k, v in sorted(versions.items()) if k != "b3o"},
        "blas": sorted(json.dumps({k: v for k, v in lib.items() if k != "prefix"}, sort_keys=True)
                       for lib in fingerprint["blas"]),
        "tensorflow": fingerprint["tensorflow"],
        "isa": fingerprint["cpu"]["isa"],
        "caches": fingerprint["cpu"]["caches"],
    }
    return hashlib.sha256(json.dumps(relevant, sort_keys=True).encode()).hexdigest()[:12]


def _blas() -> list[dict[str, Any]]:
    import numpy  # noqa: F401  (loads NumPy's BLAS so that threadpoolctl sees it)
    import scipy.linalg  # noqa: F401  (and SciPy's own)
    from threadpoolctl import threadpool_info

    return [lib for lib in threadpool_info() if lib.get("user_api") == "blas"]


def cpu_model() -> str:
    """This machine's CPU model, named as a record names its own (`fingerprint`): a measurement made outside a trial
    (the test suite's time) says where it was made in the same words."""
    return _cpu()["model"]


def _cpu() -> dict[str, Any]:
    model, flags = None, []
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "model name" and model is None:
                model = value.strip()
            elif key.strip() == "flags":
                flags = value.split()
                break
    except OSError:
        pass
    if model is None:
        import platform

        model = platform.processor() or platform.machine()
    return {"model": model, "isa": sorted(f for f in flags if f.startswith(_ISA_PREFIXES)), "caches": _caches()}


def _caches() -> dict[str, str]:
    """Cache level and type -> size, of CPU 0 (Linux sysfs; empty elsewhere)."""
    caches = {}
    for index in sorted(Path("/sys/devices/system/cpu/cpu0/cache").glob("index*")):
        try:
            level = (index / "level").read_text().strip()
            kind = (index / "type").read_text().strip().lower()
            caches[f"L{level}{'' if kind == 'unified' else kind[0]}"] = (index / "size").read_text().strip()
        except OSError:
            continue
    return caches


def _tensorflow() -> dict[str, Any]:
    import tensorflow as tf

    try:  # whether TensorFlow's oneDNN kernels are on (TF_ENABLE_ONEDNN_OPTS, default on for x86 Linux builds)
        from tensorflow.python.util import _pywrap_util_port

        onednn = bool(_pywrap_util_port.IsMklEnabled())
    except (ImportError, AttributeError):
        onednn = None
    return {
        "intra_op_threads": tf.config.threading.get_intra_op_parallelism_threads(),
        "inter_op_threads": tf.config.threading.get_inter_op_parallelism_threads(),
        "onednn": onednn,
    }
