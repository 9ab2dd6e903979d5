#!/usr/bin/env bash
# `.ci/run` as CI runs it: on a clean clone of HEAD, in a fresh virtual environment, so that no package installed by
# hand (nor an earlier `.[slurm]`, whose plugin makes every Snakemake call wait ~10 s where no SLURM controller
# answers: docs/cluster.md) enters the suite's run or its time. Run as root (CI's LaTeX, Chromium and SLURM steps use
# apt-get). Usage: tools/ci-clean.sh [WORKDIR]; the suite's size and time are then WORKDIR/repo/results/ci/test_run.csv.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d /tmp/ci-clean-XXXX)}
git clone -q "$root" "$work/repo" || exit 1
# the shared data beside the checkout (the real track lines the Formula E tests read), where the checkout has it
[ -d "$root/../shared" ] && ln -sfn "$(cd "$root/../shared" && pwd)" "$work/shared"
python3 -m venv "$work/venv" || exit 1
# and a cache of its own: settings `b3o check-specs` passed in this user's earlier runs are not a fresh machine's
export VIRTUAL_ENV="$work/venv" PATH="$work/venv/bin:$PATH" XDG_CACHE_HOME="$work/cache"
cd "$work/repo" && .ci/run
status=$?
echo "tools/ci-clean.sh: .ci/run exited $status in $work/repo" >&2
exit "$status"
