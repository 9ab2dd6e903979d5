"""The verdict engine and the claims on small fixtures with known answers: pairing, the four outcomes of a "better"
comparison (better, worse, equivalent within the problem's margin, inconclusive), non-inferiority, equal budgets,
coverage, the λ_1 = 0 batches of scheduled variants, Holm, the seeds to decide, the probability of improvement and
the README block."""

from __future__ import annotations

from analysis.presentation.readme_blocks import markers
import math
import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from analysis.claims import catalogue, checking, comparisons, wording
from analysis.claims import selection as claims
from analysis.claims.catalogue import Claim
from analysis.claims.selection import Slot, where
from analysis.data import per_trial, tidy
from analysis.statistics import sequential, verdicts
from analysis.statistics.verdicts import EQUIVALENT, FAILS, FEW, HOLDS, INCONCLUSIVE, NOT_MEASURED
from analysis.tables import claims_table
from problems.margins import Margin, margin

SEEDS = range(8)
#: seed-to-seed spread (how lucky the initial design was) far larger than the differences between methods
LUCK = np.array([0.0, 3.0, -2.0, 5.0, 1.0, -4.0, 2.5, -1.5])


def trials(
    label: str,
    values,
    *,
    problem: str = "hartmann6",
    experiment: str = "synthetic_b100",
    method: str | None = None,
    budgets: dict[int, object] | None = None,
    final_budget: int = 100,
    lower_is_better: bool = True,
    batch_size: int = 10,
    iterations: int = 9,
    diversity=np.nan,
    started_utc: str = "2026-01-01T00:00:00Z",
    **setting,
) -> pd.DataFrame:
    """Per-trial rows of one method: `values` per seed at `final_budget`, and `budgets` {budget: values} earlier.
    The metric is simple regret when lower is better (its margin a ratio), else hypervolume (an absolute one)."""
    rows = []
    at = {**(budgets or {}), final_budget: values}
    for seed in range(len(np.atleast_1d(values))):
        for budget, vals in sorted(at.items()):
            rows.append(
                {
                    "experiment": experiment,
                    "trial_id": f"{experiment}-{label}-{problem}-{seed}",
                    "problem": problem,
                    "label": label,
                    "method": method or label.lower(),
                    "acquisition": setting.get("acquisition", ""),
                    "temperature": setting.get("temperature", ""),
                    "lam": setting.get("lam", np.nan),
                    "sampler": setting.get("sampler", ""),
                    "batch_size": batch_size,
                    "iterations": iterations,
                    "n_init": 10,
                    "seed": seed,
                    "metric": "simple_regret" if lower_is_better else "hypervolume",
                    "lower_is_better": lower_is_better,
                    "final_budget": final_budget,
                    "budget": budget,
                    "value": float(np.atleast_1d(vals)[seed]),
                    "diversity": float(np.atleast_1d(diversity)[seed]) if np.ndim(diversity) else diversity,
                    "diversity_skipped": "",
                    "diversity_first": np.nan,
                    "diversity_last": np.nan,
                    "diversity_early": np.nan,
                    "started_utc": started_utc,
                    "platform_id": "",
                }
            )
    return pd.DataFrame(rows, columns=list(per_trial.COLUMNS))


def b3o(name: str, values, **kw) -> pd.DataFrame:
    acquisition, temperature = claims.VARIANTS[name]
    return trials(
        f"B3O-{name}",
        values,
        method="b3o",
        acquisition=acquisition,
        temperature=temperature,
        lam=1.0,
        sampler="defer",
        **kw,
    )


def one(relation: str = "better", left=("B3O-UCB-c",), right="TS", problems=("hartmann6",), **kw) -> Claim:
    lefts = tuple(Slot(f"B3O-{v}", claims.variant(v)) for v in (n.removeprefix("B3O-") for n in left))
    return Claim(
        "test",
        "test claim",
        "here",
        "synthetic_b100",
        relation,
        claims.against(lefts, (Slot(right, where(label=right)),)),
        problems,
        **kw,
    )


# --- pairing -------------------------------------------------------------------------------------------------------


def test_paired_better_decides_where_the_unpaired_cis_overlap():
    ts = 10 + LUCK
    table = pd.concat([b3o("UCB-c", ts - 1.0 + 0.1 * np.sin(SEEDS)), trials("TS", ts)])
    result = checking.check(one(), table)
    assert result.verdict == HOLDS
    assert f"Δ +{1 - 0.1 * np.sin(SEEDS).mean():.3g} [" in result.measured and "8 seeds" in result.measured
    # the same numbers, unpaired: the two 95% bootstrap CIs overlap, the old rule could not tell
    from analysis.data.aggregate import bootstrap_ci

    _, _, hi_a = bootstrap_ci(ts - 1.0)
    _, lo_b, _ = bootstrap_ci(ts)
    assert lo_b < hi_a


def test_paired_worse_does_not_hold():
    ts = 10 + LUCK
    table = pd.concat([b3o("UCB-c", ts + 0.5 + 0.05 * np.cos(SEEDS)), trials("TS", ts)])
    assert checking.check(one(), table).verdict == FAILS


def test_noisy_difference_is_inconclusive_and_says_how_many_seeds_would_decide():
    ts = 10 + LUCK
    noise = np.array([-1.0, -1.2, 0.9, -0.8, 1.1, 1.0, 0.7, -0.5])
    b3o_regret = ts - 3.5 + 4.0 * noise
    table = pd.concat([b3o("UCB-c", b3o_regret), trials("TS", ts)])
    result = checking.check(one(), table)
    assert result.verdict == INCONCLUSIVE
    diffs = ts - b3o_regret  # TS − B3O per seed
    # the mean regrets are further apart than the ratio margin allows, so only a difference could decide it
    assert ts.mean() > margin("hartmann6").value * b3o_regret.mean()
    assert result.comparisons[0].stat.tie_mean < 0
    z = 1.959964 + 0.841621
    assert result.seeds_needed == math.ceil((z * diffs.std(ddof=1) / abs(diffs.mean())) ** 2)
    assert f"≈{result.seeds_needed} seeds would decide it" in result.measured
    assert result.binding == "Hartmann (6D): B3O-UCB-c vs TS"


def test_five_seeds_never_decide_even_when_every_seed_agrees():
    """With 5 seeds the sign-flip test's smallest two-sided p is 2^(1−5) = 0.0625 > α: the rule before said "holds"
    (its percentile bootstrap gave p = 0); no valid test can."""
    ts = 10 + LUCK[:5]
    table = pd.concat([b3o("UCB-c", ts - 1.0 - 0.01 * np.arange(5)), trials("TS", ts)])
    result = checking.check(one(), table)
    assert result.verdict == FEW
    assert "the smallest attainable p is 0.063 ≥ α" in result.measured  # 0.0625, rounded up
    assert result.seeds_needed == verdicts.fewest_seeds(1) == 6
    three = pd.concat([b3o("UCB-c", ts[:3] - 1.0), trials("TS", ts[:3])])
    assert checking.check(one(), three).verdict == FEW


def test_higher_is_better_metrics_flip_the_sign():
    hv = 100 + LUCK
    table = pd.concat([b3o("UCB-c", hv + 2.0, lower_is_better=False), trials("TS", hv, lower_is_better=False)])
    assert checking.check(one(), table).verdict == HOLDS


# --- ties and equivalence ------------------------------------------------------------------------------------------


def _better(factor: float, noise: float) -> checking.Result:
    """B3O's regret TS's divided by `factor` per seed (> 1: B3O better; the ratio margin is 1.25), with relative
    per-seed noise."""
    ts = 1 + 0.1 * LUCK
    wiggle = 1 + noise * np.sin(np.arange(8) * 1.7)
    return checking.check(one(), pd.concat([b3o("UCB-c", ts / factor * wiggle), trials("TS", ts)]))


def test_a_better_comparison_has_four_outcomes():
    ts = 1 + 0.1 * LUCK
    held, failed = _better(2.0, 0.02), _better(0.5, 0.02)
    assert held.verdict == HOLDS and failed.verdict == FAILS
    # the binding comparison is named with its mean advantage for every verdict, not only an open one
    assert held.binding == failed.binding == "Hartmann (6D): B3O-UCB-c vs TS"
    assert held.binding_mean == pytest.approx(ts.mean() / 2, rel=0.05)
    assert held.binding_lo < held.binding_mean
    assert failed.binding_mean == pytest.approx(-ts.mean(), rel=0.05)
    tie = _better(1.0, 0.05)
    assert tie.verdict == FAILS and f"→ {EQUIVALENT}: shown tied within the margin on the typical seed (TOST p_Holm" in tie.measured
    assert "margin ×1.25," in tie.measured
    assert tie.seeds_needed is None and "would decide it" not in tie.measured  # a tie is decided: no seeds
    open_ = _better(1.2, 0.5)
    assert open_.verdict == INCONCLUSIVE and "nor tied within the margin" in open_.measured and open_.seeds_needed


def test_the_ratio_margin_means_the_same_at_every_horizon():
    """Regret shrinks along the horizon; the same relative difference (A's regret 0.9 of B's, the same relative
    spread) gives the same tie verdict when every regret is 1000 times smaller, as at a long horizon. An absolute
    margin would not: 0.1 (10 % of a regret near 1) is most of every regret 1000 times smaller."""
    rng = np.random.default_rng(5)
    ts = np.exp(0.3 * rng.standard_normal(10))  # a coefficient of variation of about 0.3
    ucb = 0.9 * ts * np.exp(0.05 * rng.standard_normal(10))
    verdict = {}
    for scale in (1.0, 1e-3):
        table = pd.concat([b3o("UCB-c", scale * ucb), trials("TS", scale * ts)])
        claim = one("similar")
        result = checking.check(claim, table)
        verdict[scale] = (result.verdict, result.comparisons[0].stat.verdict)
        assert "margin ×1.25" in result.measured
        # the tie's two sides scale with the regrets: their t statistics, and so the p's, do not change
        sides = margin("hartmann6").sides(scale * ucb, scale * ts, lower_is_better=True)
        assert float(verdicts.equivalence(*sides)) == pytest.approx(
            float(verdicts.equivalence(*margin("hartmann6").sides(ucb, ts, lower_is_better=True)))
        )
    assert verdict[1.0] == verdict[1e-3] == (HOLDS, HOLDS)
    # an absolute margin fixed at one horizon (0.1) reads the same relative difference differently at the other
    absolute = Margin("absolute", 0.1, "for comparison")
    p = {scale: float(verdicts.equivalence(*absolute.sides(scale * ucb, scale * ts, lower_is_better=True)))
         for scale in (1.0, 1e-3)}
    assert p[1.0] >= verdicts.ALPHA and p[1e-3] < verdicts.ALPHA


