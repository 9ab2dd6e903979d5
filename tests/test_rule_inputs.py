"""`BoltzmannBatch` refuses bad input with one ValueError before it samples (b3o/inputs.py)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import tensorflow as tf
from trieste.acquisition import (
    BatchExpectedImprovement,
    BatchMonteCarloExpectedImprovement,
    LocalPenalization,
    ParallelContinuousThompsonSampling,
)
from trieste.acquisition.interface import SingleModelAcquisitionBuilder
from trieste.data import Dataset
from trieste.models.gpflow import GaussianProcessRegression, build_gpr
from trieste.space import Box

from b3o import BoltzmannBatch, Constant, acquisitions, samplers


def _data(dim: int, n: int = 6) -> Dataset:
    x = tf.constant(np.random.default_rng(0).random((n, dim)))
    return Dataset(x, tf.reduce_sum((x - 0.3) ** 2, axis=1, keepdims=True))


def _model(dim: int) -> GaussianProcessRegression:
    return GaussianProcessRegression(build_gpr(_data(dim), Box([0.0] * dim, [1.0] * dim)))


class _NeverSample(samplers.get("defer").__class__):
    """DEFER that fails the test if asked to sample: the checks must come first."""

    def _sample(self, *args, **kwargs):
        raise AssertionError("sampled before the input was checked")


def _rule(batch: int = 4) -> BoltzmannBatch:
    return BoltzmannBatch(acquisitions.get("logei"), _NeverSample(budget=100), Constant(1.0), batch)


def _refused(space: Box, model, data: Dataset, match: str) -> None:
    rule = _rule()
    with pytest.raises(ValueError, match=match) as err:
        rule.acquire_single(space, model, data)
    assert rule.step == 0 and rule._acquisition_function is None  # no model work, no sampling
    assert "\n" not in str(err.value)  # one error line


@pytest.mark.parametrize("space_dim", [1, 3], ids=["lower", "higher"])
def test_search_space_of_another_dimension_than_the_data(space_dim):
    _refused(
        Box([0.0] * space_dim, [1.0] * space_dim), _model(2), _data(2),
        rf"dataset 'OBJECTIVE': expected query points of the search space's dimension {space_dim}, got dimension 2",
    )


@pytest.mark.parametrize("model_dim", [1, 3], ids=["lower", "higher"])
def test_model_fitted_in_another_dimension_than_space_and_data(model_dim):
    _refused(
        Box([0.0, 0.0], [1.0, 1.0]), _model(model_dim), _data(2),
        rf"model 'OBJECTIVE': expected training data of the search space's dimension 2, got dimension {model_dim}",
    )


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf], ids=["nan", "inf", "-inf"])
def test_non_finite_observations(bad):
    data = _data(2)
    observations = data.observations.numpy()
    observations[3, 0] = bad
    _refused(
        Box([0.0, 0.0], [1.0, 1.0]), _model(2), Dataset(data.query_points, tf.constant(observations)),
        r"dataset 'OBJECTIVE': expected finite observations, got 1 of 6 with NaN or inf",
    )


def test_empty_dataset():
    empty = Dataset(tf.zeros([0, 2], tf.float64), tf.zeros([0, 1], tf.float64))
    _refused(
        Box([0.0, 0.0], [1.0, 1.0]), _model(2), empty,
        "dataset 'OBJECTIVE': expected at least one observation, got an empty dataset",
    )


@pytest.mark.parametrize("bad", [2.5, 2.0, True, "4", 0, -3])
def test_batch_size_must_be_a_positive_integer(bad):
    with pytest.raises(ValueError, match=r"batch_size \(the batch size B\) must be a positive integer, got "):
        _rule(bad)


def test_batch_size_is_required():
    with pytest.raises(ValueError, match=r"batch_size \(the batch size B\) is required"):
        BoltzmannBatch()


def test_numpy_integer_batch_size_is_accepted():
    assert _rule(np.int64(5)).batch_size == 5


def test_defaults_are_logei_defer_is_and_lambda_one():
    rule = BoltzmannBatch(batch_size=20)
    assert "LogExpectedImprovement" in repr(rule) and rule.sampler.name == "defer-is"
    assert isinstance(rule.temperature, Constant) and rule.temperature.lam == 1.0


@pytest.mark.parametrize(
    "argument, bad, match",
    [
        ("acquisition", 1.0, r"acquisition must be a trieste acquisition builder .* or one of the names ucb, logei"),
        ("acquisition", "lgoei", r"unknown acquisition 'lgoei'; valid acquisitions: ucb, logei"),
        ("sampler", Constant(1.0), r"sampler must be a b3o.samplers sampler .* or one of the names defer, defer-is"),
        ("sampler", "defer_is", r"unknown sampler 'defer_is'; valid samplers: defer, defer-is"),
        ("temperature", 1.0, r"temperature must be a b3o.temperature.Temperature .* or one of the names constant"),
        ("temperature", "hot", r"unknown temperature 'hot'; valid temperatures: constant"),
        ("seed", "abc", r"seed must be an integer >= 0, got 'abc'"),
        ("seed", -1, r"seed must be an integer >= 0, got -1"),
        ("seed", 1.5, r"seed must be an integer >= 0, got 1.5"),
        ("reference_size", 0, r"reference_size \(points of the reference set\) must be a positive integer, got 0"),
        ("initial_size", -2, r"initial_size must be an integer >= 0, got -2"),
        ("seed_from_data", "yes", r"seed_from_data must be True or False, got 'yes'"),
        ("standardise", 1, r"standardise must be True or False, got 1"),
    ],
)
def test_each_bad_argument_is_one_error_at_construction_naming_it(argument, bad, match):
    with pytest.raises(ValueError, match=match) as err:
        BoltzmannBatch(batch_size=4, **{argument: bad})
    assert "\n" not in str(err.value)


def test_positional_arguments_in_the_wrong_order_are_named():
    """`BoltzmannBatch(acq, sampler, 1.0, 5)`: a float where the temperature goes failed at acquire, as "'float'
    object has no attribute 'choose'"."""
    with pytest.raises(ValueError, match=r"^temperature must be"):
        BoltzmannBatch(acquisitions.get("logei"), samplers.get("defer-is"), 1.0, 5)


