"""The answer first (analysis.tables.headline, analysis.presentation.headline, analysis.figures.improvement_along):
every number of the README's answer held to the run's tables, recomputed here from the per-trial table and the
robust readings; the stuck-seed rule's defect said where its threshold lies above every regret; the basin reading
defined from the problem; the same answer on the site; the figure's filled and hollow points."""

from __future__ import annotations

import re
from html import escape
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import PathCollection
from scipy import stats

from analysis.data import published
from analysis.formatting import number
from analysis.naming import problem_title
from analysis.presentation import headline as words
from analysis.tables import headline, robust as robust_table

ROOT = Path(__file__).resolve().parents[1]
RUN = ROOT / Path(published.TABLES["headline"]).parent.parent


def _answer() -> str:
    readme = (ROOT / "README.md").read_text()
    return re.search(r"<!-- headline:begin -->\n.*?\n(.*?)<!-- headline:end -->", readme, re.DOTALL).group(1)


def _leaderboard(block: str) -> dict[tuple[str, str], list[str]]:
    """(problem title, method) -> the row's cells after the method, from the README's leaderboard."""
    rows, problem = {}, ""
    for line in block.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if not line.startswith("|") or cells[1] in ("method", "---"):
            continue
        problem = cells[0] or problem
        rows[(problem, cells[1])] = cells[2:]
    return rows


def test_the_readme_opens_its_results_with_the_answer_and_stays_short():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 250
    results = readme.index("## Results at a glance")
    assert readme.index("<!-- headline:begin -->") - results < 40  # the first thing under the heading
    block = _answer()
    assert "improvement_along.png" in block and "docs/glossary.md" in block


def test_every_number_of_the_leaderboard_is_what_the_per_trial_table_and_the_readings_give():
    """Medians, quartiles, IQM and basin counts recomputed from per_trial.csv (basin from the problems' own
    basin_regret as headline.csv records it), P(ends below TS) and its interval from robust.csv at the last
    checkpoint, the reading's words from the same row."""
    trials = pd.read_csv(RUN / "tables" / "per_trial.csv")
    table = pd.read_csv(RUN / "tables" / "headline.csv")
    readings = pd.read_csv(RUN / "tables" / "robust.csv")
    readings = readings[(readings["kind"] == "horizon") & (readings["right"] == "TS")]
    rows = _leaderboard(_answer())
    assert len(rows) == len(table) + table["problem"].nunique()  # every variant and TS, once per problem
    for problem, own in table.groupby("problem"):
        basin = own["basin_regret"].iloc[0]
        last = own["t"].iloc[0]
        for label in ["TS", *own["label"]]:
            values = trials[(trials["problem"] == problem) & (trials["label"] == label)]["value"].to_numpy()
            q1, median, q3 = np.quantile(values, [0.25, 0.5, 0.75])
            cells = rows[(problem_title(problem), label)]
            assert cells[0] == f"{number(median)} [{number(q1)}, {number(q3)}]"
            assert cells[1] == number(stats.trim_mean(values, 0.25))
            assert cells[4] == f"{int(np.sum(values < basin))} of {len(values)}"
            if label == "TS":
                continue
            r = readings[(readings["problem"] == problem) & (readings["left"] == label)
                         & (readings["iteration"] == last)].iloc[0]
            assert cells[2] == f"{r.share:.2f} [{r.share_lo:.2f}, {r.share_hi:.2f}]"
            assert cells[3] == words.TYPICAL[r.reading]


def test_the_sentences_and_the_scale_say_what_the_tables_say():
    table = pd.read_csv(RUN / "tables" / "headline.csv")
    block = _answer()
    first = table.iloc[0]
    assert f"T = {first.iterations} batches of B = {first.batch_size}" in block
    assert f"M = {words.inducing()} inducing points (the paper's {words.PAPER_INDUCING})" in block
    m_check = pd.read_csv(ROOT / words.M_CHECK)
    assert f"{int(m_check['n'].iloc[0])} seeds" in block
    for problem, rows in table.groupby("problem"):
        line = next(line for line in block.splitlines() if line.startswith(f"- **{problem_title(problem)}**"))
        assert f"TS {number(rows['rival_final_median'].iloc[0])}" in line
        for r in rows.itertuples():
            assert r.label in line
        decided = rows[rows["reading"] != "open"]
        assert (f"{decided['share'].min():.2f}" in line) if len(decided) else "decided" not in line


