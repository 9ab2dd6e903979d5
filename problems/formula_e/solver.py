"""Quasi-steady-state lap: corner-speed limits, acceleration and braking passes, lap time and energy.

The classic three-step method (e.g. Brayshaw & Harrison 2005; Heilmeier, Geisslinger & Betz 2019):
(1) every point gets the highest speed the car can hold in steady cornering (both axles carry the lateral force,
the rear also the drive force against drag), found by a vectorised bisection because downforce makes the grip
itself grow with v²; (2) a forward pass integrates the largest acceleration, v²_{i+1} = v²_i + 2·a·Δs, and (3) a
backward pass the largest deceleration, each capped by the limits; the speed profile is the lower of the two. A
flying lap is periodic, so each pass starts at the slowest corner and is repeated with the speed it ends with until
start and end speed agree. Time is Σ 2Δs/(v_i + v_{i+1}).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from problems.formula_e.track import Track
from problems.formula_e.vehicle import Vehicle

_BISECTION_STEPS = 40  # halves v_top ≈ 62 m/s to below 1e-10 m/s
_CLOSURE_TOL = 1e-9  # m/s, start and end speed of a periodic pass
_MAX_CLOSURE_PASSES = 200


class LapNotCompletedError(RuntimeError):
    """The car cannot get round: it has no grip to corner, or cannot overcome resistance and keep moving."""


@dataclass(frozen=True)
class LapResult:
    lap_time_s: float
    energy_mj: float  # net battery energy: drive energy minus recuperated energy
    drive_energy_mj: float  # battery energy spent driving, recuperation not subtracted
    recuperated_mj: float  # battery energy recovered by the motor while braking
    track_length_m: float
    distance: np.ndarray = field(repr=False, compare=False)  # [n] m
    speed: np.ndarray = field(repr=False, compare=False)  # [n] m/s
    corner_speed: np.ndarray = field(repr=False, compare=False)  # [n] m/s, steady-cornering limit
    closure_passes: int = 0  # periodic passes needed to close the lap (forward + backward)

    def summary(self) -> dict[str, float]:
        return {
            "lap_time_s": self.lap_time_s,
            "energy_mj": self.energy_mj,
            "drive_energy_mj": self.drive_energy_mj,
            "recuperated_mj": self.recuperated_mj,
            "top_speed_kmh": float(self.speed.max() * 3.6),
            "min_speed_kmh": float(self.speed.min() * 3.6),
            "mean_speed_kmh": self.track_length_m / self.lap_time_s * 3.6,
        }


def corner_speed_limit(vehicle: Vehicle, curvature: np.ndarray) -> np.ndarray:
    """Highest steady-cornering speed at every point [m/s], at most the car's top speed (vectorised bisection)."""
    top = vehicle.top_speed
    curvature = np.abs(curvature)
    if np.any(vehicle.cornering_margin(np.zeros_like(curvature), curvature) <= 0):
        raise LapNotCompletedError("the tyres cannot even overcome rolling resistance")
    lo = np.zeros_like(curvature)
    hi = np.full_like(curvature, top)
    free = vehicle.cornering_margin(hi, curvature) >= 0
    for _ in range(_BISECTION_STEPS):
        mid = 0.5 * (lo + hi)
        ok = vehicle.cornering_margin(mid, curvature) >= 0
        lo = np.where(ok, mid, lo)
        hi = np.where(ok, hi, mid)
    return np.where(free, top, lo)


