"""Records -> one tidy table -> figures and tables in the paper directory (compute and plotting kept apart)."""


rule tidy:
    input:
        grid=f"{RESULTS}/grid.csv",
        records=all_records,
    output:
        table=f"{RESULTS}/tidy.parquet",
        pareto=f"{RESULTS}/pareto.parquet",
    log:
        f"{RESULTS}/logs/tidy.log",
    conda:
        ENV
    shell:
        "python -m analysis.data.tidy --grid {input.grid:q} --out {output.table:q} --pareto {output.pareto:q} > {log:q} 2>&1"


rule figure:
    input:
        table=f"{RESULTS}/tidy.parquet",
        pareto=f"{RESULTS}/pareto.parquet",
    output:
        png=report(f"{PAPER}/figures/{{figure}}.png", caption=CAPTION, category="Experiments"),
        pdf=f"{PAPER}/figures/{{figure}}.pdf",
    log:
        f"{RESULTS}/logs/figures/{{figure}}.log",
    wildcard_constraints:
        figure="|".join(FIGURES),
    params:
        caption=lambda wildcards: caption(wildcards.figure),  # for Snakemake's HTML report (CAPTION shows it)
        args=lambda wildcards: FIGURES[wildcards.figure].command,
        prefix=lambda wildcards, output: output.png[: -len(".png")],
    conda:
        ENV
    shell:
        "python -m analysis.figures.{params.args} --table {input.table:q} --pareto {input.pareto:q} "
        "--out {params.prefix:q} > {log:q} 2>&1"


rule illustration:
    output:
        png=report(f"{PAPER}/figures/{{figure}}.png", caption=CAPTION, category="Illustrations"),
        pdf=f"{PAPER}/figures/{{figure}}.pdf",
        # a run's own mark: the committed PNG alone would look up to date on a fresh clone and never be redrawn
        done=touch(f"{RESULTS}/illustrations/{{figure}}.done"),
    log:
        f"{RESULTS}/logs/figures/{{figure}}.log",
    wildcard_constraints:
        figure="|".join(ILLUSTRATIONS) or "(?!)",  # none in a study: a pattern that matches nothing
    params:
        caption=lambda wildcards: caption(wildcards.figure),
        module=lambda wildcards: ILLUSTRATIONS[wildcards.figure],
        prefix=lambda wildcards, output: output.png[: -len(".png")],
    conda:
        ENV
    shell:
        "python -m analysis.figures.{params.module} --seed 0 --out {params.prefix:q} > {log:q} 2>&1"


rule table:
    """Tables computed from the tidy table alone, as their scripts declare them (`analysis.tables.declared_comparisons`)."""
    input:
        f"{RESULTS}/tidy.parquet",
    output:
        csv=f"{PAPER}/tables/{{table}}.csv",
        tex=f"{PAPER}/tables/{{table}}.tex",
    wildcard_constraints:
        table="|".join(TABLES),
    log:
        f"{RESULTS}/logs/tables/{{table}}.log",
    params:
        script=lambda wildcards: TABLES[wildcards.table].script,
        prefix=lambda wildcards, output: output.csv[: -len(".csv")],
    conda:
        ENV
    shell:
        "python -m analysis.tables.{params.script} --table {input:q} --out {params.prefix:q} > {log:q} 2>&1"


rule per_trial:
    input:
        f"{RESULTS}/tidy.parquet",
    output:
        f"{PAPER}/tables/per_trial.csv",
    log:
        f"{RESULTS}/logs/tables/per_trial.log",
    conda:
        ENV
    shell:
        "python -m analysis.data.per_trial --table {input:q} --out {output:q} > {log:q} 2>&1"


rule per_iteration:
    """Each trial's metric after every iteration (`analysis.data.per_iteration`), committed for the anytime views."""
    input:
        f"{RESULTS}/tidy.parquet",
    output:
        f"{PAPER}/tables/{PER_ITERATION}",
    log:
        f"{RESULTS}/logs/tables/per_iteration.log",
    conda:
        ENV
    shell:
        "python -m analysis.data.per_iteration --table {input:q} --out {output:q} > {log:q} 2>&1"


