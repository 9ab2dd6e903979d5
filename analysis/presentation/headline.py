"""The answer told first: per problem of the paper-horizon run, one plain sentence, then a leaderboard and the stuck
and basin readings, from its headline table alone (`analysis.tables.headline`), for the README's results and the
site's index (one owner of the words).

The sentence says who ends lower than TS on most seeds, by how much (the median final regrets) and how sure (the
exact sign test of P(B3O ends below TS) = ½, Holm over the checkpoint's comparisons, as `analysis.tables.robust`
decides it), and what the paper's reading (the mean per-seed advantage) decides there. The leaderboard gives each
method's final regret (median [IQR], IQM), P(ends below TS) [95 % CI] with whether it is decided, and the basin
reading. The stuck-seed reading is the pre-registered one, shown with its defect where its threshold lies above every
regret the problem can take; the basin reading is defined from the problem and labelled post hoc.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import yaml

from analysis.formatting import number, series
from analysis.naming import problem_title
from analysis.presentation.deviations import SETTINGS
from analysis.presentation import confirmation_block
from analysis.statistics.confirmation import PLAN_FILE

#: where the readings' rule lives, as a reader is pointed to it
RULE = "analysis/statistics/robust_readings.yaml"
#: the page that says what every word of the results means
GLOSSARY = "docs/glossary.md"
#: the config of the paper-horizon run, whose model's inducing points the scale sentence names
CONFIG = "config/large_batch.yaml"
#: the paper's inducing points (App. B)
PAPER_INDUCING = 500
#: the paper's large-batch setting (Sec. 6.1), as `analysis.presentation.deviations` records it: (N₀, T, B, seeds)
PAPER_SCALE = tuple(
    next(s.paper for s in SETTINGS if s.experiment == "synthetic_b100" and s.name == name)
    for name in ("initial points N₀", "iterations T", "batch size B", "seeds")
)
#: the check of M = 500 against M = 64 on part of the run (`analysis.tables.m_check`) and its per-trial table
M_CHECK = "paper/large_batch_m500/tables/m_check.csv"
M_CHECK_TRIALS = "paper/large_batch_m500/tables/per_trial.csv"
#: the fresh-seed confirmation of this run's exploratory readings: its decided readings once published, and its plan
CONFIRMATION = "paper/large_batch_confirm/tables/confirmation.csv"
CONFIRMATION_PLAN = "analysis/statistics/confirmation.yaml"
#: the figure that answers, beside the headline table in its run's figures
FIGURE = "improvement_along.png"
#: the typical seed's reading in the leaderboard's words
TYPICAL = {"ahead": "decided: ends lower", "behind": "decided: ends higher", "open": "not decided"}
#: the mean's verdict of "B3O beats the rival" in the sentence's words
MEAN_SAYS = {"holds": "B3O ahead", "does not hold": "B3O not ahead"}
#: the leaderboard's columns, in order
COLUMNS = ("problem", "method", "final regret: median [IQR]", "IQM", "P(ends below TS) [95 % CI]",
           "sign test at t = 50", "ends in the global basin (post hoc)")


def _share(r) -> str:
    return f"{r.share:.2f} [{r.share_lo:.2f}, {r.share_hi:.2f}]"


def _spread(lo: float, hi: float, shown=number) -> str:
    """'lo–hi', or one value where both show the same."""
    return shown(lo) if shown(lo) == shown(hi) else f"{shown(lo)}–{shown(hi)}"


def _p(value: float) -> str:
    return f"{value:.2f}"


def _names(rows: pd.DataFrame) -> str:
    return series(list(rows["label"]))


def sentence(rows: pd.DataFrame) -> str:
    """One problem's answer: who ends lower than TS on most seeds and how sure, by how much, and the mean's verdict."""
    first = rows.iloc[0]
    rival, t = first.rival, int(first.t)
    ahead, behind, open_ = (rows[rows["reading"] == r] for r in ("ahead", "behind", "open"))
    parts = []
    if len(ahead):
        verb = "ends" if len(ahead) == 1 else "end"
        parts.append(f"{_names(ahead)} {verb} below {rival} on most seeds "
                     f"(P {_spread(ahead['share'].min(), ahead['share'].max(), _p)}, decided)")
    if len(behind):
        verb = "ends" if len(behind) == 1 else "end"
        parts.append(f"{_names(behind)} {verb} above {rival} on most seeds "
                     f"(P(below) {_spread(behind['share'].min(), behind['share'].max(), _p)}, decided)")
    if len(open_):
        parts.append(f"{_names(open_)} not decided (P {_spread(open_['share'].min(), open_['share'].max(), _p)})")
    split = rows["verdict"].nunique() > 1  # then each verdict names its variants, so a reader knows which
    tally = ", ".join(f"{MEAN_SAYS.get(v, v)} for " + (_names(group) if split else f"{len(group)} of {len(rows)}")
                      for v, group in sorted(rows.groupby("verdict"), key=lambda item: -len(item[1])))
    return (
        f"{'; '.join(parts)}. Median final regret: {rival} {number(first.rival_final_median)}, B3O "
        f"{_spread(rows['final_median'].min(), rows['final_median'].max())}. By the mean at t = {t} (the paper's "
        f"reading): {tally}."
    )


def bullets(table: pd.DataFrame) -> list[tuple[str, str]]:
    """(problem's title with its readings' status, its sentence) per problem, in the table's order."""
    return [
        (problem_title(problem), f"{' / '.join(sorted(set(rows['status'])))}: {sentence(rows)}")
        for problem, rows in table.groupby("problem", sort=False)
    ]


