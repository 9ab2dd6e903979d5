"""The report's sections, each built from the run's tables and figures; None for a part the run did not produce."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.claims import PAPER_TABLE_2
from analysis.formatting import number
from analysis.naming import SAMPLERS, VARIANTS, ordered_problems, problem_title
from analysis.report import text as say
from analysis.report.inputs import Run
from analysis.report.latex import Section, blank_repeats, figure, long_table, ref, subsection, text
from analysis.summary import bootstrap_ci
from analysis.tables import density as density_table
from analysis.tables import run_times as run_times_table
from analysis.tables import summary as summary_table

CLAIMS_REF = r"Table~\ref{tab:claims}"


def method(run: Run) -> Section:
    """The method as implemented (static: it describes the code, not the run)."""
    return Section(
        "Method as implemented",
        [
            (
                r"B3O draws a batch of $B$ query points i.i.d.\ from the Boltzmann density "
                r"$p_t(x) \propto \exp(\lambda_t\,\alpha_t(x))$ of a point-wise acquisition $\alpha_t$, so a batch "
                r"costs $B$ draws rather than a joint optimisation over $B$ points. The batch rule "
                r"(\texttt{b3o.BoltzmannBatch}, a trieste acquisition rule) updates the acquisition, forms "
                r"$\log p_t = \lambda_t\alpha_t$ and samples it with DEFER (recursive partitioning), "
                r"Metropolis--Hastings, Langevin (MALA), discretised Monte Carlo, or a mixed continuous/categorical "
                r"Metropolis--Hastings."
            ),
            (
                r"Temperatures are constant (suffix \texttt{-c}), scheduled ($\lambda_t = \lambda_0\sqrt{t}\log t$, "
                r"suffix \texttt{-s}; the first batch is uniform) or, beyond the paper, normalised (suffix "
                r"\texttt{-n}: one $\lambda$ acting on the acquisition standardised over a fixed reference set). "
                r"Observations are standardised before any model sees them; the surrogate is an SVGP (Mat\'ern-5/2) "
                r"fitted with L-BFGS-B. Every method shares its initial design with the others for a given problem and "
                r"seed, so methods are compared per seed; intervals are 95\,\% percentile-bootstrap CIs over seeds."
            ),
        ],
        label="method",
    )


def illustrations(run: Run) -> Section | None:
    names = [n for n in ("illustration_1d", "lambda_effect", "theorem1") if run.has_figure(n)]
    if not names:
        return None
    parts = []  # each figure right after the paragraph that refers to it, so it can float on that page
    pictures = [n for n in names if n != "theorem1"]
    if pictures:
        parts.append(
            f"{say.series([ref(n) for n in pictures])} {'are' if len(pictures) > 1 else 'is'} computed from the "
            "method itself, not from trials. Thompson sampling puts its batch on the maximisers of posterior draws, "
            "which cluster where the posterior is confident; B3O's batch follows the Boltzmann density of the "
            "acquisition, and λ sets how far it spreads: near-uniform for small λ, concentrated on the acquisition's "
            "maxima for large λ."
        )
        parts += [figure(n) for n in pictures]
    if "theorem1" in names:
        parts += [_theorem(run), figure("theorem1")]
    return Section("Illustrations", parts, "illustrations")


def _theorem(run: Run) -> str:
    lead = (
        f"{ref('theorem1')} checks Theorem 1, the bound on the probability that a Boltzmann draw falls more than ε "
        "below the acquisition's maximum, by exact sampling on a grid."
    )
    if run.theorem is None:
        return lead
    table = run.theorem
    informative = table[table["bound"] < 1]
    below = int((informative["measured"] <= informative["bound"]).sum())
    dims = say.series([str(d) for d in sorted(table["d"].unique())])
    return (
        f"{lead} Over d = {dims}, {table['lam'].nunique()} values of λ and {table['eps'].nunique()} of ε "
        f"({len(table)} cells, at least {number(table['n'].min())} draws each), the bound is below 1 in "
        f"{len(informative)} cells, and the measured probability lies below it in {below} of them."
    )


def _final_table(run: Run, experiments: list[str], caption_text: str, label: str) -> str:
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
    shown["Problem"] = shown["Problem"].map(problem_title)
    for column in ("Problem", "Experiment"):
        if column in shown:
            shown = blank_repeats(shown, column)
    header = [r"$\lambda$" if c == "λ" else text(c) for c in shown.columns]
    columns = " ".join(
        "L{2.6cm}" if c in ("Problem", "Metric") else "Y" if c == "Method" else "l" for c in shown.columns
    )
    return long_table(shown, header, columns, caption_text, label)


def _summary_rows(run: Run, experiment: str) -> pd.DataFrame:
    if run.summary is None:
        return pd.DataFrame()
    return run.summary[run.summary["experiment"] == experiment]


def synthetic(run: Run) -> Section | None:
    present = [e for e in ("synthetic_b100", "synthetic_b5") if e in run.experiments()]
    if not present or run.per_trial is None:
        return None
    parts = []
    for experiment in present:
        large = experiment == "synthetic_b100"
        names = ("regret_b100", "paired_b100", "diversity_b100") if large else ("regret_b5", "diversity_b5")
        figures = [n for n in names if run.has_figure(n)]
        rows = _summary_rows(run, experiment)
        values = [say.best_against(rows[rows["problem"] == p]) for p in say.problems_of(rows)] if len(rows) else []
        shown = say.shows([ref(n) for n in figures], "the run")
        paragraphs = [
            " ".join([say.setup(run.per_trial, experiment), *values]),
            _normalised(run, experiment),
            shown + _diversity(run, experiment),
            say.verdicts(run.claims, [experiment], CLAIMS_REF),
        ]
        blocks = [figure(n) for n in figures]
        if len(rows):
            blocks.append(
                _final_table(
                    run, [experiment], f"Final values, {text(experiment)}: mean [95\\,\\% CI] over seeds.", experiment
                )
            )
        parts += subsection("Large batches" if large else "Small batches", paragraphs, blocks)
    return Section("Synthetic benchmarks", parts, "synthetic")


def _normalised(run: Run, experiment: str) -> str:
    """The beyond-the-paper normalised-temperature rows against the constant-λ variant of the same acquisition."""
    trials = run.per_trial[(run.per_trial["experiment"] == experiment) & (run.per_trial["method"] == "b3o")]
    rows = _summary_rows(run, experiment)
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
        mean, lo, hi = bootstrap_ci(ts["diversity"])
        first, last = ts["diversity_first"].mean(), ts["diversity_last"].mean()
        parts.append(
            f"on {text(problem_title(problem))} the B3O variants' mean batch diversity is {say.range_text(b3o)} "
            f"against {text(number(mean))} [{text(number(lo))}, {text(number(hi))}] for TS, whose diversity goes from "
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
        ]
        blocks = [figure(n, r"0.3\textheight") for n in figures]
        if len(_summary_rows(run, "sampler_ablation")):
            blocks.append(
                _final_table(
                    run, ["sampler_ablation"], "Final values per sampler: mean [95\\,\\% CI] over seeds.", "sampler"
                )
            )
        parts += subsection("Samplers", paragraphs, blocks)
    return Section("Ablations", parts, "ablations") if parts else None


def _variant_of(run: Run, experiment: str) -> dict[str, str]:
    """Label -> its paper variant name (UCB-c, ...) or the label itself, from the per-trial table's grid columns."""
    trials = run.per_trial[run.per_trial["experiment"] == experiment].drop_duplicates("label")
    names = {v: k for k, v in VARIANTS.items()}
    return {r.label: names.get((r.acquisition, r.temperature), r.label) for r in trials.itertuples()}


