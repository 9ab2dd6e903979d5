"""The sections on the experiments (synthetic benchmarks, ablations, applications): what was run, final values with
CIs, what the figures show and the verdicts of the claims on each; None for an experiment the run did not include."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.data.aggregate import bootstrap_ci
from analysis.figures import repeated_by_horizon
from analysis.formatting import number, with_ci
from analysis.naming import (
    SAMPLERS,
    VARIANT_NAMES,
    VARIANTS,
    experiment_title,
    lambda_symbol,
    method_title,
    ordered_problems,
    problem_title,
)
from analysis.report import text as say
from analysis.report.inputs import Run
from analysis.report.latex import Section, blank_repeats, figure, long_table, ref, subsection, text
from analysis.statistics import verdicts
from analysis.tables import horizon as horizon_table
from analysis.tables import summary as summary_table
from bench.paper import TABLE_2_CELLS as PAPER_TABLE_2

CLAIMS_REF = r"Table~\ref{tab:claims}"


def final_table(run: Run, experiments: list[str], caption_text: str, label: str) -> str:
    """Final values with CIs of these experiments, from the summary table (grouped by experiment and problem); the
    metric goes into the caption when it is the same on every row."""
    rows = run.summary[run.summary["experiment"].isin(experiments)]
    rank = {p: i for i, p in enumerate(ordered_problems(rows["problem"].unique()))}
    rows = rows.sort_values(
        ["experiment", "problem"], key=lambda c: c.map(rank) if c.name == "problem" else c, kind="stable"
    )
    shown = summary_table.for_paper(rows.reset_index(drop=True))
    keep = [c for c in ("Experiment", "Problem", "Method", "λ", "Sampler") if shown[c].astype(str).str.len().any()]
    if len(experiments) == 1:
        keep.remove("Experiment")
    if shown["Metric"].nunique() == 1:
        caption_text = f"{caption_text} {text(shown['Metric'].iloc[0]).capitalize()}."
    else:
        keep.append("Metric")
    shown = shown[[*keep, "Final value [95% CI]", "Seeds"]]
    for column in ("Problem", "Experiment"):
        if column in shown:
            shown = blank_repeats(shown, column)
    header = [r"$\lambda$" if c == "λ" else text(c) for c in shown.columns]
    columns = " ".join(
        "L{2.6cm}" if c in ("Problem", "Metric") else "Y" if c == "Method" else "l" for c in shown.columns
    )
    return long_table(shown, header, columns, caption_text, label)


def summary_rows(run: Run, experiment: str) -> pd.DataFrame:
    if run.summary is None:
        return pd.DataFrame()
    return run.summary[run.summary["experiment"] == experiment]


def synthetic(run: Run) -> Section | None:
    present = [e for e in ("synthetic_b100", "synthetic_b5") if e in run.experiments()]
    if not present or run.per_trial is None:
        return None
    parts = []
    repeated = repeated_by_horizon(run.paper, run.figures)  # shown once, in the horizon figure's middle row
    for experiment in present:
        large = experiment == "synthetic_b100"
        names = ("regret_b100", "paired_b100", "diversity_b100") if large else ("regret_b5", "diversity_b5")
        figures = [n for n in names if run.has_figure(n) and n not in repeated]
        rows = summary_rows(run, experiment)
        values = [say.best_against(rows[rows["problem"] == p]) for p in say.problems_of(rows)] if len(rows) else []
        shown = say.shows([ref(n) for n in figures], "the run") + (
            "Its batch diversity per iteration is the middle row of the horizon figure (Section~\\ref{sec:horizon}). "
            if repeated & set(names) else "")
        paragraphs = [
            " ".join([say.setup(run.per_trial, experiment), *values]),
            _normalised(run, experiment),
            shown + _diversity(run, experiment),
            say.verdicts(run.claims, [experiment], CLAIMS_REF),
            say.against_paper(run.claims, [experiment]),
        ]
        blocks = [figure(n) for n in figures]
        if len(rows):
            blocks.append(
                final_table(
                    run,
                    [experiment],
                    f"Final values, {text(experiment_title(experiment))}: mean [95\\,\\% CI] over seeds.",
                    experiment,
                )
            )
        parts += subsection("Large batches" if large else "Small batches", paragraphs, blocks)
    return Section("Synthetic benchmarks", parts, "synthetic")


def horizon(run: Run) -> Section | None:
    """The headline at a longer horizon: B3O's advantage over TS per iteration, decided at the checkpoints."""
    if run.horizon is None or run.per_trial is None:
        return None
    stats = run.horizon
    experiment = str(stats["experiment"].iloc[0]) if "experiment" in stats else horizon_table.DEFAULT.experiment
    if experiment not in run.experiments():
        return None
    decided = stats[stats["verdict"].notna() & (stats["verdict"] != "")]
    growth = []
    for (problem, label), rows in decided.groupby(["problem", "label"], sort=False):
        values = say.series([f"{number(r.mean)} at t = {r.iteration}" for r in rows.itertuples()])
        growth.append(f"{text(label)} on {text(problem_title(problem))}: {values}")
    claim = [
        f"at t = {t}: {say.predicate(verdicts.combine(list(g['verdict'])), False)}"
        for t, g in decided.groupby("iteration")
    ]
    figures = [n for n in ("horizon_along", "horizon_advantage", "regret_horizon") if run.has_figure(n)]
    ts = say.series([str(t) for t in sorted(decided["iteration"].unique())])
    looks = say.series([str(int(n)) for n in sorted(decided["seeds_at_look"].dropna().unique())])
    paragraphs = [
        say.setup(run.per_trial, experiment)
        + f" The seeds and the checkpoints t = {ts} at which the comparisons are decided were fixed before the run; "
        f"they are decided over planned looks (here at {looks} seeds), the level of each look set by α spending, "
        "and a tie is the problem's regret ratio, the same at every t.",
        "Mean advantage over TS (TS's regret minus B3O's, paired by seed): " + "; ".join(growth) + ". "
        + say.shows([ref(n) for n in figures], "the run"),
        "Claim 7 on these two problems, for the constant-temperature variants that claim 1 also names, "
        + say.series(claim) + ".",
    ]
    table = horizon_table.checkpoints(stats)
    shown = blank_repeats(table.astype(str), "t")
    block = long_table(
        shown, [text(c) for c in shown.columns], "l Y l L{3cm} l L{3cm}",
        rf"B3O against TS at t = {ts}: mean advantage [95\,\% BCa CI] over seeds, Holm-adjusted p and "
        "verdict; the last row of each t is the claim's.", "horizon",
    )
    # on a page of its own, the figures after the first paragraph: they go on its page before the long table starts
    parts = [paragraphs[0], *[figure(n) for n in figures], *paragraphs[1:], block]
    return Section("A longer horizon", parts, "horizon", new_page=True)


