"""Mode masses where B3O runs its samplers: three-mode Gaussian mixtures in d = 4, 6, 9, exact masses in closed form.

Each sampler runs as B3O runs it, at its configured budget: DEFER (plain and importance-corrected, 10^4 density
evaluations) and discretised Monte Carlo (2^14 points) draw batches of B = 100, pooled over seeds; MH and Langevin
run one chain per sample with their default burn-in. A sample counts for the mode of largest weighted density (on
every target the argmax shares of exact draws are within 0.002 of the exact masses). Every mode's share must lie
within TOLERANCE of its exact mass; where a sampler cannot, paper/tables/sampler_modes.csv holds the measured worst
error and the test allows 0.03 more, so a regression shows (an empty cell: measured within TOLERANCE).
`python tests/test_sampler_modes.py --out paper/tables/sampler_modes.csv` measures the table again (minutes: MH and
Langevin); docs/performance.md is generated from it.

Which widths a budget can resolve (mixtures.visible_radius): a mode of s.d. s_n among equally weighted modes of s.d.
s_w = 5 s_n stands out only where its density reaches that at which the wide modes hold their mass (their typical
radius s_w sqrt(d), e^(-d/2) of their peak), i.e. within r^2 = s_n^2 d (2 ln 5 + 1) of its centre. A sampler without
prior knowledge of where it is needs about 1 / vol(ball of radius r) evaluations to land one there. The targets are
named by how often 10^4 uniformly spread evaluations land in that ball on average (mixtures.detectable_widths):
"hits30" (a sampler that spreads a third of its budget still lands there about 10 times), "hits10" and "hits3" (the
edge: spreading the whole budget misses it with probability e^-3 = 5 %). For s_n = 0.01 ("sd0.01") it takes 7.1e4
evaluations in 4-D, 1.2e7 in 6-D and 2.4e10 in 9-D, and the hand-placed mixture (narrowest s.d. 0.02 among 0.03
and 0.06) about 4e5: beyond a budget of 10^4 for any method that does not know where the mode is. All keep the same
positions (one wide mode one s_w from the faces in half of the coordinates), which avoid DEFER's first trisection
centres - except "6d-placed", whose narrowest mode sits on one ("6d-placed-off" moves it off).

DEFER's grid is fixed, so plain `defer` is right or wrong by where a mode sits relative to it: it finds the hand-placed
mixture's narrow mode on a centre and loses it off-grid, on every seed alike. `defer-is` shifts the partition's origin
at random on every seed, so its error does not depend on the placement and pools away over seeds.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from mixtures import TARGETS, Mixture, boundary_mixture, detectable_widths, visible_fraction

from b3o import samplers

ROOT = Path(__file__).resolve().parents[1]
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
#: target -> sampler -> measured worst mode-mass error (NaN: within TOLERANCE). defer-is meets the tolerance on the
#: hits30 targets in 4-D and 6-D; closer to the edge (hits10, hits3) and in 9-D its error grows. Plain DEFER's fixed
#: grid misses the narrow mode off its centres on every seed alike (6d-hits30) and finds it on one (6d-placed). MH
#: and Langevin are outside the tolerance on every 6-D and 9-D target. On the sd0.01 targets no sampler finds the
#: narrow mode; there defer-is, which divides only potentially-optimal leaves, also splits the two s.d.-0.05 modes
#: worse than plain DEFER.
MEASURED = ROOT / "paper/tables/sampler_modes.csv"
PINNED: dict[tuple[str, str], float] = {
    (name, target): error
    for target, errors in pd.read_csv(MEASURED, index_col="target").iterrows()
    for name, error in errors.items()
    if error > TOLERANCE
}
DEFAULT_RUN = {
    *(("defer-is", f"{d}d-hits30") for d in (4, 6, 9)),
    ("defer", "6d-hits30"),
    ("defer", "6d-placed"),
    ("defer", "6d-placed-off"),
    ("defer-is", "6d-placed"),
    ("dmc", "6d-hits30"),
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


def test_every_target_and_sampler_has_its_measured_cell():
    measured = pd.read_csv(MEASURED, index_col="target")
    assert list(measured.index) == list(TARGETS) and list(measured.columns) == list(RUNS)


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


def _visible(target: Mixture, x: np.ndarray) -> np.ndarray:
    """Where the narrow mode's weighted density reaches e^(-d/2) of a wide mode's weighted peak."""
    d = x.shape[1]
    wide_peak = np.log(target.weights[0]) - d * np.log(target.sds[0])
    return target.log_components(x)[:, 2] >= wide_peak - d / 2


@pytest.mark.parametrize("dim", [6, 9])
def test_visible_fraction_in_closed_form_against_monte_carlo(dim):
    """The detectability calculation of the module docstring: the ball volume matches uniform draws in a box around
    the narrow mode, and the s.d. 0.01 target needs far more than 10^4 evaluations where the derived one needs 10^4/3."""
    rng = np.random.default_rng(0)
    for narrow, wide in [(0.01, 0.05), detectable_widths(dim)]:
        target = boundary_mixture(dim, narrow, wide)
        half = min(1.2 * target.sds[2] * np.sqrt(dim * (2 * np.log(5) + 1)), target.means[2].min())
        x = target.means[2] + rng.uniform(-half, half, (200_000, dim))
        estimate = _visible(target, x).mean() * (2 * half) ** dim
        np.testing.assert_allclose(estimate, visible_fraction(dim, narrow, wide), rtol=0.1)
    assert 1 / visible_fraction(dim, 0.01, 0.05) > 1e6
    assert 1 / visible_fraction(dim, *detectable_widths(dim)) == pytest.approx(10_000 / 3)


def test_derived_6d_target_is_hit_by_uniform_evaluations():
    """10^4 uniform points land about 3 times where the derived 6-D target's narrow mode is visible (Poisson)."""
    target = boundary_mixture(6, *detectable_widths(6))
    hits = _visible(target, np.random.default_rng(1).random((100_000, 6))).sum()
    assert 10 <= hits <= 50  # mean 30


if __name__ == "__main__":  # paper/tables/sampler_modes.csv: `python tests/test_sampler_modes.py --out CSV` (minutes)
    cli = argparse.ArgumentParser(description="measure every sampler's worst mode-mass error on every target")
    cli.add_argument("--out", default=str(MEASURED), help="the table to write (CSV)")
    out = Path(cli.parse_args().out)
    rows = []
    for target, make in TARGETS.items():
        rows.append({"target": target, **{name: np.abs(mode_mass_errors(name, make())).max() for name in RUNS}})
        print(rows[-1], flush=True)
    pd.DataFrame(rows).to_csv(out, index=False, float_format="%.3f")
