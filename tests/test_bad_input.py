"""Bad input and broken files (issue 17): each case is refused with one clear line and exit 2, or - for a damaged
record or checkpoint - moved aside with one warning while the trial restarts; never a traceback, never stuck.

CLI cases call `bench.cli.main` in-process (a subprocess would import TensorFlow once per case).
"""

from __future__ import annotations

import errno
import json
import logging
import os
import subprocess
import sys
import tempfile
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from scipy.spatial.distance import pdist
from test_runner import TINY

import baselines
from b3o.diversity import mean_pairwise_distance
from bench.cli import main
from bench.grid import trial_grid
from bench.records import OutputError, atomic_write_text, stable
from bench.runner import run_trial
from bench.spec import TrialSpec, validate
from problems.formula_e.track import track_from_points
from problems.formula_e.vehicle import PHYSICAL_RANGES, Vehicle, parameter_names

#: a model-free trial: cheap enough to run many times
RANDOM = {"problem": "forrester1", "method": "random", "batch_size": 3, "iterations": 3, "n_init": 4, "seed": 0}


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().err


def _one_line_error(err: str, command: str = "b3o run-trial") -> str:
    lines = [line for line in err.splitlines() if f"{command}: error:" in line]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def _run_cli(spec: dict, out: Path, capsys) -> tuple[int, str]:
    return _cli(["run-trial", "--spec", json.dumps(spec), "--out", str(out)], capsys)


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict:
    return run_trial(RANDOM, tmp_path_factory.mktemp("reference") / "r.json")


# --- 1. n_init = 1 ---------------------------------------------------------------------------------------------


def test_n_init_1_is_refused_for_a_model_based_method_and_runs_without_a_model(tmp_path, capsys):
    code, err = _run_cli({**TINY, "n_init": 1}, tmp_path / "r.json", capsys)
    assert code == 2
    assert "n_init must be >= 2 for method 'b3o'" in _one_line_error(err)
    assert len(run_trial({**RANDOM, "n_init": 1, "iterations": 1}, tmp_path / "random.json")["trace"]) == 2


# --- 2. damaged checkpoints ------------------------------------------------------------------------------------


def _checkpoint_after_crash(spec: dict, out: Path, monkeypatch, at: int = 2) -> Path:
    method_cls = baselines.method_class(spec["method"])
    original = method_cls.ask

    def crash(self, models, dataset, t):
        if t == at:
            raise KeyboardInterrupt("killed")
        return original(self, models, dataset, t)

    with monkeypatch.context() as patch:
        patch.setattr(method_cls, "ask", crash)
        with pytest.raises(KeyboardInterrupt):
            run_trial(spec, out)
    checkpoint = out.with_name(out.name + ".checkpoint.npz")
    assert checkpoint.exists()
    return checkpoint


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 2],  # truncated
        lambda data: b"",  # empty
        lambda data: np.random.default_rng(0).bytes(len(data)),  # random bytes
        lambda data: data[:200] + bytes([data[200] ^ 0x01]) + data[201:],  # one flipped bit, in the JSON trace
        lambda data: data[:-300] + bytes([data[-300] ^ 0x01]) + data[-299:],  # one flipped bit, near the end
    ],
    ids=["truncated", "empty", "random-bytes", "flipped-bit-trace", "flipped-bit-directory"],
)
def test_a_damaged_checkpoint_is_moved_aside_and_the_trial_restarts(tmp_path, monkeypatch, caplog, reference, damage):
    out = tmp_path / "r.json"
    checkpoint = _checkpoint_after_crash(RANDOM, out, monkeypatch)
    good = checkpoint.read_bytes()
    checkpoint.write_bytes(damage(good))
    with caplog.at_level(logging.WARNING, logger="b3o.trial"):
        record = run_trial(RANDOM, out)
    assert stable(record) == stable(reference)
    moved = list(tmp_path.glob("r.json.checkpoint.npz.corrupt-*"))
    assert len(moved) == 1 and moved[0].read_bytes() == damage(good)
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "moved aside" in warnings[0].getMessage()
    assert not checkpoint.exists()
    # the finished trial's copy, its final state (`bench.extension`), its record and the damaged checkpoint
    assert sorted(p.name for p in tmp_path.iterdir()) == [".finished", ".states", "r.json", moved[0].name]


@pytest.mark.slow
def test_a_damaged_model_checkpoint_restarts_to_the_uninterrupted_record(tmp_path, monkeypatch):
    reference = run_trial({**TINY, "iterations": 2}, tmp_path / "reference.json")
    out = tmp_path / "r.json"
    checkpoint = _checkpoint_after_crash({**TINY, "iterations": 2}, out, monkeypatch)
    data = bytearray(checkpoint.read_bytes())
    data[-1000] ^= 0x10  # inside the model variables
    checkpoint.write_bytes(bytes(data))
    assert stable(run_trial({**TINY, "iterations": 2}, out)) == stable(reference)


