"""B3O's advantage over TS as the horizon grows: the `horizon` experiment (B = 50, T = 25; config/extended.yaml) by
default, or any experiment with its own checkpoints and looks (`Horizon`; the large-batch study's T = 50 run passes
them from its config's `horizon` entry and seed plan).

Per problem, B3O variant and BO iteration t: the mean over seeds of the per-seed advantage (TS's simple regret minus
B3O's: positive = B3O better; the two share each seed's initial design) with its BCa 95% interval. At the
checkpoints t = 6 (the default run's horizon), 12 and 25 the comparisons are decided as claims 1 and 7 are
(`analysis.statistics.verdicts`): "B3O-X reaches a lower regret than TS", Holm over all comparisons at that t, the
problem's equivalence margin. The plan was written down before the run (config/extended.yaml): a look at 10 seeds and,
only if a t = 25 comparison is open there, a second at 15, with α spent over the two looks (O'Brien–Fleming type,
`analysis.statistics.sequential`). At each checkpoint the comparisons are decided at the first look on seeds 0–9, those
still open at the second on seeds 0–14 (Holm's step-down going on across the looks); a decision stands.

The tie is the problem's regret ratio (`problems.margins`), the same at every t.

Writes OUT.csv (every t; p, Holm p and verdict at the checkpoints), OUT.tex and OUT.md (the checkpoints).
"""

from __future__ import annotations

import argparse
import math

import numpy as np
import pandas as pd

from analysis.naming import problem_title
from analysis.statistics import sequential, verdicts
from analysis.statistics.sequential import Horizon
from analysis.tables import common
from problems.margins import margin

#: the tables the workflow writes with this script: name -> the experiment it needs (read unimported)
TABLES = {"horizon": "horizon"}
RIVAL = "TS"
CLAIMS = "claim 7 (and claim 1 for its constant-temperature variants)"


#: the `horizon` run's plan, written down before it (config/extended.yaml)
DEFAULT = sequential.HORIZON
#: simple regret's tie rule (`problems.margins`): the same ratio at every t
TIE = margin("any", "simple_regret")


def _regret(tidy: pd.DataFrame, experiment: str) -> pd.DataFrame:
    data = tidy[(tidy["experiment"] == experiment) & (tidy["iteration"] >= 1) & tidy["simple_regret"].notna()]
    return data[["problem", "label", "method", "seed", "iteration", "simple_regret"]]


def advantage_by_iteration(tidy: pd.DataFrame, plan: Horizon = DEFAULT) -> pd.DataFrame:
    """One row per (problem, B3O label, t): seeds paired with TS, mean advantage and its BCa interval; at the
    checkpoints also the test's p, Holm's p and the verdict."""
    data = _regret(tidy, plan.experiment)
    rival = data[data["label"] == RIVAL].set_index(["problem", "iteration", "seed"])["simple_regret"].sort_index()
    rows = []
    for (problem, label, t), group in data[data["method"] == "b3o"].groupby(["problem", "label", "iteration"]):
        if (problem, t) not in rival.index.droplevel("seed"):
            continue
        ours = group.set_index("seed")["simple_regret"]
        theirs = rival.loc[(problem, t)]
        seeds = ours.index.intersection(theirs.index).sort_values()
        a, b = ours[seeds].to_numpy(), theirs[seeds].to_numpy()
        d = verdicts.advantage(a, b, lower_is_better=True)
        rows.append({"problem": problem, "label": label, "iteration": int(t), "diffs": d, "ours": a, "theirs": b})
    experiment = plan.experiment
    if not rows:
        return pd.DataFrame()
    frame = pd.DataFrame(rows)
    decided = {}
    levels = sequential.nominal(plan.looks, spending=plan.spending)
    for t in plan.checkpoints:
        at_t = list(frame[frame["iteration"] == t].itertuples())
        if not at_t:
            continue
        # as the claims engine's looks (`analysis.claims.checking`): every comparison first on all its seeds at the
        # first look's level, which stands for one that reaches no look; then at look k (seeds 0..n−1) those still
        # open that have its n seeds, Holm over them. A problem whose settings stopped at an earlier look keeps that
        # look's statistics while the others go on.
        _decide_at(at_t, decided, None, 0, float(levels[0]))
        final: set[int] = set()
        for k, n in enumerate(plan.looks):
            open_ = [r for r in at_t if r.Index not in final and len(r.diffs) >= n]
            for index, row in _decide_at(open_, decided, n, k, float(levels[k])).items():
                if row["verdict"] not in (verdicts.INCONCLUSIVE, verdicts.FEW):
                    final.add(index)
    out = []
    for r in frame.itertuples():
        n = len(r.diffs)
        lo, hi = verdicts.bca(r.diffs) if n >= 2 else (math.nan, math.nan)
        out.append(
            {
                "experiment": experiment,
                "problem": r.problem,
                "label": r.label,
                "iteration": r.iteration,
                "n": n,
                "mean": float(np.mean(r.diffs)),
                "lo": lo,
                "hi": hi,
                "margin": TIE.text(),
                **decided.get(
                    r.Index,
                    {"p": math.nan, "p_holm": math.nan, "verdict": "", "level": math.nan, "look": math.nan,
                     "seeds_at_look": math.nan, "look_mean": math.nan, "look_lo": math.nan, "look_hi": math.nan},
                ),
            }
        )
    return pd.DataFrame(out).sort_values(["problem", "label", "iteration"], ignore_index=True)


