"""Records kept in the repository, so that a run longer than one sitting survives a machine that is wiped between
sittings: `b3o archive` packs the finished records of a results directory that the archive lacks into one new
compressed chunk, and `b3o restore` puts the archived records back into a results directory, where the workflow
then counts them as done.

The archive (default `records/`) is append-only: each `b3o archive` adds a chunk `<UTC time>-<id>.tar.xz` and its rows in
`index.csv` (trial id, chunk, SHA-256 of the record's bytes), so a commit never rewrites an earlier chunk. A record
is archived once; one that differs from its archived bytes is named, not packed again. Restoring never overwrites a
record that is already there.

A trial longer than a sitting would never finish if it started again each time: `b3o archive --unfinished` also
copies the checkpoints of the unfinished trials to `unfinished/` (each replaced by the later one at the next pack, and
dropped once the trial's record is archived), and `b3o restore` puts one back where its trial has neither a record nor
a checkpoint, so the trial resumes where it stopped. Each checkpoint carries the integrity digest and the code and
platform that made each of its iterations (`bench.records.Checkpoint`): a trial resumed on another machine has a
record that names both (`provenance.segments`).

A record recomputed after a fix keeps its trial id (the id hashes the spec, not the code). `b3o archive --supersede`
packs such records too and appends their rows to the index, whose last row per trial wins: `b3o restore` then puts
back the recomputed record, and the earlier chunk and row stay as they were, as the history.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import io
import sys
import tarfile
import time
from pathlib import Path

from bench.records import CHECKPOINT_SUFFIX, atomic_write, checkpoint_path, finished_copy, load_record

ARCHIVE = Path("records")
INDEX = "index.csv"
INDEX_COLUMNS = ("trial_id", "chunk", "sha256")
UNFINISHED = "unfinished"


def read_index(archive: Path) -> dict[str, dict[str, str]]:
    """trial id -> its index row (the last one, where a record was superseded)."""
    path = archive / INDEX
    if not path.is_file():
        return {}
    with path.open(newline="") as handle:
        return {row["trial_id"]: row for row in csv.DictReader(handle)}


def finished_records(trials: Path) -> dict[str, bytes]:
    """trial id -> bytes of every complete record under `trials` (the workflow's copy or the runner's kept one)."""
    found: dict[str, bytes] = {}
    kept = finished_copy(trials / "record.json").parent
    for path in sorted(trials.glob("*.json")) + sorted(kept.glob("*.json")):
        record, _ = load_record(path)
        if record is not None:
            found.setdefault(record["trial_id"], path.read_bytes())
    return found


def pack(results: Path, archive: Path = ARCHIVE, supersede: bool = False) -> tuple[Path | None, list[str]]:
    """Archive the finished records of `results` that `archive` lacks: (the new chunk or None, ids whose record
    differs from the archived one). With `supersede` those are packed too, replacing the archived ones."""
    trials = _trials(results)
    index = read_index(archive)
    new, changed = {}, []
    for trial_id, data in finished_records(trials).items():
        if trial_id not in index:
            new[trial_id] = data
        elif index[trial_id]["sha256"] != _sha(data):
            changed.append(trial_id)
            if supersede:
                new[trial_id] = data
    if not new:
        return None, changed
    archive.mkdir(parents=True, exist_ok=True)
    # two packs in one second still get their own chunk, even of one trial's record and its superseding one
    ids = _sha("\n".join(f"{t} {_sha(d)}" for t, d in sorted(new.items())).encode())[:8]
    chunk = archive / f"{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}-{ids}.tar.xz"

    def write(handle) -> None:
        with tarfile.open(fileobj=handle, mode="w:xz") as tar:
            for trial_id, data in sorted(new.items()):
                info = tarfile.TarInfo(f"{trial_id}.json")
                info.size, info.mtime = len(data), 0  # the same records make the same bytes
                tar.addfile(info, io.BytesIO(data))

    atomic_write(chunk, write)
    rows = [{"trial_id": t, "chunk": chunk.name, "sha256": _sha(d)} for t, d in sorted(new.items())]
    index_path = archive / INDEX
    fresh = not index_path.is_file()
    with index_path.open("a", newline="") as handle:
        out = csv.DictWriter(handle, fieldnames=INDEX_COLUMNS)
        if fresh:
            out.writeheader()
        out.writerows(rows)
    for trial_id in new:  # its record is archived now: its checkpoint is not needed
        (archive / UNFINISHED / f"{trial_id}{CHECKPOINT_SUFFIX}").unlink(missing_ok=True)
    return chunk, changed


def pack_unfinished(results: Path, archive: Path = ARCHIVE) -> list[str]:
    """Copy the checkpoint of every trial of `results` that has no finished or archived record into
    `archive/unfinished/` (replacing an earlier one of the same trial); the ids copied."""
    trials = _trials(results)
    done = set(finished_records(trials)) | set(read_index(archive))
    copied = []
    for path in sorted(trials.glob(f"*.json{CHECKPOINT_SUFFIX}")):
        trial_id = path.name.removesuffix(f".json{CHECKPOINT_SUFFIX}")
        target = archive / UNFINISHED / f"{trial_id}{CHECKPOINT_SUFFIX}"
        data = path.read_bytes()  # the runner replaces it atomically: these are one whole checkpoint
        if trial_id in done or (target.is_file() and target.read_bytes() == data):
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(target, lambda handle, data=data: handle.write(data))
        copied.append(trial_id)
    return copied


def restore(results: Path, archive: Path = ARCHIVE, only: set[str] | None = None) -> tuple[int, int]:
    """Put every archived record that `results` lacks back (with the runner's kept copy), or only those of the trials
    `only` names: (restored, already there). A chunk whose record does not match its index entry is an error, before
    anything is written from it."""
    index = read_index(archive)
    if not index and not (archive / UNFINISHED).is_dir():
        raise FileNotFoundError(f"no archive index at {archive / INDEX}")
    if only is not None:
        index = {t: row for t, row in index.items() if t in only}
    trials = results / "trials"
    trials.mkdir(parents=True, exist_ok=True)
    restored = present = 0
    by_chunk: dict[str, list[str]] = {}
    for trial_id, row in index.items():
        if (trials / f"{trial_id}.json").exists():
            present += 1
        else:
            by_chunk.setdefault(row["chunk"], []).append(trial_id)
    for chunk, wanted in sorted(by_chunk.items()):
        with tarfile.open(archive / chunk, mode="r:xz") as tar:
            data = {t: tar.extractfile(f"{t}.json").read() for t in wanted}
        bad = [t for t, d in data.items() if _sha(d) != index[t]["sha256"]]
        if bad:
            raise ValueError(f"{archive / chunk}: {len(bad)} record(s) do not match {INDEX}, e.g. {bad[0]}")
        for trial_id, d in data.items():
            out = trials / f"{trial_id}.json"
            finished_copy(out).parent.mkdir(exist_ok=True)
            for path in (finished_copy(out), out):
                atomic_write(path, lambda handle, d=d: handle.write(d))
            restored += 1
    return restored, present


def restore_unfinished(results: Path, archive: Path = ARCHIVE, only: set[str] | None = None) -> int:
    """Put each archived checkpoint back (of the trials `only` names, if given) where its trial has neither a record
    nor a checkpoint (an archived record wins: `restore` gives it); how many."""
    trials, index, restored = results / "trials", read_index(archive), 0
    for path in sorted((archive / UNFINISHED).glob(f"*{CHECKPOINT_SUFFIX}")):
        trial_id = path.name.removesuffix(CHECKPOINT_SUFFIX)
        out = trials / f"{trial_id}.json"
        if trial_id in index or (only is not None and trial_id not in only) or out.exists() \
                or checkpoint_path(out).exists():
            continue
        trials.mkdir(parents=True, exist_ok=True)
        data = path.read_bytes()
        atomic_write(checkpoint_path(out), lambda handle, data=data: handle.write(data))
        restored += 1
    return restored


def _trials(results: Path) -> Path:
    trials = results / "trials"
    if not trials.is_dir():
        raise FileNotFoundError(f"no trials directory at {trials}: give a run's results directory")
    return trials


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def register(subparsers: argparse._SubParsersAction) -> None:
    packing = subparsers.add_parser("archive", help="pack a run's finished records into the repository's archive")
    packing.add_argument("--results", required=True, type=Path, help="a run's results directory (its trials/)")
    packing.add_argument("--archive", default=ARCHIVE, type=Path, help="the archive directory (default: records)")
    packing.add_argument("--supersede", action="store_true",
                         help="also pack records that differ from their archived copy (recomputed after a fix): "
                              "restore then gives the new ones")
    packing.add_argument("--unfinished", action="store_true",
                         help="also copy the checkpoints of unfinished trials (to unfinished/), so that a trial longer "
                              "than a sitting resumes on the next machine instead of starting again")
    packing.set_defaults(func=_pack)
    restoring = subparsers.add_parser("restore", help="put archived records back into a results directory")
    restoring.add_argument("--results", required=True, type=Path, help="a run's results directory")
    restoring.add_argument("--archive", default=ARCHIVE, type=Path, help="the archive directory (default: records)")
    restoring.add_argument("--grid", metavar="CONFIG", type=Path,
                           help="restore only CONFIG's trials and write RESULTS/grid.csv: those (experiment, label, "
                                "…) that have a finished record there, as the workflow's grid table lists them, so "
                                "that a command reading a run's grid (`b3o cost-model --results`) reads archived "
                                "records")
    restoring.set_defaults(func=_restore)


def _pack(args: argparse.Namespace) -> int:
    try:
        chunk, changed = pack(args.results, args.archive, args.supersede)
        unfinished = pack_unfinished(args.results, args.archive) if args.unfinished else []
    except (OSError, ValueError) as err:
        print(f"b3o archive: error: {err}", file=sys.stderr)
        return 2
    total = len(read_index(args.archive))
    print(f"packed into {chunk} ({chunk.stat().st_size / 1e6:.1f} MB); {total} records archived" if chunk
          else f"nothing new to pack; {total} records archived")
    if args.unfinished:
        print(f"{len(unfinished)} unfinished trial(s)' checkpoints copied to {args.archive / UNFINISHED}")
    if changed and args.supersede:
        print(f"{len(changed)} record(s) superseded their archived copy, e.g. {changed[0]}")
    elif changed:
        print(f"{len(changed)} record(s) differ from their archived copy and were not packed (--supersede packs "
              f"them), e.g. {changed[0]}", file=sys.stderr)
        return 1
    return 0


def config_grid(config: Path) -> list:
    """`config`'s grid rows (`bench.grid.trial_grid`)."""
    import yaml

    from bench.grid import trial_grid

    return trial_grid(yaml.safe_load(config.read_text()))


def write_grid(results: Path, grid: list) -> int:
    """Write `results`/grid.csv: the rows of `grid` (`config_grid`) whose trial has a finished record in
    `results`/trials, each record named as the workflow names it; how many rows."""
    import pandas as pd

    finished = set(finished_records(results / "trials"))
    rows = [{**row.as_row(), "record": str(results / "trials" / f"{row.spec.trial_id}.json")}
            for row in grid if row.spec.trial_id in finished]
    frame = pd.DataFrame(rows) if rows else pd.DataFrame(columns=["trial_id", "experiment", "record"])
    frame.to_csv(results / "grid.csv", index=False)
    return len(rows)


def _restore(args: argparse.Namespace) -> int:
    import yaml

    try:
        if args.grid is not None and not args.grid.is_file():
            raise ValueError(f"--grid {args.grid}: no such config")
        grid = config_grid(args.grid) if args.grid is not None else None
        only = {row.spec.trial_id for row in grid} if grid is not None else None
        restored, present = restore(args.results, args.archive, only)
        resumable = restore_unfinished(args.results, args.archive, only)
        listed = write_grid(args.results, grid) if grid is not None else None
    except (OSError, ValueError, KeyError, tarfile.TarError, yaml.YAMLError) as err:
        print(f"b3o restore: error: {err}", file=sys.stderr)
        return 2
    print(f"restored {restored} record(s) into {args.results / 'trials'}; {present} were already there")
    if resumable:
        print(f"{resumable} unfinished trial(s) will resume from their archived checkpoints")
    if listed is not None:
        print(f"wrote {args.results / 'grid.csv'}: {listed} row(s) of {args.grid}'s grid with a finished record")
    return 0
