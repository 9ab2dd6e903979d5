"""Mappings from configs and specs checked against the dataclass they build: an unknown key is one clear error."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def check_keys(kind: str, given: Mapping[str, Any], dataclass_type: type) -> None:
    """ValueError "unknown <kind> keys [...]; valid: [...]" when `given` names fields the dataclass lacks."""
    fields = dataclass_type.__dataclass_fields__
    unknown = set(given) - set(fields)
    if unknown:
        raise ValueError(f"unknown {kind} keys {sorted(unknown)}; valid: {sorted(fields)}")
