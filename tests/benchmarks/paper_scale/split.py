"""Where a paper-scale trial's wall time went, from its record (fit, acquire, density, start-up, peak memory).

The specs here are the paper config's Hartmann-6 trial (B = 100, T = 50, 100 initial points, SVGP M = 500, L-BFGS-B
capped at 500 iterations) for B3O-LogEI-c (Table 2's λ = 0.1) and TS, each also with `fit: collapsed`. Run one as

    /usr/bin/time -v b3o run-trial --spec tests/benchmarks/paper_scale/b3o-logei-c-collapsed.json --out r.json
    python tests/benchmarks/paper_scale/split.py r.json

(`/usr/bin/time` adds the process's CPU time, which shows how much of the wall time other jobs took.)
"""

from __future__ import annotations

import argparse
import json


def split(record: dict) -> dict[str, float]:
    """Seconds of the finishing process: start-up, fits, acquire (B3O: of which density), evaluate, checkpoint I/O."""
    trace = record["trace"][1:]
    diagnostics = [t.get("diagnostics") or {} for t in trace]
    return {
        "wall_s": record["wall_s"],
        "startup_s": record["startup_s"],
        "fit_s": sum(t["fit_s"] for t in trace),
        "largest_fit_s": max(t["fit_s"] for t in trace),
        "acquire_s": sum(t["acquire_s"] for t in trace),
        "density_s": sum(d.get("density_seconds") or 0.0 for d in diagnostics),
        "evaluate_s": sum(t["evaluate_s"] for t in trace),
        "io_s": sum(t.get("io_s") or 0.0 for t in trace),
        "peak_rss_mb": max(t["peak_rss_mb"] for t in record["trace"]),
        "simple_regret": record["trace"][-1]["simple_regret"],
    }


def main() -> None:
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("records", nargs="+", help="trial records (JSON)")
    for path in cli.parse_args().records:
        with open(path) as handle:
            record = json.load(handle)
        print(path, {k: round(v, 4 if k == "simple_regret" else 1) for k, v in split(record).items()})


if __name__ == "__main__":
    main()
