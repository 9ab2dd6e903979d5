"""The analysis package: records -> tidy table -> summaries -> figures, tables and claims.

The fixture writes small JSON records with the runner's schema and deterministic fake numbers. That is right here:
these tests check the aggregation and the verdict logic on data whose answer is known, not the method.
"""

from __future__ import annotations

import json
import math
import zlib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis.data import aggregate
from analysis.data.tidy import GRID_COLUMNS, TIDY_COLUMNS, load, tidy_table
from analysis.data.tidy import main as tidy_main
from analysis.statistics import theory
from bench.records import SCALING_COLUMNS

SEEDS = (0, 1)
PAPER_LAMBDAS = (0.1, 1.0, 10.0)
# best lambda per (acquisition, temperature) in the fake lambda ablation
BEST_LAMBDA = {
    ("logei", "scheduled"): 0.1,
    ("logei", "constant"): 1.0,
    ("ucb", "scheduled"): 1.0,
    ("ucb", "constant"): 10.0,
}
B3O_VARIANTS = {
    "B3O-UCB-c": ("ucb", "constant", 10.0),
    "B3O-UCB-s": ("ucb", "scheduled", 1.0),
    "B3O-LogEI-c": ("logei", "constant", 1.0),
    "B3O-LogEI-s": ("logei", "scheduled", 0.1),
}
BASELINES = {
    "TS": "ts",
    "Random": "random",
    "Seq-EI": "seq-ei",
    "q-EI": "qei",
    "LP": "lp",
    "LogEI-MV": "logei-mv",
    "Seq-EHVI": "seq-ehvi",
    "NSGA-II": "nsga2",
}
# initial regret scale per label: smaller is better; Seq-EI beats everyone on ackley5 only
QUALITY = {
    "B3O-UCB-c": 1.0,
    "B3O-UCB-s": 0.9,
    "B3O-LogEI-c": 0.5,
    "B3O-LogEI-s": 0.6,
    "TS": 2.0,
    "Random": 4.0,
    "q-EI": 1.5,
    "LP": 1.2,
}
OPTIMA = {"hartmann6": 3.32237, "ackley5": 0.0}


def _trial(
    root: Path,
    experiment: str,
    label: str,
    problem: str,
    method: str,
    seed: int,
    *,
    batch_size: int = 4,
    iterations: int = 5,
    acquisition: str = "",
    temperature: str = "",
    lam: float | None = None,
    sampler: str = "",
    quality: float = 1.0,
    objectives: int = 1,
) -> dict:
    """Write one record with the runner's schema; return its grid row."""
    n_init = 6
    sense = "minimise" if problem == "formula-e" else "maximise"
    optimum = OPTIMA.get(problem)
    rng = np.random.default_rng(zlib.crc32(repr((experiment, label, problem, seed, lam, sampler)).encode()))
    trace = []
    for t in range(iterations + 1):
        evals = n_init + t * batch_size
        size = n_init if t == 0 else batch_size
        gap = quality * math.exp(-evals / 40) * (1 + 0.01 * seed)
        points = rng.random((size, 3))
        if objectives == 1:
            values = rng.random((size, 1))
            best = optimum - gap if optimum is not None else 0.9 + gap
            progress = {"best_observed": best, "best_value": best, "simple_regret": None if optimum is None else gap}
        else:
            energy = rng.uniform(50, 250, size)
            values = np.column_stack([energy, 400 - energy + rng.uniform(-50, 0, size)])
            hv = 1e4 / quality * (1 - math.exp(-evals / 20)) * (1 + 0.01 * seed)
            progress = {"best_observed": None, "best_value": hv, "simple_regret": None, "hypervolume": hv}
        row = {
            "iteration": t,
            "num_evals": evals,
            "points": points.tolist(),
            "observations": values.tolist(),
            "values": values.tolist(),
            "failed": [bool(t == 1 and i == 0 and objectives > 1) for i in range(size)],
            **progress,
            "diversity": (0.5 * 0.5**t if label == "TS" else 0.5 + 0.01 * seed) if size > 1 else None,
            "fit_s": 0.1 * t,
            "acquire_s": 0.2 * t,
            "evaluate_s": 0.01,
            "peak_rss_mb": 700.0 + t,
        }
        if t >= 1 and method != "random":
            row["model_objective"] = -10.0 + t
            row["diagnostics"] = (
                {
                    "t": t,
                    "lam": lam,
                    "num_acquisition_evals": 1000,
                    "sampler": sampler,
                    "sampler_seconds": 0.05,
                    "rejection_rate": 0.0,
                    "ess": 50.0,
                }
                if method == "b3o"
                else {}
            )
        trace.append(row)
    trial_id = f"{experiment}-{label}-{problem}-{seed}-{lam}-{sampler}".replace(" ", "")
    spec = {
        "problem": problem,
        "method": method,
        "batch_size": batch_size,
        "iterations": iterations,
        "n_init": n_init,
        "seed": seed,
        "params": {},
        "model": {},
        "problem_options": {},
    }
    record = {
        "spec": spec,
        "trial_id": trial_id,
        "problem": {"name": problem, "sense": sense, "optimum": optimum, "num_objectives": objectives, "dim": 3},
        "provenance": {"git_sha": "abc123"},
        "trace": trace,
    }
    path = root / "records" / f"{trial_id}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record))
    return {
        "trial_id": trial_id,
        "experiment": experiment,
        "label": label,
        "problem": problem,
        "method": method,
        "acquisition": acquisition,
        "temperature": temperature,
        "lam": lam,
        "sampler": sampler,
        "batch_size": batch_size,
        "iterations": iterations,
        "n_init": n_init,
        "seed": seed,
        "record": str(path),
    }


