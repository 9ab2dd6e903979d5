"""The report's sections beyond the paper's studies: the automatic temperature's pre-registered test, any
experiment no section describes (a user's own, or a side question such as config/collapsed_fit.yaml), the
recommended point's regret beside the best evaluated point's, where the records carry it, and every method on one
scale across problems with the claims' verdicts along the budget."""

from __future__ import annotations

import pandas as pd

from analysis.data.aggregate import bootstrap_ci
from analysis.formatting import with_ci
from analysis.naming import experiment_title, problem_title
from analysis.report import text as say
from analysis.report.experiments import CLAIMS_REF, final_table, one_experiment, summary_rows
from analysis.report.inputs import Run
from analysis.report.latex import Section, blank_repeats, figure, long_table, ref, text
from analysis.statistics.scores import final
from analysis.tables import automatic as automatic_table
from analysis.tables import horizon as horizon_table

#: the experiments of the automatic temperature's pre-registered test (docs/auto-temperature.md)
AUTOMATIC = automatic_table.EXPERIMENTS
#: how each automatic temperature chooses lambda_t (b3o/temperature.py)
AUTOMATIC_RULES = {
    "auto": "the effective sample size of the Boltzmann weights over the rule's fixed reference set hits a multiple "
    "of B, as sequential Monte Carlo samplers choose their next temperature",
    "auto-tail": "the best reference point is a fixed factor more likely than α's 90th percentile over the rule's "
    "fixed reference set",
}


def automatic(run: Run) -> Section | None:
    """Beyond the paper: the automatic temperature against the paper's λ, the test written down before it ran."""
    present = [e for e in AUTOMATIC if e in run.experiments()]
    if not present or run.per_trial is None:
        return None
    trials = run.per_trial[run.per_trial["experiment"].isin(present)]
    drawn = run.has_figure("automatic")
    rules = [AUTOMATIC_RULES[t] for t in AUTOMATIC_RULES if t in set(trials["temperature"])]
    values = []
    for experiment in present:
        rows = summary_rows(run, experiment)
        values += [say.each_value(rows[rows["problem"] == p]) for p in say.problems_of(rows)] if len(rows) else []
    paragraphs = [
        text("An automatic temperature takes no λ: at every iteration it chooses ") + r"$\lambda_t$"
        + text(
            " such that " + (say.series(rules) if rules else "its rule holds")
            + ". Its one constant was tuned on Hartmann-6 alone, by a rule written down before any of its trials ran "
            "(docs/auto-temperature.md); Shekel, Ackley, the battery and Formula E are out of sample. Each B3O "
            "variant with it is compared, paired by seed, with the same variant at the paper's λ (Table 2's on the "
            "synthetic functions)."
        ),
        " ".join(say.setup(run.per_trial, e) for e in present),
        " ".join(values) + (" " + say.shows([ref("automatic")], "the paired advantages").strip() if drawn else ""),
        say.verdicts(run.claims, present, CLAIMS_REF, "the claims beyond the paper"),
    ]
    table = final_table(
        run, present, "Final values, the automatic temperature against the paper's λ: mean [95\\,\\% CI] over seeds.",
        "automatic",
    )
    blocks = [figure("automatic")] if drawn else []
    if run.automatic is not None:
        tally = say.series([f"{r.variant} on {int(r.held)} of {int(r.problems)}"
                            for r in automatic_table.goal(run.automatic).itertuples()])
        paragraphs.append(
            text(
                f"It is shown to match or beat the paper's λ for {tally} problems run (the battery's EHVI counting for "
                "both; the goal set before the run: 4 of 5 for both). "
            )
            + r"Table~\ref{tab:automatic_outcome} sets each comparison beside what the two temperatures made of the "
            + text("density: the median λ_t the rule chose, the effective sample size of the Boltzmann weights and the "
                   "batch diversity relative to uniform draws.")
        )
        shown, header = automatic_table.for_paper(run.automatic)
        blocks.append(
            long_table(
                shown,
                header,
                "L{1.9cm} l L{1.3cm} Y L{1.6cm} L{2cm} L{1.6cm}",
                "The automatic temperature against the paper's λ per problem and variant, with both densities "
                "(medians over the iterations with $\\lambda_t > 0$).",
                "automatic_outcome",
                size=r"\footnotesize",
            )
        )
    return Section("A temperature that needs no tuning (beyond the paper)", [*paragraphs, *blocks, table], "automatic")


#: the experiments the sections above describe; any other (a user's own, a side question) gets `other`'s subsection
DESCRIBED = ("synthetic_b100", "synthetic_b5", horizon_table.DEFAULT.experiment, "lambda_ablation", "sampler_ablation",
             "battery", "formula_e", *AUTOMATIC)


def other(run: Run) -> Section | None:
    """Every experiment no section above describes: its setup, final values, progress figure and claims, so a
    config of one's own (or a side question such as config/collapsed_fit.yaml) is reported, not left out."""
    present = [e for e in run.experiments() if e not in DESCRIBED]
    if not present or run.per_trial is None:
        return None
    parts = []
    for experiment in present:
        claims = [say.verdicts(run.claims, [experiment], CLAIMS_REF, "the claims")]
        parts += one_experiment(run, experiment, text(experiment_title(experiment)), f"progress_{experiment}", claims)
    return Section("The study's experiments" if run.study else "Further experiments", parts, "other")


def beyond_paper(title: str, run: Run) -> str:
    """A section's title, marked as beyond the paper in a reproduction's report (a study's has no paper to go beyond)."""
    return title if run.study else f"{title} (beyond the paper)"


