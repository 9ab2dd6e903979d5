"""B3O against TS seed by seed, on the log scale, at the paper's horizon: a check of ours beside claims 1 and 7.

Claims 1 and 7 read B3O against TS as the paper states them, by the mean final regret, paired by seed. At T = 50 a
final regret ranges over orders of magnitude from seed to seed, so one seed left in a local optimum can decide that
mean. This check reads the typical seed instead. Its rule was written down on 2026-11-29, after look 1 of
config/large_batch.yaml (seeds 300-309) was published and before any record of look 2 (seeds 310-319) was looked at:

- seeds 310-319 only (look 2's; look 1's prompted the check, so they do not judge it), experiment synthetic_b100,
  Ackley-5 and Hartmann-6, each of B3O-LogEI-c and B3O-UCB-c against TS, at their final budget (t = 50), on the
  seeds that have both trials;
- per seed, r = log(TS's final simple regret / the B3O variant's), positive where B3O ends lower;
- the verdict engine's paired two-sided sign-flip test of the mean of r against 0 (`analysis.statistics.verdicts`),
  Holm over the four comparisons at α = 0.05, without a margin: "holds" where B3O's geometric-mean final regret is
  shown below TS's, "does not hold" where it is shown above, else inconclusive;
- reported with the geometric-mean ratio TS / B3O, exp(mean r), and its interval.

    python -m analysis.tables.typical_ratio --table paper/large_batch/tables/per_trial.csv \
        --out paper/large_batch/tables/typical_ratio

Its replication (`--check look3`), written down on 2026-11-29 after look 2 was published (and the check above judged
on it: one of four comparisons decided, Ackley-5 B3O-UCB-c typically above TS; Hartmann-6 B3O-UCB-c at p_Holm 0.066)
and before any record of look 3 (seeds 320-329) was looked at: the same four comparisons, statistic, test and Holm
family, on look 3's seeds 320-329 alone, a family of its own; reported beside the first, neither pooled with it nor
replacing it. The first check's seeds and all earlier ones do not enter it.

    python -m analysis.tables.typical_ratio --check look3 --table paper/large_batch/tables/per_trial.csv \
        --out paper/large_batch/tables/typical_ratio_look3

Writes OUT.csv (and OUT.tex): a row per comparison.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from analysis.naming import problem_title
from analysis.statistics import verdicts
from analysis.tables import common

EXPERIMENT, PROBLEMS, RIVAL = "synthetic_b100", ("ackley5", "hartmann6"), "TS"
VARIANTS = ("B3O-LogEI-c", "B3O-UCB-c")
#: each check's seeds of config/large_batch.yaml, the only ones that judge it: look 2's, and look 3's for its replication
CHECKS = {"look2": range(310, 320), "look3": range(320, 330)}
SEEDS = CHECKS["look2"]


def log_ratios(per_trial: pd.DataFrame, seeds: range = SEEDS) -> pd.DataFrame:
    """(problem, seed) -> log(TS's final regret / each variant's), on the check's seeds; NaN where a trial is absent."""
    final = per_trial[
        (per_trial["experiment"] == EXPERIMENT) & per_trial["problem"].isin(PROBLEMS)
        & per_trial["seed"].isin(seeds) & (per_trial["budget"] == per_trial["final_budget"])
        & (per_trial["metric"] == "simple_regret")
    ]
    wide = final.pivot_table(index=["problem", "seed"], columns="label", values="value", aggfunc="first")
    wide = wide.reindex(columns=[*VARIANTS, RIVAL])
    return pd.DataFrame({v: np.log(wide[RIVAL] / wide[v]) for v in VARIANTS})


def check(ratios: pd.DataFrame) -> pd.DataFrame:
    """The four comparisons, decided together (Holm), with the geometric-mean ratio and its interval."""
    units = [(p, v) for p in PROBLEMS for v in VARIANTS if p in ratios.index.get_level_values("problem")]
    family = [verdicts.paired(v, RIVAL, p, ratios.loc[p, v].dropna().to_numpy()) for p, v in units]
    return pd.DataFrame(
        [
            {"problem": c.unit, "left": c.left, "right": c.right, "n": c.n, "mean_log_ratio": c.mean,
             "lo": c.lo, "hi": c.hi, "ratio": math.exp(c.mean), "ratio_lo": math.exp(c.lo),
             "ratio_hi": math.exp(c.hi), "p_holm": c.p_holm, "verdict": c.verdict}
            for c in verdicts.decide(family)
        ]
    )


def main(argv: list[str] | None = None) -> int:
    cli = common.parser("typical_ratio", __doc__.splitlines()[0])
    cli.add_argument("--check", choices=list(CHECKS), default="look2",
                     help="which check: look 2's seeds (the first), or look 3's (its replication)")
    args = cli.parse_args(argv)
    seeds = CHECKS[args.check]
    ratios = log_ratios(pd.read_csv(args.table), seeds)
    if ratios.dropna(how="all").empty:
        common.write_empty(args.out, f"No trial of seeds {seeds.start}-{seeds.stop - 1} in {args.table}.")
        return 0
    table = check(ratios)
    text = pd.DataFrame(
        {
            "problem": table["problem"].map(problem_title),
            "comparison": table["left"] + " vs " + table["right"],
            "seeds": table["n"],
            "TS / B3O, geometric mean": [common.with_ci(r.ratio, r.ratio_lo, r.ratio_hi) for r in table.itertuples()],
            "p (Holm)": [f"{p:.3g}" for p in table["p_holm"]],
            "verdict": table["verdict"],
        }
    )
    common.write(args.out, table, common.latex(text))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
