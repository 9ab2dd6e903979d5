"""The smoke config cut down to a few trials, for the workflow tests that run the real Snakefile."""

from __future__ import annotations

from pathlib import Path

import yaml


def tiny_config(workdir: Path, name: str, seeds: int, results: str, trials_per_job: int = 1) -> str:
    """Write config/NAME.yaml in `workdir`: B3O-LogEI-s and Random on a 1-D problem, `seeds` seeds, two iterations,
    outputs under `results`, `trials_per_job` trials per job; returns its path relative to `workdir`."""
    config = yaml.safe_load((workdir / "config/smoke.yaml").read_text())
    experiment = config["experiments"]["synthetic_b100"]
    experiment.update(problems=["forrester1"], seeds=seeds, iterations=2)
    experiment["methods"] = [m for m in experiment["methods"] if m["label"] in ("B3O-LogEI-s", "Random")]
    config.update(
        results=results,
        paper=f"{results}/paper",
        experiments={"synthetic_b100": experiment},
        trials_per_job=trials_per_job,
    )
    config["scaling"]["enabled"] = False
    (workdir / f"config/{name}.yaml").write_text(yaml.safe_dump(config))
    return f"config/{name}.yaml"
