#!/usr/bin/env bash
# Republish a run from its trial records, without running a trial: after one of a long run's looks has finished, or
# after the verdict rules changed. Re-decides the run (analysis.presentation.redecide), marks its fragile verdicts
# (analysis.presentation.fragile_marks), recomputes its site tables and
# figures (the site's per-run rules, workflow/rules/site.smk: scores, verdict strips, robust readings and, for a run
# read along its horizon, its headline), rebuilds its report (which shows them), checks the cost
# model per setting and look where the run keeps that check (tables/cost_check.csv), and rebuilds the site and the
# README's and docs' generated blocks. Run from anywhere; writes into this checkout.
#
#   tools/republish.sh CONFIG RECORDS WORK [LOOK]
#   tools/republish.sh config/large_batch.yaml /work/runs/large_batch/trials /work/runs/redecide-large_batch
#
# RECORDS is a directory of trial records (a run's trials/, or `b3o restore`'s); WORK takes the grid and tidy tables;
# LOOK publishes a sequential run as of that look, leaving out the later looks' records (a look published while the
# next one runs, whose settings would otherwise show different looks as each finishes).
# The run must be listed in workflow/site.yaml. Commit paper/, site/, README.md and docs/ afterwards, then run
# `python -m analysis.presentation.verdict_history` and commit again (the history of this publication itself).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 3 ] || [ $# -gt 4 ]; then sed -n 2,13p "$0" >&2; exit 2; fi
config=$1 records=$2 work=$3
look=()
[ $# -eq 4 ] && look=(--through-look "$4")
paper=$(python -c "import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))['paper'])" "$config")
python -c "import sys, yaml; sys.exit(sys.argv[1] not in yaml.safe_load(open('workflow/site.yaml'))['runs'])" "$paper" \
  || { echo "error: $paper is not a run of workflow/site.yaml" >&2; exit 2; }
# claims.md dates the verdict rules and the margins by their commits: from a tree where they have uncommitted changes
# it could only say that nothing can be dated, and that sentence would stay on the page once they are committed
python -c "import sys; from analysis.tables import dating; from problems import margins
sys.exit(dating.history(dating.RULES) is None or margins.margins_commit() is None)" \
  || { echo "error: the verdict rules or problems/margins.yaml have uncommitted changes (or no git history): commit" \
       "them first, so that $paper/claims.md can say when they were set" >&2; exit 2; }

python -m analysis.presentation.redecide --configfile "$config" --records "$records" --work "$work" "${look[@]}"
# The site's rules for this run only, from its committed tables. The smoke config's paper directory is not this run's,
# so the workflow treats the run's tables as sources and never plans its trials; targets go before --configfile,
# whose list a target would otherwise join.
snakemake "$paper/tables/scores.csv" "$paper/figures/score_profiles.png" "$paper/figures/anytime_verdicts.png" \
  "$paper/site_logs/robust.done" \
  --cores 1 --configfile config/smoke.yaml
# the report shows those tables and figures, so it is rebuilt after them, with the run's committed batch-timing table
# where it has one (the default run's scaling study: its timing figure and cost section)
scaling=()
[ -f "$paper/tables/scaling.csv" ] && scaling=(--scaling "$paper/tables/scaling.csv")
python -m analysis.presentation.redecide --configfile "$config" --records "$records" --work "$work" --report \
  "${look[@]}" "${scaling[@]}"
# its fragility table and claims.md block, after the last re-decision (each rewrites claims.md without it)
python -m analysis.presentation.fragile_marks --run "$paper"
# the committed cost model against the published looks' trials, per setting and look, where the run keeps that check
if [ -f "$paper/tables/cost_check.csv" ]; then
  b3o cost-model --results "$work" --model paper/tables/cost_model.csv --per-setting --looks "$config" \
    --validation "$paper/tables/cost_check.csv"
fi
python -m analysis.site --out site  # every run of workflow/site.yaml
python -m analysis.presentation.readme --published
# every claims.md's history block and docs/verdict-history.md, from git: run it again after committing, so that this
# publication's own moves are in it (`python -m analysis.presentation.verdict_history`)
python -m analysis.presentation.verdict_history
