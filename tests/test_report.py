"""The report written from a run's files (`analysis.report`): a section only for what was run, each with text whose
numbers are the measured ones, and - where LaTeX is installed (tools/install-latex.sh) - a PDF that fits the page."""

from __future__ import annotations

import re
import shutil
import subprocess
from itertools import product
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
import pytest

from analysis.figures import anytime
from analysis.figures import common as figures
from analysis.presentation.captions import CAPTIONS
from analysis.report.__main__ import build, main
from analysis.report.pages import page_fill, short_pages

ROOT = Path(__file__).resolve().parents[1]
PROBLEMS = ("ackley5", "hartmann6")
# (label, method, acquisition, temperature, lam, sampler): the synthetic experiment of the fixture
SYNTHETIC = (
    ("B3O-LogEI-c", "b3o", "logei", "constant", 0.1, "defer"),
    ("B3O-LogEI-n", "b3o", "logei", "normalised", 2.0, "defer"),
    ("TS", "ts", None, None, None, None),
    ("Random", "random", None, None, None, None),
)
# final regret per (label, problem): mean, lo, hi
FINAL = {
    ("B3O-LogEI-c", "ackley5"): (0.412, 0.301, 0.527),
    ("B3O-LogEI-n", "ackley5"): (0.388, 0.255, 0.519),
    ("TS", "ackley5"): (0.733, 0.612, 0.851),
    ("Random", "ackley5"): (2.46, 2.31, 2.6),
    ("B3O-LogEI-c", "hartmann6"): (0.0617, 0.0402, 0.0833),
    ("B3O-LogEI-n", "hartmann6"): (0.0922, 0.0711, 0.115),
    ("TS", "hartmann6"): (0.114, 0.0934, 0.137),
    ("Random", "hartmann6"): (0.893, 0.702, 1.07),
    ("B3O-LogEI-auto", "ackley5"): (0.215, 0.17, 0.26),
}
# (label, temperature, lam): the automatic temperature's test in the fixture (auto_synthetic, Ackley only)
AUTO = (("B3O-LogEI-c", "constant", 1.0), ("B3O-LogEI-auto", "auto", float("nan")))


def _row(experiment: str, trial_id: str, problem: str, label: str, method: str, acquisition, temperature, lam,
         sampler, seed: int, value: float, diversity: tuple[float, float, float]) -> dict:
    """One per-trial row of the fixture (B = 50, T = 6, N₀ = 50, simple regret read at 350 evaluations)."""
    mean, first, last = diversity
    return dict(experiment=experiment, trial_id=trial_id, problem=problem, label=label, method=method,
                acquisition=acquisition, temperature=temperature, lam=lam, sampler=sampler, batch_size=50,
                iterations=6, n_init=50, seed=seed, metric="simple_regret", lower_is_better=True, final_budget=350,
                budget=350, value=value, diversity=mean, diversity_skipped="", diversity_first=first,
                diversity_last=last)


def _per_trial() -> pd.DataFrame:
    rows = [
        _row("synthetic_b100", f"{label}{problem}{seed}", problem, label, method, acquisition, temperature, lam,
             sampler, seed, FINAL[label, problem][0], (0.11, 0.21, 0.07) if method == "ts" else (0.43, 0.5, 0.4))
        for (label, method, acquisition, temperature, lam, sampler) in SYNTHETIC
        for problem in PROBLEMS
        for seed in range(5)
    ]
    rows += [
        _row("lambda_ablation", f"lam{lam}{seed}", "hartmann6", "B3O-ucb-constant", "b3o", "ucb", "constant", lam,
             "defer", seed, 0.3, (0.4, 0.5, 0.3))
        for lam in (0.1, 10.0)
        for seed in range(5)
    ]
    rows += [
        _row("auto_synthetic", f"{label}{seed}", "ackley5", label, "b3o", "logei", temperature, lam, "defer", seed,
             FINAL[label, "ackley5"][0], (0.4, 0.5, 0.3))
        for (label, temperature, lam) in AUTO
        for seed in range(5)
    ]
    return pd.DataFrame(rows)


