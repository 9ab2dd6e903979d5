"""What the paper fixes for B3O: its four variants and its Table 2 of tuned λ (λ0 for a scheduled temperature), and
the length of its sequential baseline.

One owner for the configs, where `lam: table2` names Table 2 (`bench.grid` resolves it before any trial spec
exists), and for the analysis, whose claims compare a λ-ablation with it (`analysis.claims.checking`). Whole numbers stay
integers: a trial id hashes the spec's JSON, where 5 and 5.0 differ, and the configs have always written them so.
"""

from __future__ import annotations

#: the paper's four B3O variants: suffix -> (acquisition, temperature)
VARIANTS = {
    "LogEI-s": ("logei", "scheduled"),
    "LogEI-c": ("logei", "constant"),
    "UCB-s": ("ucb", "scheduled"),
    "UCB-c": ("ucb", "constant"),
}

#: the paper's Table 2: synthetic function -> λ of each variant, in the order of VARIANTS
TABLE_2 = {
    "shekel4": (5, 1, 1, 5),
    "ackley5": (0.1, 1, 5, 10),
    "hartmann6": (0.1, 0.1, 5, 10),
}
#: Table 2 by cell: (problem, variant suffix) -> λ (λ0 for a scheduled temperature)
TABLE_2_CELLS = {(problem, name): lam for problem, row in TABLE_2.items() for name, lam in zip(VARIANTS, row)}
#: the config value that stands for Table 2
TABLE_2_NAME = "table2"
#: Seq-EI's sequential steps in Sec. 6.1, against the batch methods' 5,000 queries
SEQ_EI_STEPS = 750


def table_2_lam(problem: str, params: dict) -> float:
    """Table 2's λ for a B3O method's `params` (its acquisition and temperature) on `problem`; ValueError if none."""
    setting = (params.get("acquisition"), params.get("temperature"))
    settings = list(VARIANTS.values())
    if problem not in TABLE_2 or setting not in settings:
        raise ValueError(
            f"lam: {TABLE_2_NAME} has no λ for problem {problem!r} with acquisition/temperature "
            f"{setting[0]}/{setting[1]}; the paper's Table 2 covers {', '.join(TABLE_2)} and "
            f"{', '.join(f'{a}/{t}' for a, t in settings)} (give params acquisition and temperature, or a number)"
        )
    return TABLE_2[problem][settings.index(setting)]
