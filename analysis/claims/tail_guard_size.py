"""What the tail guard (`analysis.statistics.tail`) catches and what it costs, by simulation at the seeds the runs have.

Per seed, B's log regret and A's are normal of log-SD `verdict_size.POWER_SPREAD`, correlated by seed as the published
runs are (`paper/tables/seed_correlation.csv`, the median Spearman correlation), with equal geometric means: a tie on
the typical seed ("typical tie"). On top, a share of A's seeds (FAR_SHARES, 0 for the plain tie) ends FAR_FACTOR
times worse (far by the guard's measure, a ratio of 10 or more). Beside it, "means at the margin": A's other seeds
better by as much as puts the mean log ratio exactly at the margin (the case in which a rule of the typical seed
declares non-inferiority most readily while the geometric means are at the margin). Per n
in SEEDS and share, the rate at which a tie (TOST of the sign tests) and A's non-inferiority ("matches or beats") are
declared by the typical-seed rule alone and with the guard, one comparison at α (a family of one, as the smallest of
the runs' claims): at share 0 the guard's cost to a true tie, above it the far tails it catches and those it lets
through. REPLICATIONS samples per cell (Monte Carlo SE at most 0.011).

    python -m analysis.claims.tail_guard_size --out paper/tables/tail_guard_size.csv
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.claims.verdict_size import POWER_SPREAD, log_regrets, non_inferior, simulated_correlation
from analysis.data.resampling import SEED
from analysis.statistics import tail, verdicts
from problems.margins import margin

SEEDS = (10, 20, 30, 40)
FAR_SHARES = (0.0, 0.05, 0.1, 0.2)
FAR_FACTOR = 1000.0
REPLICATIONS = 2000
CORRELATION_TABLE = Path("paper/tables/seed_correlation.csv")
COLUMNS = ["case", "verdict", "n", "far_share", "correlation", "replications", "rule_alone", "with_guard", "mc_se"]
CASES = ("typical tie", "means at the margin")


def observed_correlation(path: Path = CORRELATION_TABLE) -> float:
    """The published runs' median Spearman correlation of paired final regrets, as the size simulation gives it
    (`analysis.claims.verdict_size.simulated_correlation`: one value on every page that names it)."""
    return simulated_correlation(pd.read_csv(path))


def simulate(correlation: float, replications: int = REPLICATIONS, seeds: tuple = SEEDS,
             shares: tuple = FAR_SHARES) -> pd.DataFrame:
    rng = np.random.default_rng(SEED + 3)
    ratio = margin("any", "simple_regret")
    rows = []
    cells = [(case, n, share) for case in CASES for n in seeds for share in shares if case == CASES[0] or share > 0]
    for case, n, share in cells:
        log_a, log_b = log_regrets("normal", (POWER_SPREAD, POWER_SPREAD), n, replications, rng, correlation)
        far = rng.random(log_a.shape) < share
        # the other seeds' shift that puts the mean log ratio at log ρ: (1 − share)·shift + share·log F = log ρ
        shift = (np.log(ratio.value) - share * np.log(FAR_FACTOR)) / (1 - share) if case == CASES[1] else 0.0
        log_a = log_a + np.where(far, np.log(FAR_FACTOR), shift)
        sides = ratio.sides(np.exp(log_a), np.exp(log_b), lower_is_better=True)
        worse, better = tail.beyond(sides, ratio.far_below(tail.far_factor()))
        decided = {
            "tie": verdicts.equivalence(*sides) < verdicts.ALPHA,
            "matches or beats": non_inferior(sides[0]),
        }
        guards = {"tie": tail.excess_p(worse, better, True), "matches or beats": tail.excess_p(worse, better, False)}
        for verdict, alone in decided.items():
            guarded = alone & ~tail.withheld(guards[verdict])
            rate = float(np.mean(guarded))
            rows.append(dict(zip(COLUMNS, (
                case, verdict, n, share, correlation, replications, float(np.mean(alone)), rate,
                float(np.sqrt(max(rate * (1 - rate), 1e-12) / replications)),
            ))))
    return pd.DataFrame(rows, columns=COLUMNS)


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m analysis.claims.tail_guard_size", description=__doc__.splitlines()[0])
    cli.add_argument("--out", required=True, help="CSV to write (one row per verdict, n and far share)")
    cli.add_argument("--replications", type=int, default=REPLICATIONS)
    args = cli.parse_args(argv)
    frame = simulate(observed_correlation(), args.replications)
    frame.to_csv(args.out, index=False)
    print(frame.to_string(index=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
