"""The generated sections of docs/ about the SVGP fit: what a paper-scale trial and the paper's grid cost, whether the
collapsed fit reaches the default fit's bound, why it optimises worse, whether its traced gradient is deterministic
and what a fit leaves in memory; one builder per section, from the committed table `analysis.data.published.TABLES` names for it."""

from __future__ import annotations

import math
from collections.abc import Callable

import pandas as pd

from analysis.formatting import number, signed
from analysis.naming import ACQUISITIONS, FITS, problem_title
from analysis.presentation.readme_blocks import generated


def paper_scale_cost_block(table: pd.DataFrame, source: str) -> str:
    """The measured pieces of a paper-scale B3O trial per N, and the trial's estimate from them."""
    measured = table[pd.to_numeric(table["N"], errors="coerce").notna()]
    estimate = table[pd.to_numeric(table["N"], errors="coerce").isna()].iloc[0]
    rows = [
        f"| {int(float(r['N'])):,} | {number(r['update_s'])} | {number(r['lbfgs_iteration_s'])} | "
        f"{number(r['acquire_s'])} | {int(r['density_calls'])} |"
        for _, r in measured.iterrows()
    ]
    binds = "runs to its iteration cap" if bool(estimate["maxiter_binds"]) else "stops before its iteration cap"
    return generated(
        "paper_scale_cost",
        source,
        ["| N | inducing-point update (s) | one L-BFGS iteration (s) | one B3O batch (s) | density calls |",
         "|---|---|---|---|---|", *rows, "",
         f"Summed over t = 1..50 by linear interpolation in N (a warm-started fit {binds}): "
         f"{number(estimate['total_min'])} min on a core of its own, {number(estimate['fit_s'] / 60)} min of it in "
         f"the fits and {number(estimate['acquire_s'])} s in the batches."],
    )


def paper_scale_trials_block(table: pd.DataFrame, source: str) -> str:
    """Measured paper-scale B3O trials: CPU minutes against the cost model's prediction (fitted with some of them,
    checked on the others), how their fits stopped, and their regret; per fit, as the model prices each fit apart."""
    fits = table["fit"].map(FITS)
    rows = [
        f"| {problem_title(r['problem'])} | B3O-{ACQUISITIONS.get(r['acquisition'], r['acquisition'])}-"
        f"{str(r['temperature'])[0]} | {int(r['seed'])} | {fit} | {r['cpu']} | "
        f"{number(r['cpu_min'])} ({number(r['fit_cpu_min'])}) | "
        f"{number(r['predicted_min'])} | {r['error']:+.0%} | {r['sample']}"
        f"{f' ({wall} fitted to wall seconds)' if isinstance(wall := r.get('wall_parts'), str) and wall else ''} | "
        f"{number(r['median_steps'])} | {int(r['converged'])} of {int(r['fits'])} | {number(r['final_regret'])} | "
        f"{number(r['peak_rss_mb'] / 1024)} |"
        for fit, (_, r) in zip(fits, table.iterrows())
    ]
    summary = []
    for fit, trials in table.groupby(fits, sort=False):
        errors = trials.loc[trials["sample"] == "held out", "error"]
        spread = (f"{errors.min():+.0%}" if len(errors) == 1 else f"{errors.min():+.0%} to {errors.max():+.0%}")
        summary.append(
            f"{fit} fit: slowest trial {number(trials['cpu_min'].max())} CPU minutes"
            + (f"; the model's prediction for the {len(errors)} trial{'s' if len(errors) > 1 else ''} it was not "
               f"fitted to errs by {spread}" if len(errors) else "") + "."
        )
    return generated(
        "paper_scale_trials",
        source,
        ["| problem | method | seed | fit | CPU | CPU min (fits) | predicted | error | sample | L-BFGS-B steps (median) | "
         "converged | final regret | peak GiB |",
         "|---|---|---|---|---|---|---|---|---|---|---|---|---|", *rows, "", " ".join(s[0].upper() + s[1:] for s in summary)],
    )


def paper_scale_bound_block(table: pd.DataFrame, source: str) -> str:
    """A measured trial's fits replayed with another fit on the same data (`bound_check.py`): whether the replayed
    fit's ELBO is at least the recorded one at every iteration, and what the replayed fits cost."""
    rows = []
    for (problem, recorded, replayed), fits in table.groupby(["problem", "recorded_fit", "replayed_fit"], sort=False):
        gap, n = fits["difference"], fits["n"]
        rows.append(
            f"| {problem_title(problem)} | {FITS.get(recorded, recorded)} | {FITS.get(replayed, replayed)} | "
            f"{len(fits)} ({n.min():,}–{n.max():,}) | {int((gap >= 0).sum())} of {len(fits)} | "
            f"{signed(gap.min())} / {signed(gap.median())} / {signed(gap.max())} | {number(fits['cpu_s'].sum() / 60)} |"
        )
    below = int((table["difference"] < 0).sum())
    verdict = ("at every iteration, the replayed fit's ELBO is at least the recorded one" if below == 0 else
               f"the replayed fit's ELBO is below the recorded one at {below} iteration(s), by more than a nat at "
               f"{int((table['difference'] < -1).sum())}")
    return generated(
        "paper_scale_bound",
        source,
        ["| problem | trial's fit | replayed with | fits (N) | replayed ≥ recorded | ELBO difference, nats (min / "
         "median / max) | replayed fits' CPU min |",
         "|---|---|---|---|---|---|---|", *rows, "", f"{verdict[0].upper()}{verdict[1:]}.", *_fresh(table)],
    )


