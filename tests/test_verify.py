"""`b3o verify`: a seeded sample spread over methods, exact reruns reported exact, a changed published value caught,
bad input refused before any rerun."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
import yaml

from analysis.data.per_trial import per_trial
from analysis.data.tidy import load, tidy_table
from analysis.claims.verify import Published, sample
from bench.cli import main
from bench.grid import trial_grid
from bench.runner import run_trial
from bench.spec import TrialSpec

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


@pytest.mark.slow  # reruns every seed of a setting (the statistical mode's decisions are tested below, in-process)
def test_off_its_platform_a_differing_trial_sends_its_setting_to_the_statistical_check(published, tmp_path):
    """Published on another platform (its id differs) with other values: not a failure, but every seed of the
    setting is rerun and compared; two seeds cannot decide equivalence, and the report says so."""
    results = tmp_path / "results"
    (results / "trials").mkdir(parents=True)
    grid = pd.read_csv(published / "results/grid.csv")
    for trial_id in grid["trial_id"]:
        record = json.loads((published / "results/trials" / f"{trial_id}.json").read_text())
        record["provenance"]["platform_id"] = "another-cpu"
        record["trace"][-1]["simple_regret"] += 1e-6
        (results / "trials" / f"{trial_id}.json").write_text(json.dumps(record))
    grid.assign(record="").to_csv(results / "grid.csv", index=False)
    code, table = _verify("--published", str(results), "--sample", "1", "--work", str(tmp_path / "work"),
                          "--out", str(tmp_path / "verify.md"))
    assert code == 0 and list(table["result"]) == ["differs"] and not table["same_platform"].any()
    text = (tmp_path / "verify.md").read_text()
    assert "every seed rerun" in text and "| 2 |" in text and "| inconclusive |" in text


def _setting(
    offsets: list[float], problem: str = "ackley5", metric: str = "simple_regret", scale: float = 1.0
) -> tuple[list[Published], list[dict], dict]:
    """Published trials (one per offset, values near `scale`) and the records their reruns would give: the published
    value moved by `offset` margins (`problems.margins`: regret times 1 + offset·(ρ − 1), else offset·δ more)."""
    from problems.margins import margin

    tie = margin(problem, metric)
    trials, records = [], {}
    for seed, offset in enumerate(offsets):
        spec = TrialSpec(problem=problem, method="ts", batch_size=2, iterations=1, n_init=3, seed=seed)
        published = (1.0 + 0.1 * seed) * scale * (1.0 if tie.kind == "ratio" else 1e5)
        again = published * (1 + offset * (tie.value - 1)) if tie.kind == "ratio" else published + offset * tie.value
        trials.append(Published(spec, "e", "TS", metric, published, "published-platform"))
        records[spec.trial_id] = {"trace": [{"num_evals": 5, metric: again}]}
    lines = [{"experiment": "e", "label": "TS", "problem": problem, "result": "differs", "same_platform": False}]
    return trials, lines, records


@pytest.mark.parametrize(
    "offsets, expected",
    [
        ([0.01 * (-1) ** s for s in range(10)], "consistent (equivalent within the margin)"),
        ([3.0 + 0.01 * (-1) ** s for s in range(10)], "inconsistent"),
        ([0.01 * (-1) ** s for s in range(5)], "inconclusive"),  # five seeds cannot decide anything
    ],
)
@pytest.mark.parametrize("problem, metric", [("ackley5", "simple_regret"), ("battery", "hypervolume")])
def test_the_statistical_check_decides_by_the_problems_margin(monkeypatch, tmp_path, offsets, expected, problem,
                                                               metric):
    import analysis.claims.verify as verify

    trials, lines, records = _setting(offsets, problem, metric)
    monkeypatch.setattr(verify, "rerun", lambda trial, work: records[trial.spec.trial_id])
    (setting,) = verify.statistical(trials, lines, tmp_path)
    assert setting["seeds"] == len(offsets) and setting["result"] == expected
    assert setting["margin"] == ("×1.25" if metric == "simple_regret" else "±4.65e+03")


def test_the_statistical_check_ties_regret_by_ratio_at_any_scale(monkeypatch, tmp_path):
    """Reruns scattered ±0.25 % about a regret near 0.001 (a long horizon) are consistent, as about a regret near 1;
    reruns twice the published regret are not, however small both are."""
    import analysis.claims.verify as verify

    wiggle = [0.01 * (-1) ** s for s in range(10)]
    for scale, offset, expected in ((1e-3, 0.0, verify.CONSISTENT), (1.0, 0.0, verify.CONSISTENT),
                                    (1e-3, 4.0, verify.INCONSISTENT)):
        trials, lines, records = _setting([offset + w for w in wiggle], scale=scale)
        monkeypatch.setattr(verify, "rerun", lambda trial, work, records=records: records[trial.spec.trial_id])
        (setting,) = verify.statistical(trials, lines, tmp_path)
        assert setting["result"] == expected, (scale, offset, setting)


def test_claims_whose_verdict_reruns_would_change_are_named():
    """On the committed per-trial table: reruns that make TS far better on Ackley-5 overturn the headline claim."""
    from analysis.data.per_trial import read
    from analysis.claims.verify import claims_changed

    table = read(Path(__file__).resolve().parents[1] / "paper/tables/per_trial.csv")
    ts = table[(table["experiment"] == "synthetic_b100") & (table["label"] == "TS") & (table["problem"] == "ackley5")]
    # next to the optimum (a regret of exactly 0 has no log ratio for the tie margin)
    reruns = {trial_id: {"trace": [{"num_evals": 350, "simple_regret": 1e-9}]} for trial_id in ts["trial_id"]}
    changed = claims_changed(table, [{"reruns": reruns}])
    headline = {c["claim"]: c for c in changed}["b3o_beats_ts_b100"]
    assert headline["published"] != headline["rerun"] == "does not hold"
    assert claims_changed(table, []) == []
