"""Page one's run in words: its name (`analysis.presentation.run_names`) and its scale against the paper's, per
experiment the paper gives settings for, with the inducing points from the run's config."""

from __future__ import annotations

from pathlib import Path

import yaml

from analysis.formatting import number
from analysis.naming import experiment_title
from analysis.presentation import deviations, run_names
from analysis.presentation.deviations import SETTINGS
from analysis.report import text as say
from analysis.report.inputs import Run
from analysis.report.latex import path, text


def named(run: Run) -> str:
    """'\\textbf{Its question in words} (its scale; directory paper/x).' (`analysis.presentation.run_names`)."""
    name = run_names.name(run.paper)
    where = f"directory {path(name.directory)}"
    said = "; ".join(p for p in (text(name.scale), where) if p)
    if name.title == name.directory:
        return f"This run ({said})."
    return rf"\textbf{{{text(name.title)}}} ({said})."


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
