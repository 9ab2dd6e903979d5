"""Does M change the answer? config/large_batch_m500.yaml's pre-registered paired check of the large-batch study's one
deliberate deviation (M = 64 inducing points where the paper has 500), decided by the rule its comment wrote down
before either run:

    python -m analysis.tables.m_check --table TIDY --reference paper/large_batch/tables/horizon_along.csv \
        --out paper/large_batch_m500/tables/m_check

On Hartmann-6, per seed s that has all four trials, at the last iteration: a500(s), TS-M500's simple regret minus
B3O-LogEI-c-M500's (positive: B3O better), and a64(s) the same at M = 64. M changes the answer if (i) the verdict
engine (`analysis.statistics.verdicts`, α = 0.05 two-sided) shows the mean of a500 − a64 different from 0, or (ii) it
decides B3O-LogEI-c against TS at M = 500 on these seeds (as claims 1 and 7 decide it: the problem's regret margin) in
the opposite direction to the large-batch run's verdict on Hartmann-6 at its last checkpoint (`--reference`, its
horizon table). Otherwise M was not shown to change it, and the interval of a500 − a64 says by how much it might.

Writes OUT.csv (and OUT.tex): a row per test, (i) and (ii), each with its verdict, and the rule's answer on both.
"""

from __future__ import annotations

import math

import pandas as pd

from analysis.statistics import verdicts
from analysis.tables import common
from problems.margins import margin

EXPERIMENT, PROBLEM = "m_check", "hartmann6"
#: the check's four settings: (B3O, TS) at M = 500 and at M = 64 (the large-batch run's own trials)
M500, M64 = ("B3O-LogEI-c-M500", "TS-M500"), ("B3O-LogEI-c", "TS")
#: simple regret's tie rule, as claims 1 and 7 use it (`problems.margins`)
TIE = margin("any", "simple_regret")
#: the verdicts that have a direction (B3O better, B3O worse); anything else is no direction
DIRECTION = {verdicts.HOLDS: 1, verdicts.FAILS: -1}


def final_regrets(tidy: pd.DataFrame) -> pd.DataFrame:
    """Seed -> each setting's simple regret at its last iteration, for the seeds that have all four."""
    data = tidy[(tidy["experiment"] == EXPERIMENT) & (tidy["problem"] == PROBLEM) & tidy["simple_regret"].notna()]
    last = data.sort_values("iteration").groupby(["label", "seed"]).tail(1)
    wide = last.pivot(index="seed", columns="label", values="simple_regret")
    return wide.reindex(columns=[*M500, *M64]).dropna().sort_index()


def reference_verdict(horizon: pd.DataFrame) -> str:
    """The large-batch run's verdict for B3O-LogEI-c against TS on Hartmann-6 at its last decided checkpoint."""
    rows = horizon[(horizon["problem"] == PROBLEM) & (horizon["label"] == M64[0])]
    rows = rows[rows["verdict"].notna() & (rows["verdict"] != "")]
    return str(rows.sort_values("iteration")["verdict"].iloc[-1]) if len(rows) else verdicts.NOT_MEASURED


def check(regrets: pd.DataFrame, reference: str) -> pd.DataFrame:
    """The rule's two tests on `regrets` (`final_regrets`) and its answer."""
    a500 = verdicts.advantage(regrets[M500[0]].to_numpy(), regrets[M500[1]].to_numpy(), lower_is_better=True)
    a64 = verdicts.advantage(regrets[M64[0]].to_numpy(), regrets[M64[1]].to_numpy(), lower_is_better=True)
    (shift,) = verdicts.decide([verdicts.paired("a500", "a64", PROBLEM, a500 - a64)])
    sides = TIE.sides(regrets[M500[0]].to_numpy(), regrets[M500[1]].to_numpy(), lower_is_better=True)
    (at_500,) = verdicts.decide([verdicts.paired(M500[0], M500[1], PROBLEM, a500, "better", sides, TIE.text())])
    shifted = shift.verdict in DIRECTION
    opposite = DIRECTION.get(at_500.verdict, 0) * DIRECTION.get(reference, 0) < 0
    changes = "yes" if shifted or opposite else "not shown"
    rows = [
        {"test": "(i) a500 − a64 different from 0", "reference": "", "shown": shifted, **_stats(shift)},
        {"test": "(ii) B3O-LogEI-c vs TS at M = 500, against the M = 64 run's verdict", "reference": reference,
         "shown": opposite, **_stats(at_500)},
    ]
    return pd.DataFrame(rows).assign(m_changes_the_answer=changes)


def _stats(c: verdicts.Paired) -> dict:
    return {"n": c.n, "mean": c.mean, "lo": c.lo, "hi": c.hi, "p": c.p, "margin": c.margin or "", "verdict": c.verdict}


def main(argv: list[str] | None = None) -> int:
    cli = common.parser("m_check", __doc__.splitlines()[0])
    cli.add_argument("--reference", required=True, help="the large-batch run's horizon table (horizon_along.csv)")
    args = cli.parse_args(argv)
    regrets = final_regrets(pd.read_parquet(args.table))
    if len(regrets) < 2:
        common.write_empty(args.out, f"Fewer than two seeds of {EXPERIMENT} with all four settings in {args.table}.")
        return 0
    table = check(regrets, reference_verdict(pd.read_csv(args.reference)))
    text = table.assign(
        advantage=[common.with_ci(r.mean, r.lo, r.hi) for r in table.itertuples()],
        p=[f"{p:.3g}" if not math.isnan(p) else "" for p in table["p"]],
    )[["test", "n", "advantage", "p", "verdict", "reference", "m_changes_the_answer"]]
    common.write(args.out, table, common.latex(text, columns="p{5cm} l l l p{3cm} p{2.5cm} l"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
