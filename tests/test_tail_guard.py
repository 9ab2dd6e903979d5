"""The tail guard's simulation (`analysis.claims.tail_guard_size`): the published table is what the committed script
writes, and the guard only ever withholds."""

from __future__ import annotations

import pandas as pd
import pytest

from analysis.claims import tail_guard_size
from analysis.statistics import tail


def test_the_published_catch_rates_are_what_the_script_computes():
    published = pd.read_csv("paper/tables/tail_guard_size.csv")
    again = tail_guard_size.simulate(tail_guard_size.observed_correlation())
    pd.testing.assert_frame_equal(again, published, check_exact=False, rtol=1e-9)
    # a guard never declares a tie the typical-seed rule alone would not
    assert (published["with_guard"] <= published["rule_alone"]).all()
    # and it does withhold some ties of a far tail at the runs' largest seed counts
    far = published[(published["case"] == "typical tie") & (published["verdict"] == "tie")
                    & (published["far_share"] == 0.2) & (published["n"] == 40)]
    assert float(far["with_guard"].iloc[0]) < float(far["rule_alone"].iloc[0])


@pytest.mark.parametrize(("worse", "better", "either", "p"), [(5, 0, False, 1 / 32), (5, 0, True, 1 / 16),
                                                               (0, 5, False, 1.0), (0, 0, True, 1.0)])
def test_the_excess_test_is_the_exact_binomial(worse, better, either, p):
    assert float(tail.excess_p(worse, better, either)) == pytest.approx(p)
