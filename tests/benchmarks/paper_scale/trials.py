"""Paper-scale B3O trials, measured, against the cost model; and what config/paper.yaml's grid costs with each fit.

The trials are the paper config's setting (B = 100, T = 50, 100 initial points, so N up to 5,100; SVGP M = 500,
L-BFGS-B capped at 500 steps; DEFER; Table 2's λ; one thread), run one after another on one core as

    /usr/bin/time -v b3o run-trial --spec tests/benchmarks/paper_scale/SPEC.json --out SPEC.record.json

and committed beside its spec. The cost model's collapsed fit is fitted to two of them (`b3o cost-model --extend
paper/tables/cost_model.csv --also ...`, named here with `--fitted`) and checked on the others, which it never saw
(`--holdout`); the trial with the default fit (b3o-logei-c) checks the default fit's terms at M = 500, which come
from one machine's whole trials (tests/benchmarks/cost_one_machine.py, where this trial is held out):

    P=tests/benchmarks/paper_scale
    python $P/trials.py $P/*collapsed*.record.json $P/b3o-logei-c.record.json \\
        --fitted $P/b3o-logei-c-collapsed.record.json $P/b3o-ucb-c-collapsed-ackley5.record.json \\
        --out paper/tables/paper_scale_trials.csv --grid-out paper/tables/paper_grid_estimate.csv

One row per trial: the CPU it ran on, its CPU minutes (the process's CPU seconds: another job on the machine inflates them far less
than wall seconds, as it shares the core's caches, not its time) in all and in the fits, the model's prediction and its
error, the fits' L-BFGS-B steps and how many stopped by converging, the final regret and the peak memory. The grid table
has one row per fit: config/paper.yaml with every SVGP fitted that way (`b3o estimate --fit FIT`), and whether the config
fits its SVGPs that way.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from analysis.naming import FITS as FIT_NAMES
from bench.cost import CostModel, measured_seconds
from bench.estimate import COST_MODEL, DEFAULT_LIMIT_MIN, estimate_table, trial_costs
from bench.grid import trial_grid
from bench.model_spec import FITS, svgp_fit

PAPER_CONFIG = Path("config/paper.yaml")


def trial_row(record: dict, model: CostModel, fitted: bool) -> dict:
    """What one measured trial cost, what the model predicts for it, and how its fits went."""
    spec, trace = record["spec"], record["trace"][1:]
    outcomes = [step.get("fit") or {} for step in trace]
    measured, predicted = measured_seconds(record, "cpu"), model.predict(spec)
    params = spec.get("params") or {}
    return {
        "problem": spec["problem"],
        "method": spec["method"],
        "acquisition": params.get("acquisition"),
        "temperature": params.get("temperature"),
        "lam": params.get("lam"),
        "seed": spec["seed"],
        "fit": svgp_fit(spec.get("model")),  # analysis.naming.FITS's key
        "cpu": record["provenance"]["numerics"]["cpu"]["model"],  # CPU minutes are one machine's
        "sample": "fitted" if fitted else "held out",
        "wall_parts": "; ".join(sorted(set(model.needs(spec)) & set(model.wall_fitted))),  # upper bounds in it
        "cpu_min": measured / 60,
        "fit_cpu_min": sum(step["fit_cpu_s"] for step in trace) / 60,
        "predicted_min": np.nan if predicted is None else predicted.total / 60,
        "error": np.nan if predicted is None else predicted.total / measured - 1,
        "median_steps": float(np.median([o.get("steps", np.nan) for o in outcomes])),
        "converged": sum("CONVERGENCE" in str(o.get("stopped", "")) for o in outcomes),
        "fits": len(trace),
        "final_regret": trace[-1]["simple_regret"],
        "peak_rss_mb": max(step.get("peak_rss_mb") or 0.0 for step in record["trace"]),
    }


def grid_rows(config: dict, model: CostModel) -> pd.DataFrame:
    """The whole grid's predicted core-hours and longest trial with every SVGP fitted each way, and how many of the
    config's SVGPs it fits that way ("all", "some", "none")."""
    grid, limit = trial_grid(config), config.get("slot_minutes", DEFAULT_LIMIT_MIN)
    fits = [fit for row in grid if (fit := svgp_fit(row.spec.model)) is not None]
    rows = []
    for fit in FITS:
        per, _ = estimate_table(trial_costs(grid, model, fit), limit)
        total = per.set_index("experiment").loc["all (each trial once)"]
        used = fits.count(fit)
        rows.append({"fit": FIT_NAMES[fit], "configured": "all" if used == len(fits) else "some" if used else "none",
                     "trials": int(total["trials"]), "core_hours": total["core_hours"],
                     "longest_min": total["longest_min"], "not_predicted": int(total["not_predicted"])})
    return pd.DataFrame(rows)


def main() -> None:
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("records", nargs="+", type=Path, help="paper-scale trial records (JSON)")
    cli.add_argument("--fitted", nargs="*", type=Path, default=[], help="those the cost model was fitted to")
    cli.add_argument("--model", type=Path, default=COST_MODEL, help="the fitted cost model (b3o cost-model)")
    cli.add_argument("--config", type=Path, default=PAPER_CONFIG, help="the grid to price (config/paper.yaml)")
    cli.add_argument("--out", type=Path, required=True, help="one row per trial (CSV)")
    cli.add_argument("--grid-out", type=Path, required=True, help="the grid's cost with each fit (CSV)")
    args = cli.parse_args()
    model = CostModel.read(args.model)
    fitted = {path.resolve() for path in args.fitted}
    trials = pd.DataFrame(
        [trial_row(json.loads(path.read_text()), model, path.resolve() in fitted) for path in sorted(args.records)]
    )
    grid = grid_rows(yaml.safe_load(args.config.read_text()), model)
    for frame, out in ((trials, args.out), (grid, args.grid_out)):
        out.parent.mkdir(parents=True, exist_ok=True)
        frame.to_csv(out, index=False)
    print(trials.to_string(index=False, float_format=lambda v: f"{v:,.3g}"))
    print(grid.to_string(index=False, float_format=lambda v: f"{v:,.4g}"))


if __name__ == "__main__":
    main()
