"""Samplers against exact densities: Gaussian mixtures on boxes, whose bin masses follow from normal CDFs."""

from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf
from mixtures import Mixture
from trieste.space import Box, CategoricalSearchSpace, LinearConstraint, TaggedProductSearchSpace

from b3o import samplers
from b3o.space import InfeasibleSpaceError

ONE_D = Mixture([[0.2], [0.5], [0.8]], [0.05, 0.08, 0.04], [0.3, 0.5, 0.2], [0.0], [1.0])
TWO_D = Mixture([[0.25, 0.7], [0.7, 0.3], [0.75, 0.8]], [0.08, 0.1, 0.06], [0.4, 0.4, 0.2], [0, 0], [1, 1])
# A shifted, stretched box checks that samplers respect bounds other than the unit cube.
TWO_D_WIDE = Mixture([[-1.0, 4.0], [2.0, 6.0]], [0.6, 0.9], [0.5, 0.5], [-3, 2], [3, 9])

# name -> (options, samples, TV threshold): the thresholds, sample counts making noise well below them.
ACCURACY = {
    "defer": ({"budget": 10_000}, 100_000, 0.05),
    "defer-is": ({"budget": 10_000}, 20_000, 0.05),
    "dmc": ({"num_points": 2**15}, 100_000, 0.05),
    "mh": ({"num_chains": 2000, "burn_in": 500, "thin": 5}, 20_000, 0.1),
    "langevin": ({"num_chains": 2000, "burn_in": 500, "thin": 5}, 20_000, 0.1),
    "mixed-mh": ({"num_chains": 2000, "burn_in": 500, "thin": 5}, 20_000, 0.1),
}


# samplers drawn in batches, as B3O draws them: the importance step's K * n candidates are capped at half the budget
BATCHES = {"defer-is": 5}


