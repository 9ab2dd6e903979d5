"""B3O against trieste's own batch rules on a function of the user's, as a practitioner would compare them: trieste's
8-D Levy function (`trieste.objectives.Levy8`, on the unit cube; none of the package's problems), one trieste GPR
fitted to standardised observations (`b3o.StandardisedModel`) for every method, the same initial design per seed, the
same batch size and number of batches.

    nice -n 10 python tools/worked_comparison.py    # the committed run: minutes on one core
    python tools/worked_comparison.py --page-only   # the figure and the docs' block again, from the committed table

The methods, each at its defaults: B3O as `b3o.BoltzmannBatch(batch_size=B, seed=seed)` (LogEI, the `defer-is`
sampler, lambda = 1); trieste's trajectory Thompson sampling (`ParallelContinuousThompsonSampling`) and local
penalisation (`LocalPenalization`) in `EfficientGlobalOptimization` with trieste's default optimiser. Each step is
trieste's `AskTellOptimizer`: ask (choose a batch), evaluate, tell (refit the model).

It writes docs/tables/worked_comparison.csv, one row per seed, method and batch (batch 0 is the initial design): the
best value so far, the batch's distinct new points, its median nearest-neighbour distance against that of as many
uniform points (`b3o.median_nearest_neighbour`), the seconds to choose the batch and to refit the model, and B3O's
own diagnostics (lambda_t, ESS/N, relative diversity, warnings); then docs/figures/worked_comparison.png and the
generated block of docs/worked-comparison.md.
"""

from __future__ import annotations

import argparse
import functools
import math
import time
import warnings
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.presentation.readme_blocks import markers, rewrite

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "docs" / "tables" / "worked_comparison.csv"
FIGURE = ROOT / "docs" / "figures" / "worked_comparison.png"
PAGE = ROOT / "docs" / "worked-comparison.md"
#: the generated block's name: its markers are `analysis.presentation.readme_blocks.markers(BLOCK)`
BLOCK = "tools/worked_comparison.py"
#: the methods in the order of the table and the legend; labels as in the package's figures (B3O's defaults are
#: the variant B3O-LogEI-c: LogEI at a constant lambda = 1)
METHODS = ("B3O-LogEI-c", "TS", "LP")
B3O = METHODS[0]


@dataclass(frozen=True)
class Size:
    """The comparison's budget: seeds, and per seed an initial design of `n_init` points then `batches` of B."""

    seeds: int = 5
    batches: int = 6
    batch_size: int = 20
    n_init: int = 40

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")


#: the committed run's size
FULL = Size()
#: the rivals' optimiser budget. trieste's default (5,000 random points, 10 L-BFGS runs) took 80-200 s per batch of
#: 25 here; this one scores 1,000 random points per point of the batch, B times what B3O's `defer-is` evaluates
#: (10^4 density calls per batch in 8-D)
OPTIMISER = {"random_points": 1000, "lbfgs_runs": 2}


def rule(method: str, batch_size: int, seed: int, space):  # -> trieste AcquisitionRule
    """Each method as a user would build it: B3O at its defaults, the rivals with `optimiser()`."""
    import b3o
    from trieste.acquisition import LocalPenalization, ParallelContinuousThompsonSampling
    from trieste.acquisition.rule import EfficientGlobalOptimization

    if method == B3O:
        return b3o.BoltzmannBatch(batch_size=batch_size, seed=seed)
    builder = {"TS": ParallelContinuousThompsonSampling, "LP": lambda: LocalPenalization(space)}[method]()
    return EfficientGlobalOptimization(builder, optimiser(), num_query_points=batch_size)


def optimiser():  # -> trieste AcquisitionOptimizer
    """trieste's continuous optimiser at `OPTIMISER`'s budget: per point of the batch (LP) or per trajectory (TS),
    the best of that many random points, then that many L-BFGS runs."""
    from trieste.acquisition.optimizer import generate_continuous_optimizer

    return generate_continuous_optimizer(OPTIMISER["random_points"], OPTIMISER["lbfgs_runs"])


