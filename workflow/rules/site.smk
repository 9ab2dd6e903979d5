"""The results site (analysis.site): a static page per published run and an index, at site/ (no server).

    snakemake --cores 2 site/index.html

The published runs and the configs that ran them are listed in workflow/site.yaml (not the workflow's config, so any
--configfile builds the same site). Per run, the site's own tables and figures are computed from its committed CSVs
into its paper directory: normalised scores, verdicts along the budget, anytime views and score profiles. Pages link
figures and tables relatively, so site/ stays small and lives beside paper/.
"""

import re

import yaml

from analysis.site.build import (
    ANYTIME_FIGURES,
    PER_TRIAL,
    PER_TRIAL_PARQUET,
    SCORE_AGGREGATE,
    SCORE_FIGURE,
    SCORES,
    VERDICTS_ALONG,
    page_path,
)

# beside this file, whatever directory the workflow runs in (a user's study runs it elsewhere)
SITE = yaml.safe_load((Path(workflow.basedir) / "workflow" / "site.yaml").read_text())["runs"]
SITE_OUT = "site"


wildcard_constraints:
    published="|".join(re.escape(run) for run in SITE),


def site_inputs(wildcards):
    """Everything a run's page shows that the site's rules make, for every published run."""
    needed = []
    for run in SITE:
        needed += [f"{run}/claims.csv", f"{run}/tables/{SCORES}", f"{run}/tables/{SCORE_AGGREGATE}"]
        needed += [f"{run}/figures/{stem}.png" for stem in (SCORE_FIGURE, *ANYTIME_FIGURES)]
    return needed


rule scores:
    input:
        f"{{published}}/tables/{PER_TRIAL}",
    output:
        f"{{published}}/tables/{SCORES}",
        f"{{published}}/tables/{SCORE_AGGREGATE}",
    localrule: True
    conda:
        ENV
    shell:
        "python -m analysis.scores --table {input:q} --out {wildcards.published:q}/tables"


rule score_profiles:
    input:
        f"{{published}}/tables/{SCORES}",
    output:
        png=f"{{published}}/figures/{SCORE_FIGURE}.png",
        pdf=f"{{published}}/figures/{SCORE_FIGURE}.pdf",
    localrule: True
    conda:
        ENV
    shell:
        "python -m analysis.figures.score_profiles --table {input:q} --out {wildcards.published:q}/figures/" + SCORE_FIGURE


rule verdicts_along:
    """Each claim checked in full at each budget: minutes (workflow/site.yaml may restrict the claims)."""
    input:
        table=f"{{published}}/tables/{PER_TRIAL}",
        claims="{published}/claims.csv",
    output:
        f"{{published}}/tables/{VERDICTS_ALONG}",
    params:
        config=lambda wildcards: SITE[wildcards.published]["config"],
        only=lambda wildcards: " ".join(SITE[wildcards.published].get("verdicts_along", [])),
    conda:
        ENV
    shell:
        "python -m analysis.verdicts_along --table {input.table:q} --claims {input.claims:q} --config {params.config:q} "
        "$([ -n '{params.only}' ] && echo --only {params.only}) --out {output:q}"


rule anytime:
    """The metric and the runtime ECDF along the budget, from the per-trial table alone."""
    input:
        f"{{published}}/tables/{PER_TRIAL}",
    output:
        png="{published}/figures/anytime_{view}.png",
        pdf="{published}/figures/anytime_{view}.pdf",
    wildcard_constraints:
        view="metric|ecdf",
    localrule: True
    conda:
        ENV
    shell:
        "python -m analysis.figures.anytime --view {wildcards.view} --table {input:q} "
        "--out {wildcards.published:q}/figures/anytime_{wildcards.view}"


rule anytime_verdicts:
    input:
        f"{{published}}/tables/{VERDICTS_ALONG}",
    output:
        png="{published}/figures/anytime_verdicts.png",
        pdf="{published}/figures/anytime_verdicts.pdf",
    localrule: True
    conda:
        ENV
    shell:
        "python -m analysis.figures.anytime --view verdicts --verdicts {input:q} "
        "--out {wildcards.published:q}/figures/anytime_verdicts"


rule site:
    input:
        site_inputs,
    output:
        index=f"{SITE_OUT}/index.html",
        pages=[str(page_path(Path(run), Path(SITE_OUT))) for run in SITE],
        parquet=[f"{run}/tables/{PER_TRIAL_PARQUET}" for run in SITE],
    params:
        papers=" ".join(f"--paper {shlex.quote(run)}" for run in SITE),
    localrule: True
    conda:
        ENV
    shell:
        "python -m analysis.site {params.papers} --out {SITE_OUT}"