def _b3o(
    root: Path,
    experiment: str,
    label: str,
    problem: str,
    seed: int,
    acquisition: str,
    temperature: str,
    lam: float,
    sampler: str = "defer",
    quality: float | None = None,
    **kw,
) -> dict:
    return _trial(
        root,
        experiment,
        label,
        problem,
        "b3o",
        seed,
        acquisition=acquisition,
        temperature=temperature,
        lam=lam,
        sampler=sampler,
        quality=QUALITY.get(label, 1.0) if quality is None else quality,
        **kw,
    )


def build_fixture(root: Path, seeds: tuple[int, ...] = SEEDS) -> Path:
    """Records and grid for every experiment; returns the grid CSV's path."""
    rows = []
    for seed in seeds:
        for problem in ("hartmann6", "ackley5"):
            for label, (acq, temp, lam) in B3O_VARIANTS.items():
                rows.append(_b3o(root, "synthetic_b100", label, problem, seed, acq, temp, lam))
            for label in ("TS", "Random"):
                rows.append(
                    _trial(root, "synthetic_b100", label, problem, BASELINES[label], seed, quality=QUALITY[label])
                )
            seq_quality = 0.1 if problem == "ackley5" else 3.0
            rows.append(
                _trial(
                    root,
                    "synthetic_b100",
                    "Seq-EI",
                    problem,
                    "seq-ei",
                    seed,
                    batch_size=1,
                    iterations=12,
                    quality=seq_quality,
                )
            )
            for label in ("TS", "q-EI", "LP"):
                rows.append(
                    _trial(root, "synthetic_b5", label, problem, BASELINES[label], seed, quality=QUALITY[label])
                )
            rows.append(_b3o(root, "synthetic_b5", "B3O-UCB-s", problem, seed, "ucb", "scheduled", 1.0))
        for (acq, temp), best in BEST_LAMBDA.items():
            label = f"B3O-{'UCB' if acq == 'ucb' else 'LogEI'}-{temp[0]}"
            for lam in PAPER_LAMBDAS:
                quality = 1.0 + abs(math.log10(lam) - math.log10(best))
                rows.append(_b3o(root, "lambda_ablation", label, "hartmann6", seed, acq, temp, lam, quality=quality))
            for sampler, quality in (("defer", 0.5), ("mh", 1.0), ("langevin", 2.0)):
                rows.append(
                    _b3o(
                        root,
                        "sampler_ablation",
                        label,
                        "hartmann6",
                        seed,
                        acq,
                        temp,
                        BEST_LAMBDA[acq, temp],
                        sampler=sampler,
                        quality=quality,
                    )
                )
        for label, temp, quality in (("B3O-EHVI-c", "constant", 1.0), ("B3O-EHVI-s", "scheduled", 1.5)):
            rows.append(_b3o(root, "battery", label, "battery", seed, "ehvi", temp, 1.0, quality=quality, objectives=2))
        rows.append(
            _trial(
                root,
                "battery",
                "Seq-EHVI",
                "battery",
                "seq-ehvi",
                seed,
                batch_size=1,
                iterations=20,
                quality=1.2,
                objectives=2,
            )
        )
        rows.append(
            _trial(
                root,
                "battery",
                "NSGA-II",
                "battery",
                "nsga2",
                seed,
                batch_size=10,
                iterations=8,
                quality=0.8,
                objectives=2,
            )
        )
        for label, (acq, temp, lam) in B3O_VARIANTS.items():
            rows.append(_b3o(root, "formula_e", label, "formula-e", seed, acq, temp, lam, sampler="mixed-mh"))
        rows.append(_trial(root, "formula_e", "TS", "formula-e", "ts", seed, quality=2.0))
        rows.append(
            _trial(
                root, "formula_e", "LogEI-MV", "formula-e", "logei-mv", seed, batch_size=1, iterations=10, quality=3.0
            )
        )
    # the UCB-c trials of the main experiment also serve the lambda ablation, as in the workflow
    rows += [
        {**r, "experiment": "lambda_ablation"}
        for r in rows
        if r["experiment"] == "synthetic_b100" and r["label"] == "B3O-UCB-c" and r["problem"] == "ackley5"
    ]
    grid = root / "grid.csv"
    pd.DataFrame(rows, columns=list(GRID_COLUMNS)).to_csv(grid, index=False)
    return grid


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("analysis")
    grid = build_fixture(root)
    assert (
        tidy_main(["--grid", str(grid), "--out", str(root / "tidy.parquet"), "--pareto", str(root / "pareto.parquet")])
        == 0
    )
    return {"root": root, "grid": grid, "tidy": root / "tidy.parquet", "pareto": root / "pareto.parquet"}


