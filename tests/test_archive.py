"""`b3o archive` / `b3o restore`: a run's records survive a wiped machine through the repository, byte for byte, and
nothing already computed is overwritten."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bench import archive
from bench.cli import main
from bench.records import (
    CHECKPOINT_SUFFIX,
    TRACE_KEYS,
    checkpoint_path,
    finished_copy,
    read_checkpoint,
    save_checkpoint,
)


def _record(results: Path, trial_id: str, value: float = 1.0) -> bytes:
    trace = [{**{key: None for key in TRACE_KEYS}, "iteration": t, "best_value": value} for t in range(2)]
    data = json.dumps({"spec": {"iterations": 1}, "trial_id": trial_id, "trace": trace}).encode()
    (results / "trials").mkdir(parents=True, exist_ok=True)
    (results / "trials" / f"{trial_id}.json").write_bytes(data)
    return data


def test_records_round_trip_and_a_second_pack_adds_only_new_ones(tmp_path, capsys):
    run, store = tmp_path / "run", tmp_path / "records"
    first = _record(run, "a")
    _record(run, "b")
    (run / "trials" / "c.json").write_text('{"cut short')  # not a finished record: never archived
    assert main(["archive", "--results", str(run), "--archive", str(store)]) == 0
    assert set(archive.read_index(store)) == {"a", "b"}
    _record(run, "d")
    chunk, changed = archive.pack(run, store)
    assert chunk is not None and changed == []
    assert [row["chunk"] for row in archive.read_index(store).values()].count(chunk.name) == 1  # d only
    assert len(list(store.glob("*.tar.xz"))) == 2

    fresh = tmp_path / "fresh"
    assert main(["restore", "--results", str(fresh), "--archive", str(store)]) == 0
    assert (fresh / "trials" / "a.json").read_bytes() == first
    assert finished_copy(fresh / "trials" / "a.json").read_bytes() == first  # the runner's kept copy too
    assert sorted(p.name for p in (fresh / "trials").glob("*.json")) == ["a.json", "b.json", "d.json"]
    assert "restored 3" in capsys.readouterr().out


def test_restore_overwrites_nothing_and_a_changed_record_is_named(tmp_path, capsys):
    run, store = tmp_path / "run", tmp_path / "records"
    _record(run, "a")
    archive.pack(run, store)
    mine = _record(run, "a", value=2.0)  # recomputed differently since it was archived
    assert main(["archive", "--results", str(run), "--archive", str(store)]) == 1
    assert "differ from their archived copy" in capsys.readouterr().err
    assert archive.restore(run, store) == (0, 1)
    assert (run / "trials" / "a.json").read_bytes() == mine


def test_a_superseding_pack_restores_the_recomputed_record_and_keeps_the_old_chunk(tmp_path, capsys):
    run, store = tmp_path / "run", tmp_path / "records"
    old = _record(run, "a")
    first, _ = archive.pack(run, store)
    first_bytes = first.read_bytes()
    new = _record(run, "a", value=2.0)  # recomputed after a fix: same trial id, other bytes
    assert main(["archive", "--results", str(run), "--archive", str(store), "--supersede"]) == 0
    assert "1 record(s) superseded" in capsys.readouterr().out
    assert first.read_bytes() == first_bytes  # the earlier chunk is never rewritten
    rows = (store / archive.INDEX).read_text().splitlines()[1:]
    assert [row.split(",")[0] for row in rows] == ["a", "a"]  # its history stays in the index
    fresh = tmp_path / "fresh"
    assert archive.restore(fresh, store) == (1, 0)
    assert (fresh / "trials" / "a.json").read_bytes() == new != old
    assert archive.pack(run, store) == (None, [])  # now the archived copy is the new one


def test_a_damaged_chunk_or_a_missing_results_dir_is_one_clear_error(tmp_path, capsys):
    run, store = tmp_path / "run", tmp_path / "records"
    _record(run, "a")
    archive.pack(run, store)
    index = (store / archive.INDEX).read_text().replace(archive.read_index(store)["a"]["sha256"], "0" * 64)
    (store / archive.INDEX).write_text(index)
    assert main(["restore", "--results", str(tmp_path / "fresh"), "--archive", str(store)]) == 2
    assert "do not match" in capsys.readouterr().err
    assert not (tmp_path / "fresh" / "trials" / "a.json").exists()
    assert main(["archive", "--results", str(tmp_path / "nowhere"), "--archive", str(store)]) == 2
    assert "no trials directory" in capsys.readouterr().err


COMMITTED = Path(__file__).resolve().parents[1] / "records"


def _restores_complete(results: Path, index: dict[str, dict[str, str]]) -> None:
    """The indexed records come back byte for byte (`restore` checks each SHA-256 against the index) and each is a
    complete trial record."""
    from bench.records import load_record

    restored, present = archive.restore(results, COMMITTED, only=set(index))
    assert (restored, present) == (len(index), 0)
    for trial_id in index:
        record, problem = load_record(results / "trials" / f"{trial_id}.json")
        assert problem is None and record["trial_id"] == trial_id


def test_every_indexed_chunk_is_committed_and_the_newest_restores_complete(tmp_path):
    """A half-committed archive fails here, not on the next machine: every chunk the index names is in records/, and
    the newest chunk (the one `b3o archive` last added, which a commit in progress leaves half-written) restores
    complete. The whole archive, whose restore grows with records/, is the `-m slow` test below."""
    index = archive.read_index(COMMITTED)
    assert index, f"no archived records in {COMMITTED}"
    chunks = {row["chunk"] for row in index.values()}
    assert [c for c in sorted(chunks) if not (COMMITTED / c).is_file()] == []
    newest = max(chunks)
    _restores_complete(tmp_path, {t: row for t, row in index.items() if row["chunk"] == newest})


@pytest.mark.slow
def test_the_committed_archive_restores_whole_and_every_record_is_complete(tmp_path):
    """What the repository's records/ holds comes back byte for byte and is a complete trial record, every chunk."""
    index = archive.read_index(COMMITTED)
    assert index, f"no archived records in {COMMITTED}"
    _restores_complete(tmp_path, index)


