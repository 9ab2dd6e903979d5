"""The site's index and the whole site: every run's page (`analysis.site.build`), then the index, which opens with the
paper-horizon run's answer (`analysis.presentation.headline`), each claim's verdict at a glance as README.md reads it,
and every run by its name with the verdicts it measures."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pandas as pd
import yaml

from analysis.data import published
from analysis.formatting import with_ci
from analysis.presentation import fragile_marks, headline, run_names
from analysis.presentation.glance import RUNS, chosen, decided_otherwise, typical_against_mean, verdict_at_scale
from analysis.presentation.run_names import RunName
from analysis.site import html
from analysis.site import glossary
from analysis.site.answer import answer_section
from analysis.site.build import (
    DECLARED, along_t, along_text, beside, measured_claims, page_path, read_table, relative_href, run_page, study,
    write_parquet,
)


def index_page(runs: list[Path], out: Path, names: dict[Path, RunName] | None = None) -> Path:
    """The site's front page: each claim's verdict at a glance, then every run, by its name (`names`; default: its
    name, `analysis.presentation.run_names`), with the verdicts of the claims it measures and how many it does not."""
    names = {run: (names or {}).get(run) or run_names.name(run) for run in runs}
    entries = []
    for run in runs:
        claims = read_table(run / "claims.csv")
        along = along_t(run, claims) if claims is not None else None
        link = html.link(relative_href(page_path(run, out), out), names[run].title)
        shown = f" ({beside(names[run])})" if beside(names[run]) else ""
        counts = _counts(claims, along) if not study(run) else _declared_counts(read_table(run / "tables" / DECLARED))
        entries.append(f"{link}{shown} — {html.text(counts)}")
    target = out / "index.html"
    out.mkdir(parents=True, exist_ok=True)
    answer = headline_section(runs, out)
    body = (answer + (glossary.link(out, out) if not answer else "") + glance_section(runs, out, names)
            + "<h2>Runs</h2><p>" + ("One page per published run of the B3O reproduction workflow."
                                    if not all(map(study, runs)) else "A page per study run with the B3O workflow.")
            + "</p>")
    body += html.items(entries)
    target.write_text(html.page("B3O results", body), encoding="utf-8")
    return target


def headline_section(runs: list[Path], out: Path) -> str:
    """The paper-horizon run's answer, as the README opens its results (`analysis.site.build.answer_section`), and a
    link to its run's page; empty where the site does not build that run or it has no table."""
    table_path = Path(published.TABLES["headline"])
    run = table_path.parent.parent
    if run not in runs or not table_path.is_file():
        return ""
    link = html.link(relative_href(page_path(run, out), out), f"its run's page ({run.as_posix()})")
    config = Path(headline.CONFIG)
    return answer_section(run, out, out, config) + f"<p>Every table and figure of it: {link}.</p>"


