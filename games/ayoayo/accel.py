"""Whether the compiled Ayòayò kernel (:mod:`games.ayoayo.native`) is to be used, in one place.

It is used when numba is installed (the ``fast`` extra) and the environment does not say
``GAMESOLVER_NATIVE=0``; everything else falls back to the pure-Python paths, which give the
same answers.

>>> import os
>>> kernel() is None or os.environ.get("GAMESOLVER_NATIVE") != "0"
True
"""

from __future__ import annotations

import os
from types import ModuleType

__all__ = ["kernel"]


def kernel() -> ModuleType | None:
    """The kernel's module, or None when it is switched off or numba is missing."""
    if os.environ.get("GAMESOLVER_NATIVE", "1") == "0":
        return None
    try:
        from games.ayoayo import native
    except ImportError:
        return None
    return native
