"""Synthetic single-objective benchmarks (paper Appendix B) plus two small ones for figures and tests.

Each function is written in natural units, vectorised in NumPy, and *maximised* (the minimisation classics are
negated). The optimiser works on [0, 1]^d; `evaluate` returns noiseless natural-unit values.

What an optimiser observes is the *standardised* value plus N(0, noise_variance) noise, because the paper standardises
each function and then contaminates it: noise_variance = 0.5 is therefore a variance on the standardised scale (half
the function's variance over its domain), not in natural units. The standardisation constants are the mean and
standard deviation of the noiseless function over 2^16 scrambled Sobol points (seed 0), computed once per process and
exposed as `y_mean`, `y_std` and `standardise` so that trial records can be converted between the two scales.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar
from functools import cache

import numpy as np
from scipy.stats import qmc
from trieste.space import Box

from problems.base import Problem

NaturalFunction = Callable[[np.ndarray], np.ndarray]
"""Maps points [N, d] in natural units to values [N], maximisation sense."""

STANDARDISATION_LOG2_POINTS = 16

# Columns are the ten centres, as in the paper's Appendix B; trieste's Shekel4 has its seventh centre at (5, 3, 5, 3)
# rather than (5, 5, 3, 3), which changes values near that centre but not the optimum near (4, 4, 4, 4).
_SHEKEL_C = np.array(
    [
        [4.0, 1.0, 8.0, 6.0, 3.0, 2.0, 5.0, 8.0, 6.0, 7.0],
        [4.0, 1.0, 8.0, 6.0, 7.0, 9.0, 5.0, 1.0, 2.0, 3.6],
        [4.0, 1.0, 8.0, 6.0, 3.0, 2.0, 3.0, 8.0, 6.0, 7.0],
        [4.0, 1.0, 8.0, 6.0, 7.0, 9.0, 3.0, 1.0, 2.0, 3.6],
    ]
)
_SHEKEL_BETA = np.array([1.0, 2.0, 2.0, 4.0, 4.0, 6.0, 3.0, 7.0, 5.0, 5.0]) / 10.0
# Maximiser found by BFGS + Nelder-Mead from (4, 4, 4, 4); tests re-derive it with scipy.
_SHEKEL_MAXIMISER = (4.000746531, 4.000592932, 3.999663400, 3.999509802)
_SHEKEL_OPTIMUM = 10.536409816692
# The highest of its other local maxima, near (8, 8, 8, 8) (Nelder-Mead polish; tests re-derive it by multistart)
_SHEKEL_BEST_LOCAL = 5.175646741648

_HARTMANN_ALPHA = np.array([1.0, 1.2, 3.0, 3.2])
_HARTMANN_A = np.array(
    [
        [10.0, 3.0, 17.0, 3.5, 1.7, 8.0],
        [0.05, 10.0, 17.0, 0.1, 8.0, 14.0],
        [3.0, 3.5, 1.7, 10.0, 17.0, 8.0],
        [17.0, 8.0, 0.05, 10.0, 0.1, 14.0],
    ]
)
_HARTMANN_P = 1e-4 * np.array(
    [
        [1312.0, 1696.0, 5569.0, 124.0, 8283.0, 5886.0],
        [2329.0, 4135.0, 8307.0, 3736.0, 1004.0, 9991.0],
        [2348.0, 1451.0, 3522.0, 2883.0, 3047.0, 6650.0],
        [4047.0, 8828.0, 8732.0, 5743.0, 1091.0, 381.0],
    ]
)
_HARTMANN_MAXIMISER = (0.20169, 0.150011, 0.476874, 0.275332, 0.311652, 0.6573)
_HARTMANN_OPTIMUM = 3.322368011415  # Nelder-Mead polish; the standard maximiser below attains it to 3e-11
_HARTMANN_BEST_LOCAL = 3.203161918396  # the second local maximum, near (0.405, 0.882, 0.846, 0.574, 0.139, 0.038)
_ACKLEY_BEST_LOCAL = -1.646223633103  # on [-2, 1]^5: the nearest lattice maxima, one coordinate at about -0.918

_FORRESTER_MAXIMISER = 0.757248758
_FORRESTER_OPTIMUM = 6.020740055767

_BRANIN_MAXIMISERS = ((-math.pi, 12.275), (math.pi, 2.275), (3.0 * math.pi, 2.475))
_BRANIN_OPTIMUM = -5.0 / (4.0 * math.pi)  # at each maximiser the squared term is 0 and cos(x1) = -1


def shekel(x: np.ndarray) -> np.ndarray:
    """Shekel function with m = 10 on [0, 10]^4 (maximised as is)."""
    squared_distances = ((x[:, :, None] - _SHEKEL_C) ** 2).sum(axis=1)
    return (1.0 / (squared_distances + _SHEKEL_BETA)).sum(axis=1)


def negated_ackley(x: np.ndarray, a: float = 20.0, b: float = 0.2, c: float = 2.0 * math.pi) -> np.ndarray:
    """Negated Ackley function in any dimension; maximum 0 at the origin."""
    radial = -a * np.exp(-b * np.sqrt(np.mean(x**2, axis=1)))
    oscillating = -np.exp(np.mean(np.cos(c * x), axis=1))
    return -(radial + oscillating + a + math.e)


def hartmann(x: np.ndarray) -> np.ndarray:
    """Hartmann function on [0, 1]^6, sign flipped so that its global optimum 3.32237 is a maximum."""
    inner = (_HARTMANN_A * (x[:, None, :] - _HARTMANN_P) ** 2).sum(axis=2)
    return (_HARTMANN_ALPHA * np.exp(-inner)).sum(axis=1)


def negated_forrester(x: np.ndarray) -> np.ndarray:
    """Negated Forrester et al. (2008) function on [0, 1]: one global and one local maximum."""
    return -((6.0 * x[:, 0] - 2.0) ** 2) * np.sin(12.0 * x[:, 0] - 4.0)


def negated_branin(x: np.ndarray) -> np.ndarray:
    """Negated Branin-Hoo function on [-5, 10] x [0, 15]: three global maxima."""
    x1, x2 = x[:, 0], x[:, 1]
    b, c, t = 5.1 / (4.0 * math.pi**2), 5.0 / math.pi, 1.0 / (8.0 * math.pi)
    return -((x2 - b * x1**2 + c * x1 - 6.0) ** 2 + 10.0 * (1.0 - t) * np.cos(x1) + 10.0)


@cache
def _moments(function: NaturalFunction, lower: tuple[float, ...], upper: tuple[float, ...]) -> tuple[float, float]:
    """Mean and standard deviation of `function` over 2^16 scrambled Sobol points of its natural domain."""
    unit = qmc.Sobol(len(lower), scramble=True, seed=0).random_base2(STANDARDISATION_LOG2_POINTS)
    y = function(qmc.scale(unit, lower, upper))
    return float(y.mean()), float(y.std())


@dataclass(frozen=True, kw_only=True)
class SyntheticProblem(Problem):
    """A closed-form function on a box, observed standardised with Gaussian noise on the standardised scale."""

    function: NaturalFunction
    lower: tuple[float, ...]
    upper: tuple[float, ...]
    natural_maximisers: tuple[tuple[float, ...], ...]
    #: the highest value of any local maximum other than the global ones (None: not known)
    best_local: float | None = None

    observations_standardised: ClassVar[bool] = True

    def to_natural(self, x: np.ndarray) -> np.ndarray:
        """Map scaled points [N, d] in [0, 1]^d to the function's natural domain."""
        return qmc.scale(x, self.lower, self.upper)

    @property
    def maximisers(self) -> np.ndarray:
        """Known global maximisers [K, d] in scaled coordinates."""
        return qmc.scale(np.array(self.natural_maximisers), self.lower, self.upper, reverse=True)

    @property
    def basin_regret(self) -> float | None:
        """The regret of the best local maximum that is not global. A point of lower regret is higher than every other
        local maximum, so an ascent from it can reach no maximum but a global one: it lies in a global optimum's basin.
        Defined by the function alone, so a reading of where seeds end does not depend on any run."""
        return None if self.best_local is None or self.optimum is None else self.optimum - self.best_local

    @property
    def y_mean(self) -> float:
        return _moments(self.function, self.lower, self.upper)[0]

    @property
    def y_std(self) -> float:
        return _moments(self.function, self.lower, self.upper)[1]

    def standardise(self, y: np.ndarray) -> np.ndarray:
        """Natural-unit values -> the standardised scale on which observations (and their noise) live."""
        return (np.asarray(y, dtype=np.float64) - self.y_mean) / self.y_std

    def _evaluate(self, x: np.ndarray) -> np.ndarray:
        return self.function(self.to_natural(x))[:, None]

    def observation_scale(self, values: np.ndarray) -> np.ndarray:
        return self.standardise(values)


