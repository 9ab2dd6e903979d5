"""`BoltzmannBatch`: the B3O acquisition rule for trieste.

Each `acquire` (BO iteration t = 1, 2, ...):
1. builds the acquisition function from the models on the first call and updates it in place afterwards, so the
   compiled TensorFlow graph is reused (trieste's builders keep their state in variables);
2. defines log p_t(x) = lambda_t * alpha_t(x), with alpha in trieste's "larger is better" convention; lambda_t and
   (for `Normalised`) the standardisation live in TF variables, so changing them never retraces;
3. draws `num_query_points` i.i.d. samples from p_t with the sampler and returns them as the batch.

The rule is agnostic to the acquisition (UCB, LogEI, EHVI over a model stack, ...) and to the space; mixed spaces need
the `mixed-mh` sampler. After each call `diagnostics` holds what the trial runner records.
"""

from __future__ import annotations

import time
from typing import Any, Mapping, Optional

import numpy as np
import tensorflow as tf
from scipy.stats import qmc
from trieste.acquisition.interface import (
    AcquisitionFunction,
    AcquisitionFunctionBuilder,
    SingleModelAcquisitionBuilder,
)
from trieste.acquisition.rule import AcquisitionRule
from trieste.data import Dataset
from trieste.models import ProbabilisticModel
from trieste.observer import OBJECTIVE
from trieste.space import SearchSpace
from trieste.types import Tag, TensorType

from b3o import inputs, quiet
from b3o.density import LogDensity, boltzmann_diagnostics
from b3o.diversity import mean_pairwise_distance
from b3o.outputs import StandardisedView
from b3o.samplers.base import Sampler
from b3o.seeding import derived_seed
from b3o.space import layout
from b3o.temperature import Temperature


