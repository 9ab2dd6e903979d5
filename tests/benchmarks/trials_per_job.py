"""What running several trials per process saves: the same trials of the default config, one process per trial
(`b3o run-trial`, as with `trials_per_job: 1`) against processes of five (`b3o run-trials`, the default config's
`trials_per_job: 5`), the two modes side by side on one core each. Prints each mode's wall time and the sum of its
records' start-up seconds, and checks that both give the same records apart from timings.

    python tests/benchmarks/trials_per_job.py --label B3O-LogEI-c --problem hartmann6 --out /tmp/trials_per_job
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import threading
import time
from pathlib import Path

import yaml

from bench.grid import trial_grid
from bench.records import stable

ROOT = Path(__file__).resolve().parents[2]

ENV = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"}  # `b3o` pins its threads (bench.numerics)


def commands(trials: list[dict], per_process: int) -> list[list[str]]:
    if per_process == 1:
        return [["b3o", "run-trial", "--spec", json.dumps(t["spec"]), "--out", t["out"]] for t in trials]
    chunks = [trials[i : i + per_process] for i in range(0, len(trials), per_process)]
    return [["b3o", "run-trials", "--trials", json.dumps(chunk)] for chunk in chunks]


def run_in_turn(cmds: list[list[str]], log: Path) -> threading.Thread:
    """The commands one after another in a thread, each its own process, so the two modes run side by side (a shell
    `a && b` would exec its last command in the shell's process, whose age then includes the others)."""

    def run() -> None:
        with log.open("w") as handle:
            for cmd in cmds:
                subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=handle, env=ENV, check=True)

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def main() -> None:
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("--config", default=str(ROOT / "config/config.yaml"))
    cli.add_argument("--experiment", default="synthetic_b100")
    cli.add_argument("--label", default="B3O-LogEI-c")
    cli.add_argument("--problem", default="hartmann6")
    cli.add_argument("--per-process", type=int, default=5)
    cli.add_argument("--out", required=True, help="a new directory for the two modes' records")
    args = cli.parse_args()
    rows = [
        row for row in trial_grid(yaml.safe_load(Path(args.config).read_text()))
        if (row.experiment, row.label, row.spec.problem) == (args.experiment, args.label, args.problem)
    ]
    out = Path(args.out)
    started, processes = {}, {}
    for mode, per_process in (("one", 1), ("several", args.per_process)):
        (out / mode).mkdir(parents=True)
        trials = [{"spec": r.spec.to_dict(), "out": str(out / mode / f"{r.spec.trial_id}.json")} for r in rows]
        started[mode] = time.perf_counter()
        processes[mode] = run_in_turn(commands(trials, per_process), out / f"{mode}.log")
    wall = {}
    while len(wall) < len(processes):
        for mode, thread in processes.items():
            if mode not in wall and not thread.is_alive():
                wall[mode] = time.perf_counter() - started[mode]
        time.sleep(0.2)
    for mode in processes:
        records = [json.loads(p.read_text()) for p in sorted((out / mode).glob("*.json"))]
        print(f"{mode} trial(s) per process: {len(records)} trials, wall {wall[mode]:.1f} s, "
              f"start-up {sum(r['startup_s'] for r in records):.1f} s in all")
    same = all(
        stable(json.loads(p.read_text())) == stable(json.loads((out / "several" / p.name).read_text()))
        for p in (out / "one").glob("*.json")
    )
    print("records identical apart from timings:", same)


if __name__ == "__main__":
    main()