rule anytime:
    """A run's anytime views from its per-iteration table alone: this run's (its report shows the evaluated and the
    recommended point's regret) and every published run's (the results site, workflow/rules/site.smk)."""
    input:
        f"{{published}}/tables/{PER_ITERATION}",
    output:
        png="{published}/figures/anytime_{view}.png",
        pdf="{published}/figures/anytime_{view}.pdf",
    wildcard_constraints:
        view="|".join(ANYTIME_VIEWS),
    log:
        "{published}/site_logs/anytime_{view}.log",
    params:
        args=lambda wildcards: ANYTIME_VIEWS[wildcards.view],
    localrule: True
    conda:
        ENV
    shell:
        "python -m analysis.figures.anytime {params.args} --table {input:q} "
        "--out {wildcards.published:q}/figures/anytime_{wildcards.view} > {log:q} 2>&1"


rule horizon_along:
    """An experiment read along its horizon (the config's `horizon`): claims 1 and 7's comparisons at each checkpoint."""
    input:
        f"{RESULTS}/tidy.parquet",
    output:
        csv=f"{PAPER}/tables/horizon_along.csv",
        tex=f"{PAPER}/tables/horizon_along.tex",
        png=f"{PAPER}/figures/horizon_along.png",
        pdf=f"{PAPER}/figures/horizon_along.pdf",
    log:
        f"{RESULTS}/logs/tables/horizon_along.log",
    params:
        table=lambda wildcards, output: output.csv[: -len(".csv")],
        figure=lambda wildcards, output: output.png[: -len(".png")],
        plan=lambda wildcards: horizon_args(),
    conda:
        ENV
    shell:
        "(python -m analysis.tables.horizon --table {input:q} --out {params.table:q} {params.plan} && "
        "python -m analysis.figures.horizon --table {input:q} --out {params.figure:q} {params.plan}) > {log:q} 2>&1"


rule claims:
    input:
        f"{PAPER}/tables/per_trial.csv",
    output:
        md=report(f"{PAPER}/claims.md", category="Claims"),
        csv=f"{PAPER}/claims.csv",
        tex=f"{PAPER}/claims.tex",
        comparisons=f"{PAPER}/tables/comparisons.csv",
    log:
        f"{RESULTS}/logs/tables/claims.log",
    params:
        prefix=lambda wildcards, output: output.md[: -len(".md")],
        looks=lambda wildcards: (
            "--looks " + " ".join(f"{e}={','.join(map(str, n))}" for e, n in LOOKS.items()) if LOOKS else ""
        ),
    conda:
        ENV
    shell:
        "python -m analysis.tables.claims_table --table {input:q} --out {params.prefix:q} {params.looks} "
        "--comparisons {output.comparisons:q} > {log:q} 2>&1"


rule declared:
    """The comparisons the config declares (`compare:`), decided by the claims' engine through the planned looks."""
    input:
        f"{PAPER}/tables/per_trial.csv",
    output:
        csv=f"{PAPER}/tables/declared.csv",
        md=f"{PAPER}/tables/declared.md",
    log:
        f"{RESULTS}/logs/tables/declared.log",
    params:
        prefix=lambda wildcards, output: output.csv[: -len(".csv")],
        config=CONFIGFILE,
        looks=lambda wildcards: (
            "--looks " + " ".join(f"{e}={','.join(map(str, n))}" for e, n in LOOKS.items()) if LOOKS else ""
        ),
    conda:
        ENV
    shell:
        "python -m analysis.tables.declared_comparisons --table {input:q} --config {params.config:q} --out {params.prefix:q} "
        "{params.looks} > {log:q} 2>&1"


rule confirmation:
    """The fresh-seed confirmation's pre-registered readings decided through its looks (`analysis.statistics.
    confirmation`, its plan committed before its first trial)."""
    input:
        f"{PAPER}/tables/per_trial.csv",
    output:
        f"{PAPER}/tables/confirmation.csv",
    log:
        f"{RESULTS}/logs/tables/confirmation.log",
    conda:
        ENV
    shell:
        "python -m analysis.statistics.confirmation --table {input:q} --out {output:q} > {log:q} 2>&1"


