"""The fresh-seed confirmation of the paper-horizon run's exploratory readings: its plan, its decisions, its power.

    python -m analysis.statistics.confirmation --table PER_TRIAL.csv --out confirmation.csv   # the readings decided
    python -m analysis.statistics.confirmation --power --out confirmation_power.csv            # the plan's power and size

The plan is data, `confirmation.yaml` beside this module, committed before the run's first trial
(config/large_batch_confirm.yaml). Each reading compares one B3O variant with the rival (TS) on one problem, paired by
seed on the final simple regret: `typical`, how often the variant ends below the rival (an exact sign test); `basin`,
whether it ends in the global optimum's basin more often (an exact McNemar test: the discordant seeds, binomial
against ½; the basin is the problem's own, `problems.synthetic.SyntheticProblem.basin_regret`). A reading with an
expected direction is tested one-sided in it; all of them form one Holm family, decided through the plan's looks at
Pocock-type levels (`analysis.statistics.sequential`); a decision stands. A reading with no expected direction is
described (two-sided p, unadjusted) and decides nothing. The workflow gives a look's seeds only to the settings of
readings still open (`open_labels`, read by `analysis.claims.looks`).
"""

from __future__ import annotations

import argparse
import math
import sys
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd
import yaml
from scipy import stats

from analysis.statistics import sequential

PLAN_FILE = Path(__file__).with_name("confirmation.yaml")
#: the seeds simulated per reading for the plan's power (`power`)
SIMULATIONS = 20_000
REPLICATED, NOT_REPLICATED, OPEN, DESCRIPTIVE = "replicated", "not replicated", "open", "descriptive"
#: expected direction -> scipy's alternative for the count of the variant's wins (or variant-only basin seeds)
ALTERNATIVE = {"ahead": "greater", "more": "greater", "behind": "less"}


@dataclass(frozen=True)
class Reading:
    """One pre-registered reading: `variant` against the plan's rival on `problem`, of `kind` typical or basin, with
    its expected direction (`expect`, "none" for a descriptive one) and the exploratory counts that suggested it."""

    problem: str
    variant: str
    kind: str
    expect: str
    seen: str

    @property
    def directional(self) -> bool:
        return self.expect != "none"


@dataclass(frozen=True)
class Plan:
    experiment: str
    rival: str
    readings: tuple[Reading, ...]
    alpha: float
    looks: tuple[int, ...]
    spending: str

    def levels(self) -> np.ndarray:
        """Each look's one-sided nominal level: the two-sided plan's at 2α, halved (the plan file's words)."""
        return sequential.nominal(self.looks, alpha=2 * self.alpha, spending=self.spending) / 2


@cache
def plan(path: Path = PLAN_FILE) -> Plan:
    """The confirmation's plan as committed."""
    data = yaml.safe_load(Path(path).read_text())
    decision = data["decision"]
    return Plan(data["experiment"], data["rival"], tuple(Reading(**r) for r in data["readings"]),
                float(decision["alpha"]), tuple(decision["looks"]), decision["spending"])


def plan_for(experiment: str) -> Plan | None:
    """The committed plan if it is `experiment`'s, else None."""
    return plan() if plan().experiment == experiment else None


def counts(reading: Reading, paired: pd.DataFrame, basin_regret: float | None) -> tuple[int, int, int]:
    """(count for the variant, count for the rival, seeds that count for neither) on seed-paired final regrets
    (`paired`: columns variant and rival): typical, wins/losses/ties; basin, variant-only/rival-only/concordant seeds."""
    a, b = paired["variant"].to_numpy(), paired["rival"].to_numpy()
    if reading.kind == "typical":
        return int((a < b).sum()), int((a > b).sum()), int((a == b).sum())
    if basin_regret is None:
        raise ValueError(f"{reading.problem}: no basin defined (its problem has no basin_regret)")
    ina, inb = a < basin_regret, b < basin_regret
    return int((ina & ~inb).sum()), int((~ina & inb).sum()), int((ina == inb).sum())


def p_value(reading: Reading, mine: int, theirs: int) -> float:
    """One-sided in the expected direction, two-sided for a descriptive reading; 1 with nothing to count."""
    if mine + theirs == 0:
        return 1.0
    return float(stats.binomtest(mine, mine + theirs, 0.5, ALTERNATIVE.get(reading.expect, "two-sided")).pvalue)


def holm_step(p: Mapping[int, float], level: float) -> set[int]:
    """Holm's step-down at `level` over the readings `p` (index -> p): the indices it rejects."""
    rejected: set[int] = set()
    for rank, (index, value) in enumerate(sorted(p.items(), key=lambda item: item[1])):
        if value >= level / (len(p) - rank):
            break
        rejected.add(index)
    return rejected


