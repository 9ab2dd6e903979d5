"""Registry of Boltzmann samplers: `get(name, **kwargs)`, `names()`."""

from __future__ import annotations

from typing import Any

from b3o.options import check_options
from b3o.samplers.base import Sampler
from b3o.samplers.defer import Defer, ImportanceDefer, Partition
from b3o.samplers.dmc import DiscretisedMonteCarlo
from b3o.samplers.langevin import Langevin
from b3o.samplers.mh import MetropolisHastings, MixedMetropolisHastings

_REGISTRY: dict[str, type[Sampler]] = {
    cls.name: cls
    for cls in (Defer, ImportanceDefer, MetropolisHastings, Langevin, DiscretisedMonteCarlo, MixedMetropolisHastings)
}


def names() -> list[str]:
    return sorted(_REGISTRY)


def get(name: str, **kwargs: Any) -> Sampler:
    """Build the sampler registered under `name` with its options."""
    if name not in _REGISTRY:
        raise ValueError(f"unknown sampler {name!r}; valid samplers: {', '.join(names())}")
    check_options(f"sampler {name!r} option", kwargs, _REGISTRY[name])
    try:
        return _REGISTRY[name](**kwargs)
    except TypeError as err:  # unknown keyword
        raise ValueError(f"bad options for sampler {name!r}: {err}") from None


__all__ = [
    "Defer",
    "DiscretisedMonteCarlo",
    "ImportanceDefer",
    "Langevin",
    "MetropolisHastings",
    "MixedMetropolisHastings",
    "Partition",
    "Sampler",
    "get",
    "names",
]