def _basin(count: float, n: int) -> str:
    return "–" if math.isnan(count) else f"{int(count)} of {n}"


def leaderboard(table: pd.DataFrame) -> pd.DataFrame:
    """Per problem, TS then each B3O variant: final regret median [IQR] and IQM, P(ends below TS) [95 % CI], the
    sign test's reading at the last checkpoint, the seeds that end in the global optimum's basin."""
    rows = []
    for problem, own in table.groupby("problem", sort=False):
        first = own.iloc[0]
        title = problem_title(problem)
        rows.append({
            "problem": title, "method": first.rival,
            COLUMNS[2]: f"{number(first.rival_final_median)} [{number(first.rival_final_q1)}, "
                        f"{number(first.rival_final_q3)}]",
            "IQM": number(first.rival_final_iqm), COLUMNS[4]: "–", COLUMNS[5]: "(the rival)",
            COLUMNS[6]: _basin(first.rival_basin, int(first.rival_n)),
        })
        for r in own.itertuples():
            rows.append({
                "problem": title, "method": r.label,
                COLUMNS[2]: f"{number(r.final_median)} [{number(r.final_q1)}, {number(r.final_q3)}]",
                "IQM": number(r.final_iqm), COLUMNS[4]: _share(r), COLUMNS[5]: TYPICAL[r.reading],
                COLUMNS[6]: _basin(r.basin, int(r.stuck_n)),
            })
    return pd.DataFrame(rows, columns=list(COLUMNS))


def inducing(config: Path | None = Path(CONFIG)) -> int | None:
    """A run's inducing points M, from its config (default: the paper-horizon run's; None where the config is not at
    hand or sets none)."""
    if config is None or not Path(config).is_file():
        return None
    found = (yaml.safe_load(Path(config).read_text()).get("defaults") or {}).get("model") or {}
    return int(found["num_inducing"]) if "num_inducing" in found else None


def scale(table: pd.DataFrame) -> tuple[int, int, int, int]:
    """The run's (N₀, T, B, paired seeds), the one reading of its scale that `intro` and `answer_line` compare with
    the paper's (`PAPER_SCALE`)."""
    first = table.iloc[0]
    return int(first.n_init), int(first.iterations), int(first.batch_size), int(table["stuck_n"].max())


