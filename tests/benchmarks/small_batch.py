"""A small batch in low dimension, timed: B = 4 on Branin (2-D) from trieste's GPR on 5 points, LogEI, defer-is, lambda = 1.

Prints the first batch's wall time (tracing included) and, for the five after it, wall and process CPU time and the
sampler's density calls. Run pinned to one core: `taskset -c 0 python tests/benchmarks/small_batch.py`
(docs/performance.md says what the measurement showed; the timings are printed, not committed).
"""

import statistics
import time

import b3o

b3o.quiet_tensorflow()  # before trieste: a quiet start
from trieste.models.gpflow import GaussianProcessRegression, build_gpr
from trieste.objectives import Branin
from trieste.objectives.utils import mk_observer
from b3o import BoltzmannBatch, Constant, acquisitions, samplers

space = Branin.search_space
observer = mk_observer(Branin.objective)
data = observer(space.sample(5, seed=0))
model = GaussianProcessRegression(build_gpr(data, space))
model.optimize(data)
rule = BoltzmannBatch(acquisitions.get("logei"), samplers.get("defer-is"), Constant(1.0), batch_size=4, seed=0)
wall, cpu, calls = [], [], []
for _ in range(6):
    start, start_cpu = time.perf_counter(), time.process_time()
    rule.acquire_single(space, model, data)
    wall.append(time.perf_counter() - start)
    cpu.append(time.process_time() - start_cpu)
    calls.append(rule.diagnostics["num_density_calls"])
print(
    f"first {wall[0]:.2f} s; after it: wall {[round(w, 2) for w in wall[1:]]}"
    f" (median {statistics.median(wall[1:]):.2f} s),"
    f" CPU median {statistics.median(cpu[1:]):.2f} s, density calls {calls[1:]}"
)
