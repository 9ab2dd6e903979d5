#!/usr/bin/env bash
# The maintainers' long runs, resumed on any machine (a sitting's machine may be new): each from the frozen commit it
# started on (a git worktree under $RUNS/code-<commit>), its records outside the checkout, the archive's finished
# records and unfinished trials' checkpoints restored first (b3o restore), so every trial goes on where it stopped.
#
#   tools/resume-runs.sh [RUNS]          # default RUNS=/work/runs; then, before the sitting ends:
#   tools/resume-runs.sh --archive [RUNS]  # b3o archive --unfinished for every run; commit records/
#
# Pause a run: kill -STOP -- -$(cat RUNS/NAME.pgid); resume with -CONT; stop with -TERM (its trials keep their
# checkpoints). One core per run; the list below is the campaign as it stands, edited as runs start and finish.
set -euo pipefail
cd "$(dirname "$0")/.."
ARCHIVE_ONLY=0
if [ "${1:-}" = "--archive" ]; then ARCHIVE_ONLY=1; shift; fi
RUNS=${1:-/work/runs}
mkdir -p "$RUNS"

# name | frozen commit | how it runs (a config for snakemake, or a trial spec for b3o run-trial) | carry unfinished
# trials' checkpoints (only from code that records which platform made which iterations, daafd1d on: an older
# runner resuming elsewhere would write a record that names only the last platform)
RUN_LIST=(
  "large_batch|f37a79f|config/large_batch.yaml|no"
  "paper_scale|daafd1d|tests/benchmarks/paper_scale/b3o-logei-c.json|yes"
  "collapsed_fit_m500|0bd3955|config/collapsed_fit_m500.yaml|yes"
)

for entry in "${RUN_LIST[@]}"; do
  IFS='|' read -r name commit what carry <<< "$entry"
  results="$RUNS/$name"
  if [ "$ARCHIVE_ONLY" = 1 ]; then
    unfinished=$([ "$carry" = yes ] && echo --unfinished || true)
    [ -d "$results/trials" ] && b3o archive --results "$results" $unfinished
    continue
  fi
  code="$RUNS/code-$commit"
  [ -d "$code" ] || git worktree add --detach "$code" "$commit" > /dev/null
  [ -d "$results/trials" ] || b3o restore --results "$results"
  cd "$code"
  if [[ "$what" == *.yaml ]]; then
    PYTHONPATH="$code" snakemake --unlock --configfile "$what" --config results="$results" > /dev/null 2>&1 || true
    PYTHONPATH="$code" setsid nice -n 5 snakemake --cores 1 --keep-going --rerun-incomplete \
      --configfile "$what" --config results="$results" >> "$RUNS/$name.log" 2>&1 &
  else
    id=$(PYTHONPATH="$code" python -c "import json, sys; from baselines.spec import TrialSpec; \
print(TrialSpec.from_dict(json.load(open(sys.argv[1]))).trial_id)" "$what")
    # the trial, then its fits replayed from fresh starts and with the collapsed fit (docs/performance.md's bound check)
    PYTHONPATH="$code" setsid nice -n 5 bash -c "/usr/bin/time -v b3o run-trial --spec $what \
      --out $results/trials/$id.json && python tests/benchmarks/paper_scale/bound_check.py $results/trials/$id.json \
      --fit collapsed --fresh --out $results/bound.csv" >> "$RUNS/$name.log" 2>&1 &
  fi
  echo $! > "$RUNS/$name.pgid"
  echo "$name: running from $commit (pgid $(cat "$RUNS/$name.pgid")), log $RUNS/$name.log"
  cd - > /dev/null
done
