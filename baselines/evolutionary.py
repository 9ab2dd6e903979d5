"""NSGA-II (pymoo) driven through its ask-and-tell interface: one BO iteration is one generation of B offspring.

The first generation is the trial's initial design (already evaluated, so every method starts from the same data).
The problem's explicit constraints become pymoo inequality constraints G <= 0 (minus trieste's residuals), so the
initial design and constrained domination rank by feasibility; and since the runner evaluates only feasible points,
offspring that violate them are repaired before they are asked for: moved towards a fixed central feasible point
until they reach the boundary of the feasible set (bisection on the segment; valid for convex, e.g. linear,
constraints).

pymoo draws from `algorithm.random_state`, which is re-seeded from (seed, t) at every ask, so a generation depends
only on the algorithm's state and t; `restore` replays the recorded asks and tells to rebuild that state.
"""

from __future__ import annotations

from typing import Mapping

import numpy as np
from pymoo.algorithms.moo.nsga2 import NSGA2 as PymooNSGA2
from pymoo.core.evaluator import Evaluator
from pymoo.core.population import Population
from pymoo.core.problem import Problem as PymooProblem
from pymoo.core.repair import Repair
from pymoo.core.termination import NoTermination
from pymoo.operators.crossover.sbx import SBX
from pymoo.operators.mutation.pm import PM
from pymoo.problems.static import StaticProblem
from trieste.data import Dataset
from trieste.models import ProbabilisticModel
from trieste.space import SearchSpace

from b3o.seeding import derived_rng, derived_seed
from b3o.space import Layout, layout
from baselines.base import Method, NotApplicable, TrialContext, refuse_mixed

_BISECTION_STEPS = 60
_ANCHOR_DRAWS = 1000


class _ShrinkToFeasible(Repair):
    """Moves each infeasible point x to anchor + s (x - anchor) with the largest feasible s in [0, 1]."""

    def __init__(self, space: SearchSpace, anchor: np.ndarray):
        super().__init__()
        self.space = space
        self.anchor = anchor
        self.count = 0  # points repaired since reset, for diagnostics

    def _feasible(self, x: np.ndarray) -> np.ndarray:
        return np.asarray(self.space.is_feasible(x), dtype=bool)

    def _do(self, problem: PymooProblem, X: np.ndarray, **kwargs) -> np.ndarray:
        bad = ~self._feasible(X)
        if not bad.any():
            return X
        direction = X[bad] - self.anchor
        low, high = np.zeros(len(direction)), np.ones(len(direction))  # feasible at low, infeasible at high
        for _ in range(_BISECTION_STEPS):
            mid = (low + high) / 2
            ok = self._feasible(self.anchor + mid[:, None] * direction)
            low, high = np.where(ok, mid, low), np.where(ok, high, mid)
        X = X.copy()
        X[bad] = self.anchor + low[:, None] * direction
        self.count += int(bad.sum())
        return X


def _anchor(lay: Layout, seed: int) -> np.ndarray:
    """A feasible point central to the feasible set: the feasible uniform draw nearest to their mean."""
    draws = lay.uniform_feasible(derived_rng(seed, 0), _ANCHOR_DRAWS)
    return draws[np.argmin(((draws - draws.mean(axis=0)) ** 2).sum(axis=1))]


