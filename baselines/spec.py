"""Trial specifications: what one trial runs, validated before anything expensive happens, and its stable id.

`TrialSpec` is TensorFlow-free (the workflow builds its grid from it); `validate` builds the problem, method and model
settings, so it imports them when called.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

if TYPE_CHECKING:
    from baselines.base import Method, TrialContext
    from baselines.models import ModelSpec
    from problems import Problem


@dataclass(frozen=True)
class TrialSpec:
    problem: str
    method: str
    batch_size: int
    iterations: int
    n_init: int
    seed: int
    params: dict[str, Any] = field(default_factory=dict)
    model: dict[str, Any] = field(default_factory=dict)
    problem_options: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "TrialSpec":
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise ValueError(f"unknown spec keys {sorted(unknown)}; valid: {sorted(cls.__dataclass_fields__)}")
        missing = {"problem", "method", "batch_size", "iterations", "n_init", "seed"} - set(data)
        if missing:
            raise ValueError(f"spec is missing {sorted(missing)}")
        return cls(**data)

    @classmethod
    def load(cls, source: str | Path) -> "TrialSpec":
        """A spec from a JSON or YAML file, or from inline JSON text (starting with "{", as the workflow passes it)."""
        inline = str(source).lstrip().startswith("{")
        text = str(source) if inline else Path(source).read_text()
        data = yaml.safe_load(text) if str(source).endswith((".yaml", ".yml")) else json.loads(text)
        if not isinstance(data, dict):
            raise ValueError(f"{'inline spec' if inline else source}: a trial spec is a mapping of keys to values")
        return cls.from_dict(data)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def trial_id(self) -> str:
        """Stable hash of the spec: identical specs share an id whatever their key order."""
        canonical = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(canonical.encode()).hexdigest()[:16]


@dataclass
class Trial:
    """A validated spec with its problem, method and model settings built (but no model yet)."""

    spec: TrialSpec
    problem: Problem
    method: Method
    model_spec: ModelSpec
    context: TrialContext


def validate(spec: TrialSpec) -> Trial:
    """Check everything that can be checked without building a model; one clear ValueError otherwise."""
    import baselines
    import problems
    from baselines.base import TrialContext
    from baselines.models import ModelSpec

    for key in ("batch_size", "iterations", "n_init"):
        value = getattr(spec, key)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ValueError(f"{key} must be an integer >= 1, got {value!r}")
    if not isinstance(spec.seed, int) or isinstance(spec.seed, bool) or spec.seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {spec.seed!r}")
    try:
        problem = problems.get(spec.problem, **spec.problem_options)
    except TypeError as err:
        raise ValueError(f"bad problem_options for {spec.problem!r}: {err}") from None
    method = baselines.get(spec.method, **spec.params)
    model_spec = ModelSpec.from_dict(spec.model)
    context = TrialContext(problem=problem, batch_size=spec.batch_size, iterations=spec.iterations, seed=spec.seed)
    method.check(context)
    return Trial(spec=spec, problem=problem, method=method, model_spec=model_spec, context=context)
