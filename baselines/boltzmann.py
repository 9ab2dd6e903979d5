"""B3O as a configured method: acquisition x temperature x lambda x sampler (the paper's -c/-s variants and more)."""

from __future__ import annotations

import warnings
from typing import Any, Mapping

import numpy as np
from trieste.data import Dataset
from trieste.models import ProbabilisticModel
from trieste.observer import OBJECTIVE

from b3o import BoltzmannBatch, CampaignWarning, DegenerateDensityWarning, acquisitions, samplers
from b3o import temperature as temperature_module
from baselines.base import Method, NotApplicable, TrialContext


class B3O(Method):
    name = "b3o"

    def __init__(
        self,
        acquisition: str = "ucb",
        temperature: str = "constant",
        lam: float | None = None,
        sampler: str = "defer-is",
        sampler_options: Mapping[str, Any] | None = None,
        acquisition_options: Mapping[str, Any] | None = None,
        temperature_options: Mapping[str, float] | None = None,
    ):
        super().__init__()
        # Build everything now so a bad name or lambda fails before any model exists.
        # lam defaults to temperature.DEFAULT_LAMBDA; the automatic temperatures take none (their constant, if set,
        # is a temperature option)
        self.temperature = temperature_module.get(temperature, lam, **dict(temperature_options or {}))
        self.sampler = samplers.get(sampler, **dict(sampler_options or {}))
        self.acquisition = acquisition
        self.acquisition_options = dict(acquisition_options or {})
        acquisitions.get(acquisition, **self.acquisition_options)
        self.rule: BoltzmannBatch | None = None

    def check(self, context: TrialContext) -> None:
        multi = context.problem.num_objectives > 1
        if multi != (self.acquisition == "ehvi"):
            raise NotApplicable(
                f"b3o with acquisition {self.acquisition!r} cannot optimise {context.problem.name!r} "
                f"({context.problem.num_objectives} objectives): use 'ehvi' for multi-objective problems only"
            )
        try:
            self.sampler.check_space(context.problem.search_space)
        except TypeError as err:
            raise NotApplicable(f"b3o on {context.problem.name!r}: {err}") from None

    def setup(self, context: TrialContext) -> None:
        options = dict(self.acquisition_options)
        if self.acquisition == "logei" and context.problem.search_space.has_constraints:
            options.setdefault("search_space", context.problem.search_space)  # incumbent among feasible points
        builder = acquisitions.get(self.acquisition, **options)
        self.space = context.problem.search_space
        # the runner fits the models to standardised data already (bench/standardise.py); its records pin the batches
        # drawn from (seed, t), and `restore` gives t
        self.rule = BoltzmannBatch(
            builder, self.sampler, self.temperature, context.batch_size, seed=context.seed, standardise=False,
            seed_from_data=False,
        )

    def ask(self, models: Mapping[str, ProbabilisticModel] | None, dataset: Dataset, t: int) -> np.ndarray:
        assert self.rule is not None and models is not None
        if t != self.rule.step + 1:
            raise RuntimeError(f"asked for iteration {t} after {self.rule.step} acquisitions; resume with `restore`")
        with warnings.catch_warnings():  # the runner warns of a degenerate density itself, once per trial, and gives
            warnings.simplefilter("ignore", DegenerateDensityWarning)  # t itself (checked above): no campaign to warn of
            warnings.simplefilter("ignore", CampaignWarning)
            batch = self.rule.acquire(self.space, models, {OBJECTIVE: dataset}).numpy()
        self.diagnostics = dict(self.rule.diagnostics)
        return batch

    def restore(self, history: list[tuple[np.ndarray, np.ndarray]]) -> None:
        assert self.rule is not None
        self.rule.resume(len(history))  # the rule derives lambda_t and its seed from t: resumes draw the same batches

