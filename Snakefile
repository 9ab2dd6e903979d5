"""B3O reproduction workflow.

    snakemake --cores 2                                   # default: every experiment at reduced scale
    snakemake --cores 2 --configfile config/smoke.yaml    # toy sizes, minutes (used by the tests)
    snakemake --profile profiles/slurm --configfile config/paper.yaml   # the paper's settings, on a cluster

Experiments in the config expand into a sparse trial grid (baselines/grid.py); a job runs `trials_per_job` of its
trials in one process, each writing one record (b3o run-trials, resumable); records are aggregated into one tidy table
from which every figure and table is drawn into the paper directory.
"""

from snakemake.utils import min_version, validate

min_version("9.0")


# --configfile replaces the default config instead of being merged into it (a smoke run must not inherit the
# default experiments).
if not workflow.overwrite_configfiles:

    configfile: "config/config.yaml"



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
    run_times,
    timing_figure,
    report_tex,
    report_pdf,


rule all:
    default_target: True
    input:
        final_inputs,
