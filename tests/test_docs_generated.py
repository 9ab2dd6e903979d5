"""README.md and docs/*.md as committed: every generated section is what `python -m analysis.presentation.readme
--published` writes from the committed tables, every relative link leads to a file (and heading) that exists, and the
pages describe the package, not the story of its making; and the paper-horizon sentence says what its table says."""

from __future__ import annotations

import re
import shutil
import unicodedata
from pathlib import Path

import pandas as pd
import pytest

from analysis.data import published
from analysis.presentation import readme, verdict_history
from analysis.presentation.fit_blocks import fit_memory_block, fit_memory_trials_block, paper_scale_bound_block
from analysis.presentation.readme_blocks import cost_check_block, large_batch_block
from analysis.statistics import verdicts

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
SECTION = re.compile(r"<!-- (\w+):begin -->.*?<!-- \1:end -->", re.DOTALL)


def test_the_generated_sections_are_what_the_published_command_writes(tmp_path, monkeypatch):
    copies = []
    for page in PAGES:
        copy = tmp_path / page.relative_to(ROOT).as_posix().replace("/", "__")
        shutil.copy(page, copy)
        copies.append(copy)
    monkeypatch.chdir(ROOT)  # the sections name their tables by paths from the repository root
    assert readme.main(["--published", "--into", *map(str, copies)]) == 0
    stale = [page.name for page, copy in zip(PAGES, copies) if copy.read_text() != page.read_text()]
    assert stale == [], "rerun `python -m analysis.presentation.readme --published` from the repository root"


def test_the_published_command_covers_every_section_and_every_page_has_one():
    text = "\n".join(page.read_text() for page in PAGES)
    present = set(re.findall(r"<!-- (\w+):begin -->", text))
    written = {"glance", "claims", "run_costs", verdict_history.PAGE_SECTION} | set(readme.SECTIONS) | {
        short for shorts in readme.EXTRA.values() for short in shorts
    }
    assert present <= written, present - written
    committed = [name for name, path in published.TABLES.items() if (ROOT / path).is_file()]
    unshown = [name for name in committed if name not in present and not set(readme.EXTRA.get(name, {})) & present]
    assert unshown == []


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    kept = "".join(c for c in heading.strip().lower() if c in " -_" or unicodedata.category(c)[0] in "LNM")
    return kept.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", page.read_text(), flags=re.MULTILINE | re.DOTALL)
    return {_slug(h) for h in re.findall(r"^#+ (.+)$", text, flags=re.MULTILINE)}


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_every_relative_link_resolves(page):
    broken = []
    for target in LINK.findall(page.read_text()):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists() or (anchor and file.suffix == ".md" and anchor not in _anchors(file)):
            broken.append(target)
    assert broken == []


#: words that tell the story of the package's making rather than describe it
HISTORY = re.compile(
    r"\bissue\b|\bissues\b|\bsession\b|earlier publication|first attempt|\bno longer\b|"
    r"\b20\d\d-\d\d-\d\d\b|\bmoved since\b|\bre-?decided\b",
    re.IGNORECASE,
)


def test_every_shipped_config_is_named_in_the_usage_pages_table():
    """docs/usage.md's table says what each config runs: a config added without a row there (the confirmation's was)
    leaves a user to open it to learn what it is for."""
    table = (ROOT / "docs" / "usage.md").read_text().split("## Configs")[1].split("\n## ")[0]
    named = set(re.findall(r"`([\w.]+\.yaml)`", table))
    assert {p.name for p in (ROOT / "config").glob("*.yaml")} <= named


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_the_pages_describe_the_package_not_its_history(page):
    """Outside the generated sections (a claim's own wording and a table's date come from the committed tables)."""
    prose = SECTION.sub("", page.read_text())
    assert HISTORY.findall(prose) == []


def test_the_paper_horizon_sentence_names_each_headline_variant_s_verdict_and_its_advantage_along_the_horizon():
    """README's sentence per problem of the paper-horizon run (done-when of the large-batch study): at the last decided
    checkpoint, whether B3O-LogEI-c and B3O-UCB-c beat TS with the look's interval and seeds, and the advantage at the
    first checkpoint and the last; other variants and undecided iterations are not named."""
    def row(label, t, mean, verdict, look=(None, None, None, None)):
        look_mean, lo, hi, seeds = look
        return {"problem": "hartmann6", "label": label, "iteration": t, "mean": mean, "verdict": verdict,
                "look_mean": look_mean, "look_lo": lo, "look_hi": hi, "seeds_at_look": seeds}

    table = pd.DataFrame([
        row("B3O-LogEI-c", 6, 0.2, verdicts.HOLDS, (0.2, 0.1, 0.3, 10)),
        row("B3O-LogEI-c", 7, 0.9, None),
        row("B3O-LogEI-c", 50, 0.05, verdicts.HOLDS, (0.06, 0.01, 0.11, 20)),
        row("B3O-UCB-c", 6, 0.1, verdicts.INCONCLUSIVE, (0.1, -0.1, 0.3, 10)),
        row("B3O-UCB-c", 50, -0.1, verdicts.FAILS, (-0.1, -0.2, -0.05, 20)),
        row("B3O-LogEI-s", 50, 0.3, verdicts.HOLDS, (0.3, 0.2, 0.4, 20)),
    ])
    text = large_batch_block(table, "horizon_along.csv")
    assert "at t = 50: B3O-LogEI-c beats TS (+0.06 [0.01, 0.11], 20 seeds; its advantage +0.2 at t = 6 → +0.05 at " \
           "t = 50); B3O-UCB-c is worse than TS (" in text
    assert "B3O-LogEI-s" not in text and "+0.9" not in text
    empty = large_batch_block(table.assign(verdict=None), "horizon_along.csv")
    assert "No checkpoint of the paper-horizon run is decided yet." in empty


