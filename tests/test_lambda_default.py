"""The pre-registered check of B3O's default temperature (tools/lambda_default.py, its plan tools/lambda_default.yaml):
its functions are none the package was tuned on, its decision is the plan's sign tests under Holm, its run resumes
without repeating a campaign, and it refuses to publish before every campaign has finished."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def tool():
    spec = importlib.util.spec_from_file_location("lambda_default", ROOT / "tools" / "lambda_default.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _table(tool, lower: dict[str, int]) -> pd.DataFrame:
    """Final rows of every campaign of the plan: method M ends below the default on `lower[M]` seeds of each
    function (a regret of 1 against the default's 2), above it on the rest."""
    p = tool.plan()
    rows = []
    for function, seed, method in tool.campaigns(p):
        index = seed - p["seeds"]["first"]
        value = 2.0 if method == p["default"] else (1.0 if index < lower.get(method, 0) else 3.0)
        minimum = float(__import__("trieste.objectives", fromlist=[function]).__dict__[function].minimum.numpy().min())
        warned = "BoltzmannBatch at t = 6 with Constant(5.0): the density has collapsed" if index == 0 else None
        rows.append({"function": function, "seed": seed, "method": method, "batch": p["size"]["batches"],
                     "best": minimum + value, "b3o_ess_fraction": 0.01, "b3o_relative_diversity": 0.5,
                     "relative_nearest_neighbour": 0.25,
                     "warnings": warned if method == "B3O λ = 5" else None})
    return pd.DataFrame(rows)


def test_the_plan_names_functions_no_problem_of_the_package_was_tuned_on(tool):
    from problems import names

    p = tool.plan()
    tuned = {n.lower().replace("-", "").replace("_", "") for n in names()}
    assert not {f.lower() for f in p["functions"]} & tuned
    assert "Levy8" not in p["functions"]  # it suggested the question
    assert len(tool.campaigns(p)) == len(p["functions"]) * p["seeds"]["count"] * 4


def test_the_questions_are_decided_by_the_sign_test_under_holm(tool):
    p = tool.plan()
    pairs = len(p["functions"]) * p["seeds"]["count"]
    decided = tool.decide(_table(tool, {"B3O λ = 5": 15, "B3O UpperTail": 11}), p).set_index("question")
    assert decided.loc["H1", ["below", "above", "pairs"]].tolist() == [45, 15, pairs]
    assert decided.loc["H1", "reading"] == "ends lower"  # 45 of 60: p ~ 1e-4
    assert decided.loc["H2", "reading"] == "not decided"  # 33 of 60: p ~ 0.5
    assert decided.loc["H1", "p_holm"] == pytest.approx(2 * decided.loc["H1", "p"])
    worse = tool.decide(_table(tool, {"B3O λ = 5": 5}), p).set_index("question")
    assert worse.loc["H1", "reading"] == "ends higher"
    text = tool.block(_table(tool, {"B3O λ = 5": 15, "B3O UpperTail": 11}), p)
    assert "H1: **B3O λ = 5 ends below the default** on most pairs (B3O λ = 5 lower on 45 of 60" in text
    assert "H2: **not decided** between B3O UpperTail and the default" in text
    assert ("B3O λ = 5 ESS/N 0.01, spread 0.5 and nearest-neighbour distance 0.25 of a uniform batch's, a warning on "
            "3 of 60 batches") in text
    assert "B3O UpperTail ESS/N 0.01, spread 0.5 and nearest-neighbour distance 0.25" in text


def test_a_run_skips_finished_campaigns_and_publishing_waits_for_all(tool, tmp_path, monkeypatch):
    p = tool.plan()
    stamp = {"platform_id": "p", "git_sha": "c", "git_dirty": False, "finished_utc": "t"}
    monkeypatch.setattr(tool, "stamp", lambda: stamp)
    table = _table(tool, {})
    first = table.loc[table["function"] == p["functions"][0], ["function", "seed", "method", "batch", "best"]].assign(
        **stamp)
    first.to_csv(tmp_path / "rows.csv", index=False)
    ran = []
    monkeypatch.setattr(tool.worked, "campaign", lambda method, seed, size, function: ran.append(
        (function, seed, method)) or [{"best": np.nan, "method": method, "seed": seed, "batch": 0}])
    monkeypatch.setattr(tool, "campaigns", lambda plan: [*map(tuple, first[tool.KEY].itertuples(index=False)),
                                                         ("Trid10", 1000, "TS")])
    assert tool.publish(tmp_path) == 2  # one campaign missing: refused
    assert tool.run(tmp_path) == 0
    assert ran == [("Trid10", 1000, "TS")]
    rows = pd.read_csv(tmp_path / "rows.csv")
    assert len(rows) == len(first) + 1 and rows.iloc[-1]["method"] == "TS"  # appended in the file's column order
    monkeypatch.setattr(tool, "stamp", lambda: {"other": 1})
    monkeypatch.setattr(tool, "campaigns", lambda plan: [("Trid10", 1001, "TS")])
    with pytest.raises(ValueError, match="give a new --results directory"):  # other columns: refused, not mixed
        tool.run(tmp_path)


def test_the_plans_raw_unit_distances_are_published_in_box_widths(tool):
    """The plan's run measured nearest-neighbour distances in raw units; on a cube they rescale exactly by its width
    (Trid-10: 200, Michalewicz-5: pi), and rows of any other commit are left as they are."""
    raw = next(iter(tool.RAW_UNITS))
    table = pd.DataFrame({"function": ["Trid10", "Michalewicz5", "Rosenbrock4", "Trid10"],
                          "relative_nearest_neighbour": [200.0, np.pi, 0.5, 0.7], "git_sha": [raw, raw, raw, "later"]})
    assert tool.in_box_widths(table)["relative_nearest_neighbour"].tolist() == pytest.approx([1.0, 1.0, 0.5, 0.7])
