"""PyBaMM electrode-design problem: `problem` defines it, `simulate` runs PyBaMM, `worker` hosts that in a process."""

from problems.battery.problem import BatteryProblem, battery

__all__ = ["BatteryProblem", "battery"]