def _fresh(table: pd.DataFrame) -> list[str]:
    """Where the check also fitted each iteration's data from a fresh start (`--fresh`): how often that reaches the
    recorded ELBO, and at what kernel variance, beside the recorded and the warm-started fits'."""
    if "fresh_elbo" not in table:
        return []
    gap = table["fresh_difference"]

    def span(column: str) -> str:
        return f"{number(table[column].min())}–{number(table[column].max())}"

    return ["", f"Fitted from a fresh start at each iteration instead (the model built on that iteration's data, as a "
            f"trial builds it at the start), the bound is at least the recorded ELBO at {int((gap >= 0).sum())} of "
            f"{len(table)} iterations ({signed(gap.min())} to {signed(gap.max())} nats), at kernel variance "
            f"{span('fresh_kernel_variance')}; the recorded fit's was {span('recorded_kernel_variance')} and the "
            f"warm-started fit's {span('kernel_variance')}."]


def paper_grid_block(table: pd.DataFrame, source: str) -> str:
    """config/paper.yaml's predicted cost with every SVGP fitted each way, and which way the config fits them."""
    rows = [
        f"| {r['fit']} | {r['configured']} | {int(r['trials']):,} | {r['core_hours']:,.0f} | {r['longest_min']:,.0f} "
        f"| {int(r['not_predicted'])} |"
        for _, r in table.iterrows()
    ]
    return generated("paper_grid", source, [
        "| SVGP fit | config/paper.yaml's SVGPs fitted so | trials | core-hours | longest trial (min) | not predicted |",
        "|---|---|---|---|---|---|", *rows,
    ])


def cost_one_machine_block(table: pd.DataFrame, source: str) -> str:
    """The default fit's constants refitted to one machine's whole trials (`tests/benchmarks/cost_one_machine.py`):
    its fit minutes per setting against the trials' and the model's it replaced, where it was fitted and where not."""
    rows = [
        f"| {r.sample} | {r.setting} | {int(r.trials)} | {number(r.measured_fit_min)} | {number(r.refitted_fit_min)} "
        f"| {r.refitted_error:+.0%} | {number(r.committed_fit_min)} | {r.committed_error:+.0%} |"
        for r in table.itertuples()
    ]
    held = table[table["setting"] == "all held out"].iloc[0]
    return generated("cost_one_machine", source, [
        "| records | setting | trials | measured fit (CPU min) | refitted (min) | error | earlier model (min) | error |",
        "|---|---|---|---|---|---|---|---|", *rows, "",
        f"On the {int(held.trials)} trials it was not fitted to, all on platform {table['platform'].iloc[0]}, the "
        f"refitted part errs by {held.refitted_error:+.0%} in total and the earlier one by "
        f"{held.committed_error:+.0%}.",
    ])


def fit_diagnosis_block(name: str) -> Callable[[pd.DataFrame, str], str]:
    """The builder of section NAME from `tests/benchmarks/fit_diagnosis.py`'s summary: per fit (per problem,
    acquisition and fit, for a run's), the final regrets, the seeds whose kernel variance ran away and what their model
    and batches looked like."""
    return lambda table, source: generated(name, source, _fit_diagnosis(table))


def _fit_diagnosis(table: pd.DataFrame) -> list[str]:
    per_setting = "problem" in table
    rows = [
        ("| " + (f"{problem_title(r.problem)} | {ACQUISITIONS.get(r.acquisition, r.acquisition)} | "
                 if per_setting else "")
         + f"{r.fit} | {int(r.seeds)} | {number(r.mean_final_regret)} | {number(r.median_final_regret)} | "
         f"{number(r.worst_final_regret)} | {number(r.median_kernel_variance)} | "
         f"{number(r.median_likelihood_variance)} | {r.fits_converged:.0%} | {int(r.runaway_seeds)} |")
        for r in table.itertuples()
    ]
    lines = [
        ("| problem | acquisition " if per_setting else "")
        + "| fit | seeds | mean final regret | median | worst | kernel variance at t = T (median) | noise variance "
        "| fits converged | seeds run away |",
        "|---|---|---|---|---|---|---|---|---|" + ("---|---|" if per_setting else ""),
        *rows,
    ]
    if "max_kernel_variance" in table and not table["runaway_seeds"].any():
        lines += ["", f"No seed's kernel variance passed {number(table['runaway_above'].max())} (a run away) at any "
                  f"iteration, with any fit; the largest was {number(table['max_kernel_variance'].max())}."]
    for r in table[table["runaway_seeds"] > 0].itertuples():
        lines += [
            "",
            f"With the {r.fit} fit, {int(r.runaway_seeds)} of {int(r.seeds)} seeds ran away: the kernel variance "
            f"reached {number(r.runaway_max_kernel_variance)} (the observations' scale is 1) and the lengthscales' "
            f"geometric mean {number(r.runaway_max_geomean_lengthscale)} times the box, a smooth trend of huge "
            f"amplitude; their batches were {number(r.runaway_mean_relative_diversity)} as diverse as a uniform "
            f"batch's (the other seeds' {number(r.others_mean_relative_diversity)}) and their mean final regret "
            f"{number(r.runaway_mean_final_regret)}. On the other seeds its median final regret is "
            f"{number(r.others_median_final_regret)}.",
        ]
    return lines


