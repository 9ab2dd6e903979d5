"""Mode masses where B3O runs its samplers: three-mode Gaussian mixtures in d = 4, 6, 9, exact masses in closed form.

Each sampler runs as B3O runs it, at its configured budget: DEFER (plain and importance-corrected, 10^4 density
evaluations) and discretised Monte Carlo (2^14 points) draw batches of B = 100, pooled over seeds; MH and Langevin
run one chain per sample with their default burn-in. A sample counts for the mode of largest weighted density (the
modes are at least 9 s.d. of the wider one apart, so misassignment is negligible). Every mode's share must lie within
TOLERANCE of its exact mass; where a sampler cannot, PINNED holds the measured worst error and the test allows 0.03
more, so a regression shows. The README's sampler section states these numbers.
"""

from __future__ import annotations

import numpy as np
import pytest
from mixtures import Mixture, boundary_mixture, issue_mixture

from b3o import samplers

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
TARGETS = {
    "4d": lambda: boundary_mixture(4),
    "6d": lambda: boundary_mixture(6),
    "9d": lambda: boundary_mixture(9),
    "6d-issue": issue_mixture,
}
# (sampler, target) -> measured worst mode-mass error where it exceeds TOLERANCE. In 6-D and 9-D the 5x narrower
# mode (s.d. 0.01) is found by no sampler at these budgets, so its whole mass (0.385, 0.40) is the error, plus any
# misallocation between the two wide modes; in 4-D only defer-is finds it. On the issue's mixture plain DEFER finds all
# three modes but mis-weights them; the samplers without a partition lose the narrow modes.
PINNED: dict[tuple[str, str], float] = {
    **{(name, "4d"): 0.369 for name in ("defer", "langevin")},
    ("mh", "4d"): 0.365,
    ("dmc", "4d"): 0.259,
    **{(name, "6d"): 0.385 for name in RUNS},
    **{(name, "9d"): 0.400 for name in ("defer", "mh", "langevin")},
    ("defer-is", "9d"): 0.495,
    ("dmc", "9d"): 0.526,
    ("defer", "6d-issue"): 0.074,
    ("dmc", "6d-issue"): 0.513,
    ("mh", "6d-issue"): 0.561,
    ("langevin", "6d-issue"): 0.572,
}
DEFAULT_RUN = {
    ("defer", "6d"), ("dmc", "6d"), ("mh", "6d"), ("defer-is", "4d"), ("defer", "6d-issue"), ("defer-is", "6d-issue")
}


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
        for target in TARGETS:
            marks = [] if (name, target) in DEFAULT_RUN else [pytest.mark.slow]
            yield pytest.param(name, target, marks=marks, id=f"{name}-{target}")


@pytest.mark.parametrize("name, target", _cases())
def test_mode_masses_within_tolerance_or_pinned(name, target):
    errors = mode_mass_errors(name, TARGETS[target]())
    allowed = PINNED[(name, target)] + 0.03 if (name, target) in PINNED else TOLERANCE
    assert np.abs(errors).max() <= allowed, f"{name} on {target}: mode-mass errors {np.round(errors, 3)}"


@pytest.mark.slow
def test_defer_finds_the_narrow_mode_in_4d_at_three_times_the_budget():
    """Plain DEFER's 4-D error above is discovery, not weighting: at 3 x 10^4 evaluations its partition reaches the
    s.d. 0.01 mode and every mode's share is within TOLERANCE."""
    errors = mode_mass_errors("defer", boundary_mixture(4), budget=30_000)
    assert np.abs(errors).max() <= TOLERANCE, np.round(errors, 3)


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
