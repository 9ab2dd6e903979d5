"""What the pinned numerical platform costs in speed: default-config trials run by `b3o run-trial` with the pin
(OpenBLAS's Haswell kernels, one thread) and with `B3O_NUMERICS=native` (this CPU's own kernels, one thread as the
workflow gives each trial), alternating, in fresh processes, one at a time. Writes one row per run (the record's wall
time and its fit and acquire seconds) and prints the median ratio per trial.

    python tests/benchmarks/pinning_cost.py --out paper/tables/pinning_cost.csv
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
from pathlib import Path

import pandas as pd
import yaml

from bench.grid import trial_grid

ROOT = Path(__file__).resolve().parents[2]
#: (experiment, label, problem, seed): a B3O trial with DEFER, one with the importance step, and TS
TRIALS = (
    ("synthetic_b100", "B3O-LogEI-c", "hartmann6", 0),
    ("sampler_ablation", "B3O-UCB-c-defer-is", "ackley5", 0),
    ("synthetic_b100", "TS", "ackley5", 0),
)
SETTINGS = {"pinned": {}, "native": {"B3O_NUMERICS": "native", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}}


def _specs(config: Path) -> dict[tuple, dict]:
    rows = trial_grid(yaml.safe_load(config.read_text()))
    return {(r.experiment, r.label, r.spec.problem, r.spec.seed): r.spec.to_dict() for r in rows}


def _run(spec: dict, setting: str) -> dict:
    """One fresh run (a new directory: a kept finished copy would be returned without running)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENBLAS_", "OMP_", "B3O_"))}
    with tempfile.TemporaryDirectory() as work:
        out = Path(work) / "record.json"
        subprocess.run(["b3o", "run-trial", "--spec", json.dumps(spec), "--out", str(out)],
                       env={**env, "TF_CPP_MIN_LOG_LEVEL": "3", **SETTINGS[setting]}, check=True, capture_output=True)
        record = json.loads(out.read_text())
    return {
        "wall_s": record["wall_s"],
        "fit_s": sum(r["fit_s"] for r in record["trace"]),
        "acquire_s": sum(r["acquire_s"] for r in record["trace"]),
        "kernels": ";".join(sorted({lib["architecture"] for lib in record["provenance"]["numerics"]["blas"]})),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, default=ROOT / "config/config.yaml")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    specs = _specs(args.config)
    rows = []
    for key in TRIALS:
        for repeat in range(args.repeats):
            for setting in SETTINGS if repeat % 2 == 0 else reversed(list(SETTINGS)):
                rows.append({"trial": "/".join(map(str, key)), "setting": setting, "repeat": repeat,
                             **_run(specs[key], setting)})
                print(rows[-1], flush=True)
    table = pd.DataFrame(rows)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(args.out, index=False)
    medians = table.pivot_table(index="trial", columns="setting", values="wall_s", aggfunc="median")
    print((medians.assign(ratio=medians["pinned"] / medians["native"])).round(3).to_string())


if __name__ == "__main__":
    main()
