"""`b3o study`: a user's config run by this package's workflow from the user's own directory.

`b3o study --configfile my.yaml --cores 2 [more Snakemake arguments]` runs Snakemake on the package's Snakefile with
the current directory as its working directory, so the config's relative paths (`results`, `paper`) land there, and
with that directory first on every job's PYTHONPATH, so the config may name the user's own modules there
(`my_problem:shifted_sphere`, `my_method:RandomLCB`), as well as installed plugins (entry points; `harness.registry`).
The Snakefile and its `workflow/` rules are not package data: they are found next to the installed packages, which is
where a source checkout installed in place (`pip install -e .`) has them. Ctrl-C stops Snakemake cleanly (harder if it
hangs), its lock released (`run`), so the next `b3o study` resumes where this one stopped.
"""

from __future__ import annotations

import argparse
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import yaml

from bench import config_check

#: the Snakefile of the checkout these packages are installed from
SNAKEFILE = Path(__file__).resolve().parents[1] / "Snakefile"
#: the package's Snakemake profiles (`default`, `slurm`), found by name from any directory (`--profile slurm`)
PROFILES = SNAKEFILE.parent / "profiles"


def register(subparsers: argparse._SubParsersAction) -> None:
    study = subparsers.add_parser(
        "study",
        help="run a config's experiments with this package's workflow, from the current directory (Snakemake)",
        description="Any argument not listed here goes to Snakemake as it is (--cores, --dry-run, targets, ...).",
        allow_abbrev=False,  # Snakemake's --config is not an abbreviation of --configfile
    )
    study.add_argument("--configfile", required=True, help="the study's config (YAML), relative to this directory")
    study.add_argument("--profile", help="a Snakemake profile: a directory here, or a package profile's name (slurm)")
    study.set_defaults(func=_study, passes_through=True)


def command(configfile: str, snakemake_args: list[str], directory: Path) -> list[str]:
    """The Snakemake command line that runs `configfile`'s study in `directory`."""
    return [
        sys.executable, "-m", "snakemake", "--snakefile", str(SNAKEFILE), "--directory", str(directory),
        "--configfile", configfile, *snakemake_args,
    ]


def profile_directory(profile: str) -> Path:
    """The profile `--profile` names: a directory holding a config.yaml (relative to the study's directory), else the
    package's profile of that name (`slurm` is PROFILES/slurm); ValueError naming both places otherwise."""
    for candidate in (Path(profile), PROFILES / profile):
        if (candidate / "config.yaml").is_file():
            return candidate.resolve()
    names = sorted(p.name for p in PROFILES.glob("*") if (p / "config.yaml").is_file())
    raise ValueError(f"--profile {profile!r}: no {Path(profile) / 'config.yaml'} here and no package profile of that "
                     f"name (the package's: {', '.join(names) or 'none'})")


def _study(args: argparse.Namespace) -> int:
    if not SNAKEFILE.is_file():
        print(
            f"b3o study: error: no Snakefile at {SNAKEFILE}: the workflow ships with the source checkout; "
            "install it in place (pip install -e <checkout>)",
            file=sys.stderr,
        )
        return 2
    if not Path(args.configfile).is_file():
        print(f"b3o study: error: no config file {args.configfile!r} in {Path.cwd()}", file=sys.stderr)
        return 2
    source = f"b3o study: {args.configfile}"
    try:
        config = yaml.safe_load(Path(args.configfile).read_text())
    except yaml.YAMLError as error:
        config_check.refuse([f"not YAML: {' '.join(str(error).split())}"], source)
    config_check.check(config, source)  # before Snakemake starts: one line per error, exit 2
    if args.profile:
        with config_check.refusing("b3o study"):
            args.extra = ["--profile", str(profile_directory(args.profile)), *args.extra]
    here = Path.cwd()
    path = os.pathsep.join([str(here), *filter(None, [os.environ.get("PYTHONPATH")])])
    began = time.time()
    code = run(command(args.configfile, args.extra, here), {**os.environ, "PYTHONPATH": path}, here)
    if code == 0 and (made := outputs(config, began)):
        print(f"b3o study: done; read {', '.join(made)}", file=sys.stderr)
    return code