@pytest.fixture(scope="module")
def table(built) -> pd.DataFrame:
    return pd.read_parquet(built["tidy"])


# --- tidy --------------------------------------------------------------------------------------------------------


def test_tidy_has_one_row_per_experiment_trial_and_iteration(built, table):
    grid = pd.read_csv(built["grid"])
    assert list(table.columns) == list(TIDY_COLUMNS)
    assert len(table) == int((grid["iterations"] + 1).sum())
    assert not table.duplicated(["experiment", "trial_id", "iteration"]).any()
    shared = grid.loc[grid.duplicated("trial_id", keep=False), "trial_id"].unique()
    assert len(shared) == 2  # the UCB-c ackley5 trials, listed under two experiments
    assert set(table.loc[table["trial_id"] == shared[0], "experiment"]) == {"synthetic_b100", "lambda_ablation"}
    b3o = table[(table["method"] == "b3o") & (table["iteration"] >= 1)]
    assert (b3o["lambda_t"] == b3o["lam"]).all() and (b3o["num_acquisition_evals"] == 1000).all()
    assert table.loc[table["method"] != "b3o", ["lambda_t", "ess"]].isna().all().all()
    assert (table["git_sha"] == "abc123").all()
    assert table.loc[table["iteration"] == 0, "model_objective"].isna().all()
    seq = table[(table["label"] == "Seq-EI") & (table["problem"] == "hartmann6") & (table["seed"] == 0)]
    assert seq["num_evals"].tolist() == list(range(6, 19))


def test_missing_records_are_named(tmp_path, built):
    grid = pd.read_csv(built["grid"]).head(3)
    grid.loc[0, "record"] = "nowhere/a.json"
    grid.loc[2, "record"] = "nowhere/b.json"
    grid.to_csv(tmp_path / "grid.csv", index=False)
    with pytest.raises(FileNotFoundError, match=r"2 trial record[\s\S]*nowhere/a\.json[\s\S]*nowhere/b\.json"):
        tidy_table(*load(tmp_path / "grid.csv"))


def test_pareto_holds_the_non_failed_points_of_multi_objective_trials(built):
    points = pd.read_parquet(built["pareto"])
    assert set(points["problem"]) == {"battery"}
    trials = pd.read_csv(built["grid"]).query("problem == 'battery'")
    evaluated = int((6 + trials["iterations"] * trials["batch_size"]).sum())
    assert len(points) == evaluated - len(trials)  # one failed point per trial, at iteration 1
    assert {"value_0", "value_1", "label", "trial_id", "iteration"} <= set(points.columns)


# --- summaries ---------------------------------------------------------------------------------------------------


def test_bootstrap_ci_contains_the_mean_and_is_seeded():
    values = np.random.default_rng(3).normal(size=20)
    mean, lo, hi = aggregate.bootstrap_ci(values)
    assert mean == pytest.approx(values.mean()) and lo < mean < hi
    assert aggregate.bootstrap_ci(values) == (mean, lo, hi)
    assert aggregate.bootstrap_ci([2.0, np.nan]) == (
        2.0,
        pytest.approx(np.nan, nan_ok=True),
        pytest.approx(np.nan, nan_ok=True),
    )


