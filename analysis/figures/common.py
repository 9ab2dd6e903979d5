"""What every figure script shares: the command line, loading, each method's colour and line style, panels at the
printed width, saving.

Every figure is drawn at the report's text width (`analysis.figures.printed`) with text no smaller than it may
print, so the report sets it unscaled. Colours and line styles are fixed per method name (`METHOD_STYLES`: B3O variants
solid, each baseline its own dark colour and dash pattern) so that a method looks the same in every figure. A figure
whose data are absent is still written, as a page that says what is missing, so a workflow that expects the file never
breaks on a partial table.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # before pyplot: figures are files, never windows

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.axes import Axes
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure

from analysis.naming import (  # noqa: F401 (ordered_problems and problem_title re-exported for the figures)
    display_labels,
    experiment_title,
    name_problems_in,
    ordered_problems,
    problem_title,
)
from analysis.figures import printed

#: every method's (colour, line style), in legend order: B3O variants solid; each baseline a dark colour and a dash
#: pattern of its own, so that none fades beside another (the sequential baselines never share a figure)
METHOD_STYLES: dict[str, tuple[str, str | tuple]] = {
    "B3O-UCB-c": ("tab:blue", "-"),
    "B3O-UCB-s": ("tab:orange", "-"),
    "B3O-LogEI-c": ("tab:green", "-"),
    "B3O-LogEI-s": ("tab:red", "-"),
    "B3O-LogEI-n": ("darkgoldenrod", "-"),
    "B3O-EHVI-c": ("tab:purple", "-"),
    "B3O-EHVI-s": ("tab:brown", "-"),
    "TS": ("mediumvioletred", "--"),
    "q-EI": ("black", "-."),
    "LP": ("teal", (0, (5, 1.5, 1, 1.5, 1, 1.5))),
    "Seq-EI": ("black", ":"),
    "Seq-EHVI": ("black", ":"),
    "LogEI-MV": ("black", ":"),
    "NSGA-II": ("dimgray", "-."),
    "Random": ("tab:gray", "--"),
}
LABEL_ORDER = tuple(METHOD_STYLES)
#: a user's own methods (labels `METHOD_STYLES` does not know), in the order `style_run` meets them: the first of these
#: colours far from every colour the run's other methods have (its package methods' included), each paired with a dash
#: pattern no known method uses, so that no two methods of a run share a colour
OWN_COLOURS = tuple(sns.color_palette("tab10")) + tuple(sns.color_palette("Dark2")) + tuple(sns.color_palette("husl", 24))
#: how far apart (RGB distance, 0 to √3) two methods' colours must be to be told apart at a glance
APART = 0.25
#: their dash patterns: long dashes, sparse dots, long-short, sparse dashes, none of them near "--" (3.7, 1.6),
#: ":" (1, 1.65), "-." (6.4, 1.6, 1, 1.6) or LP's (a user's first method once drew (4, 1.5), Random's "--" to the eye)
OWN_DASHES: tuple[tuple, ...] = ((0, (10, 3)), (0, (1, 4)), (0, (12, 2, 2, 2)), (0, (3, 5)))
_OWN: dict[str, tuple[tuple[float, ...], tuple]] = {}
EVALUATIONS = "Function evaluations"
REGRET = "Simple regret (objective units)"
#: the width every figure is drawn at: the report's text width
WIDTH = printed.TEXT_WIDTH_IN
#: text sizes (pt), the smallest above `printed.SMALLEST_FONT_PT` so that a figure a little wider than the text (its
#: tight bounding box) still prints them legibly
FONTS = {"small": 8.0, "normal": 9.0, "large": 10.0}

sns.set_theme(context="paper", style="whitegrid")
plt.rcParams.update(
    {
        "font.size": FONTS["normal"],
        "axes.titlesize": FONTS["normal"],
        "axes.labelsize": FONTS["normal"],
        "xtick.labelsize": FONTS["small"],
        "ytick.labelsize": FONTS["small"],
        "legend.fontsize": FONTS["small"],
        "legend.title_fontsize": FONTS["normal"],
        "figure.titlesize": FONTS["large"],
        "lines.linewidth": 1.6,
    }
)


TIDY = "tidy table (parquet) from analysis.data.tidy"


def parser(name: str, description: str, table_help: str | None = TIDY) -> argparse.ArgumentParser:
    """The shared command line: `--table` in (none if `table_help` is None), `--out` prefix (OUT.pdf and OUT.png).

    Every figure of the tidy table also accepts `--pareto`, so one command line serves them all (only the battery
    figure draws it).
    """
    cli = argparse.ArgumentParser(prog=f"python -m analysis.figures.{name}", description=description)
    if table_help is not None:
        cli.add_argument("--table", required=True, help=table_help)
    if table_help == TIDY:
        cli.add_argument("--pareto", help="pareto table (parquet) from analysis.data.tidy --pareto (battery figure)")
    cli.add_argument("--out", default=f"paper/figures/{name}", help="output prefix; writes OUT.pdf and OUT.png")
    return cli


def choice_main(
    argv: list[str] | None,
    name: str,
    description: str,
    option: str,
    choices: tuple[str, ...],
    curves: Callable[[pd.DataFrame, str], pd.DataFrame],
    draw: Callable[[pd.DataFrame, str], Figure],
    runs: Callable[[str], str],
) -> int:
    """The command line of a figure drawn for one value of one required option (a temperature, a variant): its
    curves from the tidy table, published, or a page naming the `runs(value)` the table lacks."""
    cli = parser(name, description)
    cli.add_argument(f"--{option}", choices=choices, required=True)
    args = cli.parse_args(argv)
    value = getattr(args, option)
    summary = curves(load_table(args.table), value)
    missing = f"No {runs(value)} in {args.table}." if summary.empty else None
    return publish(args.out, lambda: draw(summary, value), missing)


def load_table(path: str | Path) -> pd.DataFrame:
    """A parquet or CSV table, by its suffix, its labels spelled as names (`analysis.naming.display_labels`), its
    methods' styles fixed (`style_run`)."""
    path = Path(path)
    table = display_labels(pd.read_csv(path) if path.suffix == ".csv" else pd.read_parquet(path))
    if "label" in table:
        style_run(table["label"])
    name_problems_in(table)  # a user's problem is titled by its own name
    return table


