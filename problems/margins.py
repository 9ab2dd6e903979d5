"""Equivalence margins: when two methods count as tied on a problem's headline metric (`problems/margins.yaml`).

The yaml file is the margins' one versioned home, written before the trials it judges; `analysis.claims` checks that
with git (`margins_commit`). Its rule: simple regret shrinks toward zero along the horizon, so a fixed difference
that is "small" at six iterations is larger than the regret itself at fifty; two regrets tie when, on the typical seed,
they are within a factor (`regret_ratio`) of each other, which means the same at every horizon. Hypervolume and the Formula E
score do not shrink toward zero, so a fixed difference (`absolute`) keeps its meaning there.

A margin turns a pair of per-seed values into two series whose medians are both positive exactly when the methods
tie on the typical seed (`Margin.sides`), so the tie is two one-sided sign tests, as for the absolute margin's d + δ
and δ − d. For the ratio ρ they are log ρ − log(a/b) and log ρ + log(a/b) (a, b the two methods' regrets): the median
per-seed log ratio within ±log ρ. Their means (the geometric means within a factor ρ, the scale before) cannot be
tested at their size when a method has rare stuck seeds (`analysis.statistics.verdicts.margin_one_sided`). The
linearised series before, ρ·b − a and ρ·a − b (arithmetic means), are a difference of two skewed regrets whose skew differs when their
spreads do: at log-SDs 1.5 against 0.25 its non-inferiority test declared "matches" at the margin several times as
often as α/2 (the rule before's rows of `paper/tables/verdict_size.csv`), and no test of arithmetic means holds its
size there at a few seeds. The log ratio of two regrets of
any spreads is one paired series, whose sign test holds its size whatever its shape (`analysis.claims.verdict_size`).
`python -m problems.margins` recomputes the absolute hypervolume margin from the problem alone.
"""

from __future__ import annotations

import argparse
import math
import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import yaml

FILE = Path(__file__).with_suffix(".yaml")
#: the metric a ratio margin applies to (zero at the known optimum)
RATIO_METRIC = "simple_regret"
#: the scale a ratio margin is on (the yaml's `regret_ratio_on`): the engine tests the median of `Margin.sides`
RATIO_SCALE = "median_log_ratio"
#: the design an absolute hypervolume margin is derived at: seeds 0 .. REFERENCE_SEEDS − 1, this many points
REFERENCE_SEEDS = 32
REFERENCE_N_INIT = {"battery": 40}
FRACTION = 0.05


@dataclass(frozen=True)
class Margin:
    """A tie rule: "ratio" (means within a factor `value` of each other) or "absolute" (within ±`value`)."""

    kind: str
    value: float
    reason: str

    def sides(self, a: np.ndarray, b: np.ndarray, lower_is_better: bool) -> tuple[np.ndarray, np.ndarray]:
        """Per seed, (A not worse than B by more than the margin, A not better by more than it): two series whose
        medians are both > 0 exactly when A and B tie; the first alone is A's non-inferiority. For a ratio, on the log
        scale: log ρ − log(a/b) and log ρ + log(a/b) (NaN pairs stay NaN)."""
        a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
        if self.kind == "ratio":
            if not lower_is_better:
                raise ValueError("a ratio margin is for regret (lower is better, zero at the optimum)")
            if np.any(a <= 0) or np.any(b <= 0):
                raise ValueError("a ratio margin compares positive regrets: a regret of 0 or below has no log ratio")
            log_ratio = np.log(a) - np.log(b)
            return np.log(self.value) - log_ratio, np.log(self.value) + log_ratio
        d = b - a if lower_is_better else a - b
        return d + self.value, self.value - d

    def far_below(self, factor: float) -> float:
        """How far below 0 a side of `sides` lies when that method ends `factor` times the margin's own reach behind
        the other on the seed: a regret ratio of `factor` or more (log factor − log ρ), or a shortfall of `factor`
        margins or more ((factor − 1)·margin); the tail guard's far seeds (`analysis.statistics.tail`)."""
        return math.log(factor) - math.log(self.value) if self.kind == "ratio" else (factor - 1.0) * self.value

    def bound(self, b_mean: float) -> float:
        """The margin in the metric's units beside B's mean: how far A's mean may fall behind B's and still be
        non-inferior ((ρ − 1)·|B's mean| for a ratio), for figures that draw it on the advantage's axis."""
        return (self.value - 1.0) * abs(b_mean) if self.kind == "ratio" else self.value

    def text(self) -> str:
        """How the margin prints: "×1.25" (a ratio) or "±0.005" (absolute)."""
        return f"×{self.value:g}" if self.kind == "ratio" else f"±{self.value:.3g}"


