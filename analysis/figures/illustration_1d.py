"""Fig. 1: Thompson sampling vs B3O on a 1-D GP (registry problem `forrester1`, a few noisy points).

Top: GP posterior (mean, ±2σ), the true function, the data, a few TS trajectories and their maximisers (the TS
batch). Bottom: the UCB acquisition α, the Boltzmann density p(x) ∝ exp(λα) it induces, and a B3O batch drawn from it
with DEFER through `b3o.BoltzmannBatch`. No table input: everything is computed here from `--seed`.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from analysis.figures import common

PROBLEM = "forrester1"


def compute(seed: int, num_points: int, num_trajectories: int, lam: float, batch_size: int) -> dict[str, np.ndarray]:
    """Everything the figure draws, on a grid of 401 points."""
    from analysis.statistics import illustrations  # TensorFlow: only when this figure is drawn

    fitted = illustrations.fit_gpr(PROBLEM, num_points, seed)
    x = np.linspace(0.0, 1.0, 401)[:, None]
    mean, std = illustrations.posterior(fitted, x)
    paths = illustrations.thompson_trajectories(fitted, x, num_trajectories, seed)
    alpha_fn = illustrations.ucb(fitted)
    alpha = alpha_fn(x)
    batch = illustrations.b3o_batch(fitted, lam, batch_size, seed)
    return {
        "x": x[:, 0],
        "truth": illustrations.truth(fitted, x),
        "mean": mean,
        "std": std,
        "data_x": fitted.x[:, 0],
        "data_y": fitted.y[:, 0],
        "paths": paths,
        "ts_batch": x[np.argmax(paths, axis=0), 0],
        "ts_values": paths.max(axis=0),
        "alpha": alpha,
        "density": illustrations.boltzmann_density(alpha, lam, x[1, 0] - x[0, 0]),
        "b3o_batch": batch[:, 0],
        "b3o_alpha": alpha_fn(batch),
    }


def draw(r: dict[str, np.ndarray], lam: float) -> Figure:
    fig, axes = common.grid(["gp", "b3o"], [None], height=3.0)
    top, bottom = axes["gp", None], axes["b3o", None]
    top.fill_between(
        r["x"], r["mean"] - 2 * r["std"], r["mean"] + 2 * r["std"], color="tab:blue", alpha=0.15, label="posterior ±2σ"
    )
    top.plot(r["x"], r["mean"], color="tab:blue", label="posterior mean")
    top.plot(r["x"], r["truth"], "k:", label="true function")
    top.plot(r["x"], r["paths"], color="tab:pink", lw=0.8, alpha=0.8)
    top.plot([], [], color="tab:pink", lw=0.8, label=f"{r['paths'].shape[1]} TS trajectories")
    top.plot(r["ts_batch"], r["ts_values"], "v", color="tab:pink", ms=8, label="TS batch (trajectory maxima)")
    top.plot(r["data_x"], r["data_y"], "ko", ms=5, label="observations")
    top.set(ylabel="Objective (standardised)", title="Thompson sampling: one maximiser per posterior trajectory")
    top.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0))
    bottom.plot(r["x"], r["alpha"], color="tab:green", label="UCB α(x)")
    bottom.plot(
        r["b3o_batch"], r["b3o_alpha"], "o", color="tab:red", ms=6, label=f"B3O batch (B = {len(r['b3o_batch'])})"
    )
    bottom.set(
        xlabel="x (scaled to [0, 1])",
        ylabel="UCB α(x)",
        title=f"B3O: i.i.d. draws from p(x) ∝ exp(λ α(x)), λ = {lam:g} (DEFER)",
    )
    density_ax = bottom.twinx()
    density_ax.fill_between(r["x"], 0, r["density"], color="tab:red", alpha=0.15, label="Boltzmann density p(x)")
    density_ax.set_ylabel("p(x)")
    density_ax.grid(False)
    bottom.set_zorder(density_ax.get_zorder() + 1)  # the batch and α above the density's fill
    bottom.patch.set_visible(False)
    handles = [h for ax in (bottom, density_ax) for h in ax.get_legend_handles_labels()[0]]
    bottom.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.12, 1.0))
    return fig


def main(argv: list[str] | None = None) -> int:
    cli = common.parser("illustration_1d", __doc__.splitlines()[0], table_help=None)
    cli.add_argument("--seed", type=int, default=0)
    cli.add_argument("--points", type=int, default=6, help="observations the GP is fitted to")
    cli.add_argument("--trajectories", type=int, default=5, help="TS trajectories (= TS batch size)")
    cli.add_argument("--lam", type=float, default=5.0, help="inverse temperature of the B3O batch")
    cli.add_argument("--batch-size", type=int, default=10, help="B3O batch size")
    args = cli.parse_args(argv)
    results = compute(args.seed, args.points, args.trajectories, args.lam, args.batch_size)
    return common.publish(args.out, lambda: draw(results, args.lam))


if __name__ == "__main__":
    raise SystemExit(main())
