"""The generated sections of docs/ that quote measurements beyond the claims: one builder per section (and per short
form), each from the committed table `analysis.data.published.TABLES` names for it; `analysis.presentation.readme`
rewrites them (`python -m analysis.presentation.readme --published`) with the markup of
`analysis.presentation.readme_blocks.generated`."""

from __future__ import annotations

import math
from collections.abc import Callable

import pandas as pd

from analysis.formatting import number, signed
from analysis.naming import ACQUISITIONS, problem_title
from analysis.presentation.readme_blocks import generated
from analysis.statistics import verdicts
from analysis.tables.auto_choice import CONSTANTS, PROBLEM

#: the methods of `b3o scaling` besides B3O, as a reader calls them
SCALING_METHODS = {"ts": "TS", "qei": "q-EI", "lp": "LP"}
#: the batch-time targets the scaling sentence checks: a B3O batch of 100 with DEFER within BATCH_S seconds,
#: `defer-is` within IMPORTANCE_COST times `defer`'s time, B3O at least SPEED_UP times faster than TS at B = 100, the
#: time at the largest B at most GROWTH times the time at B = 10, and every B3O configuration's peak memory (GiB)
BATCH_S, IMPORTANCE_COST, SPEED_UP, GROWTH, MEMORY_GIB = 1.0, 2.0, 5.0, 1.5, 1.5
#: the samplers whose speed and growth the scaling sentence gives (the paper's and the `b3o` method's default)
DEFER = ("defer", "defer-is")


def _series(row: pd.Series) -> str:
    if row["method"] != "b3o":
        return SCALING_METHODS.get(row["method"], row["method"])
    return f"B3O, `{row['sampler']}`, {ACQUISITIONS.get(row['acquisition'], row['acquisition'])}"


def _timed(table: pd.DataFrame) -> pd.DataFrame:
    return table.assign(series=table.apply(_series, axis=1), gib=table["peak_rss_mb"] / 1024)


def scaling_block(table: pd.DataFrame, source: str) -> str:
    """Seconds per batch against B for every method and B3O sampler (`b3o scaling`), the growth from B = 10 to the
    largest B, the peak memory, and why a B was skipped."""
    table = _timed(table)
    sizes = sorted(table["batch_size"].unique())
    rows, skipped = [], {}  # skipped: series -> why its larger B were not run
    for series, runs in table.groupby("series", sort=False):
        at = runs.set_index("batch_size")
        cells = [f"{number(at.loc[b, 'seconds_median'])} s" if b in at.index and at.loc[b, "seconds_median"] > 0
                 else "skipped" for b in sizes]
        growth = at.loc[sizes[-1], "seconds_median"] / at.loc[10, "seconds_median"] if 10 in at.index else math.nan
        rows.append(f"| {series} | " + " | ".join(cells) + f" | {number(growth)} | {runs['gib'].max():.2f} GiB |")
        for reason in runs["skipped"].dropna().unique():
            skipped.setdefault(series, reason)
    repeats = int(table["repeats"].max())
    lines = [
        f"Seconds per batch ({'median of ' + str(repeats) + ' repeats' if repeats > 1 else 'one repeat'}, after a "
        f"warm-up), t({sizes[-1]})/t(10), and the peak resident memory of the process:",
        "",
        "| method | " + " | ".join(f"B = {b}" for b in sizes) + f" | t({sizes[-1]})/t(10) | peak memory |",
        "|---" * (3 + len(sizes)) + "|",
        *rows,
    ]
    if skipped:
        lines += ["", "Skipped: " + "; ".join(f"{s}: {r}" for s, r in skipped.items()) + "."]
    return generated("scaling", source, lines)


def _met(ok: bool) -> str:
    return "met" if ok else "**not met**"