def intro(table: pd.DataFrame, m: int | None = None) -> str:
    """The opening sentence: the run's scale, as the paper's and where not, and what the readings are."""
    first, run_scale = table.iloc[0], scale(table)
    seeds = run_scale[3]
    where = ("At the paper's horizon" if run_scale == PAPER_SCALE else
             "At N₀ = {}, T = {}, B = {} and {} seeds the paper's large-batch study has".format(*PAPER_SCALE) + ", here")
    model = f", a sparse GP of M = {m} inducing points (the paper's {PAPER_INDUCING})" if m is not None else ""
    return (
        f"{where}, N₀ = {int(first.n_init)} points then T = {int(first.iterations)} batches of "
        f"B = {int(first.batch_size)}, {seeds} paired seeds{model}: does a seed of B3O end with a lower "
        f"regret than the same seed of {first.rival}? Decided by an exact sign test of P(B3O ends below "
        f"{first.rival}) = ½, Holm over the checkpoint's comparisons; each interval is its comparison's own 95 % "
        f"(Clopper–Pearson), so one clear of ½ may stay undecided after Holm (rule: `{RULE}`)."
    )


def m_check_note(root: Path = Path(".")) -> str:
    """What the M = 500 check found, in a clause for the scale sentence; empty before it has run."""
    path, trials = root / M_CHECK, root / M_CHECK_TRIALS
    table = pd.read_csv(path) if path.is_file() else pd.DataFrame()
    if "m_changes_the_answer" not in table or not trials.is_file():
        return ""
    shift = table.iloc[0]
    problems = series([problem_title(p) for p in pd.read_csv(trials)["problem"].unique()])
    found = "changed the answer" if shift["m_changes_the_answer"] == "yes" else "was not shown to change the answer"
    return (f" Checked at M = {PAPER_INDUCING} on {problems}, {int(shift['n'])} seeds (`{M_CHECK}`): M {found} "
            f"({shift['verdict']}: too few seeds to show either way).")


def replicated(root: Path = Path(".")) -> str | None:
    """What the published confirmation found, counted (`confirmation_block.tally`: after which look, how many readings
    replicated, did not, are still open); None before it publishes."""
    path = root / CONFIRMATION
    return confirmation_block.tally(pd.read_csv(path)) if path.is_file() else None


def confirmation_note(root: Path = Path("."), plan: Path = PLAN_FILE) -> str:
    """What the fresh-seed confirmation found, once its table is published under `root`, or that it is running (its
    `plan` is committed and no look is published yet); empty without a plan."""
    found = replicated(root)
    if found is not None:
        return f" On fresh seeds (the confirmation, `{CONFIRMATION}`), {found}."
    if not plan.is_file():
        return ""
    return (" A confirmation of the exploratory readings on fresh seeds is running, its plan committed before its "
            f"first trial (`{CONFIRMATION_PLAN}`); until it publishes, they stay exploratory.")


def checks_note(root: Path = Path(".")) -> str:
    """The M = 500 check's and the fresh-seed confirmation's clauses, for the scale sentence."""
    return m_check_note(root) + confirmation_note(root)


def answer_line(table: pd.DataFrame, root: Path = Path("."), link: str | None = "#results-at-a-glance") -> str:
    """The whole answer in one sentence, for the top of the README: for how many problem-variant pairs B3O ends below
    the rival on most paired seeds (decided), above it, or neither, per problem; and how sure (which readings were
    pre-registered, and what the fresh-seed confirmation found, or that it is running); `link`: where the details are
    (None: nowhere, the page itself shows them)."""
    if table.empty:
        return EMPTY
    first, run_scale = table.iloc[0], scale(table)
    where = ("at the paper's horizon" if run_scale == PAPER_SCALE
             else "at N₀ = {}, T = {}, B = {}, {} seeds".format(*run_scale))
    ahead, behind, open_ = (table[table["reading"] == r] for r in ("ahead", "behind", "open"))
    per = ", ".join(f"{problem_title(p)} {int((rows['reading'] == 'ahead').sum())} of {len(rows)}"
                    for p, rows in table.groupby("problem", sort=False))
    planned = series([problem_title(p) for p in table.loc[table["status"] == "pre-registered", "problem"].unique()])
    sure = f"only {planned}'s readings were pre-registered" if planned else "no reading was pre-registered"
    found = replicated(root)
    sure += f"; on fresh seeds, {found}" if found is not None else "; the rest are being confirmed on fresh seeds"
    against = "; ".join(f"{r.label} on {problem_title(r.problem)}" for r in behind.itertuples())
    return (
        f"**The answer, in one line:** {where} (B = {int(first.batch_size)}, T = {int(first.iterations)}, "
        f"{run_scale[3]} paired seeds), B3O ends below {first.rival} on most seeds for {len(ahead)} of its {len(table)} "
        f"problem–variant pairs (decided; {per})"
        + (f", above {first.rival} for {len(behind)} ({against})" if len(behind) else "")
        + f", neither shown for {len(open_)}; {sure}" + (f" ([results at a glance]({link}))." if link else ".")
    )


