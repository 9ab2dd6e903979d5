"""Gaussian mixtures restricted to boxes, with exact masses from normal CDFs: the samplers' test targets."""

from __future__ import annotations

import numpy as np
import tensorflow as tf
from scipy.special import gammaln
from scipy.stats import norm
from trieste.space import Box


class Mixture:
    """Isotropic Gaussian mixture restricted to a box; log density in TensorFlow so Langevin can differentiate."""

    def __init__(self, means, sds, weights, lower, upper):
        self.means = np.asarray(means, dtype=np.float64)
        self.sds = np.asarray(sds, dtype=np.float64)
        self.weights = np.asarray(weights, dtype=np.float64)
        self.lower, self.upper = np.asarray(lower, float), np.asarray(upper, float)
        self.space = Box(self.lower, self.upper)

    def __call__(self, x):
        x = tf.convert_to_tensor(x, tf.float64)
        sq = tf.reduce_sum((x[:, None, :] - self.means) ** 2, axis=-1) / self.sds**2
        d = self.means.shape[1]
        log_comp = np.log(self.weights) - d * np.log(self.sds) - 0.5 * sq
        return tf.reduce_logsumexp(log_comp, axis=-1)

    def component_mass(self, lo, hi):
        """[K] unnormalised mass of each component inside the box [lo, hi] (per-dimension CDF products)."""
        lo, hi = np.asarray(lo, float), np.asarray(hi, float)
        cdf = norm.cdf((hi - self.means) / self.sds[:, None]) - norm.cdf((lo - self.means) / self.sds[:, None])
        return self.weights * (2 * np.pi) ** (self.means.shape[1] / 2) * np.prod(cdf, axis=1)

    def log_z(self):
        return float(np.log(self.component_mass(self.lower, self.upper).sum()))

    def bin_probabilities(self, bins: int) -> np.ndarray:
        d = self.means.shape[1]
        edges = [np.linspace(lo, hi, bins + 1) for lo, hi in zip(self.lower, self.upper)]
        probs = np.zeros((bins,) * d)
        for index in np.ndindex(*probs.shape):
            lo = [edges[k][i] for k, i in enumerate(index)]
            hi = [edges[k][i + 1] for k, i in enumerate(index)]
            probs[index] = self.component_mass(lo, hi).sum()
        return probs / probs.sum()

    def total_variation(self, x: np.ndarray, bins: int) -> float:
        d = self.means.shape[1]
        counts, _ = np.histogramdd(x, bins=bins, range=list(zip(self.lower, self.upper)))
        assert counts.sum() == len(x), "samples outside the box"
        return 0.5 * float(np.abs(counts / len(x) - self.bin_probabilities(bins)).sum()) if d else 0.0

    def log_components(self, x: np.ndarray) -> np.ndarray:
        """[N, K] log of each weighted component at x."""
        sq = (((np.asarray(x)[:, None, :] - self.means) ** 2).sum(-1)) / self.sds**2
        return np.log(self.weights) - self.means.shape[1] * np.log(self.sds) - 0.5 * sq

    def mode_masses(self) -> np.ndarray:
        """[K] exact share of each mode in the mixture restricted to the box."""
        mass = self.component_mass(self.lower, self.upper)
        return mass / mass.sum()

    def sample_masses(self, x: np.ndarray) -> np.ndarray:
        """[K] share of the samples assigned to each mode (the component of largest weighted density)."""
        return np.bincount(self.log_components(x).argmax(axis=1), minlength=len(self.weights)) / len(x)


def boundary_mixture(dim: int, narrow: float = 0.01, wide: float = 0.05) -> Mixture:
    """Three equally weighted modes in the unit cube, where B3O runs its samplers (d = 4-9): one `wide` mode one s.d.
    from the faces in half of the coordinates (so truncation changes its mass), one `wide` interior mode, and one
    mode `wide / narrow` times narrower. The positions avoid DEFER's first trisection centres (1/6, 1/2, 5/6)."""
    half = np.arange(dim) < dim // 2
    means = [
        np.where(half, wide, 0.7),
        np.where(half, 0.7, 0.3),
        np.where(np.arange(dim) % 2 == 0, 0.35, 0.6),
    ]
    lower, upper = np.zeros(dim), np.ones(dim)
    return Mixture(means, [wide, wide, narrow], [1 / 3, 1 / 3, 1 / 3], lower, upper)


def visible_radius(dim: int, narrow: float, wide: float) -> float:
    """Radius around an equally weighted mode of s.d. `narrow` inside which its density is at least that at which the
    `wide` modes hold their mass (their typical radius wide * sqrt(d), i.e. e^(-d/2) of their peak):
    r^2 = narrow^2 * d * (2 ln(wide / narrow) + 1). Outside it the mode is no more conspicuous than the wide modes' own
    bulk, so a sampler without prior knowledge of where it is must first land an evaluation inside it."""
    return narrow * np.sqrt(dim * (2 * np.log(wide / narrow) + 1))


def visible_fraction(dim: int, narrow: float, wide: float) -> float:
    """Volume of the d-ball of `visible_radius` (the fraction of the unit cube, for a mode that far from every face)."""
    log_ball = dim / 2 * np.log(np.pi) - gammaln(dim / 2 + 1)
    return float(np.exp(log_ball + dim * np.log(visible_radius(dim, narrow, wide))))


def detectable_widths(dim: int, budget: int = 10_000, hits: float = 3.0, ratio: float = 5.0) -> tuple[float, float]:
    """(narrow, wide = ratio * narrow) s.d.s whose visible fraction is hits / budget: `budget` uniformly spread
    evaluations land `hits` times in the narrow mode's visible ball on average (at 3, P(none) = e^-3 = 5 %)."""
    radius = np.exp((np.log(hits / budget) - dim / 2 * np.log(np.pi) + gammaln(dim / 2 + 1)) / dim)
    narrow = float(radius / np.sqrt(dim * (2 * np.log(ratio) + 1)))
    return narrow, ratio * narrow


def placed_mixture(interior: tuple[float, float, float] = (0.25, 0.75, 0.5)) -> Mixture:
    """A hand-placed 6-D mixture: s.d. 0.03, 0.06, 0.02, exact masses 0.31, 0.38, 0.31 (the two narrow modes 0.9 s.d.
    from a face). `interior` is each mode's coordinate elsewhere; the default puts the narrowest mode on DEFER's first
    trisection centre (0.5), (0.3, 0.7, 0.6) puts it off every early centre."""
    dim = 6
    means = np.array([np.full(dim, c) for c in interior])
    means[0, 0], means[2, 1] = 0.027, 1 - 0.018
    return Mixture(means, [0.03, 0.06, 0.02], [1 / 3, 1 / 3, 1 / 3], np.zeros(dim), np.ones(dim))


# The samplers' mode-mass targets where B3O runs them (tests/test_sampler_modes.py explains the names), shared by the
# tests and the accuracy benchmark against the reference implementation.
TARGETS = {
    **{f"{d}d-hits30": (lambda d=d: boundary_mixture(d, *detectable_widths(d, hits=30))) for d in (4, 6, 9)},
    **{f"{d}d-hits10": (lambda d=d: boundary_mixture(d, *detectable_widths(d, hits=10))) for d in (6, 9)},
    **{f"{d}d-hits3": (lambda d=d: boundary_mixture(d, *detectable_widths(d, hits=3))) for d in (6, 9)},
    **{f"{d}d-sd0.01": (lambda d=d: boundary_mixture(d)) for d in (4, 6, 9)},
    "6d-placed": placed_mixture,
    "6d-placed-off": lambda: placed_mixture((0.3, 0.7, 0.6)),
}