def scaling_line_block(table: pd.DataFrame, source: str) -> str:
    """The batch-time targets in one sentence: B3O with DEFER at B = 100 (alone, `defer-is` against `defer`, against
    TS), DEFER's growth with B, and the largest B3O peak memory."""
    table = _timed(table)
    defer = table[(table["method"] == "b3o") & table["sampler"].isin(DEFER)]
    at_100 = defer[defer["batch_size"] == 100].set_index(["sampler", "acquisition"])["seconds_median"]
    importance = (at_100[DEFER[1]] / at_100[DEFER[0]]).max()
    ts = table[(table["method"] == "ts") & (table["batch_size"] == 100)]["seconds_median"]
    ts_s = float(ts.iloc[0]) if len(ts) else math.nan
    largest = int(defer["batch_size"].max())
    times = [runs.set_index("batch_size")["seconds_median"] for _, runs in defer.groupby("series")]
    growth = [t[largest] / t[10] for t in times]
    b3o = table[table["method"] == "b3o"]
    memory = b3o["gib"].max()
    return generated(
        "scaling_line",
        source,
        [f"At B = 100, B3O with {' and '.join(f'`{s}`' for s in DEFER)} (UCB and LogEI) takes {number(at_100.min())}–"
         f"{number(at_100.max())} s per batch (target ≤ {BATCH_S:g} s: {_met(at_100.max() <= BATCH_S)}), `{DEFER[1]}` "
         f"at most {importance:.2f} times `{DEFER[0]}`'s time (target ≤ {IMPORTANCE_COST:g}×: "
         f"{_met(importance <= IMPORTANCE_COST)}), and TS {number(ts_s)} s: B3O is at least "
         f"{number(ts_s / at_100.max())}× faster (target ≥ {SPEED_UP:g}×: {_met(ts_s / at_100.max() >= SPEED_UP)}). "
         f"From B = 10 to B = {largest} their batch time changes by a factor {number(min(growth))}–"
         f"{number(max(growth))} (target ≤ {GROWTH:g}: {_met(max(growth) <= GROWTH)}). Every B3O configuration "
         f"peaks at "
         f"{memory:.2f} GiB or less up to B = {int(b3o['batch_size'].max())} (target ≤ {MEMORY_GIB:g} GiB: "
         f"{_met(memory <= MEMORY_GIB)})."],
    )


def pinning_cost_block(table: pd.DataFrame, source: str) -> str:
    """Per trial: median wall seconds pinned and native, their ratio and the BLAS kernels each used."""
    rows = []
    for trial, runs in table.groupby("trial", sort=False):
        by = runs.groupby("setting")
        wall, kernels = by["wall_s"].median(), by["kernels"].first()
        experiment, label, problem, seed = trial.split("/")
        rows.append(
            f"| {label} on {problem} ({experiment}, seed {seed}) | {int(by.size().min())} | {number(wall['pinned'])} "
            f"| {number(wall['native'])} | {wall['pinned'] / wall['native']:.2f} | {kernels['pinned']} / "
            f"{kernels['native']} |"
        )
    return generated(
        "pinning_cost",
        source,
        ["| trial | runs each | pinned (s, median) | native (s, median) | pinned / native | kernels pinned / native |",
         "|---|---|---|---|---|---|", *rows],
    )


def same_fit_block(table: pd.DataFrame, source: str) -> str:
    """The largest ratio of one setting's median first-fit time in one experiment to its fastest experiment."""
    worst = table.loc[table["vs_fastest"].idxmax()]
    return generated(
        "same_fit",
        source,
        [f"The same first fit (same problem, N₀, M and L-BFGS steps) took up to {worst['vs_fastest']:.2f} times as "
         f"long (median over trials) in one experiment as in another: {worst['problem']} in {worst['experiment']}."],
    )


