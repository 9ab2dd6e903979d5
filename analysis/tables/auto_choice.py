"""The tuning of the automatic temperatures, decided by the rule written before the run (docs/auto-temperature.md).

On Hartmann-6 only (the experiment `auto_tuning`, config/auto_temperature.yaml), for each candidate (`auto`: the
effective sample size of the Boltzmann weights at `per_sample` × B; `auto-tail`: `ratio` over α's upper tail) and
each value of its constant: the mean final simple regret of B3O-LogEI and of B3O-UCB, and their sum.

- The constant of a candidate: the value with the lowest sum. Values whose sum lies within Hartmann-6's equivalence
  margin as written down with this tuning (`problems/margins.yaml`'s `tuning_regret`: 5 % of the initial
  design's median regret) of the lowest are tied, and the tie goes to the middle of the grid (the value whose
  rank is nearest the grid's middle rank; between two, the smaller).
- The candidate: the one whose chosen constant has the lower sum.

The CSV lists every (candidate, constant) with its means, sum, whether it is tied with the best, and the two choices;
the .tex shows the same, one row per (candidate, constant).
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from analysis.data.aggregate import final
from analysis.naming import ACQUISITIONS, temperature_title
from analysis.tables import common
from problems.margins import tuning_margin

EXPERIMENT = "auto_tuning"
PROBLEM = "hartmann6"
#: the tables the workflow writes with this script: name -> the experiment it needs (read unimported)
TABLES = {"auto_choice": EXPERIMENT}
#: each automatic temperature's constant (`b3o.temperature`): temperature name -> its option
CONSTANTS = {"auto": "per_sample", "auto-tail": "ratio"}


def scores(tidy: pd.DataFrame) -> pd.DataFrame:
    """Mean final regret per (temperature, constant, acquisition), as columns per acquisition, and their sum."""
    rows = tidy[(tidy["experiment"] == EXPERIMENT) & (tidy["problem"] == PROBLEM)
                & tidy["temperature"].isin(list(CONSTANTS))]
    if rows.empty:
        return pd.DataFrame()
    last = final(rows)
    last = last.assign(constant=[float(json.loads(o)[CONSTANTS[t]]) for o, t in
                                 zip(last["temperature_options"], last["temperature"])])
    means = last.pivot_table(index=["temperature", "constant"], columns="acquisition", values="simple_regret",
                             aggfunc="mean")
    seeds = last.groupby(["temperature", "constant"])["seed"].nunique().rename("seeds")
    means.columns = [f"{a}_mean" for a in means.columns]
    return means.assign(summed=means.sum(axis=1, skipna=False)).join(seeds).reset_index()


def choose(table: pd.DataFrame, tie: float) -> pd.DataFrame:
    """`table` with `tied` (within `tie` of its candidate's lowest sum), `chosen_constant` and `chosen_candidate`."""
    parts = []
    for _, rows in table.groupby("temperature", sort=True):
        rows = rows.sort_values("constant").reset_index(drop=True)
        tied = rows["summed"] <= rows["summed"].min() + tie
        middle = (len(rows) - 1) / 2
        distance = np.abs(np.arange(len(rows)) - middle)
        pick = min(np.flatnonzero(tied), key=lambda i: (distance[i], rows.loc[i, "constant"]))
        parts.append(rows.assign(tied=tied, chosen_constant=rows.index == pick))
    out = pd.concat(parts, ignore_index=True)
    picked = out[out["chosen_constant"]]
    best = picked.loc[picked["summed"].idxmin(), "temperature"]
    return out.assign(chosen_candidate=out["chosen_constant"] & (out["temperature"] == best))


def main(argv: list[str] | None = None) -> int:
    args = common.parser("auto_choice", __doc__.splitlines()[0]).parse_args(argv)
    table = scores(pd.read_parquet(args.table))
    if table.empty:
        common.write_empty(args.out, f"No '{EXPERIMENT}' runs of an automatic temperature on {PROBLEM}.")
        return 0
    chosen = choose(table, tuning_margin(PROBLEM))
    shown = chosen.assign(
        option=chosen["temperature"].map(CONSTANTS),
        choice=np.where(chosen["chosen_candidate"], "chosen", np.where(chosen["chosen_constant"], "its constant", "")),
    )
    columns = ["temperature", "option", "constant", *[c for c in shown if c.endswith("_mean")], "summed", "seeds",
               "choice"]
    wide = shown[columns].assign(temperature=shown["temperature"].map(temperature_title))
    for column in columns[3:-2]:
        wide[column] = wide[column].map(common.number)
    acquisitions = [c.removesuffix("_mean") for c in columns[3:-3]]
    header = ["Temperature", "Constant", "Value", *[ACQUISITIONS.get(a, a) for a in acquisitions], "Sum", "Seeds",
              "Choice"]
    common.write(args.out, chosen, common.latex(wide, header))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
