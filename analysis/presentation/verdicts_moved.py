"""Which published verdicts today's engine would move: every run of workflow/site.yaml re-decided from its committed
per-trial table, compared with its committed claims and comparisons tables, nothing rewritten.

    python -m analysis.presentation.verdicts_moved [--runs paper/large_batch ...] [--out moved.csv]

After a change of the verdict rules, before republishing (`tools/republish.sh`, which re-decides from the records and
rewrites paper/): each run's claims are checked (`analysis.claims.checking.check_all`) on `RUN/tables/per_trial.csv`
(the default run's: `paper/tables/per_trial.csv`) through its config's planned looks, as the claims table is, and
every claim and comparison whose verdict differs from `RUN/claims.csv` and `RUN/tables/comparisons.csv` is listed.
The committed per-trial table holds the trials the looks reached under the rules of their day; a comparison the new
rules would keep open past a look whose seeds it lacks keeps its last look's statistics, as on republishing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd
import yaml

from analysis.claims import checking
from analysis.data import per_trial
from analysis.tables import claims_table
from bench.grid import sequential_experiments

SITE = Path("workflow/site.yaml")


def run_tables(run: str) -> tuple[Path, Path, Path]:
    """(per-trial table, claims table, comparisons table) of a published run directory."""
    return Path(run) / "tables/per_trial.csv", Path(run) / "claims.csv", Path(run) / "tables/comparisons.csv"


def moved(run: str, config: dict) -> pd.DataFrame:
    """One row per claim or comparison of `run` whose verdict today's engine gives differently."""
    table_path, claims_path, comparisons_path = run_tables(run)
    results = checking.check_all(per_trial.load(table_path), sequential_experiments(config))
    rows = []
    published = pd.read_csv(claims_path).set_index("name")["verdict"]
    for r in results:
        before = published.get(r.name)
        if before is not None and before != r.verdict:
            rows.append({"run": run, "claim": r.name, "comparison": "", "published": before, "now": r.verdict})
    if comparisons_path.is_file():
        key = ["name", "problem", "left", "right", "budget"]
        old = pd.read_csv(comparisons_path)
        new = claims_table.comparisons(results)
        if set(key) <= set(old.columns) and set(key) <= set(new.columns):
            old, new = (frame.assign(budget=pd.to_numeric(frame["budget"]).astype("Int64")) for frame in (old, new))
            # Table 2's cells name their λ alone ("λ=0.1 vs λ=5"), the same words in two variants' cells: such rows
            # pair by their order (the claims table writes both in one order)
            old, new = (frame.assign(occurrence=frame.groupby(key, dropna=False).cumcount()) for frame in (old, new))
            key = [*key, "occurrence"]
            both = old.astype({c: str for c in key}).merge(new.astype({c: str for c in key}), on=key,
                                                           suffixes=("_published", "_now"))
            for row in both[both["verdict_published"] != both["verdict_now"]].itertuples():
                rows.append({"run": run, "claim": row.name,
                             "comparison": f"{row.problem}: {row.left} vs {row.right} at {row.budget}",
                             "published": row.verdict_published, "now": row.verdict_now})
    return pd.DataFrame(rows, columns=["run", "claim", "comparison", "published", "now"])


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m analysis.presentation.verdicts_moved",
                                  description=__doc__.splitlines()[0])
    cli.add_argument("--runs", nargs="*", help="run directories of workflow/site.yaml (default: all)")
    cli.add_argument("--out", help="also write the moved verdicts to this CSV")
    args = cli.parse_args(argv)
    try:
        runs = yaml.safe_load(SITE.read_text())["runs"]
        chosen = args.runs or list(runs)
        unknown = [run for run in chosen if run not in runs]
        if unknown:
            raise ValueError(f"not runs of {SITE}: {', '.join(unknown)}")
        for run in chosen:
            missing = [str(p) for p in run_tables(run)[:2] if not p.is_file()]
            if missing:
                raise ValueError(f"{run} lacks {', '.join(missing)}")
        configs = {run: yaml.safe_load(Path(runs[run]["config"]).read_text()) for run in chosen}
    except (OSError, ValueError, KeyError, yaml.YAMLError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    frames = []
    for run in chosen:
        found = moved(run, configs[run])
        frames.append(found)
        print(f"{run}: {int((found['comparison'] == '').sum())} claim verdict(s) and "
              f"{int((found['comparison'] != '').sum())} comparison verdict(s) would move", flush=True)
        for row in found.itertuples():
            print(f"  {row.claim}{' / ' + row.comparison if row.comparison else ''}: {row.published} -> {row.now}",
                  flush=True)
    if args.out:
        pd.concat(frames, ignore_index=True).to_csv(args.out, index=False)
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
