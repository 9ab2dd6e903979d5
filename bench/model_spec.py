"""A trial's surrogate settings (the spec's `model`), checked without TensorFlow: the workflow and `b3o estimate`
read them; `bench.models` builds the surrogate they describe."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from b3o.options import check_options
from harness.keys import check_keys

#: How an SVGP's hyperparameters are fitted (`bench.models`): named where no TensorFlow is imported, so that
#: `b3o estimate` can offer them.
FITS = ("lbfgs", "collapsed")


def svgp_fit(model: Mapping[str, Any] | None) -> str | None:
    """How a model spec's SVGP is fitted (one of `FITS`; "lbfgs" when unnamed), or None where it is not an SVGP."""
    model = model or {}
    return model.get("fit", "lbfgs") if model.get("kind", "svgp") == "svgp" else None


KINDS = ("svgp", "gpr", "deep-ensemble")

#: Most points (n_init + batch_size x iterations) a trial whose spec names no model fits with an exact GPR; above it,
#: the paper's SVGP (`ModelSpec()`, M = 500). Up to M points an exact GPR's kernel matrix is no larger than the SVGP's
#: N x M, so it costs no more to predict, is the exact posterior the SVGP approximates, and needs no M = 500 inducing
#: points placed over a few points (which made a small study's fit take most of its time). Every published config
#: names its model, so this default decides only the trials of configs and specs that name none.
EXACT_GP_UP_TO = 500


def unnamed_model(points: int) -> dict[str, Any]:
    """The model of a trial of `points` evaluations whose spec names none (`EXACT_GP_UP_TO`)."""
    return {"kind": "gpr"} if points <= EXACT_GP_UP_TO else {"kind": "svgp"}


@dataclass(frozen=True)
class ModelSpec:
    kind: str = "svgp"
    num_inducing: int = 500
    likelihood_variance: float = 0.01
    maxiter: int = 200  # Scipy L-BFGS-B iterations per fit
    fit: str = "lbfgs"  # svgp: "lbfgs" (all variables on the ELBO) or "collapsed" (`CollapsedFit`)
    trainable_likelihood: bool = False  # svgp/gpr: fit the noise variance from `likelihood_variance` (paper: fixed)
    ensemble_size: int = 5
    ensemble_epochs: int = 200

    @classmethod
    def from_dict(cls, spec: dict[str, Any]) -> "ModelSpec":
        if not isinstance(spec, dict):
            raise ValueError(f"model must be a mapping of model settings, e.g. {{kind: svgp}}, got {spec!r}")
        check_keys("model", spec, cls)
        check_options("model", spec, cls)
        model = cls(**spec)
        if model.kind not in KINDS:
            raise ValueError(f"unknown model kind {model.kind!r}; valid kinds: {', '.join(KINDS)}")
        if model.num_inducing < 1 or model.maxiter < 1 or not model.likelihood_variance > 0:
            raise ValueError("model needs num_inducing >= 1, maxiter >= 1 and likelihood_variance > 0")
        if not isinstance(model.trainable_likelihood, bool):
            raise ValueError(f"model trainable_likelihood must be true or false, got {model.trainable_likelihood!r}")
        if model.fit not in FITS or (model.fit == "collapsed" and model.kind != "svgp"):
            raise ValueError(f"model fit {model.fit!r} is not one of {', '.join(FITS)} (collapsed: svgp only)")
        return model
