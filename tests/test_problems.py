"""The problem contract, checked for every registered problem, plus checks specific to the synthetic functions."""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path

import numpy as np
import pytest
import tensorflow as tf
import trieste.objectives as trieste_objectives
from scipy.optimize import minimize, minimize_scalar
from scipy.stats import qmc
from trieste.space import Box

import problems
from problems import synthetic
from problems.base import Problem

SYNTHETIC = ["ackley5", "branin2", "forrester1", "hartmann6", "shekel4"]


@cache
def _problem(name: str) -> Problem:
    return problems.get(name)


def _sample(problem: Problem, n: int, seed: int) -> np.ndarray:
    """Valid points of any search space: feasible ones for a constrained box, plain samples otherwise."""
    space = problem.search_space
    if isinstance(space, Box) and space.has_constraints:
        return np.asarray(space.sample_feasible(n, seed=seed), dtype=np.float64)
    return np.asarray(space.sample(n, seed=seed), dtype=np.float64)


def test_registry_lists_the_synthetic_and_battery_problems() -> None:
    assert set(SYNTHETIC) | {"battery"} <= set(problems.names())
    with pytest.raises(ValueError, match="unknown problem"):
        problems.get("no-such-problem")


@pytest.mark.parametrize("name", problems.names())
def test_values_have_the_contract_shape_and_dtype(name: str) -> None:
    problem = _problem(name)
    x = _sample(problem, 3, seed=1)
    for y in (problem.evaluate(x), problem.observe(x, np.random.default_rng(0))):
        assert y.shape == (3, problem.num_objectives)
        assert y.dtype == np.float64
        assert np.all(np.isfinite(y))
    assert problem.sense in ("maximise", "minimise")
    if problem.num_objectives > 1:
        assert problem.reference_point is not None and len(problem.reference_point) == problem.num_objectives


@pytest.mark.parametrize("name", problems.names())
def test_points_outside_the_space_are_rejected(name: str) -> None:
    problem = _problem(name)
    x = _sample(problem, 2, seed=2)
    # Far outside any scaled box or categorical index range (categorical spaces have no numerical bounds to offset).
    for i, bad_value in ((0, 1e6), (problem.dim - 1, -1e6), (0, np.nan)):
        bad = x.copy()
        bad[1, i] = bad_value
        with pytest.raises(ValueError):
            problem.evaluate(bad)
        with pytest.raises(ValueError):
            problem.observe(bad, np.random.default_rng(0))


@pytest.mark.parametrize("name", problems.names())
def test_points_of_the_wrong_dimension_are_rejected(name: str) -> None:
    problem = _problem(name)
    x = _sample(problem, 2, seed=3)
    for bad in (np.hstack([x, x[:, :1]]), x[:, :-1], x[0]):
        with pytest.raises(ValueError):
            problem.evaluate(bad)


@pytest.mark.parametrize("name", problems.names())
def test_observe_is_determined_by_the_generator_seed(name: str) -> None:
    problem = _problem(name)
    x = _sample(problem, 4, seed=4)
    first = problem.observe(x, np.random.default_rng(7))
    np.testing.assert_array_equal(first, problem.observe(x, np.random.default_rng(7)))
    if problem.noise_variance > 0:
        assert not np.array_equal(first, problem.observe(x, np.random.default_rng(8)))


