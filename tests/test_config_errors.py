"""Issue 80 (item 5): every config error at once, one line each with the closest valid name, without importing
TensorFlow for the names; a user's problem whose bounds have the wrong shapes is named, with the shapes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from bench import config_check

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def _study(tmp_path: Path) -> dict:
    for module in ("my_problem.py", "my_method.py"):
        (tmp_path / module).write_text((EXAMPLES / module).read_text())
    return yaml.safe_load((EXAMPLES / "my.yaml").read_text())


def test_four_typos_are_four_lines_with_the_closest_name_before_any_tensorflow(tmp_path):
    """As the `b3o study` console script runs (`-P`: the current directory is not put on the path, as `python -m`
    would): the study's own method's parameter is checked from its source too (it once passed here and was refused
    by the workflow seconds later)."""
    config = _study(tmp_path)
    study = config["experiments"]["my_sphere_study"]
    study["itertions"] = study.pop("iterations")  # a field
    study["methods"][0]["params"]["acquisiton"] = study["methods"][0]["params"].pop("acquisition")  # a parameter
    study["methods"][1]["params"] = {"betta": 2.0}  # a parameter of the study's own method
    study["methods"][2]["method"] = "randm"  # a method
    (tmp_path / "my.yaml").write_text(yaml.safe_dump(config))
    done = subprocess.run(
        [sys.executable, "-P", "-m", "bench.cli", "study", "--configfile", "my.yaml", "--cores", "1", "-n"],
        cwd=tmp_path, env=os.environ | {"PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 4, done.stderr
    assert all(line.startswith("b3o study: my.yaml: error: experiments.my_sphere_study") for line in lines)
    assert "unknown field(s) itertions (did you mean 'iterations'?)" in lines[0]
    assert "methods[0]: unknown parameter 'acquisiton' for method 'b3o' (did you mean 'acquisition'?)" in lines[1]
    assert "methods[1]: unknown parameter 'betta' for method 'my_method:RandomLCB' (did you mean 'beta'?)" in lines[2]
    assert "methods[2].method: unknown method 'randm' (did you mean 'random'?)" in lines[3]


def test_the_names_of_the_user_s_own_modules_are_checked_from_their_source_without_tensorflow(tmp_path):
    """A reference's attribute and a reference method's parameters are read from the module's source: neither the
    module nor TensorFlow is imported (the check takes well under a second; TensorFlow's import alone takes seconds)."""
    config = _study(tmp_path)
    study = config["experiments"]["my_sphere_study"]
    study["problems"] = ["my_problem:shifted_spheer", "brannin2"]
    study["methods"][1]["params"] = {"betta": 2.0}
    study["compare"][0]["b"] = "Randon"
    program = ("import json, sys; from bench import config_check; "
               f"lines = config_check.errors({config!r}); "
               "print(json.dumps([lines, sorted(m for m in ('tensorflow', 'my_problem', 'my_method') if m in sys.modules)]))")
    done = subprocess.run([sys.executable, "-c", program], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env=os.environ | {"PYTHONPATH": str(ROOT)})
    lines, imported = json.loads(done.stdout)
    assert imported == []
    assert lines == [
        "experiments.my_sphere_study.compare[0].b: 'Randon' not allowed (did you mean 'Random'?) (allowed: one of "
        "this experiment's labels, B3O-UCB-c, Random-LCB, Random)",
        "experiments.my_sphere_study.problems[0]: problem 'my_problem:shifted_spheer': module 'my_problem' has no "
        "attribute 'shifted_spheer' (did you mean 'shifted_sphere'?)",
        "experiments.my_sphere_study.problems[1]: unknown problem 'brannin2' (did you mean 'branin2'?); valid problems: "
        "ackley5, battery, branin2, formula-e, forrester1, hartmann6, shekel4, or a reference 'package.module:factory'",
        "experiments.my_sphere_study.methods[1]: unknown parameter 'betta' for method 'my_method:RandomLCB' (did you "
        "mean 'beta'?) (allowed: beta, candidates)",
    ]


def test_a_missing_module_is_named_with_the_closest_module_of_the_directory(tmp_path, monkeypatch):
    _study(tmp_path)
    monkeypatch.chdir(tmp_path)
    config = {"results": "r", "paper": "r/p", "experiments": {"e": {
        "problems": ["my_problm:shifted_sphere"], "seeds": 1, "batch_size": 2, "iterations": 1, "n_init": 2,
        "methods": [{"label": "R", "method": "random"}]}}}
    assert config_check.errors(config) == [
        "experiments.e.problems[0]: problem 'my_problm:shifted_sphere': no module 'my_problm' on the path "
        "(did you mean 'my_problem'?)"]


def test_compare_takes_a_problem_by_its_object_s_name_or_as_listed(tmp_path, monkeypatch):
    """`compare: problems:` accepts `shifted-sphere` (the name figures and tables show) as well as the reference the
    experiment lists; another name is refused with the spellings allowed."""
    config = _study(tmp_path)
    monkeypatch.chdir(tmp_path)
    compare = config["experiments"]["my_sphere_study"]["compare"]
    compare[0]["problems"] = ["shifted-sphere"]
    compare[1]["problems"] = ["my_problem:shifted_sphere"]
    assert config_check.errors(config) == []
    compare[0]["problems"] = ["shifted-spere"]
    assert config_check.errors(config) == [
        "experiments.my_sphere_study.compare[0].problems: 'shifted-spere' not allowed (did you mean 'shifted-sphere'?) "
        "(allowed: one of this experiment's problems, my_problem:shifted_sphere, shifted-sphere)"]


def test_a_problem_whose_bounds_have_the_wrong_shapes_is_named_with_the_shapes(tmp_path, monkeypatch):
    import problems
    from harness.registry import PluginError

    _study(tmp_path)
    (tmp_path / "bad_bounds.py").write_text(
        "from trieste.space import Box\nfrom my_problem import ShiftedSphere\n\n"
        "def narrow():\n    return ShiftedSphere(name='narrow', search_space=Box([0.0] * 4, [1.0] * 3))\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PluginError) as refused:
        problems.get("bad_bounds:narrow")
    assert str(refused.value) == (
        "problem 'bad_bounds:narrow' cannot be built: its search space's bounds have shapes (4,) (lower) and (3,) "
        "(upper); both need one number per dimension, shape (d,)")


def test_check_specs_names_every_bad_setting_once():
    """The workflow's check of the built settings (TensorFlow) shows each distinct error, not only the first."""
    specs = [{"problem": "branin2", "method": "random", "batch_size": 2, "iterations": 1, "n_init": 2, "seed": s,
              "problem_options": {"noise": 1}} for s in (0, 1)]
    specs.append({**specs[0], "problem_options": {}, "method": "qei", "n_init": 1})
    done = subprocess.run([sys.executable, "-m", "bench.cli", "check-specs"], input=json.dumps(specs), cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    lines = [line for line in done.stderr.splitlines() if line.startswith("b3o check-specs: error: ")]
    assert done.returncode == 2 and len(lines) == 2, done.stderr
    assert "bad problem_options for 'branin2'" in lines[0] and "n_init must be >= 2" in lines[1]