class NSGA2(Method):
    """pymoo's NSGA-II with population size B; the operator parameters default to pymoo's (SBX 15/0.9, PM 20)."""

    name = "nsga2"
    uses_model = False

    def __init__(self, crossover_eta: float = 15.0, crossover_prob: float = 0.9, mutation_eta: float = 20.0):
        super().__init__()
        self.crossover_eta = crossover_eta
        self.crossover_prob = crossover_prob
        self.mutation_eta = mutation_eta

    def check(self, context: TrialContext) -> None:
        refuse_mixed(
            self.name, context.problem, "logei-mv or b3o with the 'mixed-mh' sampler",
            why="here uses real-valued operators (SBX, polynomial mutation) on a Box",
        )
        if context.batch_size < 2:
            raise NotApplicable("nsga2 needs a population (batch_size) of at least 2 to mate")

    def setup(self, context: TrialContext) -> None:
        problem = context.problem
        self.space = problem.search_space
        self.lay = layout(self.space)
        self.batch_size = context.batch_size
        self.seed = context.seed
        # residual columns of infinite bounds are always satisfied; pymoo needs finite G
        self.constraint_columns = (
            np.flatnonzero(np.isfinite(np.asarray(self.space.constraints_residuals(self.lay.lower[None]))[0]))
            if self.space.has_constraints
            else np.zeros(0, dtype=int)
        )
        self.problem = PymooProblem(
            n_var=problem.dim,
            n_obj=problem.num_objectives,
            n_ieq_constr=len(self.constraint_columns),
            xl=self.lay.lower,
            xu=self.lay.upper,
        )
        self.repair = (
            _ShrinkToFeasible(self.space, _anchor(self.lay, self.seed)) if self.space.has_constraints else None
        )
        self.algorithm: PymooNSGA2 | None = None
        self.pending: Population | None = None
        self.replay: list[tuple[np.ndarray, np.ndarray]] = []

    def _constraints(self, x: np.ndarray) -> np.ndarray:
        """pymoo's G [N, C] (feasible where <= 0): minus trieste's constraint residuals."""
        return -np.asarray(self.space.constraints_residuals(x))[:, self.constraint_columns]

    def _evaluated(self, pop: Population, observations: np.ndarray) -> Population:
        values = {"F": np.asarray(observations, dtype=np.float64)}
        if len(self.constraint_columns):
            values["G"] = self._constraints(pop.get("X"))
        Evaluator().eval(StaticProblem(self.problem, **values), pop)
        return pop

    def _start(self, x0: np.ndarray, y0: np.ndarray) -> None:
        """Set up pymoo with the evaluated initial design as its first generation."""
        self.algorithm = PymooNSGA2(
            pop_size=self.batch_size,
            sampling=x0,
            crossover=SBX(eta=self.crossover_eta, prob=self.crossover_prob),
            mutation=PM(eta=self.mutation_eta),
            repair=self.repair,
            eliminate_duplicates=True,
        )
        self.algorithm.setup(self.problem, seed=derived_seed(self.seed, 0), termination=NoTermination())
        initial = self.algorithm.ask()
        if not np.array_equal(initial.get("X"), x0):
            raise RuntimeError("nsga2: pymoo altered the initial design (duplicate or infeasible points?)")
        self.algorithm.tell(infills=self._evaluated(initial, y0))

    def _generation(self, t: int) -> np.ndarray:
        assert self.algorithm is not None
        self.algorithm.random_state = np.random.default_rng(derived_seed(self.seed, t))
        self.pending = self.algorithm.ask()
        if self.pending is None or len(self.pending) != self.batch_size:
            raise RuntimeError(
                f"nsga2: pymoo produced {0 if self.pending is None else len(self.pending)} distinct offspring, "
                f"not {self.batch_size} (population collapsed)"
            )
        return np.array(self.pending.get("X"), dtype=np.float64)

    def ask(self, models: Mapping[str, ProbabilisticModel] | None, dataset: Dataset, t: int) -> np.ndarray:
        if self.algorithm is None:
            x, y = np.asarray(dataset.query_points), np.asarray(dataset.observations)
            n0 = len(x) - sum(len(points) for points, _ in self.replay)  # the initial design comes first
            self._start(x[:n0], y[:n0])
            for step, (points, observations) in enumerate(self.replay, start=1):
                if not np.allclose(self._generation(step), points, rtol=0.0, atol=1e-12):
                    raise RuntimeError(f"nsga2: replaying iteration {step} did not reproduce its recorded batch")
                self.tell(points, observations)
            self.replay = []
        if self.repair is not None:
            self.repair.count = 0
        batch = self._generation(t)
        self.diagnostics = {
            "generation": int(self.algorithm.n_iter),
            "population_size": len(self.algorithm.pop),
            "repaired_offspring": None if self.repair is None else self.repair.count,
        }
        return batch

    def tell(self, points: np.ndarray, observations: np.ndarray) -> None:
        assert self.algorithm is not None and self.pending is not None
        self.algorithm.tell(infills=self._evaluated(self.pending, observations))
        self.pending = None

    def restore(self, history: list[tuple[np.ndarray, np.ndarray]]) -> None:
        """Keep the recorded generations; the next `ask`, which sees the initial design, replays them."""
        self.replay = [(np.asarray(p, dtype=np.float64), np.asarray(o, dtype=np.float64)) for p, o in history]
