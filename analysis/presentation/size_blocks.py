"""The generated sections on the verdict rule's own error rates: its size and power (`verdict_size`, and the README's
sentence), and its family-wise error across planned looks (`familywise`), each from the table its simulation writes
(`analysis.claims.verdict_size`, `analysis.statistics.familywise`)."""

from __future__ import annotations

import math

import pandas as pd

from analysis.presentation.readme_blocks import generated
from analysis.statistics import verdicts
from analysis.claims.verdict_size import BEFORE, INDEPENDENT, OBSERVED, oversized


def verdict_size_block(table: pd.DataFrame, source: str) -> str:
    """The verdict rule's false-decision rate under the null (and power at one realistic effect) per n, beside the
    percentile-bootstrap rule it replaced, from `python -m analysis.claims.verdict_size` (the tie test's rows are in
    `verdict_size_line_block`'s sentence)."""
    table = table[table["kind"].isin(["size", "power"])]
    ns = sorted(table["n"].unique())
    rules = list(dict.fromkeys(table["rule"]))
    rows = []
    for (kind, distribution, sigma, effect), group in table.groupby(
        ["kind", "distribution", "sigma", "effect"], dropna=False, sort=False
    ):
        name = f"{distribution}" + (f" σ = {sigma:g}" if not math.isnan(sigma) else "")
        name = f"power, {name}, effect {effect:.2f} SD" if kind == "power" else f"size, {name}"
        rate = group.set_index(["rule", "n"])["rate"]
        rows.append(f"| {name} | " + " | ".join(" / ".join(f"{rate[r, n]:.3f}" for r in rules) for n in ns) + " |")
    replications = int(table["replications"].iloc[0])
    return generated(
        "verdict_size",
        source,
        [
            (
                f"Share of {replications:,} simulated comparisons decided (p < α = {verdicts.ALPHA:g}), "
                f"{' / '.join(rules)}:"
            ),
            "",
            "| per-seed differences | " + " | ".join(f"n = {n}" for n in ns) + " |",
            "|---" * (1 + len(ns)) + "|",
            *rows,
        ],
    )


def verdict_size_line_block(table: pd.DataFrame, source: str) -> str:
    """The verdict rule's size and power in one sentence (the README's; docs/results.md has the table)."""
    ours = table[table["rule"] == table["rule"].iloc[0]]
    size, power = ours[ours["kind"] == "size"], ours[ours["kind"] == "power"]
    worst = size.loc[size["rate"].idxmax()]
    mild = size[~(size["distribution"].eq(worst["distribution"]) & size["sigma"].eq(worst["sigma"]))]
    best = power.loc[power["n"].idxmax()]
    ns = sorted(size["n"].unique())
    heavy = f"{worst['distribution']}" + (f" σ = {worst['sigma']:g}" if not math.isnan(worst["sigma"]) else "")
    tie = _tie_sentence(table) + _tie_power_sentence(table)
    return generated(
        "verdict_size_line",
        source,
        [
            f"By simulation ({int(table['replications'].iloc[0]):,} comparisons per cell, {ns[0]}–{ns[-1]} seeds): "
            f"it decides at most {mild['rate'].max():.3f} of null comparisons at α = {verdicts.ALPHA:g} (up to "
            f"{worst['rate']:.3f} for {heavy} differences), and {best['rate']:.2f} of comparisons with a true "
            f"effect of {best['effect']:.2f} SD at {int(best['n'])} seeds." + tie
        ],
    )


