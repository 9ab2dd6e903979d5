"""The paper's claims, checked against the per-trial table.

- `selection`: which methods a claim compares (`where`, `variant`, `but`, `Slot`, display names);
- `comparisons`: a paired comparison of two settings on one problem, the paired figure's table and the probability
  of improvement, with no claim in sight (the figures read these without importing the catalogue);
- `catalogue`: the claims as data (`CATALOGUE`);
- `checking`: every claim's comparisons and verdicts (`check`, `check_all`, `CLAIMS`, Table 2);
- `wording`: how a checked claim reads;
- `looks`, `plans`: the planned looks of a sequential experiment and the seed plans checked before a run, read
  against the claims they must decide; `verdicts_along`: the claims' verdicts along the budget; `verdict_size`: the
  size of the verdict rule simulated on the comparisons the claims make;
- `verify`: the rerun check of published records against their verdicts (`b3o verify`).
The verdict rules are in `analysis.statistics.verdicts` (below: nothing there imports a claim), the claims table in
`analysis.tables.claims_table`.
"""
