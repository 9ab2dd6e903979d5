"""A study that can't go stale or stuck (issue 80): trials that know their plugin code, objectives checked against
the problem's declaration, a failed trial failing at once with its error on the terminal, and a clean interrupt.

The parts are tested here in one process and fast; `test_a_study_fails_fast_reruns_changed_plugins_and_resumes_after_ctrl_c`
runs them end to end through `b3o study` from a directory of its own (`-m long`: five Snakemake runs)."""

from __future__ import annotations

import json
import logging
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import fields
from pathlib import Path

import numpy as np
import pytest
import yaml

from bench.grid import trial_grid
from bench.records import checkpoint_path, finished_copy
from harness.plugin_code import plugin_code, references
from problems.base import ObjectiveError, check_values
from problems import get as synthetic

ROOT = Path(__file__).resolve().parents[1]

PROBLEM = '''
from dataclasses import dataclass, field

import numpy as np
from trieste.space import Box

from problems.base import Problem


@dataclass(frozen=True)
class Bowl(Problem):
    broken: bool = field(default=BROKEN)

    def _evaluate(self, x):
        values = -((x - 0.3) ** 2).sum(axis=1, keepdims=True)
        return np.full_like(values, np.nan) if self.broken else values


def bowl():
    return Bowl(name="bowl-2d", search_space=Box([0.0, 0.0], [1.0, 1.0]), sense="maximise", optimum=0.0)
'''

METHOD = '''
import time
from dataclasses import fields
from pathlib import Path

from b3o.seeding import derived_rng
from baselines.base import Method

STEP = 0.5  # VERSION


class Uniform(Method):
    uses_model = False

    def setup(self, context):
        self.batch_size, self.seed = context.batch_size, context.seed

    def ask(self, models, dataset, t):
        while t == 2 and Path("slow").exists():  # the test interrupts the study here, after iteration 1's checkpoint
            Path("waiting").touch()
            time.sleep(0.2)
        return derived_rng(self.seed, t).random((self.batch_size, 2)) * STEP
'''


def _bowl(broken: bool) -> str:
    return PROBLEM.replace("BROKEN", str(broken))


# --- the parts, fast -----------------------------------------------------------------------------------------------


def test_a_non_finite_value_is_one_error_naming_the_problem_the_point_and_the_value():
    problem = synthetic("forrester1")
    x = np.array([[0.25], [0.5]])
    with pytest.raises(ObjectiveError, match=r"problem 'forrester1' returned \[nan\] at point \[0\.5\]: not finite"):
        check_values(problem, x, np.array([[1.0], [np.nan]]), np.zeros(2, bool))
    with pytest.raises(ObjectiveError, match=r"shape \[2\] for 2 point\(s\).*\[N, 1\] = \[2, 1\]"):
        check_values(problem, x, np.array([1.0, 2.0]), np.zeros(2, bool))  # [N], not [N, 1]
    values, failed = check_values(problem, x, [[1.0], [2.0]], [False, False])
    assert values.shape == (2, 1) and not failed.any()


def test_a_problem_that_declares_its_failure_value_records_each_failure():
    class MayFail(type(synthetic("forrester1"))):
        failure_value = (-5.0,)

    problem = synthetic("forrester1")
    problem = MayFail(**{f.name: getattr(problem, f.name) for f in fields(problem) if f.init})
    values, failed = check_values(problem, np.array([[0.1], [0.2], [0.3]]), [[1.0], [np.inf], [np.nan]], [False] * 3)
    assert values[:, 0].tolist() == [1.0, -5.0, -5.0] and failed.tolist() == [False, True, True]


