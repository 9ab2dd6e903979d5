#!/usr/bin/env bash
# Re-decide every published run of workflow/site.yaml from its committed per-trial table, without its records: after a
# change of the verdict rules that cannot change which trials a run's looks reach (one that only withholds verdicts,
# as the tail guard does: a look then keeps at least the settings open that it kept before, so the committed table
# still holds every trial the looks reach). A rule that could close a comparison sooner needs tools/republish.sh
# with the run's records instead. `python -m analysis.presentation.verdicts_moved` lists what would move first.
# Rewrites each run's claims tables and fragility block, the README's and docs' generated sections, the site and the
# verdict history; commit paper/, site/, README.md and docs/ afterwards, then run
# `python -m analysis.presentation.verdict_history` again and commit (the history of this publication itself).
#
#   tools/redecide-published.sh
set -euo pipefail
cd "$(dirname "$0")/.."
python - <<'PY' | while read -r run looks; do
import yaml
from pathlib import Path
from analysis.presentation.redecide import looks_arguments
for run, spec in yaml.safe_load(Path("workflow/site.yaml").read_text())["runs"].items():
    print(run, " ".join(looks_arguments(yaml.safe_load(Path(spec["config"]).read_text()))))
PY
  # shellcheck disable=SC2086  # the looks are separate arguments
  python -m analysis.tables.claims_table --table "$run/tables/per_trial.csv" --out "$run/claims" \
    ${looks:+--looks $looks} --comparisons "$run/tables/comparisons.csv" >/dev/null
  echo "re-decided $run"
done
python -m analysis.presentation.fragile_marks
python -m analysis.presentation.readme --published
python -m analysis.site --out site
python -m analysis.presentation.verdict_history