@pytest.mark.parametrize("bad", ["2", True, float("nan"), 0.0, None])
def test_a_temperature_takes_a_number_not_a_string(bad):
    with pytest.raises(ValueError, match=r"lambda must be a finite positive number"):
        Constant(bad)


@pytest.mark.parametrize("bad", ["1000", 0, 2.5])
def test_the_sampler_budget_is_checked_when_built(bad):
    with pytest.raises(ValueError, match=r"DEFER budget \(density evaluations\) must be a positive integer"):
        samplers.sampler_class("defer-is")(budget=bad)  # built directly: `samplers.get` checks its options' types too


def test_names_are_accepted_for_the_parts():
    rule = BoltzmannBatch("ucb", "mh", "auto-tail", 3)
    assert rule.sampler.name == "mh" and "UpperTail" in repr(rule)


def test_a_nan_query_point_is_named():
    data = _data(2)
    points = data.query_points.numpy()
    points[2, 1] = np.nan
    _refused(
        Box([0.0, 0.0], [1.0, 1.0]), _model(2), Dataset(tf.constant(points), data.observations),
        r"dataset 'OBJECTIVE': expected finite query points, got 1 of 6 with NaN or inf \(first at row 2",
    )


def test_an_empty_reference_set_is_named():
    """Constraints no reference point satisfies: the error names the reference set, not "-inf everywhere"."""
    from trieste.space import LinearConstraint

    corner = LinearConstraint(A=tf.constant([[1.0, 1.0]]), lb=tf.constant([1.999]), ub=tf.constant([2.0]))
    space = Box([0.0, 0.0], [1.0, 1.0], constraints=[corner])
    rule = BoltzmannBatch(batch_size=2, sampler=samplers.get("defer-is", budget=100), reference_size=64)
    with pytest.raises(ValueError, match=r"the reference set is empty: none of its 64 points satisfies"):
        rule.acquire_single(space, _model(2), _data(2))


