"""Re-deciding a published run (analysis.presentation.redecide) rewrites what the verdict rules feed, as the workflow
would."""

from __future__ import annotations

from pathlib import Path

import yaml

from analysis.presentation.redecide import table_commands

ROOT = Path(__file__).resolve().parents[1]


def _outputs(config: str) -> set[str]:
    loaded = yaml.safe_load((ROOT / "config" / config).read_text())
    return {command[-1] for command in table_commands(loaded, Path("work"))}


def test_a_republished_run_rewrites_the_tables_its_experiments_declare() -> None:
    # the horizon table decides claims 1 and 7 at t = 6, 12 and 25: a change of rules must reach it
    assert "paper/horizon/tables/horizon" in _outputs("horizon.yaml")
    assert "paper/horizon/tables/best_lambda" not in _outputs("horizon.yaml")  # its experiment is not run there
    assert {"paper/tables/summary", "paper/tables/best_lambda"} <= _outputs("config.yaml")
    assert not any(out.endswith("/horizon") for out in _outputs("config.yaml"))
