"""The display name of everything a reader sees: methods, problems, temperatures, acquisitions, samplers and
experiments. Figures, tables, the claims' text, the README blocks, the report and the site read names here and
format no id themselves.

Selections go by the grid's columns (method, acquisition, temperature, lam, sampler), not by display labels, so a
relabelled method is still found; labels are only what a reader sees. A config's label may spell grid ids (its
template "B3O-{acquisition}-{temperature}" makes "B3O-ucb-constant"): `display_label` spells them as the reader's
names ("B3O-UCB-c"), and the tidy and per-trial tables carry labels so spelled.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import pandas as pd

from b3o.samplers import titles
from bench.paper import VARIANTS  # the paper's variants, owned with its Table 2

#: (acquisition, temperature) -> the variant's suffix
VARIANT_NAMES = {setting: name for name, setting in VARIANTS.items()}
#: method id (`baselines` registry) -> its name
METHODS = {
    "b3o": "B3O",
    "ts": "TS",
    "random": "Random",
    "seq-ei": "Seq-EI",
    "qei": "q-EI",
    "lp": "LP",
    "seq-ehvi": "Seq-EHVI",
    "nsga2": "NSGA-II",
    "logei-mv": "LogEI-MV",
}
ACQUISITIONS = {"ucb": "UCB", "logei": "LogEI", "ehvi": "EHVI"}
#: temperature id -> the suffix of a B3O method's name (B3O-UCB-c)
TEMPERATURE_SUFFIXES = {"constant": "c", "scheduled": "s", "normalised": "n", "auto": "auto", "auto-tail": "auto"}
#: temperature id -> its name in a sentence or a title
TEMPERATURES = {
    "constant": "constant",
    "scheduled": "scheduled",
    "normalised": "normalised",
    "auto": "automatic (effective sample size)",
    "auto-tail": "automatic (tail ratio)",
}
SAMPLERS = titles()  # sampler name -> display title, from the samplers' registry
#: SVGP fit id (`bench.model_spec.FITS`) -> its name
FITS = {"lbfgs": "default (ELBO, q(u) fitted)", "collapsed": "collapsed"}
#: sampler id -> its short name, in a method's name or a table cell
SAMPLER_NAMES = {
    "defer": "DEFER",
    "defer-is": "DEFER-IS",
    "dmc": "DMC",
    "langevin": "MALA",
    "mh": "MH",
    "mixed-mh": "mixed-MH",
}
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
    "auto_tuning": "the automatic temperature's tuning run",
    "ts_starts": "TS with shared random starts",
    "collapsed_fit": "the collapsed SVGP fit",
    "collapsed_fit_large": "the collapsed SVGP fit at a larger N",
    "collapsed_fit_m500": "the collapsed SVGP fit at M = 500",
    "collapsed_fit_m500_confirm": "the collapsed SVGP fit at M = 500, second check",
    "m_check": "the inducing-point check (M = 500)",
    "synthetic_b100_confirm": "the large-batch study's readings on fresh seeds",
}

#: per-trial column a claim compares -> its name, beside a method's ("TS [first batch's diversity]")
QUANTITIES = {
    "value": "final value",
    "diversity": "mean diversity",
    "diversity_first": "first batch's diversity",
    "diversity_early": "diversity a fifth in",
    "diversity_last": "last batch's diversity",
}

#: grid id -> the name it is spelled as inside a label (longest ids first, so "defer-is" is not read as "defer")
_SPELLED = dict(
    sorted(
        {**METHODS, **ACQUISITIONS, **TEMPERATURE_SUFFIXES, **SAMPLER_NAMES}.items(),
        key=lambda item: -len(item[0]),
    )
)
#: an id as a whole segment of a label: not inside a longer word, number or id
_ID = re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, _SPELLED)) + r")(?![\w.])")


def experiment_title(experiment: str) -> str:
    """The reader's name of an experiment; a user's own experiment keeps its id."""
    return EXPERIMENTS.get(experiment, experiment)


def lambda_symbol(temperature: str) -> str:
    """What a temperature's configured `lam` is: lambda₀ of lambda_t = lambda₀·√t·log t when scheduled, else lambda."""
    return "λ₀" if temperature == "scheduled" else "λ"


#: a user's problem (a reference such as `camel_problem:camel`) -> its object's own name, as the run's records give it
_OWN_PROBLEMS: dict[str, str] = {}


