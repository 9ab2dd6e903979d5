"""The Formula E lap simulator (track, vehicle, solver), its `b3o lap` command and the `formula-e` problem."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import time
from dataclasses import replace
from functools import cache
from pathlib import Path

import numpy as np
import pytest

import problems
from bench.cli import main
from problems.formula_e import problem as fe_problem
from problems.formula_e.shanghai import shanghai
from problems.formula_e.solver import LapNotCompletedError, corner_speed_limit, simulate_lap
from problems.formula_e.track import Track, load_track, track_from_points
from problems.formula_e.vehicle import Vehicle

# LGPL reference data, read in place and never copied (see its README); tests that need it skip without it.
TRACKS = Path(__file__).resolve().parents[2] / "shared" / "data" / "tracks"
needs_tracks = pytest.mark.skipif(not (TRACKS / "Shanghai_raceline.csv").exists(), reason=f"no track data in {TRACKS}")

# TUMFTM laptime-simulation, FE_Berlin car on the Shanghai race line (tracks README).
REFERENCE_LAP_S = 132.0
REFERENCE_DRIVE_MJ = 19.6


@cache
def builtin() -> Track:
    return shanghai()


@cache
def lap(track: str = "builtin", **changes: float):
    circuit = builtin() if track == "builtin" else load_track(TRACKS / track)
    return simulate_lap(replace(Vehicle(), **changes), circuit)


def _circle(radius: float, n: int, clockwise: bool = True) -> tuple[np.ndarray, np.ndarray]:
    angle = np.linspace(0.0, 2 * np.pi, n, endpoint=False) * (-1 if clockwise else 1)
    return radius * np.cos(angle), radius * np.sin(angle)


# -- track ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("radius", [15.0, 50.0, 400.0])
def test_loader_gives_curvature_one_over_r_on_a_circle(tmp_path: Path, radius: float) -> None:
    x, y = _circle(radius, n=max(int(2 * np.pi * radius / 5), 12))
    path = tmp_path / "circle.csv"
    np.savetxt(path, np.column_stack([x, y]), delimiter=",", header="x_m,y_m")
    track = load_track(path)
    np.testing.assert_allclose(track.curvature, -1.0 / radius, rtol=0.01)  # clockwise: negative
    assert track.length == pytest.approx(2 * np.pi * radius, rel=0.01)
    assert track.total_turning == pytest.approx(-2 * np.pi, abs=1e-4)


def test_loader_reads_the_centre_line_format_and_rejects_bad_files(tmp_path: Path) -> None:
    x, y = _circle(100.0, n=126, clockwise=False)
    widths = np.full_like(x, 6.0)
    path = tmp_path / "centre.csv"
    np.savetxt(path, np.column_stack([x, y, widths, widths]), delimiter=",", header="x_m,y_m,w_tr_right_m,w_tr_left_m")
    track = load_track(path, step=2.0)
    assert track.step == pytest.approx(2.0, rel=0.01)
    np.testing.assert_allclose(track.curvature, 0.01, rtol=0.01)  # anticlockwise: positive
    with pytest.raises(ValueError, match="cannot read"):
        load_track(tmp_path / "missing.csv")
    (tmp_path / "one.csv").write_text("# x_m\n1\n2\n3\n4\n")
    with pytest.raises(ValueError, match="x_m, y_m"):
        load_track(tmp_path / "one.csv")


def test_smoothing_removes_survey_noise_but_keeps_the_total_turning() -> None:
    rng = np.random.default_rng(0)
    x, y = _circle(200.0, n=250)
    x, y = x + rng.normal(scale=0.2, size=x.shape), y + rng.normal(scale=0.2, size=y.shape)
    raw, smooth = track_from_points(x, y, smoothing=0.0), track_from_points(x, y)
    assert np.std(smooth.curvature) < 0.3 * np.std(raw.curvature)
    assert smooth.total_turning == pytest.approx(raw.total_turning, abs=1e-9)
    assert np.mean(smooth.curvature) == pytest.approx(-1 / 200, rel=0.01)


def test_builtin_shanghai_is_a_closed_clockwise_5451_m_loop_with_a_long_back_straight() -> None:
    track = builtin()
    assert track.length == pytest.approx(5451.0, abs=2.0)
    assert track.total_turning == pytest.approx(-2 * np.pi, abs=1e-3)  # clockwise
    closing_gap = math.hypot(track.x[0] - track.x[-1], track.y[0] - track.y[-1])
    assert closing_gap == pytest.approx(track.step, rel=0.05)  # the last point is one step before the first
    straight = np.abs(track.curvature) < 1e-3  # radius above 1 km
    runs = np.diff(np.flatnonzero(np.diff(np.concatenate([[0], straight, [0]]).astype(int))))[::2]
    assert 1000.0 < runs.max() * track.step < 1250.0


# -- solver -----------------------------------------------------------------------------------------------------


def test_more_power_or_less_drag_is_faster_and_more_mass_is_slower() -> None:
    base = lap().lap_time_s
    assert lap(power_kw=250.0).lap_time_s < base - 0.5
    assert lap(drag_area_m2=0.9).lap_time_s < base - 0.5
    assert lap(mass_kg=950.0).lap_time_s > base + 0.5


def test_more_downforce_raises_the_corner_speeds() -> None:
    kappa = builtin().curvature
    base = corner_speed_limit(Vehicle(), kappa)
    more = corner_speed_limit(Vehicle(downforce_front_m2=1.8, downforce_rear_m2=2.2), kappa)
    assert np.all(more >= base - 1e-9)
    assert more.min() > base.min()
    fast = (base > 100 / 3.6) & (base < 200 / 3.6)  # downforce matters most in fast corners
    assert np.mean(more[fast] - base[fast]) > 1.0
    assert lap(downforce_front_m2=1.8, downforce_rear_m2=2.2).speed.min() > lap().speed.min()


def test_corner_limit_matches_a_hand_calculation_without_aero_or_load_effects() -> None:
    # Front-limited (the rear has grip to spare for the drive force), so v = √(μ_f·g·R).
    car = Vehicle(downforce_front_m2=0.0, downforce_rear_m2=0.0, tyre_load_sensitivity=0.0, mu_front=1.2, mu_rear=1.4)
    radius = 30.0
    assert corner_speed_limit(car, np.array([1 / radius]))[0] == pytest.approx(math.sqrt(1.2 * 9.81 * radius), rel=1e-6)
    assert corner_speed_limit(car, np.array([0.0]))[0] == pytest.approx(225 / 3.6)


def test_speed_profile_respects_every_limit_round_the_closed_lap() -> None:
    car, track = Vehicle(), builtin()
    result = lap()
    v, nxt = result.speed, np.roll(result.speed, -1)  # includes the wrap from the last point to the first
    kappa, ds = np.abs(track.curvature), track.step
    assert np.all(v <= result.corner_speed + 1e-9)
    assert np.all(nxt**2 <= v**2 + 2 * ds * car.acceleration(v, kappa) + 1e-6)
    assert np.all(v**2 <= nxt**2 + 2 * ds * car.deceleration(nxt, np.roll(kappa, -1)) + 1e-6)
    assert 2 <= result.closure_passes <= 6
    assert 0 < result.recuperated_mj < result.drive_energy_mj
    assert result.energy_mj == pytest.approx(result.drive_energy_mj - result.recuperated_mj)


def test_lap_closure_converges_on_a_circle_where_the_start_speed_is_unreachable() -> None:
    # With 20 kW the car cannot hold its cornering limit on a circle: each pass ends slower than it started, and the
    # start speed is lowered pass by pass until the lap closes at the speed where drive force equals resistance.
    car, track = Vehicle(power_kw=20.0), track_from_points(*_circle(60.0, n=80))
    result = simulate_lap(car, track)
    v = result.speed[0]
    assert result.closure_passes > 5
    assert np.ptp(result.speed) < 1e-6
    assert v < result.corner_speed[0] - 0.5
    assert car.motor_force(v) == pytest.approx(car.resistance(v * v), rel=1e-6)
    assert result.lap_time_s == pytest.approx(track.length / v, rel=1e-9)


def test_lap_time_does_not_depend_on_where_the_lap_starts() -> None:
    track = builtin()
    shifted = Track("shifted", np.roll(track.x, 300), np.roll(track.y, 300), np.roll(track.curvature, 300), track.step)
    assert simulate_lap(Vehicle(), shifted).lap_time_s == pytest.approx(lap().lap_time_s, rel=1e-9)


@pytest.mark.parametrize("changes", [{"torque_nm": 0.0}, {"mu_front": 0.0}, {"mu_rear": 0.0}])
def test_a_lap_that_cannot_be_completed_raises(changes: dict[str, float]) -> None:
    with pytest.raises(LapNotCompletedError):
        simulate_lap(replace(Vehicle(), **changes), builtin())


def test_one_lap_timing() -> None:
    track = builtin()
    start = time.perf_counter()
    result = simulate_lap(Vehicle(), track)
    elapsed = time.perf_counter() - start
    print(f"\none lap of {len(track.curvature)} points: {elapsed * 1e3:.1f} ms ({result.lap_time_s:.2f} s lap)")


# -- reference data ---------------------------------------------------------------------------------------------


@needs_tracks
def test_default_car_on_the_shared_race_line_matches_the_tumftm_reference() -> None:
    result = lap("Shanghai_raceline.csv")
    assert result.lap_time_s == pytest.approx(REFERENCE_LAP_S, rel=0.05)
    assert result.drive_energy_mj == pytest.approx(REFERENCE_DRIVE_MJ, rel=0.15)


@needs_tracks
def test_centre_line_is_slower_than_the_race_line_as_in_the_reference() -> None:
    ratio = lap("Shanghai_centreline.csv").lap_time_s / lap("Shanghai_raceline.csv").lap_time_s
    assert 1.05 < ratio < 1.20  # the reference finds about 12 %


@needs_tracks
def test_builtin_track_lap_is_within_ten_percent_of_the_shared_race_line() -> None:
    # Measured: built-in 136.5 s vs race line 131.7 s (+3.7 %); the built-in is 5.451 km, the race line 5.341 km.
    ratio = lap().lap_time_s / lap("Shanghai_raceline.csv").lap_time_s
    assert 0.9 < ratio < 1.1


# -- command line -----------------------------------------------------------------------------------------------


def test_cli_prints_lap_time_and_energy_as_json() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "bench.cli", "lap", "--set", "mass_kg=900", "--json"],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["lap_time_s"] == pytest.approx(lap(mass_kg=900.0).lap_time_s)
    assert result["energy_mj"] == pytest.approx(lap(mass_kg=900.0).energy_mj)
    assert result["drive_energy_mj"] > result["energy_mj"] > 0
    assert result["vehicle"]["mass_kg"] == 900.0


@pytest.mark.parametrize("argv", [["--set", "wings=3"], ["--set", "mass_kg"], ["--set", "mass_kg=heavy"]])
def test_cli_rejects_bad_settings_with_exit_code_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert main(["lap", *argv, "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    if argv[1] == "wings=3":
        assert "unknown vehicle parameter 'wings'" in captured.err
        assert "mass_kg" in captured.err and "drag_area_m2" in captured.err  # lists the valid keys


def test_cli_exit_code_1_when_the_lap_cannot_be_completed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lap", "--set", "torque_nm=0", "--json"]) == 1
    assert "cannot complete a lap" in capsys.readouterr().err


# -- problem ----------------------------------------------------------------------------------------------------


@cache
def problem() -> fe_problem.FormulaE:
    return problems.get("formula-e")


def _scaled(value: float, bounds: tuple[float, float]) -> float:
    return (value - bounds[0]) / (bounds[1] - bounds[0])


DEFAULT_POINT = np.array(
    [
        [
            _scaled(150.0, fe_problem.CONTINUOUS["torque_nm"]),
            _scaled(1.15, fe_problem.CONTINUOUS["drag_area_m2"]),
            _scaled(1.52, fe_problem.CONTINUOUS["downforce_rear_m2"]),
            _scaled(0.385, fe_problem.CONTINUOUS["front_weight_fraction"]),
            2.0,  # gear ratio 10.9
            2.0,  # 200 kW
        ]
    ]
)


def test_problem_contract() -> None:
    p = problem()
    assert (p.name, p.sense, p.num_objectives, p.noise_variance, p.optimum, p.dim) == (
        "formula-e",
        "minimise",
        1,
        0.0,
        None,
        6,
    )
    assert p.search_space.subspace_tags == ("continuous", "categorical")


def test_default_car_scores_one_and_evaluation_is_deterministic() -> None:
    p = problem()
    x = np.vstack([DEFAULT_POINT, [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0]], [[1.0, 1.0, 1.0, 1.0, 4.0, 4.0]]])
    y = p.evaluate(x)
    assert y.shape == (3, 1) and y.dtype == np.float64
    assert y[0, 0] == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_array_equal(p.evaluate(x), y)


def test_decode_maps_scaled_points_to_vehicle_parameters() -> None:
    low, high = problem().decode(np.array([[0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 4.0, 4.0]]))
    assert (low.torque_nm, low.drag_area_m2, low.downforce_rear_m2, low.front_weight_fraction) == (
        100.0,
        0.9,
        1.0,
        0.33,
    )
    assert (low.gear_ratio, low.power_kw) == (8.5, 150.0)
    assert (high.torque_nm, high.drag_area_m2, high.downforce_rear_m2) == (250.0, 1.4, 2.0)
    assert high.front_weight_fraction == pytest.approx(0.45)
    assert (high.gear_ratio, high.power_kw, high.mass_kg) == (13.3, 250.0, 880.0)
    default = problem().decode(DEFAULT_POINT)[0]
    for name, value in vars(Vehicle()).items():
        assert getattr(default, name) == pytest.approx(value), name


@pytest.mark.parametrize(
    "bad",
    [
        [1.1, 0.5, 0.5, 0.5, 0, 0],  # continuous above 1
        [0.5, -0.1, 0.5, 0.5, 0, 0],  # continuous below 0
        [0.5, 0.5, 0.5, 0.5, 5, 0],  # category out of range
        [0.5, 0.5, 0.5, 0.5, 1.5, 0],  # category not an integer
        [0.5, 0.5, 0.5, 0.5, 0, np.nan],
    ],
)
def test_problem_rejects_points_outside_the_space(bad: list[float]) -> None:
    with pytest.raises(ValueError):
        problem().evaluate(np.array([bad]))


def test_a_lap_that_cannot_be_completed_gets_the_finite_penalty(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_lap(vehicle: Vehicle, track: Track):
        raise LapNotCompletedError("test")

    monkeypatch.setattr(fe_problem, "simulate_lap", no_lap)
    y = problem().evaluate(DEFAULT_POINT)
    assert y.tolist() == [[fe_problem.INCOMPLETE_LAP_PENALTY]]


def test_make_problem_takes_a_track_path_and_vehicle_overrides(tmp_path: Path) -> None:
    x, y = _circle(80.0, n=100)
    path = tmp_path / "oval.csv"
    np.savetxt(path, np.column_stack([x, y]), delimiter=",", header="x_m,y_m")
    p = fe_problem.make_problem(str(path), mass_kg=900.0)
    assert p.track.name == "oval" and p.base.mass_kg == 900.0
    assert p.reference_lap_time_s == pytest.approx(simulate_lap(Vehicle(mass_kg=900.0), p.track).lap_time_s)
    with pytest.raises(ValueError, match="unknown vehicle parameter.*valid: mass_kg"):
        fe_problem.make_problem(wings=3.0)
