"""One presentation layer: every figure and table names methods and problems as `analysis.naming` does (never by a
grid id), and every figure prints its text at 7 pt or more where the report (or the site) sets it.

The figures and tables are drawn from the committed per-trial tables of the published runs. The per-iteration
figures read a tidy table; `tidy_of` makes one from the per-trial table (one row per trial and budget), which is all
that the names and the sizes of the text depend on.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure
from matplotlib.text import Text

from analysis import naming
from analysis.data import per_trial
from analysis.data.aggregate import HEADLINE_METRICS
from analysis.figures import common
from analysis.figures import printed

ROOT = Path(__file__).resolve().parents[1]
RUNS = sorted(p.parents[1] for p in ROOT.glob("paper/**/tables/per_trial.csv"))
#: the grid ids of methods, their parts and problems
IDS = {*naming.METHODS, *naming.ACQUISITIONS, *naming.SAMPLER_NAMES, *naming.PROBLEMS}
#: ids that are also words of prose ("random search", "the battery electrode design"): an id only as a whole text
WORDS = {"random", "battery"}
#: a grid id shown as a name: an id as a segment of its own ("qei", "B3O-ucb-constant"; not a file's name,
#: "config/ts_starts.yaml", nor part of a longer id, escaped for LaTeX or not), a B3O id path ("b3o/defer-is/logei")
INTERNAL = re.compile(
    r"(?<![\w./])(" + "|".join(map(re.escape, sorted(IDS - WORDS, key=len, reverse=True))) + r")(?![\w.]|\\_)|\bb3o/"
)


def internal(text: object) -> bool:
    """Whether a legend entry, label or table cell shows a grid id instead of its name."""
    text = str(text)
    return text.strip() in IDS or INTERNAL.search(text) is not None
#: the figures the site alone shows (not set in the report, so not capped at the report's figure height)
SITE_ONLY = {"anytime_metric", "anytime_ecdf"}


def tidy_of(table: pd.DataFrame) -> pd.DataFrame:
    """A tidy table from a per-trial one: each trial's budgets as its iterations, its metric's column the value."""
    iteration = ((table["budget"] - table["n_init"]) / table["batch_size"].clip(lower=1)).round().astype("int64")
    return table.assign(
        iteration=iteration,
        num_evals=table["budget"],
        sense=np.where(table["lower_is_better"], "minimise", "maximise"),
        **{m: np.where(table["metric"] == m, table["value"], np.nan) for m in HEADLINE_METRICS},
    )


def _run_id(run: Path) -> str:
    return str(run.relative_to(ROOT))


def _figures(run: Path) -> Iterator[tuple[str, Callable[[], Figure]]]:
    """(name, draw) of every figure the run's committed tables can draw."""
    from analysis.claims.comparisons import differences
    from analysis.claims.selection import where
    from analysis.data import per_iteration
    from analysis.figures import (
        anytime,
        automatic,
        battery,
        diversity,
        formula_e,
        horizon,
        lambda_ablation,
        paired,
        regret,
        sampler_ablation,
        score_profiles,
    )
    from analysis.statistics.runtime_ecdf import ecdf
    from analysis.statistics.scores import profiles
    from analysis.tables.horizon import DEFAULT, advantage_by_iteration

    table = per_trial.read(run / "tables" / "per_trial.csv")
    tidy = tidy_of(table)
    experiments = list(dict.fromkeys(table["experiment"]))
    for e in experiments:
        summary = regret.regret_curves(tidy, e)
        yield f"regret {e}", lambda s=summary, e=e: regret.draw(s, "Simple regret in " + common.experiment_at(tidy, e))
        if tidy.loc[tidy["experiment"] == e, "batch_size"].max() > 1:
            curves = diversity.diversity_curves(tidy, e)
            yield f"diversity {e}", lambda c=curves, e=e: diversity.draw(c, diversity.figure_title(tidy, e, 1))
    for e in (e for e in paired.EXPERIMENTS if e in experiments):
        diffs = differences(table, e, where(method="b3o"), where(method="ts"))
        if len(diffs):
            yield f"paired {e}", lambda d=diffs, e=e: paired.draw(d, paired.figure_title(table, e))
    for temperature in ("constant", "scheduled"):
        curves = lambda_ablation.lambda_curves(tidy, temperature)
        if len(curves):
            yield f"lambda {temperature}", lambda c=curves, t=temperature: lambda_ablation.draw(c, t)
    for variant in naming.VARIANTS:
        curves = sampler_ablation.sampler_curves(tidy, variant)
        if len(curves):
            yield f"sampler {variant}", lambda c=curves, v=variant: sampler_ablation.draw(c, v)
    if "battery" in experiments:
        reference = battery.reference_hypervolume(tidy)
        curves = battery.hypervolume_curves(tidy, reference)
        fronts = pd.DataFrame(columns=list(battery.FRONT_COLUMNS))  # the per-trial table holds no Pareto points
        yield "battery", lambda c=curves, r=reference: battery.draw(fronts, c, r)
    if "formula_e" in experiments:
        summaries = formula_e.formula_e_curves(tidy)
        yield "formula_e", lambda: formula_e.draw(summaries)
    if DEFAULT.experiment in experiments:
        advantage = advantage_by_iteration(tidy, DEFAULT)
        spread = diversity.diversity_curves(tidy, DEFAULT.experiment)
        yield "horizon_advantage", lambda: horizon.draw(advantage, spread, DEFAULT, "the horizon")
    advantages = automatic.advantages(table)
    if len(advantages):
        yield "automatic", lambda: automatic.draw(advantages)
    steps = run / "tables" / "per_iteration.parquet"
    iterations = per_iteration.read(steps) if steps.exists() else None
    for kind in anytime.REGRETS if iterations is not None else ():
        curves = anytime.metric_curves(iterations, kind)
        if len(curves):
            name = "anytime_metric" if kind == "evaluated" else f"anytime_{kind}"
            yield name, lambda c=curves, k=kind: anytime.draw_metric(c, k)
    if iterations is not None:
        budgets = per_iteration.as_budgets(iterations)
        reached = ecdf(budgets)[0]
        reached = reached[anytime.among(reached, anytime.along_panels(budgets, "budget"))]
        if len(reached):
            yield "anytime_ecdf", lambda: anytime.draw_ecdf(reached)
    along = pd.read_csv(run / "tables" / "verdicts_along.csv") if (run / "tables" / "verdicts_along.csv").exists() else []
    if len(along):
        yield "anytime_verdicts", lambda: anytime.draw_verdicts(along)
    scores = run / "tables" / "scores.csv"
    shown_scores = profiles(common.load_table(scores)) if scores.exists() else []
    if len(shown_scores):
        yield "score_profiles", lambda: score_profiles.draw(shown_scores)


