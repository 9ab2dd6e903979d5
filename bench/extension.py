"""Continue a finished trial to a longer horizon instead of rerunning its first iterations.

Every random draw of a trial is derived from (seed, purpose, t), never from its number of iterations T, and a
checkpoint (trace and model variables after iteration t) resumes a trial exactly. So a finished trial's last
checkpoint is kept, as its *final state*, under the results directory; a later spec that differs from it only in
`iterations` (more of them) starts from that state, and its first T iterations are the shorter trial's, bit for bit
(`tests/test_extension.py`). A state is used only on the numerical platform that wrote it: elsewhere the longer trial
would mix two platforms' numbers. A method whose draws depend on T (`Method.horizon_free` False) is never continued.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import numpy as np

from bench.records import read_checkpoint, save_checkpoint
from bench.spec import TrialSpec

#: the final states' directory, beside the records (hidden: no workflow output)
STATES = ".states"


def lineage(spec: TrialSpec) -> str:
    """What a trial shares with its continuations: the hash of its spec without `iterations`."""
    settings = {k: v for k, v in spec.to_dict().items() if k != "iterations"}
    return hashlib.sha256(
        json.dumps(settings, sort_keys=True, separators=(",", ":"), default=str).encode()
    ).hexdigest()[:16]


def state_path(out: Path, spec: TrialSpec, platform: str) -> Path:
    return out.parent / STATES / f"{lineage(spec)}.T{spec.iterations}.{platform}.npz"


def keep_final_state(checkpoint: Path, out: Path, spec: TrialSpec, platform: str) -> None:
    """Move a finished trial's last checkpoint to where a longer trial of its lineage finds it."""
    if checkpoint.exists():
        target = state_path(out, spec, platform)
        target.parent.mkdir(parents=True, exist_ok=True)
        checkpoint.replace(target)


def continue_from_longest(checkpoint: Path, out: Path, spec: TrialSpec, platform: str) -> dict[str, object] | None:
    """Write `checkpoint` for `spec` from the longest kept final state of its lineage with fewer iterations on this
    platform; return that trial's iterations and id (the record's `continued_from`), or None if there is none (or
    it cannot be trusted)."""
    pattern = re.compile(rf"{lineage(spec)}\.T(\d+)\.{re.escape(platform)}\.npz")
    found = sorted(
        (int(m.group(1)), path)
        for path in (out.parent / STATES).glob(f"{lineage(spec)}.T*.npz")
        if (m := pattern.fullmatch(path.name)) and int(m.group(1)) < spec.iterations
    )
    for iterations, path in reversed(found):
        shorter = TrialSpec.from_dict({**spec.to_dict(), "iterations": iterations})
        loaded = read_checkpoint(path, shorter.trial_id, iterations)  # a damaged one is moved aside
        if loaded is not None and len(loaded.trace) == iterations + 1:
            model_vars = {k: np.asarray(v) for k, v in loaded.model_vars.items()}
            save_checkpoint(checkpoint, spec.trial_id, loaded.trace, model_vars, loaded.segments)
            return {"iterations": iterations, "trial_id": shorter.trial_id}
    return None