def seq_ei_cost_block(table: pd.DataFrame, source: str) -> str:
    """Seq-EI at the paper's scale from its two timed slices: seconds per step, hours in all, slots needed."""
    r = table.iloc[0]
    return generated(
        "seq_ei_cost",
        source,
        [f"A step took {number(r['start_s_per_step'])} s at N ≈ {number(r['start_mean_n'])} ({int(r['start_steps'])} "
         f"steps) and {number(r['end_s_per_step'])} s at N ≈ {number(r['end_mean_n'])} ({int(r['end_steps'])} steps); "
         f"the {int(r['steps'])} steps then take {number(r['predicted_hours'])} h, {int(r['slots_with_safety'])} "
         f"slots of {number(r['slot_minutes'])} min with the safety factor {r['safety']:g}."],
    )


def ts_profile_block(table: pd.DataFrame, source: str) -> str:
    """CPU seconds of a TS batch and of its starts' scoring, per way of drawing the starts (median over repeats)."""
    first = table.iloc[0]
    rows = []
    for starts, runs in table.groupby("starts", sort=False):
        ask, scoring = runs["ask_cpu_s"].median(), runs["scoring_cpu_s"].median()
        rows.append(f"| {starts} | {len(runs)} | {number(ask)} | {number(scoring)} ({scoring / ask:.0%}) | "
                    f"{number(runs['rest_cpu_s'].median())} |")
    return generated(
        "ts_profile",
        source,
        [f"B = {int(first['batch_size'])}, N = {int(first['num_data'])}, M = {int(first['num_inducing'])}, "
         f"{int(first['random_starts_per_trajectory']):,} random starts per trajectory; CPU seconds, median over "
         "repeats:", "",
         "| starts | repeats | a batch | scoring the starts (share) | the rest |", "|---|---|---|---|---|", *rows],
    )


def _check(table: pd.DataFrame, source: str, name: str) -> str:
    """A pre-registered check's outcome from its comparisons table: per claim its verdict, per comparison the paired
    advantage of the left method, its CI, seeds and verdict."""
    lines = []
    for (claim_number, claim), rows in table.groupby(["number", "name"], sort=False):
        if lines:
            lines.append("")
        lines += [
            f"Claim {claim_number} (`{claim}`): **{verdicts.combine(list(rows['verdict']))}**.",
            "",
            "| problem | comparison | at evaluations | seeds | advantage [95% CI] | margin | verdict "
            "| seeds to decide |",
            "|---|---|---|---|---|---|---|---|",
            *(
                f"| {problem_title(r.problem)} | {r.left} vs {r.right} | {int(r.budget)} | {int(r.n)} | {signed(r.mean)} "
                f"[{number(r.lo)}, {number(r.hi)}] | {r.margin if isinstance(r.margin, str) else number(r.margin)} | "
                f"{r.verdict} | {'' if pd.isna(r.seeds_needed) else int(r.seeds_needed)} |"
                for r in rows.itertuples()
            ),
        ]
    return generated(name, source, lines)


def check_block(name: str) -> Callable[[pd.DataFrame, str], str]:
    """The builder of section NAME: a pre-registered check's outcome (`_check`)."""
    return lambda table, source: _check(table, source, name)


def verify_rerun_block(table: pd.DataFrame, source: str) -> str:
    """How many trials of the whole-run rerun gave their published value exactly, and on which platform ids."""
    exact = table["result"].eq("exact")
    same = table["same_platform"].astype(bool)
    platforms = ", ".join(sorted(set(table["rerun_platform"].astype(str))))
    differs = "" if exact.all() else f"; differs: {', '.join(table.loc[~exact, 'trial_id'])}"
    return generated(
        "verify_rerun",
        source,
        [f"{int(exact.sum())} of {len(table)} trials gave their published value exactly, {int(same.sum())} of them on "
         f"the published platform id (rerun on {platforms}){differs}."],
    )