def _summary() -> pd.DataFrame:
    rows = [
        dict(
            experiment="synthetic_b100",
            problem=problem,
            label=label,
            lam=lam,
            sampler=sampler,
            metric="simple_regret",
            lower_is_better=True,
            mean=m,
            lo=lo,
            hi=hi,
            n=5,
        )
        for (label, _, _, _, lam, sampler) in SYNTHETIC
        for problem in PROBLEMS
        for m, lo, hi in [FINAL[label, problem]]
    ]
    rows += [
        dict(
            experiment="lambda_ablation",
            problem="hartmann6",
            label="B3O-ucb-constant",
            lam=lam,
            sampler="defer",
            metric="simple_regret",
            lower_is_better=True,
            mean=m,
            lo=m * 0.8,
            hi=m * 1.2,
            n=5,
        )
        for lam, m in ((0.1, 0.517), (10.0, 0.0734))
    ]
    rows += [
        dict(
            experiment="auto_synthetic",
            problem="ackley5",
            label=label,
            lam=lam,
            sampler="defer",
            metric="simple_regret",
            lower_is_better=True,
            mean=FINAL[label, "ackley5"][0],
            lo=FINAL[label, "ackley5"][1],
            hi=FINAL[label, "ackley5"][2],
            n=5,
        )
        for label, _, lam in AUTO
    ]
    return pd.DataFrame(rows)


def _claim(number: int, name: str, claim: str, source: str, experiment: str, run: str, measured: str, verdict: str,
           seeds_needed: int | None = None, beyond_paper: bool = False) -> dict:
    return dict(number=number, name=name, claim=claim, source=source, experiment=experiment, run=run,
                measured=measured, verdict=verdict, seeds_needed=seeds_needed, beyond_paper=beyond_paper)


def _claims() -> pd.DataFrame:
    return pd.DataFrame(
        [
            _claim(
                1, "b3o_beats_ts_b100", "All four B3O variants reach a lower final regret than TS", "Sec. 6.1 (B = 100)",
                "synthetic_b100", "B = 50, T = 6; 5 seeds",
                "ackley5: B3O-LogEI-c λ=1 vs TS at 350 evals: Δ +0.321 [0.2, 0.44], 5 seeds, p_Holm < 1e-04 "
                "→ holds; B3O-LogEI-n vs TS at 350 evals: Δ +0.345 [0.2, 0.5], 5 seeds, p_Holm 0.002 → holds\n"
                "hartmann6: B3O-LogEI-c λ=0.1 vs TS at 350 evals: Δ +0.0523 [-0.01, 0.1], 5 seeds, p_Holm 0.3 → "
                "inconclusive, ≈23 seeds would decide it",
                "inconclusive", 23,
            ),
            _claim(
                2, "batch_beats_random_b100", "All batch methods reach a lower final regret than random search",
                "Sec. 6.1 (B = 100)", "synthetic_b100", "B = 50, T = 6; 5 seeds",
                "ackley5: TS vs Random at 350 evals: Δ +1.73 [1.5, 1.9], 5 seeds, p_Holm < 1e-04 → holds", "holds",
            ),
            _claim(
                3, "ucb_c_low_lambda_worse", "Constant UCB degrades at low λ: λ ∈ {5, 10} beats λ = 0.1",
                "App. C.1, Fig. 9", "lambda_ablation", "B = 50, T = 6; 5 seeds",
                "hartmann6: UCB-c λ=10 vs λ=0.1: Δ +0.444 [0.3, 0.6], 5 seeds, p_Holm 0.01 → holds", "holds",
            ),
            _claim(
                4, "battery_constant_beats_scheduled", "Battery: constant-λ B3O-EHVI beats scheduled",
                "Sec. 6.2 (B = 50)", "battery", "–", "experiment 'battery' was not run", "not measured",
            ),
            _claim(
                5, "auto_matches_tuned", "The automatic temperature matches or beats Table 2's λ out of sample",
                "Beyond the paper, pre-registered", "auto_synthetic", "B = 50, T = 6; 5 seeds",
                "ackley5: B3O-LogEI-auto vs B3O-LogEI-c at 350 evals: Δ +0.197 [0.1, 0.3], 5 seeds → holds", "holds",
                beyond_paper=True,
            ),
        ]
    )


