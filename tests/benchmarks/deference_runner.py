"""Run the reference DEFER package (`deference`, MIT) on a Gaussian mixture given as JSON on stdin.

Standalone on purpose: `deference` 0.2 needs NumPy >= 2 and torch, B3O pins NumPy < 2 (trieste 4.6), so the
benchmark runs this file with the interpreter of a separate environment (`B3O_DEFERENCE_PYTHON`). It imports
nothing from B3O. Prints JSON: samples, log Z and the wall time of construction plus sampling.
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np
import torch
from defer import defer


def main() -> None:
    spec = json.load(sys.stdin)
    means, sds, weights = (np.asarray(spec[k], dtype=np.float64) for k in ("means", "sds", "weights"))
    dim = means.shape[1]
    np.random.seed(spec["seed"])
    torch.manual_seed(spec["seed"])
    use_numpy = spec["backend"] == "numpy"

    def log_density(x):
        """The same unnormalised density as B3O's tests: sum_k w_k sd_k^-d exp(-|x - m_k|^2 / (2 sd_k^2))."""
        x = np.asarray(x.cpu() if hasattr(x, "cpu") else x, dtype=np.float64)
        sq = ((x[:, None, :] - means) ** 2).sum(-1) / sds**2
        log_comp = np.log(weights) - dim * np.log(sds) - 0.5 * sq
        top = log_comp.max(axis=1)
        out = top + np.log(np.exp(log_comp - top[:, None]).sum(axis=1))
        return out if use_numpy else torch.from_numpy(out)

    start = time.perf_counter()
    approx = defer(
        log_density,
        lower=np.asarray(spec["lower"], dtype=np.float64),
        upper=np.asarray(spec["upper"], dtype=np.float64),
        num_fn_calls=spec["budget"],
        use_numpy=use_numpy,
        explore=spec.get("explore", False),
    )
    samples = approx.sampler()(spec["num_samples"])
    seconds = time.perf_counter() - start
    samples = np.asarray(samples.cpu() if hasattr(samples, "cpu") else samples, dtype=np.float64)
    log_z = float(approx.log_z.item() if hasattr(approx.log_z, "item") else approx.log_z)
    json.dump({"samples": samples.tolist(), "log_z": log_z, "seconds": seconds}, sys.stdout)


if __name__ == "__main__":
    main()