def test_one_far_seed_does_not_flip_a_clear_tie():
    """Ten seeds tied well inside the margin and one far seed: the margin tests still show the tie (how often a tie
    nearer the margin with one far seed is found, against the paired t TOST before, is in
    `analysis.claims.verdict_size`)."""
    rng = np.random.default_rng(7)
    d = np.r_[0.05 * rng.standard_normal(10), 1.5]  # A's advantage against an absolute margin of 1: one seed beyond it
    sides = Margin("absolute", 1.0, "test").sides(np.zeros_like(d), d, lower_is_better=True)
    assert float(verdicts.equivalence(*sides)) < verdicts.ALPHA
    # and through the engine: "better" reads it as equivalent, "similar" as holding
    for relation, expected in (("better", EQUIVALENT), ("similar", HOLDS)):
        c = verdicts.paired("a", "b", "u", d, relation, sides, "±1")
        assert verdicts.decide([c])[0].verdict == expected


def test_similar_holds_on_a_tie_and_fails_beyond_the_margin_either_way():
    """The battery's "performs similarly" (claim 13): tied within the margin holds; A shown better or worse beyond
    the margin does not hold."""
    ts = 1 + 0.1 * LUCK
    wiggle = 1 + 0.02 * np.sin(np.arange(8) * 1.7)

    def similar(factor: float) -> checking.Result:
        return checking.check(one("similar"), pd.concat([b3o("UCB-c", ts * factor * wiggle), trials("TS", ts)]))

    tied, better, worse = similar(1.03), similar(0.4), similar(2.5)
    assert tied.verdict == HOLDS and "shown tied within the margin" in tied.measured
    assert better.verdict == FAILS and "shown apart beyond the margin" in better.measured
    assert worse.verdict == FAILS and "shown apart beyond the margin" in worse.measured
    assert similar(1.25).verdict == INCONCLUSIVE  # on the margin itself: neither
    # the catalogued claim reads the battery's hypervolume at equal evaluations against its absolute margin
    battery = catalogue.claim("battery_matches_seq_ehvi")
    assert battery.relation == "similar" and battery.basis == "equal"
    hv = 1e5 + 1e3 * LUCK

    def run(offset: float) -> checking.Result:
        kw = dict(problem="battery", experiment="battery", lower_is_better=False, final_budget=140)
        table = pd.concat([
            trials("B3O-EHVI-c", hv + offset + 50 * np.sin(SEEDS), method="b3o", acquisition="ehvi",
                   temperature="constant", lam=1.0, sampler="defer", **kw),
            trials("Seq-EHVI", hv, method="seq-ehvi", batch_size=1, iterations=130, **kw),
        ])
        return checking.check(battery, table)

    assert run(100.0).verdict == HOLDS and "margin ±4.65e+03" in run(100.0).measured
    assert run(2e4).verdict == run(-2e4).verdict == FAILS


def test_seeds_to_decide_a_near_tie_use_the_margin_not_the_tiny_difference():
    """A near-zero mean once asked for 366,913 seeds (to separate it from 0); it is decided sooner as a tie: the
    weaker side of the tie (e.g. log 1.25 − log(r_A/r_B)) is above 0 on 90 % of seeds, which the sign test needs
    about a dozen seeds to show."""
    c = verdicts.Paired("a", "b", "u", 5, -0.0006, -0.1, 0.1, 0.05, 1.0, "better", -0.0006, 0.05, "×1.25",
                        p_equivalent=0.2, tie_mean=0.08, tie_sd=0.05, p_floor=0.0625, tie_share=0.9)
    (decided,) = verdicts.decide([c])
    assert decided.verdict == FEW
    z_level, z_power = stats.norm.ppf(1 - verdicts.ALPHA / 2), stats.norm.ppf(verdicts.POWER)
    assert decided.seeds_needed == max(6, math.ceil(((0.5 * z_level + z_power * math.sqrt(0.09)) / 0.4) ** 2)) == 10
    (wider,) = verdicts.decide([replace(c, tie_share=0.7)])
    assert 30 < wider.seeds_needed < 60

def _matches(factor: float, noise: float = 0.01) -> checking.Result:
    """B3O's regret TS's times `factor` per seed (> 1: worse), with relative per-seed noise."""
    ts = 1 + 0.1 * LUCK
    wiggle = 1 + noise * np.sin(np.arange(8) * 1.7)
    table = pd.concat([b3o("UCB-c", ts * factor * wiggle), trials("TS", ts)])
    return checking.check(one("matches_or_beats"), table)


def test_matches_holds_inside_the_margin_and_fails_outside():
    inside, outside, edge = _matches(1.1), _matches(2.0), _matches(1.25, noise=0.3)
    assert inside.verdict == HOLDS and "margin ×1.25," in inside.measured  # problems.margins: the ratio
    assert "shown not worse than B beyond the margin" in inside.measured
    assert outside.verdict == FAILS and "shown worse than B beyond the margin" in outside.measured
    assert edge.verdict == INCONCLUSIVE  # on the margin, noisy: neither shown within it nor clearly worse
    assert _matches(0.5).verdict == HOLDS  # better counts: matches *or beats*


def test_the_tail_guard_withholds_a_typical_seed_tie_whose_far_seeds_are_in_excess():
    """Thirty seeds: A matches B within the margin on the typical seed, but ends 1000x worse on six of them. The
    sign tests show the tie and the non-inferiority on the typical seed; the seeds beyond the margin (6 against 0)
    are an excess beyond chance, so the guard withholds both (inconclusive), and the counts stand beside."""
    rng = np.random.default_rng(3)
    b = np.exp(rng.normal(0.0, 1.0, 30))
    a = b * np.exp(rng.normal(0.0, 0.02, 30))
    a[:6] *= 1000.0
    sides = Margin("ratio", 1.25, "test").sides(a, b, lower_is_better=True)
    d = b - a
    far = Margin("ratio", 1.25, "test").far_below(10.0)
    for relation in ("better", "similar", "matches_or_beats"):
        c = verdicts.paired("a", "b", "u", d, relation, sides, "×1.25", far_below=far)
        assert (c.worse_beyond, c.better_beyond) == (6, 0) and (c.far_worse, c.far_better) == (6, 0)
        assert c.p_tail == pytest.approx(0.5**6 * (1 if relation == "matches_or_beats" else 2))
        (decided,) = verdicts.decide([c])
        assert decided.verdict == INCONCLUSIVE and decided.tail_withheld and decided.seeds_needed is None
        (unguarded,) = verdicts.decide([replace(c, p_tail=1.0)])  # without the tail: tied on the typical seed
        assert unguarded.verdict == {"better": EQUIVALENT}.get(relation, HOLDS)
    # three far seeds among thirty are not an excess the guard can see (p_tail 0.25): the tie stands, its tail beside
    few = b * np.exp(rng.normal(0.0, 0.02, 30))
    few[:3] *= 1000.0
    c = verdicts.paired("a", "b", "u", b - few, "similar", Margin("ratio", 1.25, "t").sides(few, b, True), "×1.25",
                        far_below=far)
    (decided,) = verdicts.decide([c])
    assert decided.verdict == HOLDS and not decided.tail_withheld and (c.far_worse, c.far_better) == (3, 0)
    # ten times behind is far; nine times is beyond the margin but not far
    near = b * 9.0
    c = verdicts.paired("a", "b", "u", b - near, "matches_or_beats", Margin("ratio", 1.25, "t").sides(near, b, True),
                        "×1.25", far_below=far)
    assert (c.worse_beyond, c.far_worse) == (30, 0)


def test_a_tie_names_the_typical_seed_and_shows_its_tail():
    inside = _matches(1.1)
    assert "not worse than B beyond the margin on the typical seed" in inside.measured
    assert "tail: A worse beyond the margin on 0 of 8 seeds (0 far), better beyond it on 0 (0 far)" in inside.measured
    assert re.search(r"stuck seeds \(above [0-9.]+\) A 0, B 0", inside.measured)
    found = checking.compared(one("matches_or_beats"), pd.concat([b3o("UCB-c", 1 + 0.1 * LUCK), trials("TS", 1 + 0.1 * LUCK)]))
    (c,) = found.compared
    typical = float(np.median(1 + 0.1 * LUCK))
    assert c.stuck == (0, 0) and c.stuck_above == pytest.approx(10 * typical)


def test_margins_do_not_depend_on_the_methods_run():
    """The margin is the problem's (problems.margins), not a share of this run's method means: adding a far worse
    method changes nothing (but the far seeds' threshold, the stuck rule's k times the median of the settings'
    medians, which is shown beside and decides nothing)."""
    ts = 1 + 0.1 * LUCK
    base = [b3o("UCB-c", 1.1 * ts), trials("TS", ts)]
    alone = checking.check(one("matches_or_beats"), pd.concat(base))
    beside = checking.check(one("matches_or_beats"), pd.concat(base + [trials("Random", ts + 100)]))
    threshold = re.compile(r"stuck seeds \(above [^)]*\)")
    assert alone.verdict == HOLDS and threshold.sub("", alone.measured) == threshold.sub("", beside.measured)


def test_every_regret_problem_ties_by_the_same_ratio_and_the_others_by_a_fixed_difference():
    for problem in ("ackley5", "hartmann6", "shekel4", "anything"):
        found = margin(problem)
        assert found.kind == "ratio" and found.value == 1.25 and found.text() == "×1.25"
        a, b = np.array([1.0, 2.0]), np.array([1.2, 1.0])
        not_worse, not_better = found.sides(a, b, lower_is_better=True)
        # on the log scale: the geometric means within a factor 1.25 of each other
        assert not_worse == pytest.approx(np.log(1.25) - np.log(a / b))
        assert not_better == pytest.approx(np.log(1.25) + np.log(a / b))
        assert found.bound(2.0) == pytest.approx(0.5)  # (ρ − 1)·|B's mean|
    with pytest.raises(ValueError, match="ratio margin is for regret"):
        margin("hartmann6").sides(np.ones(2), np.ones(2), lower_is_better=False)
    with pytest.raises(ValueError, match="positive regrets"):
        margin("hartmann6").sides(np.zeros(2), np.ones(2), lower_is_better=True)
    battery, formula_e = margin("battery", "hypervolume"), margin("formula-e", "best_value")
    assert (battery.kind, battery.value, formula_e.kind, formula_e.value) == ("absolute", 4650.0, "absolute", 0.005)
    assert battery.text() == "±4.65e+03" and formula_e.text() == "±0.005" and battery.bound(1e9) == 4650.0
    assert margin("hartmann6", "hypervolume") is None  # no absolute margin where the file gives none


# --- equal budgets -------------------------------------------------------------------------------------------------


def test_methods_with_unequal_budgets_compare_at_the_smaller_one():
    seq = 8 + LUCK
    # at 30 evaluations the batch method is worse than Seq-EI; at its own final 100 it would be better
    batch = b3o("UCB-c", seq - 3.0, budgets={30: seq + 1.0})
    seq_ei = trials("Seq-EI", seq, method="seq-ei", final_budget=30, batch_size=1, iterations=20)
    result = checking.check(one(right="Seq-EI", basis="equal"), pd.concat([batch, seq_ei]))
    assert result.verdict == FAILS
    assert "at 30 evals" in result.measured and "compared at 30 evals" in result.run
    assert "Seq-EI: B = 1, T = 20" in result.run and "B = 10, T = 9" in result.run
    assert result.comparisons[0].budgets == (30, 30)