def test_another_trials_checkpoint_is_one_clear_error(tmp_path, monkeypatch, capsys):
    out = tmp_path / "r.json"
    checkpoint = _checkpoint_after_crash(RANDOM, out, monkeypatch)
    code, err = _run_cli({**RANDOM, "seed": 1}, out, capsys)
    assert code == 2 and "is a checkpoint of trial" in _one_line_error(err) and "choose another --out" in err
    assert checkpoint.exists()  # another trial's work is never discarded


# --- 3. damaged or incomplete records --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [
        lambda record: json.dumps(record)[:-40].encode(),  # cut short
        lambda record: b"",  # empty
        lambda record: b"[1, 2, 3]",  # JSON, not a record
        lambda record: json.dumps({"trial_id": record["trial_id"]}).encode(),  # no spec, no trace
        lambda record: json.dumps({**record, "trace": record["trace"][:-1]}).encode(),  # valid JSON, trace cut short
        lambda record: b"\xff\xfe{}",  # not UTF-8
    ],
    ids=["truncated", "empty", "list", "no-trace", "short-trace", "not-utf8"],
)
def test_a_damaged_record_is_moved_aside_and_the_trial_reruns(tmp_path, caplog, reference, content):
    out = tmp_path / "r.json"
    out.write_bytes(content(reference))
    with caplog.at_level(logging.WARNING, logger="b3o.trial"):
        record = run_trial(RANDOM, out)
    assert stable(record) == stable(reference) and json.loads(out.read_text()) == record
    moved = list(tmp_path.glob("r.json.corrupt-*"))
    assert len(moved) == 1 and moved[0].read_bytes() == content(reference)
    assert sum(r.levelno == logging.WARNING for r in caplog.records) == 1


def test_another_trials_record_is_one_clear_error(tmp_path, capsys, reference):
    out = tmp_path / "r.json"
    out.write_text(json.dumps(reference))
    code, err = _run_cli({**RANDOM, "seed": 1}, out, capsys)
    assert code == 2 and "holds trial" in _one_line_error(err)
    assert json.loads(out.read_text()) == reference


def test_the_tidy_step_refuses_an_incomplete_record_naming_it(tmp_path, reference, capsys):
    from analysis.data.tidy import main as tidy_main

    record_path = tmp_path / "trials" / "r.json"
    record_path.parent.mkdir()
    record_path.write_text(json.dumps({**reference, "trace": reference["trace"][:-1]}))
    columns = ["trial_id", "experiment", "label", "problem", "method", "acquisition", "temperature", "lam", "sampler",
               "batch_size", "iterations", "n_init", "seed", "record"]
    row = [reference["trial_id"], "synthetic_b5", "Random", "forrester1", "random", "", "", "", "", 3, 3, 4, 0,
           str(record_path)]
    (tmp_path / "grid.csv").write_text(",".join(columns) + "\n" + ",".join(map(str, row)) + "\n")
    code = tidy_main(["--grid", str(tmp_path / "grid.csv"), "--out", str(tmp_path / "tidy.parquet")])
    err = capsys.readouterr().err
    assert code == 2 and str(record_path) in _one_line_error(err, "python -m analysis.data.tidy")
    assert "trace has 3 of the spec's 3 + 1 iterations" in err and "rerun the workflow" in err
    assert not record_path.exists() and len(list(record_path.parent.glob("r.json.corrupt-*"))) == 1
    assert not (tmp_path / "tidy.parquet").exists()


# --- 4. output paths -------------------------------------------------------------------------------------------


def test_a_missing_output_directory_is_created(tmp_path, reference):
    out = tmp_path / "new" / "deeper" / "r.json"
    assert stable(run_trial(RANDOM, out)) == stable(reference)