def test_summarise_equals_the_per_group_bootstrap():
    rng = np.random.default_rng(1)
    df = pd.DataFrame({"g": ["a"] * 5 + ["b"] * 3 + ["c"], "x": 1, "v": rng.random(9)})
    out = aggregate.summarise(df, ["g"], "v", "x").set_index("g")
    for g in ("a", "b"):
        assert tuple(out.loc[g, ["mean", "lo", "hi"]]) == pytest.approx(aggregate.bootstrap_ci(df.loc[df["g"] == g, "v"]))
    assert out.loc["c", "n"] == 1 and np.isnan(out.loc["c", "lo"])  # single seed: no CI


def test_on_grid_is_a_step_function_that_never_extrapolates():
    df = pd.DataFrame(
        {
            "experiment": "e",
            "trial_id": ["s"] * 3 + ["b"] * 2,
            "label": ["Seq"] * 3 + ["Batch"] * 2,
            "num_evals": [2, 3, 4, 2, 6],
            "r": [5.0, 4.0, 3.0, 5.0, 1.0],
        }
    )
    out = aggregate.on_grid(df, "r").pivot(index="num_evals", columns="label", values="r")
    assert out.index.tolist() == [2, 3, 4, 6]
    assert out["Batch"].tolist() == [5.0, 5.0, 5.0, 1.0]
    assert out["Seq"].iloc[:3].tolist() == [5.0, 4.0, 3.0] and np.isnan(out.loc[6, "Seq"])


# --- figures -----------------------------------------------------------------------------------------------------

FIGURES = [
    ("regret", ["--experiment", "synthetic_b100"]),
    ("regret", ["--experiment", "synthetic_b5"]),
    ("diversity", ["--experiment", "synthetic_b100"]),
    ("diversity", ["--experiment", "synthetic_b5", "--smooth", "3"]),
    ("lambda_ablation", ["--temperature", "constant"]),
    ("lambda_ablation", ["--temperature", "scheduled"]),
    ("sampler_ablation", ["--variant", "UCB-c"]),
    ("sampler_ablation", ["--variant", "LogEI-s"]),
    ("battery", ["--pareto", "{pareto}"]),
    ("formula_e", []),
    ("paired", ["--experiment", "synthetic_b100"]),
]


def test_each_figure_is_declared_once_by_its_script():
    """The workflow's catalogue of figures is read from the scripts' FIGURES literals without importing them; what it
    reads equals what the imported scripts hold, and every declared figure has a caption."""
    from importlib import import_module

    from analysis.figures import Declared, declared
    from analysis.presentation.captions import CAPTIONS

    figures = declared()
    assert figures["sampler_logei_s"].command == "sampler_ablation --variant LogEI-s"
    assert figures["sampler_logei_s"].when == {"acquisition": "logei", "temperature": "scheduled"}
    assert figures["battery"].command == "battery" and figures["battery"].experiment == "battery"
    for name, figure in figures.items():
        assert Declared(figure.script, *import_module(f"analysis.figures.{figure.script}").FIGURES[name]) == figure
    assert set(figures) <= set(CAPTIONS)


def test_each_table_is_declared_once_by_its_script():
    """The workflow's catalogue of tidy-table tables, read unimported, equals what the imported scripts hold."""
    from importlib import import_module

    from analysis.tables import Table, declared

    tables = declared()
    assert tables["best_lambda"] == Table("best_lambda", "lambda_ablation") and tables["summary"].experiment is None
    assert set(tables) == {"summary", "density", "best_lambda", "horizon", "provenance", "auto_choice"}
    for name, table in tables.items():
        assert import_module(f"analysis.tables.{table.script}").TABLES[name] == table.experiment


def _run_figure(name: str, args: list[str], out: Path) -> None:
    from importlib import import_module

    assert import_module(f"analysis.figures.{name}").main(args + ["--out", str(out)]) == 0
    for suffix in (".pdf", ".png"):
        assert out.with_name(out.name + suffix).stat().st_size > 1000


@pytest.mark.parametrize("name,args", FIGURES, ids=[f"{n}{'-'.join(a[1:2])}" for n, a in FIGURES])
def test_figure_scripts_write_pdf_and_png(built, tmp_path, name, args):
    args = [a.format(pareto=built["pareto"]) for a in args]
    _run_figure(name, args + ["--table", str(built["tidy"])], tmp_path / name)


def test_figures_of_absent_experiments_still_write_a_file_saying_so(built, tmp_path):
    partial = tmp_path / "partial.parquet"
    table = pd.read_parquet(built["tidy"])
    table[table["experiment"] == "formula_e"].to_parquet(partial)
    _run_figure("regret", ["--table", str(partial)], tmp_path / "regret")
    _run_figure("battery", ["--table", str(partial), "--pareto", str(built["pareto"])], tmp_path / "battery")
    _run_figure("sampler_ablation", ["--table", str(partial), "--variant", "UCB-s"], tmp_path / "sampler")


