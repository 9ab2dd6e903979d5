"""A static results site: one page per published run directory and an index linking them (no server, no templates
engine: HTML is written from the run's CSVs with escaped strings, `analysis.site.html`).

    python -m analysis.site                                        # every run of workflow/site.yaml
    python -m analysis.site --paper paper --paper paper/extended --out site

Pages link the runs' figures and tables relatively (they are not copied), so the site lives beside the paper
directories, at the repository's root.
"""