@pytest.mark.parametrize("name", problems.names())
def test_known_maximisers_attain_the_optimum(name: str) -> None:
    problem = _problem(name)
    maximisers = getattr(problem, "maximisers", None)
    if problem.optimum is None or maximisers is None:
        pytest.skip(f"{name} has no known optimum")
    np.testing.assert_allclose(problem.evaluate(maximisers)[:, 0], problem.optimum, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("name", SYNTHETIC)
def test_no_sobol_point_beats_the_optimum(name: str) -> None:
    problem = _problem(name)
    x = qmc.Sobol(problem.dim, scramble=True, seed=123).random_base2(14)
    assert problem.evaluate(x).max() <= problem.optimum + 1e-9


def _shekel_centre_7_difference(u: np.ndarray) -> np.ndarray:
    """Our Shekel minus trieste's: trieste puts the seventh centre at (5, 3, 5, 3), the paper at (5, 5, 3, 3)."""
    distances = [((10.0 * u - centre) ** 2).sum(axis=1, keepdims=True) for centre in ([5, 5, 3, 3], [5, 3, 5, 3])]
    return 1.0 / (0.3 + distances[0]) - 1.0 / (0.3 + distances[1])


# (problem, trieste problem, scaled point -> trieste's [0, 1]^d input, our value minus trieste's negated value);
# trieste minimises, so its values are negated.
TRIESTE_EQUIVALENTS = [
    ("shekel4", trieste_objectives.Shekel4, lambda u: u, _shekel_centre_7_difference),
    ("ackley5", trieste_objectives.Ackley5, lambda u: (-2.0 + 3.0 * u) / 65.536 + 0.5, lambda u: 0.0),
    ("hartmann6", trieste_objectives.Hartmann6, lambda u: u, lambda u: 0.0),
    ("branin2", trieste_objectives.Branin, lambda u: u, lambda u: 0.0),
]


@pytest.mark.parametrize(("name", "reference", "to_trieste", "difference"), TRIESTE_EQUIVALENTS)
def test_synthetic_functions_match_trieste(name: str, reference, to_trieste, difference) -> None:
    problem = _problem(name)
    u = np.vstack([problem.maximisers, np.random.default_rng(0).random((20, problem.dim))])
    expected = -reference.objective(tf.constant(to_trieste(u))).numpy() + difference(u)
    # trieste builds some constants (Shekel's c, Ackley's e) in float32, hence agreement to ~1e-7 only.
    np.testing.assert_allclose(problem.evaluate(u), expected, rtol=1e-6, atol=1e-6)


def test_forrester_matches_its_closed_form_optimum() -> None:
    problem = _problem("forrester1")
    best = minimize_scalar(
        lambda x: -synthetic.negated_forrester(np.array([[x]]))[0], bounds=(0.5, 1.0), method="bounded"
    )
    np.testing.assert_allclose(problem.maximisers, [[best.x]], atol=1e-5)
    np.testing.assert_allclose(problem.optimum, -best.fun, rtol=1e-10)


def test_shekel_maximiser_is_the_local_optimum_near_four() -> None:
    problem = _problem("shekel4")
    best = minimize(
        lambda x: -synthetic.shekel(x[None])[0],
        np.full(4, 4.0),
        method="Nelder-Mead",
        options={"xatol": 1e-10, "fatol": 1e-14, "maxiter": 10_000},
    )
    np.testing.assert_allclose(problem.maximisers[0] * 10.0, best.x, atol=1e-6)
    np.testing.assert_allclose(problem.optimum, -best.fun, rtol=1e-11)
    assert math.isclose(problem.optimum, 10.5363, abs_tol=2e-4)  # the usually quoted, truncated value


@pytest.mark.parametrize("name", SYNTHETIC)
def test_standardisation_centres_and_scales_fresh_sobol_points(name: str) -> None:
    problem = _problem(name)
    x = qmc.Sobol(problem.dim, scramble=True, seed=2024).random_base2(14)
    z = problem.standardise(problem.evaluate(x))
    assert abs(z.mean()) < 0.02
    assert abs(z.std() - 1.0) < 0.02


@pytest.mark.parametrize("noise_variance", [0.5, 0.1])
@pytest.mark.parametrize("name", SYNTHETIC)
def test_noise_variance_is_on_the_standardised_scale(name: str, noise_variance: float) -> None:
    problem = problems.get(name, noise_variance=noise_variance)
    assert problem.noise_variance == noise_variance
    x = np.repeat(problem.maximisers[:1], 20_000, axis=0)
    residuals = problem.observe(x, np.random.default_rng(0)) - problem.standardise(problem.evaluate(x))
    assert abs(residuals.mean()) < 0.02
    assert residuals.var() == pytest.approx(noise_variance, rel=0.03)


@pytest.mark.slow  # 32 battery initial designs of 40 points: minutes on one core
def test_the_battery_margin_is_what_its_rule_derives_from_the_problem_alone():
    """`problems.margins`: the battery's absolute margin is 5 % of the median initial-design hypervolume, written down
    before any result was read; the stored number is the rule's output (three significant figures), not a share of
    some run's method means. Regret needs no such number: its margin is a ratio."""
    from problems import margins

    assert margins.margin("battery", "hypervolume").value == pytest.approx(margins.derive("battery"), rel=5e-3)


def test_the_margins_script_prints_the_derived_margin_beside_the_stored_one(monkeypatch, capsys):
    from problems import margins

    monkeypatch.setattr(margins, "derive", lambda name: 4651.2)
    assert margins.main([]) == 0  # every problem with a derived margin: the battery alone
    assert capsys.readouterr().out == "battery: derived 4.65e+03, stored 4650.0\n"


def test_every_problem_of_a_shipped_config_has_an_equivalence_margin_for_its_metric():
    """Regret problems tie by the ratio; the battery's hypervolume and Formula E's score by an absolute margin."""
    import yaml

    from problems import margins

    configs = [yaml.safe_load(path.read_text()) for path in (Path(__file__).resolve().parents[1] / "config").glob("*.yaml")]
    run = {p for config in configs for experiment in config.get("experiments", {}).values() for p in experiment["problems"]}
    assert run
    metric = {"battery": "hypervolume", "formula-e": "best_value"}
    for name in run:
        found = margins.margin(name, metric.get(name, "simple_regret"))
        assert found is not None and found.value > 0 and found.reason, name
        assert found.kind == ("absolute" if name in metric else "ratio"), name
        if found.kind == "ratio":
            assert found.value == 1.25 and found.text() == "×1.25"
    # the automatic temperature's tuning keeps the earlier rule's regret margins, written down with it
    assert {n: margins.tuning_margin(n) for n in ("ackley5", "hartmann6", "shekel4")} == {
        "ackley5": 0.155, "hartmann6": 0.0849, "shekel4": 0.484
    }
    assert "1.25" in margins.RULE