def stuck_line(table: pd.DataFrame) -> str:
    """The pre-registered stuck-seed reading per problem, with its defect where its threshold lies above every
    regret the problem takes (there it cannot flag a seed)."""
    parts = []
    for problem, rows in table.groupby("problem", sort=False):
        first = rows.iloc[0]
        threshold = first.k * first.typical
        counts = f"{first.rival} {int(first.rival_stuck)} of {int(first.rival_n)}, B3O " + _spread(
            rows["stuck"].min(), rows["stuck"].max()) + f" of {int(rows['stuck_n'].max())}"
        text = f"{problem_title(problem)} (threshold {number(threshold)}): {counts}"
        if not math.isnan(first.regret_bound) and threshold > first.regret_bound:
            text += (f" — **a defect**: the threshold lies above the largest regret the problem takes "
                     f"({number(first.regret_bound)} on a Sobol design of its domain), so the rule cannot flag a seed "
                     "there")
        parts.append(text)
    k = number(table["k"].iloc[0])
    return (f"Stuck seeds (pre-registered: final regret above {k} × the problem's typical final regret, `{RULE}`): "
            + "; ".join(parts) + ".")


def basin_line(table: pd.DataFrame) -> str:
    """What the basin reading is, per problem its threshold, and its status."""
    known = table.drop_duplicates("problem").dropna(subset=["basin_regret"])
    if known.empty:
        return ""
    thresholds = ", ".join(f"{problem_title(r.problem)} {number(r.basin_regret)}" for r in known.itertuples())
    return (
        "Global basin (post hoc: defined from the problem, read after these records were seen): a seed ends in the "
        "global optimum's basin when its final regret is below the regret of the problem's best local maximum that is "
        f"not global ({thresholds}); pre-registered on fresh seeds in `{CONFIRMATION_PLAN}`."
    )


#: what the paragraph says when the run has no decided checkpoint yet
EMPTY = "No checkpoint of the paper-horizon run is decided yet."


def markdown_table(frame: pd.DataFrame) -> list[str]:
    """A frame as markdown table lines, a problem's name only on its first row."""
    lines = ["| " + " | ".join(frame.columns) + " |", "|" + "---|" * len(frame.columns)]
    shown = ""
    for _, r in frame.iterrows():
        cells = [str(v) for v in r]
        if cells[0] == shown:
            cells[0] = ""
        else:
            shown = cells[0]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def lines(table: pd.DataFrame, m: int | None = None, figure: str | None = None, m_check: str = "") -> list[str]:
    """The answer as markdown lines: the opening sentence, a sentence per problem, the leaderboard, the stuck and basin
    readings, the figure (`figure`: its path) and where the words are explained."""
    if table.empty:
        return [EMPTY]
    out = [intro(table, m) + m_check + f" Every word: [the glossary]({GLOSSARY}).", ""]
    out += [f"- **{title}**, {text}" for title, text in bullets(table)]
    out += ["", *markdown_table(leaderboard(table)), "", stuck_line(table), "", basin_line(table)]
    if figure:
        out += ["", f"![P(B3O ends below TS) per problem and variant at each checkpoint, decided filled]({figure})"]
    return out
