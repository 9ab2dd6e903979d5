"""Batch clustering in a 4-D loop at the rule's defaults (B = 30, LogEI, lambda = 1) on trieste's Shekel-4: per
batch, ESS/N, the mean-pairwise and the nearest-neighbour diversity, and the DegenerateDensityWarnings. Prints;
nothing is committed.
Run: `PYTHONPATH=. python tests/benchmarks/batch_clustering.py` (docs/method.md, "Choosing λ", says what to read).
"""

import warnings

import b3o

b3o.quiet_tensorflow()
from trieste.bayesian_optimizer import BayesianOptimizer
from trieste.models.gpflow import GaussianProcessRegression, build_gpr
from trieste.objectives import Shekel4
from trieste.objectives.utils import mk_observer

space = Shekel4.search_space
observer = mk_observer(Shekel4.objective)
data = observer(space.sample_sobol(20))
model = b3o.StandardisedModel(lambda d: GaussianProcessRegression(build_gpr(d, space)), data)
rule = b3o.BoltzmannBatch(batch_size=30, seed=0)
opt = BayesianOptimizer(observer, space)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    for _ in range(12):
        result = opt.optimize(1, data, model, rule, track_state=False)
        data = result.try_get_final_dataset()
        model = result.try_get_final_model()
        d = rule.diagnostics
        print(f"t={d['t']:2d} ESS/N={d['ess_fraction']:.2g} relative_diversity={d['relative_diversity']:.2f} "
              f"nearest_neighbour={d['nearest_neighbour']:.3f} relative_nearest_neighbour={d['relative_nearest_neighbour']:.2f}",
              flush=True)
print([str(w.message)[:160] for w in caught if issubclass(w.category, b3o.DegenerateDensityWarning)])
