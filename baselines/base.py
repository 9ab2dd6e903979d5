"""The method interface the trial runner drives: one object per trial, asked for a batch each iteration.

The runner owns the data and the surrogate. Observations reach trieste in its *minimisation* convention (a problem
with sense "maximise" is negated), one column per objective. Each iteration the runner fits the models (if the method
`uses_model`) and calls `ask(models, dataset, t)` for the next batch [B, d] in the problem's scaled space; after
evaluation it calls `tell(points, observations)` (observations in the same minimisation convention; ask/tell methods
such as NSGA-II use it, trieste-rule methods ignore it). `diagnostics` holds what the last `ask` wants recorded.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np
from trieste.data import Dataset
from trieste.models import ProbabilisticModel
from trieste.space import Box

from problems import Problem


class NotApplicable(ValueError):
    """The method cannot be run on this problem or with these settings (raised before any model is built)."""


def refuse_multi_objective(method: str, problem: Problem, why: str = "is single-objective") -> None:
    """`NotApplicable` for a problem with several objectives, naming the methods that optimise those."""
    if problem.num_objectives > 1:
        raise NotApplicable(
            f"{method} {why}; {problem.name!r} has {problem.num_objectives} objectives "
            "(use seq-ehvi, nsga2 or b3o with 'ehvi')"
        )


def refuse_mixed(
    method: str, problem: Problem, alternative: str, why: str = "optimises by gradient over a Box"
) -> None:
    """`NotApplicable` for a search space with categorical variables (anything but a Box), naming `alternative`."""
    if not isinstance(problem.search_space, Box):
        raise NotApplicable(f"{method} {why}; {problem.name!r} has categorical variables (use {alternative})")


@dataclass
class TrialContext:
    """What a method knows about its trial when it is set up."""

    problem: Problem
    batch_size: int
    iterations: int
    seed: int


class Method(ABC):
    #: registry name
    name: str = ""
    #: whether the runner must fit a surrogate before each `ask`
    uses_model: bool = True
    #: whether its draws at iteration t do not depend on the trial's number of iterations (`context.iterations`), so
    #: that a finished trial can be continued to more of them (`bench.extension`); False if they do
    horizon_free: bool = True

    def __init__(self) -> None:
        self.diagnostics: dict[str, Any] = {}

    def check(self, context: TrialContext) -> None:
        """Raise `NotApplicable` with a clear message if this method cannot run this trial."""

    @abstractmethod
    def setup(self, context: TrialContext) -> None:
        """Build whatever the method needs (rules, optimisers); called once per process, after `check`."""

    @abstractmethod
    def ask(self, models: Mapping[str, ProbabilisticModel] | None, dataset: Dataset, t: int) -> np.ndarray:
        """The batch for BO iteration t >= 1, as float64 [B, d] in the problem's search space."""

    def tell(self, points: np.ndarray, observations: np.ndarray) -> None:
        """Observed values of the last batch, minimisation convention [B, num_objectives]."""

    def restore(self, history: list[tuple[np.ndarray, np.ndarray]]) -> None:
        """Rebuild internal state after a resume from the (points, observations) of completed iterations.

        Methods whose batch depends only on (models, data, t) need nothing; stateful ones (NSGA-II) replay.
        """
