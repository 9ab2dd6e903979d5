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

from bench.model_spec import ModelSpec, unnamed_model
from harness.keys import check_keys

if TYPE_CHECKING:
    from baselines.base import Method, TrialContext
    from problems import Problem

#: Most points one trial may evaluate (n_init + batch_size x iterations). The trace keeps every point in memory and
#: is rewritten as JSON at each checkpoint, so both grow with this number.
MAX_EVALUATIONS = 1_000_000
#: Largest kernel matrix a surrogate may need, in bytes of float64: N x N for exact GPR, N x M for SVGP.
MAX_KERNEL_BYTES = 8 * 2**30


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
        check_keys("spec", data, cls)
        missing = {"problem", "method", "batch_size", "iterations", "n_init", "seed"} - set(data)
        if missing:
            raise ValueError(f"spec is missing {sorted(missing)}")
        for key in ("problem", "method"):
            if not isinstance(data[key], str):
                raise ValueError(f"{key} must be a name (a string), got {data[key]!r}")
        for key in ("params", "model", "problem_options"):
            if not isinstance(data.get(key, {}), dict):
                raise ValueError(f"{key} must be a mapping of names to values, e.g. {{kind: svgp}}, got {data[key]!r}")
        return cls(**data)

    def __post_init__(self) -> None:
        """A spec that names no model gets the default for its size (`bench.model_spec.unnamed_model`), written into
        the spec so that its record and trial id say which model ran."""
        counts = (self.n_init, self.batch_size, self.iterations)
        if not self.model and all(isinstance(c, int) and not isinstance(c, bool) for c in counts):
            object.__setattr__(self, "model", unnamed_model(self.n_init + self.batch_size * self.iterations))

    @classmethod
    def load(cls, source: str | Path) -> "TrialSpec":
        """A spec from a JSON or YAML file, or from inline JSON text (starting with "{", as the workflow passes it)."""
        inline = str(source).lstrip().startswith("{")
        name = "inline spec" if inline else str(source)
        try:
            text = str(source) if inline else Path(source).read_text()
        except UnicodeDecodeError:
            raise ValueError(f"{name} is not a text file") from None
        if not text.strip():
            raise ValueError(f"{name} is empty; a trial spec is a mapping of keys to values")
        try:
            data = yaml.safe_load(text) if name.endswith((".yaml", ".yml")) else json.loads(text)
        except yaml.YAMLError as err:
            mark = getattr(err, "problem_mark", None)
            where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
            raise ValueError(f"{name}: YAML syntax error{where}: {getattr(err, 'problem', None) or err}") from None
        except json.JSONDecodeError as err:
            raise ValueError(f"{name}: not valid JSON: {err}") from None
        if not isinstance(data, dict):
            raise ValueError(f"{name}: a trial spec is a mapping of keys to values")
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


def check_names(spec: TrialSpec) -> None:
    """What `validate` checks without importing TensorFlow (the counts, the seed, the problem's and the method's names
    and the method's parameter names), so that such a mistake is refused in a second, not after that import."""
    import baselines
    import problems

    for key in ("batch_size", "iterations", "n_init"):
        value = getattr(spec, key)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ValueError(f"{key} must be an integer >= 1, got {value!r}")
    if not isinstance(spec.seed, int) or isinstance(spec.seed, bool) or spec.seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {spec.seed!r}")
    problems.REGISTRY.check(spec.problem)
    baselines.check_names(spec.method, spec.params)


def validate(spec: TrialSpec) -> Trial:
    """Check everything that can be checked without building a model; one clear ValueError otherwise."""
    check_names(spec)
    import baselines
    import problems
    from baselines.base import TrialContext

    try:
        problem = problems.get(spec.problem, **spec.problem_options)
    except TypeError as err:
        raise ValueError(f"bad problem_options for {spec.problem!r}: {err}") from None
    method = baselines.get(spec.method, **spec.params)
    model_spec = ModelSpec.from_dict(spec.model)
    total = spec.n_init + spec.batch_size * spec.iterations
    if total > MAX_EVALUATIONS:
        raise ValueError(
            f"n_init + batch_size x iterations = {total:,} evaluations is more than one trial may hold "
            f"({MAX_EVALUATIONS:,}: every point is kept in the trace and its JSON)"
        )
    if method.uses_model:
        _check_model_size(spec, model_spec, total)
    context = TrialContext(problem=problem, batch_size=spec.batch_size, iterations=spec.iterations, seed=spec.seed)
    method.check(context)
    return Trial(spec=spec, problem=problem, method=method, model_spec=model_spec, context=context)


def _check_model_size(spec: TrialSpec, model: ModelSpec, total: int) -> None:
    """A surrogate needs 2 initial points (its kernel priors are set from their variance) and a kernel matrix that
    fits in `MAX_KERNEL_BYTES`."""
    if spec.n_init < 2:
        raise ValueError(
            f"n_init must be >= 2 for method {spec.method!r}: its surrogate's kernel priors are set from the variance "
            f"of the initial observations, got n_init = {spec.n_init}"
        )
    columns = {"gpr": total, "svgp": model.num_inducing}.get(model.kind, 0)
    if 8 * total * columns > MAX_KERNEL_BYTES:
        raise ValueError(
            f"n_init + batch_size x iterations = {total:,} points need a {total:,} x {columns:,} kernel matrix "
            f"({8 * total * columns / 2**30:.1f} GiB) for the {model.kind} model, more than the "
            f"{MAX_KERNEL_BYTES // 2**30} GiB allowed: use fewer points, fewer inducing points or an svgp model"
        )
