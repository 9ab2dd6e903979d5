"""Registry of Boltzmann samplers: `get(name, **kwargs)`, `names()`, and what the harness needs to know of each
without importing it (`titles()`, `continuous()`): the one place a sampler is registered.

The sampler modules import TensorFlow; they are imported on first use, so the workflow's grid and the figures can
ask for names and titles without it.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any

from b3o.options import check_options, lookup

if TYPE_CHECKING:
    from b3o.samplers.base import Sampler


@dataclass(frozen=True)
class Registered:
    module: str
    cls: str
    title: str  # what figures and tables call it
    mixed: bool = False  # draws on spaces with categorical dimensions too (else continuous boxes only)


_REGISTRY: dict[str, Registered] = {
    "defer": Registered("b3o.samplers.defer", "Defer", "DEFER (recursive partitioning)"),
    "defer-is": Registered("b3o.samplers.defer", "ImportanceDefer", "DEFER, random origin + importance resampling"),
    "dmc": Registered("b3o.samplers.dmc", "DiscretisedMonteCarlo", "Discretised Monte Carlo"),
    "langevin": Registered("b3o.samplers.langevin", "Langevin", "Langevin (MALA)"),
    "mh": Registered("b3o.samplers.mh", "MetropolisHastings", "Metropolis-Hastings"),
    "mixed-mh": Registered("b3o.samplers.mh", "MixedMetropolisHastings", "Mixed-space Metropolis-Hastings", mixed=True),
}
_EXPORTS = {entry.cls: entry.module for entry in _REGISTRY.values()} | {
    "Partition": "b3o.samplers.defer",
    "Sampler": "b3o.samplers.base",
}


def names() -> list[str]:
    """The registered samplers' names, in the registry's order."""
    return list(_REGISTRY)


def titles() -> dict[str, str]:
    """Sampler name -> its display title."""
    return {name: entry.title for name, entry in _REGISTRY.items()}


def continuous() -> list[str]:
    """The samplers for continuous boxes only (the scaling benchmark's)."""
    return [name for name, entry in _REGISTRY.items() if not entry.mixed]


def sampler_class(name: str) -> type[Sampler]:
    """The class registered under `name` (imported now), or an error listing the valid names."""
    entry = lookup("sampler", _REGISTRY, name)
    return getattr(import_module(entry.module), entry.cls)


def get(name: str, **kwargs: Any) -> Sampler:
    """Build the sampler registered under `name` with its options.

    Example::

        import numpy as np
        from trieste.space import Box

        sampler = b3o.samplers.get("defer-is", budget=2_000)
        x = sampler.sample(lambda x: -np.sum((x - 0.3) ** 2, axis=1) / 0.01, Box([0, 0], [1, 1]), 10, seed=0)
        assert x.shape == (10, 2)
    """
    cls = sampler_class(name)
    check_options(f"sampler {name!r} option", kwargs, cls)
    try:
        return cls(**kwargs)
    except TypeError as err:  # unknown keyword
        raise ValueError(f"bad options for sampler {name!r}: {err}") from None


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'b3o.samplers' has no attribute {name!r}")
    return getattr(import_module(_EXPORTS[name]), name)


__all__ = sorted([*_EXPORTS, "continuous", "get", "names", "sampler_class", "titles"])
