"""Acquisition optimisers and seeding shared by the trieste baselines.

The paper's budget for every baseline is L-BFGS started from the best of 2000·d uniform random points. trieste's
`generate_continuous_optimizer(num_initial_samples=n)` evaluates all n (times the vectorisation V) random points in
one acquisition call, which for Thompson sampling at B = 100 materialises [2000·d, 100, 1000] random-feature tensors
(over 9 GB on hartmann6, 6.8 GB already at B = 25). Here as many points are drawn and scored in chunks of at most
`max_points_per_call` model inputs, through trieste's own initial-point-sampler hook, so the peak memory is set by the
chunk, not by the budget (TS at B = 100 on hartmann6: 1.2 GB peak RSS in all). Spaces with
explicit constraints get feasible random points (trieste's `Box.sample_feasible`); trieste's optimiser then runs
scipy's trust-constr with those constraints and discards infeasible optima.
"""

from __future__ import annotations

from typing import Iterator

import numpy as np
import tensorflow as tf
from trieste.acquisition.optimizer import AcquisitionOptimizer, generate_continuous_optimizer
from trieste.space import Box, SearchSpace

from b3o.space import layout

NUM_INITIAL_SAMPLES_PER_DIM = 2000
MAX_POINTS_PER_CALL = 20_000  # model inputs per acquisition call while scoring random points (measured in the tests)


def seed_for(seed: int, t: int) -> int:
    """The integer seed of iteration t of a trial: a resumed trial draws what the uninterrupted one drew."""
    return int(np.random.SeedSequence([seed, t]).generate_state(1)[0])


def chunked_sampler(
    num_samples: int, vectorization: int = 1, points_per_sample: int = 1, max_points_per_call: int = MAX_POINTS_PER_CALL
):
    """trieste initial-point sampler yielding `num_samples` random points of the space in chunks [n, V, D].

    Each sample feeds `vectorization` (V) acquisition functions with their own points, and is itself a batch of
    `points_per_sample` model inputs when the space is a joint batch space (q-EI), so a chunk holds at most
    `max_points_per_call` model inputs.
    """
    chunk = max(1, max_points_per_call // (vectorization * points_per_sample))

    def sampler(space: SearchSpace) -> Iterator[tf.Tensor]:
        for start in range(0, num_samples, chunk):
            n = min(chunk, num_samples - start) * vectorization
            x = space.sample_feasible(n) if isinstance(space, Box) and space.has_constraints else space.sample(n)
            yield tf.reshape(x, [n // vectorization, vectorization, -1])

    return sampler


def continuous_optimizer(
    num_initial_samples: int,
    num_optimization_runs: int = 1,
    vectorization: int = 1,
    points_per_sample: int = 1,
    max_points_per_call: int = MAX_POINTS_PER_CALL,
) -> AcquisitionOptimizer:
    """trieste's L-BFGS-B (trust-constr with constraints) from the best `num_optimization_runs` of
    `num_initial_samples` random points per acquisition function, scored in bounded chunks (see module doc)."""
    return generate_continuous_optimizer(
        num_initial_samples=chunked_sampler(num_initial_samples, vectorization, points_per_sample, max_points_per_call),
        num_optimization_runs=num_optimization_runs,
    )


def require_positive(method: str, **values: int) -> None:
    """A clear error at construction for a non-positive budget parameter."""
    bad = [name for name, value in values.items() if value < 1]
    if bad:
        raise ValueError(f"{method} needs {', '.join(bad)} >= 1, got {', '.join(str(values[b]) for b in bad)}")


def optimiser_settings(
    num_initial_samples: int, num_optimization_runs: int, max_points_per_call: int
) -> dict[str, int]:
    """The acquisition-optimiser budget, for `Method.diagnostics`."""
    return {
        "num_initial_samples": num_initial_samples,
        "num_optimization_runs": num_optimization_runs,
        "max_points_per_call": max_points_per_call,
    }


def as_batch(points: tf.Tensor, space: SearchSpace) -> np.ndarray:
    """float64 [B, d] points, continuous coordinates clipped to their bounds.

    trust-constr treats bounds as soft and may end a hair outside them, which `Problem.check_inputs` rejects.
    """
    x = np.array(points, dtype=np.float64)
    lay = layout(space)
    x[:, lay.continuous] = np.clip(x[:, lay.continuous], lay.lower, lay.upper)
    return x