def _lambda_values(run: Run) -> str:
    rows = _summary_rows(run, "lambda_ablation")
    trials = run.per_trial[run.per_trial["experiment"] == "lambda_ablation"]
    scheduled = set(trials.loc[trials["temperature"] == "scheduled", "label"])
    sentences = []
    for label, group in rows.groupby("label", sort=False):
        per_problem = []
        symbol = "λ₀" if label in scheduled else "λ"  # a scheduled temperature's λ is its λ₀
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
            "Variant": "B3O-" + picks["variant"],
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
    rows = _summary_rows(run, "sampler_ablation")
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
        sentences.append(f"For B3O-{text(name)}, " + "; ".join(parts) + ".")
    return " ".join(sentences)


def applications(run: Run) -> Section | None:
    titles = {"battery": "Battery electrode design", "formula_e": "Formula E"}
    present = [e for e in titles if e in run.experiments()]
    if not present or run.per_trial is None:
        return None
    parts = []
    for experiment in present:
        rows = _summary_rows(run, experiment)
        values = [say.each_value(rows[rows["problem"] == p]) for p in say.problems_of(rows)] if len(rows) else []
        shown = [f"{ref(experiment)} shows the run."] if run.has_figure(experiment) else []
        paragraphs = [
            " ".join([say.setup(run.per_trial, experiment), *values, *shown]),
            say.verdicts(run.claims, [experiment], CLAIMS_REF),
        ]
        parts += subsection(titles[experiment], paragraphs, [figure(experiment)] if run.has_figure(experiment) else [])
    return Section("Applications", parts, "applications")


