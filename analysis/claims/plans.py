"""Whether a config's seed plans can decide its claims, checked before any trial runs.

    b3o check-plans --configfile config/config.yaml     # refuses a planned look that cannot decide anything

At a look with n seeds the sign-flip test cannot give a two-sided p below `verdicts.p_floor(n)`, whatever the data
(2^(1−n) for the exact test up to `verdicts.EXACT_MAX` seeds), and Holm's first step multiplies the smallest p by m,
the comparisons it adjusts over there. So a claim can decide something at a look only if m · p_floor(n) < the look's
level: its nominal level in the whole plan (`analysis.statistics.sequential.nominal`, the claims engine's spending) for
a planned look, α for a fixed seed count. m counts the claim's comparisons in this config, paired by
`analysis.claims.checking.pairing` on the config's grid rows (one row per setting): at the first look all of them; at
a later look all of them again if no earlier look could decide any, else as few as one may still be open there
(`checking._through_looks` adjusts over the open ones only).

The rule: a planned look at which no claim of its experiment can decide anything is refused (one error line, exit 2;
the workflow raises it while parsing the config): its seeds would be spent on a look that is a decision in name only.
A look at which some claims can decide and others cannot is allowed, as planned looks exist for comparisons that
need more seeds; each claim that cannot is named in a note. A fixed seed count is one look at α and never refused
(toy configs run 1-2 seeds, and a too-small design reports "too few seeds" per comparison); its undecidable claims
are notes too, and an experiment at which nothing can be decided is said in one sentence first (`undecidable`; the
workflow warns so before any job). A study's declared comparisons (`compare:`) are claims here like the paper's. An
experiment none of whose claims has a comparison in the config (problems no claim covers, nothing declared) has
nothing for its looks to decide and is not judged, and neither is Table 2 (`table_2_reproduced`), which is decided
once, at the last look.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import yaml

from analysis.claims import checking, declared
from analysis.claims.catalogue import CATALOGUE
from analysis.claims.selection import member_names
from analysis.data.tidy import grid_frame
from analysis.statistics import sequential, verdicts
from bench.grid import seed_looks, trial_grid


@dataclass(frozen=True)
class Look:
    """One claim at one look of its experiment: `look` is 1, 2, … for a planned look, None for a fixed seed count;
    `family` the comparisons Holm adjusts over there at fewest; `attainable` the smallest Holm-adjusted p."""

    experiment: str
    claim: str
    look: int | None
    seeds: int
    family: int
    level: float

    @property
    def attainable(self) -> float:
        return self.family * verdicts.p_floor(self.seeds)

    @property
    def decides(self) -> bool:
        return self.attainable < self.level

    def where(self) -> str:
        at = f"look {self.look}" if self.look is not None else "its fixed seed count"
        return f"experiment {self.experiment!r}, {at} ({self.seeds} seeds)"

    def bound(self) -> str:
        relation = "<" if self.decides else "≥"
        return (
            f"{self.claim}: {self.family} comparison(s) × 2^(1−{self.seeds}) = {self.attainable:.4g} {relation} "
            f"level {self.level:.4g}"
        )


def families(config: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """Experiment -> claim -> its comparisons in this config (claims with none left out), for the enabled
    experiments, paired as the claims are checked: the paper's claims and the comparisons a study declares
    (`compare:`, one claim per Holm family, `analysis.claims.declared`)."""
    rows = [{**row.as_row(), "record": ""} for row in trial_grid(dict(config))]
    if not rows:
        return {}
    grid = grid_frame(pd.DataFrame(rows)).drop(columns=["trial_id", "seed", "record"]).drop_duplicates()
    claims = [*CATALOGUE, *declared.families(declared.declared(config["experiments"])).values()]
    out: dict[str, dict[str, int]] = {}
    for experiment, data in grid.groupby("experiment", sort=False):
        data = data.assign(member=member_names(data))
        sizes = {c.name: len(checking.pairing(c, data)[1]) for c in claims if c.experiment == experiment}
        out[experiment] = {name: size for name, size in sizes.items() if size}
    return out


def looks(config: Mapping[str, Any]) -> list[Look]:
    """Every claim of the config at every look of its experiment (planned looks: the whole plan, `until` aside)."""
    out = []
    for experiment, claims in families(config).items():
        seeds = config["experiments"][experiment]["seeds"]
        counts = seed_looks(seeds)
        planned = isinstance(seeds, Mapping)
        levels = sequential.nominal(counts, spending=sequential.CLAIMS_SPENDING) if planned else [verdicts.ALPHA]
        for claim, size in claims.items():
            could = False  # whether an earlier look could decide some of the claim's comparisons
            for k, (n, level) in enumerate(zip(counts, levels), start=1):
                look = Look(experiment, claim, k if planned else None, n, 1 if could else size, float(level))
                could = could or look.decides
                out.append(look)
    return out


def check(config: Mapping[str, Any]) -> list[str]:
    """Notes on the claims that cannot decide at some look; a ValueError naming the first planned look at which no
    claim of its experiment can decide anything (with the claim nearest to deciding there)."""
    every = looks(config)
    by_look: dict[tuple[str, int | None], list[Look]] = {}
    for look in every:
        by_look.setdefault((look.experiment, look.look), []).append(look)
    for (experiment, k), found in by_look.items():
        if k is not None and not any(look.decides for look in found):
            nearest = min(found, key=lambda look: look.attainable)
            plan = ", ".join(map(str, seed_looks(config["experiments"][experiment]["seeds"])))
            raise ValueError(
                f"{nearest.where()} cannot decide any claim (looks {plan}, {sequential.CLAIMS_SPENDING}-type "
                f"spending): at best {nearest.bound()}; start the plan at more seeds"
            )
    return [f"note: {look.where()}: {look.bound()}, cannot decide" for look in every if not look.decides]


@dataclass(frozen=True)
class Undecidable:
    """An experiment of a fixed seed count at which none of its claims or declared comparisons can be decided
    whatever the data: its smallest attainable p (at most 1) and the fewest seeds at which one could be."""

    experiment: str
    seeds: int
    best_p: float
    fewest: int

    def sentence(self) -> str:
        return (f"experiment {self.experiment!r} runs {self.seeds} seed(s), too few to decide any of its comparisons "
                f"whatever the results (at best p = {self.best_p:.3g}, not below α = {verdicts.ALPHA:g}): every "
                f"verdict will read 'too few seeds'; {self.fewest} seeds are the fewest at which one could be decided")


def undecidable(config: Mapping[str, Any]) -> list[Undecidable]:
    """The experiments whose verdicts will all read "too few seeds", which a run should say before it spends anything
    (a smoke run may mean it)."""
    fixed: dict[str, list[Look]] = {}
    for look in looks(config):
        if look.look is None:
            fixed.setdefault(look.experiment, []).append(look)
    return [
        Undecidable(experiment, found[0].seeds, min(1.0, *(look.attainable for look in found)),
                    min(verdicts.fewest_seeds(look.family) for look in found))
        for experiment, found in fixed.items() if not any(look.decides for look in found)
    ]


def undecidable_warning(found: list[Undecidable]) -> str | None:
    """The workflow's one line on them: the sentence for one experiment, a list for several (a smoke run's six)."""
    if len(found) <= 1:
        return found[0].sentence() if found else None
    listed = ", ".join(f"{u.experiment!r} ({u.seeds}; {u.fewest})" for u in found)
    return (f"{len(found)} experiments run too few seeds to decide any of their comparisons whatever the results, so "
            f"every verdict of theirs will read 'too few seeds' (experiment (seeds; the fewest that could decide)): "
            f"{listed}")


def register(subparsers: argparse._SubParsersAction) -> None:
    command = subparsers.add_parser(
        "check-plans",
        help="refuse a config whose planned looks cannot decide any claim (exit 2); note the claims that cannot",
    )
    command.add_argument("--configfile", required=True, help="a workflow config (YAML)")
    command.set_defaults(func=_check_plans)


def _check_plans(args: argparse.Namespace) -> int:
    try:
        config = yaml.safe_load(Path(args.configfile).read_text())
        if not isinstance(config, dict) or not isinstance(config.get("experiments"), dict):
            raise ValueError(f"{args.configfile}: a workflow config is a mapping with `experiments`")
        notes = check(config)
    except (OSError, ValueError, KeyError, yaml.YAMLError) as error:
        print(f"b3o check-plans: error: {error}", file=sys.stderr)
        return 2
    for line in [*(u.sentence() for u in undecidable(config)), *notes]:
        print(line)
    return 0