def simulate_lap(vehicle: Vehicle, track: Track) -> LapResult:
    """Lap time, energy and speed profile of `vehicle` on `track`; raises LapNotCompletedError if it cannot lap."""
    kappa = np.abs(track.curvature)
    limit = corner_speed_limit(vehicle, kappa)
    start = int(np.argmin(limit))  # the slowest corner: the one point whose speed the limit alone fixes
    order = np.roll(np.arange(len(kappa)), -start)
    lim, kap = limit[order].tolist(), kappa[order].tolist()
    forward, n_fwd = _periodic_pass(lim, kap, track.step, vehicle.acceleration, "accelerate")
    backward, n_bwd = _periodic_pass(lim[::-1], kap[::-1], track.step, vehicle.deceleration, "brake")
    speed = np.empty_like(limit)
    speed[order] = np.minimum(forward, backward[::-1])
    lap_time, drive, recuperated = _time_and_energy(vehicle, speed, track.step)
    return LapResult(
        lap_time_s=lap_time,
        energy_mj=(drive - recuperated) / 1e6,
        drive_energy_mj=drive / 1e6,
        recuperated_mj=recuperated / 1e6,
        track_length_m=track.length,
        distance=np.arange(len(speed)) * track.step,
        speed=speed,
        corner_speed=limit,
        closure_passes=n_fwd + n_bwd,
    )


def _periodic_pass(
    limit: list[float], kappa: list[float], step: float, rate: Callable[[float, float], float], what: str
) -> tuple[np.ndarray, int]:
    """Integrate v² ← v² + 2·rate(v, κ)·Δs round the closed loop from point 0, capped by `limit`, repeating with the
    end speed as the new start speed until they agree. Returns the speeds and the number of passes."""
    v_start = limit[0]
    n = len(limit)
    for passes in range(1, _MAX_CLOSURE_PASSES + 1):
        out = [v_start] * n
        v = v_start
        for i in range(n):
            v2 = v * v + 2.0 * step * rate(v, kappa[i])
            if v2 <= 0.0:
                raise LapNotCompletedError(
                    f"the car cannot {what} enough to keep moving ({i * step:.0f} m into the pass)"
                )
            v = min(v2**0.5, limit[(i + 1) % n])
            if i + 1 < n:
                out[i + 1] = v
        if abs(v - v_start) <= _CLOSURE_TOL:
            return np.asarray(out), passes
        v_start = min(v, limit[0])
    raise LapNotCompletedError(f"the {what} pass did not close after {_MAX_CLOSURE_PASSES} laps")


def _time_and_energy(vehicle: Vehicle, speed: np.ndarray, step: float) -> tuple[float, float, float]:
    """Lap time [s] and battery drive / recuperated energy [J] from the closed speed profile.

    Per segment the longitudinal force is F = m·(v²_{i+1} − v²_i)/(2Δs) + resistance. Driving (F > 0) draws
    F·Δs/(η_drivetrain·η_motor) from the battery. Braking (F < 0) is shared between the axles in proportion to their
    loads (ideal brake balance); the motor takes as much of the rear share as its torque and the regen power limit
    allow and returns F_regen·Δs·η_drivetrain·η_regen to the battery.
    """
    v0, v1 = speed, np.roll(speed, -1)
    lap_time = float(np.sum(2.0 * step / (v0 + v1)))
    v_mean2 = 0.25 * (v0 + v1) ** 2
    accel = (v1**2 - v0**2) / (2.0 * step)
    force = vehicle.mass_kg * accel + vehicle.resistance(v_mean2)
    drive = float(np.sum(np.maximum(force, 0.0)) * step / (vehicle.drivetrain_efficiency * vehicle.motor_efficiency))
    brake = np.maximum(-force, 0.0)
    fz_front, fz_rear = vehicle.axle_loads(v_mean2, np.minimum(accel, 0.0))
    to_battery = vehicle.drivetrain_efficiency * vehicle.regen_efficiency
    torque_force = vehicle.torque_nm * vehicle.gear_ratio / (vehicle.tyre_radius_m * vehicle.drivetrain_efficiency)
    power_force = vehicle.regen_power_kw * 1e3 / (to_battery * np.sqrt(v_mean2))
    regen = np.minimum(np.minimum(brake * fz_rear / (fz_front + fz_rear), torque_force), power_force)
    recuperated = float(np.sum(regen) * step * to_battery)
    return lap_time, drive, recuperated