def test_on_the_final_basis_each_method_is_read_at_its_own_final_budget():
    """The paper compares Seq-EI's final regret with the batch methods' (Sec. 6.1): on the "final" basis, the
    default, each side is read at its own final budget, and the text says both."""
    seq = 8 + LUCK
    batch = b3o("UCB-c", seq - 3.0, budgets={30: seq + 1.0})
    seq_ei = trials("Seq-EI", seq, method="seq-ei", final_budget=30, batch_size=1, iterations=20)
    claim = one(right="Seq-EI")
    assert claim.basis == "final"
    result = checking.check(claim, pd.concat([batch, seq_ei]))
    assert result.verdict == HOLDS  # 100 evaluations against Seq-EI's 30: the batch method is better
    assert "at their finals (100 vs 30 evals)" in result.measured and "compared at 30, 100 evals" in result.run
    assert result.comparisons[0].budgets == (100, 30)
    assert result.basis == "final" and "(basis: each method at its own final budget)" in claims_table.where(result)


def test_a_budget_inside_a_methods_first_batches_is_not_comparable_and_stays_out_of_holm():
    """A scheduled variant read at 25 evaluations with batches of 10 after 10 initial points has completed one BO
    iteration, its uniform first batch (λ_1 = 0): that comparison is "not comparable at this budget", is left out
    of Holm's family, and the claim says so; on the final basis both are read at their own finals."""
    seq = 8 + LUCK
    ucb_s = b3o("UCB-s", seq - 3.0, budgets={25: seq + 1.0})  # (25 − 10) // 10 = 1 iteration by 25 evaluations
    ucb_c = b3o("UCB-c", seq - 3.0, budgets={25: seq - 2.0 + 0.05 * np.sin(SEEDS)}, batch_size=5, iterations=18)
    seq_ei = trials("Seq-EI", seq, method="seq-ei", final_budget=25, batch_size=1, iterations=15)
    table = pd.concat([ucb_s, ucb_c, seq_ei])
    equal = one(left=("B3O-UCB-s", "B3O-UCB-c"), right="Seq-EI", basis="equal")
    result = checking.check(equal, table)
    by_left = {c.stat.left: c for c in result.comparisons}
    cut, read = by_left["B3O-UCB-s"], by_left["B3O-UCB-c"]
    assert cut.stat.verdict == verdicts.NOT_COMPARABLE and np.isnan(cut.stat.p_holm)
    assert read.stat.verdict == HOLDS and read.stat.p_holm == pytest.approx(read.stat.p)  # a family of one
    assert "B3O-UCB-s vs Seq-EI at 25 evals" in result.measured
    assert "→ not comparable at this budget: a method has completed fewer than 2 BO iterations" in result.measured
    assert result.verdict == "holds on 1 of 2"
    alone = checking.check(one(left=("B3O-UCB-s",), right="Seq-EI", basis="equal"), table)
    assert alone.verdict == verdicts.NOT_COMPARABLE
    # the same claim on the paper's basis: each at its own final budget, both comparable
    final = checking.check(one(left=("B3O-UCB-s", "B3O-UCB-c"), right="Seq-EI"), table)
    assert "B3O-UCB-s vs Seq-EI at their finals (100 vs 25 evals)" in final.measured
    assert "B3O-UCB-c vs Seq-EI at their finals (100 vs 25 evals)" in final.measured
    assert verdicts.NOT_COMPARABLE not in final.measured and final.verdict == HOLDS
    # Seq-EI's 15 steps against the paper's 750 travel with the claim's words wherever its verdict is shown
    assert final.claim == "test claim (here Seq-EI ran 15 sequential steps, the paper's 750)"
    assert checking.check(one(), table).claim == "test claim"  # no Seq-EI compared: nothing to say
    full = table.assign(iterations=np.where(table["method"] == "seq-ei", 750, table["iterations"]))
    assert checking.check(one(left=("B3O-UCB-c",), right="Seq-EI"), full).claim == "test claim"
    # the claims beyond the paper read the paper's final-budget claims at equal evaluations
    beyond = catalogue.claim("batch_matches_seq_ei_equal_evaluations")
    paper = catalogue.claim("batch_matches_seq_ei")
    assert (paper.basis, beyond.basis, paper.beyond_paper, beyond.beyond_paper) == ("final", "equal", False, True)
    assert beyond.pairs == paper.pairs and beyond.relation == paper.relation


def test_a_slot_with_one_member_not_comparable_reads_holds_on_k_of_n():
    seq = 8 + LUCK
    ucb_s = b3o("UCB-s", seq - 3.0, budgets={25: seq - 2.0 + 0.05 * np.sin(SEEDS)})  # one iteration by 25 evals
    ucb_c = b3o("UCB-c", seq - 3.0, budgets={25: seq - 2.0 + 0.05 * np.sin(SEEDS)}, batch_size=5, iterations=18)
    seq_ei = trials("Seq-EI", seq, method="seq-ei", final_budget=25, batch_size=1, iterations=15)
    both = Slot("B3O-UCB", claims.any_of(claims.variant("UCB-s"), claims.variant("UCB-c")))
    claim = Claim("t", "t", "here", "synthetic_b100", "better", ((both, Slot("Seq-EI", where(label="Seq-EI"))),),
                  ("hartmann6",), basis="equal")
    result = checking.check(claim, pd.concat([ucb_s, ucb_c, seq_ei]))
    assert sorted(c.stat.verdict for c in result.comparisons) == [HOLDS, verdicts.NOT_COMPARABLE]
    assert result.verdict.startswith("holds on")


# --- coverage ------------------------------------------------------------------------------------------------------


def test_partial_coverage_is_never_plain_holds_and_lists_what_is_missing():
    ts = 1 + 0.1 * LUCK  # B3O's regret half TS's or less, UCB-s's on ackley5 half as large again: never a tie
    parts = [trials("TS", ts, problem=p) for p in ("ackley5", "hartmann6")]
    parts += [b3o(v, ts - 0.5, problem=p) for v in ("UCB-c", "LogEI-c", "LogEI-s") for p in ("ackley5", "hartmann6")]
    catalogued = next(c for c in catalogue.CATALOGUE if c.name == "b3o_beats_ts_b100")
    result = checking.check(catalogued, pd.concat(parts))
    assert result.verdict == "holds on 6 of 12"
    assert "not run: Shekel (4D); Ackley (5D): B3O-UCB-s; Hartmann (6D): B3O-UCB-s" in result.measured
    worse = pd.concat(parts + [b3o("UCB-s", ts + 0.5, problem="ackley5")])
    # 7 comparisons: 8 seeds cannot reach Holm's first step (2^(1−8) · 7 > α), 9 can
    assert checking.check(catalogued, worse).verdict == INCONCLUSIVE and verdicts.fewest_seeds(7) == 9
    ts = 1 + 0.1 * np.append(LUCK, [0.7, -2.2])
    parts = [trials("TS", ts, problem=p) for p in ("ackley5", "hartmann6")]
    parts += [b3o(v, ts - 0.5, problem=p) for v in ("UCB-c", "LogEI-c", "LogEI-s") for p in ("ackley5", "hartmann6")]
    worse = pd.concat(parts + [b3o("UCB-s", ts + 0.5, problem="ackley5")])
    assert checking.check(catalogued, worse).verdict == FAILS
    assert checking.check(catalogued, worse[worse["problem"] == "nowhere"]).verdict == NOT_MEASURED


def test_table_2_counts_the_cells_it_could_check():
    ts = 1 + 0.1 * LUCK
    cell = [b3o("UCB-c", ts * (1 + 0.5 * abs(np.log10(lam) - 1)), experiment="lambda_ablation")
            for lam in (0.1, 1, 10)]
    for frame, lam in zip(cell, (0.1, 1.0, 10.0)):
        frame["lam"] = lam
        frame["trial_id"] += f"-{lam}"
    result = checking.table_2_reproduced(pd.concat(cell))
    assert result.verdict == "holds on 1 of 12"
    assert "Hartmann (6D) B3O-UCB-c (paper's λ=10, lowest mean at λ=10): " in result.measured
    assert "missing (11 of 12 cells)" in result.measured
    # both other λ shown worse than the paper's, each in the family of two
    assert [c.stat.verdict for c in result.comparisons] == [FAILS, FAILS]
    assert {(c.stat.left, c.stat.right) for c in result.comparisons} == {("λ=0.1", "λ=10"), ("λ=1", "λ=10")}


#: the λ grid of the tests below: the paper's λ of Hartmann-6 UCB-c (10) and seven others
GRID = (0.1, 0.5, 1.0, 2.0, 5.0, 20.0, 50.0)


def test_table_2_pays_for_choosing_the_lowest_mean():
    """Claim 17 compares every λ of a cell's grid with the paper's in one Holm family, not only the λ the same seeds
    picked: a pick shown better on its own (p ≈ 2^(1−8), the sign-flip floor at 8 seeds) is undecided among the seven
    comparisons it was chosen from."""
    ts = 1 + 0.1 * LUCK
    shuffle = np.random.default_rng(0)
    values = {lam: ts * (1 + 0.3 * shuffle.standard_normal(8)) for lam in GRID}
    values[1.0] = 0.5 * ts  # the pick: half the paper's regret on every seed
    table = _lambda_cell("UCB-c", {**values, 10.0: ts})
    result = checking.table_2_reproduced(table)
    assert len(result.comparisons) == len(GRID)
    assert {c.stat.right for c in result.comparisons} == {"λ=10"}
    pick = next(c for c in result.comparisons if c.stat.left == "λ=1")
    alone = verdicts.paired("λ=1", "λ=10", "hartmann6", ts - 0.5 * ts, "better")
    assert alone.p < verdicts.ALPHA  # on its own the pick is shown better than the paper's λ ...
    assert pick.stat.p_holm >= min(1.0, len(GRID) * alone.p) - 1e-12 > verdicts.ALPHA  # ... but not among seven
    assert pick.stat.verdict == INCONCLUSIVE
    assert result.verdict == INCONCLUSIVE
    assert "lowest mean at λ=1" in result.measured


def test_table_2_holds_only_where_every_other_lambda_is_shown_no_better():
    """A cell whose lowest mean is the paper's λ holds only if every other λ is shown worse or tied within the
    margin: a λ that cannot be told apart leaves the cell open (the lowest mean alone decides nothing)."""
    ts = 1 + 0.1 * LUCK
    noise = np.array([-1.0, -1.2, 0.9, -0.8, 1.1, 1.0, 0.7, -0.5])
    table = _lambda_cell("UCB-c", {0.1: 3 * ts, 1.0: ts * (1.05 + 0.5 * noise), 10.0: ts})
    result = checking.table_2_reproduced(table)
    assert "lowest mean at λ=10" in result.measured
    verdict = {c.stat.left: c.stat.verdict for c in result.comparisons}
    assert verdict == {"λ=0.1": FAILS, "λ=1": INCONCLUSIVE}
    assert result.verdict == INCONCLUSIVE and "→ the cell inconclusive" in result.measured


