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
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.ayoayo.tablebase_build import LevelKernel

__all__ = ["kernel", "level_kernel"]


def kernel() -> ModuleType | None:
    """The kernel's module, or None when it is switched off or numba is missing."""
    if os.environ.get("GAMESOLVER_NATIVE", "1") == "0":
        return None
    try:
        from games.ayoayo import native
    except ImportError:
        return None
    return native


def level_kernel() -> LevelKernel | None:
    """The compiled tablebase builder (:data:`games.ayoayo.native_tablebase.KERNEL`), or None
    when the kernel is not to be used (the builder then runs in pure Python: the same bytes)."""
    if kernel() is None:
        return None
    from games.ayoayo.native_tablebase import KERNEL

    return KERNEL
