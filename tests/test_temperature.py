"""The automatic temperatures: lambda_t chosen from alpha over the reference set, scale-free, deterministic, at its
target, recorded; the configured temperatures unchanged."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from scipy.special import logsumexp
from test_rule import _branin_start, _gpr
from trieste.acquisition.interface import AcquisitionFunction, SingleModelAcquisitionBuilder

from b3o import BoltzmannBatch, acquisitions, samplers, temperature
from b3o.temperature import EffectiveSampleSize, UpperTail

#: LogEI-like values: a long lower tail and a narrow top
REFERENCE = np.concatenate([-np.random.default_rng(0).exponential(30.0, 4000), [0.0, -0.1, -0.5]])


def _ess(lam: float, alpha: np.ndarray) -> float:
    log_w = lam * (alpha - alpha.max())
    return float(np.exp(2 * logsumexp(log_w) - logsumexp(2 * log_w)))


@pytest.mark.parametrize("per_sample, batch", [(1.0, 50), (4.0, 50), (1.0, 5)])
def test_effective_sample_size_hits_its_target(per_sample, batch):
    lam, offset, scale = EffectiveSampleSize(per_sample).choose(3, REFERENCE, batch)
    assert _ess(lam, REFERENCE) == pytest.approx(per_sample * batch, rel=1e-6)
    assert (offset, scale) == (REFERENCE.max(), 1.0)


@pytest.mark.parametrize("rule", [EffectiveSampleSize(), UpperTail()])
@pytest.mark.parametrize("factor", [1e-3, 7.0, 1e4])
def test_automatic_temperatures_are_scale_free_and_deterministic(rule, factor):
    lam, offset, _ = rule.choose(2, REFERENCE, 50)
    lam_k, offset_k, _ = rule.choose(2, factor * REFERENCE, 50)
    np.testing.assert_allclose(lam * (REFERENCE - offset), lam_k * (factor * REFERENCE - offset_k), rtol=1e-8,
                               atol=1e-9)
    assert rule.choose(2, REFERENCE, 50) == (lam, offset, 1.0)


def test_upper_tail_sets_the_odds_of_the_best_point_against_the_90th_percentile():
    lam, _, _ = UpperTail(ratio=3.0).choose(1, REFERENCE, 50)
    assert lam * (REFERENCE.max() - np.quantile(REFERENCE, 0.9)) == pytest.approx(3.0)


@pytest.mark.parametrize("kind", ["auto", "auto-tail"])
def test_a_flat_acquisition_gives_the_uniform_density(kind):
    """(And a target below the points tied at the maximum gives the lambda that leaves them alone.)"""
    lam, _, _ = EffectiveSampleSize(0.1).choose(1, np.array([0.0] * 10 + [-1.0] * 90), 10)
    assert _ess(lam, np.array([0.0] * 10 + [-1.0] * 90)) == pytest.approx(10.0)
    assert temperature.get(kind).choose(4, np.full(100, 2.5), 10) == (0.0, 0.0, 1.0)


def test_automatic_temperatures_take_no_lambda_and_check_their_constant():
    with pytest.raises(ValueError, match="takes no lam"):
        temperature.get("auto", 1.0)
    with pytest.raises(ValueError, match="finite positive number"):
        temperature.get("auto", per_sample=0.0)
    with pytest.raises(ValueError, match="takes no options"):
        temperature.get("constant", 1.0, per_sample=2.0)
    with pytest.raises(TypeError, match="choose"):
        temperature.get("auto")(1)
    assert temperature.get("constant").choose(3, REFERENCE, 50) == (1.0, 0.0, 1.0)  # the configured default


class _Scaled(SingleModelAcquisitionBuilder):
    """An acquisition builder times a constant."""

    def __init__(self, inner: SingleModelAcquisitionBuilder, factor: float):
        self.inner, self.factor = inner, factor

    def prepare_acquisition_function(self, model, dataset=None) -> AcquisitionFunction:
        function = self.inner.prepare_acquisition_function(model, dataset=dataset)
        return lambda x: self.factor * function(x)


def test_the_rule_draws_the_same_batch_for_alpha_times_a_constant_and_records_lambda_t():
    space, _, data = _branin_start()
    model = _gpr(data, space)
    batches, lams = [], []
    for factor in (1.0, 250.0):
        rule = BoltzmannBatch(_Scaled(acquisitions.get("logei"), factor), samplers.get("dmc", num_points=1024),
                              temperature.get("auto"), 5, seed=3)
        batches.append(rule.acquire_single(space, model, data).numpy())
        lams.append(rule.diagnostics["lambda_t"])
        assert rule.diagnostics["alpha_scale"] == 1.0
        reference = len(rule._reference_points(space))  # ESS over the reference set = per_sample 1 x B = 5
        assert rule.diagnostics["ess_fraction"] * reference == pytest.approx(5.0, rel=1e-6)
    np.testing.assert_allclose(batches[0], batches[1], atol=1e-9)
    assert lams[1] == pytest.approx(lams[0] / 250.0)


ROOT = Path(__file__).resolve().parents[1]


def _tuned():
    """The row of the tuning run's chosen candidate and constant (paper/auto_temperature/tables/auto_choice.csv)."""
    import pandas as pd

    choice = pd.read_csv(ROOT / "paper" / "auto_temperature" / "tables" / "auto_choice.csv")
    return choice[choice["chosen_candidate"]].iloc[0]


def test_the_test_config_runs_the_automatic_temperature_the_tuning_chose():
    """The pre-registered test (docs/auto-temperature.md) runs the candidate and constant that the tuning run chose by
    its written rule (paper/auto_temperature/tables/auto_choice.csv), in every experiment that has an automatic row."""
    import yaml

    from analysis.report.beyond import AUTOMATIC
    from analysis.tables.auto_choice import CONSTANTS

    chosen = _tuned()
    config = yaml.safe_load((ROOT / "config" / "auto_temperature.yaml").read_text())
    for experiment in AUTOMATIC:
        params = [m["params"] for m in config["experiments"][experiment]["methods"]
                  if m["params"]["temperature"] in temperature.automatic()]
        assert params, experiment
        for p in params:
            assert p["temperature"] == chosen["temperature"], experiment
            assert p["temperature_options"] == {CONSTANTS[chosen["temperature"]]: chosen["constant"]}, experiment


def test_the_chosen_candidate_s_default_constant_is_the_tuned_one():
    """The pre-registered rule: "the chosen constant becomes the default" (docs/auto-temperature.md)."""

    from analysis.tables.auto_choice import CONSTANTS

    chosen = _tuned()
    default = temperature.get(chosen["temperature"])
    assert getattr(default, CONSTANTS[chosen["temperature"]]) == chosen["constant"]