def _decide_at(rows: list, decided: dict[int, dict], n: int | None, k: int, level: float) -> dict[int, dict]:
    """Decide `rows` (one checkpoint's) as one Holm family at look k's `level` on their first `n` seeds (None: all they
    have), writing each one's outcome into `decided`; returns those outcomes."""
    family = [
        verdicts.paired(r.label, RIVAL, r.problem, r.diffs[:n], "better",
                        TIE.sides(r.ours[:n], r.theirs[:n], lower_is_better=True), TIE.text())
        for r in rows
    ]
    out = {}
    for r, c in zip(rows, verdicts.decide(family, alpha=level)):
        out[r.Index] = decided[r.Index] = {
            "p": c.p, "p_holm": c.p_holm, "verdict": c.verdict, "level": level, "look": k + 1,
            "seeds_at_look": len(r.diffs[:n]), "look_mean": c.mean, "look_lo": c.lo, "look_hi": c.hi,
        }
    return out


def checkpoints(stats: pd.DataFrame) -> pd.DataFrame:
    """The checkpoint rows as text, and per t the claim's verdict over all its comparisons (`verdicts.combine`)."""
    at = stats[stats["verdict"].notna() & (stats["verdict"] != "")]  # read back from CSV, "" is NaN
    levels = at.dropna(subset=["look"]).drop_duplicates("look").sort_values("look")["level"]
    rows = []
    for t, group in at.groupby("iteration"):
        for r in group.itertuples():
            rows.append(
                {
                    "t": t,
                    "comparison": f"{r.label} vs {RIVAL} on {problem_title(r.problem)}",
                    "seeds": f"{int(r.seeds_at_look)} (look {int(r.look)})",
                    "advantage [95% CI]": common.with_ci(r.look_mean, r.look_lo, r.look_hi),  # on the look's seeds
                    "p (Holm)": common.number(r.p_holm),
                    "verdict": r.verdict,
                }
            )
        rows.append(
            {
                "t": t,
                "comparison": f"{CLAIMS}, at the looks' levels {', '.join(common.number(v) for v in levels)}",
                "seeds": int(group["n"].min()),
                "advantage [95% CI]": "",
                "p (Holm)": "",
                "verdict": verdicts.combine(list(group["verdict"])),
            }
        )
    return pd.DataFrame(rows)


def markdown(text: pd.DataFrame) -> str:
    header = "| " + " | ".join(text.columns) + " |\n|" + "---|" * len(text.columns) + "\n"
    return header + "".join("| " + " | ".join(str(v) for v in row) + " |\n" for row in text.itertuples(index=False))


def _counts(text: str) -> tuple[int, ...]:
    return tuple(int(v) for v in text.split(","))


def add_plan_arguments(cli: argparse.ArgumentParser) -> None:
    """--experiment, --checkpoints, --looks, --spending (defaults: the `horizon` run's plan)."""
    cli.add_argument("--experiment", default=DEFAULT.experiment, help="experiment read along its horizon")
    cli.add_argument("--checkpoints", type=_counts, default=DEFAULT.checkpoints, help="iterations t, e.g. 6,12,25,50")
    cli.add_argument("--looks", type=_counts, default=DEFAULT.looks, help="planned seed counts, e.g. 10,20,30")
    cli.add_argument("--spending", default=DEFAULT.spending, choices=sequential.SPENDING, help="α spending")


def plan_of(args: argparse.Namespace) -> Horizon:
    return Horizon(args.experiment, args.checkpoints, args.looks, args.spending)


def main(argv: list[str] | None = None) -> int:
    cli = common.parser("horizon", __doc__.splitlines()[0])
    add_plan_arguments(cli)
    args = cli.parse_args(argv)
    plan = plan_of(args)
    stats = advantage_by_iteration(pd.read_parquet(args.table), plan)
    if stats.empty:
        common.write_empty(args.out, f"No {plan.experiment} trials with both B3O and {RIVAL} in {args.table}.")
        return 0
    text = checkpoints(stats)
    common.write(args.out, stats, common.latex(text, columns="l p{6cm} l l l p{3.5cm}"))
    with open(f"{args.out}.md", "w") as out:
        out.write(markdown(text))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
