"""What a campaign of several batches needs of the rule, checked as it runs: a rule built afresh for each batch (a new
process a week, trieste's ask-tell) continues only if it can read its iteration from the data (`initial_size`), and a
batch whose every point is already in the data is a repeat, never a new draw."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from trieste.data import Dataset
from trieste.types import Tag


class CampaignWarning(UserWarning):
    """`BoltzmannBatch` warns with this, once per rule and kind, when a campaign's batch is not what it should be: an
    earlier batch proposed again (every point already in the data), or a first, uniform batch (lambda_1 = 0 of
    `Scheduled`) from a rule without `initial_size`, which in a campaign that builds the rule afresh for each batch
    makes every batch a first one.

    Example::

        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("error", b3o.CampaignWarning)  # a week that would repeat itself stops
    """


#: what a rule built afresh for each batch is told to give
REMEDY = (
    "a rule built afresh for each batch counts t from 1 unless given initial_size=<the initial design's size> "
    "(t then comes from the data)"
)


def repeated(batch: np.ndarray, datasets: Mapping[Tag, Dataset] | None) -> int:
    """How many of the batch's points are already among the data's query points (the same row, bit for bit): with a
    continuous dimension, draws from a density never land there again, a seed stream started again does."""
    if not datasets:
        return 0
    seen = {
        row.tobytes()
        for dataset in datasets.values()
        for row in np.ascontiguousarray(np.asarray(dataset.query_points, dtype=np.float64))
    }
    return sum(row.tobytes() in seen for row in np.ascontiguousarray(np.asarray(batch, dtype=np.float64)))


def repeat_text(t: int, found: int, batch_size: int, seed_from_data: bool) -> str:
    why = "" if seed_from_data else ", and with seed_from_data=False its seed is (seed, t) alone"
    return (f"at t = {t} all {found} of the batch's {batch_size} points are already in the data: it repeats an "
            f"earlier batch; {REMEDY}{why}")


def restart_text(temperature: object) -> str:
    return (f"at t = 1 with {temperature!r}: lambda_1 = 0, so this batch is uniform, as the schedule begins; "
            f"{REMEDY}, or every batch of the campaign is a first, uniform one")
