"""A run's provenance table in sentences, for its page (the items `analysis.tables.provenance` writes)."""

from __future__ import annotations

import pandas as pd

from analysis.naming import experiment_title
from analysis.site import html
from analysis.tables.provenance import PLATFORM, machines


def provenance_text(provenance: pd.DataFrame) -> str:
    """The provenance table as sentences (the items `analysis.tables.provenance` writes; the machines in words, their
    platform ids secondary), then any other items."""
    item = dict(zip(provenance["item"], provenance["value"].astype(str)))
    said = []
    parts = []
    if "trials" in item:
        experiments = ", ".join(experiment_title(e) for e in item.get("experiments", "").split(", ") if e)
        parts.append(f"{item['trials']} trials" + (f" of {experiments}" if experiments else ""))
        said += ["trials", "experiments"]
    if "commits" in item:
        parts.append(f"run from code at commit(s) {item['commits']}")
        said.append("commits")
    sentences = [", ".join(parts) + "."] if parts else []
    if "platforms" in item:
        sentences.append(machines(item))
        said += ["platforms", *(key for key in item if key.startswith(PLATFORM))]
    if "first trial finished" in item and "last trial finished" in item:
        sentences.append(f"The first trial finished at {item['first trial finished']}, the last at "
                         f"{item['last trial finished']}.")
        said += ["first trial finished", "last trial finished", "minutes from the first trial's finish to the last"]
    if "core-minutes" in item:
        sentences.append(f"The trials took {item['core-minutes']} core-minutes in all.")
        said.append("core-minutes")
    rest = [f"{html.text(k)}: {html.text(v)}" for k, v in item.items() if k not in said]
    return f"<p>{html.text(' '.join(sentences))}</p>" + (html.items(rest) if rest else "")
