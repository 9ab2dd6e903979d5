"""A quiet start, on request: TensorFlow's start-up chatter on a machine without CUDA filtered out of stderr.

Importing TensorFlow 2.18 on a CPU-only machine prints a dozen lines (duplicate cuDNN/cuFFT/cuBLAS factories, missing
CUDA drivers, oneDNN and CPU-feature notes, absl's "before InitializeLog" warning, cuInit's failure when the devices
are first listed); the absl ones ignore `TF_CPP_MIN_LOG_LEVEL`, because native code writes them straight to file
descriptor 2. `quiet_tensorflow()` imports TensorFlow with descriptor 2 captured, and what it wrote comes back without
the lines matching `CHATTER` (an error raised meanwhile is still shown in full); after it, each rule's first
acquisition (where grappler compiles trieste's graphs) is filtered the same way. `install()` does the same lazily, on
TensorFlow's first import, for an application that may never import it (the `b3o` command).

`import b3o` calls neither: a library leaves the process's descriptors and import machinery alone. The suite calls
them for itself (bench/cli.py, tests/conftest.py, the examples).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import re
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from types import ModuleType

#: the start-up lines TensorFlow prints where no GPU is configured, none of which asks anything of the user
CHATTER = re.compile(
    r"absl::InitializeLog\(\)|Unable to register cu(DNN|FFT|BLAS) factory|Could not find cuda drivers"
    r"|failed call to cuInit|oneDNN custom operations|cpu_feature_guard|rebuild TensorFlow with the appropriate"
    r"|computation placer already registered|TF-TRT Warning"
    # on a graph's first run: grappler skipping trieste's shape asserts, oneDNN falling back to Eigen for int32
    r"|Skipping loop optimization for Merge node|oneDNN supports DT_INT32 only"
)
_enabled = False
_PACKAGES = ("tensorflow", "trieste", "gpflow", "gpflux", "tensorflow_probability")


@contextmanager
def filtered_stderr() -> Iterator[None]:
    """Capture file descriptor 2 (native code's stderr too) and write back every line but TensorFlow's chatter."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as captured:
        os.dup2(captured.fileno(), 2)
        try:
            yield
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            captured.seek(0)
            lines = captured.read().decode(errors="replace").splitlines(True)
            sys.stderr.write("".join(line for line in lines if not CHATTER.search(line)))


class _QuietLoader(importlib.abc.Loader):
    def __init__(self, loader: importlib.abc.Loader):
        self.loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        with filtered_stderr():
            self.loader.exec_module(module)
            # the platforms are probed (cuInit) on first use, not on import: probe them here, where it is filtered
            sys.modules["tensorflow"].config.list_physical_devices()


class _QuietFirstImport(importlib.abc.MetaPathFinder):
    """Wraps the first import of a TensorFlow package (the one that loads TensorFlow) in `filtered_stderr`."""

    def find_spec(
        self, name: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if name not in _PACKAGES:
            return None
        sys.meta_path.remove(self)  # once: TensorFlow is loaded by this import
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is not None and spec.loader is not None:
            spec.loader = _QuietLoader(spec.loader)
        return spec


def while_compiling(first: bool) -> AbstractContextManager[None]:
    """`filtered_stderr` around the first run of new graphs (`first`), where `quiet_tensorflow` or `install` turned the
    filter on."""
    return filtered_stderr() if first and _enabled else nullcontext()


def quiet_tensorflow() -> None:
    """Import TensorFlow now without its CUDA chatter on stderr, and filter the first graph runs of each
    `BoltzmannBatch` likewise. Call it before anything imports TensorFlow (trieste, gpflow); after, only the graph
    runs are filtered.

    Example::

        b3o.quiet_tensorflow()  # before `import trieste`
    """
    global _enabled
    _enabled = True
    if "tensorflow" in sys.modules:
        return
    with filtered_stderr():
        import tensorflow as tf

        tf.config.list_physical_devices()  # the platforms are probed (cuInit) on first use: probe them here


def install() -> None:
    """`quiet_tensorflow` deferred to TensorFlow's first import, for an application that may never import it (the
    `b3o` command): a one-shot import hook, removed when it fires. Nothing to do if TensorFlow is loaded already or
    the user chose a TensorFlow log level."""
    global _enabled
    if "tensorflow" in sys.modules or "TF_CPP_MIN_LOG_LEVEL" in os.environ:
        return
    _enabled = True
    if not any(isinstance(finder, _QuietFirstImport) for finder in sys.meta_path):
        sys.meta_path.insert(0, _QuietFirstImport())
