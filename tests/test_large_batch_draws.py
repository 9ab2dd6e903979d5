"""Large batches keep i.i.d. draws (issue 79): `defer-is`'s importance candidates grow with B under the default
budget, and a configured budget too small for them says which knob to raise.

At B = 3,000 a cap of 5,000 candidates left an importance ESS below B and a third of the picks to be moved by
random-walk steps (repeats of a resampled candidate). Resampling B picks from weights of effective sample size E
repeats about B (B - 1) / (2 E) of them, so the bound checked is twice that."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from trieste.space import Box

from b3o import samplers
from b3o.samplers.defer import CandidateBudgetWarning

B = 3_000
SPACE = Box([0.0] * 4, [1.0] * 4)
CENTRES = np.array([[0.2, 0.3, 0.7, 0.5], [0.8, 0.6, 0.2, 0.4]])


def _two_bumps(x: np.ndarray) -> np.ndarray:
    """Log density of two Gaussian bumps in 4-D (s.d. 0.05 and 0.1 of the box)."""
    d = ((x[:, None, :] - CENTRES[None]) ** 2).sum(-1)
    return np.logaddexp(-d[:, 0] / (2 * 0.05**2), -d[:, 1] / (2 * 0.1**2))


def test_the_default_budget_grows_with_the_batch():
    sampler = samplers.get("defer-is")
    with warnings.catch_warnings():
        warnings.simplefilter("error", CandidateBudgetWarning)
        x = sampler.sample(_two_bumps, SPACE, B, seed=0)
    d = sampler.diagnostics
    print(f"B = {B}: {d['importance_candidates']} candidates, importance ESS {d['importance_ess']:.0f}, "
          f"{d['repeated_picks']} picks moved")
    assert x.shape == (B, 4) and len(np.unique(x, axis=0)) == B
    assert d["importance_candidates"] == sampler.importance * B
    assert d["importance_ess"] >= B
    assert d["repeated_picks"] <= B * (B - 1) / d["importance_ess"]


def test_a_configured_budget_too_small_for_the_batch_says_what_to_raise():
    sampler = samplers.get("defer-is", budget=10_000)
    with pytest.warns(CandidateBudgetWarning, match=r"allows 5000 importance candidates, fewer than importance x B = "
                      r"30000.*Raise budget to 60000"):
        sampler.sample(_two_bumps, SPACE, B, seed=0)
    assert sampler.diagnostics["importance_candidates"] == 5_000
