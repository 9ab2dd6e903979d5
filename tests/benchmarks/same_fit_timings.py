"""How long the same computation took in different published experiments: the first SVGP fit of a trial (t = 1) on
the initial design, which is identical across experiments that share the problem, N₀, M and the L-BFGS steps
(the batch size enters only from t = 2). Its spread across experiments is the machine's load when each ran, not the
cost model's form, so it bounds what `b3o estimate` can promise per experiment (docs/performance.md).

    python tests/benchmarks/same_fit_timings.py --results RESULTS --per-trial paper/extended/tables/per_trial.csv \
        --out paper/tables/same_fit_timings.csv
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pandas as pd

#: what makes two trials' first fits the same computation
SAME = ["problem", "n_init", "num_inducing", "maxiter"]


def first_fits(results: Path, per_trial: pd.DataFrame) -> pd.DataFrame:
    """One row per model-based trial: its experiment, what its first fit computes, and that fit's seconds."""
    rows = []
    for trial in per_trial.drop_duplicates(["experiment", "trial_id"]).itertuples():
        record = json.loads((results / "trials" / f"{trial.trial_id}.json").read_text())
        model, steps = record["spec"].get("model") or {}, record["trace"][1:]
        if not steps or not (steps[0].get("fit_s") or 0.0) > 1e-3:  # random search, NSGA-II: no model
            continue
        rows.append(
            {
                "experiment": trial.experiment,
                "problem": trial.problem,
                "n_init": record["spec"]["n_init"],
                "num_inducing": model.get("num_inducing", 500),
                "maxiter": model.get("maxiter", 500),
                "fit_s": steps[0]["fit_s"],
            }
        )
    return pd.DataFrame(rows)


def table(fits: pd.DataFrame) -> pd.DataFrame:
    """Per computation and experiment: trials and the first fit's median, 10th and 90th percentile seconds, and the
    median relative to the fastest experiment's median for the same computation."""
    out = fits.groupby([*SAME, "experiment"])["fit_s"].agg(
        trials="size", median_s="median", p10_s=lambda s: s.quantile(0.1), p90_s=lambda s: s.quantile(0.9)
    ).reset_index()
    out["vs_fastest"] = out["median_s"] / out.groupby(SAME)["median_s"].transform("min")
    shared = out.groupby(SAME)["experiment"].transform("size") > 1  # a computation one experiment alone made says nothing
    return out[shared].reset_index(drop=True)


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("--results", required=True, help="the results directory holding the trials' records")
    cli.add_argument("--per-trial", nargs="+", required=True, help="published per-trial tables naming the trials")
    cli.add_argument("--out", required=True)
    args = cli.parse_args(argv)
    per_trial = pd.concat([pd.read_csv(path) for path in args.per_trial], ignore_index=True)
    out = table(first_fits(Path(args.results), per_trial))
    out.to_csv(args.out, index=False)
    print(out.to_string(index=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