def test_the_plugin_code_stamp_follows_the_module_and_what_it_imports_from_its_directory(tmp_path, monkeypatch):
    (tmp_path / "stamped.py").write_text("import stamped_helper\nimport numpy\nfactory = None\n")
    (tmp_path / "stamped_helper.py").write_text("A = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    spec = {"problem": "stamped:factory", "method": "random"}
    assert references(spec) == ["stamped:factory"]
    first = plugin_code(spec)
    assert list(first) == ["stamped:factory"] and plugin_code({"problem": "forrester1", "method": "random"}) == {}
    (tmp_path / "stamped_helper.py").write_text("A = 2\n")
    assert plugin_code(spec) != first  # a helper the plugin imports is its code too
    (tmp_path / "stamped_helper.py").write_text("A = 1\n")
    assert plugin_code(spec) == first


def test_a_record_and_a_checkpoint_of_changed_plugin_code_run_again(tmp_path, monkeypatch, caplog):
    from bench.runner import run_trial

    caplog.set_level(logging.INFO, logger="b3o.trial")
    (tmp_path / "flaky_uniform.py").write_text(METHOD.replace("while t == 2 and Path(\"slow\").exists():", """if t == 2 and Path("fail").exists():
            raise RuntimeError("stopped at t = 2")
        while False:"""))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    spec = {"problem": "branin2", "method": "flaky_uniform:Uniform", "batch_size": 2, "iterations": 2, "n_init": 3,
            "seed": 0}
    out = tmp_path / "trials" / "t.json"
    record = run_trial(spec, out)
    stamp = record["provenance"]["plugin_code"]
    assert list(stamp) == ["flaky_uniform:Uniform"] and run_trial(spec, out) == record  # unchanged: reused

    def edit(step):
        text = (tmp_path / "flaky_uniform.py").read_text()
        (tmp_path / "flaky_uniform.py").write_text(re.sub(r"STEP = [0-9.]+", f"STEP = {step}", text))

    edit(0.6)  # a finished record of older code: the trial runs again
    rerun = run_trial(spec, out)
    assert "flaky_uniform:Uniform changed since this trial ran: running it again" in caplog.text
    assert rerun["provenance"]["plugin_code"] != stamp
    kept = list((out.parent / ".stale").glob("t.*.json"))  # the old record kept aside, not lost
    assert len(kept) == 1 and json.loads(kept[0].read_text())["provenance"]["plugin_code"] == stamp

    (tmp_path / "fail").touch()  # a checkpoint after iteration 1, then older code
    out.unlink()
    finished_copy(out).unlink()
    with pytest.raises(RuntimeError, match="stopped at t = 2"):
        run_trial(spec, out)
    assert checkpoint_path(out).exists()
    (tmp_path / "fail").unlink()
    edit(0.7)
    caplog.clear()
    run_trial(spec, out)
    assert "changed since its checkpoint: starting again" in caplog.text and "resuming" not in caplog.text


STUBBORN = """
import pathlib, signal, time
for s in (signal.SIGINT, signal.SIGTERM):
    signal.signal(s, signal.SIG_IGN)
pathlib.Path("ready").touch()
time.sleep(600)
"""


def test_a_snakemake_that_ignores_ctrl_c_is_told_harder_and_the_study_still_stops(tmp_path):
    # `run` in a process of its own (the signal is sent to it), its "Snakemake" one that ignores SIGINT and SIGTERM
    script = (f"import sys; from pathlib import Path; from bench.study import run; "
              f"sys.exit(run([sys.executable, '-c', {STUBBORN!r}], {{}}, Path('.'), grace=1.0))")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(ROOT)}
    runner = subprocess.Popen([sys.executable, "-c", script], cwd=tmp_path, env=env, stderr=subprocess.PIPE, text=True)
    while not (tmp_path / "ready").exists():
        assert runner.poll() is None, runner.communicate()[1]
        time.sleep(0.1)
    runner.send_signal(signal.SIGINT)
    _, err = runner.communicate(timeout=300)  # a bound on a hang, not a speed target: the escalation takes ~2 s
    assert runner.returncode == 128 + signal.SIGINT, err
    told = [line for line in err.splitlines() if "has not stopped 1 s after the interrupt" in line]
    assert [line.rsplit(" ", 1)[1] for line in told] == ["SIGTERM", "SIGKILL"], err
    assert err.strip().splitlines()[-1].startswith("b3o study: interrupted; finished trials are kept")


def test_a_stale_record_snakemake_deleted_is_kept_aside_from_its_copy(tmp_path):
    """A failed job's finished records are deleted by Snakemake and live on in their copies (`finished_copy`); when
    their plugin changed, the copy (once dropped, its result lost) is what goes to .stale/."""
    from bench.records import set_aside

    out = tmp_path / "trials" / "t.json"
    finished_copy(out).parent.mkdir(parents=True)
    finished_copy(out).write_text('{"old": true}')
    aside = set_aside(out, {"mine:Method": "0123456789abcdef"})
    assert aside == tmp_path / "trials" / ".stale" / "t.0123456789ab.json"
    assert aside.read_text() == '{"old": true}' and not finished_copy(out).exists() and not out.exists()


POLITE = """
import pathlib, time
pathlib.Path("ready").touch()
time.sleep(600)
"""


