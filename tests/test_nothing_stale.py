"""Nothing stale: every page that states a verdict, a margin or the margins' rule states the current one. A committed
table that a generated section is written from agrees with its run's current comparisons; a claim's verdict written in
prose is the verdict README.md's glance takes from the claims tables; a margin factor anywhere is problems/margins.yaml's
and the margin is never described by a rule it no longer has."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest
import yaml

from analysis.data import published
from analysis.presentation.glance import chosen

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "paper").glob("**/claims.md"))]
MARGINS = yaml.safe_load((ROOT / "problems/margins.yaml").read_text())
#: a margin factor as the pages write it: "×1.25", "a factor of 1.25", "factor 1.25"
FACTOR = re.compile(r"(?:×|\bfactor (?:of )?)(\d+(?:\.\d+)?)")
#: the margin described by a scale it was once on (problems/margins.yaml's history), not its `regret_ratio_on`
OLD_RULES = {
    "median_log_ratio": re.compile(r"(geometric|arithmetic)[- ]means? (of the )?regrets? (tie )?within", re.IGNORECASE),
}
#: a claim's verdict written in words: "claim 21 does not hold", "(claim 5 holds)", "claim 7 is inconclusive"
STATED = re.compile(r"\bclaim (\d+) (?:is )?(does not hold|holds|inconclusive)\b")


def _relative(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("page", PAGES, ids=_relative)
def test_every_margin_factor_on_a_page_is_the_current_one(page):
    ratio = MARGINS["regret_ratio"]
    text = page.read_text()
    others = sorted({float(m.group(1)) for m in FACTOR.finditer(text)
                     if f"{float(m.group(1)):g}" != f"{ratio:g}" and _is_margin(text, m)})
    assert others == [], f"{_relative(page)} states margin factor(s) {others}; problems/margins.yaml has {ratio}"
    old = OLD_RULES[MARGINS["regret_ratio_on"]]
    assert old.findall(text) == [], f"{_relative(page)} describes the margin by a rule it no longer has"


def _is_margin(text: str, match: re.Match) -> bool:
    """Whether a factor is written as a margin: a comparison's ×margin, or "margin" or "tie" in its sentence."""
    if match.group(0).startswith("×"):
        return True
    start = max(text.rfind(".", 0, match.start()), text.rfind("\n\n", 0, match.start())) + 1
    end = text.find(".", match.end())
    sentence = text[start: end if end >= 0 else len(text)].lower()
    return "margin" in sentence or re.search(r"\btie", sentence) is not None


def _glance() -> dict[int, str]:
    tables = {run: pd.read_csv(ROOT / path) for run, path in published.CLAIMS.items() if (ROOT / path).is_file()}
    return {int(number): row["verdict"] for number, (_, row) in chosen(tables).items()}


@pytest.mark.parametrize("page", [p for p in PAGES if p.parent.name != "paper" and "claims" not in p.name],
                         ids=_relative)
def test_a_claims_verdict_written_on_a_page_is_its_current_verdict(page):
    verdicts = _glance()
    text = page.read_text()
    wrong = [(int(n), said) for n, said in STATED.findall(text)
             if int(n) in verdicts and not verdicts[int(n)].startswith(said)]
    assert wrong == [], f"{_relative(page)} states {wrong}; the claims tables say otherwise"


def test_every_committed_verdict_table_agrees_with_its_runs_current_comparisons():
    """A generated section's table that carries a verdict per comparison (the automatic temperature's) holds the verdict
    its run's comparisons.csv holds now: a table left from before a rule change fails here."""
    checked = 0
    for name, path in published.TABLES.items():
        table_path = ROOT / path
        comparisons = table_path.parent / "comparisons.csv"
        if not table_path.is_file() or not comparisons.is_file() or table_path == comparisons:
            continue
        table = pd.read_csv(table_path)
        keys = next((pair for pair in (("auto", "rival"), ("left", "right")) if set(pair) <= set(table)), None)
        if keys is None or not {"name", "problem", "verdict"} <= set(table):
            continue
        now = pd.read_csv(comparisons)
        joined = table.merge(now, left_on=["name", "problem", *keys], right_on=["name", "problem", "left", "right"],
                             suffixes=("", "_now"))
        assert len(joined) == len(table), f"{path}: rows its run's comparisons no longer have"
        moved = joined[joined["verdict"] != joined["verdict_now"]]
        assert moved.empty, f"{path} is stale: {moved[['problem', *keys, 'verdict', 'verdict_now']].to_dict('records')}"
        checked += 1
    assert checked >= 1  # the automatic temperature's table at least


def test_the_checks_find_what_they_look_for(tmp_path):
    """The patterns catch the stale statements this test exists for."""
    assert FACTOR.findall("within a factor of 1.5 (margin ×1.5)") == ["1.5", "1.5"]
    assert OLD_RULES["median_log_ratio"].findall("geometric-mean regrets tie within a factor 1.25")
    assert STATED.findall("for UCB (claim 21 does not hold), and claim 7 is inconclusive") == [
        ("21", "does not hold"), ("7", "inconclusive")]


def test_the_readmes_claims_table_says_where_the_default_run_decides_otherwise():
    """Every claim the glance takes from another run than the default, where the default decides it otherwise, is
    named with the default's verdict (item: nothing mixed without a word)."""
    tables = {run: pd.read_csv(ROOT / path) for run, path in published.CLAIMS.items() if (ROOT / path).is_file()}
    own = tables["default"].set_index("number")["verdict"]
    differ = [n for n, (run, r) in chosen(tables).items()
              if run != "default" and n in own.index and own[n] not in ("not measured", r["verdict"])]
    readme = (ROOT / "README.md").read_text()
    line = next((x for x in readme.splitlines() if "decides a claim otherwise" in x), "")
    for n in differ:
        assert f"{n} ({own[n]})" in line
    assert bool(differ) == bool(line)


def test_a_verdict_read_at_a_scale_the_paper_did_not_use_says_so():
    from analysis.presentation.glance import verdict_at_scale

    claim = "On Shekel, Seq-EI reaches the lowest final regret (here Seq-EI ran 50 sequential steps, the paper's 750)"
    said = verdict_at_scale(claim, "does not hold")
    assert said.startswith("does not hold at 50 Seq-EI sequential steps; the paper's 750 not run")
    assert verdict_at_scale("All batch methods beat random search", "holds") == "holds"
    assert verdict_at_scale(claim, "not measured") == "not measured"
    readme = (ROOT / "README.md").read_text()
    for line in readme.split("<!-- glance:begin -->")[1].split("<!-- glance:end -->")[0].splitlines():
        if "(here Seq-EI ran" in line and "not measured" not in line:
            assert "not an answer to the paper's claim" in line
