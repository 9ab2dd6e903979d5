"""Several trials per job: how the grid is cut into jobs, `b3o run-trials`, and the finished copies that keep a
job's records when Snakemake deletes its outputs."""

from __future__ import annotations

import json

import pytest

import bench.runner
from bench import cli
from bench.grid import look_blocks, trial_grid, trial_jobs
from bench.records import finished_copy
from bench.spec import TrialSpec

RANDOM = {"problem": "forrester1", "method": "random", "params": {}, "batch_size": 3, "iterations": 2, "n_init": 4}


def _specs(settings: list[dict], seeds: range) -> dict[str, TrialSpec]:
    specs = [TrialSpec.from_dict({**setting, "seed": seed}) for setting in settings for seed in seeds]
    return {spec.trial_id: spec for spec in specs}


def test_jobs_hold_seeds_of_one_setting_in_seed_order():
    other = {**RANDOM, "batch_size": 5}
    specs = _specs([RANDOM, other], range(5))
    jobs = trial_jobs(specs, 2)
    assert [len(ids) for ids in jobs.values()] == [2, 2, 1, 2, 2, 1]
    for first, ids in jobs.items():
        assert first == ids[0]
        members = [specs[t] for t in ids]
        assert len({s.batch_size for s in members}) == 1  # one setting per job
        assert [s.seed for s in members] == sorted(s.seed for s in members)
    assert sorted(t for ids in jobs.values() for t in ids) == sorted(specs)
    assert all(len(ids) == 1 for ids in trial_jobs(specs, 1).values())


def test_more_seeds_leave_the_earlier_jobs_as_they_were():
    before = trial_jobs(_specs([RANDOM], range(5)), 2)
    after = trial_jobs(_specs([RANDOM], range(9)), 2)
    full = {first: ids for first, ids in before.items() if len(ids) == 2}
    assert all(after[first] == ids for first, ids in full.items())


def test_no_job_runs_a_later_looks_seeds_before_that_look():
    """Looks at 8 and 10 seeds with 5 trials per job: seeds 5-7 (look 1) and 8-9 (look 2) go to different jobs, so
    look 1 decides before any of look 2's trials runs, and a setting decided there never runs them."""
    config = {"experiments": {"e": {"problems": ["forrester1"], "seeds": {"first": 100, "start": 8, "step": 2, "max": 10},
                                    "batch_size": 3, "iterations": 2, "n_init": 4,
                                    "methods": [{"label": "Random", "method": "random"}]}}}
    rows = trial_grid(config)
    specs = {row.spec.trial_id: row.spec for row in rows}
    blocks = look_blocks(config, rows)
    assert {blocks[t] for t, spec in specs.items() if spec.seed < 108} == {(("e", 1),)}
    assert {blocks[t] for t, spec in specs.items() if spec.seed >= 108} == {(("e", 2),)}
    jobs = trial_jobs(specs, 5, blocks)
    assert sorted([specs[t].seed for t in ids] for ids in jobs.values()) == [
        [100, 101, 102, 103, 104], [105, 106, 107], [108, 109]]
    assert [len(ids) for ids in trial_jobs(specs, 5).values()] == [5, 5]  # without the looks: a job spans both


def test_job_size_must_be_positive():
    with pytest.raises(ValueError, match="trials_per_job"):
        trial_jobs(_specs([RANDOM], range(2)), 0)


def _trials(tmp_path, seeds: range) -> list[dict]:
    return [{"spec": {**RANDOM, "seed": s}, "out": str(tmp_path / f"r{s}.json")} for s in seeds]


def test_run_trials_writes_each_record_and_its_finished_copy(tmp_path, capsys):
    trials = _trials(tmp_path, range(2))
    assert cli.main(["run-trials", "--trials", json.dumps(trials)]) == 0
    for trial in trials:
        out = tmp_path / trial["out"]
        record = json.loads(out.read_text())
        assert record["trial_id"] == TrialSpec.from_dict(trial["spec"]).trial_id
        assert finished_copy(out).read_text() == out.read_text()
        assert record["wall_s"] >= record["startup_s"] >= 0
    assert len(capsys.readouterr().out.splitlines()) == 2  # one summary line per trial