def _illustrations() -> Iterator[tuple[str, Callable[[], Figure]]]:
    """(name, draw) of the figures computed from the method, not from trials: drawn on stand-in results (the GP fits
    they are computed from take TensorFlow; the text does not depend on them), and the batch timings."""
    from analysis.figures import illustration_1d, lambda_effect, theorem1, timing
    from analysis.statistics import theory

    x = np.linspace(0, 1, 41)
    rng = np.random.default_rng(0)
    one_d = {
        "x": x, "truth": np.sin(6 * x), "mean": np.sin(6 * x), "std": 0.1 + 0 * x, "data_x": x[::8],
        "data_y": np.sin(6 * x[::8]), "paths": np.sin(6 * x)[:, None] + rng.normal(0, 0.1, (41, 5)),
        "ts_batch": x[:5], "ts_values": np.ones(5), "alpha": np.cos(6 * x), "density": np.exp(np.cos(6 * x)),
        "b3o_batch": x[:10], "b3o_alpha": np.cos(6 * x[:10]),
    }
    yield "illustration_1d", lambda: illustration_1d.draw(one_d, 5.0)
    x1, x2 = np.meshgrid(x, x)
    surface = {"x1": x1, "x2": x2, "alpha": np.sin(5 * x1) * np.cos(3 * x2), "data": rng.uniform(size=(12, 2)),
               "batches": {lam: rng.uniform(size=(50, 2)) for lam in (0.1, 1.0, 10.0)}}
    yield "lambda_effect", lambda: lambda_effect.draw(surface)
    yield "theorem1", lambda: theorem1.draw(theory.measure(num_samples=2_000))
    yield "timing", lambda: timing.draw(timing.scaling(common.load_table(ROOT / "paper/tables/scaling.csv")))


