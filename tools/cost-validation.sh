#!/usr/bin/env bash
# The committed cost model's checks (paper/tables/cost_validation.csv), rewritten from the archived records and the
# committed paper-scale trials, without refitting anything: after its constants change.
#
#   tools/cost-validation.sh [WORK]     # default WORK: a new temporary directory; writes paper/tables/cost_validation.csv
#
# Its rows: 'default run', the default run's records (records/default-rerun/, config/config.yaml), which every part
# but the default fit was fitted to (that part's constants are one machine's whole trials, tests/benchmarks/
# cost_one_machine.py); 'out of sample', the M = 500 check's trials (config/large_batch_m500.yaml), which no part saw;
# 'fitted' and 'held out', the collapsed fit's paper-scale trials (tests/benchmarks/paper_scale/), as that part was
# fitted (`--extend`, which leaves every constant as it is: the script fails if the model changes).
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${1:-$(mktemp -d)}
MODEL=paper/tables/cost_model.csv OUT=paper/tables/cost_validation.csv P=tests/benchmarks/paper_scale
mkdir -p "$WORK"
new="$WORK/cost_validation.csv"
rm -f "$new"
b3o restore --results "$WORK/default" --archive records/default-rerun --grid config/config.yaml
b3o cost-model --results "$WORK/default" --model "$MODEL" --sample "default run" --validation "$new"
b3o restore --results "$WORK/m500" --grid config/large_batch_m500.yaml
b3o cost-model --results "$WORK/m500" --model "$MODEL" --validation "$new"
b3o cost-model --extend "$MODEL" --out "$WORK/extended.csv" --validation "$new" \
  --also "$P/b3o-logei-c-collapsed.record.json" "$P/b3o-ucb-c-collapsed-ackley5.record.json" \
  --holdout "$P/b3o-logei-c-collapsed-ackley5.record.json" "$P/b3o-logei-s-collapsed-shekel4.record.json" \
  "$P/b3o-ucb-s-collapsed-hartmann6.record.json"
if ! cmp -s "$MODEL" "$WORK/extended.csv"; then
  echo "error: extending $MODEL with the collapsed fit's trials changed a constant; nothing written" >&2
  exit 1
fi
cp "$new" "$OUT"
echo "wrote $OUT"
