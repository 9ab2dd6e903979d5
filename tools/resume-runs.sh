#!/usr/bin/env bash
# The maintainers' long runs, resumed on any machine (a sitting's machine may be new): each from the frozen commit it
# started on (a git worktree under $RUNS/code-<commit>), its records outside the checkout, the archive's finished
# records and unfinished trials' checkpoints restored first (b3o restore), so every trial goes on where it stopped.
#
#   tools/resume-runs.sh [RUNS]          # default RUNS=/work/runs; then, before the sitting ends:
#   tools/resume-runs.sh --archive [RUNS]  # b3o archive --unfinished for every run; commit records/
#
# Pause a run: kill -STOP -- -$(cat RUNS/NAME.pgid); resume with -CONT; stop with -TERM (its trials keep their
# checkpoints). The list below is the campaign as it stands, in order of priority, edited as runs start and finish:
# each run gets its cores while the machine's (CORES, default nproc) last; the rest wait for a later sitting.
set -euo pipefail
cd "$(dirname "$0")/.."
ARCHIVE_ONLY=0
if [ "${1:-}" = "--archive" ]; then ARCHIVE_ONLY=1; shift; fi
RUNS=${1:-/work/runs}
mkdir -p "$RUNS"
left=${CORES:-$(nproc)}

# name | frozen commit | its config | carry unfinished
# trials' checkpoints (only from code that records which platform made which iterations, daafd1d on: an older
# runner resuming elsewhere would write a record that names only the last platform) | cores
RUN_LIST=(
  "large_batch|f37a79f|config/large_batch.yaml|no|2"
  "collapsed_fit_m500_confirm|45e802b|config/collapsed_fit_m500_confirm.yaml|yes|2"
)

for entry in "${RUN_LIST[@]}"; do
  IFS='|' read -r name commit what carry cores <<< "$entry"
  results="$RUNS/$name"
  if [ "$ARCHIVE_ONLY" = 1 ]; then
    unfinished=$([ "$carry" = yes ] && echo --unfinished || true)
    [ -d "$results/trials" ] && b3o archive --results "$results" $unfinished
    continue
  fi
  if [ "$cores" -gt "$left" ]; then echo "$name: waits (no core left)"; continue; fi
  left=$((left - cores))
  code="$RUNS/code-$commit"
  [ -d "$code" ] || git worktree add --detach "$code" "$commit" > /dev/null
  [ -d "$results/trials" ] || b3o restore --results "$results"
  cd "$code"
  PYTHONPATH="$code" snakemake --unlock --configfile "$what" --config results="$results" > /dev/null 2>&1 || true
  PYTHONPATH="$code" setsid nice -n 5 snakemake --cores "$cores" --keep-going --rerun-incomplete \
    --configfile "$what" --config results="$results" >> "$RUNS/$name.log" 2>&1 &
  echo $! > "$RUNS/$name.pgid"
  echo "$name: running from $commit (pgid $(cat "$RUNS/$name.pgid")), log $RUNS/$name.log"
  cd - > /dev/null
done