def style_run(labels: Iterable[str]) -> None:
    """Give each of a run's labels that `METHOD_STYLES` does not know its own colour and dash pattern, in name order,
    so that every figure drawn from the run's tables shows one method alike and no two alike: its colour is the first
    of `OWN_COLOURS` at least `APART` from the colours of the run's package methods and of the user's methods before
    it (the one farthest from them if none is)."""
    methods = {method_of(label) for label in labels}
    taken = [to_rgb(METHOD_STYLES[m][0]) for m in methods & set(METHOD_STYLES)] + [to_rgb(c) for c, _ in _OWN.values()]
    for label in sorted(methods - set(METHOD_STYLES) - set(_OWN)):
        far = [c for c in OWN_COLOURS if _distance(c, taken) >= APART]
        chosen = far[0] if far else max(OWN_COLOURS, key=lambda c: _distance(c, taken))
        _OWN[label] = (chosen, OWN_DASHES[len(_OWN) % len(OWN_DASHES)])
        taken.append(to_rgb(chosen))


def _distance(colour: tuple[float, ...], others: list[tuple[float, ...]]) -> float:
    """The RGB distance from `colour` to the nearest of `others` (infinite without any)."""
    return min((float(np.linalg.norm(np.subtract(colour, other))) for other in others), default=float("inf"))


def note(message: str) -> None:
    """Tell the user (stderr) what was skipped and why."""
    print(f"note: {message}", file=sys.stderr)


def method_of(label: str) -> str:
    """The method a label shows: a label with the λ it ran at ("B3O-LogEI-c λ=0.1", as claims name members) is its
    variant, so a variant keeps one colour and one place whatever its λ on each problem."""
    return label.split(" λ=")[0]


def ordered(labels: Iterable[str]) -> list[str]:
    """Labels in the paper's order (B3O variants first), unknown ones after, alphabetically."""
    rank = {name: i for i, name in enumerate(LABEL_ORDER)}
    return sorted(set(labels), key=lambda label: (rank.get(method_of(label), len(rank)), label))


def colour(label: str) -> str | tuple[float, ...]:
    """The label's fixed colour (its method's, `method_of`; a user's own method's from `style_run`)."""
    return _style(label)[0]


def line_style(label: str) -> str | tuple:
    """The label's fixed line style (its method's; a user's own method's from `style_run`)."""
    return _style(label)[1]


def _style(label: str) -> tuple[str | tuple[float, ...], str | tuple]:
    label = method_of(label)
    if label not in METHOD_STYLES and label not in _OWN:
        style_run([label])  # a label no table of the run introduced: the next free style
    return METHOD_STYLES.get(label) or _OWN[label]