def test_a_path_under_a_file_or_a_directory_as_out_is_refused_before_any_work(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    for out, message in ((tmp_path / "file" / "r.json", "cannot write the record"), (tmp_path, "is a directory")):
        code, err = _run_cli(TINY, out, capsys)
        assert code == 2 and message in _one_line_error(err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


@pytest.fixture
def unwritable_directory(tmp_path):
    """A directory this process cannot create files in: read-only by mode, or sysfs when running as root."""
    if os.name != "posix":
        pytest.skip("POSIX permissions")
    if os.geteuid() != 0:
        readonly = tmp_path / "readonly"
        readonly.mkdir()
        readonly.chmod(0o555)
        yield readonly
        readonly.chmod(0o755)
    elif Path("/sys/kernel").is_dir():
        yield Path("/sys/kernel")
    else:
        pytest.skip("root writes to read-only directories and there is no sysfs")


def test_a_read_only_directory_is_refused_before_any_work(unwritable_directory, capsys):
    code, err = _run_cli(TINY, unwritable_directory / "r.json", capsys)
    assert code == 2 and "cannot write the record" in _one_line_error(err)


def test_a_full_disk_leaves_no_temporary_file(tmp_path, monkeypatch):
    real = tempfile.NamedTemporaryFile

    def full_disk(*args, **kwargs):
        handle = real(*args, **kwargs)

        def write(data):
            raise OSError(errno.ENOSPC, "No space left on device")

        handle.write = write
        return handle

    monkeypatch.setattr(tempfile, "NamedTemporaryFile", full_disk)
    with pytest.raises(OSError, match="No space left"):
        atomic_write_text(tmp_path / "r.json", "{}")
    assert list(tmp_path.iterdir()) == []


def test_a_full_disk_during_a_trial_is_one_line_and_leaves_no_temporary_file(tmp_path, monkeypatch, capsys):
    real = tempfile.NamedTemporaryFile

    def full_disk(*args, **kwargs):
        handle = real(*args, **kwargs)
        if kwargs.get("suffix") == ".tmp":  # the checkpoint and record writers, not the output check's probe

            def write(data):
                raise OSError(errno.ENOSPC, "No space left on device")

            handle.write = write
        return handle

    monkeypatch.setattr(tempfile, "NamedTemporaryFile", full_disk)
    code, err = _run_cli(RANDOM, tmp_path / "r.json", capsys)
    assert code == 2 and "No space left on device" in _one_line_error(err)
    assert list(tmp_path.iterdir()) == []


# --- 5. batch size and initial design bounded by memory --------------------------------------------------------


@pytest.mark.parametrize(
    "change, message",
    [
        ({"batch_size": 10**6}, "more than one trial may hold"),
        ({"n_init": 10**7}, "more than one trial may hold"),
        ({"model": {"kind": "gpr"}, "batch_size": 10_000, "iterations": 4}, "kernel matrix"),
    ],
)
def test_trials_too_large_for_memory_are_refused_before_any_work(tmp_path, capsys, change, message):
    code, err = _run_cli({**TINY, **change}, tmp_path / "r.json", capsys)
    assert code == 2 and message in _one_line_error(err)
    assert not (tmp_path / "r.json").exists()


def test_batch_diversity_is_exact_and_needs_memory_linear_in_the_batch():
    x = np.random.default_rng(0).random((1500, 4))
    assert mean_pairwise_distance(x) == pytest.approx(pdist(x).mean(), rel=1e-12)
    big = np.random.default_rng(1).random((12_000, 2))
    tracemalloc.start()
    try:
        mean_pairwise_distance(big)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2**20  # the B (B - 1) / 2 distances alone are 576 MB


# --- 6. impossible cars and tracks -----------------------------------------------------------------------------


def test_every_vehicle_parameter_has_a_physical_range_holding_the_default():
    assert list(PHYSICAL_RANGES) == parameter_names()
    for name, (low, high) in PHYSICAL_RANGES.items():
        assert low <= getattr(Vehicle(), name) <= high, name


@pytest.mark.parametrize(
    "setting",
    ["drag_area_m2=-5", "motor_efficiency=2", "regen_efficiency=5", "cog_height_m=-0.3", "power_kw=-100",
     "torque_nm=-150", "mass_kg=nan", "air_density_kgm3=inf"],
)
def test_lap_refuses_an_impossible_car_with_exit_2(capsys, setting):
    code, err = _cli(["lap", "--set", setting], capsys)
    assert code == 2
    assert setting.split("=")[0] in _one_line_error(err, "b3o lap") and "physical range" in err


@pytest.mark.parametrize(
    "x, y, message",
    [
        ([0, 2, 4, 6, 8.2], [0, 0, 0, 0, 0], "lie on one line"),
        ([0, 1, 1, 0], [0, 0, 1, 1], "less than 50 m"),
        ([0, 100, 0, 100, 0, 100], [0, 1, 2, 3, 4, 5], "tighter than 4 m"),
    ],
    ids=["collinear", "too-short", "doubles-back"],
)
def test_lap_refuses_an_impossible_track_with_exit_2(tmp_path, capsys, x, y, message):
    path = tmp_path / "track.csv"
    path.write_text("# x_m,y_m\n" + "\n".join(f"{a},{b}" for a, b in zip(x, y)))
    code, err = _cli(["lap", "--track", str(path)], capsys)
    assert code == 2 and message in _one_line_error(err, "b3o lap")


def test_a_real_sized_track_is_still_accepted():
    angle = np.linspace(0, 2 * np.pi, 40, endpoint=False)
    assert track_from_points(15 * np.cos(angle), 15 * np.sin(angle)).length == pytest.approx(2 * np.pi * 15, rel=0.01)


# --- 8. spec files and option types ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, text, message",
    [
        ("spec.yaml", "problem: forrester1\nmethod: [random\n", "spec.yaml: YAML syntax error at line"),
        ("spec.json", "", "spec.json is empty"),
        ("spec.json", '{"problem": "forrester1",', "spec.json: not valid JSON"),
    ],
)
def test_a_spec_file_that_cannot_be_parsed_is_named(tmp_path, capsys, name, text, message):
    (tmp_path / name).write_text(text)
    code, err = _cli(["run-trial", "--spec", str(tmp_path / name), "--out", str(tmp_path / "r.json")], capsys)
    assert code == 2 and message in _one_line_error(err)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"params": {**TINY["params"], "sampler_options": {"budget": float("nan")}}}, "option budget must be an integer"),
        ({"params": {**TINY["params"], "sampler": "mh", "sampler_options": {"step_size": "big"}}}, "step_size must be"),
        ({"model": {"num_inducing": "10"}}, "model num_inducing must be an integer, got '10'"),
        ({"model": "svgp"}, "model must be a mapping"),
        ({"params": {**TINY["params"], "lam": True}}, "lam must be a finite number, got True"),
        ({"params": {**TINY["params"], "acquisition_options": {"incumbent": 3}}}, "incumbent must be a string"),
        ({"problem": 3}, "problem must be a name"),
    ],
)
def test_bad_option_values_are_refused_naming_the_field(change, message):
    with pytest.raises(ValueError, match=message):
        validate(TrialSpec.from_dict({**TINY, **change}))


