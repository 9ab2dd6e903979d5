"""Lithium-ion electrode design with PyBaMM's SPMe and the Chen2020 (LG M50, graphite/NMC811) parameter set.

Nine design variables, scaled to [0, 1]^9 in this order:
- per electrode (negative, then positive): porosity [0.2, 0.7], active material volume fraction [0.2, 0.7] and
  particle radius [1, 20] um;
- negative and positive electrode thickness factors [0.5, 2.0], multiplying Chen2020's 85.2 and 75.6 um;
- discharge C-rate [0.5, 2.2], relative to the design's own capacity (see `simulate.Simulator.capacity`).
The paper lists eight of these yet says nine; the ninth is the C-rate, a design variable in Thebelt et al. (2022)'s
version of this problem, which the paper follows.

Two linear constraints, porosity + active material fraction <= 0.95 per electrode (at least 5 % of the electrode
volume is binder and conductive additive), are trieste `LinearConstraint`s on the scaled box.

Each design is discharged at constant current from full charge (Chen2020's initial stoichiometries) to the 2.5 V
cut-off. Both objectives are maximised, per kg of cell stack (current collectors, electrodes, separator and the
electrolyte in their pores; see `simulate` for the mass model and its densities):
- specific energy [Wh/kg], from PyBaMM's integrated "Discharge energy [W.h]";
- specific power [W/kg], the average power over the discharge, i.e. energy / discharge time.

Model caveat: the SPMe reaches the cut-off abruptly once the electrolyte in a thick, dense electrode depletes. With
the reference design at 1C, thickness factors 1.5 -> 1.7 take the discharge energy from 23.4 to 2.1 Wh, where a DFN
gives 23.2 -> 19.9 Wh. Optimisers meet this cliff at high thickness x C-rate; it belongs to the model the paper uses.

Failed designs (a solver error, e.g. below the cut-off voltage at t = 0; an empty solution; a run reaching the final
time instead of the cut-off; a degenerate result; exceeding the wall-clock `timeout`; a crashed worker) score
FAILURE_VALUE = (0, 0), the worst value, and are flagged by `evaluate_with_status`; none occurred in 1000 random
feasible designs nor at the 288 feasible corners. The hypervolume reference point is the same (0, 0): every
successful design dominates it (positive energy and power) and failures add no hypervolume.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import numpy as np
from scipy.stats import qmc
from trieste.space import Box, LinearConstraint

from problems.base import Problem
from problems.battery.worker import WORKER

logger = logging.getLogger(__name__)

# (name understood by `simulate`, lower, upper) in natural units, in the order of the scaled coordinates.
VARIABLES: tuple[tuple[str, float, float], ...] = (
    ("negative porosity", 0.2, 0.7),
    ("negative active material volume fraction", 0.2, 0.7),
    ("negative particle radius [um]", 1.0, 20.0),
    ("positive porosity", 0.2, 0.7),
    ("positive active material volume fraction", 0.2, 0.7),
    ("positive particle radius [um]", 1.0, 20.0),
    ("negative thickness factor", 0.5, 2.0),
    ("positive thickness factor", 0.5, 2.0),
    ("C-rate", 0.5, 2.2),
)
NAMES = tuple(name for name, _, _ in VARIABLES)
LOWER = np.array([lower for _, lower, _ in VARIABLES])
UPPER = np.array([upper for _, _, upper in VARIABLES])
MAX_POROSITY_PLUS_ACTIVE_FRACTION = 0.95  # porosity + active material fraction, per electrode
FAILURE_VALUE = (0.0, 0.0)
REFERENCE_POINT = (0.0, 0.0)


def _composition_constraint() -> LinearConstraint:
    """porosity + active fraction <= 0.95 per electrode, rewritten for scaled coordinates."""
    rows, bounds = [], []
    for electrode in ("negative", "positive"):
        i, j = NAMES.index(f"{electrode} porosity"), NAMES.index(f"{electrode} active material volume fraction")
        row = np.zeros(len(NAMES))
        row[[i, j]] = UPPER[[i, j]] - LOWER[[i, j]]
        rows.append(row)
        bounds.append(MAX_POROSITY_PLUS_ACTIVE_FRACTION - LOWER[i] - LOWER[j])
    return LinearConstraint(A=np.array(rows), lb=np.full(len(rows), -np.inf), ub=np.array(bounds))


@dataclass(frozen=True, kw_only=True)
class BatteryProblem(Problem):
    timeout: float = 10.0
    """Wall-clock limit [s] per design; a design exceeding it fails (its worker process is killed and restarted)."""

    def to_natural(self, x: np.ndarray) -> np.ndarray:
        """Scaled points [N, 9] -> design variables in natural units, ordered as `VARIABLES`."""
        return qmc.scale(x, LOWER, UPPER)

    def evaluate_with_status(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(values [N, 2], failed [N] bool): like `evaluate`, also saying which designs scored FAILURE_VALUE."""
        return self._evaluate_with_status(self.check_inputs(x))

    def _evaluate(self, x: np.ndarray) -> np.ndarray:
        return self._evaluate_with_status(x)[0]

    def _evaluate_with_status(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        values = np.empty((len(x), self.num_objectives))
        failed = np.zeros(len(x), dtype=bool)
        for i, design in enumerate(self.to_natural(x)):
            energy, power, failure = WORKER.run(dict(zip(NAMES, design.tolist())), self.timeout)
            if failure is not None:
                logger.info("battery design %s failed: %s", np.array2string(design, precision=4), failure)
                failed[i], (energy, power) = True, FAILURE_VALUE
            values[i] = energy, power
        return values, failed


def battery(timeout: float = 10.0) -> BatteryProblem:
    return BatteryProblem(
        name="battery",
        search_space=Box([0.0] * len(VARIABLES), [1.0] * len(VARIABLES), constraints=[_composition_constraint()]),
        sense="maximise",
        num_objectives=2,
        noise_variance=0.0,
        optimum=None,
        reference_point=REFERENCE_POINT,
        timeout=timeout,
    )
