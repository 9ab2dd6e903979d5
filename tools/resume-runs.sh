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
# each run gets its cores while the machine's (CORES, default nproc) last, and no two runs that share a results
# directory go at once. The rest wait in a queue (`--queue`, started in the background, log RUNS/queue.log) that
# starts each as soon as a run before it ends, so the cores do not idle until the next sitting; a run already going
# is left as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
MODE=resume
case "${1:-}" in --archive) MODE=archive; shift ;; --queue) MODE=queue; shift ;; esac
RUNS=${1:-/work/runs}
mkdir -p "$RUNS"
CORES=${CORES:-$(nproc)}

# name | frozen commit | its config (a path in the frozen tree; `@path`: this checkout's, for a plan extended after
# that commit, as Shekel-4 joins the paper-horizon run once Ackley-5 and Hartmann-6 reach their deciding look) | carry
# unfinished trials' checkpoints (only from code that records which platform made which iterations, daafd1d on: an
# older runner resuming elsewhere would write a record that names only the last platform) | cores | its results
# directory under RUNS (default: its name)
RUN_LIST=(  # Shekel-4's paper-horizon trials (f37a79f, results large_batch) finished on 2026-12-05
  # the fresh-seed confirmation (issue 78): its plan's commit 43596b2 (which predates its first trial) with the
  # confirmation's analysis alone on top (branch confirm-run, merged into main with `-s ours` so that it stays
  # reachable): the looks ask for seeds by its readings, the trials keep the method code of the plan's commit
  "large_batch_confirm|9ad1141cfb178e129380a54ace35287254f102fb|config/large_batch_confirm.yaml|yes|2"
)
# Runs of a committed script rather than of the workflow, one core each at a lower priority beside the list above:
# name | frozen commit | the script (a path in the frozen tree, given `--results RUNS/NAME`). Their results are one
# file, RUNS/NAME/rows.csv, kept in records/NAME/rows.csv by --archive and put back from there on resume (a sitting's
# machine may be new: the λ-default run lost 142 finished campaigns to one on 2026-12-06).
# (the λ-default check, 7d3a748, finished its 240 campaigns on 2026-12-06 and is published: docs/lambda-default.md)
SCRIPT_RUNS=()
[ ${#RUN_LIST[@]} -gt 0 ] || [ ${#SCRIPT_RUNS[@]} -gt 0 ] ||
  { echo "resume-runs: no run in the campaign's list (tools/resume-runs.sh)"; exit 0; }

b3o() {  # this checkout's own command, whatever `pip install -e` last wrote into the `b3o` script (its module moved:
  python -m bench.cli "$@"  # baselines.cli -> bench.cli, issue 70)
}

launcher() {  # launcher CODE: a directory whose `b3o` runs CODE's own command, put first on a frozen run's PATH so that
  local bin module=bench.cli  # its jobs' `b3o` runs the frozen tree's module, not the installed script's
  bin="$RUNS/bin-$(basename "$1")"
  [ -f "$1/bench/cli.py" ] || module=baselines.cli
  mkdir -p "$bin"
  printf '#!/bin/sh\nexec python -m %s "$@"\n' "$module" > "$bin/b3o"
  chmod +x "$bin/b3o"
  echo "$bin"
}

field() {  # field NUMBER ENTRY: one field of a RUN_LIST entry (the results directory defaults to the name)
  local name commit what carry cores results
  IFS='|' read -r name commit what carry cores results <<< "$2"
  local all=("$name" "$commit" "$what" "$carry" "$cores" "${results:-$name}")
  echo "${all[$1]}"
}

running() {  # running NAME: whether the run's process group is alive
  [ -f "$RUNS/$1.pgid" ] && kill -0 -- "-$(cat "$RUNS/$1.pgid")" 2> /dev/null
}

start() {  # start ENTRY: the run's snakemake in the background, in a process group of its own
  local name commit what cores results code
  name=$(field 0 "$1") commit=$(field 1 "$1") what=$(field 2 "$1") cores=$(field 4 "$1")
  results="$RUNS/$(field 5 "$1")" code="$RUNS/code-$commit"
  case $what in @*) what="$PWD/${what#@}" ;; *) what="$code/$what" ;; esac
  [ -d "$code" ] || git worktree add --detach "$code" "$commit" > /dev/null
  [ -d "$results/trials" ] || b3o restore --results "$results"
  (
    cd "$code"
    PATH="$(launcher "$code"):$PATH"
    # Snakemake itself, not a version manager's shim (pyenv's `exec` puts the interpreter's bin, with the installed
    # `b3o` script, back in front of the launcher on the jobs' PATH)
    local snakemake
    snakemake="$(dirname "$(python -c 'import sys; print(sys.executable)')")/snakemake"
    PYTHONPATH="$code" "$snakemake" --unlock --configfile "$what" --config results="$results" > /dev/null 2>&1 || true
    PYTHONPATH="$code" setsid nice -n 5 "$snakemake" --cores "$cores" --keep-going --rerun-incomplete \
      --configfile "$what" --config results="$results" >> "$RUNS/$name.log" 2>&1 &
    echo $! > "$RUNS/$name.pgid"
  )
  echo "$(date -u +%FT%TZ) $name: running from $commit on $cores core(s) (pgid $(cat "$RUNS/$name.pgid")), log $RUNS/$name.log"
  # what is left of it, by the cost model (a look not yet made in full)
  b3o estimate --configfile "$what" --results "$results" 2> /dev/null | grep -E "finished records|finished trial|^all|look [0-9]" || true
}