def _texts(fig: Figure) -> list[Text]:
    """Every piece of text the figure prints: titles, labels, tick labels, legends, notes (laid out as drawn)."""
    fig.draw_without_rendering()
    return [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip() and t.get_figure() is fig]


def _smallest_printed(fig: Figure, texts: list[Text], capped: bool) -> tuple[float, str]:
    """The smallest font size (pt) the figure prints at, as saved (its tight bounding box) and set by the report;
    `texts`: what it prints (`_texts`, which drew it)."""
    renderer = fig.canvas.get_renderer()
    box = fig.get_tightbbox(renderer).padded(0.1)  # savefig's bbox_inches="tight", pad_inches=0.1
    scale = printed.included_scale(box.width, box.height, capped)
    smallest = min(texts, key=lambda t: t.get_fontsize())
    return smallest.get_fontsize() * scale, f"{smallest.get_text()!r} at {smallest.get_fontsize()} pt × {scale:.2f}"


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


#: the runs whose figures the default suite checks: the default run, the extended run and the large-batch run draw
#: every kind of figure the published runs draw but the automatic temperature's own; the other runs' figures (the same
#: scripts on other tables) and that one are checked in CI's long tests
DEFAULT_RUNS = {"paper", "paper/extended", "paper/large_batch", ""}


@pytest.mark.parametrize("run", [pytest.param(r, marks=() if r in DEFAULT_RUNS else pytest.mark.long)
                                 for r in [*map(_run_id, RUNS), ""]])
def test_a_figure_names_no_grid_id_and_prints_its_text_at_7pt_or_more(run, subtests):
    """Each figure a run's tables draw ("": the illustrations) is a subtest: which figures a run draws is known only
    from its data, made here rather than at collection."""
    import matplotlib.pyplot as plt

    for name, draw in _figures(ROOT / run) if run else _illustrations():
        with subtests.test(figure=name):
            fig = draw()
            texts = _texts(fig)
            named = [t.get_text() for t in texts if internal(t.get_text())]
            assert named == []
            size, which = _smallest_printed(fig, texts, capped=name.split()[0] not in SITE_ONLY)
            assert size >= printed.SMALLEST_FONT_PT, which
        plt.close(fig)


def _cells(frame: pd.DataFrame) -> list[str]:
    return [str(v) for v in frame.astype(str).to_numpy().ravel()]


def _report(run: Path, table: pd.DataFrame, tidy: pd.DataFrame, claims: pd.DataFrame) -> str:
    """The report's text and tables for the run, its claims and final values made from its per-trial table (the
    committed claims.csv and summary.csv were written by an earlier version), its other tables as committed; LaTeX
    commands' arguments (labels, file names) left out."""
    from analysis.report import inputs, latex, sections
    from analysis.tables import summary

    committed = inputs.load(run)
    made = inputs.Run(
        **{**committed.__dict__, "claims": claims, "summary": summary.final_summary(tidy), "per_trial": table}
    )
    body = latex.document([s for s in (make(made) for make in sections.ALL) if s is not None])
    body = body[body.index(r"\begin{document}"):]
    return re.sub(r"\\(label|ref|includegraphics|begin|end|texttt)(\[[^]]*\])?\{[^}]*\}", "", body)