def cost(run: Run) -> Section | None:
    parts = []
    if run.has_figure("timing"):
        parts += [
            f"{ref('timing')} times one batch against the batch size B on one fitted SVGP. {_scaling(run)}",
            figure("timing"),
        ]
    if run.run_times is not None:
        parts += [_run_times_text(run.run_times), *_run_times_tables(run.run_times)]
    return Section("Cost", parts, "cost") if parts else None


def _scaling(run: Run) -> str:
    """Log-log slopes of batch time on B: B3O's range over its samplers and acquisitions, each baseline's own."""
    if run.scaling is None:
        return ""
    from analysis.figures.timing import scaling  # matplotlib and seaborn: only when there is a timing table

    data = scaling(run.scaling)
    slopes = data.drop_duplicates("series").set_index("series")["slope"]
    b3o = slopes[[name.startswith("b3o") for name in slopes.index]]
    parts = [f"{say.range_text(b3o)} for B3O ({len(b3o)} sampler and acquisition settings)"] if len(b3o) else []
    parts += [f"{number(v)} for {text(name)}" for name, v in slopes.items() if not name.startswith("b3o")]
    sizes = sorted(data["batch_size"].unique())
    sentence = (
        f"Between B = {int(sizes[0])} and B = {int(sizes[-1])}, the fitted log-log slope of the median batch time "
        f"on B (1: linear in B; 0: the per-batch set-up dominates) is {say.series(parts)}."
    )
    skipped = run.scaling[run.scaling["seconds_median"].isna()]
    if len(skipped):
        sentence += (
            " Over the time cap, and not timed: "
            + say.series([f"{text(m)} at B = {int(b)}" for m, b in zip(skipped["method"], skipped["batch_size"])])
            + "."
        )
    return sentence


def _run_times_text(table: pd.DataFrame) -> str:
    total = table[table["experiment"] == "all experiments"].iloc[0]
    experiments = table[(table["label"] == "all methods") & (table["experiment"] != "all experiments")]
    longest = experiments.sort_values("total_s").iloc[-1]
    sentence = (
        f"The {int(total['trials'])} trials took {text(number(total['total_s'] / 60))} core-minutes in all "
        f"({text(number(total['mean_s']))} s per trial on average); {text(longest['experiment'])} took the most, "
        f"{text(number(longest['total_s'] / 60))} core-minutes (Table~\\ref{{tab:run_times}})."
    )
    split = [c for c in run_times_table.PROFILE if f"mean_{c}" in table and pd.notna(total[f"mean_{c}"])]
    if split:
        seconds = {c: total[f"mean_{c}"] for c in split}
        whole = sum(seconds.values())
        shares = [f"{run_times_table.PROFILE_NAMES[c]} {100 * s / whole:.0f}\\,\\%" for c, s in seconds.items()]
        sentence += (
            " Of a trial's recorded time, averaged over all trials (Table~\\ref{tab:cost_split}), "
            + say.series(shares)
            + " (density: acquisition evaluations inside B3O's sampler; acquire, other: the rest of the batch step)."
        )
    return sentence


def _run_times_tables(table: pd.DataFrame) -> list[str]:
    shown, header = run_times_table.for_paper(table)
    main = ["experiment", "label", "trials", "total_s", "mean_s", "max_rss_mb"]
    idx = [list(shown.columns).index(c) for c in main]
    blocks = [
        long_table(
            shown[main],
            [header[i] for i in idx],
            "l Y r r r r",
            "Trial wall time per experiment and method (Snakemake benchmarks; one core per trial, so totals are "
            "core-minutes).",
            "run_times",
            group="experiment",
        )
    ]
    split = [c for c in shown.columns if c.startswith("mean_") and c != "mean_s"]
    if split:
        idx = [list(shown.columns).index(c) for c in ["experiment", "label", *split]]
        blocks.append(
            long_table(
                shown[["experiment", "label", *split]],
                [header[i] for i in idx],
                "l Y " + " ".join(["R{1.3cm}"] * len(split)),
                "Where a trial's time goes: mean seconds per trial, from the records' cost profiles.",
                "cost_split",
                group="experiment",
            )
        )
    return blocks


