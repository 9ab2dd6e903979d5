"""The `b3o` command line: one subcommand per task, each defined next to the code it drives.

A subcommand module exposes `register(subparsers)` that adds its parsers (all of the module's subcommands) and sets
`func` on each to a callable taking the parsed arguments and returning an exit code. Modules are listed here and imported lazily, so `b3o lap` never
imports TensorFlow.
"""

from __future__ import annotations

import argparse
import os
import sys
from importlib import import_module

# subcommand -> module defining `register(subparsers)`
_COMMANDS: dict[str, str] = {
    "lap": "problems.formula_e.cli",
    "run-trial": "baselines.cli",
    "check-specs": "baselines.cli",
    "list": "baselines.cli",
    "scaling": "baselines.scaling",
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")  # TensorFlow's start-up chatter hides our progress lines
    # On a GPU, TensorFlow takes all its memory at start-up by default: trials sharing a GPU would fail but the first.
    os.environ.setdefault("TF_FORCE_GPU_ALLOW_GROWTH", "true")
    parser = argparse.ArgumentParser(prog="b3o", description="Boltzmann batch Bayesian optimisation")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    # Only the requested subcommand's module is imported; `--help` imports them all to list them.
    wanted = [argv[0]] if argv and argv[0] in _COMMANDS else list(_COMMANDS)
    for module in dict.fromkeys(_COMMANDS[name] for name in wanted):
        import_module(module).register(subparsers)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    return int(args.func(args) or 0)


if __name__ == "__main__":
    raise SystemExit(main())
