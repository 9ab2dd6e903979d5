"""Group-sequential decisions: α spent over planned looks at growing numbers of seeds.

    python -m analysis.statistics.sequential --looks 10,15,20 [--spending pocock] [--family 4]   # each look's nominal level

Adding seeds to a comparison after looking at it and testing again at α each time inflates the false-decision
rate. Planned looks at n_1 < n_2 < … < n_K seeds (`looks`: an experiment's `seeds: {start, step, max}`) instead
spend α over the looks with the Lan–DeMets spending function of O'Brien–Fleming type,

    α(t) = 2 − 2 Φ(z_(1−α/2) / √t),   t = n_k / n_K (the share of the planned seeds seen),

so that almost nothing is spent at the first looks and nearly the full α is left for the last. The two-sided
boundary c_k on the standardised statistic at look k is the one whose crossing probability under the null, given no
earlier crossing, is α(t_k) − α(t_(k−1)); it is computed by the recursive numerical integration of Armitage,
McPherson and Rowe (1969) for a statistic with independent increments (`boundaries`). A comparison is decided at the
first look at which its two-sided p (`analysis.statistics.verdicts`, on the seeds seen so far) is below that look's
nominal level 2(1 − Φ(c_k)) (`nominal`); if no look decides it, it stays undecided at n_K seeds. The size of this plan
with the engine's test is checked by simulation in `tests/test_sequential.py`.

The claims engine applies the plan (`analysis.claims.checking`, Holm's step-down across the looks) and the
workflow adds seeds only where a comparison is still open (`analysis.claims.looks`, a checkpoint per look).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import optimize, stats

from analysis.statistics.verdicts import ALPHA, p_floor
from bench.grid import planned_looks as looks  # noqa: F401 (the planned seed counts, owned by the grid)

#: grid points per unit of the score scale in the numerical integration
GRID_DENSITY = 40


#: the Lan–DeMets spending functions: O'Brien–Fleming type (almost nothing early) and Pocock type (about evenly)
SPENDING = ("obrien-fleming", "pocock")
#: the spending the claims engine applies to planned looks (`analysis.claims.checking`, `analysis.claims.plans`)
CLAIMS_SPENDING = "pocock"


@dataclass(frozen=True)
class Horizon:
    """Which experiment is read along its horizon, at which iterations its comparisons are decided, and the seed
    plan they are decided over (planned looks and their α spending). Owned here, below the horizon table
    (`analysis.tables.horizon`) and the verdicts along it (`analysis.claims.verdicts_along`), which both read it."""

    experiment: str = "horizon"
    checkpoints: tuple[int, ...] = (6, 12, 25)
    looks: tuple[int, ...] = (10, 15)
    spending: str = "obrien-fleming"


#: the `horizon` run's plan, written down before it (config/extended.yaml)
HORIZON = Horizon()


def spent(t: np.ndarray | float, alpha: float = ALPHA, spending: str = "obrien-fleming") -> np.ndarray:
    """α spent by information fraction t; 0 at t = 0, α at t = 1. O'Brien–Fleming type: 2 − 2Φ(z_(1−α/2)/√t);
    Pocock type: α ln(1 + (e − 1) t), which leaves an exact test at a first look of few seeds a level it can reach."""
    if spending not in SPENDING:
        raise ValueError(f"spending must be one of {SPENDING}, got {spending!r}")
    t = np.asarray(t, dtype=np.float64)
    if spending == "pocock":
        return alpha * np.log1p((np.e - 1) * np.clip(t, 0.0, 1.0))
    with np.errstate(divide="ignore"):
        return np.where(t > 0, 2 - 2 * stats.norm.cdf(stats.norm.ppf(1 - alpha / 2) / np.sqrt(t)), 0.0)


def _excess(c: float, info: float, sd: float, grid: np.ndarray, mass: np.ndarray, target: float) -> float:
    """P(no earlier crossing, |S_k| ≥ c √I_k) − target, from the previous look's sub-density (times its weights)."""
    edge = c * np.sqrt(info)
    tails = stats.norm.cdf((-edge - grid) / sd) + stats.norm.sf((edge - grid) / sd)
    return float(np.sum(mass * tails)) - target


