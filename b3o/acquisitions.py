"""Point-wise acquisitions for B3O by name: `ucb`, `logei`, `ehvi` (log EHVI); the builders are in `b3o.builders`.

The builders import TensorFlow; they are imported on first use, so listing the names (`b3o list`) does not.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from b3o.options import check_options, lookup

if TYPE_CHECKING:
    from trieste.acquisition.interface import SingleModelAcquisitionBuilder

#: name -> the factory of its builder in `b3o.builders`
_REGISTRY: dict[str, str] = {"ucb": "UpperConfidenceBound", "logei": "LogExpectedImprovement", "ehvi": "ehvi"}


def names() -> list[str]:
    """The acquisitions' names, in the registry's order."""
    return list(_REGISTRY)


def get(name: str, **kwargs: Any) -> SingleModelAcquisitionBuilder:
    """The acquisition builder registered under `name`, with its options.

    Example::

        ucb = b3o.acquisitions.get("ucb", beta=4.0)  # or "logei" (incumbent=...), "ehvi" for a model stack
    """
    factory = getattr(import_module("b3o.builders"), lookup("acquisition", _REGISTRY, name))
    check_options(f"acquisition {name!r} option", kwargs, factory)
    try:
        return factory(**kwargs)
    except TypeError as err:
        raise ValueError(f"bad options for acquisition {name!r}: {err}") from None
