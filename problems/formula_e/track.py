"""Closed tracks as curvature profiles on a uniform arc-length grid.

A track is a closed line through x/y points. It is interpolated by a periodic cubic spline (scipy `CubicSpline`,
chord-length parameter), resampled at a uniform arc-length step, and its curvature
κ = (x'y'' − y'x'') / (x'² + y'²)^{3/2} is lightly smoothed with a periodic Gaussian filter along the arc length.
Curvature is a second derivative, so survey noise in the points shows up in it as spikes that no car follows;
the filter removes variation shorter than about a car length while keeping ∮κ ds (the total turning) exactly.
Sign convention: κ > 0 turning left, κ < 0 turning right, so a clockwise lap turns −2π. The lap solver uses |κ|.

`load_track` reads the TUMFTM racetrack-database CSV formats (race line `x_m, y_m`; centre line
`x_m, y_m, w_tr_right_m, w_tr_left_m`; '#' header; open loop, the last point joining the first).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from scipy.interpolate import CubicSpline

DEFAULT_STEP_M = 5.0
DEFAULT_SMOOTHING_M = 5.0  # σ of the curvature filter: about the length of the car (5.2 m)
_OVERSAMPLING = 10  # curvature is filtered on a grid this much finer than the step, then sampled
MIN_LENGTH_M = 50.0  # ten car lengths: shorter is a unit mistake (km, miles) or not a track
MIN_RADIUS_M = 4.0  # tighter than any car's turning circle (Formula E: a 3.1 m wheelbase)


@dataclass(frozen=True)
class Track:
    """A closed track sampled every `step` metres: point i sits at arc length i·step, point n joins point 0."""

    name: str
    x: np.ndarray = field(repr=False, compare=False)  # [n] m
    y: np.ndarray = field(repr=False, compare=False)  # [n] m
    curvature: np.ndarray = field(repr=False, compare=False)  # [n] 1/m, signed (left positive)
    step: float = DEFAULT_STEP_M

    @property
    def length(self) -> float:
        return self.step * len(self.curvature)

    @property
    def total_turning(self) -> float:
        """∮κ ds in radians: −2π for a clockwise lap, +2π for an anticlockwise one."""
        return float(self.curvature.sum() * self.step)


def track_from_points(
    x: np.ndarray,
    y: np.ndarray,
    name: str = "track",
    step: float = DEFAULT_STEP_M,
    smoothing: float = DEFAULT_SMOOTHING_M,
) -> Track:
    """Closed track through the points (open loop: the last point joins the first), resampled every ~`step` metres
    (adjusted so that a whole number of steps closes the lap), curvature filtered with σ = `smoothing` metres."""
    pts = np.column_stack([np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)])
    if not np.all(np.isfinite(pts)):
        raise ValueError(f"{name}: x/y points contain NaN or inf")
    gaps = np.linalg.norm(pts - np.roll(pts, -1, axis=0), axis=1)
    pts = pts[gaps > 1e-9]  # drop repeated points, including a closing copy of the first one
    if len(pts) < 4:
        raise ValueError(f"{name}: need at least 4 distinct x/y points, got {len(pts)}")
    extent = np.linalg.svd(pts - pts.mean(axis=0), compute_uv=False)
    if extent[1] <= 1e-6 * extent[0]:
        raise ValueError(f"{name}: the x/y points lie on one line; a closed track must enclose an area")
    if step <= 0 or smoothing < 0:
        raise ValueError(f"{name}: step must be positive and smoothing non-negative, got {step}, {smoothing}")
    closed = np.vstack([pts, pts[:1]])
    chord = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(closed, axis=0), axis=1))])
    spline = CubicSpline(chord, closed, bc_type="periodic")
    # Arc length of the spline on a fine grid, inverted to place points at uniform arc length.
    u_fine = np.linspace(0.0, chord[-1], 20 * len(pts) + 1)
    speed = np.linalg.norm(spline(u_fine, 1), axis=1)
    arc = np.concatenate([[0.0], np.cumsum(0.5 * (speed[1:] + speed[:-1]) * np.diff(u_fine))])
    n = max(round(arc[-1] / step), 4)
    m = n * _OVERSAMPLING
    u = np.interp(np.arange(m) * arc[-1] / m, arc, u_fine)
    d1, d2 = spline(u, 1), spline(u, 2)
    kappa = (d1[:, 0] * d2[:, 1] - d1[:, 1] * d2[:, 0]) / np.linalg.norm(d1, axis=1) ** 3
    kappa = _gaussian_filter_periodic(kappa, smoothing / (arc[-1] / m))
    # Average the fine samples within each step (centred on the grid point), so that Σκ·step is the integral.
    kappa = np.roll(kappa, _OVERSAMPLING // 2).reshape(n, _OVERSAMPLING).mean(axis=1)
    xy = spline(u[::_OVERSAMPLING])
    if arc[-1] < MIN_LENGTH_M:
        raise ValueError(f"{name}: the lap is {arc[-1]:.3g} m long, less than {MIN_LENGTH_M:g} m; are x/y in metres?")
    if not np.all(np.isfinite(kappa)) or np.abs(kappa).max() > 1 / MIN_RADIUS_M:
        raise ValueError(
            f"{name}: a corner of radius {1 / np.abs(kappa).max():.3g} m, tighter than {MIN_RADIUS_M:g} m; the points "
            "double back on themselves or are not in metres"
        )
    return Track(name=name, x=xy[:, 0], y=xy[:, 1], curvature=kappa, step=arc[-1] / n)


def _gaussian_filter_periodic(values: np.ndarray, sigma_samples: float) -> np.ndarray:
    """Convolve a periodic signal with a Gaussian of σ samples (exactly, in the Fourier domain; keeps the mean)."""
    freq = np.fft.rfftfreq(len(values))
    gain = np.exp(-0.5 * (2 * np.pi * freq * sigma_samples) ** 2)
    return np.fft.irfft(np.fft.rfft(values) * gain, n=len(values))


def load_track(path: str | Path, step: float = DEFAULT_STEP_M, smoothing: float = DEFAULT_SMOOTHING_M) -> Track:
    """Read a TUMFTM-format track CSV (x_m, y_m first; further columns such as track widths are ignored)."""
    path = Path(path)
    try:
        data = np.loadtxt(path, delimiter=",", comments="#", ndmin=2)
    except (OSError, ValueError) as err:
        raise ValueError(f"cannot read track file {path}: {err}") from err
    if data.shape[1] < 2:
        raise ValueError(f"track file {path} needs columns x_m, y_m; found {data.shape[1]} column(s)")
    return track_from_points(data[:, 0], data[:, 1], name=path.stem, step=step, smoothing=smoothing)