def auto_choice_block(table: pd.DataFrame, source: str) -> str:
    """The tuning's choice: the candidate and its constant, the other candidate's constant with its ties, and whether
    the chosen constant is at the edge of its grid."""
    chosen = table[table["chosen_candidate"].astype(bool)].iloc[0]
    own = table[table["temperature"] == chosen["temperature"]].sort_values("constant")
    parameter = CONSTANTS.get(chosen["temperature"], "constant")
    sentences = [
        f"The candidate is `{chosen['temperature']}` with {parameter} = {chosen['constant']:g} (summed mean final "
        f"regret of B3O-LogEI and B3O-UCB {number(chosen['summed'])} on {PROBLEM}, {int(chosen['seeds'])} seeds)."
    ]
    for temperature, rows in table[table["temperature"] != chosen["temperature"]].groupby("temperature", sort=False):
        best = rows[rows["chosen_constant"].astype(bool)].iloc[0]
        others = rows["tied"].astype(bool) & ~rows["chosen_constant"].astype(bool)
        tied = [f"{c:g}" for c in rows.loc[others, "constant"]]
        tie = f", tied within the margin with {', '.join(tied)} and taken as the grid's middle" if tied else ""
        sentences.append(f"`{temperature}`'s own constant would have been {CONSTANTS.get(temperature, 'constant')} = "
                         f"{best['constant']:g}{tie}.")
    if chosen["constant"] == own["constant"].max() and own["summed"].is_monotonic_decreasing:
        sentences.append(f"`{chosen['temperature']}`'s summed regret falls across its whole grid, so "
                         f"{chosen['constant']:g}, the grid's largest value, may not be its best.")
    return generated("auto_choice", source, [" ".join(sentences)])


def _sampler_errors(table: pd.DataFrame) -> pd.DataFrame:
    return table.set_index("target")


def sampler_modes_block(table: pd.DataFrame, source: str) -> str:
    """Every sampler's worst mode-share error per target ("within": measured within the test's tolerance)."""
    errors = _sampler_errors(table)
    rows = [
        f"| `{target}` | " + " | ".join("within" if pd.isna(e) else f"{e:.3f}" for e in row) + " |"
        for target, row in errors.iterrows()
    ]
    return generated(
        "sampler_modes",
        source,
        ["| target | " + " | ".join(f"`{s}`" for s in errors.columns) + " |", "|---" * (1 + len(errors.columns)) + "|",
         *rows],
    )


def sampler_modes_line_block(table: pd.DataFrame, source: str) -> str:
    """`defer-is` against `defer` in one sentence: on how many targets its worst error is smaller, larger, or both
    within the tolerance."""
    errors = _sampler_errors(table)
    ours, plain = errors["defer-is"].fillna(0.0), errors["defer"].fillna(0.0)  # within tolerance: no error to speak of
    both = errors["defer-is"].isna() & errors["defer"].isna()
    better, worse = int((ours < plain).sum()), int(((ours > plain) & ~both).sum())
    return generated(
        "sampler_modes_line",
        source,
        [f"`defer-is` has the smaller worst mode-share error on {better} of the {len(errors)} exact targets, "
         f"`defer` on {worse}, and both are within the tolerance on {int(both.sum())}."],
    )


def typical_ratio_block(name: str) -> Callable[[pd.DataFrame, str], str]:
    """The builder of section NAME, the paper-horizon run's check of ours (`analysis.tables.typical_ratio`) on one
    look's seeds: per problem, each B3O variant's geometric-mean final regret against TS's, and the verdict of the four
    decided together."""
    reading = {"holds": "{left} typically ends lower than {right} (holds; ",
               "does not hold": "{left} typically ends higher than {right} (does not hold; ",
               "inconclusive": "{left} against {right} inconclusive ("}

    def build(table: pd.DataFrame, source: str) -> str:
        lines = []
        for problem, rows in table.groupby("problem", sort=False):
            parts = [f"{reading[r.verdict].format(left=r.left, right=r.right)}TS / B3O {number(r.ratio)} "
                     f"[{number(r.ratio_lo)}, {number(r.ratio_hi)}], {int(r.n)} seeds, p Holm {r.p_holm:.2g})"
                     for r in rows.itertuples()]
            lines.append(f"**{problem_title(problem)}**: " + "; ".join(parts) + ".")
        return generated(name, source, lines)

    return build
