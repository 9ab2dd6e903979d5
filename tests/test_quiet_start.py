"""A quiet, quick start: `b3o list` imports no TensorFlow and prints nothing on stderr; `b3o.quiet_tensorflow()`
leaves out TensorFlow's CUDA chatter but not other output (issue 41); `import b3o` alone changes no global state
(issue 79)."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
from pathlib import Path

import pytest

import baselines
from b3o import quiet

ROOT = Path(__file__).resolve().parents[1]


def _python(code: str) -> subprocess.CompletedProcess[str]:
    """`code` in a fresh interpreter on this checkout, with TensorFlow's log level left unset as a user's is."""
    env = {k: v for k, v in os.environ.items() if k != "TF_CPP_MIN_LOG_LEVEL"} | {"PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)


def test_b3o_list_imports_no_tensorflow_and_prints_no_warning():
    done = _python(
        "import sys; from bench.cli import main; code = main(['list']); "
        "print('tensorflow imported' if 'tensorflow' in sys.modules else 'no tensorflow'); sys.exit(code)"
    )
    assert done.stderr == ""
    assert "acquisitions:\n  ucb" in done.stdout and "auto-tail" in done.stdout
    assert done.stdout.rstrip().endswith("no tensorflow")


def test_quiet_tensorflow_imports_it_without_chatter():
    done = _python(
        "import b3o; b3o.quiet_tensorflow(); import trieste, tensorflow as tf; print(float(tf.reduce_sum(tf.ones(3))))"
    )
    assert done.stdout.strip() == "3.0"
    assert done.stderr == ""


def test_import_b3o_changes_no_global_state():
    """No import hook, file descriptor 2 untouched (the same file, not a duplicate), no TensorFlow imported."""
    done = _python(
        "import os, sys; hooks = list(sys.meta_path); before = os.fstat(2)\n"
        "import b3o\n"
        "after = os.fstat(2)\n"
        "print(sys.meta_path == hooks, (before.st_ino, before.st_dev) == (after.st_ino, after.st_dev), "
        "'tensorflow' in sys.modules)"
    )
    assert done.stdout.split() == ["True", "True", "False"]


def test_the_filter_keeps_every_line_but_the_chatter(capfd):
    with quiet.filtered_stderr():
        os.write(2, b"E0000 cuda_dnn.cc:8310] Unable to register cuDNN factory: Attempting to register\n")
        os.write(2, b"a real problem\n")
    assert capfd.readouterr().err == "a real problem\n"


@pytest.mark.parametrize("name", sorted(baselines._BUILTIN))
def test_parameters_read_from_source_are_the_constructors(name):
    """`b3o list` reads a built-in's parameters from its source; they are those its constructors take."""
    expected: list[str] = []
    for cls in baselines.method_class(name).__mro__:
        if "__init__" not in vars(cls):
            continue
        params = inspect.signature(cls.__init__).parameters.values()
        named = [p.name for p in params if p.name != "self" and p.kind is not p.VAR_KEYWORD]
        expected += [name for name in named if name not in expected]
        if not any(p.kind is p.VAR_KEYWORD for p in params):
            break
    assert baselines.parameters(name) == expected
