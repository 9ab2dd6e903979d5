"""The verdict rule's size and power by simulation (`analysis.verdict_size`): at most α plus Monte Carlo error under
the null at 5-10 seeds for normal, heavy-tailed and skewed per-seed differences, beside the percentile-bootstrap
rule it replaced; the vectorised simulation is the engine's rule."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from analysis import per_trial, verdict_size, verdicts
from analysis.verdicts import ALPHA

ROOT = Path(__file__).resolve().parents[1]
REPLICATIONS = 10_000
#: Monte Carlo allowance: three standard errors of a rate α estimated from REPLICATIONS draws
ALLOWANCE = 3 * np.sqrt(ALPHA * (1 - ALPHA) / REPLICATIONS)
#: bootstrap resamples of the studentised test in the fast size check (the engine uses NUM_RESAMPLES; the
#: committed table, `paper/tables/verdict_size.csv`, is computed with it)
FAST_RESAMPLES = 999


def test_the_vectorised_sign_flips_are_scipys():
    d = np.random.default_rng(1).normal(0.3, 1.0, size=(6, 8))
    for alternative in ("greater", "less"):
        scipy_p = stats.permutation_test(
            (d,), np.mean, permutation_type="samples", axis=1, alternative=alternative, n_resamples=np.inf
        ).pvalue
        assert verdict_size.sign_flip(d, alternative) == pytest.approx(scipy_p)


def test_the_simulated_rule_is_the_engines():
    d = np.random.default_rng(2).standard_t(3, size=(5, 7)) + 0.8
    engine = [verdicts.two_sided(row, 0.0) for row in d]
    assert verdict_size.new_rule(d) == pytest.approx(engine)
    assert min(engine) >= verdicts.p_floor(7)  # never below what the sign-flip test attains


@pytest.mark.parametrize("distribution, sigma", [("normal", 1.0), ("t3", 1.0), ("lognormal", 0.25), ("lognormal", 0.5)])
def test_false_decision_rate_is_at_most_alpha_at_small_n(distribution, sigma):
    rng = np.random.default_rng(3)
    rates = {}
    for n in verdict_size.SEEDS:
        d = verdict_size.draws(distribution, n, REPLICATIONS, rng, sigma)
        new = verdict_size.rate(verdict_size.new_rule(d, FAST_RESAMPLES))[0]
        old = verdict_size.rate(verdict_size.old_rule(d, FAST_RESAMPLES))[0]
        rates[n] = (new, old)
        print(f"{distribution} σ={sigma} n={n}: new rule {new:.4f}, percentile bootstrap {old:.4f}")
    assert all(new <= ALPHA + ALLOWANCE for new, _ in rates.values()), rates
    assert rates[5][0] == 0  # 2^(1−5) > α: five seeds never decide
    assert rates[5][1] > ALPHA + ALLOWANCE  # the rule before decided by chance far more often than α


def test_power_at_the_committed_runs_effect():
    effect = verdict_size.realistic_effect(per_trial.load(ROOT / "paper/tables/per_trial.csv"))
    assert effect is not None and 0.5 < effect < 1.5
    d = verdict_size.draws("normal", 10, REPLICATIONS, np.random.default_rng(4)) + effect
    power = verdict_size.rate(verdict_size.new_rule(d, FAST_RESAMPLES))[0]
    print(f"power at d = {effect:.2f}, 10 seeds: {power:.3f}")
    assert 0.45 < power < 0.8  # what the size costs: the committed table has the exact figure


@pytest.mark.slow
def test_the_committed_size_table_is_the_scripts_output():
    table = ROOT / "paper/tables/verdict_size.csv"
    committed = pd.read_csv(table)
    effect = verdict_size.realistic_effect(per_trial.load(ROOT / "paper/tables/per_trial.csv"))
    fresh = verdict_size.simulate(effect)
    pd.testing.assert_series_equal(fresh["rate"], committed["rate"], check_exact=False, atol=1e-6)