def test_timing_figure_fits_the_log_log_slope(tmp_path):
    from analysis.figures import timing

    batch = np.array([10, 100, 1000])
    rows = [
        {
            "method": "b3o",
            "sampler": "defer",
            "acquisition": "ucb",
            "batch_size": b,
            "seconds_median": 0.2 * b**0.1,
            "seconds_min": 0.1,
            "peak_rss_mb": 800.0,
            "num_acquisition_evals": 10000,
        }
        for b in batch
    ]
    rows += [
        {
            "method": "ts",
            "sampler": None,
            "acquisition": None,
            "batch_size": b,
            "seconds_median": 0.01 * b,
            "seconds_min": 0.01,
            "peak_rss_mb": 900.0,
            "num_acquisition_evals": None,
        }
        for b in batch
    ]
    rows.append(
        {**rows[-1], "batch_size": 10_000, "seconds_median": None, "seconds_min": None}
    )  # skipped: over the cap
    pd.DataFrame(rows).reindex(columns=list(SCALING_COLUMNS)).to_csv(tmp_path / "scaling.csv", index=False)
    slopes = timing.scaling(pd.read_csv(tmp_path / "scaling.csv")).groupby("series")["slope"].first()
    assert slopes.to_dict() == pytest.approx({"B3O-UCB (DEFER)": 0.1, "TS": 1.0})
    _run_figure("timing", ["--table", str(tmp_path / "scaling.csv")], tmp_path / "timing")
    # no residue: with one repeat there is no "minimum over repeats" line, nor a title that promises one
    data = timing.scaling(pd.read_csv(tmp_path / "scaling.csv").assign(repeats=1))
    fig = timing.draw(data)
    assert "one repeat" in fig._suptitle.get_text() and "minimum" not in fig._suptitle.get_text()
    assert not [line for line in fig.axes[0].get_lines() if line.get_linestyle() == ":"]
    fig = timing.draw(data.assign(repeats=2))
    assert [line for line in fig.axes[0].get_lines() if line.get_linestyle() == ":"]


def test_theorem1_figure_writes_its_numbers(tmp_path):
    _run_figure("theorem1", ["--samples", "2000"], tmp_path / "theorem1")
    numbers = pd.read_csv(tmp_path / "theorem1.csv")
    assert len(numbers) == len(theory.EXAMPLES) * len(theory.LAMBDAS) * len(theory.EPSILONS)


@pytest.mark.long  # the tiny run draws illustration_1d by its command; tests/test_presentation.py draws both
def test_illustration_figures_draw_from_the_registry_problems(tmp_path):
    _run_figure("illustration_1d", ["--batch-size", "5", "--trajectories", "3"], tmp_path / "illustration_1d")
    _run_figure("lambda_effect", ["--batch-size", "10", "--points", "8"], tmp_path / "lambda_effect")


# --- tables and claims -------------------------------------------------------------------------------------------


def test_best_lambda_picks_the_lambda_with_the_lowest_final_regret(built, tmp_path, table):
    from analysis.tables import best_lambda

    stats = best_lambda.candidates(table)
    picked = stats[stats["selected"] & (stats["problem"] == "hartmann6")].set_index("variant")["lam"].to_dict()
    variants = {f"{'UCB' if a == 'ucb' else 'LogEI'}-{t[0]}": lam for (a, t), lam in BEST_LAMBDA.items()}
    assert picked == variants
    assert best_lambda.main(["--table", str(built["tidy"]), "--out", str(tmp_path / "best_lambda")]) == 0
    tex = (tmp_path / "best_lambda.tex").read_text()
    assert r"Hartmann (6D) & 0.1 & 1 & 1 & 10 \\" in tex


def test_summary_table_reports_each_problems_headline_metric(built, tmp_path, table):
    from analysis.tables import summary as summary_table

    stats = summary_table.final_summary(table)
    metric = stats.groupby("problem")["metric"].first().to_dict()
    assert metric == {
        "hartmann6": "simple_regret",
        "ackley5": "simple_regret",
        "battery": "hypervolume",
        "formula-e": "best_value",
    }
    assert (stats["lo"] <= stats["mean"]).all() and (stats["mean"] <= stats["hi"]).all()
    assert summary_table.main(["--table", str(built["tidy"]), "--out", str(tmp_path / "summary")]) == 0
    assert (tmp_path / "summary.tex").read_text().count(r"\\") > len(stats)


