"""The problem contract every benchmark implements.

A problem is a small frozen object. The optimiser works in the *scaled* search space held by `search_space`
(usually [0, 1]^d); `evaluate` maps scaled points to noiseless objective values in natural units, in the
paper's sense; `observe` is what an optimiser sees (for the synthetic functions: standardised values plus
observation noise). Subclasses implement `_evaluate` (and `observation_scale` if observations are not in natural
units).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import numpy as np

if TYPE_CHECKING:  # a problem's space is a trieste space, but the registry itself must not import TensorFlow
    from trieste.space import SearchSpace

Sense = Literal["maximise", "minimise"]


def minimisation_sign(sense: Sense) -> float:
    """-1 for "maximise", +1 for "minimise": the factor that puts values of that sense in trieste's minimisation
    convention (and back). Records and tables keep the sense as text, so this takes the text."""
    return -1.0 if sense == "maximise" else 1.0


@dataclass(frozen=True)
class Problem:
    name: str
    search_space: SearchSpace
    sense: Sense = "maximise"
    num_objectives: int = 1
    noise_variance: float = 0.0
    optimum: float | None = None
    reference_point: tuple[float, ...] | None = None

    #: whether `observe` already returns values standardised over the domain (then surrogates use them as they are;
    #: otherwise the trial runner standardises with the data's moments, see `bench.standardise`)
    observations_standardised: ClassVar[bool] = False
    #: what a point where the problem may legitimately fail scores (one value per objective, e.g. its worst), declared
    #: by a problem whose evaluations can fail (a simulator that does not converge): a non-finite value there is
    #: recorded as a failure (the trace's `failed`) with this value. None: the problem never fails, and a non-finite
    #: value is an error (`check_values`)
    failure_value: ClassVar[tuple[float, ...] | None] = None

    @property
    def minimisation_sign(self) -> float:
        """The factor that puts this problem's values in trieste's minimisation convention (and back)."""
        return minimisation_sign(self.sense)

    @property
    def dim(self) -> int:
        return int(self.search_space.dimension)

    def hypervolume(self, values: np.ndarray) -> float:
        """Hypervolume dominated by `values` (natural units, problem sense) w.r.t. the problem's reference point."""
        from pymoo.indicators.hv import HV

        sign = self.minimisation_sign
        front = sign * np.asarray(values, dtype=np.float64)
        reference = sign * np.asarray(self.reference_point, dtype=np.float64)
        inside = np.all(front < reference, axis=1)
        return float(HV(ref_point=reference)(front[inside])) if inside.any() else 0.0

    def check_points(self, x: Any) -> np.ndarray:
        """Return `x` as float64 [N, d]; raise ValueError if its shape is not that or a point has a NaN or inf (what
        the trial runner checks of a method's batch before the problem sees it)."""
        x = np.asarray(x, dtype=np.float64)
        if x.ndim != 2 or x.shape[1] != self.dim:
            raise ValueError(f"{self.name}: expected points of shape [N, {self.dim}], got {x.shape}")
        finite = np.isfinite(x).all(axis=1)
        if not finite.all():
            row = int(np.flatnonzero(~finite)[0])
            raise ValueError(f"{self.name}: {int((~finite).sum())} of {len(x)} point(s) contain NaN or inf (first at "
                             f"row {row}: {x[row].tolist()})")
        return x

    def check_inputs(self, x: np.ndarray) -> np.ndarray:
        """Return `x` as float64 [N, d]; raise ValueError if any point is malformed (`check_points`) or lies outside the
        space or its constraints."""
        x = self.check_points(x)
        inside = np.array(self.search_space.contains(x))  # a writable copy: `&=` below
        if self.search_space.has_constraints:
            inside &= np.asarray(self.search_space.is_feasible(x))
        if not inside.all():
            bad = x[~inside][0]
            raise ValueError(
                f"{self.name}: {int((~inside).sum())} point(s) outside the search space or its constraints, "
                f"e.g. {np.array2string(bad, precision=4)}"
            )
        return x

    def evaluate(self, x: np.ndarray) -> np.ndarray:
        """Noiseless objective values [N, num_objectives] in natural units."""
        return self._evaluate(self.check_inputs(x))

    def evaluate_with_status(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(values, failed [N] bool): a simulator whose runs can fail says which; a closed form never fails."""
        values = self.evaluate(x)
        return values, np.zeros(len(values), dtype=bool)

    def checked_evaluation(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """`evaluate_with_status`, its output checked against this problem's declaration (`check_values`): what the
        trial runner evaluates, so a plugin's bad output is one error naming it, never a recorded result."""
        x = np.asarray(x, dtype=np.float64)
        values, failed = self.evaluate_with_status(x)
        return check_values(self, x, values, failed)

    def observe(self, x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Observed values [N, num_objectives], with the problem's observation noise drawn from `rng`."""
        return self.observe_values(self.evaluate(x), rng)

    def observe_values(self, values: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Observations of already-computed noiseless values (so a simulator never runs twice for one point)."""
        y = self.observation_scale(np.asarray(values, dtype=np.float64))
        if self.noise_variance > 0:
            y = y + rng.normal(scale=np.sqrt(self.noise_variance), size=y.shape)
        return y

    def observation_scale(self, values: np.ndarray) -> np.ndarray:
        """Natural units -> the scale observations live on (identity unless a problem standardises)."""
        return values

    def _evaluate(self, x: np.ndarray) -> np.ndarray:
        raise NotImplementedError


class ObjectiveError(ValueError):
    """A problem's evaluation that breaks its declaration: the message names the problem, the point and the value."""


def check_values(problem: Problem, x: np.ndarray, values: np.ndarray, failed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(values [N, k] float64, failed [N] bool) of `problem` at the N points `x`, checked: the shape is
    [N, num_objectives], and every value is finite except at a point the problem flags failed or, when it declares a
    `failure_value`, where it fails (then recorded with that value and flagged). Anything else is an `ObjectiveError`,
    so that a NaN or a wrong shape from a user's problem never reaches a surrogate or a record."""
    expected = (len(x), problem.num_objectives)
    try:
        values = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as err:
        raise ObjectiveError(f"problem {problem.name!r} returned values that are not numbers: {err}") from None
    if values.shape != expected:
        raise ObjectiveError(
            f"problem {problem.name!r} returned values of shape {list(values.shape)} for {len(x)} point(s); its "
            f"declaration (num_objectives = {problem.num_objectives}) asks for [N, {problem.num_objectives}] = "
            f"{list(expected)}"
        )
    failed = np.asarray(failed, dtype=bool)
    if failed.shape != (len(x),):
        raise ObjectiveError(f"problem {problem.name!r} flagged failures of shape {list(failed.shape)} for "
                             f"{len(x)} point(s); expected [{len(x)}]")
    bad = ~np.isfinite(values).all(axis=1) & ~failed
    if bad.any() and problem.failure_value is None:
        i = int(np.argmax(bad))
        raise ObjectiveError(
            f"problem {problem.name!r} returned {np.array2string(values[i], precision=6)} at point "
            f"{np.array2string(x[i], precision=6)}: not finite ({int(bad.sum())} of {len(x)} point(s) of this batch); "
            "a problem that may fail at a point declares its `failure_value` (problems.base.Problem)"
        )
    if bad.any():
        values = values.copy()
        values[bad] = np.asarray(problem.failure_value, dtype=np.float64)
        failed = failed | bad
    return values, failed