def _paired(table: pd.DataFrame, the_plan: Plan, reading: Reading, seeds: list[int]) -> pd.DataFrame:
    rows = table[(table["experiment"] == the_plan.experiment) & (table["problem"] == reading.problem)
                 & (table["budget"] == table["final_budget"]) & table["seed"].isin(seeds)]
    wide = rows.pivot_table(index="seed", columns="label", values="value")
    if reading.variant not in wide or the_plan.rival not in wide:
        return pd.DataFrame(columns=["variant", "rival"])
    return wide[[reading.variant, the_plan.rival]].set_axis(["variant", "rival"], axis=1).dropna()


def decide(
    table: pd.DataFrame,
    the_plan: Plan | None = None,
    basins: Mapping[str, float | None] | None = None,
    through: int | None = None,
) -> pd.DataFrame:
    """Every reading of the plan on the per-trial table (`analysis.data.per_trial`): the directional ones through the
    plan's looks (at look k, the first n_k seeds; Holm over the readings still open), or through look `through` only,
    each look at its level in the whole plan (a plan cut short would spend α faster); the descriptive ones on every
    seed of the looks made. A look is made only once every reading still open has all its seeds: a look under way
    (some trials without a record) is left for later, with a warning naming what it lacks. One row per reading, in
    the plan's order."""
    the_plan = the_plan or plan()
    basins = basins if basins is not None else basin_regrets(the_plan)
    seeds = sorted(table.loc[table["experiment"] == the_plan.experiment, "seed"].unique())
    through = len(the_plan.looks) if through is None else through
    state: dict[int, dict] = {}
    made = 0  # the looks decided: each on all its seeds
    for k, (n, level) in enumerate(zip(the_plan.looks[:through], the_plan.levels()), start=1):
        still = [i for i, r in enumerate(the_plan.readings)
                 if r.directional and state.get(i, {}).get("status") != REPLICATED]
        paired = {i: _paired(table, the_plan, the_plan.readings[i], seeds[:n]) for i in still}
        short = {the_plan.readings[i]: len(p) for i, p in paired.items() if len(p) < n}
        if short:
            if len(seeds) > (the_plan.looks[k - 2] if k > 1 else 0):
                warnings.warn(_incomplete(k, n, short, made), stacklevel=2)
            break
        made = k
        at = {}
        for i in still:
            mine, theirs, neither = counts(the_plan.readings[i], paired[i], basins.get(the_plan.readings[i].problem))
            state[i] = {"look": k, "seeds": n, "mine": mine, "theirs": theirs, "neither": neither,
                        "p": p_value(the_plan.readings[i], mine, theirs), "status": OPEN}
            at[i] = state[i]["p"]
        ranked = sorted(at, key=at.get)
        for i in holm_step(at, level):
            state[i]["status"] = REPLICATED
        for rank, i in enumerate(ranked):  # the level Holm held this reading's p to at this look
            state[i]["holm_level"] = level / (len(at) - rank)
    last = made == len(the_plan.looks)
    described = seeds[: the_plan.looks[made - 1]] if made else []
    rows = []
    for i, r in enumerate(the_plan.readings):
        s = state.get(i)
        if not r.directional:
            paired = _paired(table, the_plan, r, described)
            mine, theirs, neither = counts(r, paired, basins.get(r.problem)) if len(paired) else (0, 0, 0)
            s = {"look": None, "seeds": len(paired), "mine": mine, "theirs": theirs, "neither": neither,
                 "p": p_value(r, mine, theirs), "status": DESCRIPTIVE}
        elif s is None:
            s = {"look": None, "seeds": 0, "mine": 0, "theirs": 0, "neither": 0, "p": math.nan, "status": OPEN}
        elif s["status"] == OPEN and last:
            s = {**s, "status": NOT_REPLICATED}
        counted = s["mine"] + s["theirs"]
        ci = stats.binomtest(s["mine"], counted).proportion_ci(method="exact") if counted else None
        rows.append({"problem": r.problem, "variant": r.variant, "rival": the_plan.rival, "kind": r.kind,
                     "expect": r.expect, "seen": r.seen, "look": s["look"], "seeds": s["seeds"],
                     "for_variant": s["mine"], "for_rival": s["theirs"], "neither": s["neither"],
                     "share": s["mine"] / counted if counted else math.nan,
                     "share_lo": ci.low if ci else math.nan, "share_hi": ci.high if ci else math.nan,
                     "p": s["p"], "holm_level": s.get("holm_level", math.nan), "status": s["status"]})
    return pd.DataFrame(rows)


