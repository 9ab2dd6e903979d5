"""What a trial costs, predicted from its spec before it runs (`b3o estimate`, and each workflow job's runtime).

A trial's time is its share of a process's start-up plus, at every BO iteration t = 1..T, a fit of the surrogate, an
acquire step and the evaluations. Each part has a form with a few non-negative constants:

    fit_t      = k (f0 + maxiter (f1 + f2 N_t m² + f3 m³    N_t = n_init + B (t − 1) points, m = M (trieste keeps
                     + f4 N_t m + f5 m²))                    all M inducing points while N_t < M, the rest placed in
                                                             the space: `inducing_points`),
                                                             k = the problem's number of objectives (one model each)
    fit_t      = k (c0 + c2 N_t m² + c3 m³)                  the collapsed fit (`fit: collapsed`)
    fit_t      = k (g0 + g2 N_t² + g3 N_t³)                  the exact GP (`kind: gpr`, a small study's default)
    acquire_t  = a0 + a1 B + a2 N_t                          per method (and B3O's sampler)
    evaluate_t = e0 + e1 B                                   per problem (checkpoint I/O included)
    start-up   = s                                           per method, the mean over a run's trials (a job's later
                                                             trials share its first one's)

The default fit's form is SVGP L-BFGS over the hyperparameters and q(u): each step costs O(N m² + m³) in its matrix
products, O(N m) in the kernel's N × m evaluations and their gradients (which at M = 64 cost more than the products),
and O(m²) in L-BFGS-B's own work on q(u)'s M(M + 1)/2 variables; f0 and f1 are the per-fit and per-step overheads that
dominate at small sizes. A prediction counts `maxiter` steps, the cap most fits reach (an upper bound for the first
fits at small N, which may converge sooner); the constants are fitted to the steps each fit took where its record
keeps them (`fit_steps`), so a fit that stopped early does not lower the cost of a step. The collapsed
fit (`bench.models.CollapsedFit`) converges in a few tens of steps whatever its cap, so its form has no
`maxiter`: its constants absorb the steps it takes, and its terms are fitted to its own records only (`FIT_FORMS`).
The exact GP's fit is over its few hyperparameters alone and converges as early, so its form has no `maxiter` either:
each step's kernel matrix costs O(N²) and its Cholesky factor O(N³). The
constants are fitted by non-negative least squares, each source of observations weighing alike (`_nnls`), to the
per-iteration cost profiles that every record keeps, and, for sizes the reduced runs never
reach, to the committed benchmarks: `paper/tables/paper_scale_cost.csv` (one L-BFGS step at M = 500, N up to 5,000),
`paper/tables/fit_scaling.csv` (a trial's fit at M = 64 to 500 and N up to 5,000), both CPU seconds on one thread as
trials run, and `paper/tables/scaling.csv` (batch time against B at M = 500). A method, sampler or problem without
observations has no constants: its trials are "not predicted", never guessed.

A model counts one of two clocks (`CLOCKS`). "cpu", the default: the process's CPU seconds of each part
(`fit_cpu_s`, `acquire_cpu_s`, the rest of `cpu_s`, and `startup_cpu_s`), which is the time a trial takes on a core
of its own, as a cluster slot gives it; the pinned platform runs one thread, so CPU seconds are not shared out over
cores, and another job on the machine inflates them far less than wall seconds (it shares caches, not time).
"wall": the seconds each part took, which also count the waits for a core of a loaded machine (the only clock of
records made before 2026-11-27), so constants fitted on a shared machine are upper bounds and differ with the load
when each run was made.

`b3o cost-model --results DIR` fits the model to a run's records and writes it (`cost_model.csv` where it is run, or
`--out`; the package's is `paper/tables/cost_model.csv`) with its error per experiment (`cost_validation.csv`). Imports no TensorFlow: the workflow's DAG build uses it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy.optimize import nnls

from bench.model_spec import svgp_fit

#: the form of each part: its terms, and for the fit, which also enter one L-BFGS step of the benchmark
FIT_TERMS = ("f0", "f1", "f2", "f3", "f4", "f5")
COLLAPSED_TERMS = ("c0", "c2", "c3")
GPR_TERMS = ("g0", "g2", "g3")
ACQUIRE_TERMS = ("a0", "a1", "a2")
EVALUATE_TERMS = ("e0", "e1")
COLUMNS = ("part", "key", "term", "value")
#: below this a method's fit is none (random search records microseconds of bookkeeping)
NO_FIT_S = 1e-3
#: the clocks a model can count: each part's CPU seconds, or its wall seconds (see the module's docstring)
CLOCKS = ("cpu", "wall")
#: what the default trial of a method samples with, where its params name no sampler (`b3o`: the rule's default)
DEFAULT_SAMPLER = {"b3o": "defer-is"}


def acquire_key(method: str, params: Mapping[str, Any] | None) -> str:
    """The acquire step's key: the method, for B3O its sampler, and for TS scoring shared starts (a far cheaper
    step than its default's, `baselines.thompson`) that choice."""
    params = params or {}
    if method == "b3o":
        return f"b3o/{params.get('sampler', DEFAULT_SAMPLER['b3o'])}"
    if method == "ts" and params.get("starts", "own") != "own":
        return f"ts/{params['starts']}-starts"
    return method


