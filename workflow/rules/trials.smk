"""One job per trial: run it from its spec (resuming from a checkpoint after a crash) and keep its record.

The spec travels as a parameter (inline JSON), not as a file written by a job of its own: a `run:` job costs a
Snakemake subprocess that re-parses the workflow, which for 260 specs took longer than many trials. The record
holds the spec, and a changed spec is a new trial id anyway.
"""


rule trial:
    output:
        f"{RESULTS}/trials/{{trial_id}}.json",
    log:
        f"{RESULTS}/logs/trials/{{trial_id}}.log",
    benchmark:
        f"{RESULTS}/benchmarks/trials/{{trial_id}}.tsv"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=240,
    params:
        spec=lambda wildcards: json.dumps(SPECS[wildcards.trial_id].to_dict(), separators=(",", ":")),
    conda:
        ENV
    shell:
        "OMP_NUM_THREADS={threads} TF_NUM_INTRAOP_THREADS={threads} TF_NUM_INTEROP_THREADS=1 "
        "b3o run-trial --spec {params.spec:q} --out {output:q} 2> {log:q}"


rule grid:
    output:
        f"{RESULTS}/grid.csv",
    log:
        f"{RESULTS}/logs/grid.log",
    params:
        rows=lambda wildcards: [{**row.as_row(), "record": record_path(row.spec.trial_id)} for row in GRID],
    run:
        pd.DataFrame(params.rows).to_csv(output[0], index=False)