def _normalised(run: Run, experiment: str) -> str:
    """The beyond-the-paper normalised-temperature rows against the constant-λ variant of the same acquisition."""
    trials = run.per_trial[(run.per_trial["experiment"] == experiment) & (run.per_trial["method"] == "b3o")]
    rows = summary_rows(run, experiment)
    sentences = []
    for label, group in trials[trials["temperature"] == "normalised"].groupby("label", sort=False):
        acquisition = group["acquisition"].iloc[0]
        peers = trials[(trials["acquisition"] == acquisition) & (trials["temperature"] == "constant")]["label"].unique()
        lams = say.series([number(v) for v in sorted(group["lam"].unique())])
        values = []
        for problem in say.problems_of(group):
            mine = rows[(rows["label"] == label) & (rows["problem"] == problem)]
            theirs = rows[rows["label"].isin(peers) & (rows["problem"] == problem)]
            if len(mine):
                against = (
                    f" against {text(say.value(theirs.iloc[0]))} for {text(theirs['label'].iloc[0])}"
                    if len(theirs)
                    else ""
                )
                values.append(f"{text(say.value(mine.iloc[0]))} on {text(problem_title(problem))}{against}")
        sentences.append(
            f"Beyond the paper, {text(label)} uses the normalised temperature, one λ = {lams} for every problem on "
            "the acquisition standardised over a fixed reference set, instead of the paper's per-problem λ"
            + (f"; its {say.metric(rows)[0]} is " + say.series(values) if values else "")
            + "."
        )
    return " ".join(sentences)


