"""Where numba may keep compiled kernels: the first writable of a few folders.

Imports nothing of numba, so a caller can ask before numba is loaded. In order:
``NUMBA_CACHE_DIR`` if set; the user cache directory (``$XDG_CACHE_HOME/gamesolver/numba`` or
``~/.cache/gamesolver/numba``); a folder of this user's in the temporary directory. A game may
put a folder of its own first (Ayòayò's kernels prefer numba's ``__pycache__`` beside them).

>>> kernel_folder() is None or kernel_folder().is_absolute()
True
"""

from __future__ import annotations

import contextlib
import functools
import os
import tempfile
from pathlib import Path

from solver.resources import cache_directory

__all__ = ["candidates", "kernel_folder", "writable"]


def candidates() -> list[Path]:
    """The folders tried, in order (see the module notes)."""
    configured = os.environ.get("NUMBA_CACHE_DIR")
    if configured:
        return [Path(configured)]
    found = []
    with contextlib.suppress(RuntimeError, KeyError):  # no home directory known
        found.append(cache_directory() / "numba")
    uid = os.getuid() if hasattr(os, "getuid") else 0
    found.append(Path(tempfile.gettempdir()) / f"gamesolver-numba-{uid}")
    return found


def writable(folder: Path) -> bool:
    """Whether ``folder`` exists (created if need be) and this user may write in it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK | os.X_OK)


@functools.cache
def kernel_folder() -> Path | None:
    """The first writable folder of :func:`candidates`, None if none."""
    return next((folder for folder in candidates() if writable(folder)), None)