def fit_key(model: Mapping[str, Any]) -> str:
    """Which fit's constants a model spec's fits take: "svgp" (L-BFGS over all its variables, the default),
    "svgp-collapsed", or the model's kind (not modelled: its trials are not predicted)."""
    fit = svgp_fit(model)
    if fit is None:
        return model["kind"]
    return "svgp" if fit == "lbfgs" else f"svgp-{fit}"


def _fit_features(maxiter: float, n: float, m: float) -> list[float]:
    return [1.0, maxiter, maxiter * n * m * m, maxiter * m**3, maxiter * n * m, maxiter * m * m]


def _collapsed_features(maxiter: float, n: float, m: float) -> list[float]:
    return [1.0, n * m * m, m**3]


def _gpr_features(maxiter: float, n: float, m: float) -> list[float]:
    return [1.0, n * n, n**3]


#: each modelled fit: its terms and its features of (maxiter, N, m)
FIT_FORMS = {"svgp": (FIT_TERMS, _fit_features), "svgp-collapsed": (COLLAPSED_TERMS, _collapsed_features),
             "gpr": (GPR_TERMS, _gpr_features)}


def _acquire_features(batch_size: float, n: float) -> list[float]:
    return [1.0, batch_size, n]


@dataclass(frozen=True)
class TrialCost:
    """Predicted seconds of one trial, by part."""

    startup: float
    fit: float
    acquire: float
    evaluate: float

    @property
    def total(self) -> float:
        return self.startup + self.fit + self.acquire + self.evaluate


