"""Uniform random search over the (feasible) search space: the floor every model-based method must beat."""

from __future__ import annotations

from typing import Mapping

import numpy as np
from trieste.data import Dataset
from trieste.models import ProbabilisticModel

from b3o.seeding import derived_rng
from b3o.space import layout
from baselines.base import Method, TrialContext


class RandomSearch(Method):
    name = "random"
    uses_model = False

    def __init__(self) -> None:
        super().__init__()

    def setup(self, context: TrialContext) -> None:
        self.layout = layout(context.problem.search_space)
        self.batch_size = context.batch_size
        self.seed = context.seed

    def ask(self, models: Mapping[str, ProbabilisticModel] | None, dataset: Dataset, t: int) -> np.ndarray:
        return self.layout.uniform_feasible(derived_rng(self.seed, t), self.batch_size)
