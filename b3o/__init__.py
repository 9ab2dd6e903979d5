"""B3O: Boltzmann batch Bayesian optimisation.

A batch is B i.i.d. draws from p_t(x) ∝ exp(lambda_t * alpha_t(x)); `BoltzmannBatch` is the trieste acquisition rule,
`b3o.samplers` draw from the density, `b3o.temperature` gives lambda_t, `b3o.acquisitions` the point-wise alphas.
"""

from b3o import acquisitions, samplers, temperature
from b3o.diversity import mean_pairwise_distance
from b3o.rule import BoltzmannBatch
from b3o.temperature import Constant, Normalised, Scheduled

__version__ = "0.1.0"

__all__ = [
    "BoltzmannBatch",
    "Constant",
    "Normalised",
    "Scheduled",
    "acquisitions",
    "mean_pairwise_distance",
    "samplers",
    "temperature",
]
