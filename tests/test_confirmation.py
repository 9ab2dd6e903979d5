"""The fresh-seed confirmation (analysis.statistics.confirmation): its plan matches its config, its readings are
decided as the plan says through its looks, the looks ask seeds only for open readings, its size holds, and the plan
predates the run in git."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from scipy import stats

from analysis.claims import looks
from analysis.statistics import confirmation

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "config/large_batch_confirm.yaml"
PLAN = confirmation.plan()
BASINS = {"shekel4": 5.36, "ackley5": 1.65, "hartmann6": 0.119}


def test_the_plan_reads_what_its_config_runs():
    experiment = yaml.safe_load(CONFIG.read_text())["experiments"][PLAN.experiment]
    labels = {m["label"] for m in experiment["methods"]}
    assert {r.variant for r in PLAN.readings} | {PLAN.rival} == labels
    assert {r.problem for r in PLAN.readings} == set(experiment["problems"])
    seeds = experiment["seeds"]
    assert PLAN.looks == tuple(range(seeds["start"], seeds["max"] + 1, seeds["step"]))
    assert sum(r.directional for r in PLAN.readings) == 12
    assert PLAN.levels() == pytest.approx([0.0310, 0.0297], abs=5e-5)


def test_the_basins_are_the_problems_own():
    import problems

    for name, regret in BASINS.items():
        assert problems.get(name).basin_regret == pytest.approx(regret, abs=5e-3)


def _table(values: dict[tuple[str, str], np.ndarray], seeds: range) -> pd.DataFrame:
    rows = [{"experiment": PLAN.experiment, "problem": p, "label": label, "seed": s, "trial_id": f"{p}-{label}-{s}",
             "value": float(v[i]), "budget": 5100, "final_budget": 5100}
            for (p, label), v in values.items() for i, s in enumerate(seeds)]
    return pd.DataFrame(rows)


def _values(n: int) -> dict[tuple[str, str], np.ndarray]:
    """TS at 1 on every seed; every variant level-ish with it (alternating above and below), but B3O-UCB-s on
    Shekel-4 always below and ending in the basin where TS does not."""
    ts = {p: np.full(n, 7.0 if p == "shekel4" else 1.0) for p in BASINS}
    out = {(p, "TS"): v for p, v in ts.items()}
    for r in PLAN.readings:
        out[(r.problem, r.variant)] = ts[r.problem] * np.where(np.arange(n) % 2 == 0, 0.9, 1.1)
    out[("shekel4", "B3O-UCB-s")] = np.full(n, 0.01)
    return out


def test_a_reading_found_on_every_seed_replicates_at_the_first_look_and_the_rest_stay_open():
    table = _table(_values(10), range(400, 410))
    decided = confirmation.decide(table, PLAN, BASINS, through=1).set_index(["problem", "variant", "kind"])
    typical = decided.loc[("shekel4", "B3O-UCB-s", "typical")]
    assert (typical["for_variant"], typical["for_rival"], typical["status"]) == (10, 0, confirmation.REPLICATED)
    assert typical["p"] == pytest.approx(stats.binomtest(10, 10, 0.5, "greater").pvalue)
    basin = decided.loc[("shekel4", "B3O-UCB-s", "basin")]
    assert (basin["for_variant"], basin["for_rival"]) == (10, 0) and basin["status"] == confirmation.REPLICATED
    behind = decided.loc[("ackley5", "B3O-UCB-c", "typical")]  # 5 of 10 below TS: one-sided "less" cannot decide
    assert behind["status"] == confirmation.OPEN and behind["p"] > 0.5
    assert (decided.loc[decided["expect"] == "none", "status"] == confirmation.DESCRIPTIVE).all()
    wanted = confirmation.open_labels(decided.reset_index())
    assert "B3O-UCB-s" not in wanted["shekel4"] and {"TS", "B3O-UCB-c", "B3O-LogEI-c"} <= wanted["shekel4"]
    assert "B3O-LogEI-s" not in wanted["shekel4"]  # in no directional reading on Shekel-4
    assert wanted["ackley5"] == {"TS", "B3O-LogEI-c", "B3O-LogEI-s", "B3O-UCB-c"}


def test_at_the_last_look_an_undecided_reading_is_not_replicated():
    table = _table(_values(20), range(400, 420))
    decided = confirmation.decide(table, PLAN, BASINS)
    directional = decided[decided["expect"] != "none"]
    assert set(directional["status"]) == {confirmation.REPLICATED, confirmation.NOT_REPLICATED}
    assert (directional.loc[directional["status"] == confirmation.REPLICATED, "variant"] == "B3O-UCB-s").all()


def test_a_look_under_way_is_left_undecided_with_a_warning_and_the_looks_before_it_stand():
    whole = _table(_values(20), range(400, 420))
    after_one = confirmation.decide(whole[whole["seed"] < 410], PLAN, BASINS)
    # look 1 with one trial still running: nothing is decided on the rest (Holm's family would shrink), and it says so
    running = whole[(whole["seed"] < 410) & ~((whole["problem"] == "ackley5") & (whole["label"] == "TS")
                                               & (whole["seed"] == 409))]
    with pytest.warns(UserWarning, match=r"look 1 \(10 seeds\) is not complete, so no reading is decided yet.*ackley5 B3O-UCB-c typical \(9 of 10\)"):
        early = confirmation.decide(running, PLAN, BASINS)
    assert (early.loc[early["expect"] != "none", "status"] == confirmation.OPEN).all()
    assert (early["seeds"] == 0).all()
    # look 1 made, look 2 under way: decided through look 1 exactly as when look 2 had not begun
    with pytest.warns(UserWarning, match="look 2 .* decided through look 1 only"):
        partway = confirmation.decide(whole[whole["seed"] < 415], PLAN, BASINS)
    pd.testing.assert_frame_equal(partway, after_one)
    assert (after_one["status"] == confirmation.REPLICATED).sum() == 2


def test_the_look_gives_seeds_only_to_open_readings_settings():
    table = _table(_values(10), range(400, 410))
    trials, open_count, decided = looks.open_trials(table, PLAN.experiment, PLAN.looks, 1)
    assert decided == 2 and open_count == 10
    assert "shekel4-B3O-UCB-s-400" not in trials and "shekel4-B3O-LogEI-s-400" not in trials
    assert {"shekel4-TS-400", "hartmann6-B3O-UCB-s-405", "ackley5-B3O-UCB-c-409"} <= set(trials)
    assert not any(t.startswith("hartmann6-B3O-LogEI-c") or t.startswith("ackley5-B3O-UCB-s") for t in trials)


def test_the_plans_family_wise_size_holds_by_simulation():
    """Every true share 1/2: the chance that any reading is called replicated is at most α (exact tests, discrete)."""
    size = confirmation.power(simulations=4000, seed=1).set_index("kind").loc["size", "power"]
    assert size <= PLAN.alpha


def _git(*args: str) -> list[str]:
    out = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
    return out.stdout.split() if out.returncode == 0 else []


def test_the_plan_predates_every_trial_and_every_analysis_of_the_run():
    """Its first commit is older than every published trial's start and than the first published table of the run;
    later commits of the plan change its form, never a rule (the parsed rules equal the first version's words)."""
    first = _git("log", "--diff-filter=A", "--format=%cI", "--", "analysis/statistics/confirmation.yaml")
    if not first:
        pytest.skip("not a git checkout with history")
    ruled = pd.Timestamp(first[-1])
    table = ROOT / "paper/large_batch_confirm/tables/per_trial.csv"
    if table.is_file():
        started = pd.to_datetime(pd.read_csv(table)["started_utc"], utc=True)
        assert started.min() > ruled
        published = _git("log", "--diff-filter=A", "--format=%cI", "--", str(table.relative_to(ROOT)))
        assert pd.Timestamp(published[-1]) > ruled
    original = subprocess.run(["git", "show", "43596b2:analysis/statistics/confirmation.yaml"], cwd=ROOT,
                              capture_output=True, text=True, check=True).stdout

    def rules(text: str) -> str:  # the words of every rule, comments and YAML's block markers aside
        kept = [re.sub(r"#.*", "", line) for line in text.splitlines() if not line.lstrip().startswith("#")]
        return re.sub(r"\s+|>-", "", "".join(kept))

    assert rules(original) == rules((ROOT / "analysis/statistics/confirmation.yaml").read_text())


def test_the_headline_says_which_readings_replicated_in_words():
    from analysis.presentation.readme_blocks import confirmation_block

    decided = confirmation.decide(_table(_values(20), range(400, 420)), PLAN, BASINS)
    text = confirmation_block(decided, "paper/confirm/tables/confirmation.csv")
    assert text.startswith("<!-- confirmation:begin -->") and text.endswith("<!-- confirmation:end -->")
    assert "**On fresh seeds** (the confirmation run, `paper/confirm`" in text
    directional = decided[decided["expect"] != "none"]
    replicated = int((directional["status"] == confirmation.REPLICATED).sum())
    assert (f"After its last look (20 fresh seeds per setting), {replicated} of the {len(directional)} exploratory "
            f"readings replicated and {len(directional) - replicated} did not, under the plan") in text
    # decided at look 1 on all ten seeds; the exploratory run saw 28 of 30
    assert ("Replicated: B3O-UCB-s on Shekel (4D), below TS (fresh: 10 of 10 seeds; exploratory: 28 of 30 seeds)"
            in text) and "Still open" not in text
    # a reading expected behind is counted by the seeds on which it ends above, as its words say
    assert "B3O-UCB-c on Ackley (5D), above TS (fresh: 10 of 20 seeds; exploratory: 24 of 30 seeds)" in text
    early = confirmation_block(confirmation.decide(_table(_values(10), range(400, 410)), PLAN, BASINS, through=1), "x")
    assert "After look 1 of 2 (10 fresh seeds per setting), 2 of the 12" in early
    assert "10 are still open (look 2 takes them to 20 seeds)" in early and "Did not replicate" not in early
    # a basin reading with no seed where exactly one of the two ends in the basin says so, not "no seed counted"
    assert "fresh: not one of 10 seeds where only one ends in it" in early
    with pytest.warns(UserWarning):
        none_yet = confirmation.decide(_table(_values(10), range(400, 405)), PLAN, BASINS)
    text = confirmation_block(none_yet, "x")
    assert "No look is complete yet (the first: 10 fresh seeds per setting), so none of the 12" in text
    assert "Still open:" not in text  # nothing to list reading by reading before a look is made


def test_the_figure_fills_the_replicated_readings_and_marks_every_exploratory_share():
    from matplotlib.collections import PathCollection

    from analysis.figures import confirmation as figure

    decided = confirmation.decide(_table(_values(10), range(400, 410)), PLAN, BASINS, through=1)
    tested = decided[decided["expect"] != "none"]
    (ax,) = [a for a in figure.draw(decided).axes if a.get_visible()]
    filled = hollow = crosses = 0
    for points in (c for c in ax.collections if isinstance(c, PathCollection) and len(c.get_offsets())):
        if points.get_facecolors().shape[0] and np.allclose(points.get_facecolors()[:, :3], 0.5, atol=0.01):
            crosses += 1  # the exploratory share, gray
        elif np.allclose(points.get_facecolors()[:, :3], 1.0):
            hollow += 1
        else:
            filled += 1
    assert crosses == len(tested) and filled == int((tested["status"] == confirmation.REPLICATED).sum()) == 2
    assert hollow == int(tested["share"].notna().sum()) - filled
    assert [t.get_text() for t in ax.get_yticklabels()][5] == "Ackley (5D) · B3O-UCB-c (< ½ expected)"
    assert figure.exploratory_share("25/5") == pytest.approx(25 / 30)
