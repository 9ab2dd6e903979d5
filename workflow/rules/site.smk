"""The results site (analysis.site): a static page per published run and an index, at site/ (no server).

    snakemake --cores 2 site/index.html

The published runs and the configs that ran them are listed in workflow/site.yaml (not the workflow's config, so any
--configfile builds the same site). Per run, the site's own tables and figures are computed from its committed CSVs
into its paper directory: normalised scores, verdicts along the budget (claims 1 and 7 along the checkpoints of a run
read along its horizon) and score profiles; this run's too, for its report; its anytime views come
from its committed per-iteration table (rule `anytime`, workflow/rules/analysis.smk). Pages link figures and tables
relatively, so site/ stays small and lives beside paper/.
"""

rule scores:
    input:
        f"{{published}}/tables/{PER_TRIAL}",
    output:
        f"{{published}}/tables/{SCORES}",
        f"{{published}}/tables/{SCORE_AGGREGATE}",
    log:
        "{published}/site_logs/scores.log",
    localrule: True
    conda:
        ENV
    shell:
        "python -m analysis.statistics.scores --table {input:q} --out {wildcards.published:q}/tables > {log:q} 2>&1"


rule score_profiles:
    input:
        f"{{published}}/tables/{SCORES}",
    output:
        png=f"{{published}}/figures/{SCORE_FIGURE}.png",
        pdf=f"{{published}}/figures/{SCORE_FIGURE}.pdf",
    log:
        "{published}/site_logs/score_profiles.log",
    params:
        out=lambda wildcards: f"{wildcards.published}/figures/{SCORE_FIGURE}",
    localrule: True
    conda:
        ENV
    shell:
        "python -m analysis.figures.score_profiles --table {input:q} --out {params.out:q} > {log:q} 2>&1"


rule verdicts_along:
    """Each claim checked in full at each budget: minutes (workflow/site.yaml may restrict the claims)."""
    input:
        unpack(horizon_inputs),
        table=f"{{published}}/tables/{PER_TRIAL}",
        claims="{published}/claims.csv",
    output:
        f"{{published}}/tables/{VERDICTS_ALONG}",
    log:
        "{published}/site_logs/verdicts_along.log",
    params:
        config=lambda wildcards: run_configfile(wildcards.published),
        only=lambda wildcards: " ".join(SITE.get(wildcards.published, {}).get("verdicts_along", [])),
        horizon=horizon_option,
    conda:
        ENV
    shell:
        "python -m analysis.claims.verdicts_along --table {input.table:q} --claims {input.claims:q} --config {params.config:q} "
        "$([ -n '{params.only}' ] && echo --only {params.only}) {params.horizon} --out {output:q} > {log:q} 2>&1"


rule anytime_verdicts:
    input:
        f"{{published}}/tables/{VERDICTS_ALONG}",
    output:
        png="{published}/figures/anytime_verdicts.png",
        pdf="{published}/figures/anytime_verdicts.pdf",
    log:
        "{published}/site_logs/anytime_verdicts.log",
    localrule: True
    conda:
        ENV
    shell:
        "python -m analysis.figures.anytime --view verdicts --verdicts {input:q} "
        "--out {wildcards.published:q}/figures/anytime_verdicts > {log:q} 2>&1"


rule site:
    input:
        site_inputs,
    output:
        index=f"{SITE_OUT}/index.html",
        glossary=f"{SITE_OUT}/glossary.html",
        pages=[str(page_path(Path(run), Path(SITE_OUT))) for run in SITE],
        parquet=[f"{run}/tables/{PER_TRIAL_PARQUET}" for run in SITE],
    log:
        f"{SITE_OUT}/site_logs/site.log",
    params:
        papers=" ".join(f"--paper {shlex.quote(run)}" for run in SITE),
        out=lambda wildcards, output: os.path.dirname(output.index),
    localrule: True
    conda:
        ENV
    shell:
        "python -m analysis.site {params.papers} --out {params.out:q} > {log:q} 2>&1"


