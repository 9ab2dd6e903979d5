"""A method of your own: the B of 1000 random points with the lowest lower confidence bound (docs/extending.md)."""

import numpy as np

from b3o.seeding import derived_rng
from baselines.base import Method, TrialContext, refuse_mixed, refuse_multi_objective


class RandomLCB(Method):
    uses_model = True

    def __init__(self, beta: float = 4.0, candidates: int = 1000) -> None:
        super().__init__()
        self.beta, self.candidates = beta, candidates

    def check(self, context: TrialContext) -> None:
        refuse_multi_objective("random-lcb", context.problem)
        refuse_mixed("random-lcb", context.problem, "b3o", why="draws uniform points of a Box")

    def setup(self, context: TrialContext) -> None:
        space = context.problem.search_space
        self.lower, self.upper = space.lower.numpy(), space.upper.numpy()
        self.batch_size, self.seed = context.batch_size, context.seed

    def ask(self, models, dataset, t: int) -> np.ndarray:
        rng = derived_rng(self.seed, t)  # this trial's draws at iteration t: a resumed trial draws them again
        x = self.lower + (self.upper - self.lower) * rng.random((self.candidates, len(self.lower)))
        mean, variance = (v.numpy()[:, 0] for v in models["OBJECTIVE"].predict(x))
        lcb = mean - np.sqrt(self.beta * variance)
        self.diagnostics = {"best_lcb": float(lcb.min())}
        return x[np.argsort(lcb)[: self.batch_size]]
