#!/usr/bin/env bash
# The exact GP's fit ("fit gpr": a study of at most 500 points gets it, bench.model_spec.unnamed_model) and the
# evaluations of the two built-in problems no run had timed (Branin, Forrester), measured and added to the package's
# cost model without changing any constant it had (`b3o cost-model --extend`, as tools/cost-validation.sh adds the
# collapsed fit). Three B3O trials with an exact GP, N up to 500 (CPU seconds: the model's clock). Usage:
#   tools/cost-gpr.sh [WORK]      # minutes on one core; writes paper/tables/cost_model.csv
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${1:-$(mktemp -d)}
MODEL=paper/tables/cost_model.csv
mkdir -p "$WORK/trials"
b3o_params='{"acquisition": "ucb", "temperature": "constant", "lam": 1.0}'
trial() {  # problem, B, T, n_init, name
  echo "{\"spec\": {\"problem\": \"$1\", \"method\": \"b3o\", \"params\": $b3o_params, \"batch_size\": $2, \"iterations\": $3, \"n_init\": $4, \"seed\": 0, \"model\": {\"kind\": \"gpr\"}}, \"out\": \"$WORK/trials/$5.json\"}"
}
b3o run-trials --trials "[$(trial branin2 5 10 10 branin2), $(trial forrester1 5 10 10 forrester1)]"
b3o run-trials --trials "[$(trial hartmann6 20 24 20 hartmann6)]"
b3o cost-model --extend "$MODEL" --out "$MODEL" --validation "$WORK/cost_validation.csv" \
  --also "$WORK"/trials/branin2.json "$WORK"/trials/forrester1.json "$WORK"/trials/hartmann6.json
