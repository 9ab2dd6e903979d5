"""One caption per figure, shared by the PDF report (`analysis.report`) and Snakemake's HTML report (the rules pass
it to `workflow/report/figure.rst`), so both say the same. Plain text (Unicode symbols, no markup): each report
escapes it for its own format. Numbers of a run are never here; the report's text gives them."""

from __future__ import annotations

from analysis.naming import experiment_title

# The two horizon figures' lower rows, drawn by the one `analysis.figures.horizon`, read the same.
_HORIZON_ROWS = (
    "Middle: batch diversity per iteration for every method. Bottom: each B3O variant's density sharpness "
    "λ_t·(α's 90th − 10th percentile over the reference set), geometric mean and 95% CI over seeds, log scale."
)

CAPTIONS = {
    "illustration_1d": (
        "Thompson sampling against B3O on a one-dimensional problem (Forrester) sharing one GP posterior. Top: "
        "posterior mean ±2σ, the truth, the data, a few Thompson trajectories and their maximisers (the TS batch). "
        "Bottom: the UCB acquisition α, the Boltzmann density p(x) ∝ exp(λα) and a B3O batch drawn from it with DEFER."
    ),
    "lambda_effect": (
        "How λ shapes a B3O batch: Boltzmann draws (black dots) on the UCB surface of a GP fitted to a few points of "
        "Branin, for three values of λ (same colour scale in every panel). Low λ spreads the batch almost "
        "uniformly; high λ concentrates it on the maxima of α."
    ),
    "theorem1": (
        "Theorem 1 measured: P[α(x*) − α(x) ≥ ε] under exact Boltzmann sampling against λ, one panel per dimension "
        "d. Markers: measured, with 95% Clopper-Pearson intervals (a downward triangle is a zero count at its upper "
        "limit); dashed: the bound exp(−λε + (d/2) log λ − log V), vacuous above 1 (shaded)."
    ),
    "regret_b100": (
        "Simple regret (noiseless, log scale) against function evaluations with large batches, one panel per "
        "problem: the median seed and the interquartile range (the middle half of the seeds; a mean on a log axis is carried by its worst seed), each trial read as best-so-far on a common evaluation grid."
    ),
    "paired_b100": (
        "Paired advantage of each B3O variant over TS with large batches: per-seed difference of final regret (same "
        "initial design), mean and unadjusted 95% BCa bootstrap CI at the common budget; right of zero, the variant is "
        "better. The claims decide these comparisons by tests, Holm-corrected. Title: the probability that one of the "
        "paper's four variants beats TS on a random problem and seed, with its stratified bootstrap CI."
    ),
    "diversity_b100": (
        "Batch diversity (mean pairwise distance in the scaled space) against BO iteration with large batches, "
        "mean and 95% CI over seeds."
    ),
    "automatic": (
        "The automatic temperature against the same B3O variant at the paper's λ (Table 2's on the synthetic "
        "functions), one panel per problem: per-seed advantage of the automatic temperature (same initial design), "
        "mean and unadjusted 95% BCa bootstrap CI; right of zero it is better, in the shaded band it is worse by more "
        "than the problem's margin. The claims decide these comparisons by tests, Holm-corrected per claim."
    ),
    "regret_horizon": (
        "Simple regret against function evaluations over 25 iterations of B = 50, one panel per problem: "
        "the median seed and the interquartile range (the middle half of the seeds; a mean on a log axis is carried by its worst seed)."
    ),
    "horizon_advantage": (
        "B3O against TS over 25 iterations of B = 50 (the default run stops at 6). Top: per-seed advantage of each "
        "constant-temperature B3O variant over TS (TS's simple regret minus B3O's, same initial design; above zero, "
        "B3O is better), mean and 95% BCa bootstrap CI over seeds; dotted lines mark the iterations t = 6, 12 and 25 "
        "at which the claims are decided. " + _HORIZON_ROWS
    ),
    "horizon_along": (
        "B3O against TS along a run's horizon (its setting in the title). Top: per-seed advantage of each B3O variant "
        "over TS (TS's simple regret minus B3O's, same initial design; above zero, B3O is better), mean and 95% BCa "
        "bootstrap CI over seeds; dotted lines mark the checkpoints at which claims 1 and 7 are decided along the "
        "horizon (the config's `horizon`). " + _HORIZON_ROWS
    ),
    "improvement_along": (
        "The answer along a run's horizon: per problem, at each checkpoint t, the share of paired seeds on which each B3O "
        "variant's simple regret is below TS's (the probability of improvement, rliable's reading made paired), with its "
        "exact 95% Clopper-Pearson interval. Filled: the exact sign test decides it after Holm over the checkpoint's "
        "comparisons; hollow: not decided (an interval clear of ½ can be hollow: Holm's level is stricter). Above ½, "
        "the variant ends lower than TS on most seeds."
    ),
    "confirmation": (
        "The exploratory readings on fresh seeds: per reading the confirmation's plan tested, the share of the counted "
        "fresh seeds that went B3O's way (typical seed: B3O's final regret below TS's on the seed; basin: of the seeds "
        "where only one of the two ends in the global optimum's basin, those where it is B3O), with its exact 95% "
        "Clopper-Pearson interval; a cross: the share the exploratory run saw on its 30 seeds. Filled: replicated "
        "(its one-sided exact test, Holm over the plan's readings, at its look's level); hollow: not replicated or "
        "still open."
    ),
    "seeds_along": (
        "Every seed beside the mean curves: at each checkpoint of a run read along its horizon, one point per seed and "
        "B3O variant, TS's simple regret minus the variant's on the seed they share (above zero, B3O ended lower). "
        "Symmetric-log axis, linear within the problem's typical final regret, so that one far seed does not flatten "
        "the rest; the share of points above zero is the headline's typical-seed reading."
    ),
    "regret_b5": (
        "Simple regret against function evaluations at B = 5, where B3O meets the batch methods that scale "
        "poorly in B (q-EI, local penalisation): the median seed and the interquartile range (the middle half of the seeds; a mean on a log axis is carried by its worst seed)."
    ),
    "diversity_b5": (
        "Batch diversity against BO iteration at B = 5 (rolling mean over iterations: single small batches are "
        "noisy), mean and 95% CI over seeds."
    ),
    "lambda_constant": (
        "Inverse-temperature ablation, constant λ: simple regret against evaluations for each λ run, rows = "
        "acquisition, columns = problems; mean and 95% CI over seeds."
    ),
    "lambda_scheduled": (
        "Inverse-temperature ablation, scheduled temperature λ_t = λ₀·√t·log t: simple regret against evaluations "
        "for each λ₀ run, rows = acquisition, columns = problems; mean and 95% CI over seeds."
    ),
    "sampler_ucb_c": "Sampler ablation for B3O-UCB-c: simple regret per Boltzmann sampler, mean and 95% CI over seeds.",
    "sampler_ucb_s": "Sampler ablation for B3O-UCB-s: simple regret per Boltzmann sampler, mean and 95% CI over seeds.",
    "sampler_logei_c": (
        "Sampler ablation for B3O-LogEI-c: simple regret per Boltzmann sampler, mean and 95% CI over seeds."
    ),
    "sampler_logei_s": (
        "Sampler ablation for B3O-LogEI-s: simple regret per Boltzmann sampler, mean and 95% CI over seeds."
    ),
    "battery": (
        "Battery electrode design (PyBaMM SPMe, two objectives): Pareto front of each method's median run (left) "
        "and hypervolume against evaluations (right; the gap to the best NSGA-II run when NSGA-II was run), mean "
        "and 95% CI over seeds."
    ),
    "formula_e": (
        "Formula E set-up on the Shanghai circuit: best objective ½·T/T₀ + ½·E/E₀ (lap time and energy relative "
        "to the default car; lower is better) against BO iterations (left) and evaluations (right), mean and 95% "
        "CI over seeds."
    ),
    "anytime_metric": (
        "The best evaluated point's metric after every iteration (simple regret, log scale, where the optimum is "
        "known; else hypervolume or best value), per experiment and problem: against function evaluations (left) and "
        "against iterations, 0 being the initial design (right); the median seed and the interquartile range (the middle half of the seeds; a mean on a log axis is carried by its worst seed)."
    ),
    "anytime_recommended": (
        "The simple regret of the point each method would recommend (the evaluated point of best posterior mean) "
        "after every iteration, on the axes of the best evaluated point's figure; only the methods whose records "
        "carry it. The median seed and the interquartile range over seeds."
    ),
    "anytime_ecdf": (
        "Runtime ECDFs: the fraction of (target, seed) pairs reached after each iteration, over 20 targets per problem "
        "log-evenly spaced from Random's median gap at the initial design to the smallest gap any trial reached. A "
        "problem with no such range (no positive gap below that easy end) or a single iteration has no panel; the "
        "title names one left out for want of targets."
    ),
    "score_profiles": (
        "Performance profiles of the normalised score (0: the optimum or the run's best; 1: Random's median at the "
        "same number of evaluations), per experiment and budget: the fraction of a method's (problem, seed) runs whose "
        "score is at most τ; further up and to the left is better."
    ),
    "anytime_verdicts": (
        "Each claim's verdict had the run stopped at each budget: the claims engine on the trials cut at that budget "
        "or, for claims 1 and 7 of a run read along its horizon, the verdict at each of its planned checkpoints t."
    ),
    "timing": (
        "Cost of one batch against batch size B on one fitted SVGP, log-log, with each method's fitted log-log slope "
        "in the legend (the title says how many repeats each point is); right: peak memory of the process."
    ),
}


def caption(figure: str) -> str:
    """The caption of `figure` (a figure name without extension); KeyError names an uncaptioned figure.

    `progress_<experiment>` is the generic figure of an experiment a user named (workflow/rules/common.smk)."""
    if figure.startswith("progress_"):
        experiment = figure.removeprefix("progress_")
        title = experiment_title(experiment)
        named = title[:1].upper() + title[1:] if title != experiment else f"Experiment {experiment}"
        return (
            f"{named}: each problem's simple regret (else hypervolume or best value) against evaluations, mean and 95% "
            "CI over seeds."
        )
    return CAPTIONS[figure]
