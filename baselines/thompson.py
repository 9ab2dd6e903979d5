"""Scalable parallel Thompson sampling: B decoupled (RFF + inducing-point) posterior trajectories, each minimised.

trieste's `ParallelContinuousThompsonSampling` draws the B trajectories as one vectorised acquisition function
(SparseVariational: decoupled sampler with 1000 random Fourier features, the paper's setting). Each trajectory gets
the paper's search budget, L-BFGS from the best of 2000·d random points, scored in chunks (`baselines.optimisers`)
so that the peak memory does not grow with B times that budget. On mixed spaces (Formula E, where the paper
compares against TS) trajectories are functions of the one-hot encoded inputs and trieste's optimiser keeps the
categories of the best random start while L-BFGS tunes the continuous variables.

Scoring the random points is nearly all of a TS batch's time (docs/performance.md): each of the B trajectories
evaluates its 1,064 features at its own 2000·d points. With `starts="shared"` the B trajectories are scored on one
common set of 2000·d points, so the features are evaluated once per point and the B trajectories' values are one
matrix product; every trajectory still has the same budget of uniform random starts and its own L-BFGS run. It is a
different draw of the starts, so the records differ from `starts="own"` (the default, the published runs' TS).
"""

from __future__ import annotations

from typing import Any

import tensorflow as tf
from trieste.acquisition import ParallelContinuousThompsonSampling
from trieste.data import Dataset
from trieste.types import TensorType

from baselines.base import TrialContext, refuse_multi_objective
from baselines.optimisers import AcquisitionOptimising

STARTS = ("own", "shared")


class SharedStartTrajectories:
    """The negated trajectories of trieste's parallel TS, evaluated once per point where all B share their inputs.

    `inputs` [N, B, D]: where every row repeats one point for all B trajectories (the optimiser's shared random
    starts), the trajectory's features at the N points are computed once and multiplied by the B weight vectors;
    anywhere else (the L-BFGS runs, whose B points differ) trieste's own evaluation runs. Both give the same values
    (tests/test_baselines.py checks them against each other).
    """

    def __init__(self, negated: Any, trajectory: Any):
        self._negated = negated  # trieste's acquisition function: -trajectory, output 0
        self._trajectory = trajectory  # the feature-decomposition trajectory it wraps (features, weights, mean)

    @tf.function
    def __call__(self, inputs: TensorType) -> TensorType:  # [N, B, D] -> [N, B]
        shared = tf.logical_and(
            self._trajectory._initialized, tf.reduce_all(tf.equal(inputs, inputs[:, :1, :]))
        )  # the first call goes to trieste: it draws the B weight vectors
        return tf.cond(shared, lambda: self._shared(inputs[:, 0, :]), lambda: self._negated(inputs))

    def _shared(self, points: TensorType) -> TensorType:  # [N, D] -> [N, B]
        trajectory = self._trajectory
        if trajectory._encoder is not None:
            points = trajectory._encoder(points)
        features = trajectory._feature_functions(points)  # [N, F + M]
        weights = trajectory._weights_sample[..., 0]  # [B, F + M]: output 0, as trieste's select_nth_output
        mean = trajectory._mean_function(points)[..., :1]  # [N, 1]
        return -(tf.matmul(features, weights, transpose_b=True) + mean)


class SharedStartThompsonSampling(ParallelContinuousThompsonSampling):
    """trieste's parallel continuous TS whose acquisition function scores shared starts once per point."""

    def prepare_acquisition_function(self, model: Any, dataset: Dataset | None = None) -> SharedStartTrajectories:
        negated = super().prepare_acquisition_function(model, dataset)
        return SharedStartTrajectories(negated, self._trajectory)


class ThompsonSampling(AcquisitionOptimising):
    name = "ts"

    def __init__(self, starts: str = "own", **budget: int):
        super().__init__(**budget)
        if starts not in STARTS:
            raise ValueError(f"ts starts must be one of {', '.join(STARTS)}, got {starts!r}")
        self.starts = starts

    def check(self, context: TrialContext) -> None:
        refuse_multi_objective(self.name, context.problem, why="minimises single-objective trajectories")

    def optimiser_shape(self, context: TrialContext) -> tuple[int, int]:
        return context.batch_size, 1  # the B trajectories are one vectorised acquisition function

    def shared_starts(self) -> bool:
        return self.starts == "shared"

    def builder(self) -> ParallelContinuousThompsonSampling:
        return SharedStartThompsonSampling() if self.shared_starts() else ParallelContinuousThompsonSampling()
