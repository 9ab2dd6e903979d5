"""DEFER: density function estimation by recursive partitioning (Bodin et al., ICML 2021), clean-room.

The space is normalised to the unit cube and partitioned into hyper-rectangles ("leaves"), each holding the log
density at its centre; the density is approximated as constant on each leaf, so a leaf's mass is
exp(log f(centre)) times its volume. Each iteration divides a set of leaves the DIRECT way:

* which leaves: the *potentially optimal* ones - a leaf is kept if, for some K >= 0, log mass + K * size is maximal
  over all leaves (the upper convex hull of (size, log mass), where size is the centre-to-vertex distance, as in
  DIRECT; the best leaf of each size class on the hull, ties included). Working with log mass keeps the selection
  invariant to the density's scale, so lambda * alpha of 1e4 behaves like 1. Optionally (`high_mass`) the leaves
  of largest mass are divided too, up to as many as the hull selected and only those above the average mass, so
  that the mass-carrying region is refined faster than pure exploration would.
* how: trisection along every longest side. For each such dimension j the two points c +- side/3 * e_j are
  evaluated; dimensions are then split in the order of their larger new value, so the best new points end up in the
  largest children (DIRECT's rule, with "best" meaning largest density).

Bookkeeping uses flat arrays: leaf centres, integer trisection levels per dimension (side = 3**-level), and log
density. Only leaves are stored; a divided leaf keeps its slot as the middle child. All new centres of one iteration
are evaluated in one batched call, because for an SVGP acquisition the per-call overhead dominates. Construction
stops at a budget of density evaluations. log Z is the logsumexp of leaf log masses (plus the log volume of the
space); sampling draws a leaf with probability proportional to its mass, then a point uniformly inside it.

Importance correction (`importance` = K > 0, registered as `defer-is`): the piecewise-constant density q is then
only a proposal. K * n candidates drawn from it are weighted by p / q with the true density in one batched call and
n are resampled by weight. With the default budget all K * n are drawn and the partition keeps the rest of the
budget, at least half of it; a configured budget holds both (candidates at most half of it). log Z becomes the
importance estimate.
A candidate picked again is not repeated (a repeated point is a wasted evaluation): the repeat is moved off it by
Metropolis-Hastings steps targeting p, scaled to its leaf (`distinct_picks`), so a batch is B distinct points; those
few evaluations come on top of the budget.

Random origin (`random_origin`, on in `defer-is`): the partition is built on the unit torus shifted by a uniform
offset drawn from the seed, so the grid of leaf centres falls somewhere new on every call and no mode is missed on
every seed because of where it sits. A leaf that crosses a face wraps round to the opposite one.

Linear constraints: the target is the density restricted to the feasible set, so an infeasible centre has log
density -inf (and costs no density evaluation); such leaves are still divided as exploration, so feasible parts of
them are found. Infeasible within-leaf draws are rejected, which keeps relative probabilities inside the feasible
set. Estimating the unconstrained density and rejecting afterwards would fail whenever its mass lies mostly outside
the feasible set - e.g. an acquisition that is largest in the infeasible region next to a constrained optimum.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.special import logsumexp

from b3o.density import LogDensity, safe_log_softmax
from b3o.inputs import integer
from b3o.samplers.base import Sampler, distinct_picks
from b3o.space import InfeasibleSpaceError, Layout, describe_infeasibility, fill_tagged

_LOG3 = np.log(3.0)


@dataclass(frozen=True)
class Partition:
    """The leaves of a DEFER partition, in the coordinates of the search space."""

    lower: np.ndarray  # [L, d]
    upper: np.ndarray  # [L, d]
    log_density: np.ndarray  # [L], at the leaf centres
    log_mass: np.ndarray  # [L], log density + log volume
    log_z: float  # log of the integral of the piecewise-constant density
    num_evals: int
    iterations: int
    # With a random origin (unit-cube offset) the leaves tile the space as a torus: a leaf's box may extend past the
    # upper bounds and stands for the points congruent to it modulo the space's widths.
    origin: np.ndarray | None = None

    @property
    def num_leaves(self) -> int:
        """The number of leaves (hyper-rectangles) of the partition."""
        return len(self.log_mass)


class _Tree:
    """Flat-array leaves in the unit cube.

    Because only the longest sides are ever split, a leaf's levels take at most two values, m and m + 1; the sum of
    levels therefore identifies the leaf's shape up to permutation, hence its size class (larger sum = smaller leaf)
    and its log volume (-log 3 * sum).
    """

    def __init__(self, dim: int, capacity: int):
        self.centres = np.empty((capacity, dim))
        self.levels = np.zeros((capacity, dim), dtype=np.int16)
        self.level_sum = np.zeros(capacity, dtype=np.int64)
        self.log_f = np.empty(capacity)
        self.n = 0

    def append(self, centres: np.ndarray, levels: np.ndarray, log_f: np.ndarray) -> None:
        k = len(centres)
        if self.n + k > len(self.log_f):
            grow = max(k, len(self.log_f))
            self.centres = np.concatenate([self.centres, np.empty((grow, self.centres.shape[1]))])
            self.levels = np.concatenate([self.levels, np.zeros((grow, self.levels.shape[1]), dtype=np.int16)])
            self.level_sum = np.concatenate([self.level_sum, np.zeros(grow, dtype=np.int64)])
            self.log_f = np.concatenate([self.log_f, np.empty(grow)])
        self.centres[self.n : self.n + k] = centres
        self.levels[self.n : self.n + k] = levels
        self.level_sum[self.n : self.n + k] = levels.sum(axis=1)
        self.log_f[self.n : self.n + k] = log_f
        self.n += k

    def log_mass(self) -> np.ndarray:
        return self.log_f[: self.n] - _LOG3 * self.level_sum[: self.n]


class CandidateBudgetWarning(UserWarning):
    """A configured DEFER budget too small for importance x B candidates: the batch is less close to i.i.d."""


def default_budget(dim: int) -> int:
    """DEFER's default budget in `dim` dimensions: the paper's 10^4 from d = 4 up, 10^4 * (d / 4)^3 (at least 10^3)
    below.

    A density call costs about the same for 5 points as for 500 (TensorFlow's per-call overhead), so a batch costs
    what its sequential DEFER iterations cost, and in low dimensions each iteration divides few leaves along few
    sides: at 10^4 evaluations a 2-D partition takes about 2,900 calls, where a 6-D one takes about 350
    (docs/performance.md). Shrinking the budget as (d / 4)^3 keeps the calls near the 6-D count, while a 2-D leaf at
    1,250 evaluations is still finer than a 6-D leaf at 10^4; d >= 4 (every problem of the paper) is unchanged.
    """
    return 10_000 if dim >= 4 else max(1_000, round(10_000 * (dim / 4) ** 3))


class Defer(Sampler):
    """DEFER sampler. `budget`: density evaluations in all (default `default_budget(d)`: 10^4 from d = 4 up);
    `importance`: candidates per sample of the importance-resampling step (0: plain DEFER; see `ImportanceDefer`)."""

    name = "defer"

    def __init__(
        self,
        budget: int | None = None,
        importance: int = 0,
        high_mass: bool = True,
        random_origin: bool = False,
        max_level: int = 30,
        max_rejection_rounds: int = 100,
    ):
        super().__init__()
        self.budget = None if budget is None else integer("DEFER budget", budget, 1, " (density evaluations)")
        self.importance = integer("DEFER importance", importance, 0, " (candidates per sample)")
        self.high_mass = high_mass
        self.random_origin = random_origin
        self.max_level = max_level
        self.max_rejection_rounds = max_rejection_rounds
        self.partition: Partition | None = None

    def budget_for(self, dim: int) -> int:
        """The evaluations a batch in `dim` dimensions may spend: the configured budget, else `default_budget`."""
        return default_budget(dim) if self.budget is None else self.budget

    def num_candidates(self, num_samples: int, dim: int) -> int:
        """Importance candidates for a batch: K per sample. With the default budget that is all of them, on top of
        half the budget at least for the partition, so a large batch keeps i.i.d. draws: a cap on the candidates
        lowers the importance ESS and leaves more repeated picks to be moved (tests/test_large_batch_draws.py). A
        budget the user set is kept: the candidates are then at most half of it, and a `CandidateBudgetWarning` says
        so."""
        if not self.importance:
            return 0
        wanted = self.importance * num_samples
        if self.budget is None:
            return wanted
        if wanted > self.budget // 2:
            warnings.warn(
                f"{self.name}: budget = {self.budget} allows {self.budget // 2} importance candidates, fewer than "
                f"importance x B = {wanted}; the batch then leans on moved repeats. Raise budget to {2 * wanted} "
                "(or leave it unset: the default grows with B)",
                CandidateBudgetWarning,
                stacklevel=4,
            )
        return min(wanted, self.budget // 2)

    def partition_budget(self, num_candidates: int, dim: int) -> int:
        """What the partition may spend beside `num_candidates` candidates: the rest of the budget, and at least half
        of the default budget when the budget is the default."""
        if self.budget is None:
            return max(default_budget(dim) - num_candidates, default_budget(dim) // 2)
        return self.budget - num_candidates

    def build(
        self, density: LogDensity, lay: Layout, budget: int | None = None, origin: np.ndarray | None = None
    ) -> tuple[_Tree, int, int]:
        """Grow the partition until `budget` (default: all of it) evaluations are spent; (tree, evals, iterations).
        `origin`: the partition's offset on the unit torus (see `_to_space`); None is DEFER's fixed grid."""
        budget = self.budget_for(lay.dim) if budget is None else budget
        d = lay.dim

        def restricted(u: np.ndarray) -> np.ndarray:
            """The log density at unit-cube points u, -inf where infeasible (not evaluated there)."""
            return _restricted(density, lay, _to_space(lay, u, origin))

        tree = _Tree(d, capacity=budget + 2 * d + 1)
        centre = np.full((1, d), 0.5)
        tree.append(centre, np.zeros((1, d), dtype=np.int16), restricted(centre))
        evals, iterations = 1, 0
        while evals + 2 <= budget:
            chosen = self._select(tree)
            if len(chosen) == 0:
                break
            levels = tree.levels[chosen]
            min_level = levels.min(axis=1)
            split = levels == min_level[:, None]  # [S, d] the longest sides of each chosen leaf
            # Respect the budget: keep the chosen leaves (in priority order) whose splits still fit.
            fits = np.cumsum(2 * split.sum(axis=1)) <= budget - evals
            chosen, levels, min_level, split = chosen[fits], levels[fits], min_level[fits], split[fits]
            if len(chosen) == 0:
                break
            evals += self._divide(tree, restricted, chosen, levels, min_level, split)
            iterations += 1
        return tree, evals, iterations

    def _select(self, tree: _Tree) -> np.ndarray:
        """Potentially optimal leaves (upper hull of size vs log mass), plus high-mass leaves; by priority."""
        d = tree.levels.shape[1]
        level_sum = tree.level_sum[: tree.n]
        log_mass = tree.log_mass()
        finite = np.isfinite(log_mass)
        # -inf leaves stay eligible as pure exploration: they rank below every leaf of finite mass.
        floor = log_mass[finite].min() - 1e3 if finite.any() else 0.0
        value = np.where(finite, log_mass, floor)
        value[level_sum // d >= self.max_level] = -np.inf
        # Size classes indexed by level sum; the hull wants sizes ascending, i.e. level sums descending.
        best = np.full(int(level_sum.max()) + 1, -np.inf)
        np.maximum.at(best, level_sum, value)
        m, k = np.divmod(np.arange(len(best)), d)
        size = 0.5 * np.sqrt((d - k) * np.exp(-2 * _LOG3 * m) + k * np.exp(-2 * _LOG3 * (m + 1)))
        hull_sums = len(best) - 1 - np.asarray(_upper_right_hull(size[::-1], best[::-1]), dtype=int)
        on_hull = np.zeros(len(best), dtype=bool)
        on_hull[hull_sums] = True
        chosen = np.flatnonzero(on_hull[level_sum] & (value == best[level_sum]) & np.isfinite(value))
        if self.high_mass and finite.any():
            top_mass = log_mass[finite].max()
            log_average = top_mass + np.log(np.exp(log_mass[finite] - top_mass).sum() / tree.n)
            above = np.flatnonzero((log_mass >= log_average) & np.isfinite(value))
            if len(above) > len(chosen):
                above = above[np.argpartition(-log_mass[above], max(len(chosen), 1) - 1)[: max(len(chosen), 1)]]
            chosen = np.union1d(chosen, above)
        return chosen[np.argsort(-value[chosen], kind="stable")]

    @staticmethod
    def _divide(tree: _Tree, restricted, chosen, levels, min_level, split) -> int:
        rows, dims = np.nonzero(split)  # one (leaf, dimension) pair per split
        pairs = len(rows)
        step = np.exp(-_LOG3 * (min_level[rows] + 1.0))  # the new side length = old side / 3
        plus = tree.centres[chosen[rows]].copy()
        plus[np.arange(pairs), dims] += step
        minus = tree.centres[chosen[rows]].copy()
        minus[np.arange(pairs), dims] -= step
        values = restricted(np.concatenate([plus, minus]))  # one batched density call per iteration
        f_plus, f_minus = values[:pairs], values[pairs:]
        # Rank each leaf's split dimensions by their larger new value, best first.
        order = np.lexsort((-np.maximum(f_plus, f_minus), rows))
        first = np.searchsorted(rows[order], rows[order], side="left")
        rank = np.empty(pairs, dtype=np.int16)
        rank[order] = np.arange(pairs) - first
        rank_of_dim = np.full(split.shape, np.iinfo(np.int16).max, dtype=np.int16)
        rank_of_dim[rows, dims] = rank
        # A child made by the r-th split has been trisected along the dimensions of rank <= r.
        child_levels = levels[rows] + (rank_of_dim[rows] <= rank[:, None])
        tree.levels[chosen] += split.astype(np.int16)  # the middle child keeps the centre
        tree.level_sum[chosen] += split.sum(axis=1)
        tree.append(
            np.concatenate([plus, minus]),
            np.concatenate([child_levels, child_levels]).astype(np.int16),
            np.concatenate([f_plus, f_minus]),
        )
        return 2 * pairs

    def _sample(
        self, density: LogDensity, lay: Layout, num_samples: int, rng: np.random.Generator
    ) -> tuple[np.ndarray, dict[str, Any]]:
        num_candidates = self.num_candidates(num_samples, lay.dim)
        origin = rng.random(lay.dim) if self.random_origin else None
        tree, evals, iterations = self.build(density, lay, self.partition_budget(num_candidates, lay.dim), origin)
        log_mass = tree.log_mass()
        if lay.space.has_constraints and not np.isfinite(log_mass).any():
            centres = _to_space(lay, tree.centres[: tree.n], origin)
            raise InfeasibleSpaceError(f"DEFER found no feasible leaf centre: {describe_infeasibility(lay, centres)}")
        side = np.exp(-_LOG3 * tree.levels[: tree.n])
        probabilities = np.exp(safe_log_softmax(log_mass))

        def propose(m: int) -> tuple[np.ndarray, np.ndarray]:
            """m draws from the piecewise-constant density q, each with its leaf."""
            leaf = rng.choice(tree.n, size=m, p=probabilities)
            u = tree.centres[leaf] + (rng.random((m, lay.dim)) - 0.5) * side[leaf]
            return _to_space(lay, u, origin), leaf

        self.partition = self._partition(tree, side, lay, evals, iterations, origin)
        stats = {
            "num_leaves": tree.n,
            "iterations": iterations,
            "log_z": self.partition.log_z,
            "ess": float(1.0 / np.sum(probabilities**2)),
        }
        if not num_candidates:
            x, _, proposals = fill_tagged(lay, propose, num_samples, self.max_rejection_rounds)
            return x, {**stats, "rejection_rate": 1.0 - num_samples / proposals}
        x, leaf, proposals = fill_tagged(lay, propose, num_candidates, self.max_rejection_rounds)
        chosen, log_p, importance = _resample(density, x, tree.log_f[leaf], num_samples, rng)
        x, distinct = distinct_picks(lay, x, log_p, chosen, side[leaf], density, rng)
        # E_q[p / q] over the feasible draws is Z / q(feasible set); the acceptance rate estimates q(feasible set).
        log_z = self.partition.log_z + importance.pop("log_mean_weight") + np.log(num_candidates / proposals)
        return x, {
            **stats,
            **importance,
            **distinct,
            "log_z": float(log_z),
            "partition_log_z": self.partition.log_z,
            "rejection_rate": 1.0 - num_candidates / proposals,
        }

    @staticmethod
    def _partition(
        tree: _Tree, side: np.ndarray, lay: Layout, evals: int, iterations: int, origin: np.ndarray | None
    ) -> Partition:
        centres = tree.centres[: tree.n] + (0.0 if origin is None else origin)
        log_mass = tree.log_mass() + np.sum(np.log(lay.width))
        return Partition(
            lower=lay.from_unit(centres - side / 2),
            upper=lay.from_unit(centres + side / 2),
            origin=origin,
            log_density=tree.log_f[: tree.n].copy(),
            log_mass=log_mass,
            log_z=float(logsumexp(log_mass)),
            num_evals=evals,
            iterations=iterations,
        )


class ImportanceDefer(Defer):
    """DEFER corrected by sampling-importance-resampling (beyond the paper and the reference package).

    The partition's piecewise-constant density q is only the proposal: K * n feasible candidates are drawn from it,
    weighted by p / q with the true log density (one batched call), and n are resampled by weight; a candidate picked
    twice has its second pick moved off it by Metropolis-Hastings steps targeting p (`distinct_picks`), so no
    point repeats. With the default budget the K * n evaluations are all drawn, and the partition keeps at least half
    of the default budget, so a large batch stays close to i.i.d.; a configured `budget` holds both (candidates at
    most half of it, with a `CandidateBudgetWarning` when that is fewer than K * n). The
    partition divides only potentially-optimal leaves (`high_mass=False`, the original DIRECT rule): refining
    high-mass leaves concentrates evaluations where q already has mass, the weights need q to have found every
    mode, and on the exact mixtures of tests/test_sampler_modes.py the pure rule finds modes the other misses.
    K = 10: on the accuracy/cost curve of tests/benchmarks/test_defer_accuracy.py no K of 1-30 is best on every
    target; with the random origin the step changes the pooled mode errors little, and what it buys is each batch
    being consistent for p inside the leaves.

    The partition's origin is random (`random_origin`): DEFER's trisection grid is fixed, so whether a narrow mode
    gets a leaf centre depends on where it sits relative to that grid, and the error is the same on every seed. On the
    torus shifted by a uniform offset, the centres fall anywhere with equal probability; a mode the partition misses
    on one seed it finds on others, and B3O draws every batch with a new seed.
    """

    name = "defer-is"

    def __init__(
        self,
        budget: int | None = None,
        importance: int = 10,
        high_mass: bool = False,
        random_origin: bool = True,
        **options: Any,
    ):
        if integer("defer-is importance", importance, 0, " (candidates per sample)") < 1:
            raise ValueError(
                f"defer-is needs importance (candidates per sample) >= 1, got {importance}; "
                "plain DEFER is the sampler 'defer'"
            )
        super().__init__(budget, importance, high_mass, random_origin, **options)


def _upper_right_hull(x: np.ndarray, y: np.ndarray) -> list[int]:
    """Indices (x ascending) on the upper convex hull from the highest point rightwards: the points maximising
    y + K x for some K >= 0. `x` is sorted ascending; points with y = -inf are ignored."""
    valid = np.flatnonzero(np.isfinite(y))
    if len(valid) == 0:
        return []
    top = valid[y[valid] == y[valid].max()][-1]  # ties: the largest size
    hull: list[int] = []
    for i in valid[valid >= top]:
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            # drop b if it lies on or below the segment a -> i
            if (y[b] - y[a]) * (x[i] - x[a]) <= (y[i] - y[a]) * (x[b] - x[a]):
                hull.pop()
            else:
                break
        hull.append(int(i))
    return hull


def _to_space(lay: Layout, u: np.ndarray, origin: np.ndarray | None) -> np.ndarray:
    """Points of the space from partition coordinates: with a random `origin` the partition lives on the unit torus,
    shifted by `origin` and wrapped (Cranley-Patterson rotation), so its grid of leaf centres falls at a new random
    place on every seed; without one it is DEFER's fixed grid."""
    return lay.from_unit(u if origin is None else np.mod(u + origin, 1.0))


def _restricted(density: LogDensity, lay: Layout, x: np.ndarray) -> np.ndarray:
    """The log density at x, -inf where infeasible (not evaluated there)."""
    feasible = lay.feasible(x)
    values = np.full(len(x), -np.inf)
    if feasible.any():
        values[feasible] = density(x[feasible])
    return values


def _resample(
    density: LogDensity, candidates: np.ndarray, log_q: np.ndarray, n: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
    """Sampling-importance-resampling: weight the candidates by p / q in one density call, pick n indices by weight
    (with repeats, which `distinct_picks` then moves off their pick); returns the picks, log p at every candidate and
    the statistics.

    `log_q` is the partition's log density at each candidate's leaf (its normalisation cancels). The weights make
    the batch consistent for p however far the partition's leaf values are from p inside the leaves.
    """
    log_p = density(candidates)
    log_w = log_p - log_q
    weights = np.exp(safe_log_softmax(log_w))
    chosen = rng.choice(len(candidates), size=n, p=weights)
    return chosen, log_p, {
        "importance_candidates": len(candidates),
        "importance_ess": float(1.0 / np.sum(weights**2)),
        "log_mean_weight": float(logsumexp(log_w) - np.log(len(candidates))),
    }
