"""Is B3O's default temperature (LogEI at lambda = 1) the one to start from on a problem of one's own? The
pre-registered check of tools/lambda_default.yaml (committed before any of its trials ran): B3O at lambda = 1, at
lambda = 5 and with `UpperTail()`, and trieste's Thompson sampling, on three `trieste.objectives` functions the package
was never tuned on, 20 fresh seeds each, in the worked comparison's loop and budget (tools/worked_comparison.py).

    PYTHONPATH=. nice -n 10 python tools/lambda_default.py --results /work/runs/lambda_default   # resumable
    PYTHONPATH=. python tools/lambda_default.py --results /work/runs/lambda_default --publish      # the page

The run appends one row per function, seed, method and batch to RESULTS/rows.csv as each campaign finishes (with the
commit, platform id and time that made it) and skips the campaigns it already holds, so an interrupted run loses at
most the campaign under way. `--publish` (once every
campaign has finished) copies the table to docs/tables/lambda_default.csv, decides the plan's two questions and
writes docs/lambda-default.md's generated block and figure.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the worked comparison's loop, beside this file
import worked_comparison as worked  # noqa: E402

from analysis.presentation.readme_blocks import markers, rewrite  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PLAN = ROOT / "tools" / "lambda_default.yaml"
TABLE = ROOT / "docs" / "tables" / "lambda_default.csv"
FIGURE = ROOT / "docs" / "figures" / "lambda_default.png"
PAGE = ROOT / "docs" / "lambda-default.md"
BLOCK = "tools/lambda_default.py"
KEY = ["function", "seed", "method"]


def plan() -> dict:
    return yaml.safe_load(PLAN.read_text())


def methods(p: dict) -> list[str]:
    """The default, the two questions' temperatures and the rival, in the table's order."""
    return [p["default"], *p["questions"].values(), p["rival"]]


def campaigns(p: dict) -> list[tuple[str, int, str]]:
    seeds = range(p["seeds"]["first"], p["seeds"]["first"] + p["seeds"]["count"])
    return [(f, s, m) for f in p["functions"] for s in seeds for m in methods(p)]


def run(results: Path) -> int:
    """Every campaign of the plan not yet in RESULTS/rows.csv, one after another (one core: `main` sets TensorFlow's
    threads), each appended as it finishes."""
    p = plan()
    size = worked.Size(p["seeds"]["count"], p["size"]["batches"], p["size"]["batch_size"], p["size"]["n_init"])
    rows = results / "rows.csv"
    results.mkdir(parents=True, exist_ok=True)
    done = set(map(tuple, pd.read_csv(rows)[KEY].itertuples(index=False))) if rows.is_file() else set()
    todo = [c for c in campaigns(p) if c not in done]
    print(f"{len(done)} of {len(campaigns(p))} campaigns in {rows}; running {len(todo)}", flush=True)
    for function, seed, method in todo:
        start = time.process_time()
        table = pd.DataFrame(worked.campaign(method, seed, size, function)).assign(function=function, **stamp())
        if rows.is_file():  # appended in the file's column order; a file of other columns is refused, not mixed
            header = list(pd.read_csv(rows, nrows=0).columns)
            if sorted(header) != sorted(table.columns):
                raise ValueError(f"{rows} has the columns {header}, this run's rows {list(table.columns)}: "
                                 "give a new --results directory")
            table = table[header]
        table.to_csv(rows, mode="a", header=not rows.is_file(), index=False)
        print(f"{function}, seed {seed}, {method}: best {table['best'].iloc[-1]:.4g}, "
              f"{time.process_time() - start:.0f} CPU s", flush=True)
    return 0


def stamp() -> dict[str, object]:
    """Each row's provenance: the code's commit (and whether the checkout differed from it), the numerical platform,
    when the campaign finished (`bench.provenance`, as a trial record has them)."""
    from bench.provenance import WRITER_KEYS, provenance

    found = provenance()
    return {key: found[key] for key in (*WRITER_KEYS, "finished_utc")}


def finals(table: pd.DataFrame) -> pd.DataFrame:
    """(function, seed) x method: the best value after the last batch, less the function's minimum (the regret)."""
    import trieste.objectives

    last = table[table["batch"] == table["batch"].max()]
    wide = last.pivot(index=["function", "seed"], columns="method", values="best")
    minimum = {f: float(getattr(trieste.objectives, f).minimum.numpy().min()) for f in table["function"].unique()}
    return wide.sub(pd.Series([minimum[f] for f, _ in wide.index], index=wide.index), axis=0)