def boundaries(seeds: Sequence[int], alpha: float = ALPHA, spending: str = "obrien-fleming") -> np.ndarray:
    """Two-sided critical values c_k of the standardised statistic Z_k at each planned look (see module docstring)."""
    info = np.asarray(seeds, dtype=np.float64)
    if np.any(np.diff(info) <= 0):
        raise ValueError(f"looks must grow: {list(seeds)}")
    budget = np.diff(np.concatenate([[0.0], spent(info / info[-1], alpha, spending)]))
    out = []
    grid = weights = density = None  # the sub-density of the score S_k = Z_k √I_k on the continuation region
    previous = 0.0
    for k, (i, a) in enumerate(zip(info, budget)):
        if k == 0:
            c = stats.norm.isf(a / 2)
        else:
            sd = np.sqrt(i - previous)
            args = (i, sd, grid, weights * density, a)
            bracketed = _excess(0.0, *args) > 0 > _excess(40.0, *args)
            c = optimize.brentq(_excess, 0.0, 40.0, args=args, xtol=1e-10) if bracketed else np.inf
        out.append(c)
        # the continuation region's grid and sub-density for the next look (Simpson weights)
        edge = min(c, 12.0) * np.sqrt(i)
        points = 2 * int(np.ceil(GRID_DENSITY * edge)) + 1
        new_grid = np.linspace(-edge, edge, points)
        new_weights = np.full(points, 2.0)
        new_weights[1::2] = 4.0
        new_weights[[0, -1]] = 1.0
        new_weights *= (new_grid[1] - new_grid[0]) / 3
        if k == 0:
            density = stats.norm.pdf(new_grid / np.sqrt(i)) / np.sqrt(i)
        else:
            kernel = stats.norm.pdf((new_grid[:, None] - grid[None, :]) / sd) / sd
            density = kernel @ (weights * density)
        grid, weights, previous = new_grid, new_weights, i
    return np.array(out)


def nominal(seeds: Sequence[int], alpha: float = ALPHA, spending: str = "obrien-fleming") -> np.ndarray:
    """The two-sided nominal p-value level of each look: a comparison is decided at look k if its p < level_k."""
    return 2 * stats.norm.sf(boundaries(seeds, alpha, spending))


def first_decision(p_by_look: np.ndarray, levels: np.ndarray) -> np.ndarray:
    """Index of the first look whose p is below its level, per row of `p_by_look` [R, K]; −1 where none is."""
    below = np.asarray(p_by_look) < np.asarray(levels)[None, :]
    return np.where(below.any(axis=1), below.argmax(axis=1), -1)


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m analysis.statistics.sequential", description="each planned look's nominal level")
    cli.add_argument("--looks", required=True, help="the planned seed counts, e.g. 10,15,20")
    cli.add_argument("--spending", choices=SPENDING, default=CLAIMS_SPENDING, help="default: the claims engine's")
    cli.add_argument(
        "--family", type=int, help="comparisons Holm adjusts over: adds the smallest p they can attain, m 2^(1-n)"
    )
    args = cli.parse_args(argv)
    try:
        seeds = [int(n) for n in args.looks.split(",")]
        levels = nominal(seeds, spending=args.spending)
        if args.family is not None and args.family < 1:
            raise ValueError(f"--family must be at least 1, got {args.family}")
    except ValueError as error:
        cli.error(str(error))
    for k, (n, level) in enumerate(zip(seeds, levels), start=1):
        line = f"look {k}: {n} seeds, nominal level {level:.4f}"
        if args.family is not None:
            attainable = args.family * p_floor(n)
            decides = "can decide" if attainable < level else "cannot decide anything"
            line += f"; Holm over {args.family} comparison(s): adjusted p ≥ {attainable:.4g}, {decides}"
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