#: how the trace-determinism table names its objectives
FIT_OBJECTIVES = {"elbo": "SVGP ELBO (the default fit)", "collapsed": "collapsed bound (`fit: collapsed`)"}


def trace_determinism_block(table: pd.DataFrame, source: str) -> str:
    """Per objective, M and N: how many distinct gradients K fresh traces of the same loss gave, with TensorFlow's graph
    optimiser (Grappler) on and off (`tests/benchmarks/trace_determinism.py`)."""
    traces = int(table["traces"].max())
    wide = table.pivot_table(index=["objective", "num_inducing", "n"], columns="grappler",
                             values=["distinct_gradients", "all_equal_eager"], aggfunc="first")
    rows = [
        f"| {FIT_OBJECTIVES.get(objective, objective)} | {m} | {n:,} | {int(r[('distinct_gradients', True)])} | "
        f"{int(r[('distinct_gradients', False)])} | {'yes' if r[('all_equal_eager', False)] else 'no'} |"
        for (objective, m, n), r in wide.iterrows()
    ]
    return generated(
        "trace_determinism",
        source,
        [f"| objective | M | N | distinct gradients in {traces} traces, Grappler on | Grappler off | off = eager |",
         "|---|---|---|---|---|---|", *rows],
    )


def fit_memory_block(table: pd.DataFrame, source: str) -> str:
    """What each way of fitting leaves in memory after every fit (`fit_memory.py`): the resident memory after the
    first and the last of a run of fits on one dataset, the growth per fit and what 50 fits (a trial's) add, and
    whether the two collapsed ways reach the same losses bit for bit."""
    eager = table[table["fit"] == "collapsed"].set_index(["m", "n", "fit_number"])["loss"]
    rows, growth = [], {}
    for (m, n, fit), fits in table.groupby(["m", "n", "fit"], sort=False):
        fits = fits.sort_values("fit_number")
        per_fit = (fits["rss_mb"].iloc[-1] - fits["rss_mb"].iloc[0]) / (len(fits) - 1)
        growth[fit] = max(growth.get(fit, 0.0), per_fit)
        same = ("–" if fit == "collapsed" or not fit.startswith("collapsed") else
                "yes" if fits.set_index("fit_number")["loss"].equals(eager.loc[m, n]) else "no")
        rows.append(f"| {int(m)} | {int(n):,} | {fit} | {len(fits)} | {number(fits['rss_mb'].iloc[0])} | "
                    f"{number(fits['rss_mb'].iloc[-1])} | {signed(per_fit)} | {number(fits['cpu_s'].median())} | "
                    f"{same} |")
    traced = growth.get("collapsed, traced", math.nan)
    return generated(
        "fit_memory",
        source,
        ["| M | N | fit | fits | MB after the first | after the last | MB per fit | CPU s per fit (median) | "
         "same losses as eager |",
         "|---|---|---|---|---|---|---|---|---|", *rows, "",
         f"Traced at every fit, the collapsed bound kept up to {number(traced)} MB per fit, "
         f"{number(traced * 50 / 1024)} GiB over a trial's 50 fits; computed eagerly (as fitted now) it keeps "
         f"{signed(growth.get('collapsed', math.nan))} MB per fit at most."],
    )


def fit_memory_trials_block(table: pd.DataFrame, source: str) -> str:
    """A whole paper-scale trial fitted each way on one machine: CPU minutes, peak memory, and whether the records
    are the same apart from times."""
    traced, eager = table.iloc[0], table.iloc[-1]
    same = "the same record bit for bit apart from times" if bool(eager["same_as_first"]) else "a different record"
    return generated(
        "fit_memory_trials",
        source,
        [f"A whole paper-scale trial (Hartmann-6, B3O-LogEI-c, M = 500, T = 50) run each way, one after the other on "
         f"one machine: {same}, {number(eager['cpu_min'])} CPU minutes computed eagerly against "
         f"{number(traced['cpu_min'])} traced ({number(eager['fit_cpu_min'])} and {number(traced['fit_cpu_min'])} "
         f"in the fits), and a peak of {number(eager['peak_gib'])} GiB against {number(traced['peak_gib'])}."],
    )