def test_the_stuck_line_states_its_defect_only_where_the_threshold_is_above_every_regret():
    base = {"problem": "shekel4", "label": "B3O-UCB-c", "rival": "TS", "stuck": 0, "stuck_n": 30, "rival_stuck": 0,
            "rival_n": 30, "k": 10.0, "typical": 1.48, "regret_bound": 10.5}
    text = words.stuck_line(pd.DataFrame([base]))
    assert "threshold 14.8" in text and "a defect" in text and "cannot flag a seed" in text
    fine = words.stuck_line(pd.DataFrame([{**base, "typical": 0.5}]))  # 5 < 10.5: the rule can fire
    assert "defect" not in fine and "threshold 5" in fine
    committed = words.stuck_line(pd.read_csv(RUN / "tables" / "headline.csv"))
    assert committed.count("a defect") == 1 and "Shekel (4D) (threshold 14.8)" in committed  # 10 × 1.48 > 10.4


def test_the_basin_reading_is_defined_from_the_problem_and_labelled_post_hoc():
    table = pd.read_csv(RUN / "tables" / "headline.csv")
    import problems

    for problem, rows in table.groupby("problem"):
        assert rows["basin_regret"].iloc[0] == pytest.approx(problems.get(problem).basin_regret)
        assert rows["regret_bound"].iloc[0] <= problems.get(problem).optimum + 1e-9 or problem != "shekel4"
    line = words.basin_line(table)
    assert "post hoc" in line and "confirmation.yaml" in line and "5.36" in line
    assert "(post hoc)" in _answer()


def test_headline_rows_join_the_readings_the_stuck_counts_and_the_final_regrets():
    rng = np.random.default_rng(0)
    trials = pd.DataFrame([
        {"experiment": "synthetic_b100", "trial_id": f"{label}{seed}", "label": label, "problem": "ackley5",
         "method": method, "seed": seed, "batch_size": 100, "iterations": 50, "n_init": 100,
         "lam": 1.0 if method == "b3o" else np.nan, "sampler": "defer" if method == "b3o" else "",
         "temperature": "constant" if method == "b3o" else "",
         "metric": "simple_regret", "lower_is_better": True, "final_budget": 5100, "budget": 5100,
         "value": (2.0 if seed == 300 and label == "TS" else scale * rng.uniform(0.5, 1.5))}
        for seed in range(300, 312) for label, method, scale in (("B3O-UCB-c", "b3o", 0.01), ("TS", "ts", 0.02))
    ])
    along = pd.DataFrame([
        {"experiment": "synthetic_b100", "problem": "ackley5", "label": "B3O-UCB-c", "iteration": t, "look": 1.0,
         "seeds_at_look": 12, "verdict": v, "look_mean": 0.1, "look_lo": 0.0, "look_hi": 0.2}
        for t, v in ((6, "holds"), (50, "inconclusive"))
    ])
    readings = pd.DataFrame(robust_table.horizon_rows(along[along["iteration"] == 50], trials.assign(iteration=50)))
    frame = headline.headline(along, readings, robust_table.stuck_table(trials), trials, bounds=lambda p: (1.0, 5.0))
    row = frame.iloc[0]
    assert (row["ahead_at"], row["verdict"], row["wins"], row["n"], row["rival_stuck"]) == ("6", "inconclusive", 12, 12, 1)
    ts = trials[trials["label"] == "TS"]["value"]
    assert row["rival_final_median"] == pytest.approx(ts.median())
    assert row["rival_final_iqm"] == pytest.approx(stats.trim_mean(ts, 0.25))
    assert (row["basin"], row["rival_basin"]) == (12, 11)  # TS's far seed (2.0) ends outside the basin (1.0)
    text = "\n".join(words.lines(frame))
    assert "B3O-UCB-c ends below TS on most seeds (P 1.00, decided)" in text and "| Ackley (5D) | TS |" in text


def test_the_site_index_and_the_run_page_open_with_the_same_answer(tmp_path, monkeypatch):
    from analysis.site import answer, html, index

    run = Path(published.TABLES["headline"]).parent.parent
    for name in ("tables/headline.csv", f"figures/{words.FIGURE}"):
        (tmp_path / run / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / run / name, tmp_path / run / name)
    (tmp_path / "docs").mkdir()
    shutil.copy(ROOT / words.GLOSSARY, tmp_path / words.GLOSSARY)
    monkeypatch.chdir(tmp_path)  # the site lives beside its runs, which it names from the repository root
    page = index.index_page([run], tmp_path / "site").read_text()
    table = pd.read_csv(run / "tables" / "headline.csv")
    assert page.index("The answer") < page.index("<h2>Runs</h2>")
    for title, text in words.bullets(table):
        assert f"<strong>{html.text(title)}</strong>, {html.text(text)}" in page
    assert words.FIGURE in page and 'href="glossary.html"' in page and page.count("<tr>") >= len(table) + 3
    section = answer.answer_section(run, tmp_path / "site" / "x", tmp_path / "site")
    assert section.startswith("<h2>The answer</h2>") and "(post hoc)" in section
    assert 'href="../glossary.html"' in section  # a run's page, one folder below the site's