def _run_times() -> pd.DataFrame:
    split = dict(
        mean_startup_s=12.0,
        mean_fit_s=30.0,
        mean_density_s=6.0,
        mean_acquire_other_s=2.0,
        mean_evaluate_s=0.5,
        mean_io_s=0.1,
    )
    return pd.DataFrame(
        [
            dict(
                experiment="synthetic_b100",
                label="B3O-LogEI-c",
                trials=10,
                measured=10,
                total_s=612.0,
                mean_s=61.2,
                max_rss_mb=900.0,
                **split,
            ),
            dict(
                experiment="synthetic_b100",
                label="all methods",
                trials=40,
                measured=40,
                total_s=1830.0,
                mean_s=45.75,
                max_rss_mb=950.0,
                **split,
            ),
            dict(
                experiment="lambda_ablation",
                label="all methods",
                trials=10,
                measured=10,
                total_s=500.0,
                mean_s=50.0,
                max_rss_mb=900.0,
                **split,
            ),
            dict(
                experiment="all experiments",
                label="all methods",
                trials=50,
                measured=50,
                total_s=2330.0,
                mean_s=46.6,
                max_rss_mb=950.0,
                **split,
            ),
        ]
    )


def _density() -> pd.DataFrame:
    return pd.DataFrame(
        [
            dict(
                experiment="synthetic_b100",
                problem="hartmann6",
                label="B3O-LogEI-c",
                lam=0.1,
                iterations=30,
                ess_fraction_min=0.0004,
                ess_fraction_median=0.0127,
                ess_fraction_max=0.3,
                relative_diversity_median=0.81,
                alpha_p10_p90_median=12.0,
                collapsed=0,
                uniform=0,
            ),
            dict(
                experiment="lambda_ablation",
                problem="hartmann6",
                label="B3O-ucb-constant",
                lam=10.0,
                iterations=30,
                ess_fraction_min=0.0002,
                ess_fraction_median=0.0009,
                ess_fraction_max=0.01,
                relative_diversity_median=0.09,
                alpha_p10_p90_median=3.0,
                collapsed=7,
                uniform=0,
            ),
        ]
    )


def _best_lambda() -> pd.DataFrame:
    return pd.DataFrame(
        [
            dict(problem="hartmann6", variant="UCB-c", lam=0.1, mean=0.517, lo=0.41, hi=0.62, n=5, selected=False),
            dict(problem="hartmann6", variant="UCB-c", lam=10.0, mean=0.0734, lo=0.06, hi=0.09, n=5, selected=True),
        ]
    )


def _provenance() -> pd.DataFrame:
    items = {
        "trials": "12", "experiments": "synthetic_b100, lambda_ablation", "commits": "abc123def456 (12 trials)",
        "platforms": "727c497f1432 (12 trials)", "first trial finished": "2026-11-26 21:40:52+00:00",
        "last trial finished": "2026-11-26 23:25:33+00:00", "core-minutes": "17.5",
        "minutes from the first trial's finish to the last": "105",
        "platform 727c497f1432": "CPU: AMD EPYC; OS: Linux 6.1.0 (x86_64, glibc 2.36); Python: 3.11.7 with numpy 1.26.4",
    }
    return pd.DataFrame({"item": list(items), "value": list(items.values())})


def _automatic() -> pd.DataFrame:
    """analysis.tables.automatic's table for the fixture's automatic row on Ackley: inconclusive, flatter."""
    return pd.DataFrame(
        [{"name": "auto_matches_tuned", "problem": "ackley5", "variant": "LogEI", "in_sample": False,
          "auto": "B3O-LogEI-auto", "rival": "B3O-LogEI-c", "paper_lam": 1.0, "auto_lambda_t_median": 0.22, "n": 5,
          "look": None, "margin": "×1.25", "mean": -0.2, "lo": -0.3, "hi": -0.1, "verdict": "inconclusive",
          "auto_ess": 0.0017, "rival_ess": 0.0003, "auto_diversity": 0.39, "rival_diversity": 0.11}]
    )


