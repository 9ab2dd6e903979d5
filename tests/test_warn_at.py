"""The rule's warnings point at the user's line (b3o/warn_at.py): the first frame outside b3o's and trieste's package
directories, a sibling package of a similar name (`trieste_extra`, `b3o_plugins`) being the user's code."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import pytest
import trieste

import b3o
from b3o.warn_at import user_stacklevel

#: a plugin's function that warns as the rule does
PLUGIN = """
import warnings

def warn():
    warnings.warn("from the rule", stacklevel=user_stacklevel())
"""


def _warned_from(filename: str) -> str:
    """The file a warning raised by `PLUGIN`, compiled as `filename`, is attributed to."""
    namespace = {"user_stacklevel": user_stacklevel}
    exec(compile(PLUGIN, filename, "exec"), namespace)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        namespace["warn"]()
    return caught[0].filename


@pytest.mark.parametrize("package", [b3o, trieste], ids=["b3o", "trieste"])
def test_a_sibling_package_of_a_similar_name_is_the_user_s_code(package):
    """`trieste_extra/plugin.py` shares the prefix of trieste's directory, not the directory: it is where the warning
    points, not at a frame further out (a prefix match skipped it as trieste's own)."""
    directory = str(Path(package.__file__).parent)
    sibling = f"{directory}_extra{os.sep}plugin.py"
    assert _warned_from(sibling) == sibling
    assert _warned_from(f"{directory}{os.sep}plugin.py") == __file__  # inside the package: skipped, to the caller