def campaign(method: str, seed: int, size: Size) -> list[dict]:
    """One method's run on one seed: a row for the initial design (batch 0) and one per batch."""
    import b3o
    import tensorflow as tf
    from trieste.ask_tell_optimization import AskTellOptimizer
    from trieste.data import Dataset
    from trieste.models.gpflow import GaussianProcessRegression, build_gpr
    from trieste.objectives import Levy8

    space, observer = Levy8.search_space, Levy8.objective
    tf.random.set_seed(seed)  # trieste's optimisers and TS's trajectories draw from TensorFlow's global seed
    x0 = space.sample(size.n_init, seed=seed)  # the same initial design for every method of this seed
    data = Dataset(x0, observer(x0))
    model = b3o.StandardisedModel(lambda d: GaussianProcessRegression(build_gpr(d, space)), data)
    chooser = rule(method, size.batch_size, seed, space)
    start = time.perf_counter()
    optimiser = AskTellOptimizer(space, data, model, chooser)
    rows = [_row(method, seed, 0, data, None, math.nan, time.perf_counter() - start, {})]
    for batch_number in range(1, size.batches + 1):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", b3o.DegenerateDensityWarning)
            start = time.perf_counter()
            batch = optimiser.ask()
            ask_s = time.perf_counter() - start
        new = Dataset(batch, observer(batch))
        start = time.perf_counter()
        optimiser.tell(new)
        tell_s = time.perf_counter() - start
        seen = data.query_points.numpy()
        data = data + new
        diagnostics = dict(chooser.diagnostics) if method == B3O else {}
        diagnostics["warnings"] = " | ".join(
            str(w.message) for w in caught if issubclass(w.category, b3o.DegenerateDensityWarning)
        )
        rows.append(_row(method, seed, batch_number, data, (seen, batch.numpy()), ask_s, tell_s, diagnostics))
    return rows


def _row(method: str, seed: int, batch_number: int, data, batch: tuple[np.ndarray, np.ndarray] | None,
         ask_s: float, fit_s: float, diagnostics: dict) -> dict:
    import b3o

    row = {"method": method, "seed": seed, "batch": batch_number, "evaluations": len(data),
           "best": float(np.min(data.observations)), "distinct_new": math.nan, "relative_nearest_neighbour": math.nan,
           "ask_s": ask_s, "fit_s": fit_s}
    if batch is not None:
        seen, x = batch
        unique = np.unique(x, axis=0)
        row["distinct_new"] = sum(not np.any(np.all(seen == p, axis=1)) for p in unique)
        row["relative_nearest_neighbour"] = b3o.median_nearest_neighbour(x) / uniform_nearest_neighbour(*x.shape)
    for key in ("lambda_t", "ess_fraction", "relative_diversity"):
        row[f"b3o_{key}"] = diagnostics.get(key, math.nan)
    row["warnings"] = diagnostics.get("warnings", "")
    return row


@functools.cache
def uniform_nearest_neighbour(batch_size: int, dimension: int) -> float:
    """The median nearest-neighbour distance a batch of uniform points reaches (the median over 64 fixed draws)."""
    import b3o

    rng = np.random.default_rng(0)
    return float(np.median([b3o.median_nearest_neighbour(rng.random((batch_size, dimension))) for _ in range(64)]))


def run(size: Size) -> pd.DataFrame:
    """Every method on every seed, one after another (one core: TensorFlow's threads are set by `main`)."""
    rows = []
    for seed in range(size.seeds):
        for method in METHODS:
            start = time.process_time()
            rows += campaign(method, seed, size)
            print(f"seed {seed}, {method}: best {rows[-1]['best']:.4g} after {rows[-1]['evaluations']} evaluations, "
                  f"{time.process_time() - start:.0f} CPU s", flush=True)
    return pd.DataFrame(rows)


def draw(table: pd.DataFrame, out: Path = FIGURE) -> None:
    """The figure: the best value so far against evaluations, and each batch's nearest-neighbour spread, as the
    median and interquartile range over seeds."""
    from analysis.figures.common import QUARTILES, grid, label_bands, legend_below, quartiles, suptitle

    fig, axes = grid([0], ["best", "spread"], height=2.6)
    label_bands(axes[0, "best"], quartiles(table.rename(columns={"method": "label"}), ["label"], "best",
                                           "evaluations"), "evaluations", step=True)
    axes[0, "best"].set(yscale="log", xlabel="Function evaluations", ylabel="Best value so far (Levy-8)")
    batches = table[table["batch"] > 0].rename(columns={"method": "label"})
    label_bands(axes[0, "spread"], quartiles(batches, ["label"], "relative_nearest_neighbour", "batch"), "batch")
    axes[0, "spread"].axhline(1.0, color="gray", lw=0.8, ls=":")  # as spread as uniform points
    axes[0, "spread"].set(xlabel="Batch", ylabel="Batch spread (NN distance / uniform)")
    size = table_size(table)
    suptitle(fig, f"Levy-8: {size.n_init} initial points, then {size.batches} batches of {size.batch_size}; "
                  f"{size.seeds} seeds, {QUARTILES}")
    legend_below(fig, [axes[0, "best"]])
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=200, bbox_inches="tight")
    print(f"wrote {out}")


def table_size(table: pd.DataFrame) -> Size:
    """The size of the run a table holds."""
    first = table[table["batch"] == 0]["evaluations"].iloc[0]
    batch_size = (table[table["batch"] == 1]["evaluations"].iloc[0] - first) if table["batch"].max() else 1
    return Size(int(table["seed"].nunique()), int(table["batch"].max()), int(batch_size), int(first))


