"""A user's problem and method for b3o, registered by this package's entry points (see its pyproject.toml).

`shifted-sphere`: minus the squared distance to a centre on [0, 1]^2, maximum 0 at the centre.
`perturb-best`: Gaussian steps around the best point observed so far, a model-free local search.
"""

from dataclasses import dataclass

import numpy as np
from trieste.space import Box

from baselines.base import Method, TrialContext
from problems.base import Problem


@dataclass(frozen=True)
class ShiftedSphere(Problem):
    centre: tuple[float, ...] = (0.3, 0.7)

    def _evaluate(self, x: np.ndarray) -> np.ndarray:  # [N, 2] points of the space -> [N, 1] values
        return -((x - np.array(self.centre)) ** 2).sum(axis=1, keepdims=True)


def shifted_sphere(noise_variance: float = 1e-4) -> Problem:
    return ShiftedSphere(
        name="shifted-sphere", search_space=Box([0.0, 0.0], [1.0, 1.0]), sense="maximise",
        noise_variance=noise_variance, optimum=0.0,
    )


class PerturbBest(Method):
    uses_model = False

    def __init__(self, step: float = 0.1) -> None:
        super().__init__()
        self.step = step

    def setup(self, context: TrialContext) -> None:
        space = context.problem.search_space
        self.lower, self.upper = space.lower.numpy(), space.upper.numpy()
        self.batch_size, self.seed = context.batch_size, context.seed

    def ask(self, models, dataset, t: int) -> np.ndarray:
        best = dataset.query_points.numpy()[np.argmin(dataset.observations.numpy()[:, 0])]  # minimisation convention
        steps = np.random.default_rng([self.seed, t]).normal(scale=self.step, size=(self.batch_size, len(best)))
        return np.clip(best + steps, self.lower, self.upper)
