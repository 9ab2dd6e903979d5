"""The results site (analysis.site) built from a small run directory made of real rows of paper/extended: every
link resolves, the verdicts and comparisons are on the page, the Parquet download matches the CSV, the anytime
views are shown only beside a per-iteration table, the committed site is what the committed runs build, and — with a
`chromium` on PATH (tools/install-chromium.sh) — every page loads in a headless browser with its images decoded and
no script error."""

from __future__ import annotations

import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd
import pytest
import yaml

from analysis.data import per_iteration, per_trial
from analysis.site import html
from analysis.site.build import PAPER_ILLUSTRATIONS, page_path
from analysis.site.index import build, site_configs
from analysis.statistics import scores

ROOT = Path(__file__).resolve().parents[1]
EXTENDED = ROOT / "paper" / "extended"
CLAIMS = (1, 26)  # one claim with comparisons on three problems, one on the battery


class _Links(HTMLParser):
    """Every img src and a href of a page, and the text of its table cells."""

    def __init__(self) -> None:
        super().__init__()
        self.images: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "img":
            self.images.append(attributes["src"] or "")
        if tag == "a":
            self.links.append(attributes["href"] or "")


def _tiny_png(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig, ax = plt.subplots(figsize=(1, 1))
    ax.plot([0, 1], [0, 1])
    fig.savefig(path, dpi=20)
    plt.close(fig)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, pd.DataFrame, pd.DataFrame]:
    """(site folder, run folder, the run's claims, its comparisons): a run made of a few rows of paper/extended, and
    beside it an older run without a per-iteration table whose figures/ still holds an anytime view."""
    root = tmp_path_factory.mktemp("repo")
    run = root / "paper" / "mini"
    (run / "tables").mkdir(parents=True)
    table = pd.read_csv(EXTENDED / "tables" / "per_trial.csv")
    table = table[table["experiment"].isin(["battery", "synthetic_b100"]) & table["seed"].isin(range(100, 104))]
    table.to_csv(run / "tables" / "per_trial.csv", index=False)
    iterations = per_iteration.read(EXTENDED / "tables" / per_iteration.NAME)
    iterations = iterations.merge(table[["experiment", "trial_id"]].drop_duplicates())
    iterations.to_parquet(run / "tables" / per_iteration.NAME, index=False)
    claims = pd.read_csv(EXTENDED / "claims.csv")
    claims = claims[claims["number"].isin(CLAIMS)]
    claims.loc[claims.index[0], "claim"] += " <&> escaped"  # markup in a claim must stay text
    claims.to_csv(run / "claims.csv", index=False)
    comparisons = pd.read_csv(EXTENDED / "tables" / "comparisons.csv")
    comparisons = comparisons[comparisons["number"].isin(CLAIMS)]
    comparisons.to_csv(run / "tables" / "comparisons.csv", index=False)
    shutil.copy(EXTENDED / "tables" / "provenance.csv", run / "tables" / "provenance.csv")
    scored = scores.scores(pd.read_csv(run / "tables" / "per_trial.csv"))
    scored.to_csv(run / "tables" / "scores.csv", index=False)
    scores.aggregate(scored).to_csv(run / "tables" / "score_aggregate.csv", index=False)
    _tiny_png(run / "figures" / "tiny.png")
    _tiny_png(run / "figures" / "anytime_metric.png")
    old = root / "paper" / "old"
    shutil.copytree(run, old, ignore=shutil.ignore_patterns(per_iteration.NAME))
    out = root / "site"
    build([run, old], out)
    return out, run, claims, comparisons


def _pages(out: Path) -> list[Path]:
    return sorted(out.rglob("index.html"))


def test_every_link_and_image_resolves(site) -> None:
    out, run, _, _ = site
    pages = _pages(out)
    assert len(pages) == 3
    for page in pages:
        parsed = _Links()
        parsed.feed(page.read_text())
        for target in parsed.images + parsed.links:
            assert (page.parent / target).resolve().exists(), f"{page}: {target}"
    run_page = _Links()
    run_page.feed(page_path(run, out).read_text())
    assert {Path(src).name for src in run_page.images} == {"tiny.png", "anytime_metric.png"}
    assert any(link.endswith("per_trial.parquet") for link in run_page.links)
    assert any(link.endswith(per_iteration.NAME) for link in run_page.links)


