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


def test_a_run_read_along_its_horizon_gets_its_horizon_table_and_figure_with_the_workflows_plan() -> None:
    """config/large_batch.yaml's `horizon`: the rule horizon_along's table, and its figure with --report, with the
    plan options the workflow passes (one owner: `baselines.grid.horizon_arguments`)."""
    from analysis.presentation.redecide import _along_horizon
    from baselines.grid import horizon_arguments

    config = yaml.safe_load((ROOT / "config" / "large_batch.yaml").read_text())
    assert "paper/large_batch/tables/horizon_along" in _outputs("large_batch.yaml")
    assert horizon_arguments(config) == ["--experiment", "synthetic_b100", "--checkpoints", "6,12,25,50",
                                         "--looks", "10,20,30", "--spending", "pocock"]
    (figure,) = _along_horizon(config, Path("work"), "figures")
    assert figure[:3] == ["python", "-m", "analysis.figures.horizon"]
    assert figure[figure.index("--out") + 1] == "paper/large_batch/figures/horizon_along"
    assert not _along_horizon(yaml.safe_load((ROOT / "config" / "config.yaml").read_text()), Path("work"), "figures")