rule confirmation_figure:
    """The confirmation's readings on fresh seeds beside the exploratory run's, replicated filled
    (`analysis.figures.confirmation`)."""
    input:
        f"{PAPER}/tables/confirmation.csv",
    output:
        png=f"{PAPER}/figures/confirmation.png",
        pdf=f"{PAPER}/figures/confirmation.pdf",
    log:
        f"{RESULTS}/logs/figures/confirmation.log",
    params:
        out=lambda wildcards, output: output.png[: -len(".png")],
    conda:
        ENV
    shell:
        "python -m analysis.figures.confirmation --table {input:q} --out {params.out:q} > {log:q} 2>&1"


rule automatic:
    """The automatic temperature's pre-registered test per problem and variant, with its density diagnostics (only
    for a config that runs the test's experiments)."""
    input:
        comparisons=f"{PAPER}/tables/comparisons.csv",
        density=f"{PAPER}/tables/density.csv",
    output:
        csv=f"{PAPER}/tables/automatic.csv",
        tex=f"{PAPER}/tables/automatic.tex",
    log:
        f"{RESULTS}/logs/tables/automatic.log",
    params:
        prefix=lambda wildcards, output: output.csv[: -len(".csv")],
    conda:
        ENV
    shell:
        "python -m analysis.tables.automatic --comparisons {input.comparisons:q} --density {input.density:q} "
        "--out {params.prefix:q} > {log:q} 2>&1"


rule readme:
    """The generated sections of the README (claims at a glance) and, for the default run, of docs/results.md and
    docs/method.md (claims in full, cost and every published run's cost, B3O's density diagnostics); only when the config names a README."""
    input:
        claims=f"{PAPER}/claims.csv",
        density=f"{PAPER}/tables/density.csv",
        cost=f"{PAPER}/tables/run_times.csv",
        automatic=lambda wildcards: [f"{PAPER}/tables/automatic.csv"] if runs_automatic() else [],
        horizon=lambda wildcards: [f"{PAPER}/tables/horizon_along.csv"] if HORIZON else [],
        # the README's scores across problems are the run's that `analysis.data.published` names (config/extended.yaml's)
        scores=lambda wildcards: [path for path in [f"{PAPER}/tables/{SCORE_AGGREGATE}"]
                                  if path == published_runs.TABLES["scores"]],
    output:
        # a stamp: Snakemake removes a job's outputs before running it, and the README must be edited, not replaced
        touch(f"{RESULTS}/readme.done"),
    log:
        f"{RESULTS}/logs/readme.log",
    params:
        into=lambda wildcards: readme_files(),
        claims=lambda wildcards, input: published(PUBLISHED_CLAIMS, input.claims),
        tables=lambda wildcards, input: (
            f"--density {shlex.quote(input.density)} --cost {shlex.quote(input.cost)} "
            f"--run-costs {published(PUBLISHED_COSTS, input.cost)}"
            if RUN_NAME == "default"
            else ""
        )
        + "".join(f" --automatic {shlex.quote(path)}" for path in input.automatic)
        + "".join(f" --large-batch {shlex.quote(path)}" for path in input.horizon)
        + "".join(f" --scores {shlex.quote(path)}" for path in input.scores),
    conda:
        ENV
    shell:
        "python -m analysis.presentation.readme --into {params.into} --claims {params.claims} {params.tables} > {log:q} 2>&1"


rule run_times:
    input:
        grid=f"{RESULTS}/grid.csv",
        tidy=f"{RESULTS}/tidy.parquet",
    output:
        csv=f"{PAPER}/tables/run_times.csv",
        tex=f"{PAPER}/tables/run_times.tex",
    log:
        f"{RESULTS}/logs/tables/run_times.log",
    params:
        prefix=lambda wildcards, output: output.csv[: -len(".csv")],
    conda:
        ENV
    shell:
        "python -m analysis.tables.run_times --grid {input.grid:q} --tidy {input.tidy:q} --out {params.prefix:q} "
        "> {log:q} 2>&1"


