"""Why a fit with a better bound optimises worse: the collapsed-fit check's Ackley-5 B3O-UCB-c trials (default scale:
B = 50, T = 6, N0 = 50, M = 64, 50 L-BFGS-B steps; Table 2's λ = 10; seeds 100-109, the check's own), rerun so that
the records keep each fit's outcome, with three fits:

- `default`: L-BFGS-B over the hyperparameters and q(u) on the ELBO, capped at 50 steps (the published runs' fit);
- `collapsed`: L-BFGS-B over the hyperparameters on the collapsed bound, q(u) set to its optimum (`fit: collapsed`);
- `collapsed, noise fitted`: the same, with the likelihood variance fitted too (`trainable_likelihood: true`) where
  the paper fixes it at 0.01, 50 times below the observation noise (0.5 on the standardised scale).

    python tests/benchmarks/fit_diagnosis.py --records DIR --out paper/tables/fit_diagnosis.csv

`--run DIR` reads a finished run's records instead (a results directory's `trials/`, or `b3o restore`'s), one row
group per problem, acquisition and fit: the M = 500 check's, whether its fits run away as the M = 64 ones did,

    python tests/benchmarks/fit_diagnosis.py --run RUNS/collapsed_fit_m500/trials \
        --configfile config/collapsed_fit_m500.yaml --out paper/collapsed_fit_m500/tables/fit_diagnosis.csv

(`--configfile`: only that config's trials, as a results directory `b3o restore` filled holds every archived record.)

One row per fit, seed and iteration: the fitted hyperparameters, the steps L-BFGS-B took, the spread of α and the
Boltzmann density's effective sample size and batch diversity, and the regret. `--summary` (default: beside `--out`,
`_summary` added) has one row per fit. Trials run pinned, as the workflow's do; a finished record is reused.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bench.numerics import pin_process

pin_process([])  # before NumPy loads: the trials' numerical platform

import numpy as np
import pandas as pd
import yaml
from scipy import stats

from bench.grid import trial_grid
from bench.paper import table_2_lam
from bench.records import load_record
from bench.runner import run_trial

SEEDS = range(100, 110)
MODEL = {"kind": "svgp", "num_inducing": 64, "likelihood_variance": 0.01, "maxiter": 50}
FITS = {
    "default": MODEL,
    "collapsed": {**MODEL, "fit": "collapsed"},
    "collapsed, noise fitted": {**MODEL, "fit": "collapsed", "trainable_likelihood": True},
}
TRIAL = {
    "problem": "ackley5",
    "batch_size": 50,
    "iterations": 6,
    "n_init": 50,
    "problem_options": {},
    "method": "b3o",
    "params": {"acquisition": "ucb", "temperature": "constant", "sampler": "defer"},
}
TRIAL["params"]["lam"] = table_2_lam(TRIAL["problem"], TRIAL["params"])


def rows(fit: str, seed: int, record: dict, **setting: str) -> list[dict]:
    out = []
    for step in record["trace"][1:]:
        outcome, density = step["fit"], step["diagnostics"]
        lengthscales = np.asarray(outcome["lengthscales"])
        out.append(
            {
                **setting,
                "fit": fit,
                "seed": seed,
                "iteration": step["iteration"],
                "num_evals": step["num_evals"],
                "min_lengthscale": lengthscales.min(),
                "mean_log_lengthscale": float(np.mean(np.log(lengthscales))),
                "kernel_variance": outcome["kernel_variance"],
                "likelihood_variance": outcome["likelihood_variance"],
                "loss_per_point": outcome["loss"] / step["num_evals"],
                "steps": outcome["steps"],
                "converged": not outcome["stopped"].startswith("STOP: TOTAL NO. OF ITERATIONS"),
                "alpha_p10_p90": density["alpha_p10_p90"],
                "ess_fraction": density["ess_fraction"],
                "relative_diversity": density["relative_diversity"],
                "simple_regret": step["simple_regret"],
                "recommended_regret": step["recommended_regret"],
                "fit_cpu_s": step["fit_cpu_s"],
            }
        )
    return out


#: a fit "runs away" on a seed when its kernel variance passes this at some iteration: ten times the scale of the
#: standardised observations the fits start from (every fit at t = 1 ends below 2)
RUNAWAY_VARIANCE = 10.0


def summary(table: pd.DataFrame, by: tuple[str, ...] = ("fit",)) -> pd.DataFrame:
    """Per fit (per `by`: a run's problem, acquisition and fit): the final regrets, the hyperparameters and density at
    the last iteration, how the smallest lengthscale ranks with the final regret across seeds (Spearman), and the
    seeds whose kernel variance ran away."""
    last = table[table["iteration"] == table["iteration"].max()]
    every = table.groupby(list(by), sort=False)
    out = []
    for key, group in last.groupby(list(by), sort=False):
        rho, p = stats.spearmanr(group["min_lengthscale"], group["simple_regret"])
        fits = every.get_group(key)
        runaway = fits.groupby("seed")["kernel_variance"].max() > RUNAWAY_VARIANCE
        away = group[group["seed"].isin(runaway[runaway].index)]
        out.append(
            {
                **dict(zip(by, key)),
                "seeds": len(group),
                "mean_final_regret": group["simple_regret"].mean(),
                "median_final_regret": group["simple_regret"].median(),
                "worst_final_regret": group["simple_regret"].max(),
                "median_min_lengthscale": group["min_lengthscale"].median(),
                "smallest_min_lengthscale": group["min_lengthscale"].min(),
                "median_kernel_variance": group["kernel_variance"].median(),
                "median_likelihood_variance": group["likelihood_variance"].median(),
                "median_alpha_p10_p90": group["alpha_p10_p90"].median(),
                "median_relative_diversity": group["relative_diversity"].median(),
                "fits_converged": fits["converged"].mean(),
                "spearman_min_lengthscale_regret": rho,
                "spearman_p": p,
                "max_kernel_variance": fits["kernel_variance"].max(),
                "runaway_above": RUNAWAY_VARIANCE,
                "runaway_seeds": len(away),
                "runaway_max_kernel_variance": fits.loc[fits["seed"].isin(away["seed"]), "kernel_variance"].max(),
                "runaway_max_geomean_lengthscale": np.exp(
                    fits.loc[fits["seed"].isin(away["seed"]), "mean_log_lengthscale"].max()
                ),
                "runaway_mean_final_regret": away["simple_regret"].mean(),
                "others_median_final_regret": group.loc[~group["seed"].isin(away["seed"]), "simple_regret"].median(),
                "runaway_mean_relative_diversity": fits.loc[
                    fits["seed"].isin(away["seed"]) & (fits["iteration"] > 1), "relative_diversity"
                ].mean(),
                "others_mean_relative_diversity": fits.loc[
                    ~fits["seed"].isin(away["seed"]) & (fits["iteration"] > 1), "relative_diversity"
                ].mean(),
                "fit_cpu_s_per_trial": fits["fit_cpu_s"].sum() / len(group),
            }
        )
    return pd.DataFrame(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--records", type=Path, help="directory for the trials' records (resumable)")
    source.add_argument("--run", type=Path, help="a finished run's records (JSON files) to read instead of running")
    parser.add_argument("--configfile", type=Path,
                        help="with --run: read only this config's trials (a results directory that `b3o restore` "
                             "filled holds every run's archived records)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--summary", type=Path)
    args = parser.parse_args()
    table, by = [], ("fit",)
    if args.run:
        by = ("problem", "acquisition", "fit")
        paths = sorted(args.run.glob("*.json"))
        if args.configfile:
            wanted = {row.spec.trial_id for row in trial_grid(yaml.safe_load(args.configfile.read_text()))}
            paths = [path for path in paths if path.stem in wanted]
        for path in paths:
            record, why = load_record(path)
            if record is None:
                parser.error(f"{path}: {why}")
            spec = record["spec"]
            fit = "collapsed" if spec["model"].get("fit") == "collapsed" else "default"
            table += rows(fit, spec["seed"], record, problem=spec["problem"], acquisition=spec["params"]["acquisition"])
        if not table:
            parser.error(f"no trial records in {args.run}")
    else:
        args.records.mkdir(parents=True, exist_ok=True)
        for fit, model in FITS.items():
            for seed in SEEDS:
                path = args.records / f"{fit.replace(', ', '-').replace(' ', '-')}-{seed}.json"
                table += rows(fit, seed, run_trial({**TRIAL, "seed": seed, "model": model}, path))
    frame = pd.DataFrame(table).sort_values([*by, "seed", "iteration"], kind="stable") if args.run else pd.DataFrame(table)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(args.out, index=False, float_format="%.6g")
    out = args.summary or args.out.with_name(args.out.stem + "_summary.csv")
    summary(frame, by).to_csv(out, index=False, float_format="%.4g")
    print(pd.read_csv(out).T.to_string())


if __name__ == "__main__":
    main()