def _checkpoint(results: Path, trial_id: str, rows: int) -> bytes:
    trace = [{**{key: None for key in TRACE_KEYS}, "iteration": t, "best_value": 1.0} for t in range(rows)]
    out = results / "trials" / f"{trial_id}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    save_checkpoint(checkpoint_path(out), trial_id, trace, {}, [{"from_iteration": 0, "platform_id": "p"}])
    return checkpoint_path(out).read_bytes()


def test_an_unfinished_trial_survives_the_wipe_as_its_latest_checkpoint_until_its_record_is_archived(tmp_path, capsys):
    run, store = tmp_path / "run", tmp_path / "records"
    _record(run, "a")
    _checkpoint(run, "long", rows=2)
    assert main(["archive", "--results", str(run), "--archive", str(store)]) == 0
    assert not (store / archive.UNFINISHED).exists()  # only when asked: checkpoints are large and change
    assert main(["archive", "--results", str(run), "--archive", str(store), "--unfinished"]) == 0
    assert "1 unfinished" in capsys.readouterr().out
    later = _checkpoint(run, "long", rows=3)  # the trial went on: the next pack replaces its checkpoint
    assert archive.pack_unfinished(run, store) == ["long"]
    assert archive.pack_unfinished(run, store) == []  # unchanged: nothing copied

    fresh = tmp_path / "fresh"
    assert main(["restore", "--results", str(fresh), "--archive", str(store)]) == 0
    assert "1 unfinished trial(s) will resume" in capsys.readouterr().out
    back = checkpoint_path(fresh / "trials" / "long.json")
    assert back.read_bytes() == later
    assert len(read_checkpoint(back, "long", iterations=5).trace) == 3
    assert archive.restore_unfinished(fresh, store) == 0  # never over a checkpoint that is there

    _record(run, "long")  # it finished: packing its record drops its checkpoint from the archive
    archive.pack(run, store)
    assert not list((store / archive.UNFINISHED).iterdir())
    assert archive.restore_unfinished(tmp_path / "other", store) == 0

    only = tmp_path / "only-unfinished"  # an archive that holds nothing but a running trial's checkpoint
    _checkpoint(tmp_path / "run2", "first", rows=2)
    assert archive.pack_unfinished(tmp_path / "run2", only) == ["first"]
    assert main(["restore", "--results", str(tmp_path / "r2"), "--archive", str(only)]) == 0
    assert checkpoint_path(tmp_path / "r2" / "trials" / "first.json").is_file()


