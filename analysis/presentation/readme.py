"""Rewrite the generated sections of the README and of `docs/` from the workflow's tables, so no number in them is
copied by hand.

A section is the text between `<!-- NAME:begin -->` and `<!-- NAME:end -->`; everything else is left as it is. Each
section is rewritten in every given file that has its markers (and must be in one). Sections: `glance` (one line per
claim: its verdict from the largest run that measured it, the binding comparison's advantage and CI; from the
published claims tables), `claims` (the default run's claims in full, from its claims.csv), `run_costs` (each
published run's trials and core-minutes per experiment, from `--run-costs RUN=CSV ...`), and one section per table
option (`SECTIONS`: its builder, the columns it needs and the command that writes its table). Where a file has their
markers, a section's short forms (`EXTRA`: one sentence each, from the same table) are rewritten too; a section need
not be in any file whose short form is. A run's `rule readme` rewrites what it measured, e.g.
`python -m analysis.presentation.readme --into README.md docs/results.md docs/method.md --claims
default=paper/claims.csv
--density paper/tables/density.csv --cost paper/tables/run_times.csv` (any table may be left out; its section is then
kept). `python -m analysis.presentation.readme --published`, from the repository root, rewrites README.md and every page
of docs/ from the committed tables (`analysis.data.published`), docs/deviations.md whole from the configs
(`analysis.presentation.deviations`); tests/test_docs_generated.py checks that they are what it writes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from analysis.data import published
from analysis.naming import display_labels
from analysis.presentation.docs_blocks import (
    auto_choice_block,
    check_block,
    pinning_cost_block,
    same_fit_block,
    sampler_modes_block,
    sampler_modes_line_block,
    scaling_block,
    scaling_line_block,
    seq_ei_cost_block,
    ts_profile_block,
    typical_ratio_block,
    verify_rerun_block,
)
from analysis.presentation.fit_blocks import (
    cost_one_machine_block,
    fit_diagnosis_block,
    fit_memory_block,
    fit_memory_trials_block,
    paper_grid_block,
    paper_scale_bound_block,
    paper_scale_cost_block,
    paper_scale_trials_block,
    trace_determinism_block,
)
from analysis.presentation import deviations, fragile_marks, run_names
from analysis.presentation.glance import RUNS, glance_block
from analysis.presentation.readme_blocks import (
    has,
    rewrite_all,
    answer_block,
    automatic_block,
    automatic_goal_block,
    confirmation_block,
    cost_block,
    cost_check_block,
    cost_model_block,
    cost_model_line_block,
    density_block,
    generated,
    horizon_block,
    headline_block,
    large_batch_block,
    run_cost_block,
    run_costs_block,
    scores_block,
    test_run_block,
)
from analysis.presentation.size_blocks import (
    familywise_block, tail_guard_block, verdict_size_block, verdict_size_line_block,
)
from analysis.statistics import verdicts
from analysis.tables.claims_table import cell, paper_and_beyond, seeds_text


def _tally(verdicts_: pd.Series) -> str:
    return ", ".join(f"{v}: {k}" for v, k in verdicts_.value_counts().items())


def claims_block(table: pd.DataFrame, source: str) -> str:
    """The generated section: how a verdict is decided, the verdict counts, one row per claim."""
    paper, beyond = paper_and_beyond(table)
    counts = f"the paper's {len(paper)} claims: {_tally(paper['verdict'])}"
    if len(beyond):
        counts += f"; {len(beyond)} beyond the paper: {_tally(beyond['verdict'])}"
    needed = table["seeds_needed"].astype("Int64") if "seeds_needed" in table else pd.Series(pd.NA, index=table.index)
    binding = table["binding"] if "binding" in table else pd.Series("", index=table.index)
    rows = [
        f"| {n} | {cell(claim)} ({cell(where)}) | {cell(run)} | {verdict} | {cell(seeds_text(k, b))} |"
        for n, claim, where, run, verdict, k, b in zip(
            table["number"], table["claim"], table["source"], table["run"], table["verdict"], needed, binding
        )
    ]
    return generated(
        "claims",
        source,
        [
            " ".join(verdicts.RULES),
            "",
            f"Verdicts, {counts} (`{source}` has every comparison).",
            "",
            "| # | claim (where in the paper) | run | verdict | seeds to decide (binding comparison) |",
            "|---|---|---|---|---|",
            *rows,
        ],
    )


#: the columns of a claims table's comparisons (`claims_table --comparisons`) a pre-registered check's section reads
CHECK_COLUMNS = {"number", "name", "problem", "left", "right", "budget", "n", "mean", "lo", "hi", "margin", "verdict",
                 "seeds_needed"}
COST_COLUMNS = {"sample", "experiment", "trials", "measured_s", "predicted_s", "error"}  # `b3o cost-model --validation`
HEADLINE_COLUMNS = {"problem", "label", "rival", "n_init", "batch_size", "iterations", "checkpoints", "ahead_at", "t",
                    "verdict", "n", "wins", "share", "share_lo", "share_hi", "reading", "stuck", "stuck_n", "rival_stuck",
                    "rival_n", "k", "status"}
#: section -> (builder, columns its table must have, the command that writes the table)
SECTIONS = {
    "claims": (claims_block, {"number", "claim", "source", "run", "verdict"}, "python -m analysis.tables.claims_table"),
    **{name: (density_block(name), {"experiment", "problem", "label", "ess_fraction_min", "collapsed", "iterations"},
              "python -m analysis.tables.density") for name in ("density", "density_large_batch")},
    "verdict_size": (
        verdict_size_block,
        {"kind", "distribution", "sigma", "effect", "n", "rule", "rate", "replications"},
        "python -m analysis.claims.verdict_size",
    ),
    "confirmation": (
        confirmation_block,
        {"problem", "variant", "kind", "expect", "seen", "seeds", "for_variant", "for_rival", "status"},
        "python -m analysis.statistics.confirmation",
    ),
    "tail_guard": (
        tail_guard_block,
        {"case", "verdict", "n", "far_share", "replications", "rule_alone", "with_guard"},
        "python -m analysis.claims.tail_guard_size",
    ),
    "familywise": (
        familywise_block,
        {"looks", "family", "levels", "replications", "familywise_error", "mc_se"},
        "python -m analysis.statistics.familywise",
    ),
    "cost": (cost_block, {"experiment", "label", "trials", "total_s", "mean_s"}, "python -m analysis.tables.run_times"),
    "horizon": (
        horizon_block, {"problem", "label", "iteration", "n", "look_mean", "look_lo", "look_hi", "seeds_at_look", "verdict"},
        "python -m analysis.tables.horizon",
    ),
    "answer": (answer_block, HEADLINE_COLUMNS, "python -m analysis.tables.headline"),
    "headline": (
        headline_block,
        HEADLINE_COLUMNS,
        "python -m analysis.tables.headline",
    ),
    "large_batch": (
        large_batch_block,
        {"problem", "label", "iteration", "mean", "look_mean", "look_lo", "look_hi", "seeds_at_look", "verdict"},
        "python -m analysis.tables.horizon (config/large_batch.yaml's horizon)",
    ),
    "scores": (
        scores_block, {"experiment", "budget", "label", "problems", "runs", "mean", "lo", "hi"}, "python -m analysis.statistics.scores"
    ),
    "test_run": (
        test_run_block, {"tests", "passed", "skipped", "failed", "minutes", "date", "cpus"},
        "python -m analysis.tables.test_run",
    ),
    "automatic": (
        automatic_block,
        {"problem", "variant", "in_sample", "paper_lam", "auto_lambda_t_median", "mean", "lo", "hi", "margin", "n",
         "verdict", "auto_ess", "rival_ess", "auto_diversity", "rival_diversity"},
        "python -m analysis.tables.automatic",
    ),
    "cost_model": (cost_model_block, COST_COLUMNS, "b3o cost-model"),
    **{  # the committed model against a long run's records, per setting and look
        name: (cost_check_block(name), COST_COLUMNS,
               "b3o cost-model --model paper/tables/cost_model.csv --per-setting --looks CONFIG")
        for name in ("large_batch_cost", "collapsed_fit_m500_cost", "collapsed_fit_m500_confirm_cost",
                     "cost_one_machine_check")
    },
    **{name: (typical_ratio_block(name), {"problem", "left", "right", "n", "ratio", "ratio_lo", "ratio_hi", "p_holm",
              "verdict"}, "python -m analysis.tables.typical_ratio") for name in ("typical_ratio", "typical_ratio_look3")},
    "auto_choice": (
        auto_choice_block,
        {"temperature", "constant", "summed", "seeds", "tied", "chosen_constant", "chosen_candidate"},
        "python -m analysis.tables.auto_choice",
    ),
    "scaling": (
        scaling_block, {"method", "sampler", "acquisition", "batch_size", "seconds_median", "peak_rss_mb", "repeats",
                        "skipped"}, "b3o scaling",
    ),
    "pinning_cost": (
        pinning_cost_block, {"trial", "setting", "wall_s", "kernels"}, "python tests/benchmarks/pinning_cost.py"
    ),
    "same_fit": (
        same_fit_block, {"problem", "experiment", "vs_fastest"}, "python tests/benchmarks/same_fit_timings.py"
    ),
    "paper_scale_cost": (
        paper_scale_cost_block,
        {"N", "update_s", "lbfgs_iteration_s", "acquire_s", "density_calls", "fit_s", "total_min", "maxiter_binds"},
        "python tests/benchmarks/paper_scale_cost.py",
    ),
    "paper_scale_trials": (
        paper_scale_trials_block,
        {"problem", "acquisition", "temperature", "seed", "fit", "cpu", "cpu_min", "fit_cpu_min", "predicted_min", "error",
         "sample", "median_steps", "converged", "fits", "final_regret", "peak_rss_mb"},
        "python tests/benchmarks/paper_scale/trials.py",
    ),
    "paper_scale_bound": (
        paper_scale_bound_block,
        {"problem", "recorded_fit", "replayed_fit", "n", "difference", "cpu_s"},
        "python tests/benchmarks/paper_scale/bound_check.py",
    ),
    "paper_grid": (
        paper_grid_block, {"fit", "configured", "trials", "core_hours", "longest_min", "not_predicted"},
        "python tests/benchmarks/paper_scale/trials.py",
    ),
    "cost_one_machine": (
        cost_one_machine_block, {"sample", "setting", "trials", "measured_fit_min", "refitted_fit_min", "refitted_error",
                                 "committed_fit_min", "committed_error", "platform"},
        "python tests/benchmarks/cost_one_machine.py",
    ),
    "seq_ei_cost": (
        seq_ei_cost_block,
        {"start_mean_n", "start_s_per_step", "start_steps", "end_mean_n", "end_s_per_step", "end_steps", "steps",
         "predicted_hours", "slot_minutes", "slots_with_safety", "safety"},
        "python tests/benchmarks/paper_scale/seq_ei_cost.py",
    ),
    "ts_profile": (
        ts_profile_block,
        {"starts", "ask_cpu_s", "scoring_cpu_s", "rest_cpu_s", "batch_size", "num_data", "num_inducing",
         "random_starts_per_trajectory"},
        "python tests/benchmarks/ts_profile.py",
    ),
    "sampler_modes": (
        sampler_modes_block, {"target", "defer", "defer-is"}, "python tests/test_sampler_modes.py"
    ),
    "fit_memory": (
        fit_memory_block, {"fit", "m", "n", "fit_number", "rss_mb", "cpu_s", "loss"},
        "python tests/benchmarks/fit_memory.py",
    ),
    "fit_memory_trials": (
        fit_memory_trials_block, {"record", "cpu_min", "fit_cpu_min", "peak_gib", "same_as_first"},
        "python tests/benchmarks/fit_memory.py --trials",
    ),
    "trace_determinism": (
        trace_determinism_block,
        {"objective", "num_inducing", "n", "grappler", "traces", "distinct_gradients", "all_equal_eager"},
        "python tests/benchmarks/trace_determinism.py",
    ),
    **{
        check: (check_block(check), CHECK_COLUMNS, "python -m analysis.tables.claims_table --comparisons")
        for check in ("collapsed_fit", "collapsed_fit_m500", "collapsed_fit_m500_confirm", "ts_starts")
    },
    **{
        name: (fit_diagnosis_block(name), {
            "fit", "seeds", "mean_final_regret", "median_final_regret", "worst_final_regret", "median_kernel_variance",
            "median_likelihood_variance", "fits_converged", "runaway_seeds", "runaway_max_kernel_variance",
            "runaway_max_geomean_lengthscale", "runaway_mean_relative_diversity", "others_mean_relative_diversity",
            "runaway_mean_final_regret", "others_median_final_regret"}, "python tests/benchmarks/fit_diagnosis.py")
        for name in ("fit_diagnosis", "fit_diagnosis_m500", "fit_diagnosis_m500_confirm")
    },
    "verify_rerun": (
        verify_rerun_block, {"trial_id", "result", "same_platform", "rerun_platform"}, "b3o verify --exact-only"
    ),
}
#: a section's short forms, rewritten from the same table where a file has their markers (the section itself may then
#: be in none of the files)
EXTRA = {
    "cost": {"run_cost": run_cost_block},
    "automatic": {"automatic_goal": automatic_goal_block},
    "cost_model": {"cost_model_line": cost_model_line_block},
    "verdict_size": {"verdict_size_line": verdict_size_line_block},
    "scaling": {"scaling_line": scaling_line_block},
    "sampler_modes": {"sampler_modes_line": sampler_modes_line_block},
}
GLANCE_COLUMNS = {"number", "claim", "verdict", "binding", "binding_mean", "binding_lo", "binding_hi"}


def _read(source: str, columns: set[str], command: str) -> pd.DataFrame:
    """The table, its methods in the reader's names (a table written before labels were spelled as names)."""
    table = pd.read_csv(source)
    missing = columns - set(table.columns)
    if missing:
        raise ValueError(f"{source} lacks column(s) {sorted(missing)}: rerun {command}")
    return display_labels(table, ("label", "auto", "rival"))