def decide(table: pd.DataFrame, p: dict) -> pd.DataFrame:
    """The plan's questions, one Holm family: per question A against the default, pairs where A ends lower, higher,
    the sign test's p, Holm's p, and the reading."""
    from analysis.statistics.verdicts import holm

    wide = finals(table)
    rows = []
    for name, method in p["questions"].items():
        below = int((wide[method] < wide[p["default"]]).sum())
        above = int((wide[method] > wide[p["default"]]).sum())
        rows.append({"question": name, "method": method, "against": p["default"], "pairs": below + above,
                     "below": below, "above": above, "p": worked._sign_test(below, above)})
    out = pd.DataFrame(rows)
    out["p_holm"] = holm(out["p"].to_numpy())
    out["reading"] = [
        ("ends lower" if r.below > r.above else "ends higher") if r.p_holm <= p["alpha"] else "not decided"
        for r in out.itertuples()
    ]
    return out


def diagnostics(table: pd.DataFrame, p: dict) -> str:
    """Per B3O temperature, over its batches: the rule's median ESS/N, the batch's spread (mean pairwise distance) and
    median nearest-neighbour distance, each in box widths against a uniform batch's (`in_box_widths`), and the
    batches it warned on."""
    from analysis.formatting import number

    batches = table[table["batch"] > 0]
    out = []
    for m in [p["default"], *p["questions"].values()]:
        rows = batches[batches["method"] == m]
        warned = int(rows["warnings"].fillna("").astype(str).str.len().gt(0).sum())
        out.append(f"{m} ESS/N {number(rows['b3o_ess_fraction'].median())}, spread "
                   f"{number(rows['b3o_relative_diversity'].median())} and nearest-neighbour distance "
                   f"{number(rows['relative_nearest_neighbour'].median())} of a uniform batch's, a warning on {warned} "
                   f"of {len(rows)} batches")
    return "; ".join(out) + " (medians over batches; the warnings are the rule's `DegenerateDensityWarning`s)"


def block(table: pd.DataFrame, p: dict) -> str:
    """docs/lambda-default.md's generated block: the answer in words, then the counts per function."""
    from analysis.formatting import number

    wide = finals(table)
    decided = decide(table, p)
    n = len(wide)
    answer = []
    for r in decided.itertuples():
        verdict = {"ends lower": f"**{r.method} ends below the default** on most pairs",
                   "ends higher": f"**the default ends below {r.method}** on most pairs",
                   "not decided": f"**not decided** between {r.method} and the default"}[r.reading]
        answer.append(f"{r.question}: {verdict} ({r.method} lower on {r.below} of {r.pairs} function-seed pairs; sign "
                      f"test p = {number(r.p)}, Holm p = {number(r.p_holm)}, level {p['alpha']})")
    header = ("| function | " + " | ".join(f"{m}: median regret (IQR)" for m in methods(p))
              + " | " + " | ".join(f"{m} below the default" for m in p["questions"].values())
              + " | " + " | ".join(f"{m} below {p['rival']}" for m in [p["default"], *p["questions"].values()]) + " |")
    lines = [header, "|---" * header.count(" | ") + "|---|"]
    for function, rows in [*wide.groupby(level="function", sort=False), ("all", wide)]:
        cells = [function]
        for m in methods(p):
            q = rows[m].quantile([0.25, 0.5, 0.75])
            cells.append(f"{number(q[0.5])} ({number(q[0.25])}–{number(q[0.75])})")
        cells += [f"{int((rows[m] < rows[p['default']]).sum())} of {len(rows)}" for m in p["questions"].values()]
        cells += [f"{int((rows[m] < rows[p['rival']]).sum())} of {len(rows)}"
                  for m in [p["default"], *p["questions"].values()]]
        lines.append("| " + " | ".join(cells) + " |")
    rival = "; ".join(
        f"{m} below {p['rival']} on {int((wide[m] < wide[p['rival']]).sum())} of {n} (sign test p = "
        f"{number(worked._sign_test(int((wide[m] < wide[p['rival']]).sum()), int((wide[m] > wide[p['rival']]).sum())))})"
        for m in [p["default"], *p["questions"].values()])
    return "\n".join([
        markers(BLOCK)[0],
        f"<!-- generated by `python {BLOCK} --publish` from docs/tables/lambda_default.csv; do not edit by hand -->",
        "**The answer** (pre-registered, one Holm family): " + "; ".join(answer) + ".",
        "",
        f"**Against TS** (a reading, not decided): {rival}.",
        "",
        f"**The densities** (a reading): {diagnostics(table, p)}.",
        "",
        f"Final regret (best value after {p['size']['n_init']} initial points and {p['size']['batches']} batches of "
        f"{p['size']['batch_size']}, less the function's minimum), {p['seeds']['count']} seeds per function:",
        "",
        *lines,
        markers(BLOCK)[1],
    ])