def test_the_bound_check_sentence_counts_every_iteration_where_the_replayed_fit_falls_below():
    """The paper-scale bound check (the collapsed fit's done-when: a bound at least the default's at every iteration)
    says so only where no replayed fit is below the recorded one, and otherwise counts them."""
    table = pd.DataFrame({"problem": "hartmann6", "recorded_fit": "lbfgs", "replayed_fit": "collapsed",
                          "n": [200, 300, 400], "difference": [12.5, 0.0, 3.0], "cpu_s": [6.0, 6.0, 6.0]})
    text = paper_scale_bound_block(table, "bound.csv")
    assert "| Hartmann (6D) | default (ELBO, q(u) fitted) | collapsed | 3 (200–400) | 3 of 3 | +0 / +3 / +12.5 | 0.3 |" in text
    assert "At every iteration, the replayed fit's ELBO is at least the recorded one." in text
    below = paper_scale_bound_block(table.assign(difference=[12.5, -0.5, 3.0]), "bound.csv")
    assert "2 of 3" in below and "below the recorded one at 1 iteration(s)" in below
    assert "at every iteration" not in below and "fresh start" not in below
    fresh = table.assign(recorded_kernel_variance=[0.5, 0.4, 0.3], kernel_variance=[0.6, 0.2, 0.3],
                         fresh_elbo=0.0, fresh_difference=[-1.0, 40.0, 2.0], fresh_kernel_variance=[0.7, 9000.0, 20.0])
    assert ("the bound is at least the recorded ELBO at 2 of 3 iterations (-1 to +40 nats), at kernel variance "
            "0.7–9000; the recorded fit's was 0.3–0.5 and the warm-started fit's 0.2–0.6.") in \
        paper_scale_bound_block(fresh, "bound.csv")


def test_the_fit_memory_section_reads_growth_per_fit_and_says_whether_the_collapsed_ways_agree():
    """What each fit leaves in memory: the growth per fit from the first to the last fit, what 50 fits add, and
    'same losses' only where the traced collapsed fit's losses equal the eager one's at every fit."""
    rows = [{"fit": fit, "m": 500, "n": 1000, "fit_number": k, "rss_mb": 900.0 + grow * (k - 1), "cpu_s": 10.0,
             "loss": 100.0 - k} for fit, grow in (("collapsed", 0.0), ("collapsed, traced", 20.0), ("default", 5.0))
            for k in (1, 2, 3)]
    table = pd.DataFrame(rows)
    text = fit_memory_block(table, "fit_memory.csv")
    assert "| 500 | 1,000 | collapsed, traced | 3 | 900 | 940 | +20 | 10 | yes |" in text
    assert "kept up to 20 MB per fit, 0.977 GiB over a trial's 50 fits" in text
    differs = table.assign(loss=[1.0, 2.0, 3.0, 1.0, 2.5, 3.0, 0.0, 0.0, 0.0])
    assert "| collapsed, traced | 3 | 900 | 940 | +20 | 10 | no |" in fit_memory_block(differs, "fit_memory.csv")
    trials = pd.DataFrame({"record": ["t", "e"], "cpu_min": [8.9, 8.6], "fit_cpu_min": [7.8, 7.7],
                           "peak_gib": [2.27, 1.24], "same_as_first": [True, False]})
    assert "a different record, 8.6 CPU minutes computed eagerly against 8.9 traced" in \
        fit_memory_trials_block(trials, "fit_memory_trials.csv")


def test_the_paper_horizon_cost_check_lists_each_setting_the_model_was_checked_on_with_its_error():
    """`b3o cost-model --model --per-setting` on the paper-horizon run: per experiment and setting, measured against
    predicted core-minutes; a setting without a checked trial is left out."""
    table = pd.DataFrame({
        "experiment": ["synthetic_b100", "all experiments", "ts on ackley5, B = 100, T = 50", "qei on ackley5, B = 5"],
        "trials": [3, 3, 3, 0], "measured_s": [600.0, 600.0, 600.0, 0.0], "predicted_s": [300.0, 300.0, 300.0, 0.0],
        "left_out": 0, "clock": "cpu", "sample": "out of sample"})
    table["error"] = table["predicted_s"] / table["measured_s"] - 1
    text = cost_check_block("large_batch_cost")(table, "cost_check.csv")
    assert text.startswith("<!-- large_batch_cost:begin -->")
    assert "| out of sample | cpu | ts on ackley5, B = 100, T = 50 | 3 | 10 | 5 | -50% |" in text
    assert "qei" not in text