def name_problems(names: Iterable[tuple[str, object]]) -> None:
    """Show each (problem id, its object's name) that `PROBLEMS` does not know by the object's name."""
    _OWN_PROBLEMS.update({problem: str(name) for problem, name in names if problem not in PROBLEMS and _present(name)})


def name_problems_in(table) -> None:
    """`name_problems` from a table's `problem` and `problem_name` columns, where it has the latter (a tidy table, or
    the per-trial table of a run with problems the package does not know)."""
    if "problem_name" in table and "problem" in table:
        name_problems(zip(table["problem"], table["problem_name"]))


def problem_title(problem: str) -> str:
    return PROBLEMS.get(problem) or _OWN_PROBLEMS.get(problem, problem)


def comparison_title(problem: str, left: str, right: str) -> str:
    """ "Ackley (5D): B3O-UCB-c λ=10 vs TS": one comparison's name, as claims.md, the tables and the README give it."""
    return f"{problem_title(problem)}: {left} vs {right}"


def temperature_title(temperature: str) -> str:
    return TEMPERATURES.get(temperature, temperature)


def sampler_name(sampler: str) -> str:
    return SAMPLER_NAMES.get(sampler, sampler)


def quantity_title(column: str) -> str:
    return QUANTITIES.get(column, column)


def ordered_problems(problems) -> list[str]:
    """Problems in the paper's order, unknown ones after, alphabetically."""
    problems = set(problems)
    return [p for p in PROBLEM_ORDER if p in problems] + sorted(problems - set(PROBLEM_ORDER))


def _present(value: object) -> bool:
    return isinstance(value, str) and value != ""


def method_title(method: str, acquisition: object = "", temperature: object = "", sampler: object = "") -> str:
    """A method setting's name from its grid values: "B3O-UCB-c", "B3O-LogEI (DEFER-IS)" (no temperature given),
    "q-EI"; the parts a method lacks (NaN or "") are left out."""
    name = METHODS.get(method, method)
    if method == "b3o":
        name = "-".join(
            [name]
            + ([ACQUISITIONS.get(acquisition, acquisition)] if _present(acquisition) else [])
            + ([TEMPERATURE_SUFFIXES.get(temperature, temperature)] if _present(temperature) else [])
        )
    return f"{name} ({sampler_name(sampler)})" if _present(sampler) else name


def display_label(label: object) -> object:
    """A label with the grid ids it spells as whole segments spelled as their names ("B3O-ucb-constant" ->
    "B3O-UCB-c", "qei" -> "q-EI", "B3O-UCB-c-defer-is" -> "B3O-UCB-c-DEFER-IS"); a label already so spelled, or that
    is no text, is returned as it is."""
    if not isinstance(label, str):
        return label
    return _ID.sub(lambda match: _SPELLED[match.group(1)], label)


def display_labels(frame: pd.DataFrame, columns: tuple[str, ...] = ("label",)) -> pd.DataFrame:
    """`frame` with its label `columns` (those it has) spelled by `display_label`; a column stays as it is where two
    of its labels in one experiment would read the same, so no two curves merge."""
    changed = {}
    for column in (c for c in columns if c in frame.columns):
        shown = frame[column].map(display_label)
        within = frame["experiment"] if "experiment" in frame.columns else pd.Series("", index=frame.index)
        names = pd.DataFrame({"within": within, "raw": frame[column], "shown": shown}).drop_duplicates()
        if not names.duplicated(["within", "shown"]).any():
            changed[column] = shown
    return frame.assign(**changed) if changed else frame


#: a shown table's columns of labels (`display_labels`) and of ids spelled by their titles
LABEL_COLUMNS = ("label", "auto", "rival", "left", "right")
TITLED_COLUMNS = {
    "problem": problem_title, "experiment": experiment_title, "method": method_title,
    "acquisition": lambda a: ACQUISITIONS.get(a, a), "temperature": temperature_title, "sampler": sampler_name,
    "fit": lambda f: FITS.get(f, f),
}


def displayed(frame: pd.DataFrame) -> pd.DataFrame:
    """A table as a reader sees it (a page showing a CSV, whose keys code reads): labels spelled as names, problem,
    experiment and method ids as their titles; other columns as they are."""
    shown = display_labels(frame, LABEL_COLUMNS)
    titled = {c: shown[c].map(lambda v, f=f: f(v) if isinstance(v, str) else v)
              for c, f in TITLED_COLUMNS.items() if c in shown.columns}
    return shown.assign(**titled) if titled else shown
