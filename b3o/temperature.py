"""Inverse temperatures lambda_t for the Boltzmann density p_t(x) ∝ exp(lambda_t * alpha_t(x)).

Convention for t: t counts BO iterations (acquisitions) from t = 1, as in the paper. The schedule
lambda_t = lambda0 * sqrt(t) * log(t) is therefore 0 at t = 1: the first batch is drawn uniformly (the paper's meaning,
kept deliberately - the initial design has just been fitted, and a uniform batch is pure exploration).

Names: the configured `lam` (lambda, or lambda0 when scheduled); the iteration's lambda_t (`choose`, recorded as the
diagnostics' "lambda_t"); and the density's own lambda, lambda_t / scale, which a standardising temperature applies to
alpha itself (`b3o.degeneracy.density_lambda`). The automatic temperatures take no configured lambda: they choose
lambda_t from alpha over the rule's fixed reference set at every iteration, so multiplying alpha by a constant leaves
the density unchanged.
"""

from __future__ import annotations

import math
import numbers
from abc import ABC, abstractmethod

import numpy as np
from scipy import optimize
from scipy.special import logsumexp

from b3o.options import lookup


def _check_lambda(value: float, name: str) -> float:
    """`value` as a float if it is a finite positive real number: a bool (`lam: true` is a typo, not lambda = 1) or a
    string ("2") is refused, not converted."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite positive number, got {value!r}")
    return float(value)


class Temperature(ABC):
    """lambda_t as a function of the BO iteration t >= 1."""

    @abstractmethod
    def __call__(self, t: int) -> float: ...

    def standardisation(self, reference_values: np.ndarray) -> tuple[float, float]:
        """(offset, scale) such that the density uses (alpha - offset) / scale, from alpha over the rule's fixed
        reference set; identity by default."""
        return 0.0, 1.0

    def choose(self, t: int, reference_values: np.ndarray, num_samples: int) -> tuple[float, float, float]:
        """(lambda_t, offset, scale) at iteration t: the density is lambda_t * (alpha - offset) / scale, given alpha
        over the rule's fixed reference set and the batch size."""
        return (self(t), *self.standardisation(reference_values))

    def steer(self, lower: bool) -> str:
        """What to change for a lower (or higher) lambda_t, in this temperature's own terms: a degenerate density's
        warning says it (`BoltzmannBatch`)."""
        return "lower lambda, or choose it per iteration with b3o.UpperTail()" if lower else "raise lambda"


class Constant(Temperature):
    """lambda_t = lam.

    Example::

        assert b3o.Constant(2.0)(t=5) == 2.0
    """

    def __init__(self, lam: float):
        self.lam = _check_lambda(lam, "lambda")

    def __call__(self, t: int) -> float:
        return self.lam

    def __repr__(self) -> str:
        return f"Constant({self.lam})"