def _table_cells(run: Path) -> Iterator[tuple[str, str]]:
    """(table, cell) of every table the run's committed tables make, and every line of its report."""
    from dataclasses import fields

    from analysis.claims import checking
    from analysis.report import inputs
    from analysis.tables import automatic, best_lambda, density, horizon, run_times, summary

    table = per_trial.read(run / "tables" / "per_trial.csv")
    tidy = tidy_of(table)
    yield from (("summary", c) for c in _cells(summary.for_paper(summary.final_summary(tidy))))
    yield from (("best_lambda", c) for c in _cells(best_lambda.table_2(best_lambda.candidates(tidy))))
    stats = horizon.advantage_by_iteration(tidy, horizon.DEFAULT)
    if len(stats):
        yield from (("horizon", c) for c in _cells(horizon.checkpoints(stats)))
    committed = inputs.load(run)
    for name, make in (("density", density.for_paper), ("run_times", run_times.for_paper),
                       ("automatic", automatic.for_paper)):
        if getattr(committed, name) is not None:
            yield from ((name, c) for c in _cells(make(getattr(committed, name))[0]))
    results = checking.check_all(table)
    claims = pd.DataFrame([{f.name: getattr(r, f.name) for f in fields(r) if f.name != "comparisons"} for r in results])
    claims.insert(0, "number", range(1, len(claims) + 1))
    yield from (("claims", c) for c in _cells(claims[["claim", "run", "measured", "binding"]]))
    yield from (("report", line) for line in _report(run, table, tidy, claims).splitlines())


@pytest.mark.parametrize("run", [_run_id(run) for run in RUNS])
def test_the_tables_and_the_report_name_no_grid_id(run):
    shown = [(name, cell) for name, cell in _table_cells(ROOT / run) if internal(cell)]
    assert shown == []


def test_a_label_made_from_grid_ids_reads_as_the_method_s_name():
    assert naming.display_label("B3O-ucb-constant") == "B3O-UCB-c"
    assert naming.display_label("B3O-logei-scheduled λ=0.1") == "B3O-LogEI-s λ=0.1"
    assert [naming.display_label(m) for m in ("qei", "lp", "seq-ei", "B3O-UCB-c-defer-is")] == [
        "q-EI", "LP", "Seq-EI", "B3O-UCB-c-DEFER-IS"
    ]
    # a label already in names, or one that adds words of its own, is kept
    assert [naming.display_label(m) for m in ("TS-shared", "B3O-UCB-c-collapsed", "B3O-UCB-tail-9.2")] == [
        "TS-shared", "B3O-UCB-c-collapsed", "B3O-UCB-tail-9.2"
    ]
    assert naming.method_title("b3o", "logei", "", "defer-is") == "B3O-LogEI (DEFER-IS)"
    # two labels of one experiment that would read alike keep their own spelling
    frame = pd.DataFrame({"experiment": ["e", "e"], "label": ["B3O-ucb-constant", "B3O-UCB-c"]})
    assert naming.display_labels(frame)["label"].tolist() == ["B3O-ucb-constant", "B3O-UCB-c"]


@pytest.mark.parametrize("configfile", sorted(p.name for p in (ROOT / "config").glob("*.yaml")))
def test_every_experiment_a_shipped_config_runs_has_a_reader_s_name(configfile):
    """Figure titles and tables name an experiment as `analysis.naming.EXPERIMENTS` does, never by its config key."""
    import yaml

    config = yaml.safe_load((ROOT / "config" / configfile).read_text())
    assert set(config.get("experiments", {})) <= set(naming.EXPERIMENTS)


def test_an_experiment_s_progress_figure_is_captioned_by_its_name_and_a_user_s_by_its_id():
    from analysis.presentation.captions import caption

    assert caption("progress_collapsed_fit_m500").startswith("The collapsed SVGP fit at M = 500: each problem's")
    assert caption("progress_my_study").startswith("Experiment my_study: each problem's")


def test_every_method_has_a_colour_and_line_style_of_its_own():
    """One palette owns every method's look: no two baselines, and no two B3O variants, draw alike."""
    looks = [(colour, str(style)) for colour, style in common.METHOD_STYLES.values()]
    sequential = {"Seq-EI", "Seq-EHVI", "LogEI-MV"}  # never two in one figure
    shown = [look for name, look in zip(common.METHOD_STYLES, looks) if name not in sequential]
    assert len(set(shown)) == len(shown)
    assert set(naming.METHODS.values()) - {"B3O"} <= set(common.METHOD_STYLES)
    assert common.line_style("q-EI") != "-" and common.colour("q-EI") != common.colour("LP")