class CostModel:
    """The fitted constants (`COLUMNS` rows) and predictions from a spec's fields."""

    def __init__(self, table: pd.DataFrame):
        missing = set(COLUMNS) - set(table.columns)
        if missing:
            raise ValueError(f"cost model table lacks column(s) {sorted(missing)}; expected {list(COLUMNS)}")
        self.table = table[list(COLUMNS)].reset_index(drop=True)
        self._values = {(r.part, r.key, r.term): float(r.value) for r in self.table.itertuples()}
        self._measured = {(part, key) for part, key, _ in self._values if part != "clock"}

    @property
    def clock(self) -> str:
        """What its seconds count ("cpu" or "wall"); a model written before the CPU clock counted wall seconds."""
        return "cpu" if self._values.get(("clock", "cpu", "flag")) else "wall"

    @property
    def wall_fitted(self) -> list[str]:
        """The parts of a cpu model fitted to wall seconds, for want of records with CPU seconds: upper bounds."""
        return [term for part, key, term in self._values if (part, key) == ("clock", "wall")]

    @classmethod
    def read(cls, path: str | Path) -> CostModel:
        return cls(pd.read_csv(path, float_precision="round_trip"))  # constants read back bit for bit

    def _terms(self, part: str, key: str, terms: Iterable[str], default: float | None = None) -> np.ndarray | None:
        """The part's constants in `terms`' order; a term the table lacks is `default` (None: the whole part is)."""
        values = [self._values.get((part, key, term), default) for term in terms]
        return None if any(v is None for v in values) else np.asarray(values)

    def needs(self, spec: Mapping[str, Any]) -> list[str]:
        """The parts ("part key") a prediction of `spec` uses."""
        method, problem = spec["method"], spec["problem"]
        needs = [("startup", method), ("evaluate", problem), ("acquire", acquire_key(method, spec.get("params")))]
        if self.uses_model(spec):
            needs += [("fit", fit_key(spec.get("model") or {})), ("objectives", problem)]
        return [f"{part} {key}" for part, key in needs]

    def missing(self, spec: Mapping[str, Any]) -> list[str]:
        """What the model lacks to predict `spec` (empty if it can)."""
        return [need for need in self.needs(spec) if tuple(need.split(" ", 1)) not in self._measured]

    def uses_model(self, spec: Mapping[str, Any]) -> bool:
        return self._values.get(("uses_model", spec["method"], "flag"), 1.0) > 0

    def predict(self, spec: Mapping[str, Any]) -> TrialCost | None:
        """Seconds of a trial spec (`bench.spec.TrialSpec.to_dict()` fields); None where the model lacks a part."""
        if self.missing(spec):
            return None
        method, problem = spec["method"], spec["problem"]
        b, iterations, n_init = int(spec["batch_size"]), int(spec["iterations"]), int(spec["n_init"])
        n = n_init + b * np.arange(iterations)  # points in the fit at t = 1..T
        acquire = self._terms("acquire", acquire_key(method, spec.get("params")), ACQUIRE_TERMS)
        evaluate = self._terms("evaluate", problem, EVALUATE_TERMS)
        fit_s = 0.0
        if self.uses_model(spec):
            model = spec.get("model") or {}
            terms, form = FIT_FORMS[fit_key(model)]
            m, maxiter = inducing_points(model), float(model.get("maxiter", 500))
            features = np.array([form(maxiter, ni, m) for ni in n])
            k = self._values[("objectives", problem, "k")]
            constants = self._terms("fit", fit_key(model), terms, default=0.0)  # a model from before f4, f5: none
            fit_s = float(k * (features @ constants).sum())
        acquire_s = float((np.array([_acquire_features(b, ni) for ni in n]) @ acquire).sum())
        evaluate_s = float(iterations * (evaluate[0] + evaluate[1] * b))
        return TrialCost(self._values[("startup", method, "s")], fit_s, acquire_s, evaluate_s)


def extended(base: CostModel, new: CostModel) -> CostModel:
    """`base` with the parts only `new` has (a fit, method, sampler or problem `base` never measured): every
    constant `base` has is kept, so the checks made of it still hold for what it predicted before."""
    if base.clock != new.clock:
        raise ValueError(f"cannot extend a model of {base.clock} seconds with parts fitted to {new.clock} seconds")
    have = {(r.part, r.key) for r in base.table.itertuples()}
    added = new.table[[
        (r.part, r.key) not in have if r.part != "clock" else r.key == "wall" and tuple(r.term.split(" ", 1)) not in have
        for r in new.table.itertuples()
    ]]
    return CostModel(pd.concat([base.table, added], ignore_index=True))


def inducing_points(model: Mapping[str, Any]) -> float:
    """The SVGP's inducing points M at any data size: `bench.models` builds M points in the space and trieste's
    selector keeps M when there are fewer data (padding with points from the space), so m = M, not min(M, N)."""
    return float(model.get("num_inducing", 500))


