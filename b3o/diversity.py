"""Batch diversity: the mean pairwise Euclidean distance 2 / (B (B - 1)) * sum_{i<j} |x_i - x_j| (paper, App. E)."""

from __future__ import annotations

import numpy as np
from scipy.spatial.distance import pdist
from trieste.space import SearchSpace

from b3o.space import layout


def mean_pairwise_distance(x: np.ndarray, space: SearchSpace | None = None) -> float:
    """Mean pairwise distance of a batch [B, d]; NaN for B < 2.

    With `space`, coordinates are first scaled to [0, 1]: continuous ones by their bounds, categorical indices by
    (number of categories - 1), so that distances are comparable across problems.
    """
    x = np.asarray(x, dtype=np.float64)
    if len(x) < 2:
        return float("nan")
    if space is not None:
        lay = layout(space)
        x = x.copy()
        x[:, lay.continuous] = (x[:, lay.continuous] - lay.lower) / lay.width
        x[:, lay.categorical] = x[:, lay.categorical] / np.maximum(lay.num_categories - 1, 1)
    return float(pdist(x).mean())
