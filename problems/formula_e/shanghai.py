"""A built-in Shanghai International Circuit, drawn from public facts so the problem runs without track files.

Public facts used: 5.451 km, clockwise, 16 turns (8 right, 8 left), 380 m from the start line to turn 1, the
270° ever-tightening right-hander of turns 1–2 (the 'snail'), the slow left of turn 3, the flat kinks of turns 4
and 5 on the run to the turn-6 hairpin, the fast left-right of turns 7–8, the double left of turns 9–10, the slow
turn-11 left followed by the long, fast turns 12–13 right onto the 1.17 km back straight, the turn-14 hairpin at its
end and the near-90° left of turn 16 onto the pit straight; the layout resembles the character 上.

Radii are our choice, chosen for a race line (the path a driver takes using the track width) from published
Formula 1 minimum corner speeds v and a lateral acceleration a of about 2.5 g in slow, 3.5 g in medium and 4.5 g
in fast corners, R = v²/a (e.g. turn 14 at 65 km/h gives 13 m, turn 13 at 220 km/h gives 85 m). Straight lengths
were then set so that the loop closes and measures 5.451 km; turn angles are our estimates from the circuit map,
summing to −360°.

The lap is a curvature profile κ(s): arcs of constant κ = ±1/R joined by straights, passed through a 20 m moving
average so that every change of curvature becomes a linear ramp (a clothoid). It is integrated to x/y, the small
closing error left by rounding is spread linearly along the lap, and the points go through `track_from_points` like
any loaded track.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from problems.formula_e.track import DEFAULT_SMOOTHING_M, DEFAULT_STEP_M, Track, track_from_points

# (length m, None) is a straight; (angle °, radius m) an arc, positive angles turning left.
Straight = tuple[float, None]
Arc = tuple[float, float]
LAYOUT: list[tuple[str, list[Straight | Arc]]] = [
    ("start line to T1", [(380.0, None)]),
    ("T1-T2 snail", [(-70.0, 130.0), (-110.0, 55.0), (-90.0, 22.0), (38.0, None)]),
    ("T3", [(150.0, 27.0), (423.0, None)]),
    ("T4", [(20.0, 150.0), (239.0, None)]),
    ("T5", [(-20.0, 250.0), (350.0, None)]),
    ("T6 hairpin", [(-180.0, 17.0), (249.0, None)]),
    ("T7-T8", [(50.0, 105.0), (17.0, None), (-50.0, 74.0), (78.0, None)]),
    ("T9-T10", [(60.0, 32.0), (24.0, None), (60.0, 51.0), (320.0, None)]),
    ("T11", [(90.0, 22.0), (100.0, None)]),
    ("T12-T13", [(-45.0, 46.0), (-135.0, 85.0)]),
    ("back straight", [(1170.0, None)]),
    ("T14 hairpin", [(-180.0, 13.0), (285.0, None)]),
    ("T15", [(10.0, 60.0), (167.0, None)]),
    ("T16 to the line", [(80.0, 45.0), (420.0, None)]),
]
LENGTH_M = 5451.0
_RAMP_M = 20.0  # length of the curvature ramps between straights and arcs
_DS = 0.5  # m, resolution of the construction


def _curvature_profile() -> np.ndarray:
    """κ at every _DS metres of the layout, with clothoid ramps, scaled to exactly 5.451 km and −2π turning."""
    pieces = []
    for _, segments in LAYOUT:
        for a, b in segments:
            if b is None:
                pieces.append(np.zeros(round(a / _DS)))
            else:
                pieces.append(np.full(round(b * np.radians(abs(a)) / _DS), np.sign(a) / b))
    kappa = np.concatenate(pieces)
    # Moving average over the ramp length (periodic): piecewise-constant κ becomes piecewise linear.
    width = round(_RAMP_M / _DS)
    kernel = np.zeros_like(kappa)
    kernel[:width] = 1.0 / width
    kappa = np.real(np.fft.ifft(np.fft.fft(kappa) * np.fft.fft(kernel)))
    kappa = np.roll(kappa, -width // 2)  # centre the ramps on the segment joins
    # Stretch to the official length and make the total turning exactly −2π; both change κ by well under 1 %.
    return kappa * (-2 * np.pi) / (kappa.sum() * LENGTH_M / len(kappa))


@lru_cache(maxsize=8)
def shanghai(step: float = DEFAULT_STEP_M, smoothing: float = DEFAULT_SMOOTHING_M) -> Track:
    """The built-in Shanghai track, starting on the start line and heading north."""
    kappa = _curvature_profile()
    ds = LENGTH_M / len(kappa)
    heading = np.pi / 2 + np.concatenate([[0.0], np.cumsum(kappa[:-1])]) * ds
    heading += 0.5 * kappa * ds  # midpoint rule for the chord directions
    x = np.concatenate([[0.0], np.cumsum(np.cos(heading))]) * ds
    y = np.concatenate([[0.0], np.cumsum(np.sin(heading))]) * ds
    s = np.linspace(0.0, 1.0, len(x))
    x, y = x - s * x[-1], y - s * y[-1]  # close the loop: spread the end-point error along the lap
    return track_from_points(x[:-1], y[:-1], name="shanghai-builtin", step=step, smoothing=smoothing)
