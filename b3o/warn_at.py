"""Where the rule's warnings point: the user's line that asked for the batch, found by walking out of b3o and trieste.

A warning raised with a fixed `stacklevel` points at whichever frame of trieste called the rule
(`ask_tell_optimization.py:612`), which tells a user nothing; the rule's warnings (`CampaignWarning`,
`DegenerateDensityWarning`) take `user_stacklevel()` instead.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import trieste

#: the packages between a user's line and a warning of the rule, each as its directory + os.sep: b3o's and trieste's
#: (its optimizers call the rule); the separator keeps a sibling package (`trieste_extra`, `b3o_plugins`) outside
_INSIDE = tuple(str(Path(module.__file__).parent) + os.sep for module in (sys.modules["b3o"], trieste))


def user_stacklevel() -> int:
    """The `stacklevel` that points a warning raised in the caller at the first frame outside b3o and trieste: the
    user's line that asked for the batch, not trieste's `ask_tell_optimization.py:612`."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(_INSIDE):
        frame, level = frame.f_back, level + 1
    return level
