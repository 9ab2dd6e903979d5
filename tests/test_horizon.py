"""The horizon table: B3O's paired advantage over TS per iteration, decided at the pre-registered checkpoints."""

from __future__ import annotations

from analysis.presentation.readme_blocks import markers
import numpy as np
import pandas as pd
import pytest

from analysis.statistics import sequential, verdicts
from analysis.tables import horizon


def _tidy(seeds: int, gain: float, iterations: int = 25) -> pd.DataFrame:
    """TS's regret stays near 1; B3O's falls by `gain` per iteration; both noisy per seed."""
    rng = np.random.default_rng(0)
    rows = []
    for problem in ("ackley5", "hartmann6"):
        for seed in range(seeds):
            for t in range(0, iterations + 1):
                for label, method, regret in (("TS", "ts", 1.0), ("B3O-UCB-c", "b3o", 1.0 - gain * t)):
                    rows.append({"experiment": "horizon", "problem": problem, "label": label, "method": method,
                                 "seed": seed, "iteration": t, "simple_regret": regret + rng.normal(0, 0.003)})
    return pd.DataFrame(rows)


def _levels() -> np.ndarray:
    """The nominal level of each look of the default horizon plan."""
    return sequential.nominal(horizon.DEFAULT.looks, spending=horizon.DEFAULT.spending)


def test_the_advantage_grows_with_t_and_is_decided_at_the_checkpoints_at_the_first_look_s_level():
    stats = horizon.advantage_by_iteration(_tidy(10, gain=0.01))
    hartmann = stats[stats["problem"] == "hartmann6"].set_index("iteration")
    assert list(hartmann.index) == list(range(1, 26)) and (hartmann["n"] == 10).all()
    assert hartmann.loc[25, "mean"] == pytest.approx(0.25, abs=0.01)
    assert hartmann.loc[6, "mean"] == pytest.approx(0.06, abs=0.01)
    decided = stats[stats["verdict"] != ""]
    assert sorted(decided["iteration"].unique()) == list(horizon.DEFAULT.checkpoints)
    assert (decided["verdict"] == verdicts.HOLDS).all()
    assert decided["level"].unique() == pytest.approx([_levels()[0]])
    text = horizon.checkpoints(stats)
    assert (text.loc[text["comparison"].str.startswith("claim 7"), "verdict"] == verdicts.HOLDS).all()


def test_a_worse_b3o_does_not_hold_and_five_seeds_cannot_decide():
    worse = horizon.advantage_by_iteration(_tidy(10, gain=-0.01))
    assert (worse.loc[worse["verdict"] != "", "verdict"] == verdicts.FAILS).all()
    few = horizon.advantage_by_iteration(_tidy(5, gain=0.01))
    assert (few.loc[few["verdict"] != "", "verdict"] == verdicts.FEW).all()


def test_the_report_section_states_the_advantage_and_the_verdict_at_each_checkpoint(tmp_path):
    from analysis.report.experiments import horizon as section
    from analysis.report.inputs import Run

    tidy = _tidy(10, gain=0.01)
    trials = tidy[tidy["iteration"] == 0].assign(
        trial_id=lambda f: f["label"] + f["problem"] + f["seed"].astype(str), batch_size=50, iterations=25, n_init=50
    )
    run = Run(paper=tmp_path, claims=None, summary=None, per_trial=trials, run_times=None, density=None,
              best_lambda=None, horizon=horizon.advantage_by_iteration(tidy), provenance=None, theorem=None,
              scaling=None,
              figures=frozenset({"horizon_advantage"}))
    tex = section(run).render()
    assert "B = 50 points for T = 25 iterations" in tex and "10 seeds" in tex
    assert "at t = 6: holds, at t = 12: holds and at t = 25: holds" in tex
    assert r"\ref{fig:horizon_advantage}" in tex and "regret_horizon" not in tex


def test_the_readme_block_gives_each_checkpoint_s_comparisons_and_claim(tmp_path):
    from analysis.presentation import readme

    stats = horizon.advantage_by_iteration(_tidy(10, gain=0.01))
    stats.to_csv(tmp_path / "horizon.csv", index=False)
    page = tmp_path / "README.md"
    page.write_text("{}\n{}\n".format(*markers("horizon")))
    assert readme.main(["--into", str(page), "--horizon", str(tmp_path / "horizon.csv")]) == 0
    text = page.read_text()
    assert "| 25 | 10 | B3O-UCB-c on Ackley (5D): +0.25 [" in text and "(10 seeds)" in text and text.count("**holds**") == 3