def draw(name: str, options: dict, density, space, n: int, seed: int) -> np.ndarray:
    """n samples, in BATCHES[name] equal calls with consecutive seeds."""
    batches = BATCHES.get(name, 1)
    sampler = samplers.get(name, **options)
    return np.concatenate([sampler.sample(density, space, n // batches, seed=seed + i) for i in range(batches)])


def test_registry_lists_all_samplers_and_rejects_unknown():
    assert samplers.names() == sorted(["defer", "defer-is", "mh", "langevin", "dmc", "mixed-mh"])
    with pytest.raises(ValueError, match="valid samplers: defer, defer-is, dmc, langevin, mh, mixed-mh"):
        samplers.get("slice")
    with pytest.raises(ValueError, match="bad options for sampler 'defer'"):
        samplers.get("defer", budjet=10)


@pytest.mark.parametrize("name", sorted(ACCURACY))
@pytest.mark.parametrize("target", [ONE_D, TWO_D, TWO_D_WIDE], ids=["1d", "2d", "2d-wide"])
def test_samples_match_exact_density(name, target):
    options, n, threshold = ACCURACY[name]
    x = draw(name, options, target, target.space, n, seed=1)
    assert x.shape == (n, target.means.shape[1])
    tv = target.total_variation(x, bins=50 if x.shape[1] == 1 else 10)
    assert tv <= threshold, f"{name}: total variation {tv:.3f} > {threshold}"
    # every mode carrying more than 5% of the mass receives samples near it
    mass = target.component_mass(target.lower, target.upper)
    for mean, sd in zip(target.means[mass / mass.sum() > 0.05], target.sds[mass / mass.sum() > 0.05]):
        assert np.any(np.linalg.norm(x - mean, axis=1) < sd), f"{name}: no samples near mode {mean}"


@pytest.mark.parametrize("random_origin", [False, True], ids=["fixed-grid", "random-origin"])
@pytest.mark.parametrize("target", [ONE_D, TWO_D, TWO_D_WIDE], ids=["1d", "2d", "2d-wide"])
def test_defer_log_z_matches_quadrature(target, random_origin):
    sampler = samplers.get("defer", budget=10_000, random_origin=random_origin)
    sampler.sample(target, target.space, 10, seed=0)
    partition = sampler.partition
    assert abs(partition.log_z - target.log_z()) <= 0.01 * abs(target.log_z()) + 1e-3
    # the leaves tile the box exactly (with a random origin, the box as a torus: leaves past the upper bounds wrap)
    volume = np.prod(partition.upper - partition.lower, axis=1).sum()
    assert volume == pytest.approx(np.prod(target.upper - target.lower), rel=1e-9)
    assert partition.num_evals <= 10_000 and partition.num_leaves == partition.num_evals
    assert (partition.origin is not None) == random_origin


def test_random_origin_moves_the_grid_and_keeps_the_points_in_the_box():
    """defer-is draws its partition's origin from the seed: another seed, another grid of leaf centres."""
    lower = {}
    for seed in (0, 1):
        sampler = samplers.get("defer-is", budget=2_000)
        x = sampler.sample(TWO_D_WIDE, TWO_D_WIDE.space, 200, seed=seed)
        assert np.all((x >= TWO_D_WIDE.lower) & (x <= TWO_D_WIDE.upper))
        lower[seed] = sampler.partition.lower[0]
        assert np.all(sampler.partition.lower[0] < sampler.partition.upper[0])
    assert not np.allclose(lower[0], lower[1])


def test_defer_spends_its_budget_in_one_call_per_iteration():
    calls = []

    def density(x):
        calls.append(len(x))
        return TWO_D(x)

    sampler = samplers.get("defer", budget=2_000)
    sampler.sample(density, TWO_D.space, 5, seed=0)
    assert sum(calls) == sampler.diagnostics["num_density_evals"] <= 2_000
    assert len(calls) == sampler.diagnostics["iterations"] + 1  # + the initial centre


@pytest.mark.parametrize("name", sorted(ACCURACY))
def test_same_seed_same_samples(name):
    options = {
        "defer": {"budget": 500},
        "defer-is": {"budget": 500},
        "dmc": {"num_points": 1024},
    }.get(name, {"burn_in": 50, "thin": 2})
    a = samplers.get(name, **options).sample(TWO_D, TWO_D.space, 64, seed=7)
    b = samplers.get(name, **options).sample(TWO_D, TWO_D.space, 64, seed=7)
    c = samplers.get(name, **options).sample(TWO_D, TWO_D.space, 64, seed=8)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


@pytest.mark.parametrize("name", ["mh", "mixed-mh"])
def test_thin_spaces_the_states_of_a_chain_only_when_a_chain_gives_several(name):
    def sample(**options):
        return samplers.get(name, burn_in=20, **options).sample(TWO_D, TWO_D.space, 16, seed=3)

    np.testing.assert_array_equal(sample(thin=1), sample(thin=10))  # one chain per sample: thin is not used
    assert not np.array_equal(sample(thin=1, num_chains=4), sample(thin=10, num_chains=4))


def _peaked(scale: float):
    """log p = scale * alpha with alpha maximal (0) at (0.3, 0.6): alpha = -|x - x*|^2."""
    x_star = np.array([0.3, 0.6])
    return (lambda x: -scale * tf.reduce_sum((tf.convert_to_tensor(x, tf.float64) - x_star) ** 2, axis=-1)), x_star


@pytest.mark.parametrize("name", sorted(ACCURACY))
def test_huge_lambda_does_not_overflow_and_concentrates(name):
    space = Box([0.0, 0.0], [1.0, 1.0])
    spreads = []
    for scale in (1.0, 1e2, 1e4):
        density, x_star = _peaked(scale)
        options = {
            "defer": {"budget": 3000},
            "defer-is": {"budget": 3000},
            "dmc": {"num_points": 2**14},
        }.get(name, {"burn_in": 1000})
        x = samplers.get(name, **options).sample(density, space, 200, seed=3)
        assert np.all(np.isfinite(x)) and x.shape == (200, 2)
        # median: a few local-MCMC chains started far out still crawl towards the mode after burn-in
        spreads.append(float(np.median(np.linalg.norm(x - x_star, axis=1))))
    assert spreads[0] > spreads[1] > spreads[2], spreads
    assert spreads[2] < 0.05


@pytest.mark.parametrize("name", sorted(ACCURACY))
def test_minus_inf_and_nan_regions_get_no_samples(name):
    space = Box([0.0, 0.0], [1.0, 1.0])

    def density(x):
        x = tf.convert_to_tensor(x, tf.float64)
        base = TWO_D(x)
        base = tf.where(x[:, 0] < 0.4, tf.constant(-np.inf, tf.float64), base)
        return tf.where(x[:, 1] > 0.9, tf.constant(np.nan, tf.float64), base)

    options = {
        "defer": {"budget": 4000},
        "defer-is": {"budget": 4000},
        "dmc": {"num_points": 2**13},
    }.get(name, {"burn_in": 300})
    x = samplers.get(name, **options).sample(density, space, 500, seed=0)
    # DEFER's leaves straddle the boundary, so it may place mass up to one leaf width across it; the importance
    # step weights every candidate by its true density, so defer-is places none there
    slack = 0.02 if name == "defer" else 0.0
    assert np.mean(x[:, 0] < 0.4 - slack) == 0 and np.mean(x[:, 1] > 0.9 + slack) == 0


@pytest.mark.parametrize("name", sorted(ACCURACY))
def test_minus_inf_everywhere_is_a_clear_error(name):
    with pytest.raises(ValueError, match="-inf"):
        samplers.get(name).sample(lambda x: np.full(len(x), -np.inf), Box([0.0], [1.0]), 10, seed=0)


# porosity-style constraint: x0 + x1 <= 1.0 cuts the unit square in half
CONSTRAINED = Box([0.0, 0.0], [1.0, 1.0], constraints=[LinearConstraint(A=np.array([[1.0, 1.0]]), lb=-1e9, ub=1.0)])


@pytest.mark.parametrize("name", ["defer", "defer-is", "dmc", "mh", "langevin"])
def test_constraints_respected_and_relative_probabilities_kept(name):
    target = Mixture([[0.2, 0.3], [0.55, 0.1]], [0.1, 0.08], [0.5, 0.5], [0, 0], [1, 1])
    options, n, threshold = ACCURACY[name]
    x = draw(name, options, target, CONSTRAINED, n, seed=2)
    assert np.all(x.sum(axis=1) <= 1.0 + 1e-9)
    # exact probabilities of the truncated density on a grid of bins, by fine quadrature of the mixture
    grid = (np.arange(400) + 0.5) / 400
    gx, gy = np.meshgrid(grid, grid, indexing="ij")
    pts = np.c_[gx.ravel(), gy.ravel()]
    p = np.exp(np.asarray(target(pts))) * (pts.sum(axis=1) <= 1.0)
    exact, _ = np.histogramdd(pts, bins=8, range=[(0, 1), (0, 1)], weights=p)
    counts, _ = np.histogramdd(x, bins=8, range=[(0, 1), (0, 1)])
    tv = 0.5 * np.abs(counts / n - exact / exact.sum()).sum()
    assert tv <= threshold, f"{name}: total variation {tv:.3f} inside the feasible set"


@pytest.mark.parametrize("name", ["defer", "defer-is", "dmc", "mh", "langevin"])
def test_constrained_target_whose_unconstrained_mass_is_infeasible(name):
    """exp(30 (x0 + x1)) on x0 + x1 <= 0.5: without the constraint almost all mass sits at the infeasible corner
    (1, 1), as for an acquisition that grows past a constrained optimum. Restricted to the feasible triangle,
    s = x0 + x1 has density proportional to s exp(30 s) on [0, 0.5]; its exact mean is compared."""
    lam = 30.0
    space = Box([0.0, 0.0], [1.0, 1.0], constraints=[LinearConstraint(A=np.array([[1.0, 1.0]]), lb=-1e9, ub=0.5)])
    options, n, _ = ACCURACY[name]
    x = draw(name, options, lambda x: lam * tf.reduce_sum(x, axis=1), space, n, seed=3)
    s = x.sum(axis=1)
    assert np.all(s <= 0.5 + 1e-9)
    grid = np.linspace(0.0, 0.5, 20_001)
    weight = grid * np.exp(lam * (grid - 0.5))
    exact_mean = np.trapz(grid * weight, grid) / np.trapz(weight, grid)
    assert abs(s.mean() - exact_mean) <= 0.01, f"{name}: mean of x0 + x1 {s.mean():.4f}, exact {exact_mean:.4f}"


def test_tiny_feasible_set_names_the_constraint():
    sliver = Box([0.0, 0.0], [1.0, 1.0], constraints=[LinearConstraint(A=np.array([[1.0, 1.0]]), lb=-1e9, ub=1e-4)])
    with pytest.raises(InfeasibleSpaceError, match=r"constraint 0 .*rejects"):
        samplers.get("defer", budget=200).sample(lambda x: np.zeros(len(x)), sliver, 10, seed=0)


def test_mixed_mh_matches_exact_mixed_density():
    """One continuous and two categorical coordinates; the density factorises, so marginals are exact."""
    space = TaggedProductSearchSpace([Box([0.0], [1.0]), CategoricalSearchSpace([3, 5])], tags=["c", "k"])
    cat_logits = [np.log([0.2, 0.5, 0.3]), np.log([0.1, 0.1, 0.4, 0.1, 0.3])]

    def density(x):
        x = np.asarray(x)
        return (
            np.asarray(ONE_D(x[:, :1]))
            + cat_logits[0][x[:, 1].astype(int)]
            + cat_logits[1][x[:, 2].astype(int)]
        )

    sampler = samplers.get("mixed-mh", num_chains=2000, burn_in=500, thin=5)
    x = sampler.sample(density, space, 20_000, seed=0)
    assert set(np.unique(x[:, 1])) <= {0, 1, 2} and set(np.unique(x[:, 2])) <= {0, 1, 2, 3, 4}
    for column, logits in zip((1, 2), cat_logits):
        freq = np.bincount(x[:, column].astype(int), minlength=len(logits)) / len(x)
        assert 0.5 * np.abs(freq - np.exp(logits)).sum() <= 0.05
    assert ONE_D.total_variation(x[:, :1], bins=50) <= 0.1
    assert 0.1 < sampler.diagnostics["acceptance_rate"] < 0.6


@pytest.mark.parametrize("name", ["defer", "defer-is", "mh", "langevin", "dmc"])
def test_continuous_samplers_refuse_categorical_spaces(name):
    space = TaggedProductSearchSpace([Box([0.0], [1.0]), CategoricalSearchSpace(3)])
    with pytest.raises(TypeError, match="mixed-mh"):
        samplers.get(name).sample(lambda x: np.zeros(len(x)), space, 4, seed=0)


def test_mh_adapts_towards_target_acceptance():
    sampler = samplers.get("mh", num_chains=500, burn_in=1000, thin=1)
    sampler.sample(TWO_D, TWO_D.space, 500, seed=0)
    assert 0.15 < sampler.diagnostics["acceptance_rate"] < 0.32


def test_langevin_adapts_towards_target_acceptance():
    sampler = samplers.get("langevin", num_chains=200, burn_in=500, thin=1)
    sampler.sample(TWO_D, TWO_D.space, 200, seed=0)
    assert 0.4 < sampler.diagnostics["acceptance_rate"] < 0.75


@pytest.mark.parametrize("thin, chains", [(1, 200), (10, 20), (3, 7)])
def test_langevin_counts_every_density_evaluation(thin, chains):
    """The reported count equals the points the density actually saw, in TensorFlow and NumPy alike."""
    seen = tf.Variable(0, dtype=tf.int64)

    def counted(x):
        seen.assign_add(tf.cast(tf.shape(x)[0], tf.int64))
        return TWO_D(x)

    sampler = samplers.get("langevin", num_chains=chains, burn_in=75, thin=thin)
    sampler.sample(counted, TWO_D.space, 200, seed=0)
    assert sampler.diagnostics["num_density_evals"] == int(seen.numpy())


def test_importance_defer_spends_one_budget_and_reports_its_weights():
    calls = []

    def density(x):
        calls.append(len(x))
        return TWO_D(x)

    sampler = samplers.get("defer-is", budget=3_000, importance=5)
    sampler.sample(density, TWO_D.space, 100, seed=0)
    d = sampler.diagnostics
    # K * n candidates in one batched call, then the moves of repeated picks (samplers.base.distinct_picks)
    moves = sum(calls[calls.index(500) + 1 :])
    assert d["importance_candidates"] == 500 and moves == d["move_evals"]
    assert sum(calls) == d["num_density_evals"] <= 3_000 + d["move_evals"]  # the budget, and the moves on top
    assert sampler.partition.num_evals <= 2_500
    assert 1 <= d["importance_ess"] <= 500 and d["unique_fraction"] == 1
    assert abs(d["log_z"] - TWO_D.log_z()) <= 0.05  # the importance estimate of log Z
    # a large batch takes at most half the budget, so the partition keeps the rest
    sampler.sample(TWO_D, TWO_D.space, 1_000, seed=0)
    assert sampler.diagnostics["importance_candidates"] == 1_500


def test_importance_option_is_checked():
    with pytest.raises(ValueError, match="importance"):
        samplers.get("defer", importance=-1)
    with pytest.raises(ValueError, match="plain DEFER is the sampler 'defer'"):
        samplers.get("defer-is", importance=0)


def test_a_sampler_is_registered_in_one_place(monkeypatch):
    """The registry entry is all the harness needs: names, titles, the scaling benchmark's list and `get` see a new
    sampler (a renamed MH here), and every built-in class carries its registry name."""
    from b3o.samplers import Registered, _REGISTRY

    for name in samplers.names():
        assert samplers.sampler_class(name).name == name
    monkeypatch.setitem(_REGISTRY, "my-mh", Registered("b3o.samplers.mh", "MetropolisHastings", "My MH"))
    assert "my-mh" in samplers.names() and samplers.titles()["my-mh"] == "My MH"
    assert "my-mh" in samplers.continuous() and "mixed-mh" not in samplers.continuous()
    assert samplers.get("my-mh", burn_in=10).sample(TWO_D, TWO_D.space, 5, seed=0).shape == (5, 2)

    from bench.scaling import ScalingSpec

    assert "my-mh" in ScalingSpec().samplers