def _lambda_cell(name: str, values: dict[float, np.ndarray], problem: str = "hartmann6") -> pd.DataFrame:
    """λ-ablation rows of one Table 2 cell: B3O-`name` at each λ with its per-seed regrets."""
    frames = []
    for lam, regret in values.items():
        frame = b3o(name, regret, problem=problem, experiment="lambda_ablation")
        frame["lam"] = lam
        frame["trial_id"] += f"-{lam}"
        frames.append(frame)
    return pd.concat(frames)


def test_table_2_binds_on_a_cell_that_disagrees_with_the_paper():
    """Claim 17 does not hold when a cell's selected λ is shown better than the paper's; its binding comparison is
    that cell, not a cell whose pick merely ties with the paper's λ (an "equivalent" comparison, which agrees with
    Table 2 however small its TOST p)."""
    ts = 1 + 0.1 * LUCK
    wiggle = 1 + 0.05 * np.sin(np.arange(8) * 1.7)
    table = pd.concat(
        [
            # hartmann6 UCB-c (the paper's λ = 10): λ = 1 a hair better, tied within the margin -> the cell agrees
            _lambda_cell("UCB-c", {1.0: 0.99 * ts * wiggle, 10.0: ts}),
            # hartmann6 LogEI-c (the paper's λ = 0.1): λ = 1 half the regret -> the cell disagrees
            _lambda_cell("LogEI-c", {0.1: ts, 1.0: 0.5 * ts * wiggle}),
        ]
    )
    result = checking.table_2_reproduced(table)
    assert claims_table.number(result.name) == 17
    assert result.verdict == FAILS
    verdict = {c.stat.left + " vs " + c.stat.right + " " + c.unit[0]: c.stat.verdict for c in result.comparisons}
    assert set(verdict.values()) == {EQUIVALENT, HOLDS}
    tied = next(c for c in result.comparisons if c.stat.verdict == EQUIVALENT)
    apart = next(c for c in result.comparisons if c.stat.verdict == HOLDS)
    assert "the cell holds" in result.measured and "the cell does not hold" in result.measured
    assert result.binding == "Hartmann (6D): λ=1 vs λ=0.1" == wording.binding_name(apart)
    assert result.binding_mean == pytest.approx(apart.stat.mean) and result.binding_mean > 0
    # the generic rule (the most clearly failing comparison) would have named the agreeing, tied cell (both p's at
    # the sign flips' floor with 8 seeds, the tie first)
    assert tied.stat.p_equivalent_holm <= apart.stat.p_holm
    assert wording.binding(list(result.comparisons), FAILS) is tied
    # every cell agreeing: the claim holds where it was run, and no comparison binds a failure
    agreeing = checking.table_2_reproduced(_lambda_cell("UCB-c", {1.0: 0.99 * ts * wiggle, 10.0: ts}))
    assert agreeing.verdict == "holds on 1 of 12"


def test_table_2_picks_on_the_seeds_every_lambda_of_the_cell_has():
    """A λ whose trials another experiment shares can have more seeds than the rest of its cell; the pick compares
    means over the same initial designs. Here the paper's λ = 10 is best on the 8 shared seeds but has 4 more whose
    designs were lucky: over all its seeds its mean would be the lowest, and the pick would agree with the paper."""
    ts = 1 + 0.1 * LUCK
    extra = np.append(1.2 * ts, [0.01, 0.01, 0.01, 0.01])
    result = checking.table_2_reproduced(_lambda_cell("UCB-c", {1.0: ts, 10.0: extra}))
    assert "lowest mean at λ=1): λ=1 vs λ=10" in result.measured and "8 seeds" in result.measured
    assert np.mean(extra) < np.mean(ts)  # all seeds' means would have picked the paper's λ


# --- λ_1 = 0 ---------------------------------------------------------------------------------------------------------


def _tidy(
    label: str,
    method: str,
    seed: int,
    diversity: list[float],
    lam: list[float],
    regret: list[float],
    batch_size: int = 10,
    temperature: str = "",
    finished_utc: str = "2026-01-01T10:00:00+00:00",
    wall_s: float = 60.0,
) -> pd.DataFrame:
    """Tidy rows of one trial: iteration 0 (the initial design, 10 points) then one row per batch; it finished at
    `finished_utc` after `wall_s` seconds."""
    n = len(regret)
    return pd.DataFrame(
        {
            "experiment": "synthetic_b100",
            "trial_id": f"{label}-{seed}",
            "problem": "hartmann6",
            "label": label,
            "method": method,
            "acquisition": "ucb" if method == "b3o" else None,
            "temperature": temperature or None,
            "lam": 1.0 if method == "b3o" else np.nan,
            "sampler": None,
            "batch_size": batch_size,
            "iterations": n - 1,
            "n_init": 10,
            "seed": seed,
            "sense": "maximise",
            "iteration": range(n),
            "num_evals": [10 + t * batch_size for t in range(n)],
            "simple_regret": regret,
            "hypervolume": np.nan,
            "best_value": np.nan,
            "diversity": [np.nan, *diversity],
            "lambda_t": [np.nan, *lam],
            "finished_utc": finished_utc,
            "wall_s": wall_s,
        }
    )


def test_diversity_leaves_out_the_iterations_with_lambda_zero_for_every_method():
    # the scheduled variant's first batch is uniform (λ_1 = 0, diversity 1); afterwards it is more diverse than TS
    tidy = pd.concat(
        [
            _tidy("B3O-UCB-s", "b3o", s, [1.0, 0.5, 0.5], [0.0, 1.2, 2.1], [4, 3, 2, 1], temperature="scheduled")
            for s in range(6)
        ]
        + [_tidy("TS", "ts", s, [0.9, 0.3 + 0.01 * s, 0.3], [np.nan] * 3, [4, 3, 2.5, 2]) for s in range(6)]
    )
    table = per_trial.per_trial(tidy)
    final = table[table["budget"] == table["final_budget"]].set_index(["label", "seed"])
    assert final.loc[("B3O-UCB-s", 0), "diversity"] == pytest.approx(0.5)  # t = 1 left out
    assert final.loc[("TS", 2), "diversity"] == pytest.approx((0.32 + 0.3) / 2)  # t = 1 left out for TS too
    assert set(final["diversity_skipped"]) == {"1"}
    assert final.loc[("TS", 0), "diversity_first"] == 0.9 and final.loc[("TS", 0), "diversity_last"] == 0.3
    # "early": the batch a fifth into the horizon, at least the second (T = 3: t = 2)
    assert [per_trial.early_iteration(t) for t in (3, 6, 50)] == [2, 2, 10]
    assert final.loc[("TS", 2), "diversity_early"] == pytest.approx(0.32)
    assert final.loc[("B3O-UCB-s", 0), "diversity_early"] == pytest.approx(0.5)
    catalogued = next(c for c in catalogue.CATALOGUE if c.name == "b3o_more_diverse_than_ts")
    result = checking.check(catalogued, table)
    assert "(iterations t = 1 skipped: λ_t = 0)" in result.measured
    assert result.verdict == "holds on 1 of 12"


def test_per_trial_reads_each_trace_at_every_final_budget_of_its_problem():
    batch = _tidy("B3O-UCB-c", "b3o", 0, [0.5, 0.5, 0.5], [1.0] * 3, [4, 3, 2, 1], batch_size=10)  # 10..40 evals
    seq = _tidy("Seq-EI", "seq-ei", 0, [np.nan] * 3, [np.nan] * 3, [4, 3.5, 3.2, 3.1], batch_size=5)  # 10..25
    table = per_trial.per_trial(pd.concat([batch, seq]))
    values = table.set_index(["label", "budget"])["value"]
    assert values[("B3O-UCB-c", 25)] == 3  # after the last batch that fits in 25 evaluations (20)
    assert values[("B3O-UCB-c", 40)] == 1 and values[("Seq-EI", 25)] == 3.1
    assert ("Seq-EI", 40) not in values.index  # never extrapolated past its own budget


def test_per_trial_records_when_each_trial_started_and_old_tables_read_without_it(tmp_path):
    batch = _tidy("B3O-UCB-c", "b3o", 0, [0.5, 0.4, 0.3], [1.0] * 3, [4, 3, 2, 1],
                  finished_utc="2026-03-01T12:00:00+00:00", wall_s=3600.0)
    table = per_trial.per_trial(batch)
    assert set(table["started_utc"]) == {"2026-03-01T11:00:00Z"}  # its finish less its wall time
    assert set(table["diversity_early"]) == {0.4}  # t = 2 of T = 3
    path = tmp_path / "per_trial.csv"
    table.to_csv(path, index=False)
    again = per_trial.read(path)
    assert list(again["started_utc"]) == list(table["started_utc"])
    old = tmp_path / "old.csv"
    table.drop(columns=["started_utc", "diversity_early"]).to_csv(old, index=False)
    before = per_trial.read(old)  # written before the columns were recorded
    assert set(per_trial.COLUMNS) <= set(before.columns)
    assert before["diversity_early"].isna().all() and (before["started_utc"].fillna("") == "").all()
    assert claims_table.margins_status(before).startswith("Margins set after these trials")
    assert table["recommended_regret"].isna().all()  # a tidy table made before recommendations were recorded


def test_the_recommended_regret_is_read_at_the_budget_it_was_chosen_among():
    row = {"values": [[0.0]], "observations": [[0.0]], "failed": [False], "best_value": 0.0}
    record = {
        "trace": [
            {**row, "iteration": 0, "num_evals": 10},
            {**row, "iteration": 1, "num_evals": 20, "recommended_value": 1.0, "recommended_regret": 0.9,
             "recommended_evals": 10},
        ],
        "final_recommendation": {"value": 1.5, "regret": 0.4, "evals": 20},
    }
    rows = list(tidy._trace_rows(record))
    assert [(r["recommended_value"], r["recommended_regret"]) for r in rows] == [(1.0, 0.9), (1.5, 0.4)]
    batch = _tidy("B3O-UCB-c", "b3o", 0, [0.5, 0.5, 0.5], [1.0] * 3, [4, 3, 2, 1], batch_size=10)  # 10..40 evals
    seq = _tidy("Seq-EI", "seq-ei", 0, [np.nan] * 3, [np.nan] * 3, [4, 3.5, 3.2, 3.1], batch_size=5)  # 10..25
    table = per_trial.per_trial(pd.concat([batch.assign(recommended_regret=[5.0, 4.0, 3.5, 0.5]), seq]))
    recommended = table.set_index(["label", "budget"])["recommended_regret"]
    assert recommended[("B3O-UCB-c", 25)] == 4 and recommended[("B3O-UCB-c", 40)] == 0.5  # as `value` is read
    assert math.isnan(recommended[("Seq-EI", 25)])  # its rows have none


# --- engine ----------------------------------------------------------------------------------------------------------


def test_holm_adjusts_step_down():
    adjusted = verdicts.holm([0.01, 0.04, 0.03, np.nan])
    assert adjusted[:3] == pytest.approx([0.03, 0.06, 0.06]) and np.isnan(adjusted[3])


