"""Mode masses where B3O runs its samplers: three-mode Gaussian mixtures in d = 4, 6, 9, exact masses in closed form.

Each sampler runs as B3O runs it, at its configured budget: DEFER (plain and importance-corrected) and discretised
Monte Carlo draw batches of B = 100 with their default budgets, pooled over seeds; MH and Langevin run one chain per
sample with their default burn-in. A sample counts for the mode of largest weighted density (the modes are at least
20 s.d. apart, so this assignment is exact up to ~1e-80). Every mode's share must lie within TOLERANCE of its exact
mass; where a sampler cannot, PINNED holds the measured worst error (plus 0.03 for floating-point drift), so a
regression shows. The README's sampler section quotes these numbers.
"""

from __future__ import annotations

import numpy as np
import pytest

from b3o import samplers
from mixtures import Mixture, boundary_mixture, issue_mixture

TOLERANCE = 0.05
BATCH = 100
# sampler -> (options, batches of BATCH pooled, samples per call)
RUNS = {
    "defer": ({}, 20, BATCH),
    "defer-is": ({}, 20, BATCH),
    "dmc": ({}, 10, BATCH),
    "mh": ({"num_chains": 1000}, 1, 1000),
    "langevin": ({"num_chains": 1000}, 1, 1000),
}
# (sampler, d) -> measured worst mode-mass error, where it exceeds TOLERANCE (see the module docstring)
PINNED: dict[tuple[str, int], float] = {}
DEFAULT_RUN = {("defer", 6), ("defer-is", 6), ("dmc", 6), ("mh", 6)}


TARGETS = {"4d": lambda: boundary_mixture(4), "6d": lambda: boundary_mixture(6), "9d": lambda: boundary_mixture(9),
           "6d-issue": issue_mixture}


def mode_mass_errors(name: str, target: Mixture, **options) -> np.ndarray:
    """[3] signed error of each mode's sample share against its exact mass."""
    defaults, batches, n = RUNS[name]
    options = {**defaults, **options}
    x = np.concatenate(
        [samplers.get(name, **options).sample(target, target.space, n, seed=seed) for seed in range(batches)]
    )
    return target.sample_masses(x) - target.mode_masses()


def _cases():
    for name in RUNS:
        for dim in (4, 6, 9):
            marks = [] if (name, dim) in DEFAULT_RUN else [pytest.mark.slow]
            yield pytest.param(name, dim, marks=marks, id=f"{name}-{dim}d")


@pytest.mark.parametrize("name, dim", _cases())
def test_mode_masses_within_tolerance_or_pinned(name, dim):
    errors = mode_mass_errors(name, dim)
    allowed = PINNED[(name, dim)] + 0.03 if (name, dim) in PINNED else TOLERANCE
    assert np.abs(errors).max() <= allowed, f"{name} in {dim}-D: mode-mass errors {np.round(errors, 3)}"


def test_exact_masses_are_truncated_gaussian_masses():
    """The closed form against Monte Carlo on the box: mixture weight x product of 1-D CDF differences."""
    target = boundary_mixture(4)
    rng = np.random.default_rng(0)
    comps = rng.integers(0, 3, 400_000)
    x = target.means[comps] + target.sds[comps, None] * rng.standard_normal((400_000, 4))
    inside = np.all((x >= 0) & (x <= 1), axis=1)
    share = np.bincount(comps[inside], minlength=3) / inside.sum()
    np.testing.assert_allclose(share, target.mode_masses(), atol=0.005)
    assert target.mode_masses()[0] < 0.3 < target.mode_masses()[1]  # truncation at the faces removes mass
