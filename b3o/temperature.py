"""Inverse temperatures lambda_t for the Boltzmann density p_t(x) ∝ exp(lambda_t * alpha_t(x)).

Convention for t: t counts BO iterations (acquisitions) from t = 1, as in the paper. The schedule
lambda_t = lambda0 * sqrt(t) * log(t) is therefore 0 at t = 1: the first batch is drawn uniformly (the paper's meaning,
kept deliberately - the initial design has just been fitted, and a uniform batch is pure exploration).
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod

import numpy as np

from b3o.options import lookup


def _check_lambda(value: float, name: str) -> float:
    if isinstance(value, bool):  # float(True) == 1: `lam: true` is a typo, not lambda = 1
        raise ValueError(f"{name} must be a finite positive number, got {value!r}")
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a finite positive number, got {value!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite positive number, got {value!r}")
    return value


class Temperature(ABC):
    """lambda_t as a function of the BO iteration t >= 1."""

    @abstractmethod
    def __call__(self, t: int) -> float: ...

    def standardisation(self, reference_values: np.ndarray) -> tuple[float, float]:
        """(offset, scale) such that the density uses (alpha - offset) / scale, from alpha over the rule's fixed
        reference set; identity by default."""
        return 0.0, 1.0


class Constant(Temperature):
    """lambda_t = lam."""

    def __init__(self, lam: float):
        self.lam = _check_lambda(lam, "lambda")

    def __call__(self, t: int) -> float:
        return self.lam

    def __repr__(self) -> str:
        return f"Constant({self.lam})"


class Scheduled(Temperature):
    """lambda_t = lam0 * sqrt(t) * log(t), the O(sqrt(t) log t) growth of the paper's regret bound (Theorem 2)."""

    def __init__(self, lam0: float):
        self.lam0 = _check_lambda(lam0, "lambda0")

    def __call__(self, t: int) -> float:
        if t < 1:
            raise ValueError(f"BO iterations count from t = 1, got t = {t}")
        return self.lam0 * math.sqrt(t) * math.log(t)

    def __repr__(self) -> str:
        return f"Scheduled({self.lam0})"


class Normalised(Temperature):
    """Constant lambda applied to alpha standardised by its spread over a fixed space-filling reference set.

    Beyond the paper, which notes that a good lambda depends on the acquisition's natural scale. Before each
    acquisition the rule evaluates alpha on the same reference points (a scrambled Sobol set fixed when the rule is
    created) and the density becomes lam * (alpha - median) / spread, where spread is the 10-90% inter-quantile range
    divided by 2 * 1.2816 (the standard deviation, for Gaussian values) - robust to LogEI's long lower tail. With a
    degenerate spread (alpha constant on the reference set) the scale falls back to 1. So lam = 1 means "one unit of
    typical acquisition variation changes the density by a factor e", whatever the acquisition or problem.
    """

    def __init__(self, lam: float):
        self.lam = _check_lambda(lam, "lambda")

    def __call__(self, t: int) -> float:
        return self.lam

    def standardisation(self, reference_values: np.ndarray) -> tuple[float, float]:
        finite = reference_values[np.isfinite(reference_values)]
        if len(finite) == 0:
            return 0.0, 1.0
        q10, q50, q90 = np.quantile(finite, [0.1, 0.5, 0.9])
        spread = (q90 - q10) / (2 * 1.2815515655446004)
        return float(q50), float(spread) if spread > 0 else 1.0

    def __repr__(self) -> str:
        return f"Normalised({self.lam})"


_KINDS = {"constant": Constant, "scheduled": Scheduled, "normalised": Normalised}


def get(kind: str, lam: float) -> Temperature:
    """Temperature by name (`constant`, `scheduled`, `normalised`) with its lambda (lambda0 when scheduled)."""
    return lookup("temperature", _KINDS, kind)(lam)


def names() -> list[str]:
    return list(_KINDS)