def _per_iteration() -> pd.DataFrame:
    """The synthetic experiment after every iteration: regret falling to the fixture's final mean (seeds spread
    around it), and for B3O-LogEI-c alone a recommended point's regret 1.5 times the best evaluated one's."""
    rows = []
    for (label, method, *_), problem, seed, t in product(SYNTHETIC, PROBLEMS, range(5), range(7)):
        value = FINAL[label, problem][0] * (1 + 0.1 * (seed - 2)) * (7 - t)
        rows.append(dict(experiment="synthetic_b100", trial_id=f"{label}{problem}{seed}", label=label,
                         problem=problem, method=method, seed=seed, iteration=t, num_evals=50 + 50 * t,
                         metric="simple_regret", lower_is_better=True, value=value,
                         recommended_regret=1.5 * value if label == "B3O-LogEI-c" else float("nan")))
    return pd.DataFrame(rows)


def _anytime(paper: Path, table: pd.DataFrame) -> None:
    """The per-iteration table and the two anytime views the workflow draws from it for the report."""
    table.to_parquet(paper / "tables" / "per_iteration.parquet")
    for view, args in (("metric", []), ("recommended", ["--regret", "recommended"])):
        assert anytime.main(["--view", "metric", *args, "--table", str(paper / "tables" / "per_iteration.parquet"),
                             "--out", str(paper / "figures" / f"anytime_{view}")]) == 0


def _figure(path: Path, empty: bool = False) -> None:
    if empty:
        fig = figures.message_figure("No B3O and TS runs on a common problem")
    else:
        fig, ax = plt.subplots(figsize=(6, 3))
        ax.plot([0, 1], [1, 0])
    figures.save(fig, path)


@pytest.fixture(scope="module")
def paper(tmp_path_factory) -> Path:
    """A paper directory as a run of synthetic_b100 (with a normalised-λ row) and lambda_ablation leaves it."""
    paper = tmp_path_factory.mktemp("run") / "paper"
    (paper / "tables").mkdir(parents=True)
    _claims().to_csv(paper / "claims.csv", index=False)
    for name, table in (
        ("per_trial", _per_trial()),
        ("summary", _summary()),
        ("run_times", _run_times()),
        ("density", _density()),
        ("best_lambda", _best_lambda()),
        ("provenance", _provenance()),
        ("automatic", _automatic()),
    ):
        table.to_csv(paper / "tables" / f"{name}.csv", index=False)
    for name in ("regret_b100", "diversity_b100", "lambda_constant", "illustration_1d", "automatic"):
        _figure(paper / "figures" / name)
    _figure(paper / "figures" / "paired_b100", empty=True)  # drawn without data: must stay out of the report
    _anytime(paper, _per_iteration())
    (paper / "report.tex").write_text(build(paper))
    return paper


def _sections(tex: str) -> dict[str, str]:
    """Section title -> its body (up to the next section or the end of the document)."""
    body = tex[tex.index(r"\begin{document}") : tex.index(r"\end{document}")]
    parts = re.split(r"\\section\{([^}]*)\}", body)[1:]
    return dict(zip(parts[::2], parts[1::2]))


def _prose(body: str) -> str:
    """A section's own sentences: its floats, tables and commands removed."""
    body = re.sub(r"\\begin\{(figure|table)\}.*?\\end\{\1\}", "", body, flags=re.DOTALL)
    body = re.sub(r"\\begingroup.*?\\endgroup", "", body, flags=re.DOTALL)
    body = re.sub(r"\\(label|subsection|FloatBarrier)(\{[^}]*\})?", "", body)
    return body.strip()