def _nnls(features: np.ndarray, seconds: np.ndarray, source: np.ndarray) -> np.ndarray:
    """Non-negative constants by least squares in which each source of observations (the records, a benchmark)
    weighs alike: a row is divided by its source's mean and by the square root of its number of rows. Within a
    source the squares are absolute, so predicted sums are unbiased (a relative fit would favour the small
    observations and predict sums low)."""
    scale = np.ones(len(seconds))
    for name in np.unique(source):
        rows = source == name
        scale[rows] = 1.0 / (max(seconds[rows].mean(), 1e-12) * math.sqrt(rows.sum()))
    weighted = features * scale[:, None]
    column_scale = np.maximum(np.abs(weighted).max(axis=0), 1e-300)
    solution, _ = nnls(weighted / column_scale, seconds * scale)
    return solution / column_scale


def has_cpu_parts(record: Mapping[str, Any]) -> bool:
    """Whether a record times every part in CPU seconds (records made before 2026-11-27 have wall seconds only)."""
    trace = record["trace"]
    return record.get("startup_cpu_s") is not None and trace[0].get("cpu_s") is not None and all(
        step.get(k) is not None for step in trace[1:] for k in ("cpu_s", "fit_cpu_s", "acquire_cpu_s")
    )


def measured_seconds(record: Mapping[str, Any], clock: str) -> float:
    """A trial's measured seconds on `clock`: its wall time, or its CPU seconds (start-up, the initial design, every
    iteration) plus the checkpoints' wall seconds, which are I/O. A record whose iterations have CPU seconds but whose
    start-up has none counts its start-up's wall seconds; NaN where the iterations lack CPU seconds."""
    trace = record["trace"]
    if clock == "wall":
        return float(record.get("wall_s") or math.nan)
    if any(step.get("cpu_s") is None for step in trace):
        return math.nan
    startup = record.get("startup_cpu_s")
    startup = record.get("startup_s") or 0.0 if startup is None else startup
    return float(startup + sum(step["cpu_s"] for step in trace) + sum(step.get("io_s") or 0.0 for step in trace))


def fit_steps(step: Mapping[str, Any]) -> float:
    """The L-BFGS-B steps an iteration's fit took (the mean over its objectives' models), from the fit's outcome that
    records keep (`bench.models.fit_outcome`); NaN where the record has none."""
    outcome = step.get("fit")
    outcomes = outcome if isinstance(outcome, list) else [outcome]
    steps = [o.get("steps") for o in outcomes if isinstance(o, Mapping)]
    return float(np.mean(steps)) if steps and None not in steps and len(steps) == len(outcomes) else math.nan


def _parts(step: Mapping[str, Any], clock: str) -> tuple[float, float, float]:
    """(fit, acquire, evaluate with checkpoint I/O) seconds of one iteration on `clock`."""
    io = step.get("io_s") or 0.0
    if clock == "wall":
        return step.get("fit_s") or 0.0, step.get("acquire_s") or 0.0, (step.get("evaluate_s") or 0.0) + io
    fit_s, acquire_s = step["fit_cpu_s"], step["acquire_cpu_s"]
    return fit_s, acquire_s, max(0.0, step["cpu_s"] - fit_s - acquire_s) + io


def observations(records: Iterable[Mapping[str, Any]], clock: str = "cpu") -> pd.DataFrame:
    """One row per (record, BO iteration) with what the forms need: the spec's sizes and the measured seconds, on
    `clock` where the record has it (`has_cpu_parts`), else on the wall clock (column `clock`)."""
    if clock not in CLOCKS:
        raise ValueError(f"clock must be one of {CLOCKS}, got {clock!r}")
    rows = []
    for record in records:
        clock_of = "cpu" if clock == "cpu" and has_cpu_parts(record) else "wall"
        spec, problem = record["spec"], record["problem"]
        model = spec.get("model") or {}
        steps = record["trace"][1:]
        parts = [_parts(step, clock_of) for step in steps]
        # what no part times (the initial design, bookkeeping) is spread over the iterations' evaluate parts
        startup = record["startup_cpu_s"] if clock_of == "cpu" else record.get("startup_s") or 0.0
        untimed = measured_seconds(record, clock_of) - startup - sum(map(sum, parts))
        rest = max(0.0, untimed) / max(len(steps), 1)
        first = True
        for step, (fit_s, acquire_s, evaluate_s) in zip(steps, parts):
            n = spec["n_init"] + spec["batch_size"] * (step["iteration"] - 1)
            rows.append(
                {
                    "trial_id": record["trial_id"],
                    "method": spec["method"],
                    "acquire_key": acquire_key(spec["method"], spec.get("params")),
                    "problem": spec["problem"],
                    "objectives": problem.get("num_objectives", 1),
                    "batch_size": spec["batch_size"],
                    "n": n,
                    "m": inducing_points(model),
                    "fit_key": fit_key(model),
                    "maxiter": model.get("maxiter", 500),
                    "steps": fit_steps(step),
                    "fit_s": fit_s,
                    "acquire_s": acquire_s,
                    "evaluate_s": evaluate_s + rest,
                    "startup_s": startup if first else np.nan,
                    "clock": clock_of,
                }
            )
            first = False
    return pd.DataFrame(rows)


