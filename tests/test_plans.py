"""Seed plans that can decide (issue 38): the smallest p a look can attain, checked before any trial runs
(`analysis.claims.plans`, `b3o check-plans`); the workflow's refusal is in test_bad_input_workflow.py."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
import yaml

from analysis.claims import plans
from analysis.statistics import sequential, verdicts
from bench.cli import main as b3o

ROOT = Path(__file__).resolve().parents[1]


def _config(name: str) -> dict:
    return yaml.safe_load((ROOT / "config" / name).read_text())


def _sign_flip_p(d: np.ndarray) -> float:
    """The two-sided sign-flip p of the mean by brute force: every one of the 2^n flips."""
    flips = np.array(list(itertools.product((1.0, -1.0), repeat=len(d))))
    means, observed = (flips * d).mean(axis=1), d.mean()
    greater, less = np.mean(means >= observed - 1e-12), np.mean(means <= observed + 1e-12)
    return min(1.0, 2 * min(greater, less))


@pytest.mark.parametrize("n", range(2, 9))
def test_the_bound_is_the_smallest_p_of_every_sign_flip(n):
    rng = np.random.default_rng(n)
    samples = [rng.normal(size=n), rng.exponential(size=n), np.abs(rng.standard_t(2, size=n)), np.full(n, 3.0)]
    brute = [_sign_flip_p(d) for d in samples]
    # no sample goes below the bound, and one whose signs all agree reaches it
    assert min(brute) == pytest.approx(verdicts.p_floor(n)) == pytest.approx(2.0 ** (1 - n))
    assert all(p >= verdicts.p_floor(n) - 1e-12 for p in brute)
    # the engine's own test on a constant sample (decided by the sign flips alone) gives exactly the bound
    assert verdicts.two_sided(np.full(n, 3.0), 0.0) == pytest.approx(verdicts.p_floor(n))


def _ablation(seeds: object, problems: tuple[str, ...] = ("ackley5", "hartmann6")) -> dict:
    config = _config("config.yaml")
    config["experiments"] = {"lambda_ablation": {**config["experiments"]["lambda_ablation"], "seeds": seeds,
                                                 "problems": list(problems)}}
    return config


def test_the_old_lambda_plan_is_refused_naming_look_seeds_family_and_level():
    """8, 12, 16 with 4 comparisons per claim: 4 × 2^(1−8) = 0.03125 is not below the first look's level 0.0310."""
    level = sequential.nominal((8, 12, 16), spending=sequential.CLAIMS_SPENDING)[0]
    assert 4 * 2.0**-7 >= level > 0.031
    with pytest.raises(ValueError) as refused:
        plans.check(_ablation({"first": 100, "start": 8, "step": 4, "max": 16, "until": 8}))
    message = str(refused.value)
    assert "\n" not in message
    for text in ("'lambda_ablation', look 1 (8 seeds)", "4 comparison(s)", "0.03125", f"{level:.4g}"):
        assert text in message, message


def test_the_default_and_extended_plans_decide_at_every_look():
    for name in ("config.yaml", "extended.yaml"):
        config = _config(name)
        assert config["experiments"]["lambda_ablation"]["seeds"]["start"] == 10
        looks = [look for look in plans.looks(config) if look.experiment == "lambda_ablation"]
        assert {look.claim for look in looks} == {"ucb_c_low_lambda_worse", "logei_s_high_lambda_worse"}
        assert all(look.decides for look in looks), [look.bound() for look in looks if not look.decides]
        assert plans.check(config) == []
    # the families as the claims engine pairs them: UCB-c λ ∈ {5, 10} against λ ∈ {0.1, 1}, per problem run
    sizes = plans.families(_config("extended.yaml"))["lambda_ablation"]
    assert sizes == {"ucb_c_low_lambda_worse": 12, "logei_s_high_lambda_worse": 4}  # Shekel only in the first


