"""Theorem 1 checked numerically: P[α(x*) − α(x) ≥ ε] under exact Boltzmann sampling against its bound.

For α(x) = −½ (x − x*)ᵀ A (x − x*) on [0, 1]^d with A = diag(a) the quadratic lower bound of Assumption 2 holds with
equality, and the Boltzmann density exp(λ α(x)) / Z is a product of Gaussians N(x*_i, 1/(λ a_i)) truncated to
[0, 1], so it can be sampled exactly (scipy's truncnorm, one dimension at a time): what is measured is the theorem
itself, free of any sampler error. The bound is exp(−λε + (d/2) log λ − log V) with
V = ∫ exp(−½ (x − x*)ᵀ A (x − x*)) dx over [0, 1]^d = ∏_i √(2π/a_i) (Φ((1 − x*_i)√a_i) − Φ(−x*_i √a_i)).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.stats import beta, norm, truncnorm


@dataclass(frozen=True)
class Quadratic:
    """α(x) = −½ Σ_i a_i (x_i − x*_i)² on the unit cube; a > 0, x* in [0, 1]^d."""

    a: tuple[float, ...]
    x_star: tuple[float, ...]

    @property
    def dim(self) -> int:
        return len(self.a)

    def gap(self, x: np.ndarray) -> np.ndarray:
        """α(x*) − α(x) for points x [N, d]."""
        return 0.5 * np.sum(np.asarray(self.a) * (x - np.asarray(self.x_star)) ** 2, axis=1)

    def log_volume(self) -> float:
        """log V, V = ∫_[0,1]^d exp(−½ (x − x*)ᵀ A (x − x*)) dx, in closed form."""
        a, x_star = np.asarray(self.a), np.asarray(self.x_star)
        mass = norm.cdf((1 - x_star) * np.sqrt(a)) - norm.cdf(-x_star * np.sqrt(a))
        return float(np.sum(0.5 * np.log(2 * np.pi / a) + np.log(mass)))

    def sample(self, lam: float, n: int, rng: np.random.Generator) -> np.ndarray:
        """n exact draws [n, d] from p(x) ∝ exp(λ α(x)) on [0, 1]^d."""
        columns = []
        for a_i, centre in zip(self.a, self.x_star):
            scale = 1.0 / np.sqrt(lam * a_i)
            lower, upper = (0.0 - centre) / scale, (1.0 - centre) / scale
            columns.append(truncnorm.rvs(lower, upper, loc=centre, scale=scale, size=n, random_state=rng))
        return np.column_stack(columns)

    def log_bound(self, lam: float, eps: float) -> float:
        """log of Theorem 1's bound, −λε + (d/2) log λ − log V."""
        return -lam * eps + 0.5 * self.dim * np.log(lam) - self.log_volume()


def _text(values: tuple[float, ...]) -> str:
    return "(" + ", ".join(f"{v:g}" for v in values) + ")"


#: the two acquisitions of the figure: d = 1 and d = 2, optimum inside the cube, unequal curvatures
EXAMPLES = (Quadratic(a=(10.0,), x_star=(0.3,)), Quadratic(a=(10.0, 30.0), x_star=(0.3, 0.6)))
LAMBDAS = (1.0, 3.0, 10.0, 30.0, 100.0)
EPSILONS = (0.05, 0.1, 0.3, 1.0)


def measure(
    examples: tuple[Quadratic, ...] = EXAMPLES,
    lambdas: tuple[float, ...] = LAMBDAS,
    epsilons: tuple[float, ...] = EPSILONS,
    num_samples: int = 200_000,
    seed: int = 0,
) -> pd.DataFrame:
    """Measured tail probability (with a 95% Clopper-Pearson interval) and the bound, per (d, λ, ε).

    One sample of `num_samples` exact draws per (example, λ) serves every ε. Columns: d, a, x_star, lam, eps, count, n,
    measured, ci_lo, ci_hi, bound (above 1, i.e. vacuous, for small λε; reported as it is), log_bound.
    """
    rng = np.random.default_rng(seed)
    rows = []
    for example in examples:
        for lam in lambdas:
            gaps = example.gap(example.sample(lam, num_samples, rng))
            for eps in epsilons:
                count = int(np.sum(gaps >= eps))
                lo = beta.ppf(0.025, count, num_samples - count + 1) if count > 0 else 0.0
                hi = beta.ppf(0.975, count + 1, num_samples - count) if count < num_samples else 1.0
                log_bound = example.log_bound(lam, eps)
                rows.append(
                    {
                        "d": example.dim,
                        "a": _text(example.a),
                        "x_star": _text(example.x_star),
                        "lam": lam,
                        "eps": eps,
                        "count": count,
                        "n": num_samples,
                        "measured": count / num_samples,
                        "ci_lo": lo,
                        "ci_hi": hi,
                        "bound": float(np.exp(log_bound)),
                        "log_bound": log_bound,
                    }
                )
    return pd.DataFrame(rows)