class Scheduled(Temperature):
    """lambda_t = lam0 * sqrt(t) * log(t), the O(sqrt(t) log t) growth of the paper's regret bound (Theorem 2).

    Example::

        schedule = b3o.Scheduled(0.5)
        assert schedule(1) == 0.0 and schedule(4) > schedule(2)  # the first batch is uniform
    """

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

    Example::

        temperature = b3o.Normalised(1.0)
    """

    def __init__(self, lam: float):
        self.lam = _check_lambda(lam, "lambda")

    def __call__(self, t: int) -> float:
        return self.lam

    def standardisation(self, reference_values: np.ndarray) -> tuple[float, float]:
        """(median, 10-90 % range / 2.563) of alpha over the reference set; scale 1 if that range is 0."""
        finite = reference_values[np.isfinite(reference_values)]
        if len(finite) == 0:
            return 0.0, 1.0
        q10, q50, q90 = np.quantile(finite, [0.1, 0.5, 0.9])
        spread = (q90 - q10) / (2 * 1.2815515655446004)
        return float(q50), float(spread) if spread > 0 else 1.0

    def __repr__(self) -> str:
        return f"Normalised({self.lam})"


class _Automatic(Temperature):
    """lambda_t chosen from alpha over the reference set; the density is lambda_t * (alpha - max alpha)."""

    def __call__(self, t: int) -> float:
        raise TypeError(f"{self!r} chooses lambda_t from the acquisition at each iteration: use `choose`")

    def choose(self, t: int, reference_values: np.ndarray, num_samples: int) -> tuple[float, float, float]:
        finite = reference_values[np.isfinite(reference_values)]
        spread = float(np.ptp(finite)) if len(finite) else 0.0
        if spread <= 0:  # alpha constant on the reference set: every lambda gives the uniform density
            return 0.0, 0.0, 1.0
        return self._lambda(finite, spread, num_samples), float(finite.max()), 1.0

    def _lambda(self, finite: np.ndarray, spread: float, num_samples: int) -> float: ...


class EffectiveSampleSize(_Automatic):
    """lambda_t such that the Boltzmann weights exp(lambda_t * alpha) over the reference set have an effective
    sample size of `per_sample` x B (bisection on log lambda_t), as sequential Monte Carlo samplers choose their next
    temperature. The ESS falls from N (lambda = 0, uniform) to the number of reference points tied at the maximum
    (lambda -> inf), so the target is met exactly unless it is below that (then lambda_t is the one at which every
    point below the maximum has lost all weight).

    Example::

        temperature = b3o.EffectiveSampleSize(per_sample=2.0)  # or b3o.temperature.get("auto", per_sample=2.0)
    """

    def __init__(self, per_sample: float = 1.0):
        self.per_sample = _check_lambda(per_sample, "per_sample")

    def _lambda(self, finite: np.ndarray, spread: float, num_samples: int) -> float:
        target = math.log(min(self.per_sample * num_samples, len(finite)))
        centred = finite - finite.max()

        def excess(log_lam: float) -> float:
            log_w = math.exp(log_lam) * centred
            return float(2 * logsumexp(log_w) - logsumexp(2 * log_w)) - target

        below_top = -centred[centred < 0]
        # at `low` every weight is within 1e-6 of 1 (ESS = N); at `high` every point below the maximum weighs less
        # than e^-1e6 (ESS = the number tied at the maximum)
        low, high = math.log(1e-6 / spread), math.log(1e6 / below_top.min())
        if excess(high) >= 0:
            return math.exp(high)
        if excess(low) <= 0:
            return math.exp(low)
        return math.exp(optimize.brentq(excess, low, high, xtol=1e-10))

    def __repr__(self) -> str:
        return f"EffectiveSampleSize({self.per_sample})"

    def steer(self, lower: bool) -> str:
        """A larger ESS per sample asks for a flatter density: lambda_t falls as per_sample rises."""
        return f"{'raise' if lower else 'lower'} per_sample (now {self.per_sample}): the lambda_t it chooses follows"


class UpperTail(_Automatic):
    """lambda_t = ratio / (max alpha - its 90th percentile) over the reference set: the best reference point is e^ratio
    times as likely as the 90th-percentile one, whatever the spread of alpha's lower tail (LogEI's is long). The default
    ratio is the one the pre-registered tuning chose on Hartmann-6 (docs/auto-temperature.md).

    Example::

        temperature = b3o.UpperTail()  # or b3o.temperature.get("auto-tail")
    """

    def __init__(self, ratio: float = 9.2):
        self.ratio = _check_lambda(ratio, "ratio")

    def _lambda(self, finite: np.ndarray, spread: float, num_samples: int) -> float:
        tail = float(finite.max() - np.quantile(finite, 0.9))
        return self.ratio / (tail if tail > 0 else spread)

    def __repr__(self) -> str:
        return f"UpperTail({self.ratio})"

    def steer(self, lower: bool) -> str:
        """lambda_t is proportional to ratio."""
        return f"{'lower' if lower else 'raise'} its ratio (now {self.ratio}): the lambda_t it chooses follows"


_KINDS = {"constant": Constant, "scheduled": Scheduled, "normalised": Normalised}
#: temperatures that choose lambda_t themselves: name -> class (its constant has a default; see each docstring)
_AUTOMATIC = {"auto": EffectiveSampleSize, "auto-tail": UpperTail}
#: the configured lambda's default for the temperatures that take one
DEFAULT_LAMBDA = 1.0


def get(kind: str, lam: float | None = None, **options: float) -> Temperature:
    """Temperature by name: `constant`, `scheduled`, `normalised` with their lambda (lambda0 when scheduled; default
    DEFAULT_LAMBDA), or `auto` / `auto-tail`, which take no lambda but may take their constant as an option.

    Example::

        assert b3o.temperature.get("scheduled", 0.5)(4) == b3o.Scheduled(0.5)(4)
    """
    table = {**_KINDS, **_AUTOMATIC}
    cls = lookup("temperature", table, kind)
    if kind in _AUTOMATIC:
        if lam is not None:
            raise ValueError(f"temperature {kind!r} chooses lambda_t itself and takes no lam; got lam = {lam!r}")
        return cls(**options)
    if options:
        raise ValueError(f"temperature {kind!r} takes no options, got {sorted(options)}")
    return cls(DEFAULT_LAMBDA if lam is None else lam)


def names() -> list[str]:
    """Every temperature's name: those taking a lambda, then the automatic ones."""
    return [*_KINDS, *_AUTOMATIC]


def automatic() -> list[str]:
    """The temperatures that choose lambda_t themselves."""
    return list(_AUTOMATIC)