def test_the_summary_table_names_a_user_s_problem_by_its_object_s_name(built, tmp_path, monkeypatch):
    """A study's summary.tex showed `tilted_bowl:rippled_bowl`, the config's reference, where the docs promise the
    problem object's own name (the tidy table's `problem_name`); the CSV keeps the config's key."""
    from analysis import naming
    from analysis.tables import summary as summary_table

    monkeypatch.setattr(naming, "_OWN_PROBLEMS", {})
    tidy = pd.read_parquet(built["tidy"])
    mine = tidy["problem"] == "hartmann6"
    tidy.loc[mine, "problem"], tidy.loc[mine, "problem_name"] = "my_bowl:rippled_bowl", "rippled-bowl-3d"
    tidy.to_parquet(tmp_path / "tidy.parquet")
    assert summary_table.main(["--table", str(tmp_path / "tidy.parquet"), "--out", str(tmp_path / "summary")]) == 0
    tex = (tmp_path / "summary.tex").read_text()
    assert "rippled-bowl-3d" in tex and "my\\_bowl" not in tex and "rippled\\_bowl" not in tex
    assert "my_bowl:rippled_bowl" in set(pd.read_csv(tmp_path / "summary.csv")["problem"])


@pytest.fixture(scope="module")
def twelve_seeds(tmp_path_factory) -> Path:
    """The fixture with twelve seeds, enough for the exact sign-flip test to decide a claim of up to 16 comparisons
    after Holm (`analysis.statistics.verdicts.fewest_seeds`); returns its tidy table's path."""
    root = tmp_path_factory.mktemp("twelve_seeds")
    assert (
        tidy_main(["--grid", str(build_fixture(root, seeds=tuple(range(12)))), "--out", str(root / "tidy.parquet")])
        == 0
    )
    return root / "tidy.parquet"


def test_claims_verdicts_on_a_fixture_with_known_outcomes(twelve_seeds, tmp_path):
    from analysis.claims import checking
    from analysis.data import per_trial
    from analysis.statistics import verdicts
    from analysis.tables import claims_table

    assert verdicts.fewest_seeds(16) <= 12
    table = per_trial.per_trial(pd.read_parquet(twelve_seeds))
    verdict = {name: claim(table).verdict for name, claim in checking.CLAIMS.items()}
    assert verdict["b3o_beats_ts_b100"] == "holds on 8 of 12"  # ackley5 and hartmann6 of the three functions
    assert verdict["batch_beats_random_b100"] == "holds on 2 of 3"
    assert verdict["batch_matches_seq_ei"] == verdicts.FAILS  # Seq-EI is far better on ackley5, its 18 evals to 26
    assert verdict["batch_matches_seq_ei_equal_evaluations"] == verdicts.FAILS  # and at 18 evals each
    assert verdict["logei_c_best_batch"] == verdicts.HOLDS
    assert verdict["seq_ei_best_on_shekel"] == verdicts.NOT_MEASURED  # no shekel4 runs
    assert verdict["battery_constant_beats_scheduled"] == verdicts.HOLDS
    # B3O-EHVI-s is worse, but by less than the battery's margin (`problems.margins`: the fixture's values are small)
    assert verdict["battery_matches_seq_ehvi"] == verdicts.HOLDS
    assert verdict["formula_e_b3o_best"] == verdicts.HOLDS
    assert verdict["b3o_more_diverse_than_ts"] == "holds on 8 of 12"
    assert verdict["ts_diversity_drops"] == "holds on 2 of 3"
    assert verdict["table_2_reproduced"] == verdicts.FAILS  # fixture: LogEI-c best at 1, the paper says 0.1
    assert verdict["defer_best_sampler"] == "holds on 2 of 4"  # hartmann6 only, B3O-UCB-c and -s
    assert claims_table.main(["--table", str(twelve_seeds), "--out", str(tmp_path / "claims")]) == 0
    md = (tmp_path / "claims.md").read_text()
    assert md.count("\n| ") == _listed(pd.read_parquet(twelve_seeds)) + 1 and "**does not hold**" in md
    # claim 3 reads each method at its own final budget, its equal-evaluations reading at Seq-EI's
    assert "B = 4, T = 5; Seq-EI: B = 1, T = 12; 12 seeds; compared at 18, 26 evals" in md
    assert "B = 4, T = 5; Seq-EI: B = 1, T = 12; 12 seeds; compared at 18 evals" in md
    assert "at their finals (26 vs 18 evals)" in md
    # the fixture's records carry no finish times: no trial can be shown to start after the margins were set
    assert "\nMargins set after these trials:" in md