start_script() {  # start_script ENTRY: a script run from its frozen tree, its rows put back from records/ first
  local name commit script code results
  IFS='|' read -r name commit script <<< "$1"
  code="$RUNS/code-$commit" results="$RUNS/$name"
  running "$name" && return 0
  [ -d "$code" ] || git worktree add --detach "$code" "$commit" > /dev/null
  mkdir -p "$results"
  if [ ! -f "$results/rows.csv" ] && [ -f "records/$name/rows.csv" ]; then
    cp "records/$name/rows.csv" "$results/rows.csv"
    echo "restored records/$name/rows.csv into $results"
  fi
  (
    cd "$code"
    PYTHONPATH="$code" TF_CPP_MIN_LOG_LEVEL=3 setsid nice -n 10 python "$script" --results "$results" \
      >> "$RUNS/$name.log" 2>&1 < /dev/null &
    echo $! > "$RUNS/$name.pgid"
  )
  echo "$(date -u +%FT%TZ) $name: running $script from $commit (pgid $(cat "$RUNS/$name.pgid")), log $RUNS/$name.log"
}

archive_script() {  # archive_script ENTRY: the run's rows into records/NAME/rows.csv (commit it)
  local name
  IFS='|' read -r name _ _ <<< "$1"
  [ -f "$RUNS/$name/rows.csv" ] || return 0
  mkdir -p "records/$name"
  cp "$RUNS/$name/rows.csv" "records/$name/rows.csv"
  echo "archived $RUNS/$name/rows.csv ($(($(wc -l < "records/$name/rows.csv") - 1)) rows) into records/$name/rows.csv"
}

STARTED=" "
schedule() {  # one pass down the list: start every run not yet started whose cores are free; 1 while some wait
  local left=$CORES busy=" " entry name waiting=0
  for entry in "${RUN_LIST[@]}"; do
    name=$(field 0 "$entry")
    if running "$name"; then
      STARTED+="$name " busy+="$(field 5 "$entry") " left=$((left - $(field 4 "$entry")))
    fi
  done
  for entry in "${RUN_LIST[@]}"; do
    name=$(field 0 "$entry")
    case "$STARTED" in *" $name "*) continue ;; esac
    if [ "$(field 4 "$entry")" -gt "$left" ] || [[ "$busy" == *" $(field 5 "$entry") "* ]]; then
      waiting=1
      continue
    fi
    start "$entry"
    STARTED+="$name " busy+="$(field 5 "$entry") " left=$((left - $(field 4 "$entry")))
  done
  return $waiting
}

case $MODE in
  archive)
    for entry in "${SCRIPT_RUNS[@]}"; do archive_script "$entry"; done
    done_dirs=" "
    for entry in "${RUN_LIST[@]}"; do
      results="$RUNS/$(field 5 "$entry")"
      if [[ "$done_dirs" == *" $results "* ]] || [ ! -d "$results/trials" ]; then continue; fi
      done_dirs+="$results "
      unfinished=$([ "$(field 3 "$entry")" = yes ] && echo --unfinished || true)
      # shellcheck disable=SC2086  # no option or one
      b3o archive --results "$results" $unfinished
    done
    ;;
  queue)
    until schedule; do sleep 60; done
    ;;
  resume)
    for entry in "${SCRIPT_RUNS[@]}"; do start_script "$entry"; done
    if ! schedule; then
      [ -f "$RUNS/queue.pgid" ] && kill -- "-$(cat "$RUNS/queue.pgid")" 2> /dev/null || true
      setsid "$0" --queue "$RUNS" >> "$RUNS/queue.log" 2>&1 < /dev/null &
      echo $! > "$RUNS/queue.pgid"
      echo "the rest wait in a queue (pgid $(cat "$RUNS/queue.pgid")), log $RUNS/queue.log"
    fi
    ;;
esac