def test_comparisons_too_small_to_decide_stay_out_of_holms_family():
    enough = verdicts.Paired("a", "b", "u", 6, 1.0, 0.5, 1.5, 0.5, 0.03, tested_mean=1.0, tested_sd=0.5,
                             p_floor=verdicts.p_floor(6))
    few = verdicts.Paired("c", "d", "u", 5, 1.0, 0.5, 1.5, 0.5, 0.0625, tested_mean=1.0, tested_sd=0.5,
                          p_floor=verdicts.p_floor(5))
    decided, undecided = verdicts.decide([enough, few])
    assert decided.verdict == HOLDS and decided.p_holm == pytest.approx(0.03)  # m = 1: the 5-seed one cannot count
    assert undecided.verdict == FEW and undecided.seeds_needed == verdicts.fewest_seeds(2) == 7
    # nor does one marked not comparable at its budget: it keeps its verdict, with no Holm p and no seeds to decide
    cut = replace(enough, left="e", verdict=verdicts.NOT_COMPARABLE)
    decided, out = verdicts.decide([enough, cut])
    assert decided.p_holm == pytest.approx(0.03) and decided.verdict == HOLDS
    assert out.verdict == verdicts.NOT_COMPARABLE and np.isnan(out.p_holm) and out.seeds_needed is None
    both = verdicts.decide([enough, replace(enough, left="f")])
    assert both[0].p_holm == pytest.approx(0.06)  # for contrast: two in the family double the first step's p


def test_no_p_is_printed_below_what_the_test_attains():
    d = np.array([0.3, 0.1, 0.5, 0.2, 0.4, 0.15, 0.35])  # every seed agrees: the exact sign-flip p is 2^(1−7)
    c = verdicts.paired("a", "b", "u", d)
    assert c.p == pytest.approx(2.0**-6) and c.p_floor == pytest.approx(2.0**-6)
    assert wording.p_text(c.p) == "0.016"  # 0.015625 rounded up, never down
    assert wording.p_text(0.0625) == "0.063" and wording.p_text(1.0) == "1"


def test_the_decision_is_the_most_conservative_of_the_three_tests():
    d = np.array([2.1, 1.8, 2.4, 2.0, 1.9, 2.2, -0.5, 2.3])
    p = verdicts.one_sided(d, 0.0, "greater")
    t = stats.ttest_1samp(d, 0.0, alternative="greater").pvalue
    flips = stats.permutation_test((d,), np.mean, permutation_type="samples", alternative="greater").pvalue
    assert p == pytest.approx(max(t, flips, verdicts.hall(d[None, :], "greater")[0]))
    assert p >= flips > t  # the t-test alone would claim more than the sign flips allow


def test_the_skewness_correction_stands_aside_where_its_expansion_fails():
    """Eight seeds all on one side, strongly skewed against it (a published Formula E comparison's non-inferiority
    series): Hall's cubic is past its stationary point (γS/3 < −1), where its statistic stops growing with the
    evidence, so the t-test and the sign flips decide; the correction is symmetric in the sign of the data."""
    x = np.array([5.42, 4.39, 3.28, 5.54, 1.45, 4.49, 4.90, 5.17]) * 1e-3
    s, gamma = x.mean() / x.std(ddof=1), stats.skew(x, bias=False)
    assert gamma * s / 3 < -1
    assert verdicts.hall(x[None, :], "greater")[0] == 0.0 == verdicts.hall(-x[None, :], "less")[0]
    assert verdicts.two_sided(x, 0.0) == pytest.approx(2.0**-7)  # every seed agrees: the sign flips' floor
    y = np.array([0.8, -0.3, 1.1, 0.2, 0.9, -0.5, 0.4, 1.6, 0.1])  # a mild sample: the correction applies
    p = verdicts.hall(y[None, :], "greater")[0]
    assert 0 < p < 1 and p == pytest.approx(verdicts.hall(-y[None, :], "less")[0])


def test_a_borderline_verdict_does_not_depend_on_the_resampling_seed(monkeypatch):
    """A doctored table whose comparison sits at its level (p within 2 % of α, the Monte Carlo error of a 9,999-resample
    bootstrap p there is about 4 %): re-decided with every random generator drawing from other seeds, each p and
    verdict is the same, as no test that decides resamples (the BCa interval, shown only, moves)."""
    rng = np.random.default_rng(25)
    ts = np.exp(rng.normal(0, 0.3, 20))
    noise = 1 - rng.exponential(1.0, 20)  # skewed: the rule before's bootstrap-t bound here, at its seed

    def table(shift: float) -> pd.DataFrame:
        return pd.concat([b3o("UCB-c", ts * np.exp(-shift - 0.5 * noise)), trials("TS", ts)])

    lo, hi = 0.0, 2.0  # the shift that puts the Holm p at α: bisection on the engine's own p
    for _ in range(40):
        mid = (lo + hi) / 2
        p = checking.check(one(), table(mid)).comparisons[0].stat.p_holm
        lo, hi = (lo, mid) if p < verdicts.ALPHA else (mid, hi)
    borderline = table(hi)
    first = checking.check(one(), borderline).comparisons[0].stat
    assert abs(first.p_holm / verdicts.ALPHA - 1) < 0.02 and first.verdict == HOLDS
    from analysis.data import resampling

    for seed in (1, 17, 12345):  # the one resampling seed, wherever the engine reads it
        monkeypatch.setattr(resampling, "SEED", seed)
        monkeypatch.setattr(verdicts, "SEED", seed, raising=False)
        again = checking.check(one(), borderline).comparisons[0].stat
        assert (again.p, again.p_holm, again.p_equivalent, again.verdict) == (
            first.p, first.p_holm, first.p_equivalent, first.verdict)
    assert (again.lo, again.hi) != (first.lo, first.hi)  # the other seed did draw other resamples


def test_bca_interval_is_seeded_and_brackets_the_mean():
    d = np.array([0.3, -0.1, 0.5, 0.2, 0.4, 0.1])
    a, b = verdicts.paired("a", "b", "u", d), verdicts.paired("a", "b", "u", d)
    assert a == b and a.lo < a.mean < a.hi and a.mean == pytest.approx(d.mean())
    bca = stats.bootstrap((d,), np.mean, method="BCa", n_resamples=9999, rng=np.random.default_rng(0))
    assert (a.lo, a.hi) == pytest.approx(tuple(bca.confidence_interval))


def test_combine_with_coverage():
    assert verdicts.combine([HOLDS, HOLDS], 2) == HOLDS
    assert verdicts.combine([HOLDS, HOLDS], 3) == "holds on 2 of 3"
    assert verdicts.combine([HOLDS, INCONCLUSIVE], 2) == INCONCLUSIVE
    assert verdicts.combine([HOLDS, FAILS], 5) == FAILS
    assert verdicts.combine([HOLDS, EQUIVALENT], 2) == FAILS  # a tie refutes "better"
    assert verdicts.combine([], 3) == NOT_MEASURED


# --- README block -----------------------------------------------------------------------------------------------------


def test_readme_glance_and_claims_blocks_are_rewritten_from_the_claims_tables(tmp_path):
    """The full claims table goes where its markers are (docs); the glance in the README takes each claim from the
    largest run that measured it, with the binding comparison's advantage and CI."""
    from analysis.presentation import readme as readme_claims

    default = pd.DataFrame(
        {
            "number": [1, 2],
            "claim": ["A | B", "C"],
            "source": ["Sec. 1", "Sec. 2"],
            "run": ["B = 50, T = 6; 5 seeds", "–"],
            "verdict": [HOLDS, NOT_MEASURED],
            "seeds_needed": [None, None],
            "binding": ["hartmann6: A vs B", ""],
            "binding_mean": [0.25, np.nan],
            "binding_lo": [0.1, np.nan],
            "binding_hi": [0.4, np.nan],
        }
    )
    extended = default.assign(
        verdict=[NOT_MEASURED, INCONCLUSIVE], binding=["", "shekel4: C vs D"], binding_mean=[np.nan, -0.5],
        binding_lo=[np.nan, -1.0], binding_hi=[np.nan, 0.2], seeds_needed=[None, 12],
    )
    default.to_csv(tmp_path / "default.csv", index=False)
    extended.to_csv(tmp_path / "extended.csv", index=False)
    readme, docs = tmp_path / "README.md", tmp_path / "results.md"
    readme.write_text("intro\n{}\nold glance\n{}\nafter\n".format(*markers("glance")))
    docs.write_text("{}\nold verdicts\n{}\n".format(*markers("claims")))
    args = ["--into", str(readme), str(docs), "--claims", f"default={tmp_path / 'default.csv'}",
            f"extended={tmp_path / 'extended.csv'}"]
    assert readme_claims.main(args) == 0
    glance, full = readme.read_text(), docs.read_text()
    assert glance.startswith("intro\n") and glance.endswith("\nafter\n") and "old glance" not in glance
    run = f"`{tmp_path.as_posix()}`"  # a run workflow/site.yaml does not name is called by its directory
    assert f"| 1 | A \\| B | **holds** | hartmann6: A vs B: +0.25 [0.1, 0.4] | {run} |" in glance
    assert f"| 2 | C | **inconclusive** | shekel4: C vs D: -0.5 [-1, 0.2] | {run} |" in glance
    assert "| 1 | A \\| B (Sec. 1) | B = 50, T = 6; 5 seeds | holds |" in full and verdicts.RULES[0] in full
    readme.write_text("no markers\n")
    docs.write_text("no markers\n")
    assert readme_claims.main(args) == 2
    assert readme_claims.main(["--into", str(readme), "--claims", f"mine={tmp_path / 'default.csv'}"]) == 2


# --- rows beyond the paper ------------------------------------------------------------------------------------------


def test_the_scale_free_lambda_row_is_not_one_of_the_papers_batch_methods():
    """Claims about "batch methods" (vs random, best batch method) cover the paper's methods; B3O-LogEI-n is ours."""
    normalised = trials("B3O-LogEI-n", 13.0 + LUCK, method="b3o", acquisition="logei", temperature="normalised")
    table = pd.concat([b3o("LogEI-c", 5.0 + LUCK), trials("TS", 7.0 + LUCK), normalised])
    selected = table.loc[claims.batch_method(table), "label"].unique()
    assert set(selected) == {"B3O-LogEI-c", "TS"}
    best = checking.check(next(c for c in catalogue.CATALOGUE if c.name == "logei_c_best_batch"), table)
    assert best.verdict.startswith("holds on")  # ackley5 not run; the far worse B3O-LogEI-n is not compared
    tuned = checking.check(next(c for c in catalogue.CATALOGUE if c.name == "normalised_lambda_matches_tuned"), table)
    assert tuned.verdict == FAILS and tuned.beyond_paper