def _listed(table: pd.DataFrame) -> int:
    """How many claims a run's claims table lists: all the paper's, and those beyond it whose experiment it ran."""
    from analysis.claims import catalogue, checking

    beyond = {c.name: c.experiment for c in catalogue.CATALOGUE if c.beyond_paper}
    return sum(1 for name in checking.CLAIMS if name not in beyond or beyond[name] in set(table["experiment"]))


def test_claims_regenerate_from_the_per_trial_table_alone(built, tmp_path):
    from analysis.data import per_trial
    from analysis.tables import claims_table

    assert per_trial.main(["--table", str(built["tidy"]), "--out", str(tmp_path / "per_trial.csv")]) == 0
    assert claims_table.main(["--table", str(built["tidy"]), "--out", str(tmp_path / "from_tidy")]) == 0
    only = tmp_path / "repository"
    only.mkdir()
    (tmp_path / "per_trial.csv").rename(only / "per_trial.csv")  # nothing else: no records, no tidy table
    assert claims_table.main(["--table", str(only / "per_trial.csv"), "--out", str(only / "claims")]) == 0
    assert (only / "claims.csv").read_text() == (tmp_path / "from_tidy.csv").read_text()
    regenerated = pd.read_csv(only / "claims.csv")
    assert "auto_matches_tuned" not in set(regenerated["name"])  # the tiny run has no automatic-temperature test
    assert len(regenerated) == _listed(pd.read_csv(only / "per_trial.csv")) and set(regenerated["verdict"]) >= {
        "not measured",
        "inconclusive (too few seeds to decide)",
    }


def test_claims_of_absent_experiments_are_not_measured(table):
    from analysis.claims import checking
    from analysis.data import per_trial
    from analysis.statistics.verdicts import NOT_MEASURED

    only_battery = per_trial.per_trial(table[table["experiment"] == "battery"])
    results = checking.check_all(only_battery)
    assert {r.verdict for r in results if r.experiment != "battery"} == {NOT_MEASURED}


# --- theorem 1 ---------------------------------------------------------------------------------------------------


def test_exact_boltzmann_sampling_matches_the_closed_form_in_1d():
    from scipy.stats import truncnorm

    example, lam, eps = theory.EXAMPLES[0], 10.0, 0.1
    (a,), (centre,) = example.a, example.x_star
    x = example.sample(lam, 200_000, np.random.default_rng(0))
    radius, scale = math.sqrt(2 * eps / a), 1 / math.sqrt(lam * a)
    dist = truncnorm(-centre / scale, (1 - centre) / scale, loc=centre, scale=scale)
    exact = 1 - (dist.cdf(centre + radius) - dist.cdf(centre - radius))
    assert np.mean(example.gap(x) >= eps) == pytest.approx(exact, abs=4e-3)


def test_measured_tail_probabilities_never_exceed_the_bound():
    results = theory.measure(num_samples=50_000)
    assert (results["lam"] >= 1).all()
    assert (results["measured"] <= results["bound"]).all()
    assert (results["count"] > 0).any() and (results["bound"] < 1).any()  # the bound is tested where it bites


def test_a_variant_keeps_its_colour_and_place_whatever_its_lambda():
    from analysis.figures import common

    assert common.colour("B3O-LogEI-c λ=0.1") == common.colour("B3O-LogEI-c λ=1") == common.colour("B3O-LogEI-c")
    assert common.ordered(["TS", "B3O-LogEI-c λ=0.1", "B3O-UCB-c", "Mine"]) == [
        "B3O-UCB-c", "B3O-LogEI-c λ=0.1", "TS", "Mine"
    ]


def _tuning(means: dict[tuple[str, float], tuple[float, float]]) -> pd.DataFrame:
    """Final rows of the auto_tuning experiment: (temperature, constant) -> mean final regret of LogEI and UCB."""
    from analysis.tables.auto_choice import CONSTANTS

    rows = []
    for (temperature, constant), pair in means.items():
        for acquisition, mean in zip(("logei", "ucb"), pair):
            for seed, noise in enumerate((-0.01, 0.01)):
                rows.append({
                    "experiment": "auto_tuning", "problem": "hartmann6", "temperature": temperature,
                    "temperature_options": json.dumps({CONSTANTS[temperature]: constant}), "acquisition": acquisition,
                    "trial_id": f"{temperature}{constant}{acquisition}{seed}", "seed": seed, "iteration": 6,
                    "simple_regret": mean + noise,
                })
    return pd.DataFrame(rows)


