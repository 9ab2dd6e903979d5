"""A long-lived PyBaMM worker process with a per-design wall-clock time limit.

Why a process: IDAKLU releases the GIL and integrates in C++ without checking for Python signals, so neither
`signal.alarm` nor a watchdog thread can stop a solve that overruns; killing a process can, leaves nothing running,
and also contains solver crashes. The worker builds the model once and then serves designs over a socket pair, so
the process boundary costs well under a millisecond per design. It is started lazily, restarted after a timeout or
a crash, replaced in forked children (it belongs to the process that started it), and killed at interpreter exit.
"""

from __future__ import annotations

import atexit
import os
import socket
import subprocess
import sys
import threading
from multiprocessing.connection import Connection
from pathlib import Path

SCRIPT = Path(__file__).with_name("simulate.py")
Outcome = tuple[float, float, str | None]  # (specific energy, specific power, failure reason or None)


class SimulationWorker:
    """Client side of one worker process; `WORKER` is the per-process instance every battery problem shares."""

    def __init__(self, startup_timeout: float = 600.0) -> None:
        self.startup_timeout = startup_timeout
        self._process: subprocess.Popen | None = None
        self._connection: Connection | None = None
        self._owner = os.getpid()
        self._lock = threading.Lock()

    def run(self, design: dict[str, float], timeout: float) -> Outcome:
        """Simulate one design; a design that overruns `timeout` seconds or kills the worker is a failure."""
        with self._lock:
            connection = self._connection_to_live_worker()
            try:
                connection.send(design)
                if not connection.poll(timeout):
                    self.stop()
                    return 0.0, 0.0, f"timed out after {timeout:g} s"
                return connection.recv()
            except (EOFError, OSError):
                process = self._process
                self.stop()
                return 0.0, 0.0, f"worker process died (exit code {process.returncode if process else None})"

    def stop(self) -> None:
        """Kill the worker (it holds no state worth saving) and forget it; a worker of another process is left alone."""
        if self._owner == os.getpid() and self._process is not None:
            self._process.kill()
            self._process.wait()
        if self._connection is not None:
            self._connection.close()
        self._process, self._connection, self._owner = None, None, os.getpid()

    def _connection_to_live_worker(self) -> Connection:
        if self._owner != os.getpid() or self._process is None or self._process.poll() is not None:
            self.stop()
            self._start()
        assert self._connection is not None
        return self._connection

    def _start(self) -> None:
        ours, theirs = socket.socketpair()
        with theirs:
            # stderr is inherited, so a worker that fails to start leaves its traceback in the parent's stderr. No
            # stdin and, unless the user chose otherwise, no telemetry: PyBaMM would otherwise prompt for consent in
            # a background process that nobody can answer, and report every solve.
            self._process = subprocess.Popen(
                [sys.executable, str(SCRIPT), str(theirs.fileno())],
                pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL,
                env={"PYBAMM_DISABLE_TELEMETRY": "true"} | dict(os.environ),
            )
        self._connection = Connection(ours.detach())
        try:
            ready = self._connection.poll(self.startup_timeout) and self._connection.recv() == "ready"
        except EOFError:
            ready = False
        if not ready:
            self.stop()
            raise RuntimeError(
                f"the PyBaMM worker ({SCRIPT}) failed or took over {self.startup_timeout:g} s to start; see its stderr"
            )


WORKER = SimulationWorker()
atexit.register(WORKER.stop)