def tail_guard_block(table: pd.DataFrame, source: str) -> str:
    """The tail guard in two sentences: what it costs a true tie and how much of a far tail it catches at the most
    seeds simulated, from `python -m analysis.claims.tail_guard_size`."""
    n = int(table["n"].max())
    at = table[table["n"] == n].set_index(["case", "verdict", "far_share"])

    def moved(case: str, verdict: str) -> str:
        shares = sorted(s for c, v, s in at.index if c == case and v == verdict and s > 0)
        return ", ".join(f"{s:.0%} far: {at.loc[(case, verdict, s), 'rule_alone']:.2f} → "
                         f"{at.loc[(case, verdict, s), 'with_guard']:.2f}" for s in shares)

    tie = at.loc[("typical tie", "tie", 0.0)]
    return generated(
        "tail_guard",
        source,
        [
            "Beside every tie and non-inferiority stands its tail: the seeds on which A ends worse, and better, than B "
            "beyond the margin, and the far ones (a regret ratio of 10 or more). The tail guard withholds a tie or "
            "non-inferiority whose far seeds show an excess beyond chance. By simulation at the runs' correlation "
            f"({int(tie['replications']):,} samples per cell, {n} seeds): it costs a true tie "
            f"{tie['rule_alone'] - tie['with_guard']:.3f} of its power; where a share of A's seeds end 1000 times worse, "
            f"the rate at which a tie on the typical seed is declared goes ({moved('typical tie', 'tie')}), and "
            "where A's other seeds are better by as much as puts the geometric means at the margin, the rate of "
            f"\"matches or beats\" goes ({moved('means at the margin', 'matches or beats')}). It catches a large tail, "
            "not a rare one: the tail counts beside each verdict are what to read."
        ],
    )


def familywise_block(table: pd.DataFrame, source: str) -> str:
    """The claims engine's family-wise error through planned looks, per seed plan and family size, from
    `python -m analysis.statistics.familywise`, with the plans' levels and the largest excess over α it shows."""
    families = sorted(table["family"].unique())
    rows = []
    for (looks, levels), group in table.groupby(["looks", "levels"], sort=False):
        error = group.set_index("family")
        rows.append(f"| {looks} | {levels.replace(',', ', ')} | "
                    + " | ".join(f"{error.loc[m, 'familywise_error']:.3f} ± {error.loc[m, 'mc_se']:.3f}" for m in families)
                    + " |")
    worst = table.loc[(table["familywise_error"] - verdicts.ALPHA).idxmax()]
    above = table[table["familywise_error"] > verdicts.ALPHA + 2 * table["mc_se"]]
    verdict = (
        "no cell exceeds α by more than two Monte Carlo SEs"
        if above.empty
        else f"{len(above)} of {len(table)} cells exceed α by more than two Monte Carlo SEs"
    )
    return generated(
        "familywise",
        source,
        [
            f"Family-wise error of the engine's split (each look's Pocock-type level, Holm over the comparisons open "
            f"there) with m comparisons under the null, {int(table['replications'].iloc[0]):,} simulated claims per "
            f"cell (± Monte Carlo SE); the largest is {worst['familywise_error']:.3f} (looks {worst['looks']}, "
            f"m = {int(worst['family'])}), and {verdict} (α = {verdicts.ALPHA:g}):",
            "",
            "| looks (seeds) | nominal levels | " + " | ".join(f"m = {m}" for m in families) + " |",
            "|---" * (2 + len(families)) + "|",
            *rows,
        ],
    )