def recommended(run: Run) -> Section | None:
    """What a user gets: the regret of the point each method recommends, beside the paper's regret of the best point
    it evaluated; only for a run whose records carry it (its figure was drawn with data)."""
    if not run.has_figure("anytime_recommended") or run.per_iteration is None:
        return None
    carried = run.per_iteration[run.per_iteration["recommended_regret"].notna()]
    table = recommended_table(run.per_iteration)
    parts = [
        ("The regret figures above score" if run.study else "The paper scores")
        + " a method by the simple regret of the best point it has evaluated, which a user cannot pick "
        "out without knowing the optimum; what a user gets is the point the method recommends, here the evaluated "
        "point of best posterior mean, chosen from the data before each batch and, after the last one, from a final "
        "fit on all the data. The two differ wherever the model's mean ranks the evaluated points otherwise than "
        f"their observed values, as under noise. {ref('anytime_recommended')} gives the recommended point's regret "
        "after every iteration, against evaluations and against iterations, for the methods whose records carry it "
        f"({say.series([text(label) for label in dict.fromkeys(carried['label'])])}); the regret figures above give "
        "the best evaluated point's."
        + (r" Table~\ref{tab:recommended} sets the two side by side at each trial's last iteration." if len(table)
           else ""),
        figure("anytime_recommended"),
    ]
    if len(table):
        shown = blank_repeats(blank_repeats(table, "Problem", within="Experiment"), "Experiment")
        parts.append(long_table(
            shown, [text(c) for c in shown.columns], "L{2.6cm} l Y l l r",
            r"Simple regret at the last iteration, of the best evaluated point and of the recommended point: mean "
            r"[95\,\% CI] over the seeds that have both.", "recommended",
        ))
    return Section(beyond_paper("The recommended point's regret", run), parts, "recommended")


def recommended_table(iterations: pd.DataFrame) -> pd.DataFrame:
    """Per (experiment, problem, method) with recommended regret at its trials' last iteration: the mean and CI of
    both regrets over the trials that have both."""
    final = iterations.groupby(["experiment", "trial_id"])["iteration"].transform("max")
    last = iterations[iterations["iteration"] == final]
    both = last[last["recommended_regret"].notna() & (last["metric"] == "simple_regret")]
    rows = []
    for (experiment, problem, label), trials in both.groupby(["experiment", "problem", "label"], sort=False):
        rows.append({
            "Experiment": experiment_title(experiment), "Problem": problem_title(problem), "Method": label,
            "Best evaluated": with_ci(*bootstrap_ci(trials["value"])),
            "Recommended": with_ci(*bootstrap_ci(trials["recommended_regret"])), "Seeds": len(trials),
        })
    return pd.DataFrame(rows, columns=["Experiment", "Problem", "Method", "Best evaluated", "Recommended", "Seeds"])


def across(run: Run) -> Section | None:
    """Every method on one scale across problems (`analysis.statistics.scores`) at each experiment's final budget, its
    performance profiles, and each claim's verdict along the budget (`analysis.claims.verdicts_along`)."""
    table = across_table(run.scores) if run.scores is not None else pd.DataFrame()
    strips = run.has_figure("anytime_verdicts")
    if not len(table) and not strips:
        return None
    parts = []
    if len(table):
        profiles = run.has_figure("score_profiles")
        parts += [
            text(
                "Each trial's gap to the optimum (the simple regret; "
                + ("on a problem without a known optimum" if run.study else "on the battery and Formula E")
                + " the gap to the best value any trial of the run reached) is divided by Random's median gap at the same number of "
                "evaluations on the same problem: 0 is the optimum, 1 is random search's median. A method's score is "
                "the mean over its problems of its mean score, with a 95 % stratified-bootstrap interval (seeds "
                "resampled within each problem). "
            )
            + r"Table~\ref{tab:scores} gives it at each experiment's final budget"
            + (f" and {ref('score_profiles')} the performance profiles" if profiles else "")
            + text(". The scores are unpaired across methods (Random's median is one number per budget), so they "
                   "complement the paired verdicts, not replace them."),
            long_table(
                blank_repeats(blank_repeats(table, "Problems", within="Experiment"), "Experiment"),
                [text(c) for c in table.columns], "L{3.2cm} L{3.4cm} l Y r",
                r"Normalised score at each experiment's final budget (0: the optimum; 1: Random's median): mean over "
                r"problems [95\,\% stratified-bootstrap CI], best first.", "scores",
            ),
        ]
        if profiles:
            parts.append(figure("score_profiles"))
    if strips:
        parts += [
            (f"{ref('anytime_verdicts')} gives each claim's verdict had the run stopped at each budget: where along the "
             "budget a claim holds, is open or fails, with the run's planned looks."),
            figure("anytime_verdicts"),
        ]
    return Section(beyond_paper("Across problems and along the budget", run), parts, "across")


def across_table(scores: pd.DataFrame) -> pd.DataFrame:
    """The aggregate scores at each experiment's last budget: experiment, problems (by name), method, score with its
    interval and the number of (problem, seed) runs, the lowest score first within an experiment."""
    rows = [
        {
            "Experiment": experiment_title(r.experiment),
            "Problems": ", ".join(problem_title(p.strip()) for p in str(r.problems).split(",")),
            "Method": r.label, "Score": with_ci(r.mean, r.lo, r.hi), "Runs": int(r.runs),
        }
        for r in final(scores).itertuples()
    ]
    return pd.DataFrame(rows, columns=["Experiment", "Problems", "Method", "Score", "Runs"])