def test_lam_true_is_not_lambda_1():
    from b3o import temperature

    with pytest.raises(ValueError, match="finite positive number, got True"):
        temperature.get("constant", True)


def test_two_methods_with_one_label_in_an_experiment_are_refused():
    method = {"label": "Random", "method": "random"}
    config = {
        "experiments": {
            "synthetic_b5": {"problems": ["forrester1"], "seeds": 1, "batch_size": 2, "iterations": 1, "n_init": 4,
                             "methods": [method, {**method, "params": {}}]}
        }
    }
    with pytest.raises(ValueError, match=r"synthetic_b5.*\['Random'\] more than once"):
        trial_grid(config)


def test_two_labels_with_identical_settings_are_refused():
    config = {
        "experiments": {
            "synthetic_b5": {"problems": ["forrester1"], "seeds": 1, "batch_size": 2, "iterations": 1, "n_init": 4,
                             "methods": [{"label": "Random", "method": "random"},
                                         {"label": "Random-again", "method": "random"}]}
        }
    }
    with pytest.raises(ValueError, match="'Random' and 'Random-again' have identical settings"):
        trial_grid(config)


def test_output_errors_are_value_errors_for_library_callers(tmp_path):
    with pytest.raises(OutputError):
        run_trial(RANDOM, tmp_path)


@pytest.mark.parametrize(
    ("change", "message"),
    [({"problem": "hartman6"}, "unknown problem 'hartman6'"), ({"method": "bogus"}, "unknown method 'bogus'"),
     ({"params": {"colour": 1}}, "unknown parameter(s) ['colour'] for method 'b3o'")],
)
def test_a_misnamed_problem_method_or_parameter_is_refused_before_tensorflow_loads(tmp_path, change, message):
    """Names are checked first (`bench.spec.check_names`): a typo is refused in a second, not after TensorFlow's
    seconds-long import, by `b3o run-trial` and by the workflow's `b3o check-specs` alike."""
    spec = {"problem": "branin2", "method": "b3o", "batch_size": 3, "iterations": 2, "n_init": 5, "seed": 7, **change}
    probe = ("import json, sys; from bench.cli import main; code = main(sys.argv[1:]); "
             "print(json.dumps(['tensorflow' in sys.modules, code]))")
    for argv in (["run-trial", "--spec", json.dumps(spec), "--out", str(tmp_path / "r.json")], ["check-specs"]):
        done = subprocess.run([sys.executable, "-c", probe, *argv], input=json.dumps([spec]), capture_output=True,
                              text=True, timeout=300, check=False)
        assert json.loads(done.stdout.splitlines()[-1]) == [False, 2], (argv[0], done.stdout, done.stderr[-2000:])
        assert message in done.stderr
    assert not (tmp_path / "r.json").exists()
