"""Comparisons a study declares in its config (`compare:` under an experiment), decided by the paper's engine.

A researcher writes, before the run, which method should beat which:

    experiments:
      my_study:
        ...
        compare:
          - {a: MaxVar, b: Random}                              # better (the default)
          - {a: B3O-UCB-c, b: MaxVar, relation: matches_or_beats}
          - {a: B3O-UCB-c, b: TS, relation: similar, problems: [camel]}   # or my_problem:camel

Each entry becomes a catalogue-style claim (`analysis.claims.claim.Claim`) between the two labels on each of the
experiment's problems (or the ones it names), paired by seed at each method's final budget, decided by
`analysis.claims.checking` with the same tests, margins (`problems.margins`) and planned looks as the paper's claims.
The entries of one experiment, relation and problem list form one Holm family, so declaring more comparisons makes
each harder to show, as it should. `bench.config_check.declared_errors` refuses an entry whose labels or problems the experiment
lacks before any trial runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

import pandas as pd

from analysis.claims import checking, wording
from analysis.claims.claim import Claim
from analysis.claims.comparisons import Compared
from analysis.claims.selection import Slot, where
from analysis.statistics import verdicts

#: relation -> what a declared comparison says, A and B its two labels
SAYS = {
    "better": "{a} ends better than {b}",
    "matches_or_beats": "{a} matches or beats {b}",
    "similar": "{a} and {b} end alike",
}
SOURCE = "declared in the config"


@dataclass(frozen=True)
class Declared:
    """One declared comparison: its experiment, its place in the experiment's `compare` list, and the entry."""

    experiment: str
    index: int
    a: str
    b: str
    relation: str
    problems: tuple[str, ...] | None

    def text(self) -> str:
        return SAYS[self.relation].format(a=self.a, b=self.b)


def declared(experiments: Mapping[str, Mapping]) -> list[Declared]:
    """Every declared comparison of a config's `experiments`, in the config's order."""
    return [
        Declared(name, i, entry["a"], entry["b"], entry.get("relation", "better"),
                 tuple(entry["problems"]) if entry.get("problems") else None)
        for name, experiment in experiments.items()
        for i, entry in enumerate(experiment.get("compare", []))
    ]


def families(entries: list[Declared]) -> dict[tuple[str, str, tuple[str, ...] | None], Claim]:
    """One claim per (experiment, relation, problems): its pairs are those entries, in order, one Holm family."""
    grouped: dict[tuple, list[Declared]] = {}
    for d in entries:
        grouped.setdefault((d.experiment, d.relation, d.problems), []).append(d)
    return {
        key: Claim(
            f"declared_{key[0]}_{key[1]}",
            "; ".join(d.text() for d in members),
            SOURCE,
            key[0],
            key[1],
            tuple((Slot(d.a, where(label=d.a)), Slot(d.b, where(label=d.b))) for d in members),
            key[2],
            beyond_paper=True,
        )
        for key, members in grouped.items()
    }


@dataclass(frozen=True)
class Verdict:
    """A declared comparison decided: its verdict over its problems, each problem's line, and the binding one."""

    entry: Declared
    verdict: str
    measured: str
    binding: Compared | None
    compared: tuple[Compared, ...]


def decide(
    table: pd.DataFrame, experiments: Mapping[str, Mapping], looks: dict[str, tuple[int, ...]] | None = None
) -> list[Verdict]:
    """Every declared comparison of `experiments` decided on the per-trial table (`analysis.data.per_trial`),
    through the experiment's planned looks if it has them; a comparison whose experiment did not run is not
    measured."""
    entries = [replace(d, problems=_as_listed(d.problems, table)) for d in declared(experiments)]
    out: dict[Declared, Verdict] = {}
    for key, claim in families(entries).items():
        members = [d for d in entries if (d.experiment, d.relation, d.problems) == key]
        found = checking.compared(claim, table, looks)
        for index, d in enumerate(members):
            if found is None:
                out[d] = Verdict(d, verdicts.NOT_MEASURED, f"experiment '{d.experiment}' was not run", None, ())
                continue
            mine = [c for c in found.compared if c.unit[1] == index]
            verdict = verdicts.combine([c.stat.verdict for c in mine], len(found.problems))
            lines = wording.lines(mine, found.data, claim.quantity)
            missing = [m for m in found.missing if m.split(": ")[-1] in (d.a, d.b) or ": " not in m]
            if missing:
                lines.append("not run: " + wording.missing_text(missing))
            out[d] = Verdict(d, verdict, "\n".join(lines), wording.binding(mine, verdict), tuple(mine))
    return [out[d] for d in entries]


def _as_listed(problems: tuple[str, ...] | None, table: pd.DataFrame) -> tuple[str, ...] | None:
    """A comparison's problems as the table lists them: one named by its object's name (`shifted-sphere`, as figures
    and tables show it) is the problem of that name (`my_problem:shifted_sphere`)."""
    if problems is None or "problem_name" not in table:
        return problems
    listed, named = set(table["problem"]), dict(zip(table["problem_name"], table["problem"]))
    return tuple(p if p in listed else named.get(p, p) for p in problems)


def frame(decided: list[Verdict]) -> pd.DataFrame:
    """One row per declared comparison: what it says, its verdict, what was measured and its binding comparison
    (mean advantage with its 95 % BCa interval, the seeds an undecided one would need)."""
    rows = []
    for v in decided:
        stat = v.binding.stat if v.binding is not None else None
        rows.append({
            "experiment": v.entry.experiment,
            "comparison": v.entry.text(),
            "a": v.entry.a,
            "b": v.entry.b,
            "relation": v.entry.relation,
            "verdict": v.verdict,
            "measured": v.measured,
            "binding": wording.binding_name(v.binding) if v.binding is not None else "",
            "binding_mean": stat.mean if stat else float("nan"),
            "binding_lo": stat.lo if stat else float("nan"),
            "binding_hi": stat.hi if stat else float("nan"),
            "seeds_needed": stat.seeds_needed if stat and v.verdict.startswith(verdicts.INCONCLUSIVE) else None,
        })
    out = pd.DataFrame(rows, columns=["experiment", "comparison", "a", "b", "relation", "verdict", "measured", "binding",
                                      "binding_mean", "binding_lo", "binding_hi", "seeds_needed"])
    out["seeds_needed"] = out["seeds_needed"].astype("Int64")
    return out
