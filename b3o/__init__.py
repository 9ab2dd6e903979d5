"""B3O: Boltzmann batch Bayesian optimisation, a batch acquisition rule for trieste.

A batch is B i.i.d. draws from p_t(x) ∝ exp(lambda_t * alpha_t(x)), where alpha_t is a point-wise acquisition
(larger is better) and lambda_t an inverse temperature.

- `BoltzmannBatch(acquisition, sampler, temperature, batch_size, *, seed, initial_size, ...)`: the trieste
  `AcquisitionRule`. `BoltzmannBatch(batch_size=20)` alone is LogEI, the `defer-is` sampler and lambda = 1. It warns
  with `DegenerateDensityWarning` when its density collapses to a point or is uniform, and with `CampaignWarning`
  when a campaign's batch repeats an earlier one or a schedule starts again (a rule built afresh without
  `initial_size`).
- Temperatures (lambda_t): `Constant(lam)`, `Scheduled(lam0)`, `Normalised(lam)`, `EffectiveSampleSize()`,
  `UpperTail()`; by name with `b3o.temperature.get`.
- Acquisitions and samplers by name: `b3o.acquisitions.get("logei")` ("ucb", "ehvi"),
  `b3o.samplers.get("defer-is")` ("defer", "mh", "langevin", "dmc", "mixed-mh").
- `StandardisedModel(build, data)`: a trieste model fitted to standardised observations, so the loop is unit-free.
- `mean_pairwise_distance(x, space)`, `median_nearest_neighbour(x, space)`: a batch's diversity.
- `quiet_tensorflow()`: import TensorFlow without its CUDA lines on stderr; importing b3o changes nothing global.

Attributes are imported on first use, so importing b3o does not import TensorFlow.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_LAZY = {
    "BoltzmannBatch": "b3o.rule",
    "CampaignWarning": "b3o.campaign",
    "Constant": "b3o.temperature",
    "DegenerateDensityWarning": "b3o.degeneracy",
    "EffectiveSampleSize": "b3o.temperature",
    "Normalised": "b3o.temperature",
    "Scheduled": "b3o.temperature",
    "StandardisedModel": "b3o.models",
    "UpperTail": "b3o.temperature",
    "mean_pairwise_distance": "b3o.diversity",
    "median_nearest_neighbour": "b3o.diversity",
    "quiet_tensorflow": "b3o.quiet",
    "acquisitions": None,
    "samplers": None,
    "temperature": None,
}

__all__ = sorted(_LAZY)

if TYPE_CHECKING:
    from b3o import acquisitions, samplers, temperature
    from b3o.campaign import CampaignWarning
    from b3o.degeneracy import DegenerateDensityWarning
    from b3o.diversity import mean_pairwise_distance, median_nearest_neighbour
    from b3o.models import StandardisedModel
    from b3o.quiet import quiet_tensorflow
    from b3o.rule import BoltzmannBatch
    from b3o.temperature import Constant, EffectiveSampleSize, Normalised, Scheduled, UpperTail


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'b3o' has no attribute {name!r}")
    module = _LAZY[name]
    return import_module(f"b3o.{name}") if module is None else getattr(import_module(module), name)


def __dir__() -> list[str]:
    """The public names (PEP 562), so `dir(b3o)` and tab completion list them though they load on first use."""
    return sorted({*__all__, "__version__"})