def grid(rows: Sequence, cols: Sequence, height: float = 2.4) -> tuple[Figure, dict]:
    """A rows x cols grid of panels keyed by (row, col), `WIDTH` wide, each panel `height` inches tall (with its
    labels); a title and a legend add their own height (`suptitle`, `legend_below`)."""
    fig, axes = plt.subplots(
        len(rows), len(cols), figsize=(WIDTH, height * len(rows)), layout="constrained", squeeze=False
    )
    return fig, {(r, c): axes[i, j] for i, r in enumerate(rows) for j, c in enumerate(cols)}


def panels(keys: Sequence, height: float = 2.4, columns: int = 3) -> tuple[Figure, dict]:
    """One panel per key, `columns` to a row (the unused ones of the last row hidden), with room for a legend below."""
    keys = list(keys)
    rows = -(-len(keys) // columns)
    fig, axes = grid(range(rows), range(min(columns, len(keys))), height)
    shown = {key: axes[divmod(i, columns)] for i, key in enumerate(keys)}
    for ax in axes.values():
        ax.set_visible(any(ax is panel for panel in shown.values()))
    return fig, shown


def band(
    ax: Axes,
    curve: pd.DataFrame,
    x: str,
    label: str,
    color: str | tuple[float, ...],
    style: str | tuple = "-",
    step: bool = False,
) -> None:
    """Mean line with its 95% CI as a shaded band (no band where the CI is NaN, i.e. a single seed)."""
    curve = curve.sort_values(x)
    where = "post" if step else None
    ax.plot(
        curve[x], curve["mean"], color=color, ls=style, label=label, drawstyle="steps-post" if step else "default"
    )
    ax.fill_between(curve[x], curve["lo"], curve["hi"], color=color, alpha=0.2, lw=0, step=where)


#: what a regret curve shows by default (`quartiles`): the median seed and the middle half of the seeds, which one far
#: seed cannot carry, as a mean on a log axis can; a figure that draws the mean says so in its title
QUARTILES = "median and interquartile range over seeds"


def quartiles(df: pd.DataFrame, by: Sequence[str], value: str, x: str) -> pd.DataFrame:
    """Median and quartiles of `value` over the rows (seeds) of each (`by`..., `x`) group, in the columns a band
    draws (`mean` holds the median, `lo` and `hi` the first and third quartiles) and `n`."""
    keys = list(by) + [x]
    data = df[df[value].notna()]
    if data.empty:
        return pd.DataFrame(columns=[*keys, "lo", "mean", "hi", "n"])
    grouped = data.groupby(keys, sort=True)[value]
    out = grouped.quantile([0.25, 0.5, 0.75]).unstack()
    out.columns = ["lo", "mean", "hi"]
    return out.assign(n=grouped.size()).reset_index()


def label_bands(ax: Axes, summary: pd.DataFrame, x: str, step: bool = False) -> None:
    """One mean line with its CI band per label of `summary`, in the paper's order, in the label's colour and style."""
    for label in ordered(summary["label"]):
        curve = summary[summary["label"] == label]
        band(ax, curve, x, label, colour(label), line_style(label), step=step)


def legend_columns(labels: Iterable[str], most: int = 5) -> int:
    """As many legend columns as entries of the longest label fit across `WIDTH` (at most `most`)."""
    labels = list(labels)
    longest = max((len(line) for label in labels for line in str(label).splitlines()), default=1)
    entry = longest * 0.55 * FONTS["small"] / 72 + 0.7  # the text, its line sample and the gaps (inches)
    return max(1, min(len(labels), most, int(WIDTH // entry)))


def taller(fig: Figure, lines: int, size: float) -> None:
    """Room for `lines` more lines of `size` pt text: the panels keep their height."""
    fig.set_figheight(fig.get_figheight() + lines * 1.4 * size / 72)


def legend_below(fig: Figure, axes: Iterable[Axes], title: str | None = None) -> None:
    """One legend for the whole figure, below the panels, without duplicate entries, in the order first drawn."""
    entries: dict[str, object] = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            entries.setdefault(label, handle)
    if entries:
        columns = legend_columns(entries)
        fig.legend(entries.values(), entries.keys(), loc="outside lower center", ncol=columns, title=title,
                   frameon=False)
        taller(fig, -(-len(entries) // columns) + (title is not None), FONTS["small"])


def wrap(text: str, size: float = FONTS["large"], width: float = WIDTH) -> str:
    """`text` broken into lines that fit across `width` inches (the figure's, by default) at `size` pt (each of its
    own lines apart)."""
    chars = int(width * 72 / (0.55 * size))
    return "\n".join(textwrap.fill(line, chars) for line in text.splitlines())


def suptitle(fig: Figure, title: str) -> None:
    """The figure's title above its panels, wrapped to its width."""
    text = wrap(title)
    fig.suptitle(text)
    taller(fig, text.count("\n") + 1, FONTS["large"])


def titled(fig: Figure, title: str, axes: Iterable[Axes]) -> Figure:
    """The figure with its title above the panels and one legend for them all below (`legend_below`)."""
    suptitle(fig, title)
    legend_below(fig, axes)
    return fig


def within_printed_height(fig: Figure, rows: int, smallest_row: float = 2.0) -> Figure:
    """The figure made no taller than the report sets a figure (`printed.FIGURE_HEIGHT` of the text height), by
    shrinking its `rows` rows of panels, not its text: a taller one is scaled down whole and its text prints below its
    drawn size. One that would need rows under `smallest_row` inches is left as drawn (too many rows for a page)."""
    cap = printed.FIGURE_HEIGHT * printed.TEXT_HEIGHT_IN
    for _ in range(3):  # constrained layout redistributes the panels at each new height
        fig.draw_without_rendering()  # the layout and text extents, no pixels
        tall = fig.get_tightbbox(fig.canvas.get_renderer()).padded(0.1).height  # as savefig's bbox_inches="tight"
        width, height = fig.get_size_inches()
        target = height - (tall - cap) - 0.02
        if tall <= cap or target < rows * smallest_row:
            break
        fig.set_size_inches(width, target)
    return fig


def empty_panel(ax: Axes, message: str) -> None:
    ax.text(0.5, 0.5, message, ha="center", va="center", wrap=True, transform=ax.transAxes)
    ax.set_xticks([])
    ax.set_yticks([])


#: the PDF subject of a figure without data, by which the report (analysis.report.inputs) leaves it out
NO_DATA = "b3o figure without data"


def message_figure(message: str) -> Figure:
    """A page saying why the figure has no data (so the expected file exists and explains itself); its PDF's subject
    is NO_DATA."""
    note(message)
    fig, ax = plt.subplots(figsize=(WIDTH, 2.0))
    fig.set_label(NO_DATA)
    ax.axis("off")
    ax.text(0.5, 0.5, message, ha="center", va="center", wrap=True, fontsize=FONTS["large"])
    return fig


def log_scale_if_positive(ax: Axes, values: np.ndarray) -> None:
    """Log y when all plotted values are positive (regret, time), linear otherwise."""
    values = np.asarray(values, dtype=np.float64)
    values = values[np.isfinite(values)]
    if len(values) and np.all(values > 0):
        ax.set_yscale("log")


def publish(out: str | Path, draw: Callable[[], Figure], missing: str | None = None) -> int:
    """Save `draw()` as OUT.pdf and OUT.png or, when `missing` says why there are no data, a page saying so; the exit
    status of a figure script."""
    save(message_figure(missing) if missing else draw(), out)
    return 0


def save(fig: Figure, out: str | Path) -> list[Path]:
    """Write OUT.pdf and OUT.png and close the figure."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    paths = [out.with_name(out.name + suffix) for suffix in (".pdf", ".png")]
    subject = {"Subject": NO_DATA} if fig.get_label() == NO_DATA else {}
    for path in paths:
        fig.savefig(path, dpi=200, bbox_inches="tight", metadata=subject if path.suffix == ".pdf" else {})
    plt.close(fig)
    print("wrote " + ", ".join(map(str, paths)))
    return paths


def experiment_at(table: pd.DataFrame, experiment: str) -> str:
    """ "the large-batch study at B = 50": the experiment's name, with its batch sizes where the name lacks them."""
    name, sizes = experiment_title(experiment), batch_size_text(table, experiment)
    return name if sizes in name else f"{name} at {sizes}"


def batch_size_text(table: pd.DataFrame, experiment: str) -> str:
    """ "B = 50" (or "B = 5, 10"): the batch sizes of an experiment's batch methods, for titles - the experiment
    names say what the paper ran (e.g. synthetic_b100), a reduced config may run smaller batches."""
    sizes = sorted(int(b) for b in table.loc[table["experiment"] == experiment, "batch_size"].unique() if b > 1)
    return "B = " + ", ".join(map(str, sizes)) if sizes else "sequential"
