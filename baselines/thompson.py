"""Scalable parallel Thompson sampling: B decoupled (RFF + inducing-point) posterior trajectories, each minimised.

trieste's `ParallelContinuousThompsonSampling` draws the B trajectories as one vectorised acquisition function
(SparseVariational: decoupled sampler with 1000 random Fourier features, the paper's setting). Each trajectory gets
the paper's search budget, L-BFGS from the best of 2000·d random points, scored in chunks (`baselines.optimisers`)
so that the peak memory does not grow with B times that budget. On mixed spaces (Formula E, where the paper
compares against TS) trajectories are functions of the one-hot encoded inputs and trieste's optimiser keeps the
categories of the best random start while L-BFGS tunes the continuous variables.
"""

from __future__ import annotations

from trieste.acquisition import ParallelContinuousThompsonSampling

from baselines.base import TrialContext, refuse_multi_objective
from baselines.optimisers import AcquisitionOptimising


class ThompsonSampling(AcquisitionOptimising):
    name = "ts"

    def check(self, context: TrialContext) -> None:
        refuse_multi_objective(self.name, context.problem, why="minimises single-objective trajectories")

    def optimiser_shape(self, context: TrialContext) -> tuple[int, int]:
        return context.batch_size, 1  # the B trajectories are one vectorised acquisition function

    def builder(self) -> ParallelContinuousThompsonSampling:
        return ParallelContinuousThompsonSampling()