def test_the_automatic_temperature_is_compared_with_the_same_variant_at_the_papers_lambda():
    """auto_matches_tuned pairs each automatic variant with its own acquisition's constant-λ form, on Shekel and
    Ackley only (Hartmann-6, where the constant was tuned, is its own claim); an automatic row is no batch method."""
    def auto(acquisition: str, values, problem: str) -> pd.DataFrame:
        return trials(f"B3O-{acquisition}-auto", values, problem=problem, experiment="auto_synthetic", method="b3o",
                      acquisition=acquisition, temperature="auto", sampler="defer")

    table = pd.concat(
        [
            frame
            for problem in ("shekel4", "ackley5", "hartmann6")
            for frame in (
                b3o("LogEI-c", 5.0 + LUCK, problem=problem, experiment="auto_synthetic"),
                b3o("UCB-c", 5.0 + LUCK, problem=problem, experiment="auto_synthetic"),
                auto("logei", 5.0 + LUCK + 0.001 * np.arange(8), problem),  # within every margin
                auto("ucb", 13.0 + LUCK, problem),  # far worse
            )
        ]
    )
    out = checking.check(catalogue.claim("auto_matches_tuned"), table)
    pairs = {part.split(" at ")[0].split(": ")[-1] for part in re.split(r"\n|; ", out.measured) if " vs " in part}
    assert pairs == {"B3O-logei-auto vs B3O-LogEI-c", "B3O-ucb-auto vs B3O-UCB-c"}
    assert "Hartmann" not in out.measured and "Shekel (4D)" in out.measured and "Ackley (5D)" in out.measured
    assert out.verdict == FAILS and out.beyond_paper  # UCB's automatic row is worse by far more than the margin
    assert not claims.batch_method(table[table["temperature"] == "auto"]).any()


def test_the_automatic_outcome_joins_each_comparison_with_both_temperatures_densities(tmp_path):
    """claims_table --comparisons writes each comparison as numbers; analysis.tables.automatic joins the test's with
    the density diagnostics of both sides (by label and λ) and counts the goal per variant, EHVI counting for both."""
    from analysis.presentation import readme
    from analysis.tables import automatic, claims_table

    def auto(name: str, values, problem: str, experiment: str = "auto_synthetic", **kw) -> pd.DataFrame:
        return trials(f"B3O-{name}-auto", values, problem=problem, experiment=experiment, method="b3o",
                      acquisition=name.lower(), temperature="auto-tail", sampler="defer", **kw)

    synthetic = pd.concat(
        [
            frame
            for problem, lam in (("shekel4", 5.0), ("ackley5", 1.0))
            for frame in (
                b3o("LogEI-c", 5.0 + LUCK, problem=problem, experiment="auto_synthetic").assign(lam=lam),
                b3o("UCB-c", 5.0 + LUCK, problem=problem, experiment="auto_synthetic"),
                auto("LogEI", 5.0 + LUCK + 0.001 * np.arange(8), problem),  # within every margin
                auto("UCB", 13.0 + LUCK, problem),  # far worse
            )
        ]
    )
    battery = pd.concat(
        [
            trials("B3O-EHVI-c", 1e5 + 1e3 * LUCK, problem="battery", experiment="auto_battery", method="b3o",
                   acquisition="ehvi", temperature="constant", lam=1.0, sampler="defer", lower_is_better=False,
                   final_budget=140),
            auto("EHVI", 1e5 + 1e3 * LUCK + 10.0, "battery", "auto_battery", lower_is_better=False, final_budget=140),
        ]
    )
    results = [
        checking.check(catalogue.claim("auto_matches_tuned"), synthetic),
        checking.check(catalogue.claim("auto_matches_paper_battery"), battery),
    ]
    rows = claims_table.comparisons(results)
    assert list(rows.columns) == claims_table.COMPARISON_COLUMNS and len(rows) == 5
    ucb = rows[rows["left"] == "B3O-UCB-auto"]
    assert np.allclose(ucb["mean"], -8.0) and set(ucb["verdict"]) == {FAILS}  # B − A: 5 − 13 per seed
    assert set(rows.loc[rows["left"] == "B3O-LogEI-c λ=5", "problem"]) == set()  # the rival is always on the right
    assert set(rows.loc[rows["left"] == "B3O-LogEI-auto", "right"]) == {"B3O-LogEI-c λ=5", "B3O-LogEI-c λ=1"}

    def density(experiment, problem, label, lam, lambda_t, diversity):
        return {"experiment": experiment, "problem": problem, "label": label, "lam": lam, "lambda_t_median": lambda_t,
                "ess_fraction_median": diversity / 100, "relative_diversity_median": diversity}

    diagnostics = pd.DataFrame(
        [density("auto_synthetic", p, "B3O-LogEI-c", lam, lam, 0.1) for p, lam in (("shekel4", 5.0), ("ackley5", 1.0))]
        + [density("auto_synthetic", p, "B3O-LogEI-c", 0.1, 0.1, 0.9) for p in ("shekel4", "ackley5")]  # other λ
        + [density("auto_synthetic", p, "B3O-UCB-c", 1.0, 1.0, 0.2) for p in ("shekel4", "ackley5")]
        + [density("auto_synthetic", p, f"B3O-{v}-auto", np.nan, 0.3, 0.5) for p in ("shekel4", "ackley5")
           for v in ("LogEI", "UCB")]
        + [density("auto_battery", "battery", "B3O-EHVI-c", 1.0, 1.0, 0.6),
           density("auto_battery", "battery", "B3O-EHVI-auto", np.nan, 0.7, 0.61)]
    )
    table = automatic.outcome(rows, diagnostics).set_index(["problem", "variant"])
    assert table.loc[("ackley5", "LogEI"), "paper_lam"] == 1.0 and table.loc[("shekel4", "LogEI"), "paper_lam"] == 5.0
    assert table.loc[("ackley5", "LogEI"), "rival_diversity"] == 0.1  # the paper's λ's row, not λ = 0.1's
    assert table.loc[("battery", "EHVI"), "auto_lambda_t_median"] == 0.7
    assert automatic.goal(table.reset_index()).set_index("variant")[["held", "problems"]].to_dict("index") == {
        "LogEI": {"held": 3, "problems": 3},
        "UCB": {"held": 1, "problems": 3},
    }
    block = readme.automatic_block(table.reset_index(), "automatic.csv")
    assert "LogEI on 3 of 3 and UCB on 1 of 3 problems run" in block
    assert "Ackley (5D) (UCB): flatter than" in block and "Battery" not in block.split("Where it is not shown")[-1]
    # a README with only the one-line goal, a doc with the table: each gets its own form from the same table
    source = tmp_path / "automatic.csv"
    table.reset_index().to_csv(source, index=False)
    short, full = tmp_path / "README.md", tmp_path / "auto.md"
    short.write_text("a\n<!-- automatic_goal:begin -->\n<!-- automatic_goal:end -->\nb\n")
    full.write_text("<!-- automatic:begin -->\n<!-- automatic:end -->\n")
    assert readme.main(["--into", str(short), "--automatic", str(source)]) == 0
    assert "LogEI on 3 of 3" in short.read_text() and "| problem |" not in short.read_text()
    assert readme.main(["--into", str(short), str(full), "--automatic", str(source)]) == 0
    assert "| Ackley (5D) | UCB |" in full.read_text() and short.read_text().startswith("a\n<!-- automatic_goal:begin")


def test_the_workflow_knows_the_automatic_temperature_s_experiments():
    """The Snakefile names the test's experiments without importing the claims; they must be the claims'."""
    from pathlib import Path

    text = (Path(__file__).parents[1] / "workflow" / "rules" / "common.smk").read_text()
    named = set(re.findall(r'"(\w+)"', re.search(r"AUTO_EXPERIMENTS = \(([^)]*)\)", text).group(1)))
    from analysis.tables.automatic import CLAIMS

    assert named == {catalogue.claim(name).experiment for name in CLAIMS}


def test_a_question_beyond_the_paper_is_listed_only_where_its_experiment_ran():
    table = pd.concat([b3o("LogEI-c", 5.0 + LUCK), trials("TS", 7.0 + LUCK)])  # synthetic_b100 only
    results = {r.name: r for r in checking.check_all(table)}
    assert results["battery_matches_seq_ehvi"].verdict == NOT_MEASURED  # the paper's claims: all, run or not
    assert "normalised_lambda_matches_tuned" in results  # ours on synthetic_b100
    assert "collapsed_fit_matches_default" not in results and "auto_matches_paper_battery" not in results


def test_the_collapsed_fit_is_compared_with_the_default_fit_of_the_same_variant():
    table = pd.concat(
        [
            b3o("LogEI-c", 5.0 + LUCK, experiment="collapsed_fit"),
            b3o("LogEI-c", 5.0 + LUCK + 0.01, experiment="collapsed_fit").assign(label="B3O-LogEI-c-collapsed"),
        ]
    )
    out = checking.check(catalogue.claim("collapsed_fit_matches_default"), table)
    assert "B3O-LogEI-c-collapsed vs B3O-LogEI-c at" in out.measured
    assert out.verdict.startswith("holds on")  # UCB-c and Ackley not run: never plain "holds"


def test_counts_keep_the_papers_claims_apart_from_ours():
    results = [
        checking.Result("a", "", "", "", "", "", HOLDS),
        checking.Result("b", "", "", "", "", "", INCONCLUSIVE),
        checking.Result("c", "", "", "", "", "", HOLDS, beyond_paper=True),
    ]
    assert wording.counts(results) == "the paper's 2 claims: holds: 1, inconclusive: 1; 1 beyond the paper: holds: 1"
    # numbered in the catalogue's order, Table 2 before the ablation claims: claim 33, the paper's reading of Sec. 6.3
    # per function evaluation once counted as ours, keeps its number among ours
    names = [n for n in checking.CLAIMS if n != "table_2_reproduced"]
    assert names == [c.name for c in catalogue.CATALOGUE]
    assert list(checking.CLAIMS).index("table_2_reproduced") == names.index("ucb_c_low_lambda_worse")


# --- margins set before the trials ----------------------------------------------------------------------------------


def _committed(monkeypatch, when: str) -> None:
    from problems import margins

    moment = int(pd.Timestamp(when).timestamp())
    monkeypatch.setattr(margins, "margins_commit", lambda root=None: ("0123456789abcdef", moment))


def test_the_margins_status_compares_the_margins_commit_with_the_trials_starts(monkeypatch):
    ts = 1 + 0.1 * LUCK
    _committed(monkeypatch, "2026-06-01T12:00:00Z")
    earlier = pd.concat([b3o("UCB-c", ts), trials("TS", ts, started_utc="2026-05-01T00:00:00Z")])
    line = claims_table.margins_status(earlier)
    assert line.startswith("Margins set after these trials:") and "0123456789" in line
    assert "2026-06-01 12:00 UTC" in line and "oldest trial judged here started (2026-01-01 00:00 UTC)" in line
    later = pd.concat([b3o("UCB-c", ts, started_utc="2100-01-01T00:00:00Z"),
                       trials("TS", ts, started_utc="2100-02-01T00:00:00Z")])
    line = claims_table.margins_status(later)
    assert line.startswith("Margins set before these trials:") and "(2100-01-01 00:00 UTC)" in line
    # one trial that started before the commit is enough to say "after"
    one_early = pd.concat([later, trials("Random", ts, started_utc="2026-05-31T23:00:00Z")])
    assert claims_table.margins_status(one_early).startswith("Margins set after these trials:")
    # start times unknown: no trial can be shown to postdate the margins
    for unknown in (later.assign(started_utc=np.nan), later.assign(started_utc=""), later.drop(columns="started_utc")):
        line = claims_table.margins_status(unknown)
        assert line.startswith("Margins set after these trials:") and "start times are unknown" in line
    # a margins file with uncommitted changes (or no git): "after"
    monkeypatch.setattr(claims_table.margins, "margins_commit", lambda root=None: None)
    assert claims_table.margins_status(later).startswith("Margins set after these trials: `problems/margins.yaml` has")
    assert claims_table.markdown([], "t.csv", ["Margins set after these trials: x."]).count("Margins set after") == 1