@cache
def _file() -> dict:
    return yaml.safe_load(FILE.read_text())


RULE: str = _file()["rule"]


def margin(problem: str, metric: str = RATIO_METRIC) -> Margin | None:
    """The tie rule for `metric` on `problem`: the regret ratio for simple regret, else the problem's absolute
    margin; None where the file gives none."""
    data = _file()
    if metric == RATIO_METRIC:
        if data.get("regret_ratio_on") != RATIO_SCALE:
            raise ValueError(f"{FILE}: regret_ratio_on must be {RATIO_SCALE!r}, the scale Margin.sides tests on")
        return Margin("ratio", float(data["regret_ratio"]), "regret within a factor of each other: " + data["rule"])
    found = data["absolute"].get(problem)
    return None if found is None else Margin("absolute", float(found["value"]), found["reason"])


def tuning_margin(problem: str) -> float:
    """The earlier rule's regret margin, kept for the automatic temperature's tuning written down with it."""
    return float(_file()["tuning_regret"][problem])


def _values(text: str) -> dict:
    """The margins a version of the file sets: everything but the rule's sentence, whose wording sets no margin."""
    return {key: value for key, value in (yaml.safe_load(text) or {}).items() if key != "rule"}


def margins_commit(root: Path | None = None) -> tuple[str, int] | None:
    """(sha, commit time in Unix seconds) of the last commit that changed a margin in the file (a commit that only
    rewords the rule's sentence changes none); None outside git or when the file has uncommitted changes (then no
    trial can be shown to postdate it)."""
    root = FILE.parent if root is None else root

    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True).stdout

    try:
        if git("status", "--porcelain", "--", str(FILE)).strip():
            return None
        top = Path(git("rev-parse", "--show-toplevel").strip())
        log = [line.split() for line in git("log", "--format=%H %ct", "--", str(FILE)).splitlines()]
        current = _values(FILE.read_text())
        found = None
        for sha, when in log:  # newest first: the oldest commit of the run that sets today's values
            if _values(git("show", f"{sha}:{FILE.resolve().relative_to(top.resolve()).as_posix()}")) != current:
                break
            found = sha, int(when)
    except (OSError, ValueError, subprocess.CalledProcessError, yaml.YAMLError):
        return None
    return found


def derive(problem: str, n_init: int | None = None, seeds: int = REFERENCE_SEEDS) -> float:
    """FRACTION of the median hypervolume of the runner's initial design: the absolute margin of a problem
    without a known optimum, from the problem alone."""
    import problems
    from problems.design import trial_design

    built = problems.get(problem)
    n = REFERENCE_N_INIT[problem] if n_init is None else n_init
    values = [built.hypervolume(built.evaluate(trial_design(built, n, seed))) for seed in range(seeds)]
    return FRACTION * float(np.median(values))


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m problems.margins", description=__doc__.splitlines()[0])
    cli.add_argument("problems", nargs="*", default=list(REFERENCE_N_INIT), help="problems to derive")
    args = cli.parse_args(argv)
    for name in args.problems:
        stored = margin(name, "hypervolume")
        print(f"{name}: derived {derive(name):.3g}, stored {stored.value if stored else None}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