def test_anytime_views_are_shown_only_beside_a_per_iteration_table(site) -> None:
    out, run, _, _ = site
    anytime = page_path(run, out).read_text().split("<h2>Anytime views</h2>")[1].split("<h2>")[0]
    assert "anytime_metric.png" in anytime and "anytime_recommended.png is not in this run" in anytime
    old = run.parent / "old"
    assert (old / "figures" / "anytime_metric.png").exists()  # drawn before the table existed: stale, not shown
    page = _Links()
    page.feed(page_path(old, out).read_text())
    assert {Path(src).name for src in page.images} == {"tiny.png"}
    assert f"{per_iteration.NAME} is not in this run" in page_path(old, out).read_text()


def test_verdicts_and_comparisons_are_on_the_page(site) -> None:
    out, run, claims, comparisons = site
    text = page_path(run, out).read_text()
    assert "&lt;&amp;&gt; escaped" in text and "<&> escaped" not in text
    verdicts = text.split("<h2>Claims and verdicts</h2>")[1].split("<h2>")[0]
    assert verdicts.count("<details>") == len(claims)
    for claim in claims.itertuples():
        assert html.text(claim.verdict) in text
        assert html.text(claim.binding) in text
    for row in comparisons.itertuples():
        assert html.text(row.left) in text and html.text(row.right) in text
    # one table row per comparison, inside the claims' details, plus the claims' own rows
    assert text.count('<tr class="verdict-') == len(claims) + len(comparisons)
    assert "trials of the battery electrode design" in text  # provenance in words
    assert "B3O-EHVI-c" in text.split("Normalised scores")[1]  # the scores table