def _diversity(run: Run, experiment: str) -> str:
    trials = run.per_trial[run.per_trial["experiment"] == experiment].drop_duplicates("trial_id")
    trials = trials[trials["diversity"].notna()]
    if trials.empty:
        return ""
    parts = []
    for problem in say.problems_of(trials):
        here = trials[trials["problem"] == problem]
        b3o = here[here["method"] == "b3o"].groupby("label")["diversity"].mean()
        ts = here[here["method"] == "ts"]
        if b3o.empty or ts.empty:
            continue
        ts_value = with_ci(*bootstrap_ci(ts["diversity"]))
        first, last = ts["diversity_first"].mean(), ts["diversity_last"].mean()
        parts.append(
            f"on {text(problem_title(problem))} the B3O variants' mean batch diversity is {say.range_text(b3o)} "
            f"against {text(ts_value)} for TS, whose diversity goes from "
            f"{text(number(first))} in its first batch to {text(number(last))} in its last"
        )
    return (r"Over the BO iterations with $\lambda_t > 0$, " + "; ".join(parts) + ".") if parts else ""


def ablations(run: Run) -> Section | None:
    parts = []
    if "lambda_ablation" in run.experiments():
        figures = [n for n in ("lambda_constant", "lambda_scheduled") if run.has_figure(n)]
        shown = say.shows([ref(n) for n in figures], "the regret curves per λ")
        paragraphs = [
            say.setup(run.per_trial, "lambda_ablation") + " " + shown,
            _lambda_values(run),
            " ".join(
                s for s in (_best_lambda_text(run), say.verdicts(run.claims, ["lambda_ablation"], CLAIMS_REF)) if s
            ),
            say.against_paper(run.claims, ["lambda_ablation"]),
        ]
        blocks = [figure(n) for n in figures] + ([_best_lambda_table(run)] if run.best_lambda is not None else [])
        parts += subsection("Inverse temperature", paragraphs, blocks)
    if "sampler_ablation" in run.experiments():
        names = ("sampler_ucb_c", "sampler_ucb_s", "sampler_logei_c", "sampler_logei_s")
        figures = [n for n in names if run.has_figure(n)]
        shown = say.shows([ref(n) for n in figures], "the regret curves per sampler")
        paragraphs = [
            say.setup(run.per_trial, "sampler_ablation") + " " + shown,
            _sampler_values(run),
            say.verdicts(run.claims, ["sampler_ablation"], CLAIMS_REF),
            say.against_paper(run.claims, ["sampler_ablation"]),
        ]
        blocks = [figure(n) for n in figures]
        if len(summary_rows(run, "sampler_ablation")):
            blocks.append(
                final_table(
                    run, ["sampler_ablation"], "Final values per sampler: mean [95\\,\\% CI] over seeds.", "sampler"
                )
            )
        parts += subsection("Samplers", paragraphs, blocks)
    return Section("Ablations", parts, "ablations") if parts else None


def _variant_of(run: Run, experiment: str) -> dict[str, str]:
    """Label -> its paper variant name (UCB-c, ...) or the label itself, from the per-trial table's grid columns."""
    trials = run.per_trial[run.per_trial["experiment"] == experiment].drop_duplicates("label")
    return {r.label: VARIANT_NAMES.get((r.acquisition, r.temperature), r.label) for r in trials.itertuples()}


def _lambda_values(run: Run) -> str:
    rows = summary_rows(run, "lambda_ablation")
    trials = run.per_trial[run.per_trial["experiment"] == "lambda_ablation"]
    temperatures = trials.drop_duplicates("label").set_index("label")["temperature"]
    sentences = []
    for label, group in rows.groupby("label", sort=False):
        per_problem = []
        symbol = lambda_symbol(temperatures[label])
        for problem in say.problems_of(group):
            here = group[group["problem"] == problem].sort_values("lam")
            values = say.series([f"{text(say.value(r))} at {symbol} = {number(r['lam'])}" for _, r in here.iterrows()])
            per_problem.append(f"{values} on {text(problem_title(problem))}")
        sentences.append(f"{text(label)} reaches a final regret of " + "; and ".join(per_problem) + ".")
    return " ".join(sentences)


