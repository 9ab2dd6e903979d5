"""The report's sections, each built from the run's tables and figures; None for a part the run did not produce.
The experiments' own sections are in `analysis.report.experiments`."""

from __future__ import annotations

import pandas as pd

from analysis.formatting import number, signed
from analysis.naming import experiment_title, method_title, problem_title
from analysis.report import text as say
from analysis.report.beyond import across, automatic, other, recommended
from analysis.report.experiments import ablations, applications, horizon, synthetic
from analysis.report import scale as scale_of
from analysis.report.answer import GLOSSARY, answer, glance_table, measured, provenance
from analysis.report.inputs import Run
from analysis.report.latex import Section, blank_repeats, figure, long_table, ref, text
from analysis.tables import density as density_table
from analysis.tables import run_times as run_times_table
from analysis.tables.claims_table import paper_and_beyond


def overview(run: Run) -> Section | None:
    """Page one: the run named in words, then its answer where it is read along the paper's horizon (a sentence per
    problem and the leaderboard, `analysis.presentation.headline`), the comparisons its config declares (first, when it
    has them), the scale against the paper's, and every verdict in one table; where the numbers come from is the
    last section's (`provenance`)."""
    parts = [scale_of.named(run), *answer(run), GLOSSARY]
    if run.declared is not None and len(run.declared):
        parts.append(_declared(run.declared))
    if run.claims is None:
        parts.append(scale_of.surrogate(run))
        return Section("This run at a glance", [p for p in parts if p], "glance")
    scale = scale_of.scale(run)
    if scale:
        parts.append(scale + r" Every setting where our configs differ from the paper, and why, is in "
                     r"\texttt{docs/deviations.md}.")
    paper, beyond = paper_and_beyond(run.claims)
    if (run.claims["verdict"] == "not measured").all():
        parts.append(say.unmeasured(run.horizon is not None))
        return Section("This run at a glance", parts, "glance")
    parts.append(
        "Verdicts: each claim is decided from seeds paired by their shared initial design (Section~\\ref{sec:claims} "
        "gives the rule and every comparison); the binding comparison is the one that decides the verdict, with its "
        "mean per-seed advantage (positive: the first method is better) and 95\\,\\% BCa interval."
    )
    unmeasured = [str(n) for n, v in zip(run.claims["number"], run.claims["verdict"]) if v == "not measured"]
    parts.append(glance_table(measured(paper), "The paper's claims this run measures, at its scale.", "glance"))
    if len(measured(beyond)):
        parts.append(glance_table(measured(beyond), "Questions beyond the paper.", "glance-beyond"))
    if unmeasured:
        parts.append(f"Not measured in this run (Section~\\ref{{sec:claims}} says why): claims {', '.join(unmeasured)}.")
    return Section("This run at a glance", parts, "glance")


def _declared(table: pd.DataFrame) -> str:
    """The config's declared comparisons (`analysis.tables.declared_comparisons`) with their verdicts and binding comparisons."""
    def binding(r) -> str:
        if not isinstance(r.binding, str) or not r.binding or pd.isna(r.binding_mean):
            return ""
        return f"{r.binding}: {signed(r.binding_mean)} [{number(r.binding_lo)}, {number(r.binding_hi)}]"

    shown = pd.DataFrame([[r.comparison, r.verdict, binding(r)] for r in table.itertuples()],
                         columns=["comparison", "verdict", "binding"])
    return (
        r"Your declared comparisons (the config's \texttt{compare}), decided as the paper's claims are: paired by "
        r"seed, each method at its final budget, Holm over the comparisons of one experiment, relation and problem list; "
        r"\texttt{tables/declared.md} has every problem's line."
        "\n\n"
        + long_table(shown, ["Comparison", "Verdict", r"Binding comparison: advantage [95\,\% CI]"],
                     "Y L{2.2cm} L{5.2cm}", "The comparisons this run's config declares.", "declared",
                     size=r"\footnotesize")
    )


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
                r"suffix \texttt{-s}; the first batch is uniform) or, "
                + ("" if run.study else "beyond the paper, ")
                + r"normalised (suffix "
                r"\texttt{-n}: one $\lambda$ acting on the acquisition standardised over a fixed reference set) or "
                r"automatic (suffix \texttt{-auto}: $\lambda_t$ chosen from the acquisition at every iteration). "
                r"Observations are standardised before any model sees them; the surrogate is a Gaussian process "
                r"(Mat\'ern-5/2; an SVGP in the paper's configs, an exact GP in a study that names no model) fitted "
                r"with L-BFGS-B. Every method shares its initial design with the others for a given problem and "
                r"seed, so methods are compared per seed. Regret curves show the median seed and the interquartile range; "
                r"other curves the mean with its 95\,\% percentile-bootstrap CI over seeds; a claim's mean per-seed "
                r"advantage carries its 95\,\% BCa interval, and a share of seeds its exact Clopper--Pearson interval."
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
    # an appendix: the method's pictures, not this run's results, and a full-page figure after the method's text left
    # most of a page empty
    return Section("Illustrations", parts, "illustrations", appendix=True)


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


def cost(run: Run) -> Section | None:
    parts = []
    if run.has_figure("timing"):
        parts += [
            f"{ref('timing')} times one batch against the batch size B on one fitted SVGP. {_scaling(run)}",
            figure("timing"),
        ]
    if run.run_times is not None:
        parts += [_run_times_text(run.run_times), *_run_times_tables(run.run_times)]
    return Section("Cost", parts, "cost", appendix=True) if parts else None


