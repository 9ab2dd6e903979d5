"""Formula E car parameters and the point-mass force model the lap solver integrates.

The car is a point mass whose four wheel loads follow from the static weight split, aerodynamic downforce per axle
(F = ½ρv²·c_l·A) and load transfer: longitudinal m·a_x·h/l between the axles, lateral F_y,axle·h/t across each axle
(each axle carries the lateral force that balances the yaw moment, F_y,f = F_y·l_r/l). Tyre friction falls with
load, μ(F_z) = μ₀(1 + k(F_z − F_z0)/F_z0), so an axle's grip potential is Σ μ(F_z,w)·F_z,w over its two wheels and
lateral load transfer costs grip. Longitudinal and lateral force share that potential through the friction ellipse
(F_x/F_x,max)² + (F_y/F_y,max)² ≤ 1, here with equal semi-axes F_x,max = F_y,max = Σ μF_z (Milliken & Milliken,
*Race Car Vehicle Dynamics*, ch. 2 and 18; the quasi-steady-state formulation of Heilmeier, Geisslinger & Betz
2019, doi:10.1109/EVER.2019.8813646).

The rear-wheel-drive motor delivers min(T·G·η/r, P·η/v) at the wheels through one fixed gear G. Braking uses both
axles; the motor recuperates part of the rear axle's share (energy accounting in `solver`).

The force functions use only arithmetic and `abs`, so the same code serves NumPy arrays (the vectorised corner-speed
search) and Python floats (the sequential acceleration and braking passes, where NumPy scalars are much slower).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

G = 9.81  # m/s²


#: Closed range of every parameter: wide enough for any road-racing car (the design space of `problem` and the
#: tests' extremes - no torque, no grip, no downforce - lie inside), narrow enough to refuse the impossible: a
#: negative drag area (which would hand energy back), an efficiency above 1, a negative centre-of-gravity height.
#: A car with zero torque, power or grip is allowed; it simply cannot complete a lap.
PHYSICAL_RANGES: dict[str, tuple[float, float]] = {
    "mass_kg": (200.0, 5000.0),
    "power_kw": (0.0, 2000.0),
    "torque_nm": (0.0, 5000.0),
    "gear_ratio": (1.0, 40.0),
    "motor_max_rpm": (1000.0, 50_000.0),
    "tyre_radius_m": (0.1, 1.0),
    "drivetrain_efficiency": (0.01, 1.0),
    "motor_efficiency": (0.01, 1.0),
    "regen_efficiency": (0.0, 1.0),
    "regen_power_kw": (0.0, 2000.0),
    "drag_area_m2": (0.05, 5.0),
    "downforce_front_m2": (-2.0, 10.0),  # negative: lift
    "downforce_rear_m2": (-2.0, 10.0),
    "air_density_kgm3": (0.5, 1.5),  # high altitude to a cold day at sea level
    "rolling_resistance": (0.0, 0.1),
    "front_weight_fraction": (0.1, 0.9),
    "cog_height_m": (0.05, 2.0),
    "wheelbase_m": (1.0, 6.0),
    "track_width_m": (0.5, 3.0),
    "mu_front": (0.0, 3.0),
    "mu_rear": (0.0, 3.0),
    "tyre_load_sensitivity": (-0.5, 0.0),  # grip per unit load falls with load for rubber tyres
    "nominal_wheel_load_n": (100.0, 20_000.0),
    "v_max_kmh": (10.0, 500.0),
}


@dataclass(frozen=True)
class Vehicle:
    """A Formula E car. Defaults: the Gen2 car, with mass (880 kg including driver), power, torque, aerodynamic
    areas, friction, weight split and geometry as in the FE_Berlin parameter set of Heilmeier et al. (2019)."""

    mass_kg: float = 880.0
    power_kw: float = 200.0  # motor shaft power limit (race mode)
    torque_nm: float = 150.0  # motor shaft torque limit
    # Motor revolutions per wheel revolution. 10.9 puts the 225 km/h cap at 18 860 rpm, just under
    # `motor_max_rpm`, so the cap is reachable and the motor is used across its whole speed range.
    gear_ratio: float = 10.9
    motor_max_rpm: float = 19_000.0
    tyre_radius_m: float = 0.345  # loaded radius (2.168 m rolling circumference)
    drivetrain_efficiency: float = 0.96  # gearbox and shafts, motor shaft to wheel
    motor_efficiency: float = 0.90  # battery to motor shaft when driving
    regen_efficiency: float = 0.90  # motor shaft to battery when recuperating
    regen_power_kw: float = 250.0  # Gen2 limit on recuperated power
    drag_area_m2: float = 1.15  # c_d·A
    downforce_front_m2: float = 1.24  # c_l·A acting on the front axle
    downforce_rear_m2: float = 1.52  # c_l·A acting on the rear axle
    air_density_kgm3: float = 1.18  # about 25 °C at sea level
    rolling_resistance: float = 0.015  # rolling resistance coefficient of the tyre (F = c_r·F_z)
    front_weight_fraction: float = 0.385  # static share of weight on the front axle, l_r / l
    cog_height_m: float = 0.345
    wheelbase_m: float = 3.1
    track_width_m: float = 1.3
    mu_front: float = 1.22  # friction coefficient at the nominal wheel load
    mu_rear: float = 1.42
    tyre_load_sensitivity: float = -0.05  # k in μ(F_z) = μ₀(1 + k(F_z − F_z0)/F_z0)
    nominal_wheel_load_n: float = 2500.0  # F_z0
    v_max_kmh: float = 225.0  # speed cap

    def __post_init__(self) -> None:
        bad = [
            f"{name} = {getattr(self, name)!r} (physical range {lo:g} to {hi:g})"
            for name, (lo, hi) in PHYSICAL_RANGES.items()
            if not (isinstance(getattr(self, name), (int, float)) and lo <= getattr(self, name) <= hi)
        ]
        if bad:
            raise ValueError(f"vehicle parameter(s) outside their physical range: {'; '.join(bad)}")

    # -- derived constants ---------------------------------------------------------------------------------------

    @property
    def top_speed(self) -> float:
        """Speed cap in m/s: the lower of `v_max_kmh` and the speed at `motor_max_rpm` through the gear."""
        motor_limit = self.motor_max_rpm * 2 * math.pi / 60 * self.tyre_radius_m / self.gear_ratio
        return min(self.v_max_kmh / 3.6, motor_limit)

    @property
    def wheel_force_limit(self) -> float:
        """Drive force at the wheels from the motor torque limit, T·G·η/r [N]."""
        return self.torque_nm * self.gear_ratio * self.drivetrain_efficiency / self.tyre_radius_m

    @property
    def wheel_power_limit(self) -> float:
        """Drive power at the wheels, P·η [W]."""
        return self.power_kw * 1e3 * self.drivetrain_efficiency

    # -- forces (arrays or floats) -------------------------------------------------------------------------------

    def dynamic_pressure(self, v2):
        """½ρv² [Pa] from the squared speed."""
        return 0.5 * self.air_density_kgm3 * v2

    def resistance(self, v2):
        """Aerodynamic drag plus rolling resistance on the total (weight + downforce) load [N]."""
        q = self.dynamic_pressure(v2)
        load = self.mass_kg * G + (self.downforce_front_m2 + self.downforce_rear_m2) * q
        return self.drag_area_m2 * q + self.rolling_resistance * load

    def motor_force(self, v):
        """Largest drive force at the wheels at speed v: torque-limited, then power-limited [N]."""
        return _min(self.wheel_force_limit, self.wheel_power_limit / _max(v, 1e-3))

    def axle_loads(self, v2, ax):
        """Front and rear axle loads [N]: static split + downforce ∓ longitudinal transfer m·a_x·h/l."""
        q = self.dynamic_pressure(v2)
        weight = self.mass_kg * G
        transfer = self.mass_kg * ax * self.cog_height_m / self.wheelbase_m
        front = self.front_weight_fraction * weight + self.downforce_front_m2 * q - transfer
        rear = (1 - self.front_weight_fraction) * weight + self.downforce_rear_m2 * q + transfer
        return _max(front, 0.0), _max(rear, 0.0)

    def lateral_forces(self, v2, kappa):
        """Lateral force each axle must provide in steady cornering, F_y = m·v²·|κ| split by l_r/l and l_f/l [N]."""
        fy = self.mass_kg * v2 * abs(kappa)
        return self.front_weight_fraction * fy, (1 - self.front_weight_fraction) * fy

    def axle_grip(self, mu0: float, fz, fy):
        """Friction potential Σ μ(F_z,w)·F_z,w of an axle with load fz carrying lateral force fy [N].

        The lateral transfer fy·h/t moves load from the inner to the outer wheel (at most all of it); with μ linear
        in load, Σ μF = μ₀[(1 − k)·F_z + (k/F_z0)·(F_z²/2 + 2ΔF²)].
        """
        k, fz0 = self.tyre_load_sensitivity, self.nominal_wheel_load_n
        shift = _min(fy * self.cog_height_m / self.track_width_m, 0.5 * fz)
        return _max(mu0 * ((1 - k) * fz + k / fz0 * (0.5 * fz * fz + 2 * shift * shift)), 0.0)

    def cornering_margin(self, v, kappa):
        """Smallest spare grip of the two axles in steady cornering at speed v (≥ 0 where v can be held) [N].

        Steady means no acceleration, so the driven rear axle must also supply the drive force that balances drag
        and rolling resistance: its friction ellipse carries √(F_y² + F_resist²). Without that term the car could
        not hold the limit speed, and the explicit acceleration pass would oscillate about it.
        """
        v2 = v * v
        fz_front, fz_rear = self.axle_loads(v2, 0.0)
        fy_front, fy_rear = self.lateral_forces(v2, kappa)
        resist = self.resistance(v2)
        return _min(
            self.axle_grip(self.mu_front, fz_front, fy_front) - fy_front,
            self.axle_grip(self.mu_rear, fz_rear, fy_rear) - (fy_rear * fy_rear + resist * resist) ** 0.5,
        )

    def acceleration(self, v, kappa, iterations: int = 3):
        """Largest longitudinal acceleration at speed v on curvature κ [m/s²], may be negative.

        Drive force = min(motor force, what the rear friction ellipse leaves after the lateral force). The rear
        load depends on the acceleration itself (load transfer), so a_x is found by a short fixed-point iteration;
        it contracts by μ·h/l ≈ 0.16 per step.
        """
        v2 = v * v
        _, fy_rear = self.lateral_forces(v2, kappa)
        drive, resist = self.motor_force(v), self.resistance(v2)
        ax = 0.0
        for _ in range(iterations):
            _, fz_rear = self.axle_loads(v2, ax)
            ax = (
                _min(drive, _ellipse(self.axle_grip(self.mu_rear, fz_rear, fy_rear), fy_rear)) - resist
            ) / self.mass_kg
        return ax

    def deceleration(self, v, kappa, iterations: int = 3):
        """Largest deceleration at speed v on curvature κ [m/s², positive]: both axles' friction ellipses plus drag
        and rolling resistance, with the braking load transfer found by fixed-point iteration."""
        v2 = v * v
        fy_front, fy_rear = self.lateral_forces(v2, kappa)
        resist = self.resistance(v2)
        decel = 0.0
        for _ in range(iterations):
            fz_front, fz_rear = self.axle_loads(v2, -decel)
            brake = _ellipse(self.axle_grip(self.mu_front, fz_front, fy_front), fy_front) + _ellipse(
                self.axle_grip(self.mu_rear, fz_rear, fy_rear), fy_rear
            )
            decel = (brake + resist) / self.mass_kg
        return decel


def parameter_names() -> list[str]:
    return [f.name for f in fields(Vehicle)]


def _ellipse(potential, fy):
    """Longitudinal force left by the friction ellipse, F_x,max·√(1 − (F_y/F_y,max)²), with equal semi-axes."""
    ratio = fy / _max(potential, 1e-9)
    return potential * _max(1 - ratio * ratio, 0.0) ** 0.5


def _min(a, b):
    """Elementwise minimum for floats and arrays alike."""
    return 0.5 * (a + b - abs(a - b))


def _max(a, b):
    """Elementwise maximum for floats and arrays alike."""
    return 0.5 * (a + b + abs(a - b))
