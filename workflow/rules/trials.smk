"""Trial jobs: each runs `trials_per_job` trials (config; default 1 for the paper's configs, STUDY_TRIALS_PER_JOB
for a study: common.smk) in one `b3o run-trials` process, resuming any
from its checkpoint after a crash, and keeps one record per trial.

Several trials per job share the process start-up (interpreter, TensorFlow, trieste) and, on a cluster, the job's
scheduling and Snakemake start-up. A job's trials are seeds of one setting and of one planned look
(`bench.grid.trial_jobs`, `look_blocks`), so its size in trials is a fair measure of its cost and no job runs a
later look's seeds before that look has decided whether they are needed. A failed trial fails its job; the job's other finished records survive
Snakemake deleting its outputs (`bench.records.finished_copy`), so rerunning the job reruns only what failed.

The specs travel as a parameter (inline JSON), not as files written by jobs of their own: a `run:` job costs a
Snakemake subprocess that re-parses the workflow, which for a grid of hundreds of specs costs more than many trials. Each record holds
its spec, and a changed spec is a new trial id anyway. A job is a rule of its own, named after its first trial,
because Snakemake's rules with wildcards cannot have a variable number of outputs.
"""

for first, trial_ids in TRIAL_JOBS.items():

    rule:
        name:
            f"trials_{first}"
        output:
            [record_path(t) for t in trial_ids],
        log:
            f"{RESULTS}/logs/trials/{first}.log",
        benchmark:
            f"{RESULTS}/benchmarks/trials/{first}.tsv"
        threads: 1
        resources:
            **trial_resources(trial_ids),
        # a cluster job out of time resumes its trials from their checkpoints; on one machine none (`onstart` below)
        retries: trial_slots(tuple(trial_ids))[1]
        params:
            trials=trials_param(trial_ids),
        conda:
            ENV
        # `b3o run-trials` pins its numerical platform, one thread included (bench/numerics.py); on failure the log's
        # last 15 lines (the failed trials by name, their errors) go to the terminal, not only to the log file
        shell:
            "b3o run-trials --trials {params.trials:q} 2> {log:q} || {{ tail -n 15 {log:q} >&2; exit 1; }}"


onstart:
    # Retries are for a cluster's time limits (a job resubmitted resumes its trials). One machine has none, and an
    # error in a problem's or method's code fails the same way again: there a failed trial job fails at once. The
    # executor is known only now, after the rules were read, so the trial rules' retries are set here.
    if workflow.local_exec:
        for first in TRIAL_JOBS:
            workflow.get_rule(f"trials_{first}").restart_times = 0


checkpoint look:
    """One planned look of a sequential experiment: which settings still need seeds (`analysis.claims.looks`)."""
    input:
        lambda wildcards: [record_path(t) for t in look_trials(wildcards.experiment, int(wildcards.k))],
    output:
        f"{RESULTS}/looks/{{experiment}}/{{plan}}/look{{k}}.json",
    log:
        f"{RESULTS}/logs/looks/{{experiment}}/{{plan}}/look{{k}}.log",
    wildcard_constraints:
        k=r"\d+",
        plan=r"[0-9a-f]{12}",
    params:
        rows=lambda wildcards: look_rows(wildcards.experiment, int(wildcards.k)),
        looks=lambda wildcards: ",".join(map(str, LOOKS[wildcards.experiment])),
        # the experiment's declared comparisons (`compare:`), which keep their settings open too
        compare=lambda wildcards: json.dumps(config["experiments"][wildcards.experiment].get("compare", [])),
    conda:
        ENV
    shell:  # the rows on stdin: a look of a large experiment has more than one command-line argument may hold
        "python -m analysis.claims.looks --rows /dev/stdin --experiment {wildcards.experiment} --looks {params.looks} "
        "--compare {params.compare:q} "
        "--look {wildcards.k} --out {output:q} > {log:q} 2>&1 <<'ROWS'\n{params.rows}\nROWS"


rule grid:
    input:
        look_files,
    output:
        f"{RESULTS}/grid.csv",
    log:
        f"{RESULTS}/logs/grid.log",
    params:
        rows=lambda wildcards: grid_rows(),
    run:
        pd.DataFrame(params.rows).to_csv(output[0], index=False)
