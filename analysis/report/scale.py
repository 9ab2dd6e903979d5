"""Page one's run in words: its name (`analysis.presentation.run_names`) and its scale against the paper's, per
experiment the paper gives settings for, with the inducing points from the run's config."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from bench.grid import trial_grid
from bench.model_spec import EXACT_GP_UP_TO, ModelSpec

from analysis.formatting import number
from analysis.naming import experiment_title
from analysis.presentation import deviations, run_names
from analysis.presentation.deviations import SETTINGS
from analysis.report import text as say
from analysis.report.inputs import Run
from analysis.report.latex import path, text


#: what a published run's report is part of, under the run's own title
REPRODUCING = "Reproducing B3O: Boltzmann Batch Bayesian Optimisation"


def title_block(run: Run) -> tuple[str, str] | None:
    """A run the listing names: (its question in words, the byline under it: its scale, its directory and what it
    reproduces; LaTeX), so that the report's title says which run at which scale (`analysis.presentation.run_names`).
    None for a run the listing does not name, which page one names (`named`)."""
    name = run_names.name(run.paper)
    if name.title == name.directory:
        return None
    lines = [text(name.scale), f"directory {path(name.directory)}", text(REPRODUCING)]
    return name.title, r"\\ ".join(line for line in lines if line)


def named(run: Run) -> str:
    """'This run (its scale; directory paper/x).' for a run the listing does not name; nothing for one it names,
    whose title says it (`title_block`)."""
    name = run_names.name(run.paper)
    if name.title != name.directory:
        return ""
    return "This run (" + "; ".join(p for p in (text(name.scale), f"directory {path(name.directory)}") if p) + ")."


#: the settings of an experiment's scale: the name `analysis.presentation.deviations` gives it -> (symbol, the
#: per-trial column it is read from)
SCALE = {"batch size B": ("B", "batch_size"), "iterations T": ("T", "iterations"), "initial points N₀": ("N₀", "n_init"),
         "seeds": ("seeds", "seed")}


def scale(run: Run) -> str:
    """Per experiment the paper gives settings for, its scale against the paper's: 'It runs the large-batch study at
    the paper's scale: B = 100, T = 50, N₀ = 100, 10–30 seeds per method and problem.', or 'at reduced scale: B = 50
    (paper 100), ...' where a setting is smaller (B, T and N₀ the experiment's most common, from the per-trial table;
    seeds per method and problem, their largest count compared); then the inducing points M from the run's config,
    where it is given, against the paper's."""
    if run.per_trial is None:
        return ""
    paper = {(s.experiment, s.name): s.paper for s in SETTINGS}
    phrases = []
    for experiment, rows in run.per_trial.groupby("experiment", sort=False):
        trials = rows.drop_duplicates("trial_id")
        seeds = trials.groupby(["problem", "label"])["seed"].nunique()
        said, smaller, other = [], False, False
        for setting, (symbol, column) in SCALE.items():
            theirs = paper.get((experiment, setting))
            if theirs is None:
                continue
            if column == "seed":
                ours, shown = int(seeds.max()), f"{say.range_text(seeds)} seeds per method and problem"
            else:
                ours = int(trials[column].mode()[0])
                shown = f"{symbol} = {ours}"
            stated = isinstance(theirs, (int, float))
            smaller |= stated and ours < theirs
            other |= stated and ours != theirs
            said.append(shown + (f" (paper {number(theirs)})" if stated and ours != theirs else ""))
        if said:
            at = "at reduced scale" if smaller else "at a scale other than the paper's" if other else "at the paper's scale"
            phrases.append(f"{text(experiment_title(experiment))} {at}: {', '.join(said)}")
    if not phrases:
        return ""
    return "It runs " + "; ".join(phrases) + "." + _inducing(run.config)


def surrogate(run: Run) -> str:
    """'Its surrogate is an exact GP (GPR) in every trial, the default where ...' from the run's config: the models its
    trials fit (`bench.grid`), named in words, with the rule of the default where the config names none."""
    if not run.config or not Path(run.config).is_file():
        return ""
    config = yaml.safe_load(Path(run.config).read_text(encoding="utf-8")) or {}
    models = {json.dumps(row.spec.model, sort_keys=True): row.spec.model for row in trial_grid(config)}
    if not models:
        return ""
    said = say.series([_model_words(model) for model in models.values()])
    rule = "" if _names_a_model(config) else (
        f": the config names no model, and the default is an exact GP for a trial of at most {EXACT_GP_UP_TO} "
        f"points (N₀ + B·T), the paper's SVGP (M = 500) above")
    return text(f"Its surrogate is {said}{rule}.")


def _names_a_model(config: dict) -> bool:
    """Whether the config names a model anywhere (its defaults, an experiment or a method entry)."""
    experiments = config.get("experiments", {}).values()
    return "model" in config.get("defaults", {}) or any(
        "model" in experiment or any("model" in entry for entry in experiment.get("methods", []))
        for experiment in experiments)


def _model_words(model: dict) -> str:
    """'an exact GP (GPR)', 'an SVGP with M = 64 inducing points' or 'a deep ensemble'."""
    spec = ModelSpec.from_dict(model)
    if spec.kind == "gpr":
        return "an exact GP (GPR)"
    if spec.kind == "svgp":
        return f"an SVGP with M = {spec.num_inducing} inducing points" + (", collapsed fit" * (spec.fit == "collapsed"))
    return f"a deep ensemble of {spec.ensemble_size}"


def _inducing(config: str) -> str:
    """' Its SVGP has M = 64 inducing points (the paper's 500).' from the run's config, where it is given and read."""
    if not config or not Path(config).is_file():
        return ""
    setting = next(s for s in SETTINGS if s.name == "SVGP inducing points M")
    ours = deviations.ours(yaml.safe_load(Path(config).read_text(encoding="utf-8")) or {}, setting)
    if ours is None:
        return ""
    theirs = "as the paper's" if ours == setting.paper else f"the paper's {number(setting.paper)}"
    return f" Its SVGP has M = {number(ours)} inducing points ({theirs})."
