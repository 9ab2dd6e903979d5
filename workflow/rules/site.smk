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
        "python -m analysis.statistics.verdicts_along --table {input.table:q} --claims {input.claims:q} --config {params.config:q} "
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