def _synthetic(
    name: str,
    function: NaturalFunction,
    lower: tuple[float, ...],
    upper: tuple[float, ...],
    natural_maximisers: tuple[tuple[float, ...], ...],
    optimum: float,
    noise_variance: float,
    best_local: float | None = None,
) -> SyntheticProblem:
    return SyntheticProblem(
        name=name,
        search_space=Box([0.0] * len(lower), [1.0] * len(lower)),
        sense="maximise",
        num_objectives=1,
        noise_variance=noise_variance,
        optimum=optimum,
        function=function,
        lower=lower,
        upper=upper,
        natural_maximisers=natural_maximisers,
        best_local=best_local,
    )


def shekel4(noise_variance: float = 0.5) -> SyntheticProblem:
    return _synthetic(
        "shekel4", shekel, (0.0,) * 4, (10.0,) * 4, (_SHEKEL_MAXIMISER,), _SHEKEL_OPTIMUM, noise_variance, _SHEKEL_BEST_LOCAL
    )


def ackley5(noise_variance: float = 0.5) -> SyntheticProblem:
    return _synthetic(
        "ackley5", negated_ackley, (-2.0,) * 5, (1.0,) * 5, ((0.0,) * 5,), 0.0, noise_variance, _ACKLEY_BEST_LOCAL
    )


def hartmann6(noise_variance: float = 0.5) -> SyntheticProblem:
    return _synthetic(
        "hartmann6", hartmann, (0.0,) * 6, (1.0,) * 6, (_HARTMANN_MAXIMISER,), _HARTMANN_OPTIMUM, noise_variance,
        _HARTMANN_BEST_LOCAL,
    )


def forrester1(noise_variance: float = 0.5) -> SyntheticProblem:
    return _synthetic(
        "forrester1",
        negated_forrester,
        (0.0,),
        (1.0,),
        ((_FORRESTER_MAXIMISER,),),
        _FORRESTER_OPTIMUM,
        noise_variance,
    )


def branin2(noise_variance: float = 0.5) -> SyntheticProblem:
    return _synthetic(
        "branin2", negated_branin, (-5.0, 0.0), (10.0, 15.0), _BRANIN_MAXIMISERS, _BRANIN_OPTIMUM, noise_variance
    )
