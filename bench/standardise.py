"""The scale on which surrogates see observations: each objective standardised before the model is fitted.

A GP with a fixed likelihood variance (the paper's 0.01) and scale-dependent kernel priors is only well posed when
its outputs are of unit scale: fed natural units whose variance is 1e-3 (Formula E) it is flat, fed units of
thousands (the battery's Wh/kg and W/kg) every acquisition value is in those units and exp(λ·α) collapses. So at
every BO iteration each objective column of the data (in trieste's minimisation convention) is standardised with
the current data's mean and standard deviation, as BoTorch's `Standardize` outcome transform does; models,
acquisitions and every method's `ask` see that scale.

Problems whose observations are already standardised over their domain (the paper's synthetic functions, where
the noise variance 0.5 is defined on that scale) keep it: their scale is the identity, so records are unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from b3o.outputs import moments


@dataclass(frozen=True)
class OutputScale:
    """Per-objective affine map y -> (y - mean) / std, and where it came from ("data" or "problem")."""

    mean: np.ndarray
    std: np.ndarray
    source: str

    @classmethod
    def fit(cls, observations: np.ndarray, problem_standardised: bool) -> "OutputScale":
        """The scale for `observations` [N, K]: identity if the problem standardises, else the data's moments
        (`b3o.outputs.moments`, the scale B3O's rule standardises a user's model by)."""
        k = np.shape(observations)[1]
        if problem_standardised:
            return cls(np.zeros(k), np.ones(k), "problem")
        return cls(*moments(observations), "data")

    def apply(self, observations: np.ndarray) -> np.ndarray:
        return (np.asarray(observations, dtype=np.float64) - self.mean) / self.std

    def to_dict(self) -> dict[str, Any]:
        return {"mean": self.mean.tolist(), "std": self.std.tolist(), "source": self.source}
