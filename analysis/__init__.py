"""Trial records -> one tidy table -> summaries with 95% CIs -> the paper's figures and tables.

`analysis.tidy` flattens the JSON records listed in the workflow's grid table into one long parquet table (one row
per experiment, trial and iteration) and the multi-objective points into a pareto table; `analysis.aggregate` turns
them into means with seeded bootstrap CIs over seeds; `analysis.figures.<name>` and `analysis.tables.<name>` each
draw one figure or write one table from those tables, so changing a plot never touches a trial. `analysis.per_trial`
keeps what the claims need (one row per trial and budget, committed with every run); `analysis.claims` holds the
catalogue of the paper's quantitative claims and `analysis.verdicts` decides them (paired by seed, Holm-corrected);
`analysis.theory` measures Theorem 1; `analysis.illustrations` computes Figs. 1-2 from the method itself. Every
script has `--help`:

    python -m analysis.tidy --grid GRID.csv --out TIDY.parquet --pareto PARETO.parquet
    python -m analysis.figures.<regret|paired|diversity|lambda_ablation|sampler_ablation|battery|formula_e> \\
        --table TIDY.parquet [--pareto PARETO.parquet] --out paper/figures/<name> [figure options]
    python -m analysis.figures.timing --table SCALING.csv --out paper/figures/timing
    python -m analysis.figures.<illustration_1d|lambda_effect|theorem1> --seed 0 --out paper/figures/<name>
    python -m analysis.tables.<best_lambda|summary> --table TIDY.parquet --out paper/tables/<name>
    python -m analysis.per_trial --table TIDY.parquet --out paper/tables/per_trial.csv
    python -m analysis.tables.claims_table --table paper/tables/per_trial.csv --out paper/claims
    python -m analysis.readme --published   # README.md and docs/*.md from the committed tables under paper/
    python -m analysis.report --paper paper [--scaling SCALING.csv]   # paper/report.tex from all of the above
"""