rule scaling:
    output:
        f"{RESULTS}/scaling.csv",
    log:
        f"{RESULTS}/logs/scaling.log",
    threads: 2
    resources:
        mem_mb=8000,
        runtime=240,
    params:
        spec=scaling_spec(),
    conda:
        ENV
    shell:
        "b3o scaling --spec {params.spec:q} --out {output:q} 2> {log:q}"


rule timing_figure:
    input:
        f"{RESULTS}/scaling.csv",
    output:
        png=report(f"{PAPER}/figures/timing.png", caption=CAPTION, category="Cost"),
        pdf=f"{PAPER}/figures/timing.pdf",
    log:
        f"{RESULTS}/logs/figures/timing.log",
    params:
        caption=caption("timing"),
        prefix=lambda wildcards, output: output.png[: -len(".png")],
    conda:
        ENV
    shell:
        "python -m analysis.figures.timing --table {input:q} --out {params.prefix:q} > {log:q} 2>&1"


rule report_tex:
    """The report's LaTeX source, written from the run's tables and figures: a section for each part that was run."""
    input:
        unpack(report_inputs),
    output:
        f"{PAPER}/report.tex",
    log:
        f"{RESULTS}/logs/report_tex.log",
    params:
        paper=lambda wildcards, output: os.path.dirname(output[0]),
        scaling=lambda wildcards, input: ["--scaling", input.scaling] if "scaling" in input.keys() else [],
        config=CONFIGFILE,
        study="--study" if STUDY else "",  # a user's own study: its experiments only, no paper claims
    conda:
        ENV
    shell:
        "python -m analysis.report --paper {params.paper:q} {params.scaling:q} --config {params.config:q} "
        "{params.study} --out {output:q} > {log:q} 2>&1"


rule report_pdf:
    """The PDF of the report (only where latexmk is installed: tools/install-latex.sh)."""
    input:
        tex=f"{PAPER}/report.tex",
        figures=[f[: -len(".png")] + ".pdf" for f in figure_outputs() if f.endswith(".png")],
    output:
        report(f"{PAPER}/report.pdf", caption="../report/report_pdf.rst", category="Report"),
    log:
        f"{RESULTS}/logs/report_pdf.log",
    params:
        directory=lambda wildcards, output: os.path.dirname(output[0]),
        log=lambda wildcards: os.path.abspath(f"{RESULTS}/logs/report_pdf.log"),  # the command runs in the paper directory
    conda:
        ENV
    shell:
        "cd {params.directory:q} && latexmk -pdf -interaction=nonstopmode -halt-on-error report.tex > {params.log:q} 2>&1"


rule against_published:
    """This run's verdicts and final values against the published run's (`b3o verify --run`: nothing rerun); the
    workflow prints them last (the Snakefile's `onsuccess`)."""
    input:
        claims=f"{PAPER}/claims.csv",
        table=f"{PAPER}/tables/per_trial.csv",
        published=f"{PUBLISHED}/claims.csv",  # committed: PUBLISHED/tables/per_trial.csv beside it
    output:
        COMPARED,
    log:
        f"{RESULTS}/logs/against_published.log",
    params:
        run=lambda wildcards, input: os.path.dirname(input.claims),
        published=lambda wildcards, input: os.path.dirname(input.published),
    conda:
        ENV
    shell:
        "b3o verify --run {params.run:q} --published {params.published:q} --out {output:q} > /dev/null 2> {log:q}"


rule verify:
    """Rerun a seeded sample of the published trials and say which reproduce exactly (`b3o verify`); not part of the
    default target: `snakemake --cores 2 verify`."""
    input:
        f"{PUBLISHED}/tables/per_trial.csv",
    output:
        md=f"{PAPER}/verify.md",
        csv=f"{PAPER}/verify.csv",
    log:
        f"{RESULTS}/logs/verify.log",
    params:
        sample=config["verify_sample"],
        published=lambda wildcards, input: os.path.dirname(os.path.dirname(input[0])),  # the paper directory
        configfile=CONFIGFILE,
        work=f"{RESULTS}/verify",
    conda:
        ENV
    shell:
        "b3o verify --published {params.published:q} --configfile {params.configfile:q} --sample {params.sample} "
        "--work {params.work:q} --out {output.md:q} > /dev/null 2> {log:q}"
