"""The Formula E design problem: pick motor, aero and balance settings that trade lap time against energy.

Six design variables; the four continuous ones are scaled to [0, 1] from these natural ranges:

0. motor torque `torque_nm`, 100–250 Nm: below 100 Nm the car is sluggish out of slow corners; at 250 Nm the wheel
   force through the default gear (≈7.6 kN) reaches the rear tyres' static grip (≈7.5 kN).
1. drag area `drag_area_m2`, 0.9–1.4 m²: about ±20 % around the Gen2 car's 1.15 m².
2. rear downforce area `downforce_rear_m2`, 1.0–2.0 m²: around the Gen2 car's 1.52 m².
3. `front_weight_fraction`, 0.33–0.45: around the Gen2 car's 0.385; trades rear traction for front grip.

and two categorical ones with five levels each (category index 0–4):

4. `gear_ratio` 8.5, 9.7, 10.9, 12.1, 13.3: more wheel torque as the ratio rises, but the speed the motor reaches at
   19 000 rpm falls from 291 to 186 km/h (the 225 km/h cap binds up to the default 10.9).
5. `power_kw` 150, 175, 200, 225, 250 kW: Gen2 race mode is 200 kW, qualifying mode 250 kW.

The default car is inside the space (columns 0–3 ≈ 0.33, 0.5, 0.52, 0.46; categories 2, 2).

Objective (minimised): f = ½·T/T₀ + ½·E/E₀, lap time T and net battery energy per lap E (drive minus recuperated)
relative to the default car on the same track, so the default car scores exactly 1 and one percent of lap time
weighs as much as one percent of energy. A setting whose lap cannot be completed scores `INCOMPLETE_LAP_PENALTY`
= 2, twice the default car; cars that finish score between about 0.87 and 1.10 on the built-in track (all corners
of the space evaluated), so the penalty is clearly worse without dwarfing the landscape.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
from trieste.space import Box, CategoricalSearchSpace, TaggedProductSearchSpace

from problems.base import Problem
from problems.formula_e.shanghai import shanghai
from problems.formula_e.solver import LapNotCompletedError, simulate_lap
from problems.formula_e.track import Track, load_track
from problems.formula_e.vehicle import Vehicle, parameter_names

CONTINUOUS: dict[str, tuple[float, float]] = {
    "torque_nm": (100.0, 250.0),
    "drag_area_m2": (0.9, 1.4),
    "downforce_rear_m2": (1.0, 2.0),
    "front_weight_fraction": (0.33, 0.45),
}
CATEGORICAL: dict[str, tuple[float, ...]] = {
    "gear_ratio": (8.5, 9.7, 10.9, 12.1, 13.3),
    "power_kw": (150.0, 175.0, 200.0, 225.0, 250.0),
}
LAP_TIME_WEIGHT = 0.5
INCOMPLETE_LAP_PENALTY = 2.0


@dataclass(frozen=True)
class FormulaE(Problem):
    """Minimise ½·lap time/default + ½·net energy/default over the six design variables (see module docstring)."""

    track: Track | None = None
    base: Vehicle = field(default_factory=Vehicle)
    reference_lap_time_s: float = 1.0
    reference_energy_mj: float = 1.0

    def decode(self, x: np.ndarray) -> list[Vehicle]:
        """The cars at scaled points x [N, 6]: the base car with the six design variables set."""
        x = self.check_inputs(x)
        cars = []
        for row in x:
            values = {name: lo + u * (hi - lo) for (name, (lo, hi)), u in zip(CONTINUOUS.items(), row[:4])}
            values |= {name: levels[int(i)] for (name, levels), i in zip(CATEGORICAL.items(), row[4:])}
            cars.append(replace(self.base, **values))
        return cars

    def objective(self, vehicle: Vehicle) -> float:
        """½·T/T₀ + ½·E/E₀ for one car, or the penalty if it cannot complete a lap."""
        try:
            lap = simulate_lap(vehicle, self.track)
        except LapNotCompletedError:
            return INCOMPLETE_LAP_PENALTY
        return (
            LAP_TIME_WEIGHT * lap.lap_time_s / self.reference_lap_time_s
            + (1 - LAP_TIME_WEIGHT) * lap.energy_mj / self.reference_energy_mj
        )

    def _evaluate(self, x: np.ndarray) -> np.ndarray:
        return np.array([[self.objective(car)] for car in self.decode(x)], dtype=np.float64).reshape(-1, 1)


def search_space() -> TaggedProductSearchSpace:
    return TaggedProductSearchSpace(
        [
            Box([0.0] * len(CONTINUOUS), [1.0] * len(CONTINUOUS)),
            CategoricalSearchSpace([len(levels) for levels in CATEGORICAL.values()]),
        ],
        tags=["continuous", "categorical"],
    )


def make_problem(track: str | None = None, **overrides: float) -> FormulaE:
    """The Formula E problem on the built-in Shanghai track, or on the TUMFTM-format CSV at path `track`.

    `overrides` set parameters of the base car (e.g. mass_kg=900): the default car the objective is normalised by,
    and the values of everything that is not a design variable.
    """
    unknown = sorted(set(overrides) - set(parameter_names()))
    if unknown:
        raise ValueError(f"unknown vehicle parameter(s) {', '.join(unknown)}; valid: {', '.join(parameter_names())}")
    base = replace(Vehicle(), **{name: float(value) for name, value in overrides.items()})
    circuit = shanghai() if track is None else load_track(track)
    reference = simulate_lap(base, circuit)  # raises LapNotCompletedError: without a reference lap there is no scale
    if reference.energy_mj <= 0:
        raise ValueError(f"the base car recuperates more than it spends on {circuit.name}; energy cannot be a scale")
    return FormulaE(  # one objective, noiseless, optimum unknown: `Problem`'s defaults
        name="formula-e",
        search_space=search_space(),
        sense="minimise",
        track=circuit,
        base=base,
        reference_lap_time_s=reference.lap_time_s,
        reference_energy_mj=reference.energy_mj,
    )