def test_an_acquisition_of_two_values_per_point_is_refused_before_sampling():
    """LogEI on a model of two outputs gives [N, 2]: the density read its first column alone and returned a batch
    for one objective of two without a word (trieste's own rule refuses it)."""
    from b3o import StandardisedModel

    space = Box([0.0, 0.0], [1.0, 1.0])
    x = tf.constant(np.random.default_rng(0).random((10, 2)))
    f = tf.reduce_sum((x - 0.3) ** 2, axis=1, keepdims=True)
    data = Dataset(x, tf.concat([f, -f], axis=1))
    model = StandardisedModel(lambda d: GaussianProcessRegression(build_gpr(d, space)), data)
    rule = _rule()
    with pytest.raises(ValueError, match=r"gives values of shape \[4096, 2\] at 4096 points; BoltzmannBatch needs one "
                                         r"value per point, \[N, 1\]") as err:
        rule.acquire_single(space, model, data)
    assert rule.step == 0 and "\n" not in str(err.value)


def test_float32_data_are_named_as_such():
    """float32 data failed deep in TensorFlow ("cannot compute Sub as input #1 ... double tensor")."""
    from b3o import StandardisedModel

    space = Box([0.0, 0.0], [1.0, 1.0])
    data = _data(2)
    single = Dataset(tf.cast(data.query_points, tf.float32), tf.cast(data.observations, tf.float32))
    with pytest.raises(ValueError, match=r"StandardisedModel's dataset: expected float64 query points \(trieste's and "
                                         r"gpflow's\), got float32: tf.cast them to tf.float64"):
        StandardisedModel(lambda d: GaussianProcessRegression(build_gpr(d, space)), single)
    _refused(space, _model(2), Dataset(data.query_points, tf.cast(data.observations, tf.float32)),
             r"dataset 'OBJECTIVE': expected float64 observations")


@pytest.mark.parametrize(
    "builder",
    [
        lambda: BatchMonteCarloExpectedImprovement(sample_size=64),
        lambda: BatchExpectedImprovement(sample_size=64),
        lambda: ParallelContinuousThompsonSampling(),
        lambda: LocalPenalization(Box([0.0, 0.0], [1.0, 1.0])),
    ],
    ids=["batch-mc-ei", "batch-ei", "vectorized-ts", "greedy-penalisation"],
)
def test_a_batch_acquisition_is_refused_at_construction(builder):
    """trieste's q-EI was accepted and failed at acquire with "only supports models that implement a reparam_sampler
    method; received <b3o.outputs.StandardisedView ...>", blaming the model for a builder B3O cannot use."""
    builder = builder()
    with pytest.raises(ValueError, match=rf"^acquisition {type(builder).__name__} is a batch acquisition of trieste's .*: "
                                         r"BoltzmannBatch draws its batch from exp\(lambda \* alpha\) of a point-wise "
                                         r"acquisition alpha\(x\), one value per point; pass a point-wise one, e.g. "
                                         r"LogExpectedImprovement or UCB") as err:
        BoltzmannBatch(builder, batch_size=4)
    assert "\n" not in str(err.value)


class _JointBuilder(SingleModelAcquisitionBuilder):
    """A joint batch acquisition of a user's own (minus the distance to 0.3, summed over the batch's points), which
    records every input shape it is evaluated at."""

    def __init__(self) -> None:
        self.shapes: set[tuple[int, ...]] = set()

    def prepare_acquisition_function(self, model, dataset=None):
        def joint(x):
            self.shapes.add(tuple(x.shape[1:]))
            return -tf.reduce_sum((x - 0.3) ** 2, axis=[-2, -1])[:, None]
        return joint


def test_a_joint_builder_of_ones_own_is_evaluated_one_point_at_a_time():
    """The docstring's promise: a joint builder that is none of trieste's batch types is accepted and valued at
    [N, 1, d], its q = 1 form, whatever the batch size."""
    builder, space = _JointBuilder(), Box([0.0, 0.0], [1.0, 1.0])
    batch = BoltzmannBatch(builder, samplers.get("defer", budget=200), Constant(20.0), 5).acquire_single(
        space, _model(2), dataset=_data(2))
    assert batch.shape == (5, 2) and builder.shapes == {(1, 2)}


def test_a_reference_size_other_than_a_power_of_two_gives_no_warning():
    """`reference_size=1000` let scipy's "The balance properties of Sobol' points require n to be a power of 2"
    through to the user at every rule's first batch."""
    rule = BoltzmannBatch(batch_size=2, reference_size=1000)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        reference = rule._reference_points(Box([0.0, 0.0], [1.0, 1.0]))
    assert reference.shape == (1000, 2) and len(np.unique(reference, axis=0)) == 1000