def density(run: Run) -> Section | None:
    table = run.density
    if table is None:
        return None
    collapsed = table[table["collapsed"] > 0]
    uniform = table[table["uniform"] > 0]

    def rows_text(rows: pd.DataFrame, column: str, shown: int = 4) -> str:
        """The rows with the most such iterations (at most `shown` of them, then how many more)."""
        top = rows.sort_values(column, ascending=False, kind="stable")
        items = [
            f"{text(r['label'])} on {text(problem_title(r['problem']))} (λ = {text(number(r['lam']))}: "
            f"{int(r[column])} of {int(r['iterations'])})"
            for _, r in top.head(shown).iterrows()
        ]
        if len(top) > shown:
            items.append(f"{len(top) - shown} more row{'s' if len(top) - shown > 1 else ''} of the table")
        return say.series(items)

    sentences = [
        (
            f"For each B3O variant and λ run, Table~\\ref{{tab:density}} gives the effective sample size of the "
            "Boltzmann weights on a fixed uniform reference set (ESS/N: 1 is uniform, 1/N a point mass) over the "
            f"iterations with $\\lambda_t > 0$. Across its {len(table)} row{'s' if len(table) > 1 else ''} the median "
            f"ESS/N ranges over {text(say.range_text(table['ess_fraction_median']))} and the median batch diversity "
            f"relative to a uniform batch over {text(say.range_text(table['relative_diversity_median']))}."
        ),
        (
            f"Collapsed iterations (ESS/N < 10⁻³ and a batch less than a tenth as spread as a uniform one) occur in "
            f"{rows_text(collapsed, 'collapsed')}."
            if len(collapsed)
            else "No iteration collapsed to a point mass."
        ),
        (
            f"Uniform iterations (B3O doing random search) occur in {rows_text(uniform, 'uniform')}."
            if len(uniform)
            else "No iteration was uniform."
        ),
    ]
    shown, header = density_table.for_paper(table)
    shown = blank_repeats(shown, "problem", within="experiment")
    block = long_table(
        shown,
        header,
        "l l Y l r L{3.5cm} R{1.3cm} R{1.3cm} r r",
        r"B3O's Boltzmann density per experiment, variant and $\lambda$, over iterations with $\lambda_t > 0$.",
        "density",
        size=r"\footnotesize",
        group="experiment",
    )
    return Section("B3O density diagnostics", [" ".join(sentences), block], "density")


def claims(run: Run) -> Section | None:
    table = run.claims
    if table is None:
        return None
    rows = []
    for r in table.itertuples():
        # one table row per measured block (a problem, or what was missing), so the table can break between them
        blocks = _one_per_line(r.measured if isinstance(r.measured, str) else "").split("\n\n") or [""]
        seeds = "" if pd.isna(r.seeds_needed) else str(int(r.seeds_needed))
        rows.append(
            [
                str(r.number),
                f"{r.claim}\n({r.source})",
                r.run if isinstance(r.run, str) else "",
                blocks[0],
                r.verdict,
                seeds,
            ]
        )
        rows += [["", "", "", block, "", ""] for block in blocks[1:]]
    shown = pd.DataFrame(rows, columns=["#", "claim", "run", "measured", "verdict", "seeds"])
    header = [
        "\\#",
        "Claim (where in the paper)",
        "Run",
        r"Measured: $\Delta$ [95\,\% CI] per comparison",
        "Verdict",
        "Seeds",
    ]
    block = long_table(
        shown,
        header,
        "l L{3.4cm} L{2.1cm} Y L{1.8cm} r",
        "Each quantitative claim of the paper against its measured counterpart at this run's scale; Seeds: the seeds "
        "that would decide an inconclusive claim if the observed effect held.",
        "claims",
        size=r"\footnotesize",
        breaks=True,
    )
    intro = (
        f"Table~\\ref{{tab:claims}} lists the paper's {len(table)} quantitative claims with what this run measured. "
        "Each comparison pairs two methods by seed and takes the per-seed advantage Δ of A over B at a common "
        "budget; it is decided by a 95\\,\\% percentile-bootstrap test, Holm-corrected over the claim's comparisons, "
        "and a claim holds only if every comparison it names was run and holds (\\texttt{claims.md} states the rules "
        "in full)."
    )
    return Section("Claims", [intro, block], "claims")


def _one_per_line(measured: str) -> str:
    """The measured text of a claim as blocks (blank-line separated, one per problem line of the claims table), each
    comparison on its own line (the claims table separates them with '; ')."""
    return "\n\n".join(line.replace("; ", "\n") if " vs " in line else line for line in measured.splitlines())


def summary(run: Run) -> Section | None:
    if run.claims is None:
        return None
    counts = run.claims["verdict"].value_counts()
    parts = [f"{n} {say.predicate(v, n != 1)}" for v, n in counts.items()]
    ran = say.series([text(e) for e in run.experiments()]) if run.experiments() else "no experiment"
    measured = run.claims[run.claims["verdict"] != "not measured"]
    return Section(
        "Summary",
        [
            f"This run covered {ran}. Of the paper's {len(run.claims)} claims, {say.series(parts)}"
            + (
                "; those not measured need experiments or methods this run did not include"
                if len(measured) < len(run.claims)
                else ""
            )
            + ". An inconclusive claim is one that this run's seeds cannot decide either way; its row in "
            "Table~\\ref{tab:claims} gives the seeds that would decide it if the observed effect held."
        ],
        label="summary",
    )


ALL = (method, illustrations, synthetic, ablations, applications, cost, density, claims, summary)