def _scaling(run: Run) -> str:
    """Log-log slopes of batch time on B: B3O's range over its samplers and acquisitions, each baseline's own."""
    if run.scaling is None:
        return ""
    from analysis.figures.timing import scaling  # matplotlib and seaborn: only when there is a timing table

    data = scaling(run.scaling)
    series = data.drop_duplicates("series")
    ours = series["method"] == "b3o"
    b3o = series.loc[ours, "slope"]
    parts = [f"{say.range_text(b3o)} for B3O ({len(b3o)} sampler and acquisition settings)"] if len(b3o) else []
    parts += [f"{number(r.slope)} for {text(r.series)}" for r in series[~ours].itertuples()]
    sizes = sorted(data["batch_size"].unique())
    sentence = (
        f"Between B = {int(sizes[0])} and B = {int(sizes[-1])}, the fitted log-log slope of the median batch time "
        f"on B (1: linear in B; 0: the per-batch set-up dominates) is {say.series(parts)}."
    )
    skipped = run.scaling[run.scaling["seconds_median"].isna()]
    if len(skipped):
        sentence += (
            " Over the time cap, and not timed: "
            + say.series([
                f"{text(method_title(r.method, r.acquisition, '', r.sampler))} at B = {int(r.batch_size)}"
                for r in skipped.itertuples()
            ])
            + "."
        )
    return sentence


def _run_times_text(table: pd.DataFrame) -> str:
    total = table[table["experiment"] == "all experiments"].iloc[0]
    experiments = table[(table["label"] == "all methods") & (table["experiment"] != "all experiments")]
    longest = experiments.sort_values("total_s").iloc[-1]
    sentence = (
        f"The {int(total['trials'])} trials took {text(number(total['total_s'] / 60))} core-minutes in all "
        f"({text(number(total['mean_s']))} s per trial on average); {text(experiment_title(longest['experiment']))} "
        "took the most, "
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
            "Trial wall time per experiment and method (from the records; one core per trial, so totals are "
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
        "l L{2.2cm} Y L{1.9cm} r L{3.6cm} R{1.2cm} R{1.2cm} r r",
        r"B3O's Boltzmann density per experiment, variant and $\lambda$, over iterations with $\lambda_t > 0$.",
        "density",
        size=r"\footnotesize",
        breaks=True,  # flows on after its text, which a float of its length would leave alone on a page
        group="experiment",
    )
    return Section("B3O density diagnostics", [" ".join(sentences), block], "density", appendix=True)


def claims(run: Run) -> Section | None:
    table = run.claims
    if table is None:
        return None
    rows = []
    for r in table.itertuples():
        # one table row per comparison (or what was missing), so the table can break between them: a claim's
        # comparisons of one problem, each with its tail, can be taller than the rest of a page
        blocks = [line for line in _one_per_line(r.measured if isinstance(r.measured, str) else "").split("\n")
                  if line] or [""]
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
    paper, beyond = paper_and_beyond(table)
    intro = (
        f"Table~\\ref{{tab:claims}} lists the paper's {len(paper)} quantitative claims"
        + (f", then {len(beyond)} questions beyond the paper," if len(beyond) else "")
        + " with what this run measured. "
        "Each comparison pairs two methods by seed and takes the per-seed advantage Δ of A over B at a common "
        "budget; it is decided by the most conservative of a paired t-test, an exact sign-flip test and a "
        "skewness-corrected (Hall) t-test at two-sided level 0.05, Holm-corrected over the claim's comparisons; a tie within "
        "the problem's pre-set margin is a verdict too (equivalent), and a claim holds only if every comparison it "
        "names was run and holds (\\texttt{claims.md} states the rules in full)."
    )
    return Section("Claims in detail", [intro, block], "claims", appendix=True)


def _one_per_line(measured: str) -> str:
    """The measured text of a claim as blocks (blank-line separated, one per problem line of the claims table), each
    comparison on its own line (the claims table separates them with '; ')."""
    return "\n\n".join(line.replace("; ", "\n") if " vs " in line else line for line in measured.splitlines())


def summary(run: Run) -> Section | None:
    if run.claims is None:
        return None
    paper, beyond = paper_and_beyond(run.claims)
    ran = say.series([text(experiment_title(e)) for e in run.experiments()]) if run.experiments() else "no experiment"
    measured = paper[paper["verdict"] != "not measured"]
    if measured.empty and run.horizon is not None:
        return Section("Summary", [f"This run covered {ran}. {say.unmeasured(run.horizon is not None)}"], label="summary")
    sentence = f"This run covered {ran}. Of the paper's {len(paper)} claims, {_tally(paper)}" + (
        "; those not measured need experiments or methods this run did not include"
        if len(measured) < len(paper)
        else ""
    )
    if len(beyond):
        sentence += f". Of the {len(beyond)} questions beyond the paper, {_tally(beyond)}"
    return Section(
        "Summary",
        [
            sentence + ". An inconclusive claim is one that this run's seeds cannot decide either way; its row in "
            "Table~\\ref{tab:claims} gives the seeds that would decide it if the observed effect held."
        ],
        label="summary",
    )


def _tally(claims: pd.DataFrame) -> str:
    return say.series([f"{n} {say.predicate(v, n != 1)}" for v, n in claims["verdict"].value_counts().items()])


ALL = (
    overview, method, synthetic, horizon, ablations, applications, automatic, other, recommended,
    across, summary, claims, cost, density, illustrations, provenance,
)
