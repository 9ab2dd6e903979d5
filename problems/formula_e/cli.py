"""`b3o lap`: simulate one lap of a Formula E car and print lap time and energy.

    b3o lap [--track PATH] [--set KEY=VALUE ...] [--json]

Without --track the built-in Shanghai circuit is used; PATH is a TUMFTM-format CSV (race line or centre line).
--set changes a vehicle parameter (see `Vehicle`), e.g. `--set mass_kg=900 --set power_kw=250`.
Exit codes: 0 success, 1 the car cannot complete a lap, 2 bad arguments or unreadable track.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, replace

from problems.formula_e.shanghai import shanghai
from problems.formula_e.solver import LapNotCompletedError, simulate_lap
from problems.formula_e.track import load_track
from problems.formula_e.vehicle import Vehicle, parameter_names


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "lap",
        help="simulate one Formula E lap",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--track", metavar="PATH", help="TUMFTM-format track CSV (default: built-in Shanghai)")
    parser.add_argument(
        "--set",
        metavar="KEY=VALUE",
        action="append",
        default=[],
        dest="settings",
        help="set a vehicle parameter; repeatable",
    )
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        vehicle = replace(Vehicle(), **_parse_settings(args.settings))
        track = shanghai() if args.track is None else load_track(args.track)
    except ValueError as err:
        print(f"b3o lap: error: {err}", file=sys.stderr)
        return 2
    try:
        lap = simulate_lap(vehicle, track)
    except LapNotCompletedError as err:
        print(f"b3o lap: the car cannot complete a lap of {track.name}: {err}", file=sys.stderr)
        return 1
    result = {**lap.summary(), "track": track.name, "vehicle": asdict(vehicle)}
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{track.name} ({track.length / 1000:.3f} km): lap {lap.lap_time_s:.2f} s, "
            f"net energy {lap.energy_mj:.2f} MJ (drive {lap.drive_energy_mj:.2f} MJ, "
            f"recuperated {lap.recuperated_mj:.2f} MJ), top speed {result['top_speed_kmh']:.0f} km/h"
        )
    return 0


def _parse_settings(settings: list[str]) -> dict[str, float]:
    """KEY=VALUE strings to vehicle parameters; ValueError naming the valid keys for an unknown key."""
    values = {}
    for item in settings:
        key, sep, text = item.partition("=")
        key = key.strip()
        if key not in parameter_names():
            raise ValueError(
                f"unknown vehicle parameter {key!r} in --set {item!r}; valid keys: {', '.join(parameter_names())}"
            )
        try:
            if not sep:
                raise ValueError
            values[key] = float(text)
        except ValueError:
            raise ValueError(f"--set {item!r}: expected {key}=<number>") from None
    return values
