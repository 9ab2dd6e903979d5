"""config/large_batch_m500.yaml's rule (analysis/tables/m_check.py): M changes the answer if the advantage over TS
moves with M (i), or if B3O-LogEI-c against TS is decided at M = 500 opposite to the M = 64 run's verdict (ii)."""

import numpy as np
import pandas as pd

from analysis.statistics import verdicts
from analysis.tables.m_check import check, final_regrets, main, reference_verdict

SEEDS = range(300, 306)


def _tidy(b3o_500: list[float], ts_500: list[float], b3o_64: list[float], ts_64: list[float]) -> pd.DataFrame:
    rows = []
    for label, finals in (("B3O-LogEI-c-M500", b3o_500), ("TS-M500", ts_500), ("B3O-LogEI-c", b3o_64), ("TS", ts_64)):
        for seed, final in zip(SEEDS, finals):
            rows += [{"experiment": "m_check", "problem": "hartmann6", "label": label, "seed": seed, "iteration": t,
                      "simple_regret": regret} for t, regret in ((1, 3.0), (50, final))]
    return pd.DataFrame(rows)


B3O = [0.010, 0.012, 0.009, 0.011, 0.013, 0.010]
TS = [0.050, 0.061, 0.047, 0.055, 0.058, 0.052]


def test_the_same_advantage_at_both_m_does_not_change_the_answer():
    regrets = final_regrets(_tidy(B3O, TS, [b + 0.0005 * (-1) ** i for i, b in enumerate(B3O)], TS))
    assert list(regrets.index) == list(SEEDS) and regrets.loc[300, "TS-M500"] == 0.050  # the last iteration's
    table = check(regrets, verdicts.HOLDS)
    assert list(table["shown"]) == [False, False]
    assert table["verdict"].iloc[1] == verdicts.HOLDS  # B3O beats TS at M = 500, as at M = 64
    assert set(table["m_changes_the_answer"]) == {"not shown"}


def test_a_verdict_opposite_to_the_m64_runs_changes_the_answer():
    table = check(final_regrets(_tidy(B3O, TS, B3O, TS)), verdicts.FAILS)
    assert list(table["shown"]) == [False, True] and set(table["m_changes_the_answer"]) == {"yes"}
    undecided = check(final_regrets(_tidy(B3O, TS, B3O, TS)), verdicts.INCONCLUSIVE)  # no direction to oppose
    assert set(undecided["m_changes_the_answer"]) == {"not shown"}


def test_an_advantage_that_moves_with_m_changes_the_answer():
    shrink = 0.03 + 0.004 * np.array([1, -1, 0.5, -0.5, 0.25, -0.25])  # B3O's lead over TS shrinks at M = 64
    worse_at_64 = list(np.array(B3O) + shrink)
    table = check(final_regrets(_tidy(B3O, TS, worse_at_64, TS)), verdicts.HOLDS)
    assert table["shown"].iloc[0] and np.isclose(table["mean"].iloc[0], 0.03)
    assert set(table["m_changes_the_answer"]) == {"yes"}


def test_the_reference_is_the_m64_runs_last_decided_checkpoint_and_the_table_is_written(tmp_path):
    horizon = pd.DataFrame({"problem": "hartmann6", "label": "B3O-LogEI-c", "iteration": [6, 25, 50],
                            "verdict": [verdicts.HOLDS, verdicts.INCONCLUSIVE, None]})
    assert reference_verdict(horizon) == verdicts.INCONCLUSIVE
    assert reference_verdict(horizon.assign(problem="ackley5")) == verdicts.NOT_MEASURED
    _tidy(B3O, TS, B3O, TS).to_parquet(tmp_path / "tidy.parquet")
    horizon.to_csv(tmp_path / "horizon.csv", index=False)
    assert main(["--table", str(tmp_path / "tidy.parquet"), "--reference", str(tmp_path / "horizon.csv"),
                 "--out", str(tmp_path / "m_check")]) == 0
    written = pd.read_csv(tmp_path / "m_check.csv")
    assert len(written) == 2 and (tmp_path / "m_check.tex").read_text().count(r"\\") >= 3