def _tie_sentence(table: pd.DataFrame) -> str:
    """The tie and non-inferiority tests' size at the margin over the simulated spreads (`verdict_size.simulate_ties`):
    the largest rate, whether any cell exceeds α/2 by more than two Monte Carlo SEs, and the rule before beside."""
    table = at_the_runs_correlation(table)
    ties = table[table["kind"] == "tie size"]
    before = ties[ties["rule"] == BEFORE]
    ours = ties[ties["rule"] != BEFORE]
    shapes = [d for d in dict.fromkeys(ours["distribution"]) if d != "absolute"]
    if ours.empty:
        return ""
    spreads = ours[["sigma", "sigma_b"]].stack() if "sigma_b" in ours else ours["sigma"]
    ns = sorted(ours["n"].unique())
    worst = ours.loc[ours["rate"].idxmax()]
    over = oversized(table)
    where = f"{worst['distribution']} log regrets, log-SDs {worst['sigma']:g} vs {worst['sigma_b']:g}, " \
        if "sigma_b" in ours and not math.isnan(worst["sigma_b"]) else ""
    exceed = (
        "no cell exceeds α/2 by more than two Monte Carlo SEs"
        if over.empty
        else f"{len(over)} of {len(ours)} cells exceed α/2 by more than two Monte Carlo SEs, all with "
        + " or ".join(sorted(over["distribution"].unique())) + " log regrets"
    )
    text = (
        f" At the margin itself (the typical seed's log ratio of the regrets on it){_correlation_words(table)}, a tie (two one-sided exact sign "
        f"tests on the per-seed log ratio) or non-inferiority (the same on its first side) is declared at most {worst['rate']:.3f} of the time ({where}{int(worst['n'])} "
        f"seeds; nominal α/2 = {verdicts.ALPHA / 2:g}) over {len(ours)} cells ({int(ours['replications'].iloc[0]):,} "
        f"samples each: log-SDs {spreads.min():g}–{spreads.max():g} on either side, {ns[0]}–{ns[-1]} seeds, "
        f"{', '.join(shapes)} log regrets" + (", and normal differences at an absolute margin" if
                                               "absolute" in set(ours["distribution"]) else "") + f"); {exceed}."
    )
    if len(before):
        text += f" The linearised arithmetic test before reached {before['rate'].max():.3f} at unequal spreads."
    means = table[table["kind"] == "tie at the means' margin"]
    if len(means):
        rates = means.groupby("rule")["rate"].max()
        text += (
            " When a method has rare stuck seeds and the geometric means (not the typical seed) sit at the margin, "
            "which no test of a mean can hold its size against at these seeds, a tie is declared up to "
            + " and ".join(f"{rate:.3f} ({rule})" for rule, rate in rates.items()) + " of the time."
        )
    return text


def _tie_power_sentence(table: pd.DataFrame) -> str:
    """How often a true tie is found, by the tie test and the rule before (`verdict_size.simulate_ties`): with equal
    geometric means at each n simulated, and with one far seed at the most seeds simulated."""
    text = ""
    every = table[table["kind"] == "tie power"]
    if len(every):
        first = every.iloc[0]
        rules = list(dict.fromkeys(every["rule"]))

        def found(tie: pd.DataFrame) -> str:
            rates = tie.pivot(index="n", columns="rule", values="rate")
            return ", ".join(f"{n} seeds {' vs '.join(f'{rates.loc[n, r]:.2f}' for r in rules)}" for n in rates.index)

        tie = at_the_runs_correlation(every)
        text += (
            f" A true tie (equal geometric means, normal log regrets of log-SD {first['sigma']:g}) is found at "
            + found(tie) + f" ({' vs '.join(rules)})"
        )
        if "seeds_are" in every and (every["seeds_are"] == INDEPENDENT).any():
            text += f"; with independent seeds, at {found(every[every['seeds_are'] == INDEPENDENT])}"
        text += "."
    outlier = at_the_runs_correlation(table[table["kind"] == "tie power, one outlier"])
    outlier = outlier[outlier["n"] == outlier["n"].max()]
    if len(outlier):
        text += (
            f" With one far seed it is found at {int(outlier['n'].iloc[0])} seeds "
            + " vs ".join(f"{r.rate:.2f} ({r.rule})" for r in outlier.itertuples()) + "."
        )
    return text


def at_the_runs_correlation(table: pd.DataFrame) -> pd.DataFrame:
    """The tie rows simulated with the seeds correlated as the published runs' (a table without the column: as is)."""
    return table[table["seeds_are"] == OBSERVED] if "seeds_are" in table else table


def _correlation_words(table: pd.DataFrame) -> str:
    """", the paired seeds correlated as the published runs' (median Spearman ρ = 0.14 …)", or nothing."""
    if "correlation" not in table or table["correlation"].dropna().empty:
        return ""
    rho = table["correlation"].dropna().iloc[0]
    return (f", the paired seeds correlated as the published runs' (median Spearman ρ = {rho:.2f} of their paired "
            "final regrets, paper/tables/seed_correlation.csv)")
