"""Which methods a claim compares: predicates on the per-trial table's grid columns (never on display labels), the
slots that name a group of them, and the display name of each method setting within an experiment."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analysis.naming import VARIANTS, method_title, sampler_name, temperature_title
from b3o.temperature import automatic as automatic_temperatures

Predicate = Callable[[pd.DataFrame], pd.Series]
#: columns that identify one method setting within an experiment
SETTING = ["label", "acquisition", "temperature", "lam", "sampler"]


def where(**equals: object) -> Predicate:
    """Rows whose columns equal the given values (λ compared with a tolerance)."""

    def predicate(df: pd.DataFrame) -> pd.Series:
        mask = pd.Series(True, index=df.index)
        for column, value in equals.items():
            mask &= np.isclose(df[column], value) if column == "lam" else df[column] == value
        return mask

    return predicate


def variant(name: str, **more: object) -> Predicate:
    """A paper B3O variant (e.g. "UCB-c"), optionally restricted further (lam=..., sampler=...)."""
    acquisition, temperature = VARIANTS[name]
    return where(method="b3o", acquisition=acquisition, temperature=temperature, **more)


def automatic(acquisition: str) -> Predicate:
    """B3O with `acquisition` and a temperature that chooses lambda_t itself (`auto`, `auto-tail`)."""
    chosen = where(method="b3o", acquisition=acquisition)
    return lambda df: chosen(df) & df["temperature"].isin(automatic_temperatures())


def any_of(*predicates: Predicate) -> Predicate:
    return lambda df: pd.Series(np.logical_or.reduce([p(df) for p in predicates]), index=df.index)


def but(predicate: Predicate, *excluded: Predicate) -> Predicate:
    return lambda df: predicate(df) & ~any_of(*excluded)(df)


def everything(df: pd.DataFrame) -> pd.Series:
    return pd.Series(True, index=df.index)


def batch_method(df: pd.DataFrame) -> pd.Series:
    """The paper's batch BO methods: batch size above one; random search and our scale-free-λ B3O rows excluded."""
    ours = df["temperature"].isin(["normalised", *automatic_temperatures()])
    return (df["batch_size"] > 1) & (df["method"] != "random") & ~ours


@dataclass(frozen=True)
class Slot:
    """A named group of method settings that a claim compares ("B3O-UCB-c", "batch methods")."""

    name: str
    select: Predicate


B3O = Slot("B3O", where(method="b3o"))
TS = Slot("TS", where(method="ts"))
VARIANT_SLOTS = tuple(Slot(method_title("b3o", *setting), variant(v)) for v, setting in VARIANTS.items())
#: the paper's four B3O variants, any λ and sampler (not our scale-free-λ row)
PAPER_VARIANTS = any_of(*(slot.select for slot in VARIANT_SLOTS))


def against(lefts: tuple[Slot, ...], rights: tuple[Slot, ...]) -> tuple[tuple[Slot, Slot], ...]:
    """Every left slot against every right slot."""
    return tuple((a, b) for a in lefts for b in rights)


def member_names(data: pd.DataFrame) -> pd.Series:
    """Display name per row: the label, plus the settings (λ, sampler, temperature) that tell apart settings
    sharing one label within the experiment."""
    names = data["label"].astype(str)
    shown = {"lam": "λ={:g}".format, "sampler": lambda v: f"({sampler_name(v)})", "temperature": temperature_title}
    for column, text in shown.items():
        varies = data.groupby("label")[column].transform(lambda s: s.nunique(dropna=True) > 1)
        suffix = [
            " " + text(v) if vary and not pd.isna(v) and v != "" else "" for v, vary in zip(data[column], varies)
        ]
        names = names + pd.Series(suffix, index=data.index)
    return names


def auto_against_paper(variants: tuple[tuple[str, str], ...]) -> tuple[tuple[Slot, Slot], ...]:
    """(B3O with the automatic temperature, the same variant at the paper's λ) per (variant, acquisition)."""
    return tuple(
        (Slot(f"B3O-{name} auto", automatic(acquisition)),
         Slot(f"B3O-{name}-c (paper's λ)", where(method="b3o", acquisition=acquisition, temperature="constant")))
        for name, acquisition in variants
    )


#: the collapsed SVGP fit against the default one, per constant variant; the model is no grid column, so the two
#: settings are told apart by their config labels (config/collapsed_fit.yaml)
COLLAPSED_PAIRS = tuple(
    (Slot(f"B3O-{v} collapsed fit", where(label=f"B3O-{v}-collapsed")),
     Slot(f"B3O-{v} default fit", where(label=f"B3O-{v}")))
    for v in ("LogEI-c", "UCB-c")
)
