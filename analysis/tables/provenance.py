"""Where a run's numbers come from: its trials, commits, numerical platforms, dates and cost, one row per item.

Read by the report's first page. Commits and platforms are listed with how many trials each made, so a run resumed
across commits, or records reused from another machine, shows as such. Each platform id gets a row of its own
("platform ID") saying, from its records, on which CPU and OS, with which Python and library versions and which BLAS
kernels it ran.
"""

from __future__ import annotations

import json
import re

import pandas as pd

from analysis.formatting import series
from analysis.tables import common

#: the tables the workflow writes with this script: name -> the experiment it needs (None: any; read unimported)
TABLES = {"provenance": None}


def provenance(table: pd.DataFrame) -> pd.DataFrame:
    """Rows (item, value): trials, experiments, commits and platforms (with their trial counts), the first and
    last trial's finish (UTC), core-minutes (the trials' wall times summed), the span from first to last finish,
    and each platform id in words (`describe`), where its records say what it was."""
    trials = table.drop_duplicates("trial_id")
    finished = pd.to_datetime(trials["finished_utc"], utc=True)
    span = (finished.max() - finished.min()).total_seconds() / 60 if len(finished) else float("nan")

    def counted(column: str, width: int | None = None) -> str:
        values = trials[column].fillna("unknown").str[:width]
        return "; ".join(f"{value} ({n} trials)" for value, n in values.value_counts().items())

    rows = [
        ("trials", str(len(trials))),
        ("experiments", ", ".join(dict.fromkeys(table["experiment"]))),
        ("commits", counted("git_sha", 12)),
        ("platforms", counted("platform_id")),
        ("first trial finished", str(finished.min())),
        ("last trial finished", str(finished.max())),
        ("core-minutes", common.number(trials["wall_s"].sum() / 60)),
        ("minutes from the first trial's finish to the last", common.number(span)),
    ]
    if "platform_detail" in trials:  # tidy tables made before the records' platforms were read lack it
        for platform, same in trials.groupby(trials["platform_id"].fillna("unknown"), sort=False):
            described = describe([json.loads(d) for d in same["platform_detail"].dropna().unique()])
            if described:
                rows.append((f"{PLATFORM}{platform}", described))
    return pd.DataFrame(rows, columns=["item", "value"])


#: the item naming a platform id's description
PLATFORM = "platform "
#: threadpoolctl's name of a BLAS library -> its own
BLAS_NAMES = {"openblas": "OpenBLAS", "mkl": "MKL", "blis": "BLIS"}


def os_text(name: str) -> str:
    """Python's `platform.platform()` in words: "Linux-6.1.0-x86_64-with-glibc2.36" -> "Linux 6.1.0 (x86_64,
    glibc 2.36)"; a name of another shape as it is."""
    found = re.fullmatch(r"([^-]+)-(.+)-([^-]+)-with-([A-Za-z]+)([\d.]+)", name)
    if not found:
        return name
    system, release, machine, library, version = found.groups()
    return f"{system} {release} ({machine}, {library} {version})"


#: a library named in words where its distribution's name reads as something else: our own package's is also the
#: grid's name of the B3O method
PACKAGE_NAMES = {"b3o": "the B3O package"}


def describe(details: list[dict]) -> str:
    """One platform id's records (`analysis.data.tidy.platform_detail`) in words: CPU, OS, Python, the libraries'
    versions and the BLAS libraries; where its records differ in a part (the CPU's model, say: the id leaves it out)
    each value is given, and a part they lack is left out."""

    def each(values, between: str = " or ") -> str:
        return between.join(dict.fromkeys(str(v) for v in values if v))

    versions: dict[str, list[str]] = {}
    for detail in details:
        for package, version in (detail.get("versions") or {}).items():
            versions.setdefault(package, []).append(version)
    python = each(versions.pop("python", []))
    blas = each(
        (
            f"{BLAS_NAMES.get(lib.get('internal_api'), lib.get('internal_api'))} {lib.get('version')} "
            f"({lib.get('architecture')} kernels, "
            f"{lib.get('num_threads')} thread{'' if lib.get('num_threads') == 1 else 's'})"
            for detail in details
            for lib in detail.get("blas") or []
        ),
        ", ",
    )
    libraries = ", ".join(f"{PACKAGE_NAMES.get(package, package)} {each(found)}" for package, found in versions.items()
                          if each(found))
    parts = {
        "CPU": each(d.get("cpu") for d in details),
        "OS": each(os_text(d["os"]) for d in details if d.get("os")),
        "Python": python + (f" with {libraries}" if python and libraries else ""),
        "libraries": "" if python else libraries,
        "BLAS": blas,
    }
    return "; ".join(f"{name}: {value}" for name, value in parts.items() if value)


#: the parts of a platform's description, in `describe`'s order
PARTS = ("CPU", "OS", "Python", "libraries", "BLAS")


def parts(described: str) -> dict[str, str]:
    """A description `describe` wrote, read back into its parts (those it has): {"CPU": "AMD EPYC", ...}."""
    pieces = re.split(r"; (?=(?:" + "|".join(PARTS) + r"): )", described)
    return dict(piece.split(": ", 1) for piece in pieces if ": " in piece)


def main(argv: list[str] | None = None) -> int:
    args = common.parser("provenance", __doc__.splitlines()[0]).parse_args(argv)
    table = pd.read_parquet(args.table)
    if table.empty:
        common.write_empty(args.out, f"No trials in {args.table}.")
        return 0
    rows = provenance(table)
    common.write(args.out, rows, common.latex(rows, ["Item", "Value"], "l p{10cm}"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


def machines(items: dict[str, str]) -> str:
    """The machines a run's trials ran on in words, from its provenance items (`provenance`): which CPU (with its
    trials), OS, Python and library versions and BLAS, each said once where every platform shares it; the platform ids
    (a hash of the numerics a machine gives) last, in brackets. Platforms without a description (tables made before
    records said what they were) are named by their ids."""
    counts = {pid: int(n) for pid, n in re.findall(r"(\S+) \((\d+) trials\)", items.get("platforms", ""))}
    described = {item.removeprefix(PLATFORM): parts(value) for item, value in items.items() if item.startswith(PLATFORM)}
    ids = f"numerical platform id{'s' * (len(counts) != 1)} {items.get('platforms', '')}"
    if not described:
        return f"They ran on {ids}."
    trials: dict[str, int] = {}
    for pid, n in counts.items():
        cpu = described.get(pid, {}).get("CPU", "a machine its records do not describe")
        trials[cpu] = trials.get(cpu, 0) + n
    said = [f"They ran on {series([f'{cpu} ({n} trial' + 's' * (n != 1) + ')' for cpu, n in trials.items()])}"]
    oses = [d["OS"] for d in described.values() if "OS" in d]
    if oses:
        said[0] += f" under {series(list(dict.fromkeys(oses)))}"
    software = [f"Python {d['Python']}" if "Python" in d else d.get("libraries", "") for d in described.values()]
    if any(software):
        said.append(f"with {series(list(dict.fromkeys(s for s in software if s)))}")
    blas = [" and ".join(sorted(re.split(r"(?<=\)), ", d["BLAS"]))) for d in described.values() if "BLAS" in d]
    if blas:
        said.append(f"BLAS {series(list(dict.fromkeys(blas)))}")
    return ", ".join(said[:1]) + (", " + "; ".join(said[1:]) if len(said) > 1 else "") + f" ({ids})."
