"""One job per trial: write its spec, run it (resuming from a checkpoint after a crash), keep its record."""


rule trial_spec:
    output:
        f"{RESULTS}/specs/{{trial_id}}.json",
    log:
        f"{RESULTS}/logs/specs/{{trial_id}}.log",
    params:
        spec=lambda wildcards: json.dumps(SPECS[wildcards.trial_id].to_dict(), indent=1),
    run:
        with open(output[0], "w") as handle:
            handle.write(params.spec)


rule trial:
    input:
        f"{RESULTS}/specs/{{trial_id}}.json",
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
    conda:
        ENV
    shell:
        "OMP_NUM_THREADS={threads} TF_NUM_INTRAOP_THREADS={threads} TF_NUM_INTEROP_THREADS=1 "
        "b3o run-trial --spec {input} --out {output} 2> {log}"


rule grid:
    output:
        f"{RESULTS}/grid.csv",
    log:
        f"{RESULTS}/logs/grid.log",
    params:
        rows=lambda wildcards: [{**row.as_row(), "record": record_path(row.spec.trial_id)} for row in GRID],
    run:
        pd.DataFrame(params.rows).to_csv(output[0], index=False)
