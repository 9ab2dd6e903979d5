"""The robust readings beside the mean verdicts (analysis.statistics.robust, analysis.tables.robust): exact tests whose
size holds, the comparisons the claims engine formed, the pre-registration as committed (the headline written from
them: tests/test_headline.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from analysis.statistics import robust, tail
from analysis.tables import robust as robust_table

ROOT = Path(__file__).resolve().parents[1]


def test_ahead_is_the_exact_sign_test_with_ties_left_out():
    a = np.array([0.1, 0.2, 0.3, 0.5, 0.5, 0.9, 0.1, 0.1])
    b = np.array([0.2, 0.3, 0.4, 0.4, 0.5, 1.0, 0.2, 0.2])
    found = robust.ahead(a, b)
    assert (found.wins, found.losses, found.ties, found.n) == (6, 1, 1, 8)
    assert found.p == pytest.approx(stats.binomtest(6, 7, 0.5).pvalue)
    assert found.lo <= 6 / 7 <= found.hi
    assert robust.ahead(b, a).share == pytest.approx(1 / 7)
    assert robust.ahead(-a, -b, lower_is_better=False).wins == 6


@pytest.mark.parametrize("n", [5, 10, 20, 30])
def test_the_sign_tests_size_is_at_most_its_level_whatever_the_spreads(n):
    """The decision's size under the null, exactly: P(p < α) summed over the binomial law of the wins (no simulation
    error), and by simulation on paired regrets with very unequal log-spreads and one heavy tail."""
    level = robust.level()
    exact = sum(stats.binom.pmf(k, n, 0.5) for k in range(n + 1) if stats.binomtest(k, n, 0.5).pvalue < level)
    assert exact <= level
    rng = np.random.default_rng(n)
    common = rng.normal(size=(4000, n))
    a = np.exp(common + rng.standard_t(2, size=(4000, n)) * 1.5)  # the same median as b, heavy and wide
    b = np.exp(common + rng.normal(size=(4000, n)) * 0.1)
    p_of_wins = {k: robust.ahead(np.r_[np.zeros(k), np.ones(n - k)], np.full(n, 0.5)).p for k in range(n + 1)}
    rejected = np.mean([p_of_wins[k] < level for k in (a < b).sum(axis=1)])  # no ties: continuous draws
    assert rejected <= level + 2 * np.sqrt(level * (1 - level) / 4000)


def test_the_median_interval_covers_at_least_its_level_on_skewed_differences():
    rng = np.random.default_rng(1)
    for n in (10, 30):
        draws = rng.lognormal(0.0, 1.5, size=(4000, n)) - 1.0  # true median 0
        covered = np.mean([lo <= 0.0 <= hi for _, lo, hi in map(robust.median_interval, draws)])
        assert covered >= robust.CONFIDENCE - 2 * np.sqrt(0.05 * 0.95 / 4000)
    median, lo, hi = robust.median_interval(np.arange(1.0, 31.0))
    assert (median, lo, hi) == (15.5, 10.0, 21.0)  # the textbook order statistics for n = 30
    assert robust.median_interval(np.arange(5.0))[1:] == (-np.inf, np.inf)  # too few seeds for 95 %


def test_stuck_seeds_are_counted_against_the_problems_typical_value():
    assert robust.reference([0.01, 0.02, 0.03, 5.0]) == pytest.approx(0.025)
    assert robust.stuck(np.array([0.01, 0.2, 0.26, np.nan]), typical=0.025) == 1  # 0.26 > 10 × 0.025 only
    assert robust.stuck_factor() == 10
    assert tail.far_factor() == robust.stuck_factor()  # "far" and "stuck" mean one factor across the pages (tail_rule.yaml)


def _table(problem: str = "ackley5", seeds: int = 12) -> pd.DataFrame:
    """A per-trial table of the large-batch experiment: B3O-UCB-c ends below TS on every seed but one far one."""
    rng = np.random.default_rng(0)
    rows = []
    for seed in range(300, 300 + seeds):
        for label, method, temp, value in (
            ("B3O-UCB-c", "b3o", "constant", 0.01 * rng.uniform(0.5, 1.5)),
            ("TS", "ts", "", 0.02 * rng.uniform(0.5, 1.5) if seed != 300 else 2.0),
        ):
            rows.append({
                "experiment": "synthetic_b100", "trial_id": f"{label}{seed}", "label": label, "problem": problem,
                "method": method, "acquisition": "ucb" if method == "b3o" else "", "temperature": temp,
                "lam": 1.0 if method == "b3o" else np.nan, "sampler": "defer" if method == "b3o" else "",
                "batch_size": 100, "iterations": 50, "n_init": 100, "seed": seed, "metric": "simple_regret",
                "lower_is_better": True, "final_budget": 5100, "budget": 5100, "value": value,
            })
    return pd.DataFrame(rows)


def test_claim_rows_read_the_comparisons_the_engine_formed_with_their_status():
    from analysis.claims.catalogue import claim

    rows = robust_table.claim_rows(claim("constant_beats_ts"), _table(), {})
    assert [(r["left"], r["right"], r["n"], r["wins"]) for r in rows] == [("B3O-UCB-c", "TS", 12, 12)]
    assert rows[0]["reading"] == "ahead" and rows[0]["right_stuck"] == 1 and rows[0]["left_stuck"] == 0
    assert rows[0]["status"] == "exploratory"
    shekel = robust_table.claim_rows(claim("constant_beats_ts"), _table("shekel4"), {})
    assert shekel[0]["status"] == "pre-registered"




def test_the_engines_stuck_reference_is_the_rules_over_all_seeds_even_when_an_early_look_decides():
    """robust_readings.yaml: stuck seeds are counted against the typical value over all of the run's seeds. A
    comparison decided at look 1 is read on that look's seeds, but against the same reference as the stuck table."""
    from analysis.claims.catalogue import claim
    from analysis.claims.checking import compared

    table = _table(seeds=20)
    b3o, later = table["label"] == "B3O-UCB-c", table["seed"] >= 310
    spread = 1.0 + 0.01 * (table["seed"] - 300)
    table["value"] = np.where(b3o, 0.001, 0.02) * spread  # B3O ends far below TS on every seed: decided at look 1
    table.loc[later, "value"] *= 100.0  # the later seeds move the typical value by ×100
    found = compared(claim("constant_beats_ts"), table, {"synthetic_b100": (10, 20)})
    c = found.compared[0]
    typical = robust_table.typical_values(table)["synthetic_b100", "ackley5"]
    assert c.look == 1 and c.stat.n == 10
    assert c.stuck_above == pytest.approx(robust.stuck_factor() * typical)
    first = table[~later & table["budget"].eq(5100)].groupby("label")["value"].median()
    assert c.stuck_above != pytest.approx(robust.stuck_factor() * robust.reference(first.to_numpy()))
    row = robust_table.claim_rows(claim("constant_beats_ts"), table, {"synthetic_b100": (10, 20)})[0]
    assert (row["left_stuck"], row["right_stuck"]) == c.stuck


def test_the_stuck_table_has_a_row_per_setting_not_per_label():
    """An ablation's label runs at several λ: each λ is its own setting, counted once in the typical value."""
    table = pd.concat([_table(), _table().query("label == 'B3O-UCB-c'").assign(lam=10.0, value=lambda d: d["value"] * 50)])
    stuck = robust_table.stuck_table(table)
    assert sorted(stuck["setting"]) == ["B3O-UCB-c λ=1", "B3O-UCB-c λ=10", "TS"]
    assert set(stuck["n"]) == {12}
    medians = table.assign(lam=table["lam"].fillna(-1)).groupby(["label", "lam"])["value"].median()
    assert stuck["typical"].iloc[0] == pytest.approx(np.median(medians))
