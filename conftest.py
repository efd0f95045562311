"""Collection settings for the doctests of the packages (tests/conftest.py has the rest)."""

from __future__ import annotations

import importlib.util

# The compiled kernels' modules import numba (the `fast` extra): without it there is nothing
# to doctest there, and the pure-Python paths are what the rest of the suite runs.
collect_ignore = (
    []
    if importlib.util.find_spec("numba")
    else [
        "games/ayoayo/native_jit.py",
        "games/ayoayo/native_probe.py",
        "games/ayoayo/native_route.py",
        "games/ayoayo/native_rules.py",
        "games/ayoayo/native_tablebase.py",
    ]
)