#: what each kind of B3O's `DegenerateDensityWarning` says, to count them by kind
WARNING_KINDS = {"uniform": "random search", "collapsed": "one small region", "clustered": "tight clusters"}


def block(table: pd.DataFrame) -> str:
    """docs/worked-comparison.md's generated block: who ends lower, by how much and how sure, the time per batch,
    and B3O's own diagnostics, from the table alone."""
    from scipy.stats import binomtest

    from analysis.formatting import number, signed

    size = table_size(table)
    final = table[table["batch"] == size.batches].pivot(index="seed", columns="method", values="best")
    batches = table[table["batch"] > 0]
    b3o = final[B3O]
    lines, rows, sentences = [], [], []
    for method in METHODS:
        quartile = final[method].quantile([0.25, 0.5, 0.75])
        mine = batches[batches["method"] == method]
        repeats = int((mine["distinct_new"] < size.batch_size).sum())
        cells = [method, f"{number(quartile[0.5])} ({number(quartile[0.25])}–{number(quartile[0.75])})"]
        if method == B3O:
            cells += ["", ""]
        else:
            below, above = int((b3o < final[method]).sum()), int((b3o > final[method]).sum())
            gap = final[method] - b3o
            p = binomtest(below, below + above).pvalue if below + above else math.nan
            cells += [f"{below} of {size.seeds}", f"{signed(gap.median())} ({signed(gap.min())} to {signed(gap.max())})"]
            sentences.append(f"below {method} on {below} of {size.seeds} seeds (two-sided sign test p = {number(p)})")
        cells += [number(mine["ask_s"].median()), number(mine["fit_s"].median()),
                  number(mine["relative_nearest_neighbour"].median()), f"{repeats} of {len(mine)}"]
        rows.append("| " + " | ".join(cells) + " |")
    smallest = binomtest(size.seeds, size.seeds).pvalue
    mine = batches[batches["method"] == B3O]
    warned = {kind: mine[mine["warnings"].fillna("").str.contains(phrase)] for kind, phrase in WARNING_KINDS.items()}
    warnings_text = "; ".join(
        f"{kind} on {w['seed'].nunique()} of {size.seeds} seeds (batch {', '.join(map(str, sorted(set(w['batch']))))})"
        for kind, w in warned.items() if len(w)
    ) or "none"
    lines = [
        markers(BLOCK)[0],
        f"<!-- generated by `python {BLOCK}` from docs/tables/worked_comparison.csv; do not edit by hand -->",
        f"After {size.n_init + size.batches * size.batch_size} evaluations ({size.n_init} initial points, then "
        f"{size.batches} batches of {size.batch_size}) on {size.seeds} seeds, B3O's median best value is "
        f"{number(b3o.median())}, TS's {number(final['TS'].median())} and LP's {number(final['LP'].median())} "
        f"(Levy-8's minimum is 0). B3O ends {' and '.join(sentences)}. {size.seeds} seeds are a small sample: even "
        f"{size.seeds} of {size.seeds} would give p = {number(smallest)}, so these counts say what happened on "
        "these seeds, not which method is better on Levy-8 in general.",
        "",
        "| method | final best: median (IQR) | B3O ends below it on | its final best − B3O's per seed: median "
        "(range) | s to choose a batch (median) | s to refit the model (median) | batch nearest-neighbour distance "
        "/ uniform (median) | batches with a repeated or already evaluated point |",
        "|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        f"B3O's density over its {len(mine)} batches: λ_t {number(mine['b3o_lambda_t'].median())}, ESS/N "
        f"{number(mine['b3o_ess_fraction'].min())} – {number(mine['b3o_ess_fraction'].max())} (median "
        f"{number(mine['b3o_ess_fraction'].median())}), mean pairwise distance against a uniform batch's "
        f"{number(mine['b3o_relative_diversity'].min())} – {number(mine['b3o_relative_diversity'].max())} (median "
        f"{number(mine['b3o_relative_diversity'].median())}); its warnings: {warnings_text}.",
        markers(BLOCK)[1],
    ]
    return "\n".join(lines)


def write_page(table: pd.DataFrame) -> None:
    draw(table)
    PAGE.write_text(rewrite(PAGE.read_text(), block(table), BLOCK))
    print(f"wrote {PAGE}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--page-only", action="store_true", help="redraw the figure and block from the table")
    for name, value in asdict(FULL).items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=int, default=value)
    args = parser.parse_args(argv)
    size = Size(args.seeds, args.batches, args.batch_size, args.n_init)
    if args.page_only:
        write_page(pd.read_csv(TABLE))
        return 0
    import tensorflow as tf

    tf.config.threading.set_intra_op_parallelism_threads(1)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    table = run(size)
    TABLE.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(TABLE, index=False)
    print(f"wrote {TABLE}")
    write_page(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