def test_parquet_download_matches_the_csv(site) -> None:
    _, run, _, _ = site
    csv = run / "tables" / "per_trial.csv"
    expected = per_trial.read(csv)[list(pd.read_csv(csv, nrows=0).columns)]
    pd.testing.assert_frame_equal(pd.read_parquet(run / "tables" / "per_trial.parquet"), expected)
    assert len(expected) > 0 and list(expected.columns) == list(pd.read_csv(csv).columns)


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _load(page: Path, profile: Path) -> tuple[str, str]:
    """(DOM after load, browser log) of a page in headless Chromium."""
    result = subprocess.run(
        [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
         "--enable-logging=stderr", "--v=0", "--virtual-time-budget=3000", "--dump-dom", page.resolve().as_uri()],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout, result.stderr


def _console_errors(log: str) -> list[str]:
    return [line for line in log.splitlines() if "Uncaught" in line or re.search(r"CONSOLE\(\d+\)|console", line)]


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH (install it with tools/install-chromium.sh as root)")
def test_pages_load_in_a_browser_with_images_and_without_errors(site, tmp_path: Path) -> None:
    out, run, claims, comparisons = site
    for page in _pages(out):
        dom, log = _load(page, tmp_path / "profile")
        assert 'data-images-loaded="all"' in dom, page
        assert _console_errors(log) == [], page
    dom, _ = _load(page_path(run, out), tmp_path / "profile")
    assert dom.count('<tr class="verdict-') == len(claims) + len(comparisons)


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH (install it with tools/install-chromium.sh as root)")
def test_the_browser_check_sees_a_broken_image_and_a_script_error(tmp_path: Path) -> None:
    page = tmp_path / "broken.html"
    body = '<img src="missing.png" alt="x"><script>undefinedFunction();</script>'
    page.write_text(html.page("broken", body))
    dom, log = _load(page, tmp_path / "profile")
    assert 'data-images-loaded="0 of 1"' in dom
    assert any("Uncaught" in line for line in _console_errors(log))


def _figure_pdfs(folder: str, names: list[str]) -> list[str]:
    """The figures' PDFs, which a checkout may have (they are built) but git does not keep."""
    return [name for name in names if Path(folder).name == "figures" and name.endswith(".pdf")]


def test_the_committed_site_is_what_the_committed_runs_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table committed without rebuilding the site (`python -m analysis.site`, tools/republish.sh) leaves pages
    that no longer show the run: the committed site must be what its runs build today (built from a copy, as the
    build writes each run's Parquet downloads)."""
    configs = site_configs(ROOT / "workflow" / "site.yaml")
    assert all(run.parts[0] == "paper" for run in configs)
    shutil.copytree(ROOT / "paper", tmp_path / "paper", ignore=_figure_pdfs)
    shutil.copytree(ROOT / "config", tmp_path / "config")
    shutil.copytree(ROOT / "docs", tmp_path / "docs")  # the glossary, which the site renders as a page of its own
    monkeypatch.chdir(tmp_path)  # the pages name each run by the path it is given, as the workflow gives it
    build(list(configs), Path("site"), configs, ROOT / "workflow" / "site.yaml")
    built = sorted(p.relative_to(tmp_path / "site") for p in (tmp_path / "site").rglob("*") if p.is_file())
    committed = sorted(p.relative_to(ROOT / "site") for p in (ROOT / "site").rglob("*") if p.is_file())
    assert built == committed
    stale = [str(p) for p in built if (tmp_path / "site" / p).read_bytes() != (ROOT / "site" / p).read_bytes()]
    assert not stale, f"site pages out of date (rebuild with tools/republish.sh or python -m analysis.site): {stale}"


def _run_page_images(page: Path) -> list[str]:
    """The file names of a page's images, one per <img> (a name twice: the figure shown twice)."""
    parsed = _Links()
    parsed.feed(page.read_text())
    return [Path(src).name for src in parsed.images]


def test_a_run_page_shows_each_figure_once_and_no_paper_illustration(tmp_path: Path) -> None:
    """The paper's illustrations stay in the report, and the diversity figure of the experiment a run is read along
    is not shown beside its horizon figure, whose middle row draws the same curves (paper/large_batch once showed
    them twice); a diversity figure of another experiment stays."""
    run = tmp_path / "paper" / "along"
    (run / "tables").mkdir(parents=True)
    _claims({"large_batch": [1]}).to_csv(run / "claims.csv", index=False)
    pd.DataFrame({"experiment": ["synthetic_b100"], "problem": ["ackley5"]}).to_csv(
        run / "tables" / "horizon_along.csv", index=False)
    for stem in ("illustration_1d", "theorem1", "lambda_effect", "horizon_along", "diversity_b100", "diversity_b5",
                 "regret_b100"):
        _tiny_png(run / "figures" / f"{stem}.png")
    out = tmp_path / "site"
    build([run], out)
    images = _run_page_images(page_path(run, out))
    assert sorted(images) == ["diversity_b5.png", "horizon_along.png", "regret_b100.png"]

    (run / "tables" / "horizon_along.csv").unlink()  # no horizon read: nothing repeats the diversity figure
    (run / "figures" / "horizon_along.png").unlink()
    build([run], out)
    assert sorted(_run_page_images(page_path(run, out))) == ["diversity_b100.png", "diversity_b5.png",
                                                              "regret_b100.png"]


@pytest.mark.parametrize("page", sorted(str(p.relative_to(ROOT)) for p in (ROOT / "site").glob("*/index.html")))
def test_each_committed_run_page_shows_each_image_once_and_no_paper_illustration(page: str) -> None:
    images = _run_page_images(ROOT / page)
    assert len(images) == len(set(images)), f"{page} shows an image twice: {sorted(images)}"
    assert not {f"{stem}.png" for stem in PAPER_ILLUSTRATIONS} & set(images)


def _claims(numbers: dict[str, list[int]]) -> pd.DataFrame:
    """Real rows of published claims tables: {run under paper/: claim numbers}."""
    rows = [pd.read_csv(ROOT / "paper" / run / "claims.csv").query("number in @chosen")
            for run, chosen in numbers.items()]
    return pd.concat(rows, ignore_index=True)


def test_unmeasured_claims_are_folded_with_why_and_a_runs_other_tables_are_shown(tmp_path: Path) -> None:
    """A claim the run does not measure is listed once, folded, with its reason, not as a row of the verdict table;
    a check's own table (the inducing-point check's m_check.csv) is on the page, a long one only named; the index
    counts the measured verdicts and says how many are not measured."""
    run, check = tmp_path / "paper" / "mixed", tmp_path / "paper" / "check"
    for folder in (run, check):
        (folder / "tables").mkdir(parents=True)
    measured = _claims({"extended": [1]})
    unmeasured = _claims({"large_batch_m500": [8, 14]})
    assert (measured["verdict"] != "not measured").all() and (unmeasured["verdict"] == "not measured").all()
    pd.concat([measured, unmeasured]).to_csv(run / "claims.csv", index=False)
    unmeasured.to_csv(check / "claims.csv", index=False)
    shutil.copy(ROOT / "paper" / "large_batch_m500" / "tables" / "m_check.csv", check / "tables" / "m_check.csv")
    pd.DataFrame({"x": range(101)}).to_csv(check / "tables" / "long.csv", index=False)
    shutil.copy(ROOT / "paper" / "tables" / "test_run.csv", check / "tables")  # CI's, rewritten each time: not shown
    out = tmp_path / "site"
    build([run, check], out)

    page = page_path(run, out).read_text()
    verdicts = page.split("<h2>Claims and verdicts</h2>")[1].split("<h2>")[0]
    assert verdicts.count('<tr class="verdict-') == 1  # the measured claim only
    assert "2 claims this run does not measure" in verdicts
    for claim in unmeasured.itertuples():
        assert f"{claim.number}. {html.text(claim.claim)} <em>({html.text(claim.measured)})</em>" in verdicts

    page = page_path(check, out).read_text()
    assert "This run measures none of the claims" in page
    tables = page.split("<h2>Tables</h2>")[1].split("<h2>")[0]
    m_check = pd.read_csv(check / "tables" / "m_check.csv")
    assert tables.count("<tr>") == len(m_check) + 1  # its header and rows
    for value in (*m_check.columns, *m_check["verdict"], *m_check["test"]):
        assert html.text(value) in tables
    assert "long.csv</a>: 101 rows, too many to show here" in tables
    assert "test_run.csv" not in tables

    index = (out / "index.html").read_text()
    assert f"1 {measured['verdict'].iloc[0]} (2 not measured)" in index
    assert "none of the claims measured: its results are in its tables" in index


def test_the_site_command_builds_the_listed_runs_with_their_configs_header_and_refuses_a_missing_one(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from analysis.site.__main__ import main

    with pytest.raises(SystemExit) as refused:
        main(["--paper", str(tmp_path / "nowhere"), "--out", str(tmp_path / "site")])
    assert refused.value.code == 2 and not (tmp_path / "site").exists()
    monkeypatch.chdir(tmp_path)  # no workflow/site.yaml here
    with pytest.raises(SystemExit) as refused:
        main([])
    assert refused.value.code == 2
    (tmp_path / "workflow").mkdir()
    (tmp_path / "workflow" / "site.yaml").write_text("runs:\n  paper/check:\n    config: config/x.yaml\n")
    (tmp_path / "paper" / "check" / "tables").mkdir(parents=True)
    _claims({"large_batch_m500": [8]}).to_csv(tmp_path / "paper" / "check" / "claims.csv", index=False)
    with pytest.raises(SystemExit) as refused:  # its config is not there
        main([])
    assert refused.value.code == 2
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "x.yaml").write_text("# Why this run <is> here.\n#   its rule, indented\nresults: r\n")
    with pytest.raises(SystemExit) as refused:  # the listing does not name the run in words
        main([])
    assert refused.value.code == 2 and not (tmp_path / "site").exists()
    (tmp_path / "workflow" / "site.yaml").write_text(
        "runs:\n  paper/check:\n    config: config/x.yaml\n    title: A check\n")
    assert main([]) == 0
    page = (tmp_path / "site" / "paper-check" / "index.html").read_text()
    about = page.split("<h2>About this run</h2>")[1].split("<h2>")[0]
    assert "<pre>Why this run &lt;is&gt; here.\n  its rule, indented</pre>" in about
    assert 'href="../../config/x.yaml"' in about and "results: r" not in page
    assert "<h1>B3O results: A check</h1>" in page


def test_the_index_shows_each_claims_verdict_as_the_readme_does() -> None:
    """The committed index's glance table and README.md's name the same verdict and deciding run for every claim the
    README lists (both choose through analysis.presentation.glance; the site links the run's page), and the index adds
    the questions only a check measures."""
    from analysis.data import published

    from analysis.presentation import run_names

    titles = run_names.titles(ROOT / "workflow" / "site.yaml")
    readme = (ROOT / "README.md").read_text().split("<!-- glance:begin -->")[1].split("<!-- glance:end -->")[0]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in readme.splitlines() if re.match(r"\| \d+ \|", line)]
    assert len(rows) >= 20
    index = (ROOT / "site" / "index.html").read_text().split("<h2>Runs</h2>")[0]
    for number_, _, verdict, _, run in rows:
        # the README names the run by its title, its directory secondary: "Title (`paper/x`)"
        folder = re.fullmatch(r".* \(`(.+)`\)", run).group(1) if run != "–" else None
        if folder:
            assert folder in {Path(claims).parent.as_posix() for claims in published.CLAIMS.values()}
            assert run == f"{titles[folder]} (`{folder}`)"
        link = f'<a href="{folder.replace("/", "-")}/index.html">{html.text(titles[folder])}</a>' if folder else "–"
        cells = f'<td class="number">{number_}</td>'
        row = next(r for r in index.split("<tr") if cells in r)
        assert f"<td>{html.text(verdict.replace('*', ''))}</td>" in row and f"<td>{link}</td>" in row, number_
    # a question only a check measures comes from that check's run (claim 34: the first fit check at M = 500)
    row = next(r for r in index.split("<tr") if '<td class="number">34</td>' in r)
    title = html.text(titles["paper/collapsed_fit_m500"])
    assert f'<a href="paper-collapsed_fit_m500/index.html">{title}</a>' in row


def _listing(root: Path, titles: dict[str, str]) -> Path:
    listing = root / "site.yaml"
    listing.write_text(yaml.safe_dump({"runs": {run: {"config": "c.yaml", "title": t} for run, t in titles.items()}}))
    return listing


def test_a_run_is_named_by_its_title_and_scale_with_its_directory_secondary(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's heading, the index's entry and the glance table name a run by the title workflow/site.yaml gives
    it, its scale (from its per-trial table) and directory beside; a run missing its title is refused."""
    from analysis.presentation import run_names

    run = tmp_path / "paper" / "large_batch"
    (run / "tables").mkdir(parents=True)
    table = pd.read_csv(ROOT / "paper" / "large_batch" / "tables" / "per_trial.csv")
    table.to_csv(run / "tables" / "per_trial.csv", index=False)
    shutil.copy(ROOT / "paper" / "large_batch" / "claims.csv", run / "claims.csv")
    monkeypatch.chdir(tmp_path)  # the listing names runs by their paths from the repository's root
    listing = _listing(tmp_path, {"paper/large_batch": "The paper's <large-batch> study"})
    out = tmp_path / "site"
    build([Path("paper/large_batch")], out, listing=listing)

    trials = table.drop_duplicates("trial_id")
    seeds = trials.groupby(["problem", "label"])["seed"].nunique()
    scale = (f"B = {trials['batch_size'].mode()[0]}, T = {trials['iterations'].mode()[0]}, "
             f"N₀ = {trials['n_init'].mode()[0]}, {seeds.min()}–{seeds.max()} seeds, {trials['problem'].nunique()} problems")
    assert run_names.name(Path("paper/large_batch"), listing).scale == scale
    page = page_path(Path("paper/large_batch"), out).read_text()
    assert "<h1>B3O results: The paper&#x27;s &lt;large-batch&gt; study</h1>" in page
    assert f'<p class="run">{scale} · <code>paper/large_batch</code></p>' in page
    assert "<h1>B3O results: paper/large_batch</h1>" not in page
    index = (out / "index.html").read_text()
    assert (f'<a href="paper-large_batch/index.html">The paper&#x27;s &lt;large-batch&gt; study</a> ({scale} · '
            "<code>paper/large_batch</code>)") in index
    glance = index.split("<h2>Each claim at a glance</h2>")[1].split("<h2>")[0]
    assert "The paper&#x27;s &lt;large-batch&gt; study</a>" in glance and ">paper/large_batch</a>" not in glance

    untitled = tmp_path / "untitled.yaml"
    untitled.write_text("runs:\n  paper/large_batch:\n    config: c.yaml\n")
    with pytest.raises(ValueError, match="without a title: paper/large_batch"):
        run_names.titles(untitled)


def test_every_published_run_has_a_title() -> None:
    from analysis.presentation import run_names

    titles = run_names.titles(ROOT / "workflow" / "site.yaml")
    assert set(titles) == {run.as_posix() for run in site_configs(ROOT / "workflow" / "site.yaml")}
    assert len(set(titles.values())) == len(titles)  # no two runs read the same
    assert not any(title.startswith("paper/") for title in titles.values())


def test_a_horizon_runs_checkpoint_verdicts_count_as_measuring_claims_1_and_7_along_t(tmp_path: Path) -> None:
    """paper/horizon measures no claim at a final budget (its experiment is not the one the claims name), but
    decides claims 1 and 7 at each checkpoint t: the index and its page count them, with their verdicts along t."""
    run = tmp_path / "paper" / "horizon"
    (run / "tables").mkdir(parents=True)
    for name in ("claims.csv", "tables/verdicts_along.csv"):
        shutil.copy(ROOT / "paper" / "horizon" / name, run / name)
    claims = pd.read_csv(run / "claims.csv")
    along = pd.read_csv(run / "tables" / "verdicts_along.csv")
    assert (claims["verdict"] == "not measured").all() and set(along["axis"]) == {"iteration"}
    out = tmp_path / "site"
    build([run], out)

    entry = (out / "index.html").read_text().split("<h2>Runs</h2>")[1]
    assert "none of the claims measured" not in entry
    for number_, rows in along.groupby("number"):
        first = rows.sort_values("budget").iloc[0]
        assert f"claim {number_} along t ({html.text(first['verdict'])} at t = {first['budget']}" in entry
    assert f"({len(claims) - along['number'].nunique()} not measured)" in entry
    verdicts = page_path(run, out).read_text().split("<h2>Claims and verdicts</h2>")[1].split("<h2>")[0]
    assert "This run measures none of the claims" not in verdicts
    assert verdicts.count('<tr class="verdict-') == len(along)  # one row per claim and checkpoint
    assert f"{len(claims) - along['number'].nunique()} claims this run does not measure" in verdicts


def test_shown_tables_spell_methods_problems_and_experiments_by_their_names(tmp_path: Path) -> None:
    """A run's other tables (here the extended run's run times and best λ) show labels, problems and experiments as
    every figure names them (analysis.naming), while the CSVs keep the ids code reads."""
    from analysis import naming

    run = tmp_path / "paper" / "named"
    (run / "tables").mkdir(parents=True)
    for name in ("run_times.csv", "best_lambda.csv"):
        shutil.copy(EXTENDED / "tables" / name, run / "tables" / name)
    raw = pd.read_csv(run / "tables" / "run_times.csv")
    assert "B3O-ucb-constant" in set(raw["label"])
    out = tmp_path / "site"
    build([run], out)

    tables = page_path(run, out).read_text().split("<h2>Tables</h2>")[1].split("<h2>")[0]
    assert "B3O-ucb-constant" not in tables and f"<td>{naming.display_label('B3O-ucb-constant')}</td>" in tables
    assert "<td>ackley5</td>" not in tables and f"<td>{html.text(naming.problem_title('ackley5'))}</td>" in tables
    assert "<td>synthetic_b100</td>" not in tables
    assert f"<td>{html.text(naming.experiment_title('synthetic_b100'))}</td>" in tables
    assert "B3O-ucb-constant" in pd.read_csv(run / "tables" / "run_times.csv")["label"].values  # the CSV is as it was


def test_the_scores_name_their_problems(site) -> None:
    from analysis import naming

    out, run, _, _ = site
    scores = page_path(run, out).read_text().split("<h2>Normalised scores</h2>")[1].split("<h2>")[0]
    problems = pd.read_csv(run / "tables" / "score_aggregate.csv")["problems"]
    for ids in problems:
        assert f"<td>{html.text(', '.join(naming.problem_title(p) for p in ids.split(', ')))}</td>" in scores
        assert f"<td>{ids}</td>" not in scores


def test_the_provenance_names_the_machines_in_words_with_their_ids_secondary(site) -> None:
    from analysis.tables.provenance import PLATFORM, machines

    out, run, _, _ = site
    items = dict(pd.read_csv(run / "tables" / "provenance.csv").astype(str).itertuples(index=False))
    assert any(key.startswith(PLATFORM) for key in items)
    said = page_path(run, out).read_text().split("<h2>Provenance</h2>")[1].split("<h2>")[0]
    assert html.text(machines(items)) in said and "They ran on AMD EPYC" in said
    assert "Platform " not in said and "on platform(s)" not in said


def test_a_confirmation_run_opens_with_what_replicated(tmp_path: Path) -> None:
    """A confirmation run's page opens with its readings in words (which replicated, which did not), then each
    reading's fresh-seed counts."""
    from analysis.presentation.confirmation_block import headline
    from analysis.statistics import confirmation

    the_plan = confirmation.plan()
    rows = [{"experiment": the_plan.experiment, "problem": r.problem, "label": label, "seed": s,
             "trial_id": f"{r.problem}-{label}-{s}", "value": value, "budget": 5100, "final_budget": 5100}
            for r in the_plan.readings for s in range(400, 410)
            for label, value in ((r.variant, 0.001 if r.variant == "B3O-UCB-s" else 2.0 + s % 2), ("TS", 2.5))]
    table = pd.DataFrame(rows).drop_duplicates(["trial_id"])
    decided = confirmation.decide(table, the_plan, through=1)
    run = tmp_path / "paper" / "confirm"
    (run / "tables").mkdir(parents=True)
    decided.to_csv(run / "tables" / "confirmation.csv", index=False)
    _tiny_png(run / "figures" / "confirmation.png")
    build([run], tmp_path / "site")
    page = page_path(run, tmp_path / "site").read_text()
    answer = page.split("<h2>What replicated</h2>")[1].split("<h2>")[0]
    assert html.text(headline(pd.read_csv(run / "tables" / "confirmation.csv"))) in answer
    assert "Replicated: B3O-UCB-s on Shekel (4D), below TS (fresh: 10 of 10 seeds" in answer
    assert answer.count("<tr>") >= len(decided) + 2 and 'href="../glossary.html"' in answer
    assert '<img src="../../paper/confirm/figures/confirmation.png"' in answer  # the figure, captioned
    assert answer.index("Replicated: ") < answer.index("confirmation.png") < answer.index("Each reading tested")


def test_a_study_s_page_shows_its_declared_comparisons_where_the_claims_would_be(tmp_path: Path) -> None:
    """A user's study (no claims.csv) gets its declared comparisons, decided, where a paper run's claims would be,
    and the index counts them (the study's real run end to end, `tests/test_study.py`, is `-m long`)."""
    from analysis.tables import declared_comparisons

    run = tmp_path / "paper" / "mine"
    (run / "tables").mkdir(parents=True)
    shutil.copy(ROOT / "paper" / "tables" / "per_trial.csv", run / "tables" / "per_trial.csv")
    experiment = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())["experiments"]["synthetic_b100"]
    config = tmp_path / "my.yaml"
    config.write_text(yaml.safe_dump({"experiments": {"synthetic_b100": {
        **experiment, "compare": [{"a": "TS", "b": "Random"}]}}}))
    assert declared_comparisons.main(["--table", str(run / "tables" / "per_trial.csv"), "--config", str(config),
                                      "--out", str(run / "tables" / "declared")]) == 0
    declared = pd.read_csv(run / "tables" / "declared.csv")
    out = tmp_path / "site"
    build([run], out)
    page = page_path(run, out).read_text()
    assert "<h2>Your comparisons</h2>" in page and "Claims and verdicts" not in page
    assert html.text(declared["comparison"].iloc[0]) in page and html.text(declared["verdict"].iloc[0]) in page
    index = (out / "index.html").read_text()
    assert f"your comparisons: 1 {html.text(declared['verdict'].iloc[0])}" in index