def test_the_margins_status_needs_every_trials_start_time_whatever_its_rows(monkeypatch):
    ts = 1 + 0.1 * LUCK
    _committed(monkeypatch, "2026-06-01T12:00:00Z")
    known = b3o("UCB-c", ts, budgets={30: ts, 50: ts}, started_utc="2100-01-01T00:00:00Z")  # 3 rows per trial
    unknown = trials("TS", ts, started_utc="")
    line = claims_table.margins_status(pd.concat([known, unknown]))
    assert line.startswith("Margins set after these trials:") and "start times are unknown" in line


def test_the_margins_commit_is_the_last_commit_of_the_margins_file(tmp_path):
    import subprocess

    from problems import margins

    assert margins.margins_commit(tmp_path) is None  # no git history there
    found = margins.margins_commit()
    dirty = subprocess.run(["git", "status", "--porcelain", "--", str(margins.FILE)], cwd=margins.FILE.parent,
                           capture_output=True, text=True).stdout.strip()
    if found is None:
        assert dirty or not (margins.FILE.parent.parent / ".git").exists()
        pytest.skip("the margins file has uncommitted changes or no git history here")
    sha, when = found
    log = subprocess.run(["git", "log", "--format=%H %ct", "--", str(margins.FILE)], cwd=margins.FILE.parent,
                         capture_output=True, text=True, check=True).stdout.split("\n")
    assert f"{sha} {when}" in log and len(sha) == 40
    # against the real commit: trials of 2100 started after it, trials of 2000 before it
    ts = 1 + 0.1 * LUCK
    assert claims_table.margins_status(trials("TS", ts, started_utc="2100-01-01T00:00:00Z")).startswith(
        f"Margins set before these trials: `problems/margins.yaml` last changed a margin in {sha[:10]}")
    assert claims_table.margins_status(trials("TS", ts, started_utc="2000-01-01T00:00:00Z")).startswith(
        "Margins set after these trials")


