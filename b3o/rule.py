"""`BoltzmannBatch`: the B3O acquisition rule for trieste.

Each `acquire` (BO iteration t = 1, 2, ...):
1. builds the acquisition function from the models on the first call and updates it in place afterwards, so the
   compiled TensorFlow graph is reused (trieste's builders keep their state in variables);
2. defines log p_t(x) = lambda_t * alpha_t(x), with alpha in trieste's "larger is better" convention; lambda_t and
   (for `Normalised`) the standardisation live in TF variables, so changing them never retraces;
3. draws `batch_size` i.i.d. samples from p_t with the sampler and returns them as the batch.

The rule is agnostic to the acquisition (UCB, LogEI, EHVI over a model stack, ...) and to the space; mixed spaces need
the `mixed-mh` sampler. After each call `diagnostics` holds what the trial runner records.
"""

from __future__ import annotations

import hashlib
import time
import warnings
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

from b3o import acquisitions, campaign, degeneracy, inputs, quiet, samplers
from b3o import temperature as temperature_module
from b3o.density import LogDensity, boltzmann_diagnostics
from b3o.diversity import mean_pairwise_distance, median_nearest_neighbour
from b3o.outputs import StandardisedView
from b3o.samplers.base import Sampler
from b3o.seeding import data_seed, derived_seed
from b3o.space import layout
from b3o.temperature import DEFAULT_LAMBDA, Constant, Temperature
from b3o.warn_at import user_stacklevel


#: the defaults of `BoltzmannBatch`: B3O-LogEI-c at lambda = 1 with `defer-is` (docs/method.md says why)
DEFAULT_ACQUISITION = "logei"
DEFAULT_SAMPLER = "defer-is"