def test_each_section_has_text_and_only_what_was_run_has_one(paper):
    sections = _sections((paper / "report.tex").read_text())
    assert list(sections) == [
        "This run at a glance",
        "Method as implemented",
        "Synthetic benchmarks",
        "Ablations",
        "A temperature that needs no tuning (beyond the paper)",
        "The recommended point's regret (beyond the paper)",
        "Summary",
        "Claims in detail",
        "Cost",
        "B3O density diagnostics",
        "Illustrations",
        "Provenance",
    ]  # no Applications (battery not run), no figure-less Cost text about timing; the last four are appendices
    for title, body in sections.items():
        assert len(re.findall(r"[.!?](\s|$)", _prose(body))) >= 1, title  # at least one sentence of its own
    synthetic = sections["Synthetic benchmarks"]
    assert "paired_b100" not in synthetic and "regret_b100" in synthetic  # the figure without data is left out
    assert "timing" not in sections["Cost"]


def test_text_gives_the_measured_values(paper):
    sections = _sections((paper / "report.tex").read_text())
    synthetic = sections["Synthetic benchmarks"]
    # best method per problem with its CI, against TS and random search
    assert "B3O-LogEI-c reaches the lowest mean final simple regret, 0.0617 [0.0402, 0.0833]" in synthetic
    assert "0.114 [0.0934, 0.137] for TS" in synthetic and "0.893 [0.702, 1.07] for Random" in synthetic
    assert "batches of B = 50 points for T = 6 iterations after 50 initial points, 5 seeds" in synthetic
    # the normalised-temperature row beyond the paper, against the constant-λ variant
    assert "Beyond the paper, B3O-LogEI-n uses the normalised temperature, one λ = 2" in synthetic
    assert "0.0922 [0.0711, 0.115] on Hartmann (6D) against 0.0617 [0.0402, 0.0833] for B3O-LogEI-c" in synthetic
    assert "from 0.21 in its first batch to 0.07 in its last" in synthetic
    assert "claim 1 is inconclusive and claim 2 holds" in synthetic
    ablations = sections["Ablations"]
    assert "0.517 [0.414, 0.62] at λ = 0.1 and 0.0734 [0.0587, 0.0881] at λ = 10" in ablations
    assert "Table 2 value in 1 of the 1 (function, variant) cells run" in ablations
    assert "The 50 trials took 38.8 core-minutes in all (46.6 s per trial on average)" in sections["Cost"]
    assert "fit 59" in sections["Cost"]  # 30 of 50.6 s
    assert "B3O-UCB-c on Hartmann (6D) (λ = 10: 7 of 30)" in sections["B3O density diagnostics"]  # in the names
    automatic = sections["A temperature that needs no tuning (beyond the paper)"]
    assert "the effective sample size of the Boltzmann weights" in automatic  # the rule of the temperature run
    assert "B3O-LogEI-auto 0.215 [0.17, 0.26] and B3O-LogEI-c 0.412 [0.301, 0.527]" in automatic
    assert "Of the claims beyond the paper on this experiment" in automatic and "claim 5 holds" in automatic
    assert "automatic" in automatic.split("shows the paired advantages")[0][-80:]  # its figure, referenced
    assert "for LogEI on 0 of 1 problems run" in automatic and r"\label{tab:automatic_outcome}" in automatic
    assert "0.22, 1 & -0.2 [-0.3, -0.1]" in automatic  # λ_t chosen beside the paper's λ, then the advantage
    summary = _prose(sections["Summary"])
    assert "Of the paper's 4 claims, 2 hold, 1 is inconclusive and 1 is not measured" in summary


def test_claims_table_is_a_full_width_long_table(paper):
    claims = _sections((paper / "report.tex").read_text())["Claims in detail"]
    assert r"\begin{xltabular}{\linewidth}" in claims and r"\endhead" in claims  # breaks across pages (longtable)
    assert r"p\_Holm 0.3 → inconclusive" in claims  # escaped, Unicode kept for the preamble to map


def test_missing_paper_directory_is_refused_with_exit_2(tmp_path, capsys):
    assert main(["--paper", str(tmp_path / "nowhere")]) == 2
    assert "no such paper directory" in capsys.readouterr().err