def test_the_automatic_temperature_s_constant_and_candidate_follow_the_written_rule():
    from analysis.tables.auto_choice import choose, scores

    tidy = _tuning({
        ("auto", 0.5): (0.30, 0.30), ("auto", 1.0): (0.10, 0.12), ("auto", 2.0): (0.12, 0.13), ("auto", 4.0): (0.5, 0.5),
        ("auto-tail", 2.3): (0.2, 0.2), ("auto-tail", 4.6): (0.3, 0.3), ("auto-tail", 9.2): (0.05, 0.06),
    })
    table = scores(tidy)
    assert table.loc[(table["temperature"] == "auto") & (table["constant"] == 1.0), "summed"].item() == pytest.approx(0.22)
    strict = choose(table, tie=0.0)
    picked = strict[strict["chosen_constant"]].set_index("temperature")["constant"]
    assert picked.to_dict() == {"auto": 1.0, "auto-tail": 9.2}
    assert strict.loc[strict["chosen_candidate"], "temperature"].tolist() == ["auto-tail"]
    # 1 and 2 tie within 0.05: the tie goes to the middle of {0.5, 1, 2, 4}, ranks 1 and 2 equally near: the smaller
    tied = choose(table, tie=0.05)
    assert tied.loc[tied["temperature"] == "auto", "tied"].tolist() == [False, True, True, False]
    assert tied.loc[tied["chosen_constant"] & (tied["temperature"] == "auto"), "constant"].item() == 1.0
    # a wide tie on auto-tail takes its middle value, 4.6, whose sum (0.6) then loses to auto's 0.22
    wide = choose(table, tie=0.6)
    assert wide.loc[wide["chosen_constant"] & (wide["temperature"] == "auto-tail"), "constant"].item() == 4.6
    assert wide.loc[wide["chosen_candidate"], "temperature"].tolist() == ["auto"]


def test_the_automatic_temperature_figure_pairs_each_variant_with_its_own_constant_form(tmp_path):
    """Each automatic row is compared, paired by seed, with the constant-λ row of its own acquisition (not the other
    one's), its advantage positive where it is better; the figure is written from a per-trial CSV."""
    from test_claims import trials

    from analysis.figures import automatic

    luck = np.array([0.0, 3.0, -2.0, 5.0, 1.0, -4.0]) + 5.0  # positive regrets: the tie margin takes their logs
    def row(label, acquisition, temperature, values):
        return trials(label, values, problem="ackley5", experiment="auto_synthetic", method="b3o",
                      acquisition=acquisition, temperature=temperature, sampler="defer",
                      **({"lam": 1.0} if temperature == "constant" else {}))

    table = pd.concat([
        row("B3O-LogEI-c", "logei", "constant", 1.0 + luck),
        row("B3O-UCB-c", "ucb", "constant", 5.0 + luck),
        row("B3O-LogEI-auto", "logei", "auto-tail", 0.9 + luck),  # 0.1 better every seed
        row("B3O-UCB-auto", "ucb", "auto-tail", 5.3 + luck),  # 0.3 worse every seed
    ])
    diffs = automatic.advantages(table).set_index("left")
    assert diffs.loc["B3O-LogEI-auto", "right"].startswith("B3O-LogEI-c")
    assert diffs.loc["B3O-LogEI-auto", "mean"] == pytest.approx(0.1)
    assert diffs.loc["B3O-UCB-auto", "mean"] == pytest.approx(-0.3) and len(diffs) == 2
    csv = tmp_path / "per_trial.csv"
    table.to_csv(csv, index=False)
    _run_figure("automatic", ["--table", str(csv)], tmp_path / "automatic")


def test_best_lambda_compares_each_cells_lambdas_on_the_seeds_they_all_have():
    """A λ with extra seeds (trials another experiment shares) is summed over the cell's shared seeds only."""
    from analysis.tables import best_lambda

    rows = [
        {"experiment": "lambda_ablation", "trial_id": f"{lam}-{seed}", "iteration": 6, "method": "b3o",
         "acquisition": "ucb", "temperature": "constant", "problem": "hartmann6", "lam": lam, "seed": seed,
         "simple_regret": (0.001 if seed >= 4 else 1.0 + seed / 10) * (1.2 if lam == 10.0 else 1.0)}
        for lam, seeds in ((1.0, 4), (10.0, 8)) for seed in range(seeds)
    ]
    stats = best_lambda.candidates(pd.DataFrame(rows)).set_index("lam")
    assert stats["n"].to_dict() == {1.0: 4, 10.0: 4}
    assert stats.loc[1.0, "selected"] and not stats.loc[10.0, "selected"]
