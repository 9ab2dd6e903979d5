"""Group-sequential seeds (`analysis.statistics.sequential`): the Lan–DeMets boundaries (O'Brien–Fleming and Pocock
type) spend α over the planned looks, and the engine's test run through the same looks keeps the false-decision rate at
α, where testing at α after every batch of seeds does not."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from analysis.claims import verdict_size
from analysis.statistics import sequential
from analysis.statistics.verdicts import ALPHA

REPLICATIONS = 10_000
ALLOWANCE = 3 * np.sqrt(ALPHA * (1 - ALPHA) / REPLICATIONS)


def test_looks_follow_start_step_max():
    assert sequential.looks(5, 5, 20) == (5, 10, 15, 20)
    assert sequential.looks(5, 4, 15) == (5, 9, 13, 15)  # the last look is always at max
    with pytest.raises(ValueError):
        sequential.looks(10, 5, 5)


def test_pocock_spending_is_about_even_and_spends_alpha():
    levels = sequential.nominal((10, 15, 20), spending="pocock")
    assert levels.max() / levels.min() < 1.6 and levels.max() < ALPHA
    assert sequential.spent(1.0, spending="pocock") == pytest.approx(ALPHA)
    with pytest.raises(ValueError, match="spending must be one of"):
        sequential.spent(0.5, spending="bonferroni")


def test_boundaries_spend_alpha_as_planned():
    info = [1, 2, 3, 4, 5]
    c = sequential.boundaries(info)
    assert c[0] == pytest.approx(stats.norm.isf(ALPHA / 2) / np.sqrt(0.2))  # all spent at t = 1/5 is α(1/5)
    assert np.all(np.diff(c) < 0) and c[-1] > stats.norm.isf(ALPHA / 2)  # a little dearer than a single look
    # Brownian motion observed at the looks: the chance of ever crossing is α
    rng = np.random.default_rng(0)
    score = np.cumsum(rng.standard_normal((400_000, 5)) * np.sqrt(np.diff([0, *info])), axis=1)
    crossed = (np.abs(score / np.sqrt(info)) >= c).any(axis=1).mean()
    assert crossed == pytest.approx(ALPHA, abs=4 * np.sqrt(ALPHA * (1 - ALPHA) / 400_000))


@pytest.mark.parametrize(
    "distribution, sigma, spending",
    [("normal", 1.0, "obrien-fleming"), ("t3", 1.0, "obrien-fleming"), ("lognormal", 0.25, "obrien-fleming"),
     ("normal", 1.0, "pocock"), ("t3", 1.0, "pocock")],
)
def test_the_engines_test_through_the_looks_keeps_its_size(distribution, sigma, spending):
    seeds = sequential.looks(6, 3, 12)
    d = verdict_size.draws(distribution, seeds[-1], REPLICATIONS, np.random.default_rng(5), sigma)
    p = np.column_stack([verdict_size.new_rule(d[:, :n]) for n in seeds])
    planned = (sequential.first_decision(p, sequential.nominal(seeds, spending=spending)) >= 0).mean()
    naive = (sequential.first_decision(p, np.full(len(seeds), ALPHA)) >= 0).mean()
    print(f"{distribution}: looks {seeds}, spent α: {planned:.4f}; α at every look: {naive:.4f}")
    assert planned <= ALPHA + ALLOWANCE
    assert naive > ALPHA + ALLOWANCE  # peeking without spending: the rate the plan exists to prevent
