"""Battery electrode design (paper Fig. 5): Pareto fronts (left) and hypervolume gap to NSGA-II (right).

Reference: the NSGA-II trial with the largest final hypervolume; its front is drawn and its final hypervolume is the
reference that the right panel subtracts from. Each other method's front is that of its median run (the trial whose
final hypervolume is closest to the median over seeds), so a front is a real run rather than the union of all seeds,
which would flatter methods with more seeds. Without NSGA-II runs the right panel shows plain hypervolume instead.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analysis.data.aggregate import curves, final
from analysis.figures import common
from problems.base import minimisation_sign

EXPERIMENT = "battery"
#: the figures the workflow draws with this script (a literal, read unimported by `analysis.figures.declared`)
FIGURES = {"battery": (EXPERIMENT,)}
REFERENCE_METHOD = "nsga2"
OBJECTIVES = ("Specific energy [Wh/kg]", "Specific power [W/kg]")
HV_UNITS = "[Wh·W/kg²]"
FRONT_COLUMNS = ("label", "method", "sense", "value_0", "value_1")


def non_dominated(values: np.ndarray, sense: str) -> np.ndarray:
    """Mask of the non-dominated rows of a 2-objective array (both maximised or both minimised), in O(N log N)."""
    points = -minimisation_sign(sense) * np.asarray(values, dtype=np.float64)  # maximisation convention
    order = np.lexsort((-points[:, 1], -points[:, 0]))  # best first objective first, ties by the second
    best_second = np.maximum.accumulate(points[order, 1])
    kept = np.empty(len(order), dtype=bool)
    kept[0] = True
    kept[1:] = points[order[1:], 1] > best_second[:-1]
    mask = np.zeros(len(points), dtype=bool)
    mask[order[kept]] = True
    return mask


def representative_trials(table: pd.DataFrame) -> dict[str, str]:
    """label -> trial drawn on the left: NSGA-II's best run, every other method's median run."""
    last = final(table[table["experiment"] == EXPERIMENT])
    chosen = {}
    for label, runs in last.groupby("label"):
        if (runs["method"] == REFERENCE_METHOD).all():
            chosen[label] = runs.loc[runs["hypervolume"].idxmax(), "trial_id"]
        else:
            gap = (runs["hypervolume"] - runs["hypervolume"].median()).abs()
            chosen[label] = runs.loc[gap.idxmin(), "trial_id"]
    return chosen


def fronts(points: pd.DataFrame, table: pd.DataFrame) -> pd.DataFrame:
    """The non-dominated points of each label's representative trial, sorted by the first objective."""
    frames = []
    for trial in representative_trials(table).values():
        run = points[(points["experiment"] == EXPERIMENT) & (points["trial_id"] == trial)]
        if run.empty:
            continue
        values = run[["value_0", "value_1"]].to_numpy()
        front = run[non_dominated(values, run["sense"].iloc[0])]
        frames.append(front[list(FRONT_COLUMNS)].sort_values("value_0"))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=list(FRONT_COLUMNS))


def reference_hypervolume(table: pd.DataFrame) -> float | None:
    """Final hypervolume of the best NSGA-II run, or None without NSGA-II runs."""
    last = final(table[(table["experiment"] == EXPERIMENT) & (table["method"] == REFERENCE_METHOD)])
    return None if last.empty else float(last["hypervolume"].max())


def hypervolume_curves(table: pd.DataFrame, reference: float | None) -> pd.DataFrame:
    """Mean (reference - hypervolume), or hypervolume without a reference, with 95% CI per label and evaluations."""
    data = table[(table["experiment"] == EXPERIMENT) & (table["method"] != REFERENCE_METHOD)].copy()
    if reference is not None:
        data["hypervolume"] = reference - data["hypervolume"]
    return curves(data, ["problem", "label"], "hypervolume")


def draw(front: pd.DataFrame, hv: pd.DataFrame, reference: float | None) -> Figure:
    fig, axes = common.panels(["fronts", "hypervolume"], height=2.8)
    left, right = axes["fronts"], axes["hypervolume"]
    if front.empty:
        common.empty_panel(left, "no multi-objective points in the pareto table")
    for label in common.ordered(front["label"]):
        pts = front[front["label"] == label]
        if (pts["method"] == REFERENCE_METHOD).all():
            # the attainment staircase: for maximisation the level left of a front point is that point's
            steps = "steps-pre" if pts["sense"].iloc[0] == "maximise" else "steps-post"
            left.plot(
                pts["value_0"],
                pts["value_1"],
                "-",
                color="black",
                lw=1.5,
                drawstyle=steps,
                label=f"{label} (reference)",
            )
        else:
            left.plot(pts["value_0"], pts["value_1"], "o", color=common.colour(label), ms=4, label=label)
    with_reference = (front["method"] == REFERENCE_METHOD).any()
    fronts_title = "Pareto fronts (NSGA-II: best run; others: median run)" if with_reference else (
        "Pareto front of each method's median run"
    )
    left.set(xlabel=OBJECTIVES[0], ylabel=OBJECTIVES[1], title=fronts_title)
    common.label_bands(right, hv, "num_evals", step=True)
    if reference is None:
        common.note("no NSGA-II runs: the right panel shows hypervolume, not the gap to a reference")
        right.set(ylabel=f"Hypervolume {HV_UNITS}", title="Hypervolume")
    else:
        common.log_scale_if_positive(right, hv["mean"])
        right.set(ylabel=f"Hypervolume gap to NSGA-II {HV_UNITS}", title="Hypervolume gap to the reference")
    right.set_xlabel(common.EVALUATIONS)
    if right.get_yscale() == "linear":
        right.ticklabel_format(axis="y", style="sci", scilimits=(-3, 3))  # short tick labels keep panels apart
    return common.titled(fig, "Battery electrode design: mean and 95% CI over seeds", axes.values())


def main(argv: list[str] | None = None) -> int:
    cli = common.parser("battery", __doc__.splitlines()[0])
    args = cli.parse_args(argv)
    if args.pareto is None:
        cli.error("the battery figure needs --pareto (written by analysis.data.tidy --pareto)")
    table = common.load_table(args.table)

    def figure() -> Figure:
        reference = reference_hypervolume(table)
        return draw(fronts(common.load_table(args.pareto), table), hypervolume_curves(table, reference), reference)

    missing = None if (table["experiment"] == EXPERIMENT).any() else f"No '{EXPERIMENT}' runs in {args.table}."
    return common.publish(args.out, figure, missing)


if __name__ == "__main__":
    raise SystemExit(main())