def _best_lambda_text(run: Run) -> str:
    if run.best_lambda is None:
        return ""
    picks = run.best_lambda[run.best_lambda["selected"].astype(bool)]
    cells = [(r.problem, r.variant, r.lam) for r in picks.itertuples() if (r.problem, r.variant) in PAPER_TABLE_2]
    same = sum(np.isclose(lam, PAPER_TABLE_2[(p, v)]) for p, v, lam in cells)
    return (
        r"Choosing, as the paper does, the λ with the lowest mean final regret (Table~\ref{tab:best_lambda}) gives "
        f"the paper's Table 2 value in {same} of the {len(cells)} (function, variant) cells run."
    )


def _best_lambda_table(run: Run) -> str:
    picks = run.best_lambda[run.best_lambda["selected"].astype(bool)]
    shown = pd.DataFrame(
        {
            "Function": [problem_title(p) for p in picks["problem"]],
            "Variant": [method_title("b3o", *VARIANTS[v]) for v in picks["variant"]],
            "λ run": [
                ", ".join(
                    number(v)
                    for v in sorted(
                        run.best_lambda.loc[
                            (run.best_lambda["problem"] == p) & (run.best_lambda["variant"] == v), "lam"
                        ]
                    )
                )
                for p, v in zip(picks["problem"], picks["variant"])
            ],
            "selected λ": picks["lam"].map(number),
            "final regret [95% CI]": [say.value(r) for _, r in picks.iterrows()],
            "paper's λ": [
                number(PAPER_TABLE_2[(p, v)]) if (p, v) in PAPER_TABLE_2 else "–"
                for p, v in zip(picks["problem"], picks["variant"])
            ],
        }
    )
    shown = blank_repeats(shown, "Function")
    header = [
        "Function",
        "Variant",
        r"$\lambda$ run",
        r"selected $\lambda$",
        r"final regret [95\,\% CI]",
        r"paper's $\lambda$",
    ]
    return long_table(
        shown,
        header,
        "L{3cm} l l l Y l",
        r"Best $\lambda$ per function and variant (minimum mean final regret over the $\lambda$ run; ties to the "
        r"smaller $\lambda$), against the paper's Table 2.",
        "best_lambda",
    )


def _sampler_values(run: Run) -> str:
    rows = summary_rows(run, "sampler_ablation")
    variant = _variant_of(run, "sampler_ablation")
    rows = rows.assign(variant=rows["label"].map(variant))
    sentences = []
    for name, group in rows.groupby("variant", sort=False):
        parts = []
        for problem in say.problems_of(group):
            here = group[group["problem"] == problem].sort_values("mean")
            best, worst = here.iloc[0], here.iloc[-1]
            first, last = (text(SAMPLERS.get(r["sampler"], r["sampler"])) for r in (best, worst))
            parts.append(
                f"on {text(problem_title(problem))}, {first} reaches the lowest mean final regret, "
                f"{text(say.value(best))}, and {last} the highest, {text(say.value(worst))}"
            )
        named = method_title("b3o", *VARIANTS[name]) if name in VARIANTS else name
        sentences.append(f"For {text(named)}, " + "; ".join(parts) + ".")
    return " ".join(sentences)


def one_experiment(run: Run, experiment: str, title: str, figure_name: str, extra: list[str]) -> list[str]:
    """A subsection for one experiment: its setup and final values (and its figure, where drawn), then `extra`."""
    rows = summary_rows(run, experiment)
    values = [say.each_value(rows[rows["problem"] == p]) for p in say.problems_of(rows)] if len(rows) else []
    shown = [f"{ref(figure_name)} shows the run."] if run.has_figure(figure_name) else []
    paragraphs = [" ".join([say.setup(run.per_trial, experiment), *values, *shown]), *extra]
    return subsection(title, paragraphs, [figure(figure_name)] if shown else [])


def applications(run: Run) -> Section | None:
    titles = {"battery": "Battery electrode design", "formula_e": "Formula E"}
    present = [e for e in titles if e in run.experiments()]
    if not present or run.per_trial is None:
        return None
    parts = []
    for experiment in present:
        verdicts_ = [say.verdicts(run.claims, [experiment], CLAIMS_REF), say.against_paper(run.claims, [experiment])]
        parts += one_experiment(run, experiment, titles[experiment], experiment, verdicts_)
    return Section("Applications", parts, "applications")