def test_every_workflow_figure_has_a_caption_that_renders_as_rst():
    from docutils.core import publish_parts

    rules = (ROOT / "workflow/rules/common.smk").read_text()
    written = "".join(path.read_text() for path in (ROOT / "workflow/rules").glob("*.smk"))  # a rule's own figure
    names = set(re.findall(r'^\s+"(\w+)": \(', rules, re.MULTILINE)) | {
        "illustration_1d",
        "lambda_effect",
        "theorem1",
    } | set(re.findall(r'/figures/(\w+)\.png"', written))
    assert names <= set(CAPTIONS), names - set(CAPTIONS)
    for name, text in CAPTIONS.items():
        html = publish_parts(text, writer="html", settings_overrides={"report_level": 1})["body"]
        assert "system-message" not in html, (name, html)


@pytest.mark.skipif(not shutil.which("latexmk"), reason="needs LaTeX: tools/install-latex.sh")
def test_report_compiles_without_overfull_boxes(paper):
    result = subprocess.run(
        ["latexmk", "-pdf", "-interaction=nonstopmode", "-halt-on-error", "report.tex"],
        check=False,
        cwd=paper,
        capture_output=True,
        text=True,
        timeout=300,
    )
    log = (paper / "report.log").read_text(errors="replace")
    assert result.returncode == 0, log[-3000:]
    assert "Overfull \\hbox" not in log and "Overfull \\vbox" not in log
    assert "LaTeX Warning: Reference" not in log  # every \ref resolved
    if shutil.which("pdftotext"):
        text = subprocess.run(
            ["pdftotext", "report.pdf", "-"], check=False, cwd=paper, capture_output=True, text=True
        ).stdout
        assert "0.0617 [0.0402, 0.0833]" in text and "Claims" in text
    if shutil.which("pdftoppm"):
        assert short_pages(paper / "report.pdf", paper / "report.tex") == []


def _render(tmp_path: Path, body: str) -> Path:
    filler = "A sentence that fills the page with words of ordinary length. " * 45  # about one page
    tex = tmp_path / "pages.tex"
    tex.write_text(r"\documentclass{article}\begin{document}" + body.replace("FULL", filler) + r"\end{document}")
    subprocess.run(["latexmk", "-pdf", "-interaction=nonstopmode", tex.name], cwd=tmp_path, check=True,
                   capture_output=True, timeout=120)
    return tex


@pytest.mark.skipif(not (shutil.which("latexmk") and shutil.which("pdftoppm")), reason="needs LaTeX and poppler")
def test_a_page_left_mostly_empty_is_found_unless_it_ends_a_section(tmp_path):
    tex = _render(tmp_path, r"\section{One}FULL\clearpage One line.\clearpage FULL")
    pdf = tex.with_suffix(".pdf")
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    short = next(page for page, words in enumerate(text.split("\f"), start=1) if "One line." in words)
    fill = page_fill(pdf)
    assert fill[0] > 0.9 and fill[short - 1] < 0.1
    assert [page for page, _ in short_pages(pdf, tex)] == [short]
    tex = _render(tmp_path, r"\section{One}FULL\clearpage One line.\clearpage\section{Two}FULL")
    assert short_pages(tex.with_suffix(".pdf"), tex) == []


@pytest.mark.skipif(not shutil.which("pdftoppm"), reason="needs poppler (tools/install-latex.sh)")
@pytest.mark.parametrize(  # every published report
    "run", sorted(str(pdf.parent.relative_to(ROOT)) for pdf in ROOT.glob("paper/**/report.pdf"))
)
def test_the_published_reports_leave_no_page_mostly_empty(run):
    assert short_pages(ROOT / run / "report.pdf", ROOT / run / "report.tex") == []