def outputs(config: dict, since: float) -> list[str]:
    """What a reader opens first, of those this run wrote (none after a dry run or a run with nothing to do): the
    declared comparisons' verdicts, the report, the site's page."""
    paper, results = Path(str(config.get("paper", ""))), Path(str(config.get("results", "")))
    report = paper / "report.pdf" if (paper / "report.pdf").is_file() else paper / "report.tex"
    firsts = [paper / "tables" / "declared.md", report, results / "site" / "index.html"]
    return [str(f) for f in firsts if f.is_file() and f.stat().st_mtime >= since]


#: seconds Snakemake gets to stop after Ctrl-C before it is told again, harder: SIGTERM, then SIGKILL. Its clean stop
#: takes seconds (its jobs get the signal too and stop at once); one that hangs (a lock held where the interrupt
#: landed, seen once under load) would otherwise keep the terminal forever.
GRACE = 60.0


def run(snakemake: list[str], env: dict[str, str], directory: Path, grace: float = GRACE) -> int:
    """Run Snakemake; on Ctrl-C (SIGINT) or SIGTERM, let it stop cleanly and say so in one line.

    Snakemake runs in a process group of its own, so a terminal's Ctrl-C reaches this process alone, which passes it
    on to Snakemake's group once: Snakemake then stops its jobs (each trial keeps its last checkpoint, `bench.runner`)
    and releases its lock itself. This process waits for that, `grace` seconds at a time, then escalates (SIGTERM,
    then SIGKILL, each said in words; a second Ctrl-C escalates at once); a lock left all the same (Snakemake killed
    hard) is released here, so the next `b3o study` resumes without `--unlock`."""
    started: list[subprocess.Popen] = []
    interrupted: list[int] = []
    harder = iter((signal.SIGTERM, signal.SIGKILL))
    deadline = [math.inf]  # when Snakemake is told again, harder

    def send(signum: int) -> None:
        if not started:  # before Snakemake started: sent once it has
            return
        try:
            os.killpg(started[0].pid, signum)
        except ProcessLookupError:  # already gone
            pass

    def escalate(why: str) -> None:
        signum = next(harder, signal.SIGKILL)
        print(f"b3o study: {why}; sending Snakemake {signal.Signals(signum).name}", file=sys.stderr)
        send(signum)
        deadline[0] = time.monotonic() + grace

    def forward(signum: int, frame: object) -> None:
        interrupted.append(signum)
        if len(interrupted) > 1:
            escalate("interrupted again")
            return
        send(signum)
        deadline[0] = time.monotonic() + grace

    # the handlers before Snakemake starts: a handler, unlike an ignored signal, is not inherited, so Snakemake gets
    # the default SIGINT even where this process was started with it ignored (`b3o study ... &` from a script)
    previous = {signum: signal.signal(signum, forward) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        started.append(process := subprocess.Popen(snakemake, env=env, process_group=0))
        if interrupted:
            send(interrupted[0])
        while True:  # a wait with a timeout: an untimed one resumes after the handler (PEP 475) and never escalates
            try:
                code = process.wait(timeout=1.0)
                break
            except subprocess.TimeoutExpired:
                if time.monotonic() > deadline[0]:
                    escalate(f"Snakemake has not stopped {grace:g} s after the interrupt")
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if not interrupted:
        return code
    if any((directory / ".snakemake" / "locks").glob("*.lock")):
        subprocess.run([*snakemake, "--unlock"], env=env, capture_output=True)
    print("b3o study: interrupted; finished trials are kept and the running ones resume from their last checkpoint "
          "at the next `b3o study` (no --unlock needed)", file=sys.stderr)
    return 128 + interrupted[0]
