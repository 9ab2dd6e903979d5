"""The paper's Table 2: the tuned λ (λ0 for a scheduled temperature) per synthetic function and B3O variant.

One owner for the configs, where `lam: table2` names it (`baselines.grid` resolves it before any trial spec exists),
and for the claims that compare a λ-ablation with it (`analysis.claims`). Keyed by grid values, not display names.
Whole numbers stay integers: a trial id hashes the spec's JSON, where 5 and 5.0 differ, and the configs have always
written them as integers.
"""

from __future__ import annotations

#: the config value that stands for this table
NAME = "table2"

#: (problem, acquisition, temperature) -> λ, in the paper's order
TABLE_2: dict[tuple[str, str, str], float] = {
    ("shekel4", "logei", "scheduled"): 5,
    ("shekel4", "logei", "constant"): 1,
    ("shekel4", "ucb", "scheduled"): 1,
    ("shekel4", "ucb", "constant"): 5,
    ("ackley5", "logei", "scheduled"): 0.1,
    ("ackley5", "logei", "constant"): 1,
    ("ackley5", "ucb", "scheduled"): 5,
    ("ackley5", "ucb", "constant"): 10,
    ("hartmann6", "logei", "scheduled"): 0.1,
    ("hartmann6", "logei", "constant"): 0.1,
    ("hartmann6", "ucb", "scheduled"): 5,
    ("hartmann6", "ucb", "constant"): 10,
}


def lam(problem: str, params: dict) -> float:
    """Table 2's λ for a B3O method's `params` (its acquisition and temperature) on `problem`; ValueError if none."""
    key = (problem, params.get("acquisition"), params.get("temperature"))
    if key not in TABLE_2:
        problems = ", ".join(dict.fromkeys(p for p, _, _ in TABLE_2))
        variants = ", ".join(sorted({f"{a}/{t}" for _, a, t in TABLE_2}))
        raise ValueError(
            f"lam: {NAME} has no λ for problem {problem!r} with acquisition/temperature {key[1]}/{key[2]}; the "
            f"paper's Table 2 covers {problems} and {variants} (give params acquisition and temperature, or a number)"
        )
    return TABLE_2[key]