def test_page_one_gives_the_scale_and_every_verdict_and_the_provenance_is_the_last_section(paper):
    found = _sections((paper / "report.tex").read_text())
    glance, said = found["This run at a glance"], found["Provenance"]
    assert list(found)[-1] == "Provenance" and "made 12 trials" not in glance and "docs/glossary.md" in glance
    assert "made 12 trials" in said and "abc123def456 (12 trials)" in said and "17.5 core-minutes" in said
    # the machine in words (CPU with its trials, OS, Python and the libraries' versions), its platform id secondary
    assert (r"They ran on AMD EPYC (12 trials) under Linux 6.1.0 (x86\_64, glibc 2.36), with Python 3.11.7 with "
            r"numpy 1.26.4 (numerical platform id 727c497f1432 (12 trials))." in said)
    assert "Platform 727c497f1432 is" not in glance
    assert "the large-batch study at reduced scale: B = 50 (paper 100), T = 6 (paper 50)" in glance
    assert "docs/deviations.md" in glance
    assert glance.split(r"\label{sec:glance}")[1].strip().startswith("This run (B = 50, T = 6, N₀ = 50, 5 seeds")
    claims = pd.read_csv(paper / "claims.csv")
    rows = re.findall(r"^(\d+) & ", glance, re.M)
    measured = claims["verdict"] != "not measured"
    assert sorted(map(int, rows)) == sorted(claims.loc[measured, "number"])  # page one's table: what was measured
    unmeasured = ", ".join(map(str, claims.loc[~measured, "number"]))
    assert not unmeasured or f"Not measured in this run (Section~\\ref{{sec:claims}} says why): claims {unmeasured}." in glance



def test_page_one_names_the_run_and_says_a_run_at_the_papers_scale_is_at_it(monkeypatch):
    """The large-batch run (N₀ = 100, then T = 50 batches of B = 100, up to 30 seeds) is at the paper's scale of
    Sec. 6.1 in B, T, N₀ and seeds, which page one says (not "reduced"), with the M its config gives against the
    paper's; the run is named by its title in workflow/site.yaml, its directory secondary."""
    import yaml

    from analysis.presentation.deviations import SETTINGS
    from analysis.report.latex import text

    monkeypatch.chdir(ROOT)
    tex = build("paper/large_batch", None, "config/large_batch.yaml")
    found = _sections(tex)
    glance = found["This run at a glance"]
    prose = _prose(glance)
    # the answer first: its sentences and the leaderboard, before the verdicts' table
    assert "end below TS on most seeds" in prose and glance.index("tab:answer") < glance.index("tab:glance")
    title = yaml.safe_load((ROOT / "workflow" / "site.yaml").read_text())["runs"]["paper/large_batch"]["title"]
    # the report's title is the run's, its scale and directory under it; page one opens with the answer
    assert rf"\title{{{text(title)}}}" in tex and "Reproducing B3O" in tex
    byline = re.search(r"\\author\{([^\n]*)\}", tex).group(1)
    assert byline.startswith(r"B = 100, T = 50, N₀ = 100, ") and r"\texttt{paper/\allowbreak{}large\_batch}" in byline
    assert prose.startswith("At the paper's horizon, N₀ = 100 points then T = 50 batches of B = 100")
    table = pd.read_csv(ROOT / "paper/large_batch/tables/per_trial.csv").drop_duplicates("trial_id")
    paper = {s.name: s.paper for s in SETTINGS if s.experiment == "synthetic_b100"}
    assert (table["batch_size"].mode()[0], table["iterations"].mode()[0], table["n_init"].mode()[0]) == (
        paper["batch size B"], paper["iterations T"], paper["initial points N₀"])
    assert "the large-batch study at the paper's scale: B = 100, T = 50, N₀ = 100, " in prose
    assert "reduced" not in prose and "(paper 100)" not in prose
    assert "Its SVGP has M = 64 inducing points (the paper's 500)." in prose
    # its machines in words, each with its trials (its sittings ran on two machines)
    said = _prose(found["Provenance"])
    assert "They ran on Intel(R) Xeon(R) Processor (276 trials) and AMD EPYC (234 trials)" in said
    assert "OpenBLAS" in said and "gpflow 2.11.2" in said


def test_an_experiment_no_section_describes_gets_its_own_subsection(paper):
    """A user's own experiment (or a side question's) is reported with its setup, values and figure, not left out;
    the experiments the report's sections describe are not repeated there."""
    from dataclasses import replace

    from analysis.report import beyond, inputs

    run = inputs.load(paper)
    assert beyond.other(run) is None  # every experiment of the fixture has its section
    renamed = {"lambda_ablation": "my_study"}
    mine = replace(
        run,
        per_trial=run.per_trial.replace({"experiment": renamed}),
        summary=run.summary.replace({"experiment": renamed}),
        figures=run.figures | {"progress_my_study"},
    )
    section = beyond.other(mine)
    body = "\n".join(section.parts)
    assert section.title == "Further experiments" and r"\subsection{my\_study}" in body
    assert "We ran" in body and r"\ref{fig:progress_my_study} shows the run" in body


