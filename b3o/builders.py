"""The point-wise acquisition builders behind `b3o.acquisitions`' names, in trieste's conventions.

trieste models the objective to be *minimised* and its acquisitions are *maximised*; B3O's alpha is the latter
("larger is better"). A maximisation problem is handed to trieste negated, so for the paper's UCB on f,
mu_f + sqrt(beta) * sigma equals trieste's negative lower confidence bound of -f with weight sqrt(beta).
"""

from __future__ import annotations

import math
from typing import Any, Optional

import numpy as np
import tensorflow as tf
import trieste.acquisition.function as taf
from trieste.acquisition.function.function import log_expected_improvement
from trieste.acquisition.interface import AcquisitionFunction, SingleModelAcquisitionBuilder
from trieste.data import Dataset
from trieste.models import ProbabilisticModel
from trieste.space import SearchSpace



class UpperConfidenceBound(taf.NegativeLowerConfidenceBound):
    """The paper's UCB, mu + sqrt(beta) * sigma (Srinivas et al. 2010): trieste's NLCB with weight sqrt(beta).

    The default beta = 1.96**2 makes the weight on sigma trieste's default 1.96.
    """

    def __init__(self, beta: float = 1.96**2):
        if not math.isfinite(beta) or beta < 0:
            raise ValueError(f"UCB beta must be finite and non-negative, got {beta!r}")
        self.beta = float(beta)
        super().__init__(beta=math.sqrt(self.beta))

    def __repr__(self) -> str:
        return f"UpperConfidenceBound(beta={self.beta!r})"


class LogExpectedImprovement(taf.LogExpectedImprovement):
    """trieste's LogEI with a choice of incumbent eta for noisy observations.

    `incumbent="posterior-mean"` (trieste's default): the best posterior mean at the data, which screens out noise;
    `incumbent="observation"`: the best noisy observation.
    """

    INCUMBENTS = ("posterior-mean", "observation")

    def __init__(self, incumbent: str = "posterior-mean", search_space: Optional[SearchSpace] = None):
        if incumbent not in self.INCUMBENTS:
            raise ValueError(f"unknown LogEI incumbent {incumbent!r}; valid: {', '.join(self.INCUMBENTS)}")
        super().__init__(search_space)
        self.incumbent = incumbent

    def _observed_best(self, dataset: Optional[Dataset]) -> tf.Tensor:
        if dataset is None or len(dataset) == 0:
            raise ValueError("LogEI needs a non-empty dataset")
        return tf.reduce_min(dataset.observations, axis=0)

    def prepare_acquisition_function(
        self, model: ProbabilisticModel, dataset: Optional[Dataset] = None
    ) -> AcquisitionFunction:
        if self.incumbent == "posterior-mean":
            return super().prepare_acquisition_function(model, dataset)
        return log_expected_improvement(model, self._observed_best(dataset))

    def update_acquisition_function(
        self, function: AcquisitionFunction, model: ProbabilisticModel, dataset: Optional[Dataset] = None
    ) -> AcquisitionFunction:
        if self.incumbent == "posterior-mean":
            return super().update_acquisition_function(function, model, dataset)
        function.update(self._observed_best(dataset))  # type: ignore[attr-defined]
        return function

    def __repr__(self) -> str:
        return f"LogExpectedImprovement(incumbent={self.incumbent!r})"


class LogExpectedHypervolumeImprovement(taf.ExpectedHypervolumeImprovement):
    """alpha = log EHVI (trieste's EHVI, logged), so the Boltzmann density is EHVI^lambda.

    EHVI is a product of objective units and heavy-tailed over the space, so exp(lambda * EHVI) is uniform for small
    lambda and a point mass a little above it, whatever the units; on the battery in Wh/kg x W/kg it collapsed every
    batch. Its log, like LogEI for EI (Ament et al. 2023, who also give LogEHVI), is invariant to rescaling each
    objective (a constant shift of alpha) and spreads the density gradually with lambda: lambda = 1 samples in
    proportion to EHVI. EHVI that underflows to 0 (far-dominated points) is floored at the smallest normal float, so
    such points keep a finite, negligible density instead of being treated as infeasible.
    """

    def prepare_acquisition_function(
        self, model: ProbabilisticModel, dataset: Optional[Dataset] = None
    ) -> AcquisitionFunction:
        self._ehvi = super().prepare_acquisition_function(model, dataset)
        self._log_ehvi = _Logged(self._ehvi)
        return self._log_ehvi

    def update_acquisition_function(
        self, function: AcquisitionFunction, model: ProbabilisticModel, dataset: Optional[Dataset] = None
    ) -> AcquisitionFunction:
        updated = super().update_acquisition_function(self._ehvi, model, dataset)
        if updated is not self._ehvi:  # trieste built a new function: wrap it anew
            return self.prepare_acquisition_function(model, dataset)
        return self._log_ehvi


class _Logged:
    """log of a non-negative acquisition function, floored at the smallest normal float64."""

    _TINY = float(np.finfo(np.float64).tiny)

    def __init__(self, function: AcquisitionFunction):
        self.function = function

    def __call__(self, x: tf.Tensor) -> tf.Tensor:
        return tf.math.log(tf.maximum(self.function(x), tf.constant(self._TINY, dtype=tf.float64)))


def ehvi(reference_point: Any = None, log: bool = True) -> SingleModelAcquisitionBuilder:
    """B3O's EHVI: log EHVI by default (`log=False`: trieste's EHVI as is, whose scale is the objectives' units).

    `reference_point` is fixed in the model's units (minimisation, standardised objectives); None is trieste's
    adaptive reference point from the current front, which is what the experiments use.
    """
    builder = LogExpectedHypervolumeImprovement if log else taf.ExpectedHypervolumeImprovement
    if reference_point is None:
        return builder()
    return builder(tf.constant(reference_point, dtype=tf.float64))
