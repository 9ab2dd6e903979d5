"""B3O in your own trieste loop: a batch of 4 per iteration on a 2-D function of your own, in any units.

Run from anywhere: `python examples/trieste_loop.py`. The model is trieste's own GPR builder, fitted to the
observations standardised by their mean and s.d. (`b3o.StandardisedModel`), and the rule standardises each objective
by its data (docs/method.md): lambda = 1 means what Table 2's lambda means and the batches are those of the same
function in any other units, even though this one's values are in the thousands.
"""

import b3o

b3o.quiet_tensorflow()  # before TensorFlow is imported: it then starts without its CUDA chatter
import tensorflow as tf  # noqa: E402
from trieste.bayesian_optimizer import BayesianOptimizer  # noqa: E402
from trieste.models.gpflow import GaussianProcessRegression, build_gpr  # noqa: E402
from trieste.objectives.utils import mk_observer  # noqa: E402
from trieste.space import Box  # noqa: E402


def my_function(x: tf.Tensor) -> tf.Tensor:
    """[N, 2] -> [N, 1], to minimise: a bowl at (0.3, 0.7) in units of thousands."""
    return 1000.0 * tf.reduce_sum((x - [0.3, 0.7]) ** 2, axis=1, keepdims=True) + 7.0


search_space = Box([0.0, 0.0], [1.0, 1.0])
observer = mk_observer(my_function)
initial_data = observer(search_space.sample_sobol(5))
model = b3o.StandardisedModel(lambda data: GaussianProcessRegression(build_gpr(data, search_space)), initial_data)
rule = b3o.BoltzmannBatch(
    b3o.acquisitions.get("logei"),  # or "ucb"
    b3o.samplers.get("defer-is"),  # DEFER with importance resampling; its budget scales with the dimension
    b3o.temperature.get("auto-tail"),  # lambda_t chosen from alpha each iteration; or b3o.Constant(1.0)
    batch_size=4,
    seed=0,
)
result = BayesianOptimizer(observer, search_space).optimize(3, initial_data, model, rule)
data = result.try_get_final_dataset()
best = int(tf.argmin(data.observations[:, 0]))
x_best, y_best = data.query_points[best].numpy().round(3), float(data.observations[best])
print(f"best of {len(data)} evaluations: f{x_best} = {y_best:.2f}")
print(f"last batch: lambda_t = {rule.diagnostics['lambda_t']:.3g}, sampler {rule.diagnostics['sampler_seconds']:.2f} s")
