"""Fig. 2: how λ shapes a B3O batch, on the UCB surface of a GP fitted to a few points of `branin2`.

One panel per λ (default 0.1, 1, 10): the UCB acquisition α(x) as filled contours (same colour scale in every panel),
the observations (white crosses) and a batch of Boltzmann draws p(x) ∝ exp(λα(x)) made with DEFER (black dots).
Low λ spreads the batch almost uniformly; high λ concentrates it on the maxima of α. No table input.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from analysis.figures import common

PROBLEM = "branin2"


def compute(seed: int, num_points: int, lams: list[float], batch_size: int, resolution: int = 80) -> dict:
    """The UCB surface on a grid and one batch per λ (each drawn with the same seed)."""
    from analysis.statistics import illustrations  # TensorFlow: only when this figure is drawn

    fitted = illustrations.fit_gpr(PROBLEM, num_points, seed)
    axis = np.linspace(0.0, 1.0, resolution)
    x1, x2 = np.meshgrid(axis, axis)
    alpha = illustrations.ucb(fitted)(np.column_stack([x1.ravel(), x2.ravel()])).reshape(x1.shape)
    batches = {lam: illustrations.b3o_batch(fitted, lam, batch_size, seed) for lam in lams}
    return {"x1": x1, "x2": x2, "alpha": alpha, "data": fitted.x, "batches": batches}


def draw(r: dict) -> Figure:
    lams = list(r["batches"])
    fig, axes = common.panels([str(lam) for lam in lams], height=2.4)
    levels = np.linspace(r["alpha"].min(), r["alpha"].max(), 21)
    for lam in lams:
        ax = axes[str(lam)]
        contours = ax.contourf(r["x1"], r["x2"], r["alpha"], levels=levels, cmap="viridis")
        ax.plot(r["data"][:, 0], r["data"][:, 1], "X", color="white", mec="black", mew=0.8, ms=8, label="observations")
        batch = r["batches"][lam]
        ax.plot(batch[:, 0], batch[:, 1], "o", color="black", ms=3.5, label=f"B3O batch (B = {len(batch)})")
        ax.set(title=f"λ = {lam:g}", xlabel="x₁ (scaled)", aspect="equal", xlim=(0, 1), ylim=(0, 1))
        ax.grid(False)
    next(iter(axes.values())).set_ylabel("x₂ (scaled)")
    fig.colorbar(contours, ax=list(axes.values()), label="UCB α(x) (standardised objective)", shrink=0.8, format="%.1f")
    return common.titled(
        fig,
        f"Boltzmann batches p(x) ∝ exp(λ α(x)) on a GP-UCB surface ({common.problem_title(PROBLEM)})",
        axes.values(),
    )


def main(argv: list[str] | None = None) -> int:
    cli = common.parser("lambda_effect", __doc__.splitlines()[0], table_help=None)
    cli.add_argument("--seed", type=int, default=0)
    cli.add_argument("--points", type=int, default=12, help="observations the GP is fitted to")
    cli.add_argument("--lams", type=float, nargs="+", default=[0.1, 1.0, 10.0], help="inverse temperatures")
    cli.add_argument("--batch-size", type=int, default=50)
    args = cli.parse_args(argv)
    return common.publish(args.out, lambda: draw(compute(args.seed, args.points, args.lams, args.batch_size)))


if __name__ == "__main__":
    raise SystemExit(main())