def test_ctrl_c_reaches_snakemake_where_the_study_was_started_with_it_ignored(tmp_path):
    """`b3o study ... &` from a script starts it with SIGINT ignored, which a child inherits: its Snakemake then
    ignored the forwarded Ctrl-C until told harder 60 s on. Snakemake (here one with Python's default SIGINT) now
    stops at the first Ctrl-C: nothing is escalated."""
    script = (f"import sys; from pathlib import Path; from bench.study import run; "
              f"sys.exit(run([sys.executable, '-c', {POLITE!r}], {{}}, Path('.'), grace=30.0))")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(ROOT)}
    runner = subprocess.Popen([sys.executable, "-c", script], cwd=tmp_path, env=env, stderr=subprocess.PIPE, text=True,
                              preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    while not (tmp_path / "ready").exists():
        assert runner.poll() is None, runner.communicate()[1]
        time.sleep(0.1)
    runner.send_signal(signal.SIGINT)
    _, err = runner.communicate(timeout=300)  # a bound on a hang, not a speed target
    assert runner.returncode == 128 + signal.SIGINT, err
    assert "has not stopped" not in err and "sending Snakemake" not in err, err
    assert err.strip().splitlines()[-1].startswith("b3o study: interrupted; finished trials are kept")


# --- end to end: `b3o study` from a directory of its own ----------------------------------------------------------


def _study(user: Path, targets: list[str], **popen) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "bench.cli", "study", "--configfile", "s.yaml", "--cores", "2", *targets],
        cwd=user, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **popen,
    )


def _finished(process: subprocess.Popen) -> tuple[int, str]:
    _, err = process.communicate(timeout=600)
    return process.returncode, err


@pytest.mark.long  # five `b3o study` runs, minutes: CI runs it (docs/testing.md)
def test_a_study_fails_fast_reruns_changed_plugins_and_resumes_after_ctrl_c(tmp_path):
    user = tmp_path / "study"
    user.mkdir()
    (user / "bowl.py").write_text(_bowl(broken=True))
    (user / "uniform.py").write_text(METHOD)
    config = {"results": "results/s", "paper": "results/s/paper", "trials_per_job": 2, "experiments": {"e": {
        "problems": ["bowl:bowl"], "seeds": 2, "batch_size": 2, "iterations": 3, "n_init": 3,
        "methods": [{"label": "Random", "method": "random"}, {"label": "Uniform", "method": "uniform:Uniform"}]}}}
    (user / "s.yaml").write_text(yaml.safe_dump(config))
    rows = trial_grid(config)
    targets = [f"results/s/trials/{row.spec.trial_id}.json" for row in rows]
    uniform = [t for t, row in zip(targets, rows) if row.spec.method == "uniform:Uniform"]
    records = [user / t for t in targets]

    # a NaN-returning problem: every trial fails at its initial design, once (no retry), with one clear error
    code, err = _finished(_study(user, targets))
    assert code != 0 and not any(r.exists() for r in records)
    assert "problem 'bowl-2d' returned [nan] at point [" in err
    assert "(problem bowl:bowl, method random, seed 0): ObjectiveError" in err  # the trial by name, on the terminal
    assert "Trying to restart job" not in err and "Traceback" not in err

    # fixed: the study runs them all
    (user / "bowl.py").write_text(_bowl(broken=False))
    code, err = _finished(_study(user, targets))
    assert code == 0, err[-3000:]
    before = {r: r.read_bytes() for r in records}
    assert all(np.isfinite(json.loads(text)["trace"][-1]["best_value"]) for text in before.values())

    # the method edited: its trials, and only its, run again
    (user / "uniform.py").write_text(METHOD.replace("STEP = 0.5", "STEP = 0.9"))
    code, err = _finished(_study(user, targets))
    assert code == 0, err[-3000:]
    assert "uniform:Uniform changed since 2 of its finished trial(s) ran: they run again" in err
    for target, record in zip(targets, records):
        assert (record.read_bytes() == before[record]) == (target not in uniform)

    # edited again and interrupted at iteration 2 of its trials (Ctrl-C reaches `b3o study`), then resumed without
    # --unlock, from their checkpoints
    (user / "uniform.py").write_text(METHOD.replace("STEP = 0.5", "STEP = 0.7"))
    (user / "slow").touch()
    study = _study(user, uniform)
    while not (user / "waiting").exists():
        assert study.poll() is None, study.communicate()[1][-3000:]
        time.sleep(0.2)
    study.send_signal(signal.SIGINT)
    code, err = _finished(study)
    assert code == 128 + signal.SIGINT
    assert err.strip().splitlines()[-1].startswith("b3o study: interrupted; finished trials are kept")
    assert not list((user / ".snakemake" / "locks").glob("*"))
    (user / "slow").unlink()
    code, err = _finished(_study(user, uniform))
    assert code == 0, err[-3000:]
    logs = "".join(p.read_text() for p in (user / "results/s/logs/trials").glob("*.log"))
    assert "resuming after iteration 1" in logs