def test_a_deleted_record_comes_back_from_its_finished_copy_without_rerunning(tmp_path, monkeypatch):
    trials = _trials(tmp_path, range(2))
    assert cli.main(["run-trials", "--trials", json.dumps(trials)]) == 0
    out = tmp_path / "r0.json"
    text = out.read_text()
    out.unlink()  # as Snakemake does to every output of a job it reruns

    def must_not_run(self):
        raise AssertionError("the trial ran again")

    monkeypatch.setattr(bench.runner._Runner, "run", must_not_run)
    assert cli.main(["run-trials", "--trials", json.dumps(trials)]) == 0
    assert out.read_text() == text


def test_a_failed_trial_does_not_stop_the_others(tmp_path, monkeypatch, capsys):
    trials = _trials(tmp_path, range(3))
    failing = TrialSpec.from_dict(trials[0]["spec"]).trial_id
    run = bench.runner.run_trial

    def run_or_fail(spec, out):
        if spec.trial_id == failing:
            raise FloatingPointError("diverged")
        return run(spec, out)

    monkeypatch.setattr(bench.runner, "run_trial", run_or_fail)
    assert cli.main(["run-trials", "--trials", json.dumps(trials)]) == 1
    err = capsys.readouterr().err
    spec = TrialSpec.from_dict(trials[0]["spec"])
    # the last lines name the trial as the config does, and its error
    assert err.splitlines()[-2:] == ["b3o run-trials: 1 of 3 trials failed:", f"  {failing} (problem {spec.problem}, "
                                     f"method {spec.method}, seed {spec.seed}): FloatingPointError: diverged"]
    assert not (tmp_path / "r0.json").exists()
    assert (tmp_path / "r1.json").exists() and (tmp_path / "r2.json").exists()
    # the job resubmitted in the same workflow run (a cluster's retry, meant for time limits): the error is not run
    # into again, the failed trial fails at once
    (tmp_path / "r1.json").unlink()
    monkeypatch.setattr(bench.runner, "run_trial", lambda spec, out: run(spec, out) if spec.trial_id != failing
                        else pytest.fail("a failed trial ran again"))
    assert cli.main(["run-trials", "--trials", json.dumps(trials)]) == 1
    assert err.splitlines()[-1] + " (earlier in this run; not run again)" == capsys.readouterr().err.splitlines()[-1]
    assert (tmp_path / "r1.json").exists()


@pytest.mark.parametrize(
    "trials, message",
    [
        ("not json", "Expecting value"),
        ("[]", "non-empty JSON list"),
        ('[{"spec": {}}]', "non-empty JSON list"),
        (json.dumps([{"spec": {**RANDOM, "method": "nope", "seed": 0}, "out": "x.json"}]), "nope"),
    ],
)
def test_bad_trials_are_one_error_and_exit_2_before_any_trial(tmp_path, capsys, trials, message, monkeypatch):
    monkeypatch.chdir(tmp_path)
    good = json.dumps(_trials(tmp_path, range(1)))[1:-1]
    bad = trials if trials in ("not json", "[]") else f"[{good}, {trials[1:-1]}]"
    assert cli.main(["run-trials", "--trials", bad]) == 2
    err = capsys.readouterr().err
    assert err.startswith("b3o run-trials: error:") and message in err
    assert not (tmp_path / "r0.json").exists()  # the good trial before the bad one did not run


def test_a_kept_copy_of_another_trial_is_not_used_and_gets_replaced(tmp_path):
    first, second = _trials(tmp_path, range(2))
    out = tmp_path / "r.json"
    assert cli.main(["run-trials", "--trials", json.dumps([{**first, "out": str(out)}])]) == 0
    out.unlink()  # the same --out, now for another trial
    assert cli.main(["run-trials", "--trials", json.dumps([{**second, "out": str(out)}])]) == 0
    record = json.loads(out.read_text())
    assert record["spec"]["seed"] == 1 and finished_copy(out).read_text() == out.read_text()
