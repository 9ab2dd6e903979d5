"""Real PyBaMM evaluations of the battery problem (~20 ms each once its worker has started, ~2 s)."""

from __future__ import annotations

import time

import numpy as np
import pybamm
import pytest

import problems
from problems.battery.problem import FAILURE_VALUE, LOWER, NAMES, UPPER, BatteryProblem
from problems.battery.simulate import REFERENCE_DESIGN, VAR_PTS, Simulator
from problems.battery.worker import WORKER


@pytest.fixture(scope="module")
def problem() -> BatteryProblem:
    return problems.get("battery")


@pytest.fixture(scope="module")
def simulator() -> Simulator:
    return Simulator()


def scaled(**changes: float) -> np.ndarray:
    """Chen2020's LG M50 design (5 % binder) with `changes` (natural units, "_" for " "), as a scaled [1, 9] point."""
    design = REFERENCE_DESIGN | {name.replace("_", " ").replace("C rate", "C-rate"): v for name, v in changes.items()}
    return ((np.array([design[name] for name in NAMES]) - LOWER) / (UPPER - LOWER))[None]


def test_design_names_agree_with_the_simulator() -> None:
    assert set(NAMES) == set(REFERENCE_DESIGN)


def test_reference_and_centre_designs_are_plausible(problem: BatteryProblem) -> None:
    values, failed = problem.evaluate_with_status(np.vstack([scaled(), np.full((1, 9), 0.5)]))
    assert not failed.any()
    (reference_energy, reference_power), (centre_energy, _) = values
    # LG M50: 18.2 Wh / 69 g = 264 Wh/kg for the whole cell, can included; its stack is lighter than the cell.
    assert 230.0 < reference_energy < 320.0
    assert 200.0 < reference_power < 350.0  # 1C: about the specific energy per hour
    assert 100.0 < centre_energy < reference_energy  # centre: porosity 0.45, a less dense electrode


def test_higher_c_rate_trades_energy_for_power(problem: BatteryProblem) -> None:
    values = problem.evaluate(np.vstack([scaled(C_rate=c) for c in (0.5, 1.0, 2.2)]))
    assert np.all(np.diff(values[:, 0]) < 0)
    assert np.all(np.diff(values[:, 1]) > 0)


def test_thicker_electrodes_store_more_energy_at_low_c_rate(problem: BatteryProblem) -> None:
    thin, thick = problem.evaluate(
        np.vstack(
            [scaled(C_rate=0.5), scaled(C_rate=0.5, negative_thickness_factor=1.5, positive_thickness_factor=1.5)]
        )
    )
    assert thick[0] > thin[0]


def test_composition_constraints_reject_overfull_electrodes(problem: BatteryProblem) -> None:
    problem.check_inputs(scaled(negative_porosity=0.30, negative_active_material_volume_fraction=0.65))  # sum 0.95
    for electrode in ("negative", "positive"):
        overfull = {f"{electrode}_porosity": 0.30, f"{electrode}_active_material_volume_fraction": 0.66}
        with pytest.raises(ValueError, match="constraints"):
            problem.evaluate(scaled(**overfull))


def test_solver_failures_score_the_worst_value() -> None:
    """A current far beyond the design range puts the cell below the cut-off at t = 0; the worker survives it."""
    energy, power, failure = WORKER.run(REFERENCE_DESIGN | {"C-rate": 200.0}, timeout=10.0)
    assert (energy, power) == FAILURE_VALUE
    assert failure is not None and "solver error" in failure
    assert WORKER.run(REFERENCE_DESIGN, timeout=10.0)[2] is None


def test_timeouts_score_the_worst_value_and_do_not_raise(problem: BatteryProblem) -> None:
    hasty = problems.get("battery", timeout=1e-4)
    values, failed = hasty.evaluate_with_status(scaled())
    assert failed.all()
    np.testing.assert_array_equal(values, [FAILURE_VALUE])
    values, failed = problem.evaluate_with_status(scaled())  # the killed worker is replaced
    assert not failed.any() and values[0, 0] > 0


def test_symbolic_mesh_matches_a_per_design_simulation(simulator: Simulator) -> None:
    """The once-discretised model with input geometry equals PyBaMM re-meshing the same design from scratch."""
    design = REFERENCE_DESIGN | {
        "negative porosity": 0.4,
        "negative particle radius [um]": 12.0,
        "negative thickness factor": 1.4,
        "positive active material volume fraction": 0.5,
        "positive particle radius [um]": 3.0,
        "positive thickness factor": 0.7,
        "C-rate": 1.7,
    }
    inputs = simulator.inputs(design)
    parameters = simulator.chen2020.copy()
    parameters.update(inputs)
    model = pybamm.lithium_ion.SPMe(options={"calculate discharge energy": "true"})
    solver = pybamm.IDAKLUSolver(rtol=1e-6, atol=1e-8)
    solution = pybamm.Simulation(model, parameter_values=parameters, var_pts=VAR_PTS, solver=solver).solve([0, 7200])
    expected_energy = solution["Discharge energy [W.h]"].entries[-1] / (simulator.area * simulator.areal_mass(inputs))
    specific_energy, _, failure = simulator.run(design)
    assert failure is None
    assert specific_energy == pytest.approx(expected_energy, rel=1e-4)


def test_stack_mass_responds_to_composition(simulator: Simulator) -> None:
    reference = simulator.areal_mass(simulator.inputs(REFERENCE_DESIGN))
    assert 0.48 < reference < 0.56  # kg/m^2: 0.27 positive, 0.17 negative, 0.075 collectors, 0.01 separator
    less_nmc = simulator.areal_mass(
        simulator.inputs(REFERENCE_DESIGN | {"positive active material volume fraction": 0.5})
    )
    fewer_pores = simulator.areal_mass(simulator.inputs(REFERENCE_DESIGN | {"negative porosity": 0.2}))
    thicker = simulator.areal_mass(simulator.inputs(REFERENCE_DESIGN | {"positive thickness factor": 1.5}))
    assert less_nmc < reference  # NMC811 (4905 kg/m^3) replaced by binder/additive (1840 kg/m^3)
    assert fewer_pores > reference  # less porosity: electrolyte (1200) replaced by binder/additive (1840)
    assert thicker > reference


def test_evaluation_time(problem: BatteryProblem) -> None:
    """Prints the time per evaluation of feasible random designs; not asserted (shared machines vary)."""
    problem.evaluate(scaled())  # make sure the worker is up
    x = np.asarray(problem.search_space.sample_feasible(20, seed=0))
    start = time.perf_counter()
    _, failed = problem.evaluate_with_status(x)
    print(f"battery: {(time.perf_counter() - start) / len(x) * 1e3:.1f} ms per evaluation, {failed.sum()} failed")
