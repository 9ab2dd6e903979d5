"""What the samplers need to know about a trieste search space, in NumPy.

`Layout` splits a space into continuous coordinates (with bounds) and categorical coordinates (with their number
of categories), and answers feasibility queries for explicit constraints. Every sampler draws its randomness from a
NumPy `Generator`, so feasible uniform draws are done here rather than with `Box.sample_feasible`, which reseeds
TensorFlow's global generator.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from trieste.space import Box, CategoricalSearchSpace, SearchSpace, TaggedProductSearchSpace


class InfeasibleSpaceError(ValueError):
    """Too few draws satisfy the space's explicit constraints to fill a batch."""


@dataclass(frozen=True)
class Layout:
    """Coordinates of a search space: which are continuous (with bounds) and which categorical."""

    space: SearchSpace
    continuous: np.ndarray  # [Dc] int, column indices of continuous coordinates
    lower: np.ndarray  # [Dc]
    upper: np.ndarray  # [Dc]
    categorical: np.ndarray  # [Dk] int, column indices of categorical coordinates
    num_categories: np.ndarray  # [Dk] int

    @property
    def dim(self) -> int:
        return len(self.continuous) + len(self.categorical)

    @property
    def width(self) -> np.ndarray:
        return self.upper - self.lower

    @property
    def is_continuous(self) -> bool:
        return len(self.categorical) == 0

    def feasible(self, x: np.ndarray) -> np.ndarray:
        """[N] bool: the points satisfy the space's explicit (e.g. linear) constraints."""
        if not self.space.has_constraints or len(x) == 0:
            return np.ones(len(x), dtype=bool)
        return np.asarray(self.space.is_feasible(x), dtype=bool)

    def from_unit(self, u: np.ndarray) -> np.ndarray:
        """Points [N, dim] of the space from points of the unit cube: continuous coordinates scaled to their bounds,
        category k of K where u lies in [k / K, (k + 1) / K)."""
        x = np.empty_like(u)
        x[:, self.continuous] = self.lower + self.width * u[:, self.continuous]
        x[:, self.categorical] = np.floor(u[:, self.categorical] * self.num_categories)
        return x

    def uniform(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """n uniform draws from the bounding box and categories, ignoring constraints."""
        u = np.empty((n, self.dim))  # continuous coordinates drawn first, then the categorical ones
        u[:, self.continuous] = rng.random((n, len(self.continuous)))
        u[:, self.categorical] = rng.random((n, len(self.categorical)))
        return self.from_unit(u)

    def uniform_feasible(self, rng: np.random.Generator, n: int, max_rounds: int = 100) -> np.ndarray:
        """n uniform draws from the feasible set, by rejection; see `fill_by_rejection`."""
        return fill_by_rejection(self, lambda m: self.uniform(rng, m), n, max_rounds)

    def reflect(self, x: np.ndarray) -> np.ndarray:
        """Fold continuous coordinates back into their bounds (a symmetric map for random-walk proposals)."""
        y = x.copy()
        lo, w = self.lower, self.width
        z = np.mod(y[:, self.continuous] - lo, 2 * w)
        y[:, self.continuous] = lo + np.where(z > w, 2 * w - z, z)
        return y


def layout(space: SearchSpace) -> Layout:
    """Describe a Box, a CategoricalSearchSpace, or a TaggedProductSearchSpace of those."""
    parts = (
        [space.get_subspace(tag) for tag in space.subspace_tags]
        if isinstance(space, TaggedProductSearchSpace)
        else [space]
    )
    continuous, lower, upper, categorical, num_categories = [], [], [], [], []
    column = 0
    for part in parts:
        d = int(part.dimension)
        columns = list(range(column, column + d))
        if isinstance(part, CategoricalSearchSpace):
            categorical += columns
            num_categories += [len(tags) for tags in part.tags]
        elif isinstance(part, Box):
            continuous += columns
            lower += list(np.asarray(part.lower, dtype=np.float64))
            upper += list(np.asarray(part.upper, dtype=np.float64))
        else:
            raise TypeError(
                f"unsupported search space part {type(part).__name__}: B3O samplers handle Box, "
                "CategoricalSearchSpace and TaggedProductSearchSpace products of those"
            )
        column += d
    if isinstance(space, TaggedProductSearchSpace) and space.has_constraints:
        raise TypeError("explicit constraints are supported on a Box, not on a TaggedProductSearchSpace")
    return Layout(
        space=space,
        continuous=np.asarray(continuous, dtype=int),
        lower=np.asarray(lower, dtype=np.float64),
        upper=np.asarray(upper, dtype=np.float64),
        categorical=np.asarray(categorical, dtype=int),
        num_categories=np.asarray(num_categories, dtype=int),
    )


def continuous_layout(space: SearchSpace, sampler: str) -> Layout:
    """The layout of a purely continuous space; a clear error naming `sampler` otherwise."""
    lay = layout(space)
    if not lay.is_continuous:
        raise TypeError(
            f"sampler {sampler!r} handles continuous (Box) search spaces only; "
            "use 'mixed-mh' for spaces with categorical parts"
        )
    return lay


def fill_by_rejection(lay: Layout, propose, n: int, max_rounds: int = 100) -> np.ndarray:
    """Collect n feasible points from `propose(m) -> [m, d]`, rejecting infeasible ones (see `fill_tagged`)."""
    return fill_tagged(lay, lambda m: (propose(m), np.zeros(m, dtype=int)), n, max_rounds)[0]


def fill_tagged(lay: Layout, propose, n: int, max_rounds: int = 100) -> tuple[np.ndarray, np.ndarray, int]:
    """n feasible points from `propose(m) -> ([m, d] points, [m] tags)`, each with its tag, and the proposal count.

    The tag travels with its point through the rejection (DEFER's importance step needs each candidate's leaf).
    Proposals are requested in rounds of n; after `max_rounds` rounds without n feasible points the feasible mass is
    deemed too small and `InfeasibleSpaceError` names the constraint that rejects most proposals.
    """
    kept: list[np.ndarray] = []
    kept_tags: list[np.ndarray] = []
    count = 0
    proposals = []
    for _ in range(max_rounds):
        x, tags = propose(n)
        ok = lay.feasible(x)
        kept.append(x[ok])
        kept_tags.append(tags[ok])
        count += int(ok.sum())
        proposals.append(x)
        if count >= n:
            return np.concatenate(kept)[:n], np.concatenate(kept_tags)[:n], n * len(proposals)
    proposed = np.concatenate(proposals)
    raise InfeasibleSpaceError(
        f"only {count} of {len(proposed)} proposals were feasible, fewer than the {n} requested; "
        + describe_infeasibility(lay, proposed)
    )


def describe_infeasibility(lay: Layout, points: np.ndarray) -> str:
    """Which explicit constraint rejects the largest share of `points`, and how large that share is."""
    constraints = list(lay.space.constraints)
    violated = [1.0 - float(np.mean(np.all(np.asarray(c.residual(points)) >= -1e-7, axis=-1))) for c in constraints]
    worst = int(np.argmax(violated))
    return f"constraint {worst} ({_short(constraints[worst])}) rejects {violated[worst]:.1%} of them"


def _short(constraint) -> str:
    if hasattr(constraint, "A"):
        return f"{np.asarray(constraint.lb).tolist()} <= A @ x <= {np.asarray(constraint.ub).tolist()}, A = {np.asarray(constraint.A).tolist()}"
    return repr(constraint)
