"""The ask shared by the trieste baselines: a fresh rule each iteration, optimised with the paper's budget.

The paper's budget for every baseline is L-BFGS started from the best of 2000·d uniform random points. trieste's
`generate_continuous_optimizer(num_initial_samples=n)` evaluates all n (times the vectorisation V) random points in
one acquisition call, which for Thompson sampling at B = 100 materialises [2000·d, 100, 1000] random-feature tensors
(9.6 GB of float64 on hartmann6). Here as many points are drawn and scored in chunks of at most
`max_points_per_call` model inputs, through trieste's own initial-point-sampler hook, so the peak memory is set by the
chunk, not by the budget (README, "Measured", gives the peak). Spaces with
explicit constraints get feasible random points (trieste's `Box.sample_feasible`); trieste's optimiser then runs
scipy's trust-constr with those constraints and discards infeasible optima.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, Iterator, Mapping

import numpy as np
import tensorflow as tf
from trieste.acquisition.interface import AcquisitionFunctionBuilder, SingleModelAcquisitionBuilder
from trieste.acquisition.optimizer import generate_continuous_optimizer
from trieste.acquisition.rule import EfficientGlobalOptimization
from trieste.data import Dataset
from trieste.models import ProbabilisticModel
from trieste.observer import OBJECTIVE
from trieste.space import Box, SearchSpace

from b3o.seeding import seed_tensorflow
from b3o.space import layout
from baselines.base import Method, TrialContext

NUM_INITIAL_SAMPLES_PER_DIM = 2000
MAX_POINTS_PER_CALL = 20_000  # model inputs per acquisition call while scoring random points (measured in the tests)


def chunked_sampler(
    num_samples: int,
    vectorization: int = 1,
    points_per_sample: int = 1,
    max_points_per_call: int = MAX_POINTS_PER_CALL,
    shared: bool = False,
):
    """trieste initial-point sampler yielding `num_samples` random points of the space in chunks [n, V, D].

    Each sample feeds `vectorization` (V) acquisition functions with their own points, and is itself a batch of
    `points_per_sample` model inputs when the space is a joint batch space (q-EI), so a chunk holds at most
    `max_points_per_call` model inputs. With `shared`, the V functions are scored on the same points: chunks are
    [n, D], which trieste's optimiser gives to every one of them.
    """
    chunk = max(1, max_points_per_call // (vectorization * points_per_sample))
    draws = 1 if shared else vectorization

    def sampler(space: SearchSpace) -> Iterator[tf.Tensor]:
        for start in range(0, num_samples, chunk):
            n = min(chunk, num_samples - start) * draws
            x = space.sample_feasible(n) if isinstance(space, Box) and space.has_constraints else space.sample(n)
            yield x if shared else tf.reshape(x, [n // vectorization, vectorization, -1])

    return sampler


def require_positive(method: str, **values: int) -> None:
    """A clear error at construction for a non-positive budget parameter."""
    bad = [name for name, value in values.items() if value < 1]
    if bad:
        raise ValueError(f"{method} needs {', '.join(bad)} >= 1, got {', '.join(str(values[b]) for b in bad)}")


class AcquisitionOptimising(Method):
    """A method that maximises a trieste acquisition each iteration, with the paper's optimiser budget.

    Subclasses take their own parameters plus `**budget` (forwarded here; `baselines.parameters` lists both), give
    a fresh acquisition `builder` and say what `batch_diagnostics` a batch adds to the optimiser settings.
    """

    def __init__(
        self,
        num_initial_samples_per_dim: int = NUM_INITIAL_SAMPLES_PER_DIM,
        num_optimization_runs: int = 1,
        max_points_per_call: int = MAX_POINTS_PER_CALL,
    ):
        super().__init__()
        require_positive(
            self.name,
            num_initial_samples_per_dim=num_initial_samples_per_dim,
            num_optimization_runs=num_optimization_runs,
            max_points_per_call=max_points_per_call,
        )
        self.num_initial_samples_per_dim = num_initial_samples_per_dim
        self.num_optimization_runs = num_optimization_runs
        self.max_points_per_call = max_points_per_call

    def setup(self, context: TrialContext) -> None:
        self.space = context.problem.search_space
        self.batch_size = context.batch_size
        self.seed = context.seed
        self.num_initial_samples = self.num_initial_samples_per_dim * context.problem.dim
        vectorization, points_per_sample = self.optimiser_shape(context)
        self.optimizer = generate_continuous_optimizer(
            num_initial_samples=chunked_sampler(
                self.num_initial_samples, vectorization, points_per_sample, self.max_points_per_call,
                shared=self.shared_starts(),
            ),
            num_optimization_runs=self.num_optimization_runs,
        )

    def optimiser_shape(self, context: TrialContext) -> tuple[int, int]:
        """(acquisition functions optimised at once, model inputs per candidate): (1, 1) for one point at a time."""
        return 1, 1

    def shared_starts(self) -> bool:
        """Whether the vectorised acquisition functions are scored on one common set of random points."""
        return False

    @abstractmethod
    def builder(self) -> AcquisitionFunctionBuilder | SingleModelAcquisitionBuilder:
        """A fresh trieste acquisition builder for this iteration."""

    def batch_diagnostics(self, rule: EfficientGlobalOptimization, batch: np.ndarray) -> dict[str, Any]:
        """What the last batch records besides the optimiser settings."""
        return {"num_query_points": self.batch_size}

    def ask(self, models: Mapping[str, ProbabilisticModel] | None, dataset: Dataset, t: int) -> np.ndarray:
        assert models is not None
        # A fresh rule each iteration: the acquisition is then always built by `prepare_acquisition_function`, so its
        # Monte Carlo samples, Lipschitz sample or trajectories are drawn anew from the seed of t; trieste's update
        # path would keep an earlier iteration's, and a resumed trial would differ from the uninterrupted one.
        rule = EfficientGlobalOptimization(self.builder(), num_query_points=self.batch_size, optimizer=self.optimizer)
        seed_tensorflow(self.seed, t)
        batch = as_batch(rule.acquire(self.space, models, {OBJECTIVE: dataset}), self.space)
        self.diagnostics = {**self.batch_diagnostics(rule, batch), **self.optimiser_settings()}
        return batch

    def optimiser_settings(self) -> dict[str, int]:
        """The acquisition-optimiser budget, for `diagnostics`."""
        return {
            "num_initial_samples": self.num_initial_samples,
            "num_optimization_runs": self.num_optimization_runs,
            "max_points_per_call": self.max_points_per_call,
        }


def as_batch(points: tf.Tensor, space: SearchSpace) -> np.ndarray:
    """float64 [B, d] points, continuous coordinates clipped to their bounds.

    trust-constr treats bounds as soft and may end a hair outside them, which `Problem.check_inputs` rejects.
    """
    x = np.array(points, dtype=np.float64)
    lay = layout(space)
    x[:, lay.continuous] = np.clip(x[:, lay.continuous], lay.lower, lay.upper)
    return x
