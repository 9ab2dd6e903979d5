"""A uniform face for log densities handed to samplers.

Samplers accept any callable mapping float64 [N, d] to [N] log-density values (NumPy or TensorFlow). `LogDensity`
wraps it once: NumPy in and out, NaN read as -inf, large inputs evaluated in chunks (memory stays bounded for an
SVGP), evaluations counted, and gradients by TensorFlow autodiff for Langevin.
"""

from __future__ import annotations

import time
from typing import Callable

import numpy as np
import tensorflow as tf
from scipy.special import log_softmax, logsumexp

LogDensityFn = Callable[[np.ndarray], "np.ndarray | tf.Tensor"]


class LogDensity:
    """Counted, NaN-safe, chunked evaluation of a log density."""

    def __init__(self, fn: LogDensityFn, chunk_size: int = 16384):
        self.fn = fn
        self.chunk_size = chunk_size
        self.num_evals = 0
        self.num_calls = 0  # one per batched call: a sampler making many small calls pays TensorFlow's overhead each
        self.seconds = 0.0  # time spent inside the density: sampler time minus this is sampler bookkeeping

    def __call__(self, x: np.ndarray) -> np.ndarray:
        start = time.perf_counter()
        try:
            return self._evaluate(x)
        finally:
            self.seconds += time.perf_counter() - start

    def _evaluate(self, x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, dtype=np.float64)
        self.num_evals += len(x)
        self.num_calls += 1
        if len(x) == 0:
            return np.empty(0)
        chunks = [
            np.asarray(self.fn(x[i : i + self.chunk_size]), dtype=np.float64).reshape(-1)
            for i in range(0, len(x), self.chunk_size)
        ]
        values = np.concatenate(chunks)
        if values.shape != (len(x),):
            raise ValueError(f"log density returned shape {values.shape} for {len(x)} points; expected [N]")
        if np.any(values == np.inf):
            raise ValueError("log density returned +inf; a Boltzmann density must be finite or -inf")
        return np.where(np.isnan(values), -np.inf, values)

    def tf_log_prob(self, x: tf.Tensor) -> tf.Tensor:
        """The wrapped density on a TF tensor, NaN read as -inf, for use inside TensorFlow (e.g. tfp kernels)."""
        values = tf.reshape(tf.cast(self.fn(x), tf.float64), [-1])
        return tf.where(tf.math.is_nan(values), tf.constant(-np.inf, tf.float64), values)


def safe_log_softmax(log_w: np.ndarray) -> np.ndarray:
    """Normalised log weights; an all -inf input is a clear error rather than NaN probabilities."""
    if not np.isfinite(log_w).any():
        raise ValueError("the log density is -inf (or NaN) at every evaluated point: nothing to sample from")
    return log_softmax(log_w)


def boltzmann_diagnostics(alpha: np.ndarray, lam: float) -> dict[str, float]:
    """How peaked exp(lam * alpha) is over a uniform feasible reference set: ESS/N of its weights and alpha's spread.

    ESS/N = (sum w)^2 / (N sum w^2) is 1 for a uniform density and 1/N for a point mass; the runner warns on either
    extreme. Non-finite alpha (infeasible or undefined) has zero weight and is left out of the spread.
    """
    finite = alpha[np.isfinite(alpha)]
    if len(finite) == 0:
        raise ValueError("the acquisition is -inf (or NaN) at every reference point")
    log_w = lam * finite
    ess = float(np.exp(2 * logsumexp(log_w) - logsumexp(2 * log_w)))
    q10, q90 = np.quantile(finite, [0.1, 0.9])
    return {
        "ess_fraction": ess / len(finite),
        "alpha_range": float(finite.max() - finite.min()),
        "alpha_p10_p90": float(q90 - q10),
    }
