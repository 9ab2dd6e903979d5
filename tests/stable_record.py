"""What two runs of one trial spec share: the record without wall times, memory and provenance."""

from __future__ import annotations

from typing import Any

from baselines.records import TIMING_KEYS


def stable(record: dict[str, Any]) -> dict[str, Any]:
    """Spec, id, problem and trace; trace rows without `TIMING_KEYS` and their diagnostics without "*seconds*"."""
    trace = []
    for row in record["trace"]:
        row = {k: v for k, v in row.items() if k not in TIMING_KEYS}
        if "diagnostics" in row:
            row["diagnostics"] = {k: v for k, v in row["diagnostics"].items() if "seconds" not in k}
        trace.append(row)
    return {"spec": record["spec"], "trial_id": record["trial_id"], "problem": record["problem"], "trace": trace}
