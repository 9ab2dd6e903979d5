"""`b3o` behaves as a library (issue 79): `dir` and `help` show its API and nothing of the suite, every public class
and method has a docstring of its own, and building several rules in one process gives no retracing warning."""

from __future__ import annotations

import inspect
import logging
import pydoc
import warnings

import numpy as np
import pytest

import b3o


def test_dir_lists_the_public_names():
    assert set(b3o.__all__) <= set(dir(b3o))
    assert {"BoltzmannBatch", "StandardisedModel", "quiet_tensorflow", "median_nearest_neighbour"} <= set(dir(b3o))
    assert "import_module" not in dir(b3o) and "TYPE_CHECKING" not in dir(b3o)


def test_help_describes_the_method_and_nothing_of_the_suite():
    text = pydoc.render_doc(b3o, renderer=pydoc.plaintext)
    for name in ("BoltzmannBatch", "UpperTail", "StandardisedModel", "quiet_tensorflow", "batch_size"):
        assert name in text, name
    for suite in ("b3o lap", "b3o list", "Snakemake", "harness", "bench"):
        assert suite not in text, suite


def _public_members():
    """(qualified name, object) of every public class of `b3o.__all__` and its modules, and their public methods."""
    seen = []
    for name in b3o.__all__:
        obj = getattr(b3o, name)
        if inspect.ismodule(obj):
            names = getattr(obj, "__all__", None) or [
                n for n, v in vars(obj).items() if not n.startswith("_") and getattr(v, "__module__", "") == obj.__name__
            ]
            owners = [getattr(obj, n) for n in names]
        else:
            owners = [obj]
        for owner in owners:
            seen.append((getattr(owner, "__qualname__", name), owner))
            if inspect.isclass(owner):
                for attr, member in vars(owner).items():
                    if not attr.startswith("_") and (inspect.isfunction(member) or isinstance(member, property)):
                        seen.append((f"{owner.__qualname__}.{attr}", member))
    return seen


def test_every_public_class_and_method_has_its_own_docstring():
    """Its own: not one inherited from a base (ABC's "Helper class that provides a standard way to create an ABC")."""
    missing = []
    for name, obj in _public_members():
        own = obj.__doc__ if inspect.isclass(obj) else getattr(obj, "__doc__", None)
        if inspect.isclass(obj) and "__doc__" not in vars(obj):
            own = None
        if not (own or "").strip() and name != "__version__":
            missing.append(name)
    assert not missing, f"no docstring of their own: {missing}"


def test_several_rules_in_one_process_give_no_retracing_warning(caplog):
    from trieste.models.gpflow import GaussianProcessRegression, build_gpr
    from trieste.objectives import ScaledBranin
    from trieste.objectives.utils import mk_observer

    space = ScaledBranin.search_space
    data = mk_observer(ScaledBranin.objective)(space.sample(8, seed=0))
    model = GaussianProcessRegression(build_gpr(data, space))
    with caplog.at_level(logging.WARNING):
        for seed in range(7):
            rule = b3o.BoltzmannBatch(sampler=b3o.samplers.get("defer-is", budget=200), batch_size=3, seed=seed)
            rule.acquire_single(space, model, data)
    assert not [r for r in caplog.records if "retracing" in r.getMessage()], caplog.text


@pytest.mark.parametrize("lam, kind", [(1e4, "collapsed"), (1e-9, "uniform")])
def test_a_degenerate_density_warns_once_per_rule(lam, kind):
    from trieste.models.gpflow import GaussianProcessRegression, build_gpr
    from trieste.objectives import ScaledBranin
    from trieste.objectives.utils import mk_observer

    space = ScaledBranin.search_space
    data = mk_observer(ScaledBranin.objective)(space.sample(12, seed=1))
    model = GaussianProcessRegression(build_gpr(data, space, likelihood_variance=1e-5))
    model.optimize(data)
    rule = b3o.BoltzmannBatch("ucb", b3o.samplers.get("defer-is", budget=500), b3o.Constant(lam), batch_size=20)
    with pytest.warns(b3o.DegenerateDensityWarning, match="BoltzmannBatch at t = 1 with Constant.*: the density") as w:
        rule.acquire_single(space, model, data)
        rule.acquire_single(space, model, data)
    assert len([x for x in w if issubclass(x.category, b3o.DegenerateDensityWarning)]) == 1
    assert ("point mass" if kind == "collapsed" else "is uniform") in str(w[0].message)
    # the second batch gave no warning, yet says what it is: a practitioner's later batches were silent
    assert rule.diagnostics["t"] == 2 and rule.diagnostics["degenerate"] == kind