def test_the_recommended_point_s_regret_stands_beside_the_evaluated_one_iff_recorded(paper, tmp_path):
    section = _sections((paper / "report.tex").read_text())["The recommended point's regret (beyond the paper)"]
    # the recommended view beside the report's regret figures (the all-problem evaluated view is the site's)
    assert r"\ref{fig:anytime_recommended} gives" in section and r"\ref{fig:anytime_metric}" not in section
    assert "(B3O-LogEI-c)" in section  # the one method whose records carry it
    table = section[section.index(r"\label{tab:recommended}"):]
    row = next(line for line in table.splitlines() if "B3O-LogEI-c" in line and "Hartmann" in line)
    assert "0.0617 [" in row and "0.0925 [" in row  # best evaluated, then 1.5 times it recommended
    assert "TS" not in table
    unrecorded = tmp_path / "paper"
    shutil.copytree(paper, unrecorded)
    _anytime(unrecorded, _per_iteration().assign(recommended_regret=float("nan")))
    assert "The recommended point's regret (beyond the paper)" not in _sections(build(unrecorded))


def test_a_study_s_report_has_its_own_title_and_no_paper_claims(paper):
    """Issue 69: a user's study got "Reproducing B3O" with pages of the paper's claims "not measured"."""
    tex = build(paper, config="my.yaml", study=True)
    assert r"\title{A study run with the B3O workflow: my.yaml}" in tex and "Reproducing B3O" not in tex
    found = _sections(tex)
    assert "Claims in detail" not in found and "Summary" not in found and "tab:claims" not in tex
    assert "made 12 trials" in found["Provenance"]  # where its numbers come from stays


def test_the_diversity_figure_a_horizon_figure_repeats_is_shown_once(paper, tmp_path):
    """A run read along its horizon draws its experiment's batch diversity twice (the diversity figure, and the
    horizon figure's middle row): the report shows it once, in the horizon figure, and says where."""
    from dataclasses import replace

    from analysis.report import inputs
    from analysis.report.experiments import synthetic

    run = inputs.load(paper)
    body = "\n".join(synthetic(run).parts)
    assert r"{diversity_b100}" in body and "middle row of the horizon figure" not in body
    along = tmp_path / "paper"
    shutil.copytree(paper, along)
    pd.DataFrame({"experiment": ["synthetic_b100"]}).to_csv(along / "tables" / "horizon_along.csv", index=False)
    body = "\n".join(synthetic(replace(run, paper=along, figures=run.figures | {"horizon_along"})).parts)
    assert r"{diversity_b100}" not in body and r"{regret_b100}" in body
    assert r"the middle row of the horizon figure (Section~\ref{sec:horizon})" in body


def test_the_confirmation_s_page_one_says_what_replicated_and_shows_its_figure(monkeypatch):
    """The fresh-seed confirmation's report opens, as its README section and site page do, with what replicated on
    the fresh seeds (`confirmation_block.headline`) and its figure, before the rest of page one."""
    from analysis.presentation.confirmation_block import tally

    monkeypatch.chdir(ROOT)
    tex = build("paper/large_batch_confirm", None, "config/large_batch_confirm.yaml")
    glance = _sections(tex)["This run at a glance"]
    said = tally(pd.read_csv(ROOT / "paper/large_batch_confirm/tables/confirmation.csv"))
    prose = _prose(glance)
    assert said[0].upper() + said[1:] in prose and "exploratory readings replicated" in prose
    # its figure, where drawn (figure PDFs are not in git: the committed report was built beside them)
    committed = _sections((ROOT / "paper/large_batch_confirm/report.tex").read_text())["This run at a glance"]
    assert r"{confirmation}" in committed and committed.index(r"{confirmation}") < committed.index("docs/glossary.md")
