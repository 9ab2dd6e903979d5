"""Batch acquisition baselines: Monte Carlo q-EI (joint over B·d) and local penalisation (greedy).

q-EI samples the joint posterior of each candidate batch through trieste's `BatchReparametrizationSampler`, which
calls `predict_joint` on candidates of shape [..., B, D]. gpflow's SVGP posterior supports only [B, D] there (its
`Kuf` matmul fails on leading dimensions), so `SparseVariational` models are wrapped in `BatchedPredictJoint`,
which maps `predict_joint` over the leading dimensions with `tf.vectorized_map` (exact, and vectorised).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import tensorflow as tf
from trieste.acquisition import BatchMonteCarloExpectedImprovement, ExpectedImprovement, LocalPenalization
from trieste.acquisition.interface import AcquisitionFunction
from trieste.acquisition.rule import EfficientGlobalOptimization
from trieste.data import Dataset
from trieste.models import ProbabilisticModel
from trieste.models.gpflow import BatchReparametrizationSampler, SparseVariational
from trieste.models.interfaces import HasReparamSampler, SupportsPredictJoint
from trieste.types import TensorType

from baselines.base import NotApplicable, TrialContext, refuse_mixed, refuse_multi_objective
from baselines.optimisers import AcquisitionOptimising, require_positive


class BatchedPredictJoint(SupportsPredictJoint, HasReparamSampler):
    """A model whose `predict_joint` takes query points [..., B, D], delegating to one that takes only [B, D]."""

    def __init__(self, model: SupportsPredictJoint):
        self.model = model

    def predict(self, query_points: TensorType) -> tuple[TensorType, TensorType]:
        return self.model.predict(query_points)

    def predict_joint(self, query_points: TensorType) -> tuple[TensorType, TensorType]:
        """Mean [..., B, L] and covariance [..., L, B, B]."""
        leading, batch = tf.shape(query_points)[:-2], tf.shape(query_points)[-2:]
        flat = tf.reshape(query_points, tf.concat([[-1], batch], 0))
        mean, cov = tf.vectorized_map(self.model.predict_joint, flat)
        return (
            tf.reshape(mean, tf.concat([leading, tf.shape(mean)[1:]], 0)),
            tf.reshape(cov, tf.concat([leading, tf.shape(cov)[1:]], 0)),
        )

    def sample(self, query_points: TensorType, num_samples: int) -> TensorType:
        return self.model.sample(query_points, num_samples)

    def log(self, dataset: Dataset | None = None) -> None:
        self.model.log(dataset)

    def reparam_sampler(self, num_samples: int) -> BatchReparametrizationSampler:
        return BatchReparametrizationSampler(num_samples, self)


class _BatchMonteCarloEI(BatchMonteCarloExpectedImprovement):
    """trieste's q-EI, with SVGP models given a batched `predict_joint`."""

    def prepare_acquisition_function(
        self, model: ProbabilisticModel, dataset: Dataset | None = None
    ) -> AcquisitionFunction:
        if isinstance(model, SparseVariational):
            model = BatchedPredictJoint(model)
        return super().prepare_acquisition_function(model, dataset)


def _check_single_objective_continuous(method: str, context: TrialContext) -> None:
    refuse_multi_objective(method, context.problem)
    refuse_mixed(method, context.problem, "logei-mv or b3o with the 'mixed-mh' sampler")


class BatchEI(AcquisitionOptimising):
    """Monte Carlo q-EI, optimised jointly over the B·d coordinates of the batch.

    Budget: L-BFGS from the best of `num_initial_samples` random *batches* (default 2000·d, the same number of
    candidates as the sequential baselines though each is a batch of B points; 2000·B·d joint samples would cost B
    times more model evaluations again for no benefit in a space of B·d dimensions), each scored with
    `sample_size` posterior samples. L-BFGS then runs to convergence over all B·d coordinates, which dominates the
    cost (measured by `b3o scaling`: README, "Batch time versus B").
    """

    name = "qei"

    def __init__(self, sample_size: int = 1000, **budget: int):
        super().__init__(**budget)
        require_positive(self.name, sample_size=sample_size)
        self.sample_size = sample_size

    def check(self, context: TrialContext) -> None:
        _check_single_objective_continuous("qei", context)
        if context.problem.search_space.has_constraints:
            raise NotApplicable(
                f"qei optimises the batch jointly over trieste's product space (space ** B), which drops the explicit "
                f"constraints of {context.problem.name!r}, so its batches could be infeasible (use lp or ts)"
            )

    def optimiser_shape(self, context: TrialContext) -> tuple[int, int]:
        return 1, context.batch_size  # each candidate is a whole batch of B model inputs

    def builder(self) -> _BatchMonteCarloEI:
        return _BatchMonteCarloEI(self.sample_size)

    def batch_diagnostics(self, rule: EfficientGlobalOptimization, batch: np.ndarray) -> dict[str, Any]:
        return {
            "num_query_points": self.batch_size,
            "sample_size": self.sample_size,
            "acquisition_value": float(rule.acquisition_function(batch[None])[0, 0]),
        }


class LocalPenalisation(AcquisitionOptimising):
    """Local penalisation (González et al. 2016): B greedy maximisations of EI, each penalised around the points
    already chosen. Budget per point: L-BFGS from the best of 2000·d random points, as for sequential EI."""

    name = "lp"

    def __init__(self, num_lipschitz_samples: int = 500, **budget: int):
        super().__init__(**budget)
        require_positive(self.name, num_lipschitz_samples=num_lipschitz_samples)
        self.num_lipschitz_samples = num_lipschitz_samples

    def check(self, context: TrialContext) -> None:
        _check_single_objective_continuous("lp", context)

    def builder(self) -> LocalPenalization:
        # EI (positive, as the penaliser's product needs) with its incumbent among feasible points if constrained.
        base = ExpectedImprovement(self.space if self.space.has_constraints else None)
        return LocalPenalization(self.space, self.num_lipschitz_samples, base_acquisition_function_builder=base)

    def batch_diagnostics(self, rule: EfficientGlobalOptimization, batch: np.ndarray) -> dict[str, Any]:
        return {"num_query_points": self.batch_size, "num_lipschitz_samples": self.num_lipschitz_samples}