class BoltzmannBatch(AcquisitionRule[TensorType, SearchSpace, ProbabilisticModel]):
    """Batch of i.i.d. draws from p_t(x) ∝ exp(lambda_t * alpha_t(x)).

    :param acquisition: any point-wise trieste acquisition builder (a single-model builder is applied to OBJECTIVE),
        or a name of `b3o.acquisitions`; default LogEI. trieste's batch builders are refused; a joint builder of one's
        own is evaluated one point at a time, [N, 1, d], so it acts as its q = 1 form (q-EI as EI).
    :param sampler: a `b3o.samplers` sampler able to handle the search space, or its name; default `defer-is`.
    :param temperature: a `b3o.temperature.Temperature`, or its name; default `Constant(1.0)`.
    :param batch_size: the batch size B, a positive integer (required).
    :param seed: a non-negative integer; the sampler's seed at iteration t is derived from it, t and (by default)
        the data, so a resumed run draws the same batches.
    :param initial_size: the number of points of the campaign's initial design. Given, the rule reads its iteration
        from the data it is handed, t = 1 + ceil((N - initial_size) / B) for N points, so a rule built afresh on a
        saved campaign (a new process each batch) continues a `Scheduled` temperature where it was; None counts
        this rule's own acquisitions (`resume` sets the count).
    :param seed_from_data: mix a digest of the points evaluated so far into the sampler's seed, so a rule built afresh on grown data never
        draws an earlier batch again, even where it cannot tell t; False derives the seed from (seed, t) alone, as the
        trial runner does (its records pin its batches, and its `resume` gives t).
    :param reference_size: size of the fixed space-filling set on which the density's diagnostics (ESS/N of the
        Boltzmann weights, spread of alpha) are measured each iteration, and `Normalised` temperatures standardise.
        Any positive integer: a scrambled Sobol set, of the next power of 2 cut to the first reference_size points.
    :param standardise: build alpha on each objective standardised by the current data's mean and s.d.
        (`b3o.outputs.StandardisedView`), so lambda means what Table 2's does whatever the objective's units; False
        only where the models are already fitted to standardised data (the trial runner's).

    When the density collapses to a point mass, clusters or is uniform (`b3o.degeneracy`), the rule warns once for
    each with a `b3o.DegenerateDensityWarning`; when a campaign's batch repeats an earlier one, or a rule without
    `initial_size` draws a first, uniform batch, with a `b3o.CampaignWarning`. After each call `diagnostics` holds
    lambda_t, ESS/N, the sampler's statistics, the batch's diversity (mean pairwise and median nearest-neighbour
    distances, each against a uniform batch's) and `degenerate`: this batch's reading, "collapsed", "clustered",
    "uniform" or None, given at every batch, also after its kind's one warning.

    Example (a whole loop: README's "Use B3O in a trieste loop")::

        rule = b3o.BoltzmannBatch(batch_size=20)  # LogEI, defer-is, lambda = 1
        rule = b3o.BoltzmannBatch("ucb", "defer-is", b3o.UpperTail(), batch_size=4, seed=0, initial_size=10)
        # BayesianOptimizer(observer, search_space).optimize(steps, initial_data, model, rule)
    """

    def __init__(
        self,
        acquisition: AcquisitionFunctionBuilder | SingleModelAcquisitionBuilder | str | None = None,
        sampler: Sampler | str | None = None,
        temperature: Temperature | str | None = None,
        batch_size: int | None = None,
        *,
        seed: int = 0,
        initial_size: int | None = None,
        seed_from_data: bool = True,
        reference_size: int = 4096,
        standardise: bool = True,
    ):
        if batch_size is None:
            raise ValueError("batch_size (the batch size B) is required: BoltzmannBatch(batch_size=B)")
        self.batch_size = inputs.batch_size(batch_size)
        builder = inputs.chosen(
            "acquisition",
            inputs.pointwise(DEFAULT_ACQUISITION if acquisition is None else acquisition),
            (AcquisitionFunctionBuilder, SingleModelAcquisitionBuilder),
            acquisitions,
            "a trieste acquisition builder (e.g. b3o.acquisitions.get('logei'))",
        )
        if isinstance(builder, SingleModelAcquisitionBuilder):
            builder = builder.using(OBJECTIVE)
        self._builder = builder
        self.sampler = inputs.chosen(
            "sampler", DEFAULT_SAMPLER if sampler is None else sampler, Sampler, samplers,
            "a b3o.samplers sampler (e.g. b3o.samplers.get('defer-is'))",
        )
        self.temperature = inputs.chosen(
            "temperature", Constant(DEFAULT_LAMBDA) if temperature is None else temperature, Temperature,
            temperature_module, "a b3o.temperature.Temperature (e.g. b3o.Constant(1.0))",
        )
        self.seed = inputs.integer("seed", seed, 0)
        self.initial_size = None if initial_size is None else inputs.integer("initial_size", initial_size, 0)
        self.seed_from_data = inputs.flag("seed_from_data", seed_from_data)
        self.reference_size = inputs.integer("reference_size", reference_size, 1, " (points of the reference set)")
        self.standardise = inputs.flag("standardise", standardise)
        self._views: dict[Tag, StandardisedView] = {}
        self.step = 0  # completed acquisitions; the next one is BO iteration t = step + 1
        self.diagnostics: dict[str, Any] = {}
        self._warned: set[str] = set()
        self._acquisition_function: Optional[AcquisitionFunction] = None
        self._log_density_fn: Optional[tf.types.experimental.GenericFunction] = None
        self._alpha_fn: Optional[tf.types.experimental.GenericFunction] = None
        self._lam = tf.Variable(0.0, dtype=tf.float64, trainable=False)
        self._offset = tf.Variable(0.0, dtype=tf.float64, trainable=False)
        self._reference: Optional[np.ndarray] = None
        self._reference_diversity: Optional[float] = None
        self._uniform_neighbour: dict[int, float] = {}

    def __repr__(self) -> str:
        return (
            f"BoltzmannBatch({self._builder!r}, {type(self.sampler).__name__}, {self.temperature!r}, "
            f"batch_size={self.batch_size})"
        )

    def resume(self, completed: int) -> None:
        """Continue after `completed` acquisitions (a resumed run): the next is BO iteration t = completed + 1, and
        lambda_t and the sampler's seed follow t, so the batches are those of an uninterrupted run. A rule given
        `initial_size` reads t from its data instead."""
        self.step = inputs.integer("completed", completed, 0, " (acquisitions done)")

    def iteration(self, datasets: Optional[Mapping[Tag, Dataset]] = None) -> int:
        """The BO iteration t of the next acquisition on `datasets`: from their size with `initial_size`, else this
        rule's own count."""
        if self.initial_size is None or not datasets:
            return self.step + 1
        size = max(int(dataset.query_points.shape[0]) for dataset in datasets.values())
        if size < self.initial_size:
            raise ValueError(
                f"initial_size is {self.initial_size} points but the data hold {size}: initial_size must count the "
                "initial design only"
            )
        return 1 + -(-(size - self.initial_size) // self.batch_size)

    def acquire(
        self,
        search_space: SearchSpace,
        models: Mapping[Tag, ProbabilisticModel],
        datasets: Optional[Mapping[Tag, Dataset]] = None,
    ) -> TensorType:
        """The next batch, [batch_size, d]: B i.i.d. draws from the Boltzmann density of the models' acquisition."""
        self.sampler.check_space(search_space)  # fail before any model work
        inputs.check_acquire(search_space, models, datasets)
        t = self.iteration(datasets)
        seed = derived_seed(self.seed, t)
        if self.seed_from_data and datasets:
            seed = data_seed(self.seed, t, _digest(datasets))
        with quiet.while_compiling(self._acquisition_function is None):
            batch = self._acquire(search_space, models, datasets, t, seed)
        self._warn_if_degenerate()
        self._warn_on_campaign(batch.numpy(), datasets)
        return batch

    def _acquire(
        self,
        search_space: SearchSpace,
        models: Mapping[Tag, ProbabilisticModel],
        datasets: Optional[Mapping[Tag, Dataset]],
        t: int,
        seed: int,
    ) -> TensorType:
        start = time.perf_counter()
        if self.standardise:
            models, datasets = self._standardised(models, datasets)
        self._update_acquisition(models, datasets)
        acquisition_seconds = time.perf_counter() - start

        reference_alpha = self._alpha(self._reference_points(search_space))
        lam, offset, scale = self.temperature.choose(t, reference_alpha, self.batch_size)
        self._lam.assign(lam / scale)
        self._offset.assign(offset)
        if lam > 0:
            # One graph for every number of points, called with a tensor: that skips tf.function's argument matching,
            # which costs as much as the graph itself for the few points of a DEFER iteration.
            compiled = self._log_density_fn.get_concrete_function(
                tf.TensorSpec([None, int(search_space.dimension)], tf.float64)
            )
            density = LogDensity(lambda x: compiled(tf.convert_to_tensor(x, tf.float64)))
            batch = self.sampler.sample(density, search_space, self.batch_size, seed=seed)
            sampler_diagnostics = self.sampler.diagnostics
        else:  # lambda_t = 0 (the scheduled first step) is exactly the uniform density: no alpha, no sampler
            density = LogDensity(lambda x: np.zeros(len(x)))
            start = time.perf_counter()
            batch = layout(search_space).uniform_feasible(np.random.default_rng(seed), self.batch_size)
            sampler_diagnostics = {"sampler": "uniform", "sampler_seconds": time.perf_counter() - start}
        self.step = t
        diversity = mean_pairwise_distance(batch, search_space)
        neighbour = median_nearest_neighbour(batch, search_space)
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
            # sees clusters the mean hides: in box widths, and against B uniform points' (~1 uniform, ~0 clustered)
            "nearest_neighbour": neighbour,
            "relative_nearest_neighbour": neighbour / self._uniform_nearest_neighbour(search_space),
        }
        # every batch's reading, not only the first of each kind that warns
        self.diagnostics["degenerate"] = degeneracy.kind(self.diagnostics)
        return tf.constant(batch, dtype=tf.float64)

    def _warn_if_degenerate(self) -> None:
        """A `DegenerateDensityWarning` the first time this rule's density collapses, the first time it is uniform, and
        the first time its batch sits in tight clusters (`b3o.degeneracy`)."""
        d = self.diagnostics
        kind = degeneracy.kind(d)
        if kind is None or kind in self._warned:
            return
        self._warned.add(kind)
        what = {
            "collapsed": f"{degeneracy.describe(d)}: every point of the batch comes from one small region; "
            + self.temperature.steer(lower=True),
            "uniform": f"{degeneracy.describe(d)}: the batch is random search; " + self.temperature.steer(lower=False),
            "clustered": f"puts the batch in tight clusters (median nearest-neighbour distance "
            f"{d['relative_nearest_neighbour']:.2g} of B uniform points', ESS/N = {d['ess_fraction']:.2g}): "
            + self.temperature.steer(lower=True),
        }[kind]
        warnings.warn(
            f"BoltzmannBatch at t = {d['t']} with {self.temperature!r}: the density {what}",
            degeneracy.DegenerateDensityWarning,
            stacklevel=user_stacklevel(),
        )

    def _warn_on_campaign(self, batch: np.ndarray, datasets: Optional[Mapping[Tag, Dataset]]) -> None:
        """A `CampaignWarning` the first time this rule repeats a batch already in the data, and at a first, uniform
        batch (lambda_1 = 0) on data it cannot tell t from (no `initial_size`): both what a campaign that builds the
        rule afresh for each batch meets when it forgets `initial_size`."""
        t, found = self.diagnostics["t"], campaign.repeated(batch, datasets)
        if found == len(batch):
            kind, text = "repeated", campaign.repeat_text(t, found, self.batch_size, self.seed_from_data)
        elif t == 1 and self.diagnostics["lambda_t"] == 0 and self.initial_size is None and datasets:
            kind, text = "restarted", campaign.restart_text(self.temperature)
        else:
            return
        if kind not in self._warned:
            self._warned.add(kind)
            warnings.warn(f"BoltzmannBatch {text}", campaign.CampaignWarning, stacklevel=user_stacklevel())

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
            def alpha(x: tf.Tensor) -> tf.Tensor:
                return function(x[:, None, :])  # [N, 1]: `_alpha` refuses any other shape before anything is drawn

            @tf.function
            def log_density(x: tf.Tensor) -> tf.Tensor:
                return lam * (function(x[:, None, :])[:, 0] - offset)

            self._alpha_fn, self._log_density_fn = alpha, log_density

    def _alpha(self, x: np.ndarray) -> np.ndarray:
        """alpha at x [N, d], NaN read as -inf. Called through a concrete function: trieste's acquisitions are
        tf.functions, and calling a new one eagerly in each of several rules reads to TensorFlow as retracing."""
        assert self._alpha_fn is not None
        compiled = self._alpha_fn.get_concrete_function(tf.TensorSpec([None, x.shape[-1]], tf.float64))
        values = compiled(tf.constant(x, tf.float64)).numpy()
        if values.shape != (len(x), 1):  # e.g. LogEI on a model of two outputs gives [N, 2]: the density would read
            raise ValueError(  # its first column alone, a batch for one objective of two, and say nothing
                f"the acquisition {self._builder!r} gives values of shape {list(values.shape)} at {len(x)} points; "
                "BoltzmannBatch needs one value per point, [N, 1]: a point-wise acquisition of one objective on a "
                "model of one output (for several objectives, 'ehvi' on a model per objective)"
            )
        return np.where(np.isnan(values[:, 0]), -np.inf, values[:, 0])

    def _uniform_diversity(self, space: SearchSpace) -> float:
        """Mean pairwise distance of (the first 512 of) the uniform reference points: what a uniform batch reaches."""
        if self._reference_diversity is None:
            self._reference_diversity = mean_pairwise_distance(self._reference_points(space)[:512], space)
        return self._reference_diversity

    def _uniform_nearest_neighbour(self, space: SearchSpace) -> float:
        """Median nearest-neighbour distance of B uniform feasible points (fixed draw): what a uniform batch reaches."""
        if self.batch_size not in self._uniform_neighbour:
            rng = np.random.default_rng(derived_seed(self.seed, 0))
            uniform = layout(space).uniform_feasible(rng, self.batch_size)
            self._uniform_neighbour[self.batch_size] = median_nearest_neighbour(uniform, space)
        return self._uniform_neighbour[self.batch_size]

    def _reference_points(self, space: SearchSpace) -> np.ndarray:
        """A scrambled Sobol set over the space, fixed for the rule's lifetime (categories by floor of Sobol)."""
        if self._reference is None:
            lay = layout(space)
            # the first reference_size points of the next power of 2: the points `random(reference_size)` gives, without
            # its UserWarning to the user that a size other than a power of 2 loses Sobol's balance properties
            sobol = qmc.Sobol(lay.dim, scramble=True, seed=self.seed)
            x = lay.from_unit(sobol.random_base2((self.reference_size - 1).bit_length())[: self.reference_size])
            self._reference = x[lay.feasible(x)]
            if len(self._reference) == 0:
                raise ValueError(
                    f"the reference set is empty: none of its {self.reference_size} points satisfies the search "
                    "space's constraints; raise reference_size"
                )
        return self._reference


def _digest(datasets: Mapping[Tag, Dataset]) -> bytes:
    """SHA-256 of the points evaluated so far (each tag's query points, tags in sorted order). Not the observations:
    they change with the units, and the batches for f and a * f + b are the same (docs/method.md)."""
    digest = hashlib.sha256()
    for tag in sorted(datasets, key=str):
        digest.update(str(tag).encode())
        digest.update(np.ascontiguousarray(np.asarray(datasets[tag].query_points, dtype=np.float64)).tobytes())
    return digest.digest()
