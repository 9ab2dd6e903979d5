"""Sequential (one point per iteration) trieste baselines: LogEI, EHVI, and LogEI on mixed spaces.

Each runs trieste's `EfficientGlobalOptimization` with the paper's acquisition budget, L-BFGS from the best of
2000·d random points (`baselines.optimisers`): L-BFGS-B on a Box, trust-constr when the Box has linear
constraints (random points then drawn feasible), and on a mixed space trieste's relaxation that keeps the
categorical coordinates of the best random point fixed while the continuous ones are optimised — i.e. random search
over the categories, gradients over the rest. A budget of N evaluations is run as batch_size 1 for N iterations.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import tensorflow as tf
from trieste.acquisition import ExpectedHypervolumeImprovement, LogExpectedImprovement
from trieste.acquisition.rule import EfficientGlobalOptimization
from trieste.space import Box, TaggedProductSearchSpace

from baselines.base import NotApplicable, TrialContext, refuse_mixed, refuse_multi_objective
from baselines.optimisers import AcquisitionOptimising


class _Sequential(AcquisitionOptimising):
    """One trieste acquisition maximised per iteration; subclasses say what they apply to and which builder."""

    def check(self, context: TrialContext) -> None:
        if context.batch_size != 1:
            raise NotApplicable(
                f"{self.name} is sequential, got batch_size {context.batch_size}: use batch_size 1 and "
                "iterations = evaluation budget"
            )

    def batch_diagnostics(self, rule: EfficientGlobalOptimization, batch: np.ndarray) -> dict[str, Any]:
        return {"acquisition_value": float(rule.acquisition_function(batch[:, None, :])[0, 0])}


class SequentialEI(_Sequential):
    """Sequential LogEI; on a constrained space the incumbent is the best posterior mean among feasible points."""

    name = "seq-ei"

    def check(self, context: TrialContext) -> None:
        refuse_multi_objective(self.name, context.problem)
        refuse_mixed(self.name, context.problem, "logei-mv")
        super().check(context)

    def builder(self) -> LogExpectedImprovement:
        return LogExpectedImprovement(self.space if self.space.has_constraints else None)


class MixedVariableLogEI(SequentialEI):
    """Sequential LogEI over a mixed (continuous x categorical) space: random search over the categories, L-BFGS over
    the continuous coordinates. On a pure Box it is the same as seq-ei."""

    name = "logei-mv"

    def check(self, context: TrialContext) -> None:
        refuse_multi_objective(self.name, context.problem)
        space = context.problem.search_space
        if not isinstance(space, (Box, TaggedProductSearchSpace)) or (
            isinstance(space, TaggedProductSearchSpace) and space.has_constraints
        ):
            raise NotApplicable(
                f"{self.name} needs a Box or an unconstrained product of a Box and categorical variables; "
                f"{context.problem.name!r} has a {type(space).__name__}"
                f"{' with explicit constraints' if space.has_constraints else ''}"
            )
        _Sequential.check(self, context)


class SequentialEHVI(_Sequential):
    """Sequential expected hypervolume improvement for multi-objective problems (linear constraints allowed).

    `reference_point` is in the models' minimisation units; None is trieste's adaptive default (as for B3O-EHVI).
    """

    name = "seq-ehvi"

    def __init__(self, reference_point: Sequence[float] | None = None, **budget: int):
        super().__init__(**budget)
        self.reference_point = None if reference_point is None else [float(r) for r in reference_point]

    def check(self, context: TrialContext) -> None:
        problem = context.problem
        if problem.num_objectives < 2:
            raise NotApplicable(f"seq-ehvi needs several objectives; {problem.name!r} has one (use seq-ei or logei-mv)")
        if self.reference_point is not None and len(self.reference_point) != problem.num_objectives:
            raise NotApplicable(
                f"seq-ehvi reference_point has {len(self.reference_point)} values for {problem.num_objectives} "
                f"objectives of {problem.name!r}"
            )
        refuse_mixed(self.name, context.problem, "b3o with 'ehvi' and the 'mixed-mh' sampler")
        super().check(context)

    def builder(self) -> ExpectedHypervolumeImprovement:
        if self.reference_point is None:
            return ExpectedHypervolumeImprovement()
        return ExpectedHypervolumeImprovement(tf.constant(self.reference_point, dtype=tf.float64))
