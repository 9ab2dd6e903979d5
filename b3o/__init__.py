"""B3O: Boltzmann batch Bayesian optimisation.

A batch is B i.i.d. draws from p_t(x) ∝ exp(lambda_t * alpha_t(x)); `BoltzmannBatch` is the trieste acquisition rule,
`b3o.samplers` draw from the density, `b3o.temperature` gives lambda_t, `b3o.acquisitions` the point-wise alphas.
Attributes are imported on first use, so `b3o` commands that need no TensorFlow (e.g. `b3o lap`) start quickly.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from b3o import quiet

__version__ = "0.1.0"

quiet.install()  # TensorFlow, when something first imports it, starts without its CUDA chatter

_LAZY = {
    "BoltzmannBatch": "b3o.rule",
    "Constant": "b3o.temperature",
    "EffectiveSampleSize": "b3o.temperature",
    "Normalised": "b3o.temperature",
    "Scheduled": "b3o.temperature",
    "StandardisedModel": "b3o.models",
    "UpperTail": "b3o.temperature",
    "mean_pairwise_distance": "b3o.diversity",
    "acquisitions": None,
    "samplers": None,
    "temperature": None,
}

__all__ = sorted(_LAZY)

if TYPE_CHECKING:
    from b3o import acquisitions, samplers, temperature
    from b3o.diversity import mean_pairwise_distance
    from b3o.models import StandardisedModel
    from b3o.rule import BoltzmannBatch
    from b3o.temperature import Constant, EffectiveSampleSize, Normalised, Scheduled, UpperTail


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'b3o' has no attribute {name!r}")
    module = _LAZY[name]
    return import_module(f"b3o.{name}") if module is None else getattr(import_module(module), name)
