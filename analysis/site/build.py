"""The site's pages: one per published run directory, from its CSVs and figures, and an index linking them.

A run's page opens with its answer where it is read along the paper's horizon (`analysis.site.answer`). Then its
verdict table (claims.csv: the claims it measures, each with its comparisons from tables/comparisons.csv a click away;
the rest folded into one list with why they are not measured), the normalised scores (`analysis.statistics.scores`)
and anytime views (`analysis.figures.anytime`, from the per-iteration table: the best evaluated point's metric and,
where the records carry it, the recommended point's regret), every other PNG of its figures/ folder with its
caption, each once (not the paper's illustrations, nor a diversity figure its horizon figure repeats), and every other
table of its tables/ folder a click away (a check's own result, such as the inducing-point check's, lives in one of
these rather than in the claims). Last, folded: the header comment of the config that ran it (what the run is for
and, for a pre-registered check, its rule as written before the trials), the per-trial table to download as CSV and
as Parquet (written beside the CSV here) and the per-iteration table as Parquet, and its provenance in words
(tables/provenance.csv). A file a run lacks is named as missing on its page, not an error: older runs lack newer
tables. Links are relative, from the page to the run's files.
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from analysis.data import per_iteration, per_trial
from analysis.figures import repeated_by_horizon
from analysis.formatting import number, with_ci
from analysis.naming import display_label, display_labels, displayed, experiment_title, problem_title
from analysis.presentation import fragile_marks, run_names
from analysis.presentation.captions import CAPTIONS, caption
from analysis.presentation.run_names import RunName
from analysis.site.provenance import provenance_text
from analysis.site import glossary, html
from analysis.site.answer import FIGURES as ANSWER_FIGURES, answer_section
from analysis.statistics.verdicts import NOT_MEASURED

#: the figures the site's rules draw into a run's figures/ folder (the anytime views: `analysis.figures.ANYTIME_VIEWS`
#: and the verdict strips), shown in their sections, by file stem
SCORE_FIGURE = "score_profiles"
ANYTIME_FIGURES = {name: caption(name) for name in ("anytime_metric", "anytime_recommended", "anytime_ecdf",
                                                     "anytime_verdicts")}
#: tables the site's own rules write into a run's tables/ folder
SCORES, SCORE_AGGREGATE, VERDICTS_ALONG = "scores.csv", "score_aggregate.csv", "verdicts_along.csv"
PER_TRIAL, PER_TRIAL_PARQUET = "per_trial.csv", "per_trial.parquet"
#: the comparisons the run's config declares, decided (`analysis.tables.declared_comparisons`)
DECLARED = "declared.csv"
#: the per-iteration table a run commits, which the anytime views read
PER_ITERATION = per_iteration.NAME
#: tables shown in a section of their own; every other CSV of a run's tables/ is shown under "Tables", except
SHOWN_TABLES = {PER_TRIAL, SCORES, SCORE_AGGREGATE, VERDICTS_ALONG, DECLARED, "comparisons.csv", "provenance.csv"}
#: the test suite's size and time (README's), which sits beside the default run's tables: not a result, and rewritten
#: after every CI
NOT_RESULTS = {"test_run.csv"}
#: a table longer than this is named with its size and left to its download
TABLE_ROWS = 100
#: verdicts_along.csv's axis of a run read along its horizon: checkpoint verdicts at BO iteration t
ALONG_T = "iteration"


def slug(run: Path, out: Path) -> str:
    """The run's folder name in the site: its path from the site's parent folder with '/' as '-' (paper/extended ->
    paper-extended). The site lives beside the runs, so a run outside that folder is refused."""
    relative = Path(os.path.relpath(run.resolve(), out.resolve().parent))
    if relative.parts[0] == "..":
        raise ValueError(f"run {run} is not inside {out.resolve().parent}, where the site {out} lives")
    return "-".join(relative.parts)


def page_path(run: Path, out: Path) -> Path:
    return out / slug(run, out) / "index.html"


def relative_href(target: Path, page_dir: Path) -> str:
    return Path(os.path.relpath(target, page_dir)).as_posix()


def read_table(path: Path) -> pd.DataFrame | None:
    return pd.read_csv(path) if path.exists() else None


def _missing(path: Path) -> str:
    return f"<p><em>{html.text(path.as_posix())} is not in this run.</em></p>"


def comparisons_table(comparisons: pd.DataFrame) -> str:
    shown = pd.DataFrame({
        "problem": comparisons.get("problem", pd.Series("–", index=comparisons.index)).map(problem_title),
        "left": comparisons["left"].map(display_label), "right": comparisons["right"].map(display_label),
        "budget": comparisons["budget"],
        "n": comparisons["n"],
        "mean [lo, hi]": [with_ci(m, lo, hi) for m, lo, hi in zip(comparisons["mean"], comparisons["lo"], comparisons["hi"])],
        "verdict": comparisons["verdict"],
    })
    return html.table(shown, classes={i: html.verdict_class(str(v)) for i, v in enumerate(shown["verdict"])})


def measured_claims(claims: pd.DataFrame | pd.Series) -> pd.Series | bool:
    """Which claims (rows of a claims table, or one row) the run measured at its final budget."""
    return claims["verdict"] != NOT_MEASURED


def along_t(run: Path, claims: pd.DataFrame) -> pd.DataFrame:
    """The checkpoint verdicts along t (tables/verdicts_along.csv, axis `iteration`) of the claims the run measures
    only there: a run read along its horizon (paper/horizon) measures claims 1 and 7 at each checkpoint t, though its
    experiment is not the one its claims name at the final budget. Empty where it has none."""
    along = read_table(run / "tables" / VERDICTS_ALONG)
    if along is None or "axis" not in along:
        return pd.DataFrame(columns=["number", "budget", "verdict"])
    final = claims.loc[measured_claims(claims), "number"]
    return along[(along["axis"] == ALONG_T) & (along["verdict"] != NOT_MEASURED) & ~along["number"].isin(final)]


def along_text(along: pd.DataFrame) -> str:
    """'claim 1 along t (holds on 4 of 12 at t = 6 and 12, inconclusive at t = 25)'; claims joined by ' and '."""
    def series(budgets: pd.Series) -> str:
        shown = [str(b) for b in budgets]
        return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]

    per_claim = []
    for number_, rows in along.sort_values(["number", "budget"]).groupby("number", sort=False):
        verdicts_ = rows.groupby("verdict", sort=False)["budget"].apply(series)
        per_claim.append(f"claim {number_} along t (" + ", ".join(f"{v} at t = {b}" for v, b in verdicts_.items())
                         + ")")
    return " and ".join(per_claim)


def verdicts_section(run: Path) -> str:
    """The claims the run measures, each with its comparisons a click away (those a horizon run measures along t,
    with their verdict at each checkpoint); the others folded into one list, each with why it is not measured (a
    check run measures none of the paper's claims: its result is under Tables)."""
    claims = read_table(run / "claims.csv")
    if claims is None:
        return _missing(run / "claims.csv")
    along = along_t(run, claims)
    comparisons = read_table(run / "tables" / "comparisons.csv")
    fragile = fragile_marks.words(run)
    rows = []
    for claim in claims[measured_claims(claims)].to_dict("records"):
        mine = comparisons[comparisons["number"] == claim["number"]] if comparisons is not None else None
        body = comparisons_table(mine) if mine is not None and len(mine) else "<p><em>no comparisons recorded</em></p>"
        summary = html.text(claim["claim"])
        bound = claim.get("binding")
        advantage = (
            with_ci(claim["binding_mean"], claim["binding_lo"], claim["binding_hi"])
            if isinstance(bound, str) and bound else "–"
        )
        rows.append({
            "number": claim["number"],
            "claim": html.details(summary, body),
            "verdict": claim["verdict"],
            "binding comparison": bound if isinstance(bound, str) else "–",
            "advantage [95 % CI]": advantage,
            "fragile?": fragile.get(claim.get("name"), "not checked"),
        })
    frame = pd.DataFrame(rows)
    note = "" if comparisons is not None else _missing(run / "tables" / "comparisons.csv")
    measured = (
        "<p>Click a claim to see its comparisons (left vs right at a budget: paired mean advantage of left, "
        "its interval and verdict).</p>" + note
        + html.table(frame, raw=("claim",), classes={i: html.verdict_class(str(v)) for i, v in enumerate(frame["verdict"])})
        if len(frame) else "" if len(along) else
        "<p>This run measures none of the claims; its results are in its tables (below).</p>"
    )
    if len(along):
        texts = claims.set_index("number")["claim"]
        shown = pd.DataFrame({"number": along["number"], "claim": along["number"].map(texts),
                              "checkpoint t": along["budget"], "verdict": along["verdict"]})
        measured += (
            f"<p>Along its horizon this run measures {html.text(along_text(along))} (each checkpoint t decided as "
            f"the claim is; tables/{VERDICTS_ALONG}):</p>"
            + html.table(shown, classes={i: html.verdict_class(str(v)) for i, v in enumerate(shown["verdict"])})
        )
    unmeasured = claims[~measured_claims(claims) & ~claims["number"].isin(along["number"])]
    if not len(unmeasured):
        return measured
    reasons = [f"{c.number}. {html.text(c.claim)} <em>({html.text(c.measured)})</em>" for c in unmeasured.itertuples()]
    summary = f"{len(unmeasured)} claim{'s' if len(unmeasured) != 1 else ''} this run does not measure"
    return measured + html.details(summary, html.items(reasons))


def declared_section(run: Path, page_dir: Path) -> str:
    """The comparisons the run's config declares (`compare:`), each with its verdict and binding comparison, and what
    every problem showed a click away; empty where the config declares none."""
    declared = read_table(run / "tables" / DECLARED)
    if declared is None:
        return ""
    rows = [{
        "comparison": html.details(html.text(r.comparison), html.items(html.text(m) for m in str(r.measured).split("; "))),
        "verdict": r.verdict,
        "binding comparison": r.binding if isinstance(r.binding, str) and r.binding else "–",
        "advantage [95 % CI]": (with_ci(r.binding_mean, r.binding_lo, r.binding_hi)
                                if isinstance(r.binding, str) and r.binding else "–"),
    } for r in declared.itertuples()]
    frame = pd.DataFrame(rows, columns=["comparison", "verdict", "binding comparison", "advantage [95 % CI]"])
    table = html.link(relative_href(run / "tables" / DECLARED, page_dir), DECLARED)
    intro = (f"<p>The comparisons the config declares (<code>compare:</code>), decided as the paper's claims are: "
             f"paired by seed, each method at its final budget; click one for every problem's line ({table}).</p>")
    classes = {i: html.verdict_class(str(v)) for i, v in enumerate(frame["verdict"])}
    return "<h2>Your comparisons</h2>" + intro + html.table(frame, raw=("comparison",), classes=classes)


def tables_section(run: Path, page_dir: Path) -> str:
    """Every table of the run's tables/ folder no other section shows, each a click away with its rows (numbers to
    three significant digits, methods, problems and experiments by their display names; the download has them in full,
    by the ids code reads)."""
    tables = sorted(p for p in (run / "tables").glob("*.csv") if p.name not in SHOWN_TABLES | NOT_RESULTS)
    if not tables:
        return "<p><em>no other tables</em></p>"
    parts = []
    for path in tables:
        frame = pd.read_csv(path)
        link = html.link(relative_href(path, page_dir), path.name)
        if not len(frame) or len(frame) > TABLE_ROWS:
            parts.append(f"<p>{link}: {len(frame)} rows{', too many to show here' if len(frame) else ''}.</p>")
            continue
        shown = displayed(frame).apply(lambda column: column.map(number) if column.dtype.kind == "f" else column)
        body = f'<p>{link}</p><div class="wide">{html.table(shown)}</div>'
        rows = f"{len(frame)} row{'s' if len(frame) != 1 else ''}"
        parts.append(html.details(f"{html.text(path.name)} ({rows})", body))
    return "".join(parts)


def scores_section(run: Path, page_dir: Path) -> str:
    aggregate = read_table(run / "tables" / SCORE_AGGREGATE)
    scored = read_table(run / "tables" / SCORES)
    if aggregate is None or scored is None:
        return "" if study(run) else _missing(run / "tables" / SCORES)
    intro = (
        "<p>Score = gap / median gap of Random at the same evaluations, problem and experiment: 0 is the optimum "
        "(regret problems) or the best value any trial of the run reached ("
        + ("problems without a known optimum" if study(run) else "battery hypervolume, Formula E")
        + "), 1 is random "
        "search's median. Per method: the mean over problems of the per-problem mean score, with a 95 % stratified "
        f"bootstrap interval (seeds resampled within problems). Download: "
        f"{html.link(relative_href(run / 'tables' / SCORES, page_dir), SCORES)}, "
        f"{html.link(relative_href(run / 'tables' / SCORE_AGGREGATE, page_dir), SCORE_AGGREGATE)}.</p>"
    )
    unscored = scored[scored["score"].isna()].groupby(["experiment", "note"]).size().reset_index(name="rows")
    aggregate = display_labels(aggregate)
    shown = pd.DataFrame({
        "experiment": aggregate["experiment"].map(experiment_title), "budget": aggregate["budget"],
        "method": aggregate["label"],
        "problems": aggregate["problems"].map(lambda ids: ", ".join(problem_title(p) for p in str(ids).split(", "))),
        "runs": aggregate["runs"],
        "mean score [95 % CI]": [with_ci(m, lo, hi) for m, lo, hi in zip(aggregate["mean"], aggregate["lo"], aggregate["hi"])],
        "median": [number(m) for m in aggregate["median"]],
    })
    table = html.table(shown) if len(shown) else "<p><em>No trial of this run has a score.</em></p>"
    why = ("<p>Rows without a score, and why:</p>" + html.table(displayed(unscored))) if len(unscored) else ""
    return intro + table + why + _figures(run, page_dir, [SCORE_FIGURE])


def _captions(stems: list[str]) -> dict[str, str]:
    """Each figure's caption where it has one (a user's own figure may not)."""
    return {stem: caption(stem) for stem in stems if stem in CAPTIONS or stem.startswith("progress_")}


def _figures(run: Path, page_dir: Path, stems: list[str], captions: dict[str, str] | None = None) -> str:
    """The figures of `stems`; one the run lacks is said to be missing, except on a study's page, which shows what its
    run made and nothing else (its workflow plans no other)."""
    parts = []
    for stem in stems:
        png = run / "figures" / f"{stem}.png"
        if not png.exists():
            parts.append("" if study(run) else _missing(png))
            continue
        caption = (captions or {}).get(stem)
        parts.append((f"<p>{html.text(caption)}</p>" if caption else "") + html.figure(relative_href(png, page_dir), png.name))
    return "".join(parts)


def downloads_section(run: Path, page_dir: Path) -> str:
    tables = run / "tables"
    entries = []
    if (tables / PER_TRIAL).exists():
        entries.append("per-trial table: " + html.link(relative_href(tables / PER_TRIAL, page_dir), "CSV")
                       + (", " + html.link(relative_href(tables / PER_TRIAL_PARQUET, page_dir), "Parquet")
                          if (tables / PER_TRIAL_PARQUET).exists() else ""))
    if (tables / PER_ITERATION).exists():
        entries.append("per-iteration table: " + html.link(relative_href(tables / PER_ITERATION, page_dir), "Parquet"))
    for extra in ("report.pdf", "claims.md", "claims.csv"):
        if (run / extra).exists():
            entries.append(html.link(relative_href(run / extra, page_dir), extra))
    others = sorted(p for p in tables.glob("*.csv") if p.name != PER_TRIAL)
    if others:
        entries.append("tables: " + ", ".join(html.link(relative_href(p, page_dir), p.name) for p in others))
    return html.items(entries)


def write_parquet(run: Path) -> Path | None:
    """The per-trial table beside its CSV as Parquet (same rows and columns); None where the run has no CSV."""
    csv = run / "tables" / PER_TRIAL
    if not csv.exists():
        return None
    target = csv.with_name(PER_TRIAL_PARQUET)
    columns = list(pd.read_csv(csv, nrows=0).columns)  # the CSV's columns only, with the per-trial table's dtypes
    per_trial.read(csv)[columns].to_parquet(target, index=False)
    return target


def anytime_section(run: Path, page_dir: Path) -> str:
    """The anytime views; those drawn from the per-iteration table only where the run has one (a run published
    before it, whose records were not kept, has none, and its page says so rather than show stale figures)."""
    if (run / "tables" / PER_ITERATION).exists() or study(run):
        return _figures(run, page_dir, list(ANYTIME_FIGURES), ANYTIME_FIGURES)
    return _missing(run / "tables" / PER_ITERATION) + _figures(run, page_dir, ["anytime_verdicts"], ANYTIME_FIGURES)


def about_section(config: Path, page_dir: Path) -> str:
    """The config's header comment as written (its leading `#` lines), linked to the config."""
    lines = []
    for line in config.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        lines.append(line[2:] if line.startswith("# ") else line[1:])
    link = html.link(relative_href(config, page_dir), config.as_posix())
    return f"<p>From the header of {link}, the config that ran it:</p><pre>{html.text(chr(10).join(lines))}</pre>"


def beside(name: RunName) -> str:
    """What stands beside a run's title: its scale, then its directory (unless the title is the directory: a run the
    listing does not name)."""
    parts = [html.text(name.scale)] if name.scale else []
    if name.title != name.directory:
        parts.append(f"<code>{html.text(name.directory)}</code>")
    return " · ".join(parts)


def named(name: RunName) -> str:
    """The run's scale in words, its directory secondary (under a title that names its question)."""
    return f'<p class="run">{beside(name)}</p>'


def _titled(title: str, section: str) -> str:
    """A section under its heading; nothing for an empty one (a study's page leaves out what its run did not make)."""
    return f"<h2>{title}</h2>{section}" if section else ""


def study(run: Path) -> bool:
    """Whether the run is a user's own study: the workflow writes no paper claims for one (`STUDY`,
    workflow/rules/common.smk), and its page shows its declared comparisons instead."""
    return not (run / "claims.csv").exists()


#: figures of the paper's own argument (not of a run), which a run's page leaves to the report
PAPER_ILLUSTRATIONS = {"illustration_1d", "theorem1", "lambda_effect"}


def run_page(run: Path, out: Path, config: Path | None = None, name: RunName | None = None) -> Path:
    """Write the run's page under `out` (opening with `config`'s header where given), titled by `name` (default: the
    run's name, `analysis.presentation.run_names`); returns its path."""
    name = name or run_names.name(run)
    if (run / "tables" / PER_TRIAL).exists():
        per_trial.read(run / "tables" / PER_TRIAL)  # registers a user's problems' own names for this page's tables
    target = page_path(run, out)
    page_dir = target.parent
    page_dir.mkdir(parents=True, exist_ok=True)
    drawn = [p.stem for p in (run / "figures").glob("*.png")]
    shown = {SCORE_FIGURE, *ANYTIME_FIGURES, *PAPER_ILLUSTRATIONS, *repeated_by_horizon(run, drawn)}
    answer = answer_section(run, page_dir, out, config)
    if answer:
        shown |= ANSWER_FIGURES
    others = sorted(stem for stem in drawn if stem not in shown)
    provenance = read_table(run / "tables" / "provenance.csv")
    body = (
        named(name) + f"<p>{html.link(relative_href(out / 'index.html', page_dir), 'All runs')}</p>"
        + answer + (glossary.link(page_dir, out) if not answer else "")
        + declared_section(run, page_dir)
        + ("<h2>Claims and verdicts</h2>" + verdicts_section(run) if not study(run) else "")
        + _titled("Normalised scores", scores_section(run, page_dir))
        + _titled("Anytime views", anytime_section(run, page_dir))
        + "<h2>Figures</h2>" + (_figures(run, page_dir, others, _captions(others)) if others else "<p><em>no other figures</em></p>")
        + "<h2>Tables</h2>" + tables_section(run, page_dir)
        + ("<h2>About this run</h2>" + html.details("The config that ran it", about_section(config, page_dir))
           if config is not None else "")
        + "<h2>Downloads</h2>" + html.details("The run's tables and report", downloads_section(run, page_dir))
        + "<h2>Provenance</h2>" + html.details("Where and with what it ran", provenance_text(provenance)
                                               if provenance is not None
                                               else _missing(run / "tables" / "provenance.csv"))
    )
    target.write_text(html.page(f"B3O results: {name.title}", body), encoding="utf-8")
    return target