def test_the_sites_glossary_is_a_page_of_the_site_rendered_from_docs_glossary_md(tmp_path):
    """Served on its own, the site's link to docs/glossary.md showed raw Markdown (or nothing): the site writes the
    glossary as its own page, every term of docs/glossary.md in it, and its links to other docs reach docs/."""
    from analysis.site import glossary

    page = glossary.write(tmp_path / "site", ROOT / "docs" / "glossary.md").read_text()
    terms = re.findall(r"^- \*\*(.+?)\*\*", (ROOT / "docs" / "glossary.md").read_text(), flags=re.M)
    assert len(terms) > 20 and all(f"<strong>{escape(t, quote=False)}</strong>" in page for t in terms)
    links = re.findall(r'href="([^"]+)"', page)
    assert "method.md" not in links and any(link.endswith("docs/method.md") for link in links)
    assert all((tmp_path / "site" / link).resolve() == (ROOT / "docs" / Path(link).name).resolve()
               for link in links if link.endswith(".md"))
    assert glossary.link(tmp_path / "site" / "run", tmp_path / "site") == (
        '<p>Every word of these pages: <a href="../glossary.html">the glossary</a>.</p>')
    assert glossary.write(tmp_path / "site", tmp_path / "absent.md") is None
    assert glossary.link(tmp_path, tmp_path, tmp_path / "absent.md") == ""


def test_the_figure_fills_decided_readings_and_leaves_the_rest_hollow():
    from analysis.figures import improvement_along as figure

    readings = pd.read_csv(RUN / "tables" / "robust.csv")
    rows = figure.along(readings)
    assert set(rows["t"]) == {6, 12, 25, 50} and (rows["right"] == "TS").all()
    fig = figure.draw(rows)
    hollow = filled = 0
    for ax in fig.axes:
        for points in ax.collections:
            if not isinstance(points, PathCollection) or not len(points.get_offsets()):  # scatters, not error bars
                continue
            white = np.all(np.isclose(points.get_facecolors()[:, :3], 1.0))  # one face colour per call
            hollow += len(points.get_offsets()) if white else 0
            filled += 0 if white else len(points.get_offsets())
    assert hollow == int((rows["reading"] == "open").sum())
    assert filled == int(rows["reading"].isin(figure.DECIDED).sum())


def test_the_readmes_run_time_names_the_machine_it_was_measured_on(tmp_path):
    from analysis.presentation.readme_blocks import run_cost_block

    times = pd.DataFrame([{"experiment": "all experiments", "label": "all methods", "trials": 10, "total_s": 600.0,
                           "total_cpu_s": 500.0, "span_min": 7.0}])
    (tmp_path / "provenance.csv").write_text(
        'item,value\nplatforms,abc (10 trials)\nplatform abc,"CPU: Intel Xeon Gold 6230; OS: Linux"\n')
    text = run_cost_block(times, str(tmp_path / "run_times.csv"))
    assert "Measured on Intel Xeon Gold 6230" in text and "b3o estimate" in text
    assert "Measured on" not in run_cost_block(times, str(tmp_path / "elsewhere" / "run_times.csv"))
    readme = (ROOT / "README.md").read_text()
    assert "Measured on" in readme.split("<!-- run_cost:begin -->")[1].split("<!-- run_cost:end -->")[0]


def test_an_interval_clear_of_zero_beside_an_undecided_verdict_says_the_level_that_decided():
    from analysis.presentation.readme_blocks import large_batch_block

    def row(t, lo, verdict, p_holm):
        return {"problem": "ackley5", "label": "B3O-LogEI-c", "iteration": t, "mean": 0.07, "verdict": verdict,
                "look_mean": 0.07, "look_lo": lo, "look_hi": 0.3, "seeds_at_look": 30, "n": 30, "p_holm": p_holm,
                "level": 0.0217}

    text = large_batch_block(pd.DataFrame([row(6, 0.1, "holds", 0.001), row(50, 0.0085, "inconclusive", 1.0)]), "x")
    assert "its 95 % interval excludes 0, but its paired tests' p after Holm, 1, is above the level 0.0217" in text
    plain = large_batch_block(pd.DataFrame([row(6, 0.1, "holds", 0.001), row(50, -0.01, "inconclusive", 1.0)]), "x")
    assert "excludes 0" not in plain


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def test_the_committed_screenshots_show_each_page_the_site_opens_with():
    from PIL import Image

    from analysis.site import screenshots

    for name in screenshots.pages(Path("site")):
        with Image.open(ROOT / "docs" / "screenshots" / f"{name}.png") as shot:
            assert shot.size == screenshots.WINDOW


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH (install it with tools/install-chromium.sh as root)")
def test_the_site_index_renders_its_answer_above_the_fold(tmp_path):
    """The committed site's index in headless Chromium: a first screen with ink (not a blank or error page)."""
    from PIL import Image

    from analysis.site import screenshots

    shot = screenshots.shoot(ROOT / "site" / "index.html", tmp_path / "index.png", CHROMIUM)
    with Image.open(shot) as image:
        grey = np.asarray(image.convert("L"))
    assert grey.shape == screenshots.WINDOW[::-1] and (grey < 128).mean() > 0.01


