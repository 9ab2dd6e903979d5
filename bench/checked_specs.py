"""Trial settings `b3o check-specs` has passed, remembered per user, so that a Snakemake start whose settings this
code has already checked skips the check's TensorFlow import (about 6 s of CPU on every dry run, lint or resume).

A setting is remembered under a key of its spec (seed 0) and of everything its check reads: the source of the
package's problems, methods, bench and library (every file under them), the versions of the libraries it builds them
with, and Python's. Any edit to that code, or another library version, is a new key, so a setting is checked afresh.
Only the package's own problems and methods are remembered: a plugin's or a `module:factory` reference's code is not in
the key, so their settings are checked at every start. A refused setting is never remembered.

The store is `$XDG_CACHE_HOME/b3o/checked-specs` (default `~/.cache/...`): a folder per code hash holding an empty file
per setting; a new code hash's folder replaces the others, so the store holds one code's settings. Deleting it costs one
check. Where it cannot be written, nothing is remembered and the check runs as before.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from harness.registry import is_reference

if TYPE_CHECKING:
    from bench.spec import TrialSpec

#: the packages whose code a setting's check runs (problems and methods are built; the spec's defaults are bench's)
PACKAGES = ("b3o", "bench", "baselines", "problems", "harness")
#: the libraries the problems and methods are built with
LIBRARIES = ("numpy", "scipy", "tensorflow", "tensorflow-probability", "gpflow", "trieste", "pybamm", "pymoo")
ROOT = Path(__file__).resolve().parents[1]


def store() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "b3o" / "checked-specs"


@cache
def code_key() -> str:
    """A hash of every file of `PACKAGES` (path and bytes), the `LIBRARIES`' versions and Python's."""
    digest = hashlib.sha256(sys.version.encode())
    for library in LIBRARIES:
        try:
            version = metadata.version(library)
        except metadata.PackageNotFoundError:
            version = "absent"
        digest.update(f"{library}={version}\n".encode())
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(f"{path.relative_to(ROOT)}\n".encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def _key(spec: TrialSpec) -> str | None:
    """The setting's name in this code's folder, or None where its problem or method is not the package's own (a
    reference or a plugin)."""
    import baselines
    import problems

    if is_reference(spec.problem) or is_reference(spec.method):
        return None
    if problems.REGISTRY.origin(spec.problem) or baselines.REGISTRY.origin(spec.method):
        return None
    setting = json.dumps({**spec.to_dict(), "seed": 0}, sort_keys=True, default=str)
    return hashlib.sha256(setting.encode()).hexdigest()


def _folder() -> Path:
    """This code's settings."""
    return store() / code_key()[:16]


def unchecked(specs: Iterable[TrialSpec]) -> list[TrialSpec]:
    """The specs whose setting has not passed the check under this code."""
    folder = _folder()
    return [spec for spec in specs if (key := _key(spec)) is None or not (folder / key).exists()]


def remember(specs: Iterable[TrialSpec]) -> None:
    """Note that these specs' settings passed; silently nothing where the store cannot be written."""
    folder = _folder()
    try:
        if not folder.exists() and store().is_dir():
            for other in store().iterdir():  # another code's settings: never asked for by this code
                shutil.rmtree(other, ignore_errors=True)
        folder.mkdir(parents=True, exist_ok=True)
        for spec in specs:
            key = _key(spec)
            if key is not None:
                (folder / key).touch()
    except OSError:
        pass