def fit(
    obs: pd.DataFrame,
    lbfgs_steps: pd.DataFrame | None = None,
    batches: pd.DataFrame | None = None,
    fits: pd.DataFrame | None = None,
) -> CostModel:
    """Constants of every part from per-iteration observations (`observations`), one L-BFGS step at the paper's
    scale (`paper_scale_cost.csv`: N, lbfgs_iteration_s; M = 500), batch times against B (`scaling.csv`:
    method, sampler, batch_size, seconds_median; N = M = 500) and whole default fits (`fit_scaling.csv`: m, n, steps,
    cpu_s)."""
    rows: list[tuple[str, str, str, float]] = []
    cpu = bool(len(obs)) and (obs["clock"] == "cpu").any()
    wall_fitted: list[str] = []

    def preferred(group: pd.DataFrame, what: str) -> pd.DataFrame:
        """A part's rows on the CPU clock where a cpu model has any, else its wall rows (named: upper bounds)."""
        if not cpu or (group["clock"] == "cpu").any():
            return group[group["clock"] == "cpu"] if cpu else group
        wall_fitted.append(what)
        return group

    fitted = obs[obs["fit_s"] > NO_FIT_S]
    for key, (terms, form) in FIT_FORMS.items():
        modelled = fitted[fitted["fit_key"] == key]
        modelled = preferred(modelled, f"fit {key}") if len(modelled) else modelled
        taken = modelled["steps"].fillna(modelled["maxiter"]) if "steps" in modelled else modelled["maxiter"]
        features = [np.array(form(steps, r.n, r.m)) for steps, r in zip(taken, modelled.itertuples())]
        seconds = list(modelled["fit_s"] / modelled["objectives"])
        source = ["records"] * len(features)
        if key == "svgp" and lbfgs_steps is not None:  # the benchmark times one L-BFGS step of the default fit
            steps = lbfgs_steps.assign(N=pd.to_numeric(lbfgs_steps["N"], errors="coerce"))  # its last row is a total
            for r in steps.dropna(subset=["N", "lbfgs_iteration_s"]).itertuples():
                features.append(np.array(form(1.0, r.N, 500.0)) - np.eye(len(terms))[0])  # one step, no per-fit term
                seconds.append(r.lbfgs_iteration_s)
                source.append("lbfgs")
        if key == "svgp" and fits is not None:  # the benchmark times a trial's fit at several M and N
            for r in fits.itertuples():
                features.append(np.array(form(float(r.steps), float(r.n), float(r.m))))
                seconds.append(r.cpu_s)
                source.append("fits")
        if features:
            constants = _nnls(np.array(features), np.array(seconds), np.array(source))
            rows += [("fit", key, t, v) for t, v in zip(terms, constants)]
    for problem, group in obs.groupby("problem"):
        rows.append(("objectives", problem, "k", float(group["objectives"].iloc[0])))
        group = preferred(group, f"evaluate {problem}")
        features = np.array([[1.0, b] for b in group["batch_size"]])
        e = _nnls(features, group["evaluate_s"].to_numpy(), np.zeros(len(group)))
        rows += [("evaluate", problem, t, v) for t, v in zip(EVALUATE_TERMS, e)]
    scaled = batches.dropna(subset=["seconds_median"]) if batches is not None else pd.DataFrame()
    for key, group in obs.groupby("acquire_key"):
        group = preferred(group, f"acquire {key}")
        features = [_acquire_features(r.batch_size, r.n) for r in group.itertuples()]
        seconds = list(group["acquire_s"])
        source = ["records"] * len(features)
        for r in scaled.itertuples() if len(scaled) else ():
            if acquire_key(r.method, {"sampler": r.sampler} if isinstance(r.sampler, str) else {}) == key:
                features.append(_acquire_features(r.batch_size, 500.0))
                seconds.append(r.seconds_median)
                source.append("scaling")
        constants = _nnls(np.array(features), np.array(seconds), np.array(source))
        rows += [("acquire", key, t, v) for t, v in zip(ACQUIRE_TERMS, constants)]
    for method, group in obs.groupby("method"):
        rows.append(("uses_model", method, "flag", float(group["fit_s"].median() > NO_FIT_S)))
        rows.append(("startup", method, "s", float(preferred(group, f"startup {method}")["startup_s"].mean())))
    if cpu:
        rows.append(("clock", "cpu", "flag", 1.0))
        rows += [("clock", "wall", what, 1.0) for what in wall_fitted]
    return CostModel(pd.DataFrame(rows, columns=list(COLUMNS)))