def test_the_margins_commit_skips_commits_that_only_reword_the_rule(tmp_path, monkeypatch):
    """The margins' date is the last commit that changed a margin: rewording the rule's sentence (as the bioequivalence
    aside was) sets none, so it leaves every run's "margins set before/after" as it was."""
    import subprocess

    from problems import margins

    def commit(text: str, when: str) -> str:
        (tmp_path / "margins.yaml").write_text(text)
        env = {"GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when, "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
        for args in (["add", "margins.yaml"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", when]):
            subprocess.run(["git", *args], cwd=tmp_path, check=True, env=env)
        return subprocess.run(["git", "rev-parse", "HEAD"], cwd=tmp_path, capture_output=True, text=True,
                              check=True).stdout.strip()

    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    monkeypatch.setattr(margins, "FILE", tmp_path / "margins.yaml")
    commit("rule: first words\nregret_ratio: 1.5\n", "2026-01-01T00:00:00Z")
    values = commit("rule: first words\nregret_ratio: 1.25\n", "2026-02-01T00:00:00Z")
    commit("rule: better words\nregret_ratio: 1.25\n", "2026-03-01T00:00:00Z")
    assert margins.margins_commit(tmp_path) == (values, int(pd.Timestamp("2026-02-01T00:00:00Z").timestamp()))
    changed = commit("rule: better words\nregret_ratio: 1.2\n", "2026-04-01T00:00:00Z")
    assert margins.margins_commit(tmp_path)[0] == changed


def _git_commit(repo, path: str, text: str, when: str) -> str:
    """Commit `text` as `path` in the test repository `repo` at time `when`; its sha."""
    import subprocess

    (repo / path).parent.mkdir(parents=True, exist_ok=True)
    (repo / path).write_text(text)
    env = {"GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when, "HOME": str(repo), "PATH": "/usr/bin:/bin"}
    for args in (["add", path], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", when]):
        subprocess.run(["git", *args], cwd=repo, check=True, env=env)
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, check=True).stdout[:10]


def test_the_rules_history_follows_a_module_through_its_move(tmp_path):
    """A verdict-engine module moved to another package (issue 70) keeps the changes it had before the move: the
    rules' history is not restarted at the move, so "as they stood then" still finds the change before a run."""
    import subprocess

    from analysis.tables import dating

    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    before = _git_commit(repo, "statistics/rule.py", "LEVEL = 0.95\n" * 20, "2026-01-01T00:00:00Z")
    (repo / "data").mkdir()
    subprocess.run(["git", "mv", "statistics/rule.py", "data/rule.py"], cwd=repo, check=True)
    moved = _git_commit(repo, "data/rule.py", "LEVEL = 0.95\n" * 20 + "# moved\n", "2026-02-01T00:00:00Z")
    found = dating.history((repo / "data" / "rule.py",))
    assert [(c.sha[:10], f"{c.when:%Y-%m-%d}") for c in found] == [(moved, "2026-02-01"), (before, "2026-01-01")]


def test_claims_md_dates_the_first_publication_the_margins_and_the_rules(tmp_path, monkeypatch):
    """Every claims.md states when its results were first published (the oldest commit of the run's per-trial table
    that showed these trials with these values), and dates the margins and the rules against the earlier of that
    and the oldest trial's start: a run recomputed from fresh trials after its values were published cannot claim
    margins or rules set "before these trials"."""
    import subprocess

    from analysis.tables import dating

    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    ts = 1 + 0.1 * LUCK
    fresh = pd.concat([b3o("UCB-c", ts - 0.5, started_utc="2026-02-01T00:00:00Z"),
                       trials("TS", ts, started_utc="2026-02-01T06:00:00Z")])
    table = "tables/per_trial.csv"
    _git_commit(repo, table, fresh.assign(value=fresh["value"] + 1).to_csv(index=False), "2025-12-01T00:00:00Z")
    first = _git_commit(repo, table, fresh[fresh["label"] == "TS"].to_csv(index=False), "2026-01-01T00:00:00Z")
    complete = _git_commit(repo, table, fresh.to_csv(index=False), "2026-01-02T00:00:00Z")
    published = repo / table
    found = dating.first_published(fresh, published)
    assert (found.first.sha[:10], found.shared, found.total, found.complete.sha[:10]) == (first, 8, 16, complete)
    _committed(monkeypatch, "2026-01-15T00:00:00Z")  # the margins: after the publication, before the trials
    rules = [dating.Commit("f" * 40, pd.Timestamp("2026-03-01", tz="UTC")),
             dating.Commit("e" * 40, pd.Timestamp("2025-12-15", tz="UTC"))]
    monkeypatch.setattr(dating, "history", lambda paths: rules)
    lines = claims_table.dates(fresh, published)
    assert lines[0] == (
        f"First published: 8 of these 16 trials with the values judged here in {first} (2026-01-01 00:00 UTC), all of "
        f"them in {complete} (2026-01-02 00:00 UTC), before the oldest trial judged here started (2026-02-01 00:00 UTC):"
        " these trials recomputed them.")
    assert lines[1] == (
        "Margins set after these results were first published: `problems/margins.yaml` last changed a margin in "
        "0123456789 (2026-01-15 00:00 UTC), after identical results were first published (2026-01-01 00:00 UTC), "
        "though before the oldest trial judged here started (2026-02-01 00:00 UTC).")
    assert lines[2].startswith("Rules set after these results were first published: the verdict engine and claim "
                               "catalogue (`analysis.statistics.verdicts`, ")
    assert lines[2].endswith("last changed in ffffffffff (2026-03-01 00:00 UTC), after identical results were first "
                             "published (2026-01-01 00:00 UTC), and after the oldest trial judged here started "
                             "(2026-02-01 00:00 UTC); as they stood then, they had last changed in eeeeeeeeee "
                             "(2025-12-15 00:00 UTC).")
    # never published: the trials' start dates them; rules older than the trials say "before"
    monkeypatch.setattr(dating, "history", lambda paths: rules[1:])
    lines = claims_table.dates(fresh, tmp_path / "elsewhere" / table)
    assert lines[0].startswith("First published: here")
    assert lines[1].startswith("Margins set before these trials:")
    assert lines[2].startswith("Rules set before these trials:") and lines[2].endswith(
        "before the oldest trial judged here started (2026-02-01 00:00 UTC).")
    # the claims table writes them into claims.md
    fresh.to_csv(tmp_path / "per_trial.csv", index=False)
    out = tmp_path / "run" / "claims"
    assert claims_table.main(["--table", str(tmp_path / "per_trial.csv"), "--out", str(out),
                              "--published", str(published)]) == 0
    md = out.with_suffix(".md").read_text()
    for line in claims_table.dates(fresh, published):
        assert f"\n{line}\n" in md


def test_the_horizon_run_states_its_first_publication():
    """paper/horizon's trials started after the margins were set, but the same values were published a day before:
    its claims.md must say so (from git history; skipped where the history is absent, as in a shallow clone)."""
    import subprocess

    from analysis.data import per_trial as per_trial_table

    root = Path(claims_table.__file__).parents[2]
    known = subprocess.run(["git", "cat-file", "-e", "eba6ade816^{commit}"], cwd=root, capture_output=True)
    if known.returncode != 0:
        pytest.skip("the horizon run's publication history is not in this clone")
    published = root / "paper" / "horizon" / "tables" / "per_trial.csv"
    lines = claims_table.dates(per_trial_table.load(published), published)
    assert lines[0].startswith("First published: 80 of these 120 trials with the values judged here in 648f05d7f7 "
                               "(2026-11-27 02:27 UTC), all of them in eba6ade816 (2026-11-27 03:11 UTC), before")
    assert lines[1].startswith("Margins set after these results were first published:")


def test_the_catalogue_reads_the_paper_where_the_paper_reads_it():
    """Each claim's basis and paraphrase; the claims whose wording changed with the paper re-read."""
    for c in catalogue.CATALOGUE:
        assert c.basis in comparisons.BASES
    assert all(c.paper for c in catalogue.PAPER)
    assert catalogue.claim("ts_diversity_drops").quantity == ("diversity_first", "diversity_early")
    low = catalogue.claim("ucb_c_low_lambda_worse")
    assert [(a.name, b.name) for a, b in low.pairs] == [
        ("UCB-c λ=5", "UCB-c λ=0.1"), ("UCB-c λ=5", "UCB-c λ=1"), ("UCB-c λ=10", "UCB-c λ=0.1"),
        ("UCB-c λ=10", "UCB-c λ=1"),
    ]
    defer = catalogue.claim("defer_best_sampler")
    assert [a.name for a, _ in defer.pairs] == ["B3O-UCB-c DEFER", "B3O-UCB-s DEFER"] or all(
        "UCB" in a.name and "LogEI" not in a.name for a, _ in defer.pairs
    )
    assert len(defer.pairs) == 2
    for name in ("batch_matches_seq_ei", "seq_ei_best_on_shekel", "formula_e_b3o_best"):
        paper, ours = catalogue.claim(name), catalogue.claim(f"{name}_equal_evaluations")
        assert paper.basis == "final" and not paper.beyond_paper
        assert ours.basis == "equal" and "at equal evaluations" in ours.text
        assert "each at its own final budget" not in ours.text
        assert ours.pairs == paper.pairs and ours.relation == paper.relation
    # Sec. 6.3 reads Formula E per function evaluation too ("B3O dominates throughout"): the paper's claim, not ours
    formula_e = catalogue.claim("formula_e_b3o_best_equal_evaluations")
    assert not formula_e.beyond_paper and "ours" not in formula_e.text and formula_e.source.startswith("Sec. 6.3")
    assert "dominates throughout" in formula_e.paper and formula_e in catalogue.PAPER
    assert all(catalogue.claim(f"{n}_equal_evaluations").beyond_paper for n in ("batch_matches_seq_ei",
                                                                             "seq_ei_best_on_shekel"))
    # a claim keeps its number whether it is the paper's or beyond it
    numbers = {name: claims_table.number(name) for name in checking.CLAIMS}
    assert (numbers["table_2_reproduced"], numbers["formula_e_b3o_best_equal_evaluations"]) == (17, 33)
    assert (numbers["auto_matches_tuned"], numbers["collapsed_fit_matches_default_m500_confirm"]) == (21, 35)
    # claim 7 says how it reads the paper's sentence, which names no acquisition: both constant variants
    constant = catalogue.claim("constant_beats_ts")
    assert "read as both constant variants" in constant.text and "either" in constant.paper
    assert {a.name for a, _ in constant.pairs} == {"B3O-UCB-c", "B3O-LogEI-c"}
    with pytest.raises(ValueError, match="unknown comparison basis"):
        comparisons.sides(trials("TS", 1 + 0.1 * LUCK).assign(member="TS"), "TS", "TS", basis="halfway")


# --- across problems -----------------------------------------------------------------------------------------------


def test_probability_of_improvement_pairs_by_seed_and_stratifies_by_problem():
    ts = 10 + LUCK
    wins = np.array([1, 1, 1, 1, 1, 1, -1, -1])  # B3O better on 6 of 8 seeds on hartmann6, on all 8 on ackley5
    table = pd.concat(
        [
            b3o("UCB-c", ts - 0.5 * wins),
            trials("TS", ts),
            b3o("UCB-c", ts - 0.5, problem="ackley5"),
            trials("TS", ts, problem="ackley5"),
        ]
    )
    found = comparisons.improvement(
        table, "synthetic_b100", claims.PAPER_VARIANTS, where(method="ts"), ("a B3O variant", "TS")
    )
    assert found.probability == pytest.approx((6 / 8 + 1) / 2)
    assert found.problems == ("hartmann6", "ackley5") and found.seeds == (8, 8)
    assert found.lo <= found.probability <= found.hi < 1.0 + 1e-12
    catalogued = next(c for c in catalogue.CATALOGUE if c.name == "b3o_beats_ts_b100")
    assert (
        "probability of improvement P(a B3O variant better than TS) = 0.88"
        in checking.check(catalogued, table).measured
    )


def test_readme_size_section_is_written_from_the_simulation_table(tmp_path):
    from analysis.presentation import readme as readme_claims

    rows = [
        ("size", "lognormal", 0.5, 0.0, n, rule, rate)
        for n, (new, old) in {5: (0.0, 0.19), 10: (0.05, 0.12)}.items()
        for rule, rate in (("new", new), ("old", old))
    ]
    table = pd.DataFrame(rows, columns=["kind", "distribution", "sigma", "effect", "n", "rule", "rate"])
    table.assign(replications=10_000).to_csv(tmp_path / "size.csv", index=False)
    begin, end = markers("verdict_size")
    readme = tmp_path / "README.md"
    readme.write_text(f"{begin}\n{end}\n")
    assert readme_claims.main(["--into", str(readme), "--verdict-size", str(tmp_path / "size.csv")]) == 0
    text = readme.read_text()
    assert "| size, lognormal σ = 0.5 | 0.000 / 0.190 | 0.050 / 0.120 |" in text and "10,000 simulated" in text
    # the README's one line: the worst null rate apart, the mildest distributions' worst, power at the most seeds
    rows = [("size", "normal", np.nan, 0.0, 10, "new", 0.04), ("size", "lognormal", 1.0, 0.0, 10, "new", 0.09),
            ("size", "normal", np.nan, 0.0, 10, "old", 0.2), ("power", "normal", np.nan, 0.83, 5, "new", 0.1),
            ("power", "normal", np.nan, 0.83, 10, "new", 0.56)]
    table = pd.DataFrame(rows, columns=["kind", "distribution", "sigma", "effect", "n", "rule", "rate"])
    table.assign(replications=10_000).to_csv(tmp_path / "size.csv", index=False)
    begin, end = markers("verdict_size_line")
    readme.write_text(f"{begin}\n{end}\n")
    assert readme_claims.main(["--into", str(readme), "--verdict-size", str(tmp_path / "size.csv")]) == 0
    assert ("at most 0.040 of null comparisons at α = 0.05 (up to 0.090 for lognormal σ = 1 differences), and 0.56 "
            "of comparisons with a true effect of 0.83 SD at 10 seeds") in readme.read_text()


# --- planned looks ---------------------------------------------------------------------------------------------------


def test_under_planned_looks_a_clear_comparison_is_decided_at_the_first_look_and_a_close_one_later():
    """Seeds 0..19 exist; looks at 10, 15, 20 (Pocock-type spending). A large advantage is decided on the first 10
    seeds; one whose first 10 seeds are all noise is decided only when its later seeds come in."""
    rng = np.random.default_rng(3)
    luck = 2 + 0.3 * rng.standard_normal(20)  # positive regrets: a ratio margin takes their logs
    clear = luck - 0.5 + 0.02 * rng.standard_normal(20)
    late = luck - np.r_[0.4 * luck[:10] * rng.standard_normal(10), 1.0 + 0.05 * rng.standard_normal(10)]
    table = pd.concat([b3o("UCB-c", clear), b3o("LogEI-c", late), trials("TS", luck)])
    claim = one(left=("B3O-UCB-c", "B3O-LogEI-c"))
    result = checking.check(claim, table, {"synthetic_b100": (10, 15, 20)})
    lines = result.measured.splitlines()[0].split("; ")
    assert "B3O-UCB-c vs TS" in lines[0] and "10 seeds at look 1 → holds" in lines[0]
    assert "B3O-LogEI-c vs TS" in lines[1] and "at look 1 → holds" not in lines[1]
    assert result.verdict == HOLDS and ("at look 2 → holds" in lines[1] or "at look 3 → holds" in lines[1])
    fixed = checking.check(claim, table)  # the same data as one fixed design: no look named
    assert "at look" not in fixed.measured
    # seeds numbered from 100 (`seeds: {first: 100, …}`): looks count seeds by rank, so the verdicts are the same
    shifted = checking.check(claim, table.assign(seed=table["seed"] + 100), {"synthetic_b100": (10, 15, 20)})
    assert shifted.measured == result.measured


def test_a_look_decides_at_its_level_in_the_whole_plan_as_the_claims_do():
    """The look checkpoint (`analysis.claims.looks`) must call open what the claims table will call open: at look 1
    of the plan 10/15/20 the level is Pocock's, below α. A comparison decided at α but not at that level stays open (its
    settings get the next look's seeds); cutting the plan at the look would have stopped it."""
    from analysis.claims.looks import open_trials

    rng = np.random.default_rng(4)  # one where the two levels disagree
    luck = np.exp(rng.normal(0, 0.3, 10))  # positive regrets: a ratio margin takes their logs
    advantage = rng.uniform(0.3, 1.0) + rng.uniform(0.3, 1.2) * rng.standard_normal(10)  # in log regret
    table = pd.concat([b3o("UCB-c", luck * np.exp(-advantage)), trials("TS", luck)])
    _, open_count, decided = open_trials(table, "synthetic_b100", (10, 15, 20), 1)
    claim = next(c for c in catalogue.CATALOGUE if c.name == "b3o_beats_ts_b100")
    claimed = checking.compared(claim, table, {"synthetic_b100": (10, 15, 20)})
    assert all(c.stat.verdict == INCONCLUSIVE for c in claimed.compared)
    assert (open_count, decided) == (4, 0)
    # its words give the level the p was held to: a p below α beside "inconclusive" is not a contradiction
    level = sequential.nominal((10, 15, 20), spending="pocock")[0]
    assert all(c.level == level for c in claimed.compared) and level < 0.05
    assert "at look 1 → inconclusive: not shown different from 0 (p_Holm" in wording.comparison_text(
        claimed.compared[0]) and f" at level {level:.2g})" in wording.comparison_text(claimed.compared[0])
    fixed = checking.compared(claim, table)
    assert all(c.level == 0.05 for c in fixed.compared) and "at level 0.05)" in wording.reason(fixed.compared[0])
    assert open_trials(table, "synthetic_b100", (10,), 1)[1:] == (2, 2)  # the cut plan's laxer level
    # later seeds in the table do not count at look 1
    later = pd.concat([table, b3o("UCB-c", np.r_[luck, luck / 5.0])[lambda t: t["seed"] >= 10],
                       trials("TS", np.r_[luck, luck])[lambda t: t["seed"] >= 10]])
    assert open_trials(later, "synthetic_b100", (10, 15, 20), 1)[1:] == (4, 0)


def test_looks_on_the_command_line_are_checked():
    from analysis.tables.claims_table import parse_looks

    assert parse_looks(["synthetic_b100=10,15,20"]) == {"synthetic_b100": (10, 15, 20)}
    for bad in ("synthetic_b100=15,10", "=10", "synthetic_b100=ten", "synthetic_b100=0,5"):
        with pytest.raises(ValueError, match="growing positive counts"):
            parse_looks([bad])


def test_every_published_tie_names_the_typical_seed_and_its_tail():
    """Every published comparison decided on a margin (a tie, "equivalent", non-inferiority) says it is about the
    typical seed and has its tail beside it; every claim decided within a margin says so in its words."""
    decided_on_margin = re.compile(r"→ [^:]*: (shown tied within the margin|shown not worse than B|shown worse than B)")
    seen = 0
    for claims_md in sorted(Path("paper").glob("**/claims.md")):
        for comparison in re.split(r"; |<br>", claims_md.read_text()):
            if decided_on_margin.search(comparison):
                seen += 1
                assert "on the typical seed" in comparison and "· tail: A worse beyond the margin on" in comparison, (
                    f"{claims_md}: {comparison[:160]}")
    assert seen > 0
    for claims_csv in sorted(Path("paper").glob("**/claims.csv")):
        frame = pd.read_csv(claims_csv)
        margin_claims = {c.name for c in catalogue.CATALOGUE if c.relation in ("similar", "matches_or_beats")}
        for row in frame[frame["name"].isin(margin_claims)].itertuples():
            assert "(on the typical seed)" in row.claim, f"{claims_csv}: {row.name}"
