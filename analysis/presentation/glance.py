"""Which run's verdict a claim shows at a glance: the one owner of that choice, read by the README's glance table
(`analysis.presentation.readme`) and the results site's index (`analysis.site`)."""

from __future__ import annotations

import pandas as pd

from analysis.data import published
from analysis.statistics import verdicts

#: the published runs in published.CLAIMS' order, smallest first: a claim's verdict at a glance is the one of the last
#: run here that measured it (battery_temperature, claim 12 alone on fresh seeds, decides it by the rule its config
#: wrote before it ran)
RUNS = tuple(published.CLAIMS)


def chosen(tables: dict[str, pd.DataFrame]) -> dict[int, tuple[str, pd.Series]]:
    """claim number -> (run, its row) of the last run in RUNS' order that measured it; a claim no run measured keeps
    the first run's row (saying so). A run outside RUNS comes last."""
    picked: dict[int, tuple[str, pd.Series]] = {}
    for run in sorted(tables, key=lambda r: RUNS.index(r) if r in RUNS else len(RUNS)):
        for _, row in tables[run].iterrows():
            if row["verdict"] != verdicts.NOT_MEASURED or row["number"] not in picked:
                picked[row["number"]] = (run, row)
    return dict(sorted(picked.items()))