def _pairs(pairs: list[str], option: str) -> dict[str, str]:
    """RUN=PATH arguments -> {run: path}, in the order given."""
    bad = [p for p in pairs if "=" not in p]
    if bad:
        raise ValueError(f"{option} takes RUN=CSV, got {bad}")
    return dict(pair.split("=", 1) for pair in pairs)


def _named(pairs: list[str]) -> dict[str, str]:
    """RUN=PATH arguments -> {run: path}; a run must be one of RUNS."""
    named = _pairs(pairs, "--claims")
    bad = [r for r in named if r not in RUNS]
    if bad:
        raise ValueError(f"--claims takes RUN=CSV with RUN one of {list(RUNS)}, got {bad}")
    return named


def _published(args: argparse.Namespace) -> None:
    """What `--published` means: README.md and docs/*.md, every published run's claims and run times and every
    committed table of `analysis.data.published` (one not yet committed keeps its section); what is given as well
    wins."""
    readme, docs = published.PAGES
    args.into = args.into or [readme, *sorted(str(page) for page in Path(docs).glob("*.md"))]
    args.claims = args.claims or [f"{run}={path}" for run, path in published.CLAIMS.items()]
    args.run_costs = args.run_costs or [f"{run}={path}" for run, path in published.COSTS.items()]
    for name, path in published.TABLES.items():
        if getattr(args, name) is None and Path(path).is_file():
            setattr(args, name, path)


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m analysis.presentation.readme", description=__doc__.splitlines()[0])
    cli.add_argument("--published", action="store_true",
                     help="from the repository root: every section from the committed tables (analysis.data.published)")
    cli.add_argument("--into", nargs="+", help="markdown files to rewrite in place (default: README.md; with "
                     "--published README.md and docs/*.md)")
    cli.add_argument("--claims", nargs="+", default=[], help="RUN=CSV claims tables (the first run's in full)")
    cli.add_argument("--run-costs", nargs="+", default=[], help="RUN=CSV run-time tables, one per published run")
    for name in SECTIONS:
        if name != "claims":
            cli.add_argument(f"--{name.replace('_', '-')}", dest=name, help=f"the table (CSV) of the {name} section")
    args = cli.parse_args(argv)
    if args.published:
        _published(args)
    args.into = args.into or ["README.md"]
    try:
        texts = {path: Path(path).read_text() for path in args.into}
        claims = {run: path for run, path in _named(args.claims).items() if Path(path).is_file()}
        if claims:
            command = SECTIONS["claims"][2]
            tables = {run: _read(path, GLANCE_COLUMNS, command) for run, path in claims.items()}
            names = {run: run_names.name(Path(path).parent) for run, path in claims.items()}
            fragile = {run: fragile_marks.fragile(Path(path).parent) for run, path in claims.items()}
            rewrite_all(texts, glance_block(tables, ", ".join(claims.values()), names, fragile), "glance")
            first = min(claims, key=RUNS.index)
            if has(texts, "claims"):  # the full claims live in docs/results.md, which only the default run rewrites
                rewrite_all(texts, claims_block(tables[first], claims[first]), "claims")
        costs = {run: path for run, path in _pairs(args.run_costs, "--run-costs").items() if Path(path).is_file()}
        if costs:
            command = SECTIONS["cost"][2]
            tables = {run: _read(path, SECTIONS["cost"][1], command) for run, path in costs.items()}
            rewrite_all(texts, run_costs_block(tables, ", ".join(costs.values())), "run_costs")
        for name, (build, columns, command) in SECTIONS.items():
            source = getattr(args, name, None)
            if name != "claims" and source is not None:
                table = _read(source, columns, command)
                shorts = {extra: block for extra, block in EXTRA.get(name, {}).items() if has(texts, extra)}
                if has(texts, name) or not shorts:  # with neither, rewrite_all says which markers are missing
                    rewrite_all(texts, build(table, source), name)
                for extra, block in shorts.items():
                    rewrite_all(texts, block(table, source), extra)
        for path in texts:  # the deviations page is generated whole, from the configs and the margins' rule
            if Path(path).resolve() == Path(deviations.OUT).resolve():
                texts[path] = deviations.page()
        for path, text in texts.items():
            Path(path).write_text(text)
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"rewrote the generated sections of {', '.join(args.into)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
