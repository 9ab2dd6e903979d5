"""Where the published runs' tables are committed, paths from the repository root: the one list that the workflow's
`rule readme` (a run rewrites its own sections beside the others' committed tables) and
`python -m analysis.presentation.readme --published` (README.md and docs/ rewritten from what is committed) both read.
Imports nothing, so the workflow's parse stays cheap."""

from __future__ import annotations

#: the pages whose generated sections `--published` rewrites: the README and every page of docs/
PAGES = ("README.md", "docs")

#: run -> its claims table, smallest run first: this order is the glance table's (`analysis.presentation.glance`)
CLAIMS = {
    "default": "paper/claims.csv",
    "auto_temperature": "paper/auto_temperature/claims.csv",
    "extended": "paper/extended/claims.csv",
    "battery_temperature": "paper/battery_temperature/claims.csv",
    "large_batch": "paper/large_batch/claims.csv",
}

#: run -> its run-time table (docs/results.md's cost of every run reads them all)
COSTS = {
    "default": "paper/tables/run_times.csv",
    "auto_temperature": "paper/auto_temperature/tables/run_times.csv",
    "extended": "paper/extended/tables/run_times.csv",
    "horizon": "paper/horizon/tables/run_times.csv",
    "battery_temperature": "paper/battery_temperature/tables/run_times.csv",
    "large_batch": "paper/large_batch/tables/run_times.csv",
}

#: generated section (`analysis.presentation.readme.SECTIONS`) -> the committed table it is written from; a table not
#: yet committed (a run not yet published) leaves its section as it is
TABLES = {
    "density": "paper/tables/density.csv",
    "density_large_batch": "paper/large_batch/tables/density.csv",
    "verdict_size": "paper/tables/verdict_size.csv",
    "tail_guard": "paper/tables/tail_guard_size.csv",
    # the fresh-seed confirmation's decided readings: written once its first look is published (with the README's
    # `confirmation` markers, where its headline goes)
    "confirmation": "paper/large_batch_confirm/tables/confirmation.csv",
    "familywise": "paper/tables/familywise.csv",
    "cost": "paper/tables/run_times.csv",
    "horizon": "paper/horizon/tables/horizon.csv",
    "headline": "paper/large_batch/tables/headline.csv",
    "answer": "paper/large_batch/tables/headline.csv",
    "large_batch": "paper/large_batch/tables/horizon_along.csv",
    "scores": "paper/extended/tables/score_aggregate.csv",
    "test_run": "paper/tables/test_run.csv",
    "automatic": "paper/auto_temperature/tables/automatic.csv",
    "auto_choice": "paper/auto_temperature/tables/auto_choice.csv",
    "cost_model": "paper/tables/cost_validation.csv",
    "large_batch_cost": "paper/large_batch/tables/cost_check.csv",
    "scaling": "paper/tables/scaling.csv",
    "pinning_cost": "paper/tables/pinning_cost.csv",
    "same_fit": "paper/tables/same_fit_timings.csv",
    "paper_scale_cost": "paper/tables/paper_scale_cost.csv",
    "paper_scale_trials": "paper/tables/paper_scale_trials.csv",
    "paper_grid": "paper/tables/paper_grid_estimate.csv",
    "cost_one_machine": "paper/tables/cost_one_machine.csv",
    "typical_ratio": "paper/large_batch/tables/typical_ratio.csv",
    "typical_ratio_look3": "paper/large_batch/tables/typical_ratio_look3.csv",
    "paper_scale_bound": "paper/tables/paper_scale_bound.csv",
    "seq_ei_cost": "paper/tables/seq_ei_paper_scale.csv",
    "ts_profile": "paper/tables/ts_profile.csv",
    "trace_determinism": "paper/tables/trace_determinism.csv",
    "fit_memory": "paper/tables/fit_memory.csv",
    "fit_memory_trials": "paper/tables/fit_memory_trials.csv",
    "sampler_modes": "paper/tables/sampler_modes.csv",
    "collapsed_fit": "paper/collapsed_fit/tables/comparisons.csv",
    "collapsed_fit_m500": "paper/collapsed_fit_m500/tables/comparisons.csv",
    "collapsed_fit_m500_cost": "paper/collapsed_fit_m500/tables/cost_check.csv",
    "collapsed_fit_m500_confirm": "paper/collapsed_fit_m500_confirm/tables/comparisons.csv",
    "collapsed_fit_m500_confirm_cost": "paper/collapsed_fit_m500_confirm/tables/cost_check.csv",
    "cost_one_machine_check": "paper/large_batch_m500/tables/cost_one_machine_check.csv",
    "ts_starts": "paper/ts_starts/tables/comparisons.csv",
    "fit_diagnosis": "paper/tables/fit_diagnosis_summary.csv",
    "fit_diagnosis_m500": "paper/collapsed_fit_m500/tables/fit_diagnosis_summary.csv",
    "fit_diagnosis_m500_confirm": "paper/collapsed_fit_m500_confirm/tables/fit_diagnosis_summary.csv",
    "verify_rerun": "paper/verify_rerun.csv",
}