def with_fit_refitted(base: CostModel, obs: pd.DataFrame, key: str = "svgp") -> CostModel:
    """`base` with fit `key`'s constants fitted anew to `obs` alone (no benchmark: e.g. one machine's whole trials,
    whose fits keep their steps) and every other constant kept, for checking such a part before it replaces one."""
    new = fit(obs)
    if new.clock != base.clock:
        raise ValueError(f"cannot refit a part of a model of {base.clock} seconds to {new.clock} seconds")
    part = (new.table["part"] == "fit") & (new.table["key"] == key)
    if not part.any():
        raise ValueError(f"no fit {key!r} among the observations to refit it to")
    kept = base.table[~((base.table["part"] == "fit") & (base.table["key"] == key))]
    return CostModel(pd.concat([kept, new.table[part]], ignore_index=True))


def validate(model: CostModel, records: Iterable[Mapping[str, Any]], experiments: Mapping[str, str]) -> pd.DataFrame:
    """Predicted against measured seconds per experiment on the model's clock (`measured_seconds`; `experiments`:
    trial id -> the experiment it is counted under), with the relative error, over the trials that have both; those
    without (a record lacking the clock, a trial the model cannot predict or predicts with a part a cpu model fitted
    to wall seconds) are counted in `left_out`."""
    rows = []
    for record in records:
        # a cpu model's parts fitted to wall seconds are upper bounds, not predictions of CPU seconds to check
        cost = None if set(model.needs(record["spec"])) & set(model.wall_fitted) else model.predict(record["spec"])
        rows.append(
            {
                "experiment": experiments.get(record["trial_id"], "?"),
                "measured_s": measured_seconds(record, model.clock),
                "predicted_s": math.nan if cost is None else cost.total,
            }
        )
    frame = pd.DataFrame(rows)
    frame = frame.assign(left_out=frame["measured_s"].isna() | frame["predicted_s"].isna())
    both = frame[~frame["left_out"]]

    def summary(group: pd.DataFrame, compared: pd.DataFrame) -> dict[str, float]:
        return {"trials": len(compared), "measured_s": compared["measured_s"].sum(),
                "predicted_s": compared["predicted_s"].sum(), "left_out": int(group["left_out"].sum())}

    out = {name: summary(group, both[both["experiment"] == name]) for name, group in frame.groupby("experiment")}
    out["all experiments"] = summary(frame, both)
    table = pd.DataFrame.from_dict(out, orient="index").rename_axis("experiment").reset_index()
    table["error"] = table["predicted_s"] / table["measured_s"] - 1.0
    return table.assign(clock=model.clock)
