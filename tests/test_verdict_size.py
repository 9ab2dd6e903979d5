"""The verdict rule's size and power by simulation (`analysis.statistics.verdict_size`): at most α plus Monte Carlo
error under the null at 5-10 seeds for normal, heavy-tailed and skewed per-seed differences, beside the
percentile-bootstrap rule it replaced; the vectorised simulation is the engine's rule."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from analysis.data import per_trial
from analysis.statistics import verdict_size, verdicts
from analysis.statistics.verdicts import ALPHA

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


def test_the_tie_test_holds_its_size_at_the_margin_and_keeps_a_tie_with_one_far_seed():
    """The paired t TOST (`analysis.statistics.verdicts.equivalence`) declares a tie between regrets whose means are
    exactly the ratio margin apart (log-normal, correlated by seed) or differences exactly at an absolute margin at most
    at rate α; a true tie with one seed 1.5 margins away is still found, where the three-test TOST it replaced is
    not."""
    frame = verdict_size.simulate_ties(2000)
    size = frame[frame["kind"] == "tie size"]
    assert len(size) == (1 + len(verdict_size.TIE_SIGMAS)) * len(verdict_size.SEEDS)
    assert set(size["rule"]) == {verdict_size.TIE} and set(size["distribution"]) == {"normal", "lognormal"}
    assert (size["rate"] <= ALPHA + 3 * size["mc_se"]).all(), size
    assert size["rate"].max() > 0  # it does declare ties at the margin, just not more often than α
    outlier = frame[frame["kind"] == "tie power, one outlier"].pivot(index="n", columns="rule", values="rate")
    assert (outlier[verdict_size.TIE] >= outlier["three-test TOST"]).all()
    assert outlier.loc[10, verdict_size.TIE] > 0.95 and outlier.loc[8, "three-test TOST"] < 0.5


def test_the_simulated_ties_sit_on_the_margin():
    rng = np.random.default_rng(6)
    not_worse, not_better = verdict_size.tie_sides("lognormal", 10, 20_000, rng, sigma=0.5)
    # 1.25·B − A has mean 0 (A's mean is 1.25 times B's): the non-inferiority side is on its boundary
    assert abs(not_worse.mean()) < 4 * not_worse.std() / np.sqrt(not_worse.size)
    assert not_better.mean() > 0
    d_worse, d_better = verdict_size.tie_sides("normal", 10, 20_000, rng)
    assert abs(d_worse.mean()) < 4 * d_worse.std() / np.sqrt(d_worse.size)
    assert d_better.mean() == pytest.approx(2, abs=0.05)
    far_worse, far_better = verdict_size.tie_sides("outlier", 10, 5, rng)
    assert (far_better[:, 0] == -0.5).all()  # the far seed: 1.5 margins away, beyond the margin of 1
    p = verdict_size.three_test_tost(far_worse, far_better)
    engine = [max(verdicts.one_sided(w, 0.0, "greater"), verdicts.one_sided(b, 0.0, "greater"))
              for w, b in zip(far_worse, far_better)]
    assert p == pytest.approx(np.minimum(1.0, 2 * np.array(engine)))  # the rule before: each side by three tests


def test_the_readme_size_table_takes_the_table_main_writes(tmp_path):
    from analysis.presentation import readme_blocks

    rows = [("size", "normal", np.nan, 0.0, n, rule, 0.04) for n in verdict_size.SEEDS
            for rule in (verdict_size.NEW, verdict_size.OLD)]
    rows += [("tie size", "normal", np.nan, np.nan, n, verdict_size.TIE, 0.02) for n in verdict_size.SEEDS]
    rows += [("tie power, one outlier", "outlier", np.nan, np.nan, n, rule, 0.5) for n in verdict_size.SEEDS
             for rule in (verdict_size.TIE, "three-test TOST")]
    table = pd.DataFrame(rows, columns=["kind", "distribution", "sigma", "effect", "n", "rule", "rate"])
    table = table.assign(replications=2000, mc_se=0.001)
    block = readme_blocks.verdict_size_block(table, "size.csv")
    assert "| size, normal | 0.040 / 0.040 |" in block and "tie" not in block  # the tie rows go to the sentence
    power = pd.DataFrame([("power", "normal", np.nan, 0.83, 10, verdict_size.NEW, 0.56, 2000, 0.01)],
                         columns=table.columns)
    line = readme_blocks.verdict_size_line_block(pd.concat([table, power], ignore_index=True), "size.csv")
    assert "A tie (paired t TOST) is declared at the margin itself at most 0.020" in line
    assert "0.50 (paired t TOST) vs 0.50 (three-test TOST)" in line


@pytest.mark.slow
def test_the_committed_size_table_is_the_scripts_output():
    """`python -m analysis.statistics.verdict_size` writes the difference test's size and power, then the tie test's."""
    table = ROOT / "paper/tables/verdict_size.csv"
    committed = pd.read_csv(table)
    effect = verdict_size.realistic_effect(per_trial.load(ROOT / "paper/tables/per_trial.csv"))
    fresh = pd.concat([verdict_size.simulate(effect), verdict_size.simulate_ties()], ignore_index=True)
    assert list(fresh["kind"]) == list(committed["kind"]) and list(fresh["rule"]) == list(committed["rule"])
    pd.testing.assert_series_equal(fresh["rate"], committed["rate"], check_exact=False, atol=1e-6)