def test_every_committed_unfinished_checkpoint_is_readable_and_has_no_archived_record():
    committed = Path(__file__).resolve().parents[1] / "records"
    index = archive.read_index(committed)
    for path in sorted((committed / archive.UNFINISHED).glob("*.npz")):
        trial_id = path.name.removesuffix(CHECKPOINT_SUFFIX)
        assert trial_id not in index
        with np.load(path) as saved:
            assert json.loads(str(saved["trace"]))["trial_id"] == trial_id


def test_restore_with_a_config_writes_the_grid_of_its_trials_that_have_records(tmp_path, capsys):
    """`b3o restore --grid CONFIG`: the default run's archive comes back with the grid table the workflow wrote for it
    (every trial of config/config.yaml, under each experiment that lists it), which `b3o cost-model --results`
    reads; a trial without a finished record is not listed, and a missing config fails before anything is restored."""
    import pandas as pd
    import yaml

    from bench.grid import trial_grid

    root = Path(__file__).resolve().parents[1]
    missing = main(["restore", "--results", str(tmp_path / "none"), "--grid", str(tmp_path / "none.yaml")])
    assert missing == 2 and not (tmp_path / "none").exists()
    assert main(["restore", "--results", str(tmp_path), "--archive", str(root / "records/default-rerun"),
                 "--grid", str(root / "config/config.yaml")]) == 0
    assert "row(s) of" in capsys.readouterr().out
    grid = pd.read_csv(tmp_path / "grid.csv")
    rows = [row.as_row() for row in trial_grid(yaml.safe_load((root / "config/config.yaml").read_text()))]
    archived = set(archive.read_index(root / "records/default-rerun"))
    assert set(grid["trial_id"]) == archived  # each of the run's trials is one of the config's
    assert sorted(zip(grid["experiment"], grid["trial_id"])) == sorted(
        (r["experiment"], r["trial_id"]) for r in rows if r["trial_id"] in archived)  # under every experiment
    assert grid["record"].map(lambda path: Path(path).is_file()).all()
    (tmp_path / "trials" / f"{grid['trial_id'][0]}.json").unlink()
    archive.finished_copy(tmp_path / "trials" / f"{grid['trial_id'][0]}.json").unlink()
    gone = (grid["trial_id"] == grid["trial_id"][0]).sum()
    assert archive.write_grid(tmp_path, archive.config_grid(root / "config/config.yaml")) == len(grid) - gone


def test_restore_with_a_config_restores_only_that_configs_trials(tmp_path):
    """`b3o restore --grid CONFIG` puts back only the archived records (and checkpoints) of CONFIG's trials, so a
    check of one run need not unpack a whole archive: a config of one of the default run's experiments gets exactly
    that experiment's archived trials."""
    import yaml

    root = Path(__file__).resolve().parents[1]
    config = yaml.safe_load((root / "config/config.yaml").read_text())
    first = next(iter(config["experiments"]))
    config["experiments"] = {first: config["experiments"][first]}
    (tmp_path / "one.yaml").write_text(yaml.safe_dump(config))
    store = root / "records/default-rerun"
    wanted = {row.spec.trial_id for row in archive.config_grid(tmp_path / "one.yaml")} & set(archive.read_index(store))
    assert 0 < len(wanted) < len(archive.read_index(store))
    assert main(["restore", "--results", str(tmp_path / "run"), "--archive", str(store),
                 "--grid", str(tmp_path / "one.yaml")]) == 0
    assert {p.name.removesuffix(".json") for p in (tmp_path / "run/trials").glob("*.json")} == wanted
