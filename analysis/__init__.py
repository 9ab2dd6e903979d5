"""Trial records -> one tidy table -> summaries with 95% CIs -> the paper's figures and tables.

Grouped by job, each layer importing only those below it (tests/test_layering.py):
- `analysis.data`: records to tables. `tidy` flattens the JSON records listed in the workflow's grid table into one
  long parquet table (and the multi-objective points into a pareto table); `aggregate` gives means over seeds with
  seeded bootstrap CIs; `per_trial` and `per_iteration` keep what the claims and anytime views need (committed with
  every run); `published` says where the published tables live; `verify` reruns a sample of published trials.
- `analysis.statistics` and `analysis.claims`: what the tables say. The catalogue of the paper's quantitative claims,
  the verdict engine (`verdicts`: paired by seed, Holm-corrected; `sequential`, `looks` and `plans` for planned looks),
  verdicts along the budget, normalised scores and runtime ECDFs, Theorem 1 (`theory`) and Figs. 1-2's computations.
- `analysis.figures`, `analysis.tables`, `analysis.report`, `analysis.site` and `analysis.presentation`: what a reader
  sees. One script per figure or table, so changing a plot never touches a trial; the PDF report, the static site,
  the captions and the generated sections of README and docs/.
- `analysis.naming` and `analysis.formatting`: the display names and number formats every layer shares.

Every script has `--help`:
    python -m analysis.data.tidy --grid GRID.csv --out TIDY.parquet --pareto PARETO.parquet
    python -m analysis.figures.<regret|paired|diversity|lambda_ablation|sampler_ablation|battery|formula_e> \\
        --table TIDY.parquet [--pareto PARETO.parquet] --out paper/figures/<name> [figure options]
    python -m analysis.figures.timing --table SCALING.csv --out paper/figures/timing
    python -m analysis.figures.<illustration_1d|lambda_effect|theorem1> --seed 0 --out paper/figures/<name>
    python -m analysis.tables.<best_lambda|summary> --table TIDY.parquet --out paper/tables/<name>
    python -m analysis.data.per_trial --table TIDY.parquet --out paper/tables/per_trial.csv
    python -m analysis.tables.claims_table --table paper/tables/per_trial.csv --out paper/claims
    python -m analysis.presentation.readme --published   # README.md and docs/*.md from the committed tables under paper/
    python -m analysis.report --paper paper [--scaling SCALING.csv]   # paper/report.tex from all of the above
"""
