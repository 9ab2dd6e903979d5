"""`b3o verify`: a seeded sample spread over methods, exact reruns reported exact, a changed published value caught,
bad input refused before any rerun."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
import yaml

from analysis.per_trial import per_trial
from analysis.tidy import load, tidy_table
from baselines.cli import main
from baselines.grid import trial_grid
from baselines.runner import run_trial
from baselines.spec import TrialSpec
from baselines.verify import Published, sample

CONFIG = {
    "results": "unused",
    "paper": "unused",
    "defaults": {"model": {"kind": "svgp", "num_inducing": 8, "maxiter": 10}},
    "experiments": {
        "tiny": {
            "problems": ["forrester1"], "seeds": 2, "batch_size": 3, "iterations": 2, "n_init": 5,
            "methods": [
                {"label": "B3O-LogEI-c", "method": "b3o", "lam": 1.0,
                 "params": {"acquisition": "logei", "temperature": "constant", "sampler": "defer",
                            "sampler_options": {"budget": 200}}},
                {"label": "Random", "method": "random"},
            ],
        }
    },
}


@pytest.fixture(scope="module")
def published(tmp_path_factory) -> Path:
    """A results directory (grid.csv, records) and its paper directory (tables/per_trial.csv) of CONFIG's trials."""
    root = tmp_path_factory.mktemp("published")
    results = root / "results"
    rows = []
    for row in trial_grid(CONFIG):
        record = results / "trials" / f"{row.spec.trial_id}.json"
        run_trial(row.spec, record)
        rows.append({**row.as_row(), "record": str(record)})
    pd.DataFrame(rows).to_csv(results / "grid.csv", index=False)
    (root / "paper/tables").mkdir(parents=True)
    per_trial(tidy_table(*load(results / "grid.csv"))).to_csv(root / "paper/tables/per_trial.csv", index=False)
    (root / "config.yaml").write_text(yaml.safe_dump(CONFIG))
    return root


def _verify(*args: str) -> tuple[int, pd.DataFrame | None]:
    code = main(["verify", *args])
    out = Path(args[args.index("--out") + 1]).with_suffix(".csv") if "--out" in args else None
    return code, (pd.read_csv(out) if out is not None and out.exists() else None)


def test_reruns_of_a_paper_directory_are_exact(published, tmp_path):
    code, table = _verify("--published", str(published / "paper"), "--configfile", str(published / "config.yaml"),
                          "--sample", "2", "--work", str(tmp_path / "work"), "--out", str(tmp_path / "verify.md"))
    assert code == 0
    assert list(table["result"]) == ["exact", "exact"]
    assert set(table["label"]) == {"B3O-LogEI-c", "Random"}  # the sample covers both methods
    assert table["same_platform"].all()
    assert "2 of 2 sampled trials reproduced exactly" in (tmp_path / "verify.md").read_text()


def test_a_published_value_that_a_rerun_does_not_give_is_reported_and_fails(published, tmp_path):
    results = tmp_path / "results"
    (results / "trials").mkdir(parents=True)
    grid = pd.read_csv(published / "results/grid.csv")
    changed = grid["trial_id"].iloc[0]
    for trial_id in grid["trial_id"]:
        record = json.loads((published / "results/trials" / f"{trial_id}.json").read_text())
        if trial_id == changed:
            record["trace"][-1]["simple_regret"] += 1e-12  # the last bits of one published value
        (results / "trials" / f"{trial_id}.json").write_text(json.dumps(record))
    grid.assign(record="").to_csv(results / "grid.csv", index=False)
    code, table = _verify("--published", str(results), "--sample", "4", "--work", str(tmp_path / "work"),
                          "--out", str(tmp_path / "verify.md"))
    assert code == 1  # a difference on the published platform is a failure to reproduce
    result = table.set_index("trial_id")["result"]
    assert result[changed] == "differs"
    assert (result.drop(changed) == "exact").all()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--sample", "0"], "--sample must be >= 1"),
        (["--configfile", "NONE"], "No such file"),
        ([], "needs --configfile"),
    ],
)
def test_bad_input_is_one_error_before_any_rerun(published, tmp_path, capsys, args, message):
    code = main(["verify", "--published", str(published / "paper"), "--work", str(tmp_path / "work"), *args])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and message in err[0]
    assert not (tmp_path / "work").exists()


def test_a_directory_that_is_not_published_is_refused(tmp_path, capsys):
    assert main(["verify", "--published", str(tmp_path)]) == 2
    assert "neither a results directory" in capsys.readouterr().err


def _trial(method: str, seed: int) -> Published:
    spec = TrialSpec(problem="forrester1", method=method, batch_size=2, iterations=1, n_init=3, seed=seed)
    return Published(spec, "e", method, "simple_regret", 0.0, "")


def test_the_sample_takes_methods_in_turn_and_follows_its_seed():
    trials = [_trial(m, s) for m in ("b3o", "random", "ts") for s in range(10)]
    chosen = sample(trials, 6, seed=0)
    assert [t.spec.method for t in chosen] == ["b3o", "random", "ts"] * 2
    assert [t.spec.trial_id for t in sample(trials, 6, seed=0)] == [t.spec.trial_id for t in chosen]
    assert [t.spec.trial_id for t in sample(trials, 6, seed=1)] != [t.spec.trial_id for t in chosen]
    assert len(sample(trials, 100, seed=0)) == 30