def test_the_table_read_back_from_its_csv_gives_the_same_checkpoints(tmp_path):
    stats = horizon.advantage_by_iteration(_tidy(10, gain=0.01))
    stats.to_csv(tmp_path / "horizon.csv", index=False)
    again = pd.read_csv(tmp_path / "horizon.csv")  # "" verdicts come back as NaN
    assert horizon.checkpoints(again).equals(horizon.checkpoints(stats))


def test_with_the_second_look_s_seeds_a_decision_of_the_first_look_stands_and_open_ones_use_all_seeds():
    clear = horizon.advantage_by_iteration(_tidy(15, gain=0.01))
    decided = clear[clear["verdict"] != ""]
    assert (decided["look"] == 1).all() and (decided["seeds_at_look"] == 10).all() and (decided["n"] == 15).all()
    noisy = _tidy(15, gain=0.0)
    ts = noisy["label"] == "TS"  # wide noise, mean unchanged, regrets kept positive (a ratio margin takes their logs)
    noisy.loc[ts, "simple_regret"] *= np.exp(np.random.default_rng(1).normal(0, 0.5, ts.sum()) - 0.125)
    open_ = horizon.advantage_by_iteration(noisy)
    at_6 = open_[open_["iteration"] == 6]  # no effect, wide noise: open at the first look, tested again at the second
    assert (at_6["look"] == 2).all() and (at_6["seeds_at_look"] == 15).all()
    assert at_6["level"].unique() == pytest.approx([_levels()[1]])


def test_a_problem_whose_settings_stopped_at_a_look_leaves_the_others_their_later_looks():
    """A problem joining a run later may stop at an earlier look than the others (its comparisons decided there): the
    others' open comparisons still reach their later looks on all their seeds, as the claims engine's do."""
    noisy = _tidy(15, gain=0.0)
    ts = noisy["label"] == "TS"
    noisy.loc[ts, "simple_regret"] *= np.exp(np.random.default_rng(1).normal(0, 0.5, ts.sum()) - 0.125)
    noisy = noisy[(noisy["problem"] == "ackley5") | (noisy["seed"] < 10)]  # Hartmann-6 stopped at the first look
    at_6 = horizon.advantage_by_iteration(noisy).query("iteration == 6").set_index("problem")
    assert at_6.loc["ackley5", "look"] == 2 and at_6.loc["ackley5", "seeds_at_look"] == 15
    assert at_6.loc["hartmann6", "look"] == 1 and at_6.loc["hartmann6", "seeds_at_look"] == 10
    assert at_6.loc["ackley5", "level"] == pytest.approx(_levels()[1])


def test_the_density_s_sharpness_is_the_geometric_mean_of_lambda_times_alpha_s_spread_over_b3o_s_iterations():
    from analysis.figures.horizon import sharpness_curves

    rows = [
        {"experiment": "horizon", "problem": "ackley5", "label": label, "method": method, "seed": seed,
         "iteration": t, "lambda_density": lam, "alpha_p10_p90": spread}
        for seed, spread in ((0, 1.0), (1, 100.0))
        for t, lam in ((1, 0.0), (2, 1.0))  # a scheduled variant's first batch: λ_t = 0, uniform by construction
        for label, method in (("B3O-UCB-s", "b3o"), ("TS", "ts"))
    ]
    curves = sharpness_curves(pd.DataFrame(rows), "horizon")
    assert list(curves["label"]) == ["B3O-UCB-s"] and list(curves["iteration"]) == [2]
    assert curves["mean"].iloc[0] == pytest.approx(10.0)  # not the arithmetic mean, 50.5
    assert curves["lo"].iloc[0] <= 10.0 <= curves["hi"].iloc[0]


def test_the_figure_gains_a_log_scale_sharpness_row_only_where_the_records_carry_the_diagnostics():
    from analysis.figures import horizon as figure

    tidy = _tidy(3, gain=0.01).assign(diversity=0.5, lambda_density=10.0, alpha_p10_p90=2.0)
    tidy["trial_id"] = tidy["problem"] + tidy["label"] + tidy["seed"].astype(str)
    advantage = horizon.advantage_by_iteration(tidy)
    spread = figure.diversity_curves(tidy, "horizon")
    plain = figure.draw(advantage, spread, horizon.DEFAULT, "the horizon")
    sharp = figure.draw(advantage, spread, horizon.DEFAULT, "the horizon", figure.sharpness_curves(tidy, "horizon"))
    assert len(plain.axes) == 4 and len(sharp.axes) == 6
    bottom = [ax for ax in sharp.axes if ax.get_yscale() == "log"]
    assert len(bottom) == 2 and bottom[0].get_lines()[0].get_ydata() == pytest.approx(20.0)