def test_claims_md_links_the_glossary_from_where_it_is_written(tmp_path, monkeypatch):
    """The claims.md writer links docs/glossary.md relative to the page (`paper/large_batch/claims.md` ->
    ../../docs/glossary.md); a page written where the repository's glossary is not at hand links nothing."""
    from analysis.tables import claims_table

    text = claims_table.markdown([], "per_trial.csv", (), "../../docs/glossary.md")
    assert "Every word: [the glossary](../../docs/glossary.md)." in text.splitlines()[2]
    assert "glossary" not in claims_table.markdown([], "per_trial.csv")
    assert (ROOT / claims_table.GLOSSARY).is_file()


def test_the_scale_sentence_says_the_confirmation_is_running_then_what_replicated(tmp_path: Path) -> None:
    """Before the confirmation publishes, the headline says its plan is committed and the readings stay exploratory;
    once its table is published, how many replicated; without a plan, nothing."""
    from analysis.presentation.headline import CONFIRMATION, CONFIRMATION_PLAN, confirmation_note

    plan = tmp_path / CONFIRMATION_PLAN
    assert confirmation_note(tmp_path, plan) == ""
    plan.parent.mkdir(parents=True)
    plan.write_text("plan")
    assert "is running" in confirmation_note(tmp_path, plan) and "stay exploratory" in confirmation_note(tmp_path, plan)
    (tmp_path / CONFIRMATION).parent.mkdir(parents=True)
    pd.DataFrame({"status": ["replicated", "open", "descriptive", "replicated"], "look": [1, 1, None, 1]}).to_csv(
        tmp_path / CONFIRMATION, index=False)
    assert (f"On fresh seeds (the confirmation, `{CONFIRMATION}`), after look 1 of 2 (10 fresh seeds per setting), 2 "
            "of the 3 exploratory readings replicated and 1 is still open.") in confirmation_note(tmp_path, plan)


def test_the_readme_opens_with_the_answer_in_one_line_before_the_commands():
    """A reader with one minute found the answer only under 47 lines of commands and costs: the README's first
    paragraph after the title now says for how many pairs B3O ends below TS, above it or neither, per problem, and
    how sure, with the counts the headline table gives."""
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"<!-- answer:begin -->\n.*?\n(.*?)\n<!-- answer:end -->", readme, re.DOTALL).group(1)
    assert readme.index("<!-- answer:begin -->") < readme.index("## Quick start")
    table = pd.read_csv(RUN / "tables" / "headline.csv")
    counts = table["reading"].value_counts()
    assert f"on most seeds for {counts.get('ahead', 0)} of its {len(table)} problem–variant pairs" in block
    assert f"neither shown for {counts.get('open', 0)}" in block
    for problem, rows in table.groupby("problem"):
        assert f"{problem_title(problem)} {(rows['reading'] == 'ahead').sum()} of {len(rows)}" in block
    assert "pre-registered" in block and "(#results-at-a-glance)" in block


def test_the_site_opens_its_headline_run_with_the_readmes_one_line_and_no_other_run_with_it(tmp_path, monkeypatch):
    """The index and the headline run's page open their answer with the README's one line; a run the README's answer
    is not about (another horizon run) does not borrow it."""
    from analysis.site import answer

    monkeypatch.chdir(ROOT)
    table = pd.read_csv(RUN / "tables" / "headline.csv")
    line = words.answer_line(table, link=None)
    shown = answer.answer_section(RUN.relative_to(ROOT), tmp_path, tmp_path)
    assert shown.startswith("<h2>The answer</h2><p>The answer, in one line: ") and "results-at-a-glance" not in line
    assert not answer._readmes(Path("paper/horizon"))