def test_a_look_some_claims_cannot_decide_is_allowed_with_a_note():
    """On three problems claim 18 compares 6 pairs, claim 19 (Ackley and Hartmann only) 4. Looks at 8 and 9 seeds:
    the first look's level is 0.0464, which 4 × 2^(1−8) = 0.031 is below and 6 × 2^(1−8) = 0.047 is not."""
    three = ("shekel4", "ackley5", "hartmann6")
    config = _ablation({"start": 8, "step": 1, "max": 9}, three)
    level = sequential.nominal((8, 9), spending=sequential.CLAIMS_SPENDING)[0]
    assert 4 * 2.0**-7 < level <= 6 * 2.0**-7
    notes = plans.check(config)
    assert len(notes) == 1 and notes[0].startswith("note: experiment 'lambda_ablation', look 1 (8 seeds): "
                                                   "ucb_c_low_lambda_worse: 6 comparison(s)"), notes
    # the same claims at 8, 12, 16 decide nothing at the first look: refused
    with pytest.raises(ValueError, match="look 1 \\(8 seeds\\)"):
        plans.check(_ablation({"start": 8, "step": 4, "max": 16}, three))


def test_fixed_seed_counts_are_never_refused_but_noted():
    notes = plans.check(_config("smoke.yaml"))  # toy sizes: 1-2 seeds, nothing decidable
    assert notes and all("fixed seed count" in note and note.endswith("cannot decide") for note in notes)
    applied = plans.check(_config("applied.yaml"))
    assert any("'battery', its fixed seed count (5 seeds): battery_b3o_beats_random" in note for note in applied)


def test_an_experiment_no_claim_covers_is_not_judged():
    config = _ablation({"start": 2, "step": 2, "max": 4}, ("forrester1",))
    assert plans.families(config) == {"lambda_ablation": {}} and plans.check(config) == []


def test_b3o_check_plans_refuses_with_one_line_and_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(_ablation({"first": 100, "start": 8, "step": 4, "max": 16})))
    assert b3o(["check-plans", "--configfile", str(bad)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1
    assert err.startswith("b3o check-plans: error: experiment 'lambda_ablation', look 1 (8 seeds)"), err
    assert b3o(["check-plans", "--configfile", str(ROOT / "config/config.yaml")]) == 0
    assert capsys.readouterr().err == ""


def test_the_levels_command_adds_the_bound_for_a_family(capsys):
    assert sequential.main(["--looks", "8,12,16", "--family", "4"]) == 0
    first, second, _ = capsys.readouterr().out.splitlines()
    assert first == ("look 1: 8 seeds, nominal level 0.0310; Holm over 4 comparison(s): adjusted p ≥ 0.03125, "
                     "cannot decide anything")
    assert second.endswith("adjusted p ≥ 0.001953, can decide")


def test_a_study_s_declared_comparisons_are_judged_and_too_few_seeds_said_in_one_sentence(monkeypatch):
    """The example study at 5 seeds (once the docs' own): its two declared families of one comparison each can reach
    p = 2^(1−5) = 0.0625 at best, so every verdict would read "too few seeds"; at 6 seeds each can decide."""
    monkeypatch.chdir(ROOT / "examples")  # the study's directory: its problem's module is there
    config = yaml.safe_load((ROOT / "examples/my.yaml").read_text())
    study = config["experiments"]["my_sphere_study"]
    assert plans.families(config) == {"my_sphere_study": {"declared_my_sphere_study_better": 1,
                                                          "declared_my_sphere_study_matches_or_beats": 1}}
    study["seeds"] = 5
    assert [u.sentence() for u in plans.undecidable(config)] == [
        "experiment 'my_sphere_study' runs 5 seed(s), too few to decide any of its comparisons whatever the results "
        "(at best p = 0.0625, not below α = 0.05): every verdict will read 'too few seeds'; 6 seeds are the fewest at "
        "which one could be decided"]
    study["seeds"] = 6
    assert plans.undecidable(config) == [] and plans.check(config) == []
    # several such experiments (a smoke run's) are one line of the workflow's
    smoke = plans.undecidable(_config("smoke.yaml"))
    assert len(smoke) == 6 and plans.undecidable_warning(smoke).startswith(
        "6 experiments run too few seeds to decide any of their comparisons whatever the results, so every verdict "
        "of theirs will read 'too few seeds' (experiment (seeds; the fewest that could decide)): 'synthetic_b100' "
        "(2; 6), 'synthetic_b5' (1; 7),")
    # a planned look that can decide none of them is refused, as for the paper's claims
    study["seeds"] = {"start": 4, "step": 4, "max": 12}
    with pytest.raises(ValueError, match="'my_sphere_study', look 1 \\(4 seeds\\) cannot decide any claim"):
        plans.check(config)
