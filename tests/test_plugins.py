"""A third-party package adds a problem and a method through entry points, without editing this package.

The package (`tests/data/b3o-example-sphere`: a shifted sphere with optimum 0 and a local-search method) is built
and installed by pip into a temporary directory, which the commands below get on their PYTHONPATH - so its entry
points are read from the `*.dist-info` pip wrote, as for any installed package, and the running environment is not
touched. Broken plugins are hand-written `*.dist-info` directories (what pip would write, minus the files nobody
reads). The workflow run of a user-named experiment, and the registry contract tests picking up the plugin, are
`-m slow`.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

import problems
from harness.registry import PluginError

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "tests/data/b3o-example-sphere"
DISTRIBUTION = "b3o-example-sphere 0.1.0"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The example package, installed by pip (no dependencies, no index) into a directory of its own."""
    work = tmp_path_factory.mktemp("plugin")
    source = shutil.copytree(EXAMPLE, work / "source")  # the build writes into its source tree
    target = work / "site"
    pip = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--no-index"]
    result = subprocess.run([*pip, "--target", str(target), str(source)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return target


def _env(*paths: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([*map(str, paths), str(ROOT)]), "TF_CPP_MIN_LOG_LEVEL": "3"}


def _b3o(*args: str, paths: tuple[Path, ...], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bench.cli", *args],
        env=_env(*paths),
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )


def _dist_info(root: Path, name: str, entry_points: str, module: str | None = None) -> Path:
    """A distribution `name` 0.1 in `root` with these entry_points.txt lines (and module `name`_mod, if given)."""
    info = root / f"{name.replace('-', '_')}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(entry_points)
    if module is not None:
        (root / f"{name.replace('-', '_')}_mod.py").write_text(module)
    return root


def test_the_problem_registry_lists_and_builds_the_plugin(site, monkeypatch):
    assert "shifted-sphere" not in problems.names()
    monkeypatch.syspath_prepend(str(site))
    assert "shifted-sphere" in problems.names() and problems.REGISTRY.origin("shifted-sphere") == DISTRIBUTION
    problem = problems.get("shifted-sphere", noise_variance=0.0)
    assert isinstance(problem, problems.Problem) and problem.optimum == 0.0
    x = np.array([[0.3, 0.7], [0.0, 0.0]])
    np.testing.assert_allclose(problem.evaluate(x)[:, 0], [0.0, -(0.3**2 + 0.7**2)])


def test_b3o_list_shows_the_plugin_problem_and_method(site, tmp_path):
    result = _b3o("list", paths=(site,), cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    lines = [line.strip() for line in result.stdout.splitlines()]
    assert f"shifted-sphere [plugin: {DISTRIBUTION}]" in lines
    assert f"perturb-best (step) [plugin: {DISTRIBUTION}]" in lines
    assert "hartmann6" in lines  # the built-ins are still there


def test_a_trial_of_the_plugin_problem_writes_a_record_with_its_regret(site, tmp_path):
    out = tmp_path / "record.json"
    args = ("--problem", "shifted-sphere", "--method", "random", "--batch-size", "4", "--iterations", "3")
    result = _b3o("run-trial", *args, "--n-init", "4", "--seed", "0", "--out", str(out), paths=(site,), cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    record = json.loads(out.read_text())
    assert record["problem"]["name"] == "shifted-sphere" and record["problem"]["optimum"] == 0.0
    assert record["provenance"]["versions"]["b3o-example-sphere"] == "0.1.0"
    regret = np.array([row["simple_regret"] for row in record["trace"]])
    best = np.array([row["best_value"] for row in record["trace"]])
    assert len(regret) == 4 and np.all(regret >= 0) and np.all(np.diff(regret) <= 0)
    np.testing.assert_allclose(regret, -best)  # the optimum 0 is above every value found


@pytest.mark.parametrize(
    "entry_points, with_example, message",
    [
        ("[b3o.problems]\nbroken = b3o_bad_mod:factory\n", False, (
            "entry point 'broken = b3o_bad_mod:factory' (group b3o.problems) of distribution 'b3o-bad 0.1' cannot be "
            "loaded: ModuleNotFoundError: No module named 'no_such_dependency'"
        )),
        ("[b3o.problems]\nhartmann6 = b3o_bad_mod:factory\n", False, (
            "entry point 'hartmann6 = b3o_bad_mod:factory' (group b3o.problems) of distribution 'b3o-bad 0.1' clashes "
            "with the built-in problem 'hartmann6'; rename it"
        )),
        ("[b3o.methods]\nrandom = b3o_bad_mod:factory\n", False, "clashes with the built-in method 'random'"),
        ("[b3o.problems]\nshifted-sphere = b3o_bad_mod:factory\n", True, (
            "of distribution 'b3o-bad 0.1' and entry point 'shifted-sphere = b3o_example_sphere:shifted_sphere' "
            f"(group b3o.problems) of distribution '{DISTRIBUTION}' both register problem 'shifted-sphere'"
        )),
    ],
    ids=["import-error", "problem-name-clash", "method-name-clash", "two-plugins-one-name"],
)
def test_a_bad_plugin_is_one_error_line_and_exit_2(site, tmp_path, entry_points, with_example, message):
    """`b3o list` imports every plugin problem, so it is the quick check of a new plugin (the first three cases import
    no TensorFlow: they take a second)."""
    bad = _dist_info(tmp_path / "bad", "b3o-bad", entry_points, module="import no_such_dependency\n")
    result = _b3o("list", paths=(bad, site) if with_example else (bad,), cwd=tmp_path)
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2 and result.stdout == "" and len(lines) == 1, result.stderr[-2000:]
    assert lines[0].startswith("b3o list: error: ") and message in lines[0], lines[0]


def test_a_plugin_factory_must_build_a_problem(tmp_path, monkeypatch):
    bad = _dist_info(tmp_path, "b3o-bad", "[b3o.problems]\nnot-a-problem = b3o_bad_mod:factory\n",
                     module="def factory():\n    return 42\n")
    monkeypatch.syspath_prepend(str(bad))
    with pytest.raises(PluginError, match=r"problem 'not-a-problem' \(entry point of b3o-bad 0.1\) built a int"):
        problems.get("not-a-problem")


@pytest.mark.slow
def test_the_registry_contract_tests_pick_up_the_plugin(site, tmp_path):
    """tests/test_problems.py and tests/test_well_posed.py iterate `problems.names()`: with the package installed they
    check its problem too."""
    tests = [str(ROOT / "tests" / name) for name in ("test_problems.py", "test_well_posed.py")]
    result = subprocess.run(
        [sys.executable, "-m", "pytest", *tests, "-q", "-p", "no:cacheprovider", "-k", "shifted-sphere"],
        env=_env(site), cwd=tmp_path, capture_output=True, text=True, timeout=900,
    )
    assert result.returncode == 0, result.stdout[-3000:]
    summary = result.stdout.strip().splitlines()[-1]
    assert "failed" not in summary and int(summary.split(" passed")[0].split()[-1]) >= 6, summary


@pytest.mark.slow
def test_a_user_named_experiment_of_the_plugin_runs_through_the_workflow(site, tmp_path):
    """The config names its own experiment; its trials (B3O, the plugin's method, random search) run as jobs, and it
    gets its records, the tidy table, the summary / per-trial / run-time tables and the generic progress figure."""
    for name in ("Snakefile", "workflow", "config", "profiles", "paper"):
        source = ROOT / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, tmp_path / name)
    smoke = yaml.safe_load((ROOT / "config/smoke.yaml").read_text())
    b3o = {"acquisition": "ucb", "temperature": "constant", "lam": 1.0, "sampler": "defer",
           "sampler_options": {"budget": 500}}
    experiment = {
        "problems": ["shifted-sphere"], "seeds": 2, "batch_size": 3, "iterations": 2, "n_init": 4,
        "methods": [
            {"label": "B3O-UCB-c", "method": "b3o", "params": b3o},
            {"label": "Perturb-best", "method": "perturb-best", "params": {"step": 0.05}},
            {"label": "Random", "method": "random"},
        ],
    }
    config = {"results": "results/mine", "paper": "results/mine/paper", "defaults": smoke["defaults"],
              "experiments": {"my_sphere_study": experiment}}
    (tmp_path / "mine.yaml").write_text(yaml.safe_dump(config))
    out, paper = tmp_path / "results/mine", tmp_path / "results/mine/paper"
    targets = [f"results/mine/paper/tables/{t}.csv" for t in ("summary", "per_trial", "run_times")]
    targets.append("results/mine/paper/figures/progress_my_sphere_study.png")
    result = subprocess.run(
        ["snakemake", *targets, "--cores", "2", "--configfile", "mine.yaml"],
        env=_env(site), cwd=tmp_path, capture_output=True, text=True, timeout=1800,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    assert len(list((out / "trials").glob("*.json"))) == 3 * 2
    tidy = pd.read_parquet(out / "tidy.parquet")
    assert set(tidy["experiment"]) == {"my_sphere_study"} and len(tidy) == 6 * 3
    for _, trace in tidy.sort_values("iteration").groupby("trial_id"):
        regret = trace["simple_regret"].to_numpy()
        assert np.all(regret >= 0) and np.all(np.diff(regret) <= 0)
    summary = pd.read_csv(paper / "tables/summary.csv")
    assert set(summary["label"]) == {"B3O-UCB-c", "Perturb-best", "Random"} and set(summary["n"]) == {2}
    per_trial = pd.read_csv(paper / "tables/per_trial.csv")
    assert set(per_trial["metric"]) == {"simple_regret"} and per_trial["trial_id"].nunique() == 6
    times = pd.read_csv(paper / "tables/run_times.csv")
    assert "my_sphere_study" in set(times["experiment"])
    assert (paper / "figures/progress_my_sphere_study.png").stat().st_size > 10_000


# --- `package.module:factory` references: a user's module named in the config, nothing installed -----------------


@pytest.fixture
def example_on_path(monkeypatch):
    """The example package's module importable (as from PYTHONPATH), not installed: no entry points."""
    monkeypatch.syspath_prepend(str(EXAMPLE))
    monkeypatch.delitem(sys.modules, "b3o_example_sphere", raising=False)


def _spec(**change) -> dict:
    spec = {"problem": "forrester1", "method": "random", "batch_size": 2, "iterations": 1, "n_init": 2, "seed": 0}
    return {**spec, **change}


def test_a_reference_names_a_problem_and_a_method_without_installing_them(example_on_path):
    from bench.spec import TrialSpec, validate

    spec = _spec(problem="b3o_example_sphere:shifted_sphere", method="b3o_example_sphere:PerturbBest",
                 params={"step": 0.05}, problem_options={"noise_variance": 0.0})
    trial = validate(TrialSpec.from_dict(spec))
    assert trial.problem.name == "shifted-sphere" and trial.problem.noise_variance == 0.0
    assert type(trial.method).__name__ == "PerturbBest" and trial.method.step == 0.05
    assert "b3o_example_sphere:shifted_sphere" not in problems.names()  # a reference is not a registered name


@pytest.mark.parametrize(
    "change, message",
    [
        ({"problem": "no_such_module_b3o:factory"}, (
            "problem 'no_such_module_b3o:factory': cannot import module 'no_such_module_b3o': "
            "ModuleNotFoundError: No module named 'no_such_module_b3o'"
        )),
        ({"method": "b3o_example_sphere:Missing"}, (
            "method 'b3o_example_sphere:Missing': module 'b3o_example_sphere' has no attribute 'Missing'"
        )),
        ({"method": "b3o_example_sphere:shifted_sphere"}, (
            "method 'b3o_example_sphere:shifted_sphere' is <function shifted_sphere"
        )),
        ({"problem": "b3o_example_sphere:np"}, "problem 'b3o_example_sphere:np' is <module 'numpy'"),
        ({"problem": "b3o_example_sphere:PerturbBest"}, (
            "problem 'b3o_example_sphere:PerturbBest' built a PerturbBest, not a Problem"
        )),
        ({"method": "b3o_example_sphere:"}, "is not a reference of the form 'package.module:factory'"),
        ({"method": "my-methods:Thing"}, "is not a reference of the form 'package.module:factory'"),
    ],
    ids=["no-module", "no-attribute", "method-not-a-class", "problem-not-callable", "problem-not-built",
         "no-attribute-named", "not-a-module-name"],
)
def test_a_bad_reference_is_one_clear_error(example_on_path, change, message):
    from bench.spec import TrialSpec, validate

    with pytest.raises(PluginError) as raised:
        validate(TrialSpec.from_dict(_spec(**change)))
    assert message in str(raised.value) and "\n" not in str(raised.value)


def test_a_reference_that_cannot_be_imported_is_exit_2_before_any_work(tmp_path):
    out = tmp_path / "r.json"
    args = ("--problem", "forrester1", "--method", "no_such_module_b3o:Method", "--batch-size", "2")
    args += ("--iterations", "1", "--n-init", "2", "--seed", "0", "--out", str(out))
    result = _b3o("run-trial", *args, paths=(), cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr and not out.exists()
    assert result.stderr.strip().splitlines()[-1] == (
        "b3o run-trial: error: method 'no_such_module_b3o:Method': cannot import module 'no_such_module_b3o': "
        "ModuleNotFoundError: No module named 'no_such_module_b3o'"
    )


def test_the_documented_method_example_runs_as_shown(tmp_path):
    """docs/extending.md "Add your own method": its module, written as shown, run by its command (a reference, not
    installed)."""
    readme = (ROOT / "docs/extending.md").read_text()
    section = readme[readme.index("## Add your own method") : readme.index("## Add your own problem")]
    code = section.split("```python\n")[1].split("```")[0]
    (tmp_path / "my_method.py").write_text(code)
    command = next(line for line in section.splitlines() if line.startswith("PYTHONPATH=. b3o run-trial "))
    result = _b3o(*shlex.split(command.removeprefix("PYTHONPATH=. b3o ")), paths=(tmp_path,), cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    record = json.loads((tmp_path / "mine.json").read_text())
    assert record["spec"]["method"] == "my_method:RandomLCB" and record["spec"]["params"] == {"beta": 2}
    lcb = [row["diagnostics"]["best_lcb"] for row in record["trace"][1:]]
    assert len(lcb) == record["spec"]["iterations"] and all(np.isfinite(lcb))
    batch = np.array(record["trace"][1]["points"])
    assert batch.shape == (record["spec"]["batch_size"], 2) and np.all((batch >= 0) & (batch <= 1))