def glance_section(runs: list[Path], out: Path, names: dict[Path, RunName]) -> str:
    """Each claim's verdict from the run that decides it, chosen as README.md's table chooses it
    (`analysis.presentation.glance`), then the questions only a check of ours measures, from that check's run; each
    linked to the run's page by its title. Empty where the site builds none of README.md's runs."""
    folders = {name: Path(csv).parent for name, csv in published.CLAIMS.items()}
    tables = {name: pd.read_csv(folders[name] / "claims.csv") for name in RUNS
              if folders[name] in runs and (folders[name] / "claims.csv").exists()}
    if not tables:
        return ""
    picked = {number_: (folders[name], row) for number_, (name, row) in chosen(tables).items()}
    for run in (r for r in runs if r not in folders.values()):
        claims = read_table(run / "claims.csv")
        for _, row in (claims[measured_claims(claims)] if claims is not None else pd.DataFrame()).iterrows():
            picked.setdefault(row["number"], (run, row))
    fragile = {run: fragile_marks.fragile(run) for run in {run for run, _ in picked.values()}}
    rows = []
    for number_, (run, row) in sorted(picked.items()):
        bound = row.get("binding")
        mark = " (fragile)" if row.get("name") in fragile[run] else ""
        rows.append({
            "#": number_, "claim": row["claim"], "verdict": verdict_at_scale(row["claim"], row["verdict"]) + mark,
            "binding comparison: mean advantage [95 % CI]": (
                f"{bound}: {with_ci(row['binding_mean'], row['binding_lo'], row['binding_hi'])}"
                + typical_against_mean(run, row) if isinstance(bound, str) and bound else "–"),
            "run": html.link(relative_href(page_path(run, out), out), names[run].title) if measured_claims(row) else "–",
        })
    frame = pd.DataFrame(rows)
    order = "".join(f"<li>{html.text(names[folders[name]].title)}</li>" for name in tables)
    intro = (
        "<p>Each claim's verdict is the one README.md's table shows: that of the last run in this list that measured "
        f"it (the run is named in the last column).</p><ol>{order}</ol><p>A question only a check of ours asks takes "
        "its verdict from that check's run. <em>fragile</em>: leaving out one seed, or reading the differences by "
        "the Wilcoxon signed-rank test, moves the verdict (the run's page says how).</p>"
    )
    classes = {i: html.verdict_class(str(v)) for i, v in enumerate(frame["verdict"])}
    otherwise = "".join(f"<p>{html.text(line.replace('`', ''))}</p>" for line in
                        decided_otherwise(tables, {name: names[folders[name]] for name in tables}) if line)
    return "<h2>Each claim at a glance</h2>" + intro + html.table(frame, raw=("run",), classes=classes) + otherwise


def _declared_counts(declared: pd.DataFrame | None) -> str:
    """'your comparisons: 1 holds; 1 inconclusive' for a study, from its declared comparisons."""
    if declared is None or not len(declared):
        return "a study of its own, with no declared comparisons"
    verdicts = declared["verdict"].value_counts()
    return "your comparisons: " + "; ".join(f"{n} {v}" for v, n in verdicts.items())


def _counts(claims: pd.DataFrame | None, along: pd.DataFrame | None = None) -> str:
    """'2 holds; 4 inconclusive (17 claims not measured)', with the claims a horizon run measures along t (`along_t`)
    and their checkpoint verdicts, or what a check run that measures none has instead."""
    if claims is None:
        return "no claims"
    along = along if along is not None else pd.DataFrame(columns=["number"])
    unmeasured = int((~measured_claims(claims) & ~claims["number"].isin(along["number"])).sum())
    verdicts = claims.loc[measured_claims(claims), "verdict"].value_counts()
    parts = [f"{n} {v}" for v, n in verdicts.items()] + ([along_text(along)] if len(along) else [])
    if not parts:
        return "none of the claims measured: its results are in its tables"
    return "; ".join(parts) + (f" ({unmeasured} not measured)" if unmeasured else "")


def build(runs: list[Path], out: Path, configs: dict[Path, Path] | None = None,
          listing: Path = run_names.LISTING, titles: dict[Path, str] | None = None) -> list[Path]:
    """Every run's Parquet download and page, and the index; returns the pages written. `configs`: the config that
    ran a run, where known (`site_configs`); `listing`: where the runs' titles are (`analysis.presentation.run_names`);
    `titles`: a title for a run the listing does not name (a user's study)."""
    names = {run: run_names.name(run, listing) for run in runs}
    names = {run: replace(name, title=(titles or {}).get(run, name.title)) for run, name in names.items()}
    for run in runs:
        write_parquet(run)
    glossary.write(out)
    return [*(run_page(run, out, (configs or {}).get(run), names[run]) for run in runs), index_page(runs, out, names)]


def site_configs(listing: Path) -> dict[Path, Path]:
    """run -> the config that ran it, from a listing such as workflow/site.yaml (paths as it gives them)."""
    runs = yaml.safe_load(listing.read_text())["runs"]
    return {Path(run): Path(entry["config"]) for run, entry in runs.items()}
