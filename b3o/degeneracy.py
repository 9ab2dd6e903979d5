"""When a Boltzmann density is degenerate, read from the rule's diagnostics (no TensorFlow: analysis imports it).

Collapsed (B3O samples one point B times): ESS/N of the Boltzmann weights over the rule's uniform reference set below
1e-3 *and* a batch less than a tenth as spread as a uniform one. The ESS alone cannot tell: in 5-9 dimensions a
4096-point reference set reads a density concentrated on a region of side ~0.3 (diverse batches, e.g. Table 2's
UCB-c lambda = 10 on Hartmann-6) as ESS/N ~5e-4. Uniform (B3O is random search): the density's lambda times alpha's
range over the reference set below 1e-6, or ESS/N above 0.95. The density's lambda is the iteration's lambda_t divided
by the temperature's scale of alpha (`density_lambda`; 1 except for a standardising temperature).
"""

from __future__ import annotations

import math

COLLAPSE_ESS_FRACTION = 1e-3
COLLAPSE_RELATIVE_DIVERSITY = 0.1
UNIFORM_ESS_FRACTION = 0.95
UNIFORM_LAMBDA_SPREAD = 1e-6
#: a batch whose median nearest-neighbour distance is below this fraction of B uniform points' sits in tight clusters
CLUSTERED_NEAREST_NEIGHBOUR = 0.1


def collapsed(ess_fraction: float, relative_diversity: float) -> bool:
    return ess_fraction < COLLAPSE_ESS_FRACTION and relative_diversity < COLLAPSE_RELATIVE_DIVERSITY


def clustered(relative_nearest_neighbour: float | None) -> bool:
    """The batch sits in tight clusters (or on one point), whatever the ESS over the reference set says: a spike
    narrower than the reference set's spacing reads as a flat density there, even as "uniform" by ESS/N
    (`BoltzmannBatch` then warns of clusters, not of a uniform density)."""
    return relative_nearest_neighbour is not None and relative_nearest_neighbour < CLUSTERED_NEAREST_NEIGHBOUR


def density_lambda(lam_t: float, alpha_scale: float | None) -> float:
    """The lambda the density applies to alpha itself: lambda_t over the temperature's scale of alpha (recorded as
    `alpha_scale`; absent or NaN in records of temperatures that do not standardise, meaning 1)."""
    if alpha_scale is None or (isinstance(alpha_scale, float) and math.isnan(alpha_scale)):
        return lam_t
    return lam_t / alpha_scale


def uniform(ess_fraction: float, lam: float, alpha_range: float) -> bool:
    """`lam` is the density's lambda (`density_lambda`). lambda = 0 (a scheduled first batch) is uniform by design,
    not by accident: not reported."""
    return lam > 0 and (ess_fraction > UNIFORM_ESS_FRACTION or lam * alpha_range < UNIFORM_LAMBDA_SPREAD)


class DegenerateDensityWarning(UserWarning):
    """`BoltzmannBatch` warns with this, once per rule and kind, when its density has collapsed to a point mass, puts
    the batch in tight clusters, or is uniform (random search): lambda is then too large or too small for this
    acquisition and problem.

    Example::

        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("error", b3o.DegenerateDensityWarning)  # a degenerate density stops the loop
    """


def state(diagnostics: dict) -> str | None:
    """"collapsed", "uniform" or None (neither, or diagnostics without ESS: other methods)."""
    ess = diagnostics.get("ess_fraction")
    if ess is None or (isinstance(ess, float) and math.isnan(ess)):
        return None
    lam = density_lambda(diagnostics["lambda_t"], diagnostics.get("alpha_scale"))
    if collapsed(ess, diagnostics["relative_diversity"]):
        return "collapsed"
    if uniform(ess, lam, diagnostics["alpha_range"]):
        return "uniform"
    return None


def kind(diagnostics: dict) -> str | None:
    """The rule's reading of one batch, "collapsed", "clustered", "uniform" or None: `state` by ESS, and a batch in
    tight clusters that has not collapsed read as clustered (a flat density over the reference set with a spike between
    its points is not uniform)."""
    found = state(diagnostics)
    if found != "collapsed" and clustered(diagnostics.get("relative_nearest_neighbour")):
        return "clustered"
    return found


def describe(diagnostics: dict) -> str | None:
    """A sentence for a degenerate density, None otherwise; diagnostics without ESS (other methods) give None."""
    kind = state(diagnostics)
    ess, diversity = diagnostics.get("ess_fraction"), diagnostics.get("relative_diversity")
    if kind == "collapsed":
        return (
            f"has collapsed to a point mass (ESS/N = {ess:.2g}, batch diversity {diversity:.2g} of a uniform batch's)"
        )
    if kind == "uniform":
        lam = density_lambda(diagnostics["lambda_t"], diagnostics.get("alpha_scale"))
        return f"is uniform (ESS/N = {ess:.2g}, lambda * alpha range = {lam * diagnostics['alpha_range']:.2g})"
    return None
