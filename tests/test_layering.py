"""`b3o/` is a library: importing it (and its rule, samplers, temperatures, acquisitions) never pulls in the harness."""

from __future__ import annotations

import subprocess
import sys


def test_the_method_library_imports_nothing_from_the_harness() -> None:
    code = (
        "import sys\n"
        "import b3o\n"
        "from b3o import BoltzmannBatch, Constant, Normalised, Scheduled, acquisitions, samplers, temperature\n"
        "from b3o import degeneracy, density, diversity, options, space\n"
        "print(sorted(m for m in ('baselines', 'problems', 'analysis') if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip().splitlines()[-1] == "[]"
