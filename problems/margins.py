"""Equivalence margins: per problem, the difference in its headline metric below which two methods count as tied.

Fixed before any comparison is read, from the problem alone, never from the methods' outcomes (`analysis.claims`
decides "equivalent" and "matches or beats" against them). The rule, `RULE`:
- a metric with a natural zero (simple regret, zero at the known optimum; hypervolume, zero at the reference point):
  FRACTION (5 %) of the median, over the initial designs of seeds 0 … REFERENCE_SEEDS − 1, of that metric after the
  initial design alone (iteration 0, before any method acts, so it is the same for every method), at the design
  size of `config/config.yaml` for the problem (`REFERENCE_N_INIT`); the runner's own `trial_design` makes them;
- a metric without one (Formula E's score, ½·lap time + ½·energy relative to the default car): a fixed value, given
  with its reason.
`python -m problems.margins` recomputes the derived ones (`tests/test_problems.py` checks the synthetic functions);
the numbers below are its output, rounded to three significant figures. Shekel-4 uses the design size of its
synthetic experiments (`config/config.yaml`, `config/extended.yaml`).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

FRACTION = 0.05
REFERENCE_SEEDS = 32
#: problem -> initial design size the derived margin is computed at
REFERENCE_N_INIT = {"ackley5": 50, "hartmann6": 50, "shekel4": 50, "battery": 40}

RULE = (
    f"an equivalence margin per problem, fixed before any run from the problem alone: {FRACTION:.0%} of the median "
    f"(over {REFERENCE_SEEDS} seeds) simple regret or hypervolume of the initial design, which every method shares; "
    "Formula E (no natural zero): 0.005, a 1 % change of lap time or of energy per lap (`problems/margins.py`)"
)


@dataclass(frozen=True)
class Margin:
    value: float
    reason: str


MARGINS: dict[str, Margin] = {
    "ackley5": Margin(0.155, f"{FRACTION:.0%} of the initial design's median simple regret"),
    "hartmann6": Margin(0.0849, f"{FRACTION:.0%} of the initial design's median simple regret"),
    "shekel4": Margin(0.484, f"{FRACTION:.0%} of the initial design's median simple regret"),
    "battery": Margin(4650.0, f"{FRACTION:.0%} of the initial design's median hypervolume"),
    "formula-e": Margin(
        0.005,
        "fixed: the score weighs lap time and energy each by ½ relative to the default car, so 0.005 is a 1 % change "
        "of either, the smallest a race engineer would act on; the score has no natural zero to take a fraction of",
    ),
}


def margin(problem: str) -> float | None:
    """The problem's equivalence margin in its headline metric's units; None for a problem without one."""
    found = MARGINS.get(problem)
    return None if found is None else found.value


def derive(problem: str, n_init: int | None = None, seeds: int = REFERENCE_SEEDS) -> float:
    """FRACTION of the median headline metric of the runner's initial design (regret, else hypervolume)."""
    import numpy as np

    import problems
    from baselines.design import trial_design
    from baselines.records import hypervolume

    built = problems.get(problem)
    n = REFERENCE_N_INIT[problem] if n_init is None else n_init
    values = []
    for seed in range(seeds):
        y = built.evaluate(trial_design(built, n, seed))
        if built.num_objectives > 1:
            values.append(hypervolume(y, built))
        else:
            best = built.minimisation_sign * np.min(built.minimisation_sign * y[:, 0])
            values.append(abs(built.optimum - best))
    return FRACTION * float(np.median(values))


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m problems.margins", description=__doc__.splitlines()[0])
    cli.add_argument("problems", nargs="*", default=list(REFERENCE_N_INIT), help="problems to derive")
    args = cli.parse_args(argv)
    for name in args.problems:
        print(f"{name}: derived {derive(name):.3g}, stored {MARGINS[name].value:.3g}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