def draw(table: pd.DataFrame, p: dict, out: Path = FIGURE) -> None:
    """Per function, each seed's final regret under each method (log scale), a seed's methods joined by a line."""
    import matplotlib.pyplot as plt

    from analysis.figures.common import WIDTH

    wide = finals(table)
    order = methods(p)
    functions = list(dict.fromkeys(wide.index.get_level_values("function")))
    fig, axes = plt.subplots(1, len(functions), figsize=(WIDTH, 3.0), squeeze=False, layout="constrained")
    for ax, function in zip(axes[0], functions):
        rows = wide.loc[function, order]
        floor = np.nanmin(rows.to_numpy()[rows.to_numpy() > 0]) / 2
        values = rows.clip(lower=floor)
        for _, seed in values.iterrows():
            ax.plot(range(len(order)), seed.to_numpy(), color="0.75", lw=0.6, zorder=1)
        for i, m in enumerate(order):
            ax.scatter(np.full(len(values), i), values[m], s=8, zorder=2)
            ax.plot([i - 0.3, i + 0.3], [values[m].median()] * 2, color="black", lw=1.5, zorder=3)
        ax.set(yscale="log", title=function, xticks=range(len(order)))
        ax.set_xticklabels([m.replace("B3O-LogEI-c", "B3O λ = 1").replace("B3O ", "") for m in order], rotation=30)
    axes[0, 0].set_ylabel("final regret (log)")
    fig.suptitle(f"Final regret per seed ({p['seeds']['count']} seeds per function; bar: median; a seed's methods "
                 "joined)", fontsize=9)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=200, bbox_inches="tight")
    plt.close(fig)
    print(f"wrote {out}")


#: the commits whose runner measured a batch's nearest-neighbour distance in the function's raw units, not in widths
#: of its box as the uniform distance it is divided by (`tools/worked_comparison.py` before its fix): the plan's run
RAW_UNITS = {"7d3a74890dc7fa21f5129a157c3d869fd0e8b363"}


def in_box_widths(table: pd.DataFrame) -> pd.DataFrame:
    """The rows with `relative_nearest_neighbour` in box widths: a raw-units row (`RAW_UNITS`) divided by its
    function's box width, exact because every box of the plan is a cube (a distance scales by the one width)."""
    import trieste.objectives

    out = table.copy()
    for function in out["function"].unique():
        space = getattr(trieste.objectives, function).search_space
        widths = (space.upper - space.lower).numpy()
        if not np.allclose(widths, widths[0]):
            raise ValueError(f"{function}'s box is not a cube (widths {widths}): its raw distances cannot be rescaled")
        raw = (out["function"] == function) & out["git_sha"].isin(RAW_UNITS)
        out.loc[raw, "relative_nearest_neighbour"] /= float(widths[0])
    return out


def publish(results: Path) -> int:
    p = plan()
    table = pd.read_csv(results / "rows.csv")
    missing = sorted(set(campaigns(p)) - set(map(tuple, table[KEY].itertuples(index=False))))
    if missing:
        print(f"error: {len(missing)} of the plan's campaigns have not finished (first: {missing[0]}); run it to the "
              "end before publishing (the plan decides on all its pairs)", file=sys.stderr)
        return 2
    TABLE.parent.mkdir(parents=True, exist_ok=True)
    table = in_box_widths(table)
    table.to_csv(TABLE, index=False)
    draw(table, p)
    PAGE.write_text(rewrite(PAGE.read_text(), block(table, p), BLOCK))
    print(f"wrote {TABLE}, {PAGE}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, required=True, help="where the run's rows go (outside the checkout)")
    parser.add_argument("--publish", action="store_true", help="decide and write the page (every campaign finished)")
    args = parser.parse_args(argv)
    if args.publish:
        return publish(args.results)
    import tensorflow as tf

    tf.config.threading.set_intra_op_parallelism_threads(1)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    return run(args.results)


if __name__ == "__main__":
    raise SystemExit(main())