class BoltzmannBatch(AcquisitionRule[TensorType, SearchSpace, ProbabilisticModel]):
    """Batch of i.i.d. draws from p_t(x) ∝ exp(lambda_t * alpha_t(x)).

    :param builder: any point-wise trieste acquisition builder (a single-model builder is applied to OBJECTIVE).
    :param sampler: a `b3o.samplers` sampler able to handle the search space.
    :param temperature: a `b3o.temperature.Temperature`.
    :param num_query_points: the batch size B, a positive integer.
    :param seed: the sampler's seed at iteration t is derived from (seed, t), so a resumed run draws the same batches.
    :param reference_size: size of the fixed space-filling set on which the density's diagnostics (ESS/N of the
        Boltzmann weights, spread of alpha) are measured each iteration, and `Normalised` temperatures standardise.
    :param standardise: build alpha on each objective standardised by the current data's mean and s.d.
        (`b3o.outputs.StandardisedView`), so lambda means what Table 2's does whatever the objective's units; False
        only where the models are already fitted to standardised data (the trial runner's).

    Example (a whole loop: README's "Use B3O in a trieste loop")::

        rule = b3o.BoltzmannBatch(
            b3o.acquisitions.get("logei"), b3o.samplers.get("defer-is"), b3o.Constant(1.0), num_query_points=4, seed=0
        )
        # BayesianOptimizer(observer, search_space).optimize(steps, initial_data, model, rule)
    """

    def __init__(
        self,
        builder: AcquisitionFunctionBuilder | SingleModelAcquisitionBuilder,
        sampler: Sampler,
        temperature: Temperature,
        num_query_points: int = 1,
        *,
        seed: int = 0,
        reference_size: int = 4096,
        standardise: bool = True,
    ):
        if isinstance(builder, SingleModelAcquisitionBuilder):
            builder = builder.using(OBJECTIVE)
        self._builder = builder
        self.sampler = sampler
        self.temperature = temperature
        self.num_query_points = inputs.batch_size(num_query_points)
        self.seed = int(seed)
        self.reference_size = reference_size
        self.standardise = standardise
        self._views: dict[Tag, StandardisedView] = {}
        self.step = 0  # completed acquisitions; the next one is BO iteration t = step + 1
        self.diagnostics: dict[str, Any] = {}
        self._acquisition_function: Optional[AcquisitionFunction] = None
        self._log_density_fn: Optional[tf.types.experimental.GenericFunction] = None
        self._lam = tf.Variable(0.0, dtype=tf.float64, trainable=False)
        self._offset = tf.Variable(0.0, dtype=tf.float64, trainable=False)
        self._reference: Optional[np.ndarray] = None
        self._reference_diversity: Optional[float] = None

    def __repr__(self) -> str:
        return (
            f"BoltzmannBatch({self._builder!r}, {type(self.sampler).__name__}, {self.temperature!r}, "
            f"{self.num_query_points})"
        )

    def resume(self, completed: int) -> None:
        """Continue after `completed` acquisitions (a resumed run): the next is BO iteration t = completed + 1, and
        lambda_t and the sampler's seed follow t, so the batches are those of an uninterrupted run."""
        if completed < 0:
            raise ValueError(f"completed acquisitions must be >= 0, got {completed}")
        self.step = completed

    def acquire(
        self,
        search_space: SearchSpace,
        models: Mapping[Tag, ProbabilisticModel],
        datasets: Optional[Mapping[Tag, Dataset]] = None,
    ) -> TensorType:
        self.sampler.check_space(search_space)  # fail before any model work
        inputs.check_acquire(search_space, models, datasets)
        with quiet.while_compiling(self._acquisition_function is None):
            return self._acquire(search_space, models, datasets)

    def _acquire(
        self,
        search_space: SearchSpace,
        models: Mapping[Tag, ProbabilisticModel],
        datasets: Optional[Mapping[Tag, Dataset]],
    ) -> TensorType:
        t = self.step + 1
        start = time.perf_counter()
        if self.standardise:
            models, datasets = self._standardised(models, datasets)
        self._update_acquisition(models, datasets)
        acquisition_seconds = time.perf_counter() - start

        reference_alpha = self._alpha(self._reference_points(search_space))
        lam, offset, scale = self.temperature.choose(t, reference_alpha, self.num_query_points)
        self._lam.assign(lam / scale)
        self._offset.assign(offset)
        seed = derived_seed(self.seed, t)
        if lam > 0:
            # One graph for every number of points, called with a tensor: that skips tf.function's argument matching,
            # which costs as much as the graph itself for the few points of a DEFER iteration.
            compiled = self._log_density_fn.get_concrete_function(
                tf.TensorSpec([None, int(search_space.dimension)], tf.float64)
            )
            density = LogDensity(lambda x: compiled(tf.convert_to_tensor(x, tf.float64)))
            batch = self.sampler.sample(density, search_space, self.num_query_points, seed=seed)
            sampler_diagnostics = self.sampler.diagnostics
        else:  # lambda_t = 0 (the scheduled first step) is exactly the uniform density: no alpha, no sampler
            density = LogDensity(lambda x: np.zeros(len(x)))
            start = time.perf_counter()
            batch = layout(search_space).uniform_feasible(np.random.default_rng(seed), self.num_query_points)
            sampler_diagnostics = {"sampler": "uniform", "sampler_seconds": time.perf_counter() - start}
        self.step = t
        diversity = mean_pairwise_distance(batch, search_space)
        self.diagnostics = {
            "t": t,
            "lambda_t": lam,
            "alpha_scale": scale,
            **boltzmann_diagnostics(reference_alpha, lam / scale),
            "num_acquisition_evals": density.num_evals,
            "acquisition_update_seconds": acquisition_seconds,
            **sampler_diagnostics,
            "diversity": diversity,
            # against a uniform batch (the reference set's own spread): ~1 for a uniform density, ~0 for a point mass
            "relative_diversity": diversity / self._uniform_diversity(search_space),
        }
        return tf.constant(batch, dtype=tf.float64)

    def _standardised(
        self, models: Mapping[Tag, ProbabilisticModel], datasets: Optional[Mapping[Tag, Dataset]]
    ) -> tuple[dict[Tag, ProbabilisticModel], dict[Tag, Dataset]]:
        """Each model seen through a view standardised by its tag's data, and the data on that scale."""
        missing = [tag for tag in models if datasets is None or tag not in datasets]
        if missing:
            raise ValueError(
                f"BoltzmannBatch standardises each objective by its data: no dataset for {missing}; pass the "
                "datasets, or standardise=False for models fitted to standardised data"
            )
        assert datasets is not None
        for tag, model in models.items():
            if tag not in self._views or self._views[tag].model is not model:
                self._views[tag] = StandardisedView(model, datasets[tag].observations.shape[-1])
                self._acquisition_function = None  # built on the old view: build it anew on this one
        views = {tag: self._views[tag] for tag in models}
        return views, {tag: view.fit(datasets[tag]) for tag, view in views.items()}

    def _update_acquisition(
        self, models: Mapping[Tag, ProbabilisticModel], datasets: Optional[Mapping[Tag, Dataset]]
    ) -> None:
        if self._acquisition_function is None:
            function = self._builder.prepare_acquisition_function(models, datasets=datasets)
        else:
            function = self._builder.update_acquisition_function(
                self._acquisition_function, models, datasets=datasets
            )
        if function is not self._acquisition_function:  # a new function object needs a new compiled density
            self._acquisition_function = function
            lam, offset = self._lam, self._offset

            @tf.function
            def log_density(x: tf.Tensor) -> tf.Tensor:
                return lam * (function(x[:, None, :])[:, 0] - offset)

            self._log_density_fn = log_density

    def _alpha(self, x: np.ndarray) -> np.ndarray:
        assert self._acquisition_function is not None
        values = np.asarray(self._acquisition_function(tf.constant(x)[:, None, :]))[:, 0]
        return np.where(np.isnan(values), -np.inf, values)

    def _uniform_diversity(self, space: SearchSpace) -> float:
        """Mean pairwise distance of (the first 512 of) the uniform reference points: what a uniform batch reaches."""
        if self._reference_diversity is None:
            self._reference_diversity = mean_pairwise_distance(self._reference_points(space)[:512], space)
        return self._reference_diversity

    def _reference_points(self, space: SearchSpace) -> np.ndarray:
        """A scrambled Sobol set over the space, fixed for the rule's lifetime (categories by floor of Sobol)."""
        if self._reference is None:
            lay = layout(space)
            x = lay.from_unit(qmc.Sobol(lay.dim, scramble=True, seed=self.seed).random(self.reference_size))
            self._reference = x[lay.feasible(x)]
        return self._reference