def test_a_clustered_batch_warns_though_its_ess_reads_flat(monkeypatch):
    """A spike narrower than the reference set's spacing: ESS/N over the reference set near 1, the batch on a point."""
    from b3o import degeneracy
    from b3o.rule import BoltzmannBatch

    rule = BoltzmannBatch(batch_size=10)
    rule.diagnostics = {"t": 3, "lambda_t": 1.0, "alpha_scale": 1.0, "ess_fraction": 0.9, "alpha_range": 5.0,
                        "relative_diversity": 0.5, "relative_nearest_neighbour": 0.01}
    assert degeneracy.state(rule.diagnostics) is None  # neither collapsed nor uniform by ESS
    with pytest.warns(b3o.DegenerateDensityWarning, match=r"at t = 3 .* tight clusters \(median nearest-neighbour"):
        rule._warn_if_degenerate()
    rule._warned.clear()
    rule.diagnostics["ess_fraction"] = 0.97  # "uniform" by ESS alone, yet the batch sits on a spike: not "raise lambda"
    with pytest.warns(b3o.DegenerateDensityWarning, match=r"tight clusters") as caught:
        rule._warn_if_degenerate()
    assert "raise lambda" not in str(caught[0].message)
    rule.diagnostics.update(ess_fraction=0.9, relative_nearest_neighbour=0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rule._warn_if_degenerate()  # a spread batch: no warning


@pytest.mark.parametrize(("temperature", "collapsed", "uniform"), [
    (b3o.Constant(1.0), "lower lambda, or choose it per iteration with b3o.UpperTail()", "raise lambda"),
    (b3o.UpperTail(), "lower its ratio (now 9.2): the lambda_t it chooses follows",
     "raise its ratio (now 9.2): the lambda_t it chooses follows"),
    (b3o.EffectiveSampleSize(), "raise per_sample (now 1.0): the lambda_t it chooses follows",
     "lower per_sample (now 1.0): the lambda_t it chooses follows"),
], ids=["constant", "upper-tail", "ess"])
def test_a_degenerate_density_s_advice_is_in_its_temperature_s_own_terms(temperature, collapsed, uniform):
    """`UpperTail` has no lambda to lower: its warning once said "lower lambda, or choose it per iteration with
    b3o.UpperTail()" to a rule already using it. The warning points at the line that asked for the batch."""
    from b3o.rule import BoltzmannBatch

    rule = BoltzmannBatch(temperature=temperature, batch_size=10)
    for ess, diversity, advice in ((1e-4, 0.01, collapsed), (0.97, 0.9, uniform)):
        rule._warned.clear()
        rule.diagnostics = {"t": 2, "lambda_t": 0.01 if ess > 0.5 else 1e4, "alpha_scale": 1.0, "ess_fraction": ess,
                            "alpha_range": 0.1, "relative_diversity": diversity, "relative_nearest_neighbour": 0.9}
        with pytest.warns(b3o.DegenerateDensityWarning) as caught:
            rule._warn_if_degenerate()
        assert str(caught[0].message).endswith(advice), caught[0].message
        assert caught[0].filename == __file__


def test_nearest_neighbour_diversity_sees_clusters_the_mean_hides():
    """Two tight clusters at opposite corners: a mean pairwise distance near a uniform batch's, a tiny nearest
    neighbour."""
    from trieste.space import Box

    rng = np.random.default_rng(0)
    space = Box([0.0] * 4, [1.0] * 4)
    clusters = np.concatenate([0.01 * rng.random((15, 4)), 1 - 0.01 * rng.random((15, 4))])
    uniform = rng.random((30, 4))
    assert b3o.mean_pairwise_distance(clusters, space) > b3o.mean_pairwise_distance(uniform, space)
    assert b3o.median_nearest_neighbour(clusters, space) < 0.05 * b3o.median_nearest_neighbour(uniform, space)
