"""B3O reproduction workflow.

    snakemake --cores 2                                   # default: every experiment at reduced scale, under results/
    snakemake --cores 2 --config publish=True             # the same, published: into paper/, README.md and docs/
    snakemake --cores 2 --configfile config/smoke.yaml    # toy sizes, minutes (used by the tests)
    snakemake --profile profiles/slurm --configfile config/paper.yaml   # the paper's settings, on a cluster

Experiments in the config expand into a sparse trial grid (bench/grid.py); a job runs `trials_per_job` of its
trials in one process, each writing one record (b3o run-trials, resumable); records are aggregated into one tidy table
from which every figure and table is drawn into the run's paper directory (under `results` unless publishing).
"""

import os

from snakemake.utils import min_version, validate

from bench import config_check

min_version("9.0")


# --configfile replaces the default config instead of being merged into it (a smoke run must not inherit the
# default experiments).
if not workflow.overwrite_configfiles:

    configfile: "config/config.yaml"


# the config file this run read (the last --configfile overrides the others)
CONFIGFILE = os.path.relpath(workflow.overwrite_configfiles[-1]) if workflow.overwrite_configfiles else "config/config.yaml"

# one line per error on stderr, exit 2 (bench.config_check); Snakemake's `validate` then fills in the defaults. The
# names (a fraction of a second) are checked once, by the main process, not again by every job's
config_check.check(config, f"b3o workflow: {CONFIGFILE}", names=workflow.is_main_process)
validate(config, "workflow/schemas/config.schema.yaml")


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/trials.smk"
include: "workflow/rules/analysis.smk"
include: "workflow/rules/site.smk"


# Rules that take seconds run in the main Snakemake process, not as cluster jobs (a job costs scheduling and a
# Snakemake start-up). Trials, `tidy` (every record) and `scaling` (minutes of batches) go to the cluster.
localrules:
    all,
    grid,
    figure,
    illustration,
    table,
    look,
    per_trial,
    per_iteration,
    claims,
    readme,
    against_published,
    run_times,
    timing_figure,
    report_tex,
    report_pdf,


rule all:
    default_target: True
    input:
        final_inputs,


onsuccess:
    # the run's last lines: how its verdicts and numbers compare with the published run's (rule against_published)
    if COMPARE and os.path.exists(COMPARED):
        print(Path(COMPARED).read_text())
