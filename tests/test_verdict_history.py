"""The verdict history (analysis.presentation.verdict_history): what git says moved, every claims.md linking it with
its own rule-driven moves, and the committed page current."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pandas as pd
import pytest
import yaml

from analysis.presentation import verdict_history as vh
from analysis.tables.claims_table import number

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = pd.read_csv(ROOT / vh.TABLE, dtype=str, keep_default_na=False)
RUNS = list(yaml.safe_load((ROOT / vh.SITE).read_text())["runs"])


def test_the_rule_change_of_the_typical_seed_ties_is_listed_with_its_moves():
    """Deciding ties and non-inferiority on the typical seed (republished in 230f46f) moved the automatic temperature's
    pre-registered claim (21) and Ackley-5's UCB comparison in it; the history names the rule commits behind them."""
    moved = COMMITTED[COMMITTED["commit"].str.startswith("230f46f")]
    auto = moved[(moved["run"] == "paper/auto_temperature") & (moved["claim"] == "auto_matches_tuned")]
    claim = auto[auto["comparison"] == ""]
    assert list(zip(claim["before"], claim["after"])) == [("does not hold", "inconclusive")]
    ackley = auto[auto["comparison"].str.startswith("ackley5: B3O-UCB-auto vs B3O-UCB-c")]
    assert list(zip(ackley["before"], ackley["after"])) == [("does not hold", "inconclusive")]
    assert (moved["why"].str.contains("rules")).all() and (moved["rule_commits"] != "").all()


def test_every_run_has_its_first_publication_and_every_claims_md_its_block():
    for run in RUNS:
        rows = COMMITTED[COMMITTED["run"] == run]
        assert (rows["after"] == "first published").sum() == 1, run
        text = (ROOT / vh.claims_md(run)).read_text()
        assert vh.block(COMMITTED, run, vh.claims_md(run)) in text, f"{run}: rerun python -m {vh.__name__}"
        assert "verdict-history.md#" in text


def test_a_block_names_each_rule_driven_move_and_nothing_else():
    table = pd.DataFrame([
        {"run": "paper/x", "claim": "c1", "comparison": "", "before": "holds", "after": "inconclusive",
         "commit": "aaaa", "date": "2026-01-01 00:00", "why": "rules", "rule_commits": "r1 2026-01-01", "subject": ""},
        {"run": "paper/x", "claim": "c2", "comparison": "", "before": "inconclusive", "after": "holds",
         "commit": "bbbb", "date": "2026-01-02 00:00", "why": "data", "rule_commits": "", "subject": ""},
    ])
    text = vh.block(table, "paper/x", Path("paper/x/claims.md"))
    assert "rule changes moved 1 published verdict(s)" in text and "claim `c1` holds → inconclusive" in text
    assert "c2" not in text and "(../../docs/verdict-history.md#paperx)" in text
    inserted = vh.with_block("# T\n\nVerdicts: 1 holds.\n\n| table |\n", text)
    assert inserted.index("Verdicts:") < inserted.index("History:") < inserted.index("| table |")
    assert vh.with_block(inserted, text) == inserted


@pytest.mark.parametrize("abbrev", [None, "16"])  # git's short hash grows with a clone's size: CI's differs from ours
def test_the_committed_history_is_what_git_says(abbrev, monkeypatch):
    if abbrev is not None:
        monkeypatch.setenv("GIT_CONFIG_COUNT", "1")
        monkeypatch.setenv("GIT_CONFIG_KEY_0", "core.abbrev")
        monkeypatch.setenv("GIT_CONFIG_VALUE_0", abbrev)
    try:
        subprocess.run(["git", "rev-parse", "--verify", "230f46f"], cwd=ROOT, check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout with history")
    now = vh.history(RUNS).astype(str).replace({"nan": ""})
    assert now.to_dict("records") == COMMITTED.to_dict("records"), f"rerun python -m {vh.__name__}"


def test_the_page_reads_in_date_order_with_claim_numbers_and_whole_words_and_a_block_names_new_data():
    """A reader found the large-batch rows out of date order (claims of 2026-12-05 above comparisons of 2026-11-29),
    claims by internal id only, commit messages cut mid-word, and a claims.md saying "rule changes moved" verdicts of
    a commit that also added seeds."""
    common = {"run": "paper/x", "before": "holds", "after": "inconclusive", "rule_commits": "r1 2026-01-01"}
    table = pd.DataFrame([
        {**common, "claim": "logei_c_best_batch", "comparison": "", "commit": "late", "date": "2026-01-05 00:00",
         "why": "rules", "subject": "short"},
        {**common, "claim": "logei_c_best_batch", "comparison": "ackley5: A vs B", "commit": "early",
         "date": "2026-01-01 00:00", "why": "rules and data", "subject": "word " * 40},
    ])
    page = vh.page(table)
    assert page.index("| early (2026-01-01 00:00)") < page.index("| late (2026-01-05 00:00)")
    assert f"| {number('logei_c_best_batch')} (`logei_c_best_batch`) |" in page
    assert "word word …" in page and "| word " * 1 in page and "wor |" not in page
    text = vh.block(table, "paper/x", Path("paper/x/claims.md"))
    assert text.count("; its data changed in the same commit") == 1
    assert "History: rule changes (some with new data) moved 2 published verdict(s)" in text
    assert text.index("early (") < text.index("late (")


def test_the_typical_seed_readings_are_in_the_history_too():
    """The headline's and the robust tables' readings (ahead / behind / open, tables/robust.csv) were left out of the
    history: the 2026-12-05 rule change moved three of the extended run's from open to ahead."""
    readings = COMMITTED[COMMITTED["comparison"].str.startswith("typical seed, ")]
    moved = readings[readings["commit"].str.startswith("230f46f") & (readings["run"] == "paper/extended")]
    assert len(moved) == 3 and set(zip(moved["before"], moved["after"])) == {("open", "ahead")}
    assert "typical seed, ackley5: TS vs Seq-EI at 350" in set(moved["comparison"])