def _incomplete(look: int, n: int, short: Mapping[Reading, int], made: int) -> str:
    """Why `decide` stopped before a look it was given: the look's open readings that lack some of its seeds."""
    which = "; ".join(f"{r.problem} {r.variant} {r.kind} ({paired} of {n})" for r, paired in short.items())
    through = f"the readings are decided through look {made} only" if made else "no reading is decided yet"
    return (f"look {look} ({n} seeds) is not complete, so {through}: "
            f"{len(short)} open reading(s) have fewer paired seeds than the look ({which}). A look is decided on all "
            "its seeds or not at all: on part of them its Holm family would shrink to the readings that happen to be "
            "complete.")


def open_labels(readings: pd.DataFrame) -> dict[str, set[str]]:
    """problem -> the labels that need the next look's seeds, from the readings decided so far (`decide` through the
    look just made): each variant of a directional reading not yet replicated, and the rival beside them (none on a
    problem whose directional readings are all replicated)."""
    still = readings[(readings["expect"] != "none") & (readings["status"] != REPLICATED)]
    return {p: set(g["variant"]) | set(g["rival"]) for p, g in still.groupby("problem")}


def basin_regrets(the_plan: Plan) -> dict[str, float | None]:
    """problem -> its `basin_regret`, for the plan's problems (builds them; problems are TensorFlow-free to name)."""
    import problems

    return {p: getattr(problems.get(p), "basin_regret", None) for p in {r.problem for r in the_plan.readings}}


def power(the_plan: Plan | None = None, simulations: int = SIMULATIONS, seed: int = 0) -> pd.DataFrame:
    """Each directional reading's chance of being replicated under the plan if its true share (or discordant split and
    rate) were what the exploration saw, seeds independent between readings; and, as a last row, the chance that any
    reading is called replicated when every true share is ½ (the plan's family-wise size, at the same discordance)."""
    the_plan = the_plan or plan()
    rng = np.random.default_rng(seed)
    readings = [r for r in the_plan.readings if r.directional]
    looks, levels = the_plan.looks, the_plan.levels()

    def replicated(shares: list[float], rates: list[float]) -> np.ndarray:
        out = np.zeros((simulations, len(readings)), dtype=bool)
        mine = np.zeros((simulations, len(readings)), dtype=int)
        counted = np.zeros_like(mine)
        previous = 0
        for n, level in zip(looks, levels):
            new = rng.binomial(n - previous, rates, size=(simulations, len(readings)))
            counted += new
            mine += rng.binomial(new, shares)
            previous = n
            p = np.ones(mine.shape)
            for j, r in enumerate(readings):
                alt = ALTERNATIVE[r.expect]
                k = np.where(alt == "greater", mine[:, j], counted[:, j] - mine[:, j])
                p[:, j] = np.where(counted[:, j] > 0, stats.binom.sf(k - 1, counted[:, j], 0.5), 1.0)
            p[out] = np.inf  # decided before: out of this look's family
            m = (~out).sum(axis=1, keepdims=True)
            order = np.argsort(p, axis=1)
            sorted_p = np.take_along_axis(p, order, axis=1)
            thresholds = level / np.maximum(m - np.arange(len(readings))[None, :], 1)
            passing = np.cumprod(sorted_p < thresholds, axis=1).astype(bool)
            rejected = np.zeros_like(out)
            np.put_along_axis(rejected, order, passing, axis=1)
            out |= rejected
        return out

    seen = [tuple(int(v) for v in r.seen.split("/")) for r in readings]
    shares = [a / (a + b) for a, b in seen]
    rates = [1.0 if r.kind == "typical" else (a + b) / 30 for r, (a, b) in zip(readings, seen)]
    hit = replicated(shares, rates)
    null = replicated([0.5] * len(readings), rates)
    rows = [{"problem": r.problem, "variant": r.variant, "kind": r.kind, "expect": r.expect, "seen": r.seen,
             "power": float(hit[:, j].mean())} for j, r in enumerate(readings)]
    rows.append({"problem": "all", "variant": "", "kind": "size", "expect": "", "seen": "every share 1/2",
                 "power": float(null.any(axis=1).mean())})
    return pd.DataFrame(rows)


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m analysis.statistics.confirmation", description=__doc__.splitlines()[0])
    cli.add_argument("--table", help="the per-trial table (analysis.data.per_trial) with the confirmation's trials")
    cli.add_argument("--power", action="store_true", help="simulate the plan's power and size instead")
    cli.add_argument("--out", required=True)
    args = cli.parse_args(argv)
    if not args.power and not args.table:
        cli.error("give --table, or --power")
    try:
        out = power() if args.power else decide(pd.read_csv(args.table))
    except (OSError, KeyError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    out.to_csv(args.out, index=False)
    print(out.to_string(index=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
