"""Normalised scores, runtime ECDFs and verdicts along the budget, on small tables whose answers are known."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analysis.claims import verdicts_along
from analysis.statistics import runtime_ecdf, scores


def _rows(experiment: str, problem: str, method: str, values: dict[int, list[float]], metric: str = "simple_regret",
          lower: bool = True, final: int | None = None) -> list[dict]:
    """Rows of a per-trial table: `values` budget -> one value per seed."""
    final = final or max(values)
    return [
        {"experiment": experiment, "problem": problem, "label": method.upper(), "method": method, "seed": seed,
         "trial_id": f"{experiment}-{problem}-{method}-{seed}", "budget": budget, "final_budget": final,
         "value": value, "metric": metric, "lower_is_better": lower}
        for budget, per_seed in values.items() for seed, value in enumerate(per_seed)
    ]


def test_random_median_scores_one_and_the_optimum_zero() -> None:
    table = pd.DataFrame(
        _rows("e", "ackley5", "random", {100: [1.0, 2.0, 3.0]}) + _rows("e", "ackley5", "b3o", {100: [0.0, 1.0, 4.0]})
    )
    scored = scores.scores(table).set_index(["method", "seed"])["score"]
    assert scored[("random", 1)] == pytest.approx(1.0)  # Random's median regret is 2
    assert scored[("b3o", 0)] == pytest.approx(0.0)
    assert scored[("b3o", 2)] == pytest.approx(2.0)


def test_hypervolume_and_formula_e_are_gaps_to_the_runs_best() -> None:
    battery = _rows("b", "battery", "random", {140: [10.0, 20.0, 30.0]}, "hypervolume", lower=False) + _rows(
        "b", "battery", "b3o", {140: [40.0, 50.0]}, "hypervolume", lower=False
    )
    formula = _rows("f", "formula-e", "random", {54: [0.9, 0.8]}, "best_value") + _rows(
        "f", "formula-e", "ts", {54: [0.7, 0.75]}, "best_value"
    )
    scored = scores.scores(pd.DataFrame(battery + formula)).set_index(["problem", "method", "seed"])
    # HV best = 50; Random's median gap = 50 - 20 = 30
    assert scored.loc[("battery", "b3o", 0), "score"] == pytest.approx(10 / 30)
    assert scored.loc[("battery", "b3o", 1), "score"] == pytest.approx(0.0)
    # best value 0.7; Random's median gap = 0.85 - 0.7
    assert scored.loc[("formula-e", "ts", 1), "score"] == pytest.approx(0.05 / 0.15)


def test_no_random_at_a_budget_gives_no_score_and_says_why() -> None:
    table = pd.DataFrame(
        _rows("e", "ackley5", "random", {100: [1.0, 2.0]}, final=100)
        + _rows("e", "ackley5", "nsga2", {100: [1.0, 1.5], 350: [0.5, 0.6]})
        + _rows("g", "ackley5", "b3o", {100: [0.3]})
    )
    scored = scores.scores(table)
    late = scored[scored["budget"] == 350]
    assert late["score"].isna().all() and set(late["note"]) == {"no Random trial at this budget"}
    alone = scored[scored["experiment"] == "g"]
    assert alone["score"].isna().all() and set(alone["note"]) == {"no Random in this experiment on this problem"}
    assert scored.loc[scored["score"].notna(), "note"].eq("").all()


def test_aggregate_is_the_mean_of_problem_means_with_a_stratified_interval() -> None:
    rng = np.random.default_rng(1)
    rows = []
    for problem, n in (("ackley5", 20), ("hartmann6", 5)):
        rows += _rows("e", problem, "random", {100: list(rng.uniform(1, 2, n))})
        rows += _rows("e", problem, "b3o", {100: list(rng.uniform(0, 1, n))})
    scored = scores.scores(pd.DataFrame(rows))
    out = scores.aggregate(scored).set_index("label").loc["B3O"]
    b3o = scored[scored["method"] == "b3o"]
    expected = b3o.groupby("problem")["score"].mean().mean()  # not the pooled mean: problems weigh equally
    assert out["mean"] == pytest.approx(expected)
    assert out["mean"] != pytest.approx(b3o["score"].mean())
    assert out["lo"] < out["mean"] < out["hi"]
    assert out["runs"] == 25 and out["problems"] == "ackley5, hartmann6"


def test_performance_profile_counts_runs_at_or_below_tau() -> None:
    scored = pd.DataFrame({"experiment": "e", "budget": 100, "label": "A", "score": [0.0, 0.5, 1.0, 2.0]})
    curve = scores.profiles(scored, np.array([0.0, 0.5, 0.99, 1.0, 3.0])).set_index("tau")["fraction"]
    assert list(curve) == [0.25, 0.5, 0.5, 0.75, 1.0]


def test_runtime_ecdf_targets_span_randoms_start_to_the_best_reached() -> None:
    table = pd.DataFrame(
        _rows("e", "ackley5", "random", {100: [10.0, 10.0], 350: [5.0, 5.0]})
        + _rows("e", "ackley5", "b3o", {100: [10.0, 1.0], 350: [0.01, 1.0]})
        + _rows("e", "ackley5", "seq", {100: [0.1, 0.1]})
    )
    curves, ranges = runtime_ecdf.ecdf(table)
    assert ranges.iloc[0]["easy"] == pytest.approx(10.0) and ranges.iloc[0]["hard"] == pytest.approx(0.01)
    b3o = curves[curves["label"] == "B3O"].set_index("budget")["fraction"]
    assert b3o[100] < b3o[350] == pytest.approx(1 - 0.5 * np.mean(np.logspace(1, -2, 20) < 1.0))
    assert b3o[350] < 1.0  # seed 1 stops at 1.0 and never reaches the harder targets
    assert list(curves.loc[curves["label"] == "SEQ", "budget"]) == [100]  # no curve past what a method ran


def test_a_claim_at_a_budget_reads_each_trial_there() -> None:
    table = pd.DataFrame(
        _rows("e", "ackley5", "b3o", {100: [3.0], 350: [1.0]}) + _rows("e", "ackley5", "seq", {100: [2.0]})
    )
    cut = verdicts_along.at_budget(table, "e", 100)
    assert set(cut["budget"]) == {100} and set(cut["final_budget"]) == {100}
    whole = verdicts_along.at_budget(table, "e", 350)
    assert whole.loc[whole["method"] == "seq", "final_budget"].item() == 100  # an earlier end stays


def test_budgets_are_capped_evenly_and_keep_the_last() -> None:
    table = pd.DataFrame({"experiment": "e", "budget": np.arange(10, 310, 10)})
    picked = verdicts_along.budgets(table, "e", cap=12)
    assert len(picked) == 12 and picked[0] == 10 and picked[-1] == 300


@pytest.mark.parametrize(
    "verdict, expected",
    [("holds", "holds"), ("holds on 2 of 3", "holds in part"), ("does not hold: equivalent", "does not hold"),
     ("inconclusive (too few seeds to decide)", "inconclusive"), ("not comparable at this budget", "not comparable")],
)
def test_verdict_classes(verdict: str, expected: str) -> None:
    assert verdicts_along.category(verdict) == expected


def test_claims_1_and_7_along_a_horizon_combine_their_variants_over_every_benchmark() -> None:
    """Claim 7 (the -c variants) and claim 1 (all four) at each checkpoint of a horizon table: a benchmark or variant
    the run left out counts as missing, one failing comparison fails the claim, rows between checkpoints are skipped."""
    rows = [
        {"problem": p, "label": label, "iteration": t, "verdict": v}
        for p in ("ackley5", "hartmann6")
        for label in ("B3O-LogEI-c", "B3O-UCB-c")
        for t, v in ((3, ""), (6, "holds"), (25, "does not hold" if (p, label) == ("ackley5", "B3O-UCB-c") else "holds"))
    ]
    strips = verdicts_along.along_horizon(pd.DataFrame(rows), "horizon").set_index(["number", "budget"])
    assert set(strips["axis"]) == {"iteration"} and set(strips.index.get_level_values("budget")) == {6, 25}
    assert strips.loc[(7, 6), "verdict"] == "holds on 4 of 6"  # Shekel-4 not run
    assert strips.loc[(1, 6), "verdict"] == "holds on 4 of 12"  # nor the scheduled variants
    assert strips.loc[(7, 25), "category"] == strips.loc[(1, 25), "category"] == "does not hold"


def test_the_quoted_scores_are_each_experiments_last_budget_best_first() -> None:
    from analysis.presentation.readme_blocks import scores_block

    rows = [
        {"experiment": e, "budget": b, "label": m, "problems": p, "runs": 10, "mean": v, "lo": v - 0.1, "hi": v + 0.1}
        for e, p in (("synthetic_b100", "ackley5, hartmann6"), ("synthetic_b5", "ackley5, hartmann6"),
                     ("battery", "battery"))
        for b in (100, 350)
        for m, v in (("Random", 1.0), ("TS", 0.4 if b == 350 else 0.9), ("B3O-UCB-c", 0.2))
    ]
    quoted = scores.final(pd.DataFrame(rows))
    assert set(quoted["budget"]) == {350} and list(quoted.loc[quoted["experiment"] == "battery", "label"]) == [
        "B3O-UCB-c", "TS", "Random"]
    block = scores_block(pd.DataFrame(rows), "x").splitlines()
    # two experiments on the same problems are told apart by their titles; one alone is named by its problem
    shared = [line.split(" | ")[0] for line in block if "Ackley (5D), Hartmann (6D), 350 evaluations" in line]
    assert len(shared) == 2 and shared[0] != shared[1]
    assert any(line.startswith("| Battery electrode design (9D), 350 evaluations | B3O-UCB-c 0.2") for line in block)
