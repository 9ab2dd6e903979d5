"""Display names shared by figures, tables and claims, and the paper's B3O variants as grid-column values.

Selections go by the grid's columns (method, acquisition, temperature, lam, sampler), not by display labels, so a
relabelled method is still found; labels are only what a reader sees.
"""

from __future__ import annotations

from b3o.samplers import titles
from baselines.paper import VARIANTS  # noqa: F401 (the paper's variants, owned with its Table 2)

#: (acquisition, temperature) -> the variant's suffix
VARIANT_NAMES = {setting: name for name, setting in VARIANTS.items()}
ACQUISITIONS = {"ucb": "UCB", "logei": "LogEI", "ehvi": "EHVI"}
SAMPLERS = titles()  # sampler name -> display title, from the samplers' registry
PROBLEMS = {
    "shekel4": "Shekel (4D)",
    "ackley5": "Ackley (5D)",
    "hartmann6": "Hartmann (6D)",
    "forrester1": "Forrester (1D)",
    "branin2": "Branin (2D)",
    "battery": "Battery electrode design (9D)",
    "formula-e": "Formula E (4 continuous + 2 categorical)",
}
PROBLEM_ORDER = ("shekel4", "ackley5", "hartmann6", "battery", "formula-e")


#: what a reader calls each of the paper's experiments (the config's ids name the paper's settings, not this run's:
#: `synthetic_b100` runs B = 50 at the reduced scale)
EXPERIMENTS = {
    "synthetic_b100": "the large-batch study",
    "synthetic_b5": "the small-batch study (B = 5)",
    "lambda_ablation": "the λ ablation",
    "sampler_ablation": "the sampler ablation",
    "battery": "the battery electrode design",
    "formula_e": "the Formula E car",
    "horizon": "the longer horizon",
    "auto_synthetic": "the automatic temperature on the synthetic functions",
    "auto_battery": "the automatic temperature on the battery",
    "auto_formula_e": "the automatic temperature on Formula E",
}


def experiment_title(experiment: str) -> str:
    """The reader's name of an experiment; a user's own experiment keeps its id."""
    return EXPERIMENTS.get(experiment, experiment)


def lambda_symbol(temperature: str) -> str:
    """What a temperature's configured `lam` is: lambda₀ of lambda_t = lambda₀·√t·log t when scheduled, else lambda."""
    return "λ₀" if temperature == "scheduled" else "λ"


def problem_title(problem: str) -> str:
    return PROBLEMS.get(problem, problem)


def ordered_problems(problems) -> list[str]:
    """Problems in the paper's order, unknown ones after, alphabetically."""
    problems = set(problems)
    return [p for p in PROBLEM_ORDER if p in problems] + sorted(problems - set(PROBLEM_ORDER))
