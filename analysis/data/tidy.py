"""Trial records listed in the grid table -> one long ("tidy") table, and the points of multi-objective trials.

The tidy table has one row per (experiment, trial, iteration): the grid's columns, the trace's scalars, the B3O
diagnostics that the figures use, and per-trial provenance. A trial listed under several experiments appears once
per experiment, so every figure can filter on `experiment` alone. Figures and tables read only this table (and the
pareto table), never the records: changing a plot never reopens hundreds of JSON files.

Run as `python -m analysis.data.tidy --grid GRID.csv --out TIDY.parquet [--pareto PARETO.parquet]`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.naming import display_labels
from b3o.degeneracy import density_lambda
from bench.records import TRACE_SCALARS, load_record, quarantine, record_platform

#: columns of the workflow's grid table (one row per experiment and trial)
GRID_COLUMNS = (
    "trial_id",
    "experiment",
    "label",
    "problem",
    "method",
    "acquisition",
    "temperature",
    "lam",
    "sampler",
    "batch_size",
    "iterations",
    "n_init",
    "seed",
    "record",
)
_GRID_INTEGERS = ("batch_size", "iterations", "n_init", "seed")
_GRID_STRINGS = tuple(c for c in GRID_COLUMNS if c not in (*_GRID_INTEGERS, "lam"))

#: per-iteration scalars copied from the trace (None -> NaN)
TRACE_COLUMNS = TRACE_SCALARS

#: tidy column -> key in the trace's `diagnostics` (B3O's; absent for baselines -> NaN)
DIAGNOSTIC_COLUMNS = {
    "lambda_t": "lambda_t",
    "num_acquisition_evals": "num_acquisition_evals",
    "sampler_seconds": "sampler_seconds",
    "acceptance_rate": "acceptance_rate",
    "rejection_rate": "rejection_rate",
    "ess": "ess",
    "ess_fraction": "ess_fraction",
    "alpha_range": "alpha_range",
    "alpha_scale": "alpha_scale",
    "alpha_p10_p90": "alpha_p10_p90",
    "relative_diversity": "relative_diversity",
    "density_seconds": "density_seconds",
    "num_density_calls": "num_density_calls",
}

#: columns constant within a trial: the grid's (less the record path) plus what the record adds
TRIAL_COLUMNS = tuple(c for c in GRID_COLUMNS if c != "record") + (
    "temperature_options",
    "sense",
    "problem_name",  # the problem object's own `name` (a user's problem is shown by it, not by its reference)
    "git_sha",
    "platform_id",
    "platform_detail",
    "finished_utc",
    "startup_s",
    "startup_cpu_s",
    "wall_s",
)

#: the regret of the point the method would recommend from a row's data (its `num_evals` evaluations: the trace's
#: recommendation of the next row, or the record's final one), beside `simple_regret`, the best evaluated point's
#: (NaN in records made before recommendations were recorded, and for multi-objective problems)
RECOMMENDED_COLUMNS = ("recommended_value", "recommended_regret")

#: the three lambdas: `lam` (grid: the configured lambda, or lambda0 when scheduled), `lambda_t` (the iteration's), and
#: `lambda_density` (lambda_t over the temperature's scale of alpha: what multiplies alpha in the density)
TIDY_COLUMNS = TRIAL_COLUMNS + TRACE_COLUMNS + tuple(DIAGNOSTIC_COLUMNS) + ("lambda_density", "num_failed") + RECOMMENDED_COLUMNS


def read_grid(grid_csv: str | Path) -> pd.DataFrame:
    """The grid table with fixed dtypes; a missing column is a clear error (B3O-only cells may be empty)."""
    return grid_frame(pd.read_csv(grid_csv, dtype={c: "str" for c in _GRID_STRINGS}), str(grid_csv))


def grid_frame(grid: pd.DataFrame, source: str = "grid") -> pd.DataFrame:
    """Grid rows (as the workflow writes them) with the grid table's dtypes, their labels spelled as the reader's
    names (`analysis.naming.display_labels`: every table made from them names methods alike)."""
    missing = [c for c in GRID_COLUMNS if c not in grid.columns]
    if missing:
        raise ValueError(f"{source}: grid table lacks column(s) {missing}; expected {list(GRID_COLUMNS)}")
    grid = grid.astype({c: "str" for c in _GRID_STRINGS if grid[c].notna().all()})
    grid["lam"] = pd.to_numeric(grid["lam"], errors="raise").astype("float64")
    for column in _GRID_INTEGERS:
        grid[column] = grid[column].astype("int64")
    return display_labels(grid[list(GRID_COLUMNS)])


def load_records(grid: pd.DataFrame, grid_dir: Path) -> dict[str, dict[str, Any]]:
    """Each distinct record of the grid, by its grid path; all missing records are named in one error.

    A relative path is taken from the working directory (where the workflow runs), else from the grid's folder.
    """
    paths = {p: _resolve(p, grid_dir) for p in grid["record"].unique()}
    missing = sorted(p for p, resolved in paths.items() if resolved is None)
    if missing:
        shown = "\n  ".join(missing[:20]) + (f"\n  ... and {len(missing) - 20} more" if len(missing) > 20 else "")
        raise FileNotFoundError(f"{len(missing)} trial record(s) listed in the grid do not exist:\n  {shown}")
    records, unusable = {}, []
    for p, resolved in paths.items():
        record, problem = load_record(resolved)
        if record is not None:
            records[p] = record
        else:
            unusable.append(f"{p} ({problem}) moved to {quarantine(resolved, problem).name}")
    if unusable:
        raise ValueError(
            f"{len(unusable)} trial record(s) could not be used and were moved aside; rerun the workflow to run "
            f"those trials again: {'; '.join(unusable[:5])}" + (f"; ... and {len(unusable) - 5} more" if len(unusable) > 5 else "")
        )
    expected = grid.drop_duplicates("record").set_index("record")["trial_id"]
    wrong = [
        f"{p} holds {records[p].get('trial_id')}, grid says {expected[p]}"
        for p in records
        if records[p].get("trial_id") != expected[p]
    ]
    if wrong:
        raise ValueError("record(s) do not hold the grid's trial:\n  " + "\n  ".join(wrong))
    return records


def _resolve(path: str, grid_dir: Path) -> Path | None:
    for candidate in (Path(path), grid_dir / path):
        if candidate.is_file():
            return candidate
    return None


def _number(value: Any) -> float:
    return np.nan if value is None else float(value)


def _recommendations(record: dict[str, Any]) -> dict[int, tuple[Any, Any]]:
    """Evaluations chosen among -> (value, regret) of the recommended point, from the trace and the final one."""
    made = {
        row["recommended_evals"]: (row["recommended_value"], row["recommended_regret"])
        for row in record["trace"]
        if "recommended_evals" in row
    }
    final = record.get("final_recommendation")
    if final:
        made[final["evals"]] = (final["value"], final["regret"])
    return made


def platform_detail(provenance: dict[str, Any]) -> str:
    """What a record says of the machine and software it ran on, as JSON: the CPU model, the OS, the library
    versions and the BLAS libraries with their kernels and threads ("{}" for a record made before they were
    recorded). The provenance table describes each platform id with it."""
    numerics = provenance.get("numerics") or {}
    detail = {
        "cpu": (numerics.get("cpu") or {}).get("model"),
        "os": provenance.get("platform"),
        "versions": provenance.get("versions"),
        "blas": [
            {k: lib.get(k) for k in ("internal_api", "version", "architecture", "num_threads")}
            for lib in numerics.get("blas") or []
        ],
    }
    return json.dumps({k: v for k, v in detail.items() if v}, sort_keys=True)


def _trace_rows(record: dict[str, Any]) -> Iterator[dict[str, Any]]:
    recommended = _recommendations(record)
    for row in record["trace"]:
        diagnostics = row.get("diagnostics") or {}
        value, regret = recommended.get(row.get("num_evals"), (None, None))
        yield {
            **{c: _number(row.get(c)) for c in TRACE_COLUMNS},
            **{c: _number(diagnostics.get(key)) for c, key in DIAGNOSTIC_COLUMNS.items()},
            "lambda_density": _number(
                None if "lambda_t" not in diagnostics
                else density_lambda(diagnostics["lambda_t"], diagnostics.get("alpha_scale"))
            ),
            "num_failed": float(np.sum(row.get("failed") or [])),
            "recommended_value": _number(value),
            "recommended_regret": _number(regret),
        }


def load(grid_csv: str | Path) -> tuple[pd.DataFrame, dict[str, dict[str, Any]]]:
    """The grid table and its records (each read once, however many experiments list it)."""
    grid = read_grid(grid_csv)
    return grid, load_records(grid, Path(grid_csv).parent)


def tidy_table(grid: pd.DataFrame, records: dict[str, dict[str, Any]]) -> pd.DataFrame:
    """One row per (experiment, trial, iteration); see the module docstring."""
    per_record = {
        path: pd.DataFrame(list(_trace_rows(record))).assign(
            # an automatic temperature's own constant (e.g. {"per_sample": 2}), as JSON; "{}" where none is set
            temperature_options=json.dumps(record["spec"].get("params", {}).get("temperature_options") or {},
                                           sort_keys=True),
            sense=record["problem"]["sense"],
            problem_name=record["problem"].get("name"),
            git_sha=(record.get("provenance") or {}).get("git_sha"),
            platform_id=record_platform(record) or None,
            platform_detail=platform_detail(record.get("provenance") or {}),
            finished_utc=(record.get("provenance") or {}).get("finished_utc"),
            startup_s=_number(record.get("startup_s")),
            startup_cpu_s=_number(record.get("startup_cpu_s")),
            wall_s=_number(record.get("wall_s")),
        )
        for path, record in records.items()
    }
    frames = [
        per_record[row["record"]].assign(**{c: row[c] for c in GRID_COLUMNS if c != "record"})
        for row in grid.to_dict("records")
    ]
    if not frames:
        return pd.DataFrame(columns=list(TIDY_COLUMNS))
    table = pd.concat(frames, ignore_index=True)[list(TIDY_COLUMNS)]
    table[["iteration", "num_evals"]] = table[["iteration", "num_evals"]].astype("int64")
    return table.sort_values(["experiment", "label", "problem", "seed", "trial_id", "iteration"], ignore_index=True)


def pareto_table(grid: pd.DataFrame, records: dict[str, dict[str, Any]]) -> pd.DataFrame:
    """Every non-failed evaluated point of the multi-objective trials, objective values in natural units.

    Columns: the trial's grid columns, `sense`, `iteration` (0 = initial design) and `value_0`, `value_1`, ...
    """
    frames = []
    for row in grid.to_dict("records"):
        record = records[row["record"]]
        if record["problem"]["num_objectives"] < 2:
            continue
        for step in record["trace"]:
            values = np.asarray(step["values"], dtype=np.float64)
            kept = values[~np.asarray(step["failed"], dtype=bool)]
            frame = pd.DataFrame(kept, columns=[f"value_{k}" for k in range(values.shape[1])])
            frames.append(
                frame.assign(
                    iteration=step["iteration"],
                    # an automatic temperature's own constant (e.g. {"per_sample": 2}), as JSON; "{}" where none is set
            temperature_options=json.dumps(record["spec"].get("params", {}).get("temperature_options") or {},
                                           sort_keys=True),
            sense=record["problem"]["sense"],
                    **{c: row[c] for c in TRIAL_COLUMNS if c in row},
                )
            )
    if not frames:
        per_record = ("problem_name", "git_sha", "platform_id", "platform_detail", "finished_utc")
        return pd.DataFrame(columns=[c for c in TRIAL_COLUMNS if c not in per_record] + ["iteration"])
    table = pd.concat(frames, ignore_index=True)
    values = [c for c in table.columns if c.startswith("value_")]
    leading = [c for c in TRIAL_COLUMNS if c in table.columns] + ["iteration"]
    return table[leading + values]


def write_parquet(table: pd.DataFrame, out: str | Path) -> Path:
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    table.to_parquet(out, index=False)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m analysis.data.tidy", description=__doc__.splitlines()[0])
    parser.add_argument("--grid", required=True, help="grid table (CSV) written by the workflow")
    parser.add_argument("--out", required=True, help="tidy table to write (parquet)")
    parser.add_argument("--pareto", help="also write the multi-objective points here (parquet)")
    args = parser.parse_args(argv)
    try:
        grid, records = load(args.grid)
    except (OSError, ValueError) as err:  # missing, unreadable or incomplete records: named, no traceback
        print(f"python -m analysis.data.tidy: error: {err}", file=sys.stderr)
        return 2
    table = tidy_table(grid, records)
    write_parquet(table, args.out)
    print(f"{args.out}: {len(table)} rows from {len(records)} records")
    if args.pareto:
        points = pareto_table(grid, records)
        write_parquet(points, args.pareto)
        print(f"{args.pareto}: {len(points)} points")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
