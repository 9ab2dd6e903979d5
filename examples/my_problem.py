"""A problem of your own: a shifted sphere to maximise on the unit square (`b3o study` finds it as
`my_problem:shifted_sphere`, this directory being on the jobs' PYTHONPATH)."""

from dataclasses import dataclass

import numpy as np
from trieste.space import Box

from problems.base import Problem


@dataclass(frozen=True)
class ShiftedSphere(Problem):
    centre: tuple[float, ...] = (0.3, 0.7)

    def _evaluate(self, x: np.ndarray) -> np.ndarray:
        """[N, 2] -> [N, 1]"""
        return -((x - np.array(self.centre)) ** 2).sum(axis=1, keepdims=True)


def shifted_sphere(noise_variance: float = 1e-4) -> Problem:
    return ShiftedSphere(
        name="shifted-sphere", search_space=Box([0.0, 0.0], [1.0, 1.0]), sense="maximise",
        noise_variance=noise_variance, optimum=0.0,
    )