def test_a_user_s_own_methods_draw_apart_from_each_other_and_from_the_package_s(monkeypatch):
    """Issue 69: MaxVar and Random were both grey dashed lines; issue 80: a user's method was B3O-UCB-c's blue. Twelve
    methods of a user's own, beside B3O and random search, each get a colour and a dash pattern of their own, the same
    in every figure of the run, and no colour is near another method's of the run."""
    from matplotlib.colors import to_rgb

    monkeypatch.setattr(common, "_OWN", {})
    own = [f"Mine-{i:02d}" for i in range(12)]
    common.style_run(["B3O-UCB-c", "Random", *reversed(own)])
    looks = [(common.colour(label), str(common.line_style(label))) for label in own]
    known = {str(style) for _, style in common.METHOD_STYLES.values()}
    assert len(set(looks)) == len(own) and not {style for _, style in looks} & known
    colours = [to_rgb(c) for c in [common.colour("B3O-UCB-c"), common.colour("Random"), *(c for c, _ in looks)]]
    for i, one in enumerate(colours):
        assert common._distance(one, colours[:i] + colours[i + 1:]) >= common.APART, (i, one)
    assert common.colour("Mine-00") != common.OWN_COLOURS[0]  # tab10's blue is B3O-UCB-c's
    assert common.colour("Mine-03 λ=2") == looks[3][0]
    assert common.colour("Random") == "tab:gray"


def _dashes(style) -> tuple[float, ...]:
    """A line style's on-off sequence in points at line width 1 (matplotlib's named patterns from its rcParams)."""
    import matplotlib as mpl

    named = {"--": "lines.dashed_pattern", ":": "lines.dotted_pattern", "-.": "lines.dashdot_pattern"}
    return tuple(mpl.rcParams[named[style]]) if isinstance(style, str) else tuple(style[1])