rule study_site:
    """A user's study's own page (and an index of it), from everything its report is made from."""
    input:
        unpack(report_inputs),
        report=f"{PAPER}/report.tex",
    output:
        STUDY_SITE,
    log:
        f"{RESULTS}/logs/study_site.log",
    params:
        paper=lambda wildcards, input: os.path.dirname(input.report),
        config=CONFIGFILE,
        title=STUDY_TITLE.format(config=CONFIGFILE),
        out=lambda wildcards, output: os.path.dirname(output[0]),
    localrule: True
    conda:
        ENV
    shell:
        "python -m analysis.site --paper {params.paper:q} --config {params.config:q} --title {params.title:q} "
        "--out {params.out:q} > {log:q} 2>&1"


rule robust:
    """The robust readings beside a run's mean verdicts (`analysis.tables.robust`, rule in
    analysis/statistics/robust_readings.yaml): per comparison and per setting, and along the horizon where it has one."""
    input:
        unpack(robust_inputs),
    output:
        readings="{published}/tables/robust.csv",
        stuck="{published}/tables/robust_stuck.csv",
    log:
        "{published}/site_logs/robust.log",
    params:
        horizon=lambda wildcards, input: (
            f"--horizon {shlex.quote(input.horizon)} --per-iteration {shlex.quote(input.per_iteration)}"
            if "horizon" in input.keys() else ""
        ),
    localrule: True
    conda:
        ENV
    shell:
        "python -m analysis.tables.robust --table {input.table:q} --config {input.config:q} {params.horizon} "
        "--out {wildcards.published:q}/tables/robust > {log:q} 2>&1"


rule headline:
    """A horizon run's headline as numbers (`analysis.tables.headline`): the README's and the index's first paragraph."""
    input:
        unpack(horizon_readings_of),
        readings="{published}/tables/robust.csv",
        stuck="{published}/tables/robust_stuck.csv",
        table=f"{{published}}/tables/{PER_TRIAL}",
    output:
        "{published}/tables/headline.csv",
    log:
        "{published}/site_logs/headline.log",
    localrule: True
    conda:
        ENV
    shell:
        "python -m analysis.tables.headline --horizon {input.horizon:q} --robust {input.readings:q} "
        "--stuck {input.stuck:q} --table {input.table:q} --out {output:q} > {log:q} 2>&1"


rule seeds_along:
    """Every seed's TS − B3O difference at a horizon run's checkpoints (`analysis.figures.seeds_along`)."""
    input:
        unpack(horizon_readings_of),
    output:
        png="{published}/figures/seeds_along.png",
        pdf="{published}/figures/seeds_along.pdf",
    log:
        "{published}/site_logs/seeds_along.log",
    localrule: True
    conda:
        ENV
    shell:
        "python -m analysis.figures.seeds_along --table {input.per_iteration:q} --horizon {input.horizon:q} "
        "--out {wildcards.published:q}/figures/seeds_along > {log:q} 2>&1"


rule improvement_along:
    """P(B3O ends below TS) at a horizon run's checkpoints, decided or not (`analysis.figures.improvement_along`)."""
    input:
        readings="{published}/tables/robust.csv",
    output:
        png="{published}/figures/improvement_along.png",
        pdf="{published}/figures/improvement_along.pdf",
    log:
        "{published}/site_logs/improvement_along.log",
    localrule: True
    conda:
        ENV
    shell:
        "python -m analysis.figures.improvement_along --table {input.readings:q} "
        "--out {wildcards.published:q}/figures/improvement_along > {log:q} 2>&1"


rule robust_readings:
    """Everything `robust_outputs` names for a run, behind one target (tools/republish.sh asks for it)."""
    input:
        lambda wildcards: robust_outputs(wildcards.published),
    output:
        touch("{published}/site_logs/robust.done"),
    localrule: True