def test_a_user_s_dash_patterns_are_far_from_every_package_method_s_and_from_each_other():
    """A user's first method drew (4, 1.5), which the eye does not tell from Random's "--" (3.7, 1.6): every pattern
    differs from every other by more than a point in some dash or gap, or in its number of them."""
    known = [_dashes(style) for _, style in common.METHOD_STYLES.values() if style != "-"]
    own = [_dashes(style) for style in common.OWN_DASHES]

    def near(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
        return len(a) == len(b) and max(abs(x - y) for x, y in zip(a, b)) <= 1.0

    for i, pattern in enumerate(own):
        assert not any(near(pattern, other) for other in known + own[:i]), pattern


def test_a_user_s_problem_is_titled_by_its_own_name_from_the_tidy_table(tmp_path, monkeypatch):
    """Issue 69: figures named the problem `camel_problem:camel`; the tidy table carries the object's own name."""
    monkeypatch.setattr(naming, "_OWN_PROBLEMS", {})
    table = pd.DataFrame({"problem": ["camel_problem:camel", "ackley5"], "problem_name": ["six-hump-camel", "ackley"],
                          "label": ["MaxVar", "Random"]})
    table.to_parquet(tmp_path / "tidy.parquet")
    assert naming.problem_title("camel_problem:camel") == "camel_problem:camel"
    common.load_table(tmp_path / "tidy.parquet")
    assert naming.problem_title("camel_problem:camel") == "six-hump-camel"
    assert naming.problem_title("ackley5") == "Ackley (5D)"  # the package's own problems keep their titles


def test_the_report_sets_figures_on_the_page_they_are_drawn_for():
    from analysis.report import latex

    page = latex.document([])
    assert printed.geometry() in page and f"height={printed.FIGURE_HEIGHT:g}\\textheight" in latex.figure("regret_b100")
    assert common.WIDTH == pytest.approx(printed.TEXT_WIDTH_IN)


def test_the_provenance_table_describes_each_platform_from_its_records():
    """Page one's platform in words comes from what the records hold (`bench.provenance`), nothing else."""
    from analysis.data.tidy import platform_detail
    from analysis.tables import provenance

    record = {
        "platform": "Linux-6.18.44-fc-v669-x86_64-with-glibc2.36",
        "versions": {"python": "3.11.7", "numpy": "1.26.4", "trieste": "4.6.1"},
        "numerics": {"cpu": {"model": "AMD EPYC"}, "blas": [
            {"internal_api": "openblas", "prefix": "libopenblas", "version": "0.3.30", "architecture": "Haswell",
             "num_threads": 1}
        ]},
    }
    trials = pd.DataFrame({
        "trial_id": ["a", "b", "c"], "experiment": "synthetic_b100", "git_sha": "abc", "wall_s": 60.0,
        "platform_id": ["p1", "p1", "p2"], "finished_utc": "2026-11-27T06:44:34+00:00",
        "platform_detail": [platform_detail(record), platform_detail({**record, "numerics": {"cpu": {"model": "Xeon"}}}),
                            platform_detail({})],
    })
    items = dict(provenance.provenance(trials).itertuples(index=False))
    assert items["platform p1"] == (
        "CPU: AMD EPYC or Xeon; OS: Linux 6.18.44-fc-v669 (x86_64, glibc 2.36); Python: 3.11.7 with numpy 1.26.4, "
        "trieste 4.6.1; BLAS: OpenBLAS 0.3.30 (Haswell kernels, 1 thread)"
    )
    assert "platform p2" not in items  # its records hold nothing to describe it by
    assert provenance.parts(items["platform p1"]) == {  # read back into its parts, for page one's sentence
        "CPU": "AMD EPYC or Xeon", "OS": "Linux 6.18.44-fc-v669 (x86_64, glibc 2.36)",
        "Python": "3.11.7 with numpy 1.26.4, trieste 4.6.1", "BLAS": "OpenBLAS 0.3.30 (Haswell kernels, 1 thread)",
    }


@pytest.mark.parametrize(("rows", "shrunk"), [(3, True), (6, False)])
def test_a_figure_too_tall_for_the_page_loses_panel_height_not_text_size(rows, shrunk):
    """Three rows of 2.8-inch panels are too tall for the report's figure height: their panels shrink until the figure
    fits, its text unchanged; six rows would need panels under 2 inches and are left as drawn (the site's)."""
    fig, axes = common.grid(range(rows), range(2), height=2.8)
    for ax in axes.values():
        ax.set_title("Problem\nexperiment")
        ax.set_xlabel("Evaluations")
    common.suptitle(fig, "A title")
    drawn = fig.get_size_inches()[1]
    common.within_printed_height(fig, rows)
    fig.canvas.draw()
    tall = fig.get_tightbbox(fig.canvas.get_renderer()).padded(0.1).height
    cap = printed.FIGURE_HEIGHT * printed.TEXT_HEIGHT_IN
    assert bool(tall <= cap + 0.05) is shrunk
    assert bool(fig.get_size_inches()[1] < drawn) is shrunk
    assert min(t.get_fontsize() for t in _texts(fig)) >= common.FONTS["small"]


def test_a_density_section_names_the_variants_collapsed_at_most_of_their_iterations():
    """The paper-horizon run's section (`density_large_batch`) and the default run's share one builder; its closing
    sentence names, per experiment and problem, each variant whose density collapsed at more than half its iterations
    (exactly half is not more), or says none did."""
    from analysis.presentation.readme_blocks import density_block

    row = {"experiment": "synthetic_b100", "problem": "ackley5", "lam": 1.0, "ess_fraction_min": 2.4e-4,
           "ess_fraction_median": 3e-4, "ess_fraction_max": 0.02, "relative_diversity_median": 0.02, "uniform": 0}
    table = pd.DataFrame([
        {**row, "label": "B3O-LogEI-c", "iterations": 500, "collapsed": 425},
        {**row, "label": "B3O-UCB-c", "lam": 10.0, "iterations": 500, "collapsed": 250},
        {**row, "label": "B3O-UCB-s", "problem": "hartmann6", "iterations": 490, "collapsed": 0},
    ])
    text = density_block("density_large_batch")(table, "density.csv")
    assert text.startswith("<!-- density_large_batch:begin -->")
    assert text.splitlines()[-2] == (
        "Collapsed at more than half of their iterations: the large-batch study on Ackley (5D): B3O-LogEI-c (λ 1)."
    )
    none = density_block("density")(table.assign(collapsed=0), "density.csv")
    assert "Collapsed at more than half of their iterations: none." in none


def test_the_verdict_strip_has_one_unit_per_x_axis():
    """The large-batch run's strip holds claims 1 and 7 along its horizon (BO iterations t = 6 ... 50) and the rest at
    its final budget (5100 evaluations): each panel's ticks are of the unit its axis label names."""
    from analysis.figures import anytime

    along = pd.read_csv(ROOT / "paper" / "large_batch" / "tables" / "verdicts_along.csv")
    assert set(along["axis"]) == {"iteration", "evaluations"}
    fig = anytime.draw_verdicts(along)
    labels = {label: axis for axis, label in anytime.STRIP_AXES.items()}
    shown = set()
    for ax in (ax for ax in fig.axes if ax.get_xlabel()):
        ticks = {int(t.get_text()) for t in ax.get_xticklabels()}
        axis = labels[ax.get_xlabel()]
        assert ticks == set(along.loc[along["axis"] == axis, "budget"]), ax.get_xlabel()
        shown.add(axis)
    assert shown == {"iteration", "evaluations"}


def test_the_readme_glance_names_each_run_by_its_title_with_its_scale_and_directory(monkeypatch):
    """README.md's glance table names the deciding run in words (its title in workflow/site.yaml), its directory
    secondary, and lists each run's scale from its per-trial table under the table."""
    from analysis.data import published
    from analysis.presentation import glance, run_names

    monkeypatch.chdir(ROOT)
    tables = {run: pd.read_csv(path) for run, path in published.CLAIMS.items()}
    names = {run: run_names.name(Path(path).parent) for run, path in published.CLAIMS.items()}
    block = glance.glance_block(tables, "x", names)
    title = run_names.titles()["paper/large_batch"]
    assert f"| {title} (`paper/large_batch`) |" in block and "| large_batch |" not in block
    trials = pd.read_csv("paper/large_batch/tables/per_trial.csv").drop_duplicates("trial_id")
    scale = f"B = {trials['batch_size'].mode()[0]}, T = {trials['iterations'].mode()[0]}, N₀ = {trials['n_init'].mode()[0]}"
    assert f"- {title} (`paper/large_batch`): {scale}, " in block
    default = run_names.titles()["paper"]
    assert f"- {default} (`paper`): B = " in block  # every run of the table, the default run too


def test_the_readme_glance_says_which_claim_numbers_only_a_check_asks(monkeypatch):
    """The README's table went from claim 27 to 31 without a word while the site's index listed 28-30 (the checks'
    own questions): the block now names the numbers it skips and where they are decided."""
    from analysis.data import published
    from analysis.presentation import glance, run_names

    monkeypatch.chdir(ROOT)
    tables = {run: pd.read_csv(path) for run, path in published.CLAIMS.items()}
    names = {run: run_names.name(Path(path).parent) for run, path in published.CLAIMS.items()}
    shown = set(glance.chosen(tables))
    skipped = sorted(set(range(min(shown), max(shown) + 1)) - shown)
    block = glance.glance_block(tables, "x", names)
    assert skipped and f"Claims {', '.join(map(str, skipped))}: asked only by a check of ours" in block
    assert glance.asked_elsewhere({n: ("run", None) for n in (1, 2, 3)}) == []


def test_a_binding_mean_the_seeds_contradict_shows_the_typical_seed_beside_it():
    """Claim 7's binding comparison read "+0.0419" (B3O-UCB-c ahead of TS on Ackley) from one far TS seed, while
    B3O-UCB-c ends above TS on 24 of 30 seeds (decided): the glance shows the typical seed beside such a mean."""
    from analysis.presentation import glance

    run = ROOT / "paper" / "large_batch"
    claims = pd.read_csv(run / "claims.csv").set_index("number", drop=False)
    robust = pd.read_csv(run / "tables" / "robust.csv")
    seven = robust[(robust["number"] == 7) & (robust["left"] == "B3O-UCB-c λ=10") & robust["iteration"].isna()].iloc[0]
    assert claims.loc[7, "binding_mean"] > 0 and seven.reading == "behind"
    assert glance.typical_against_mean(run, claims.loc[7]) == (
        f" (typical seed: behind on {seven.losses} of {seven.n} seeds, decided)")
    agreeing = claims.loc[7].copy()
    agreeing["binding_mean"] = -0.01  # the mean's sign as the seeds': nothing to add
    assert glance.typical_against_mean(run, agreeing) == ""
