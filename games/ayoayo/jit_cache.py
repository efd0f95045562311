"""Where numba may keep the compiled Ayòayò kernels: the first writable of a few folders.

Assumes nothing of numba (it is not imported here), so :mod:`games.ayoayo.accel` can ask
before numba is loaded. In order: ``NUMBA_CACHE_DIR`` if set; numba's ``__pycache__`` beside
the kernels when that folder is writable; the user cache directory
(``$XDG_CACHE_HOME/gamesolver/numba`` or ``~/.cache/gamesolver/numba``); a folder of this
user's in the temporary directory. When none can be written (a read-only container with an
unwritable home and temporary directory) there is no cache: the kernels are not used, the
pure-Python paths give the same answers, and one line on stderr says so.

>>> cache_directory() is None or cache_directory().is_absolute() or True
True
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
import tempfile
from pathlib import Path

from solver.resources import cache_directory as user_cache

__all__ = ["cache_directory", "candidates"]


def candidates() -> list[Path]:
    """The folders tried, in order (see the module notes)."""
    configured = os.environ.get("NUMBA_CACHE_DIR")
    if configured:
        return [Path(configured)]
    found = [Path(__file__).parent / "__pycache__"]
    with contextlib.suppress(RuntimeError, KeyError):  # no home directory known
        found.append(user_cache() / "numba")
    uid = os.getuid() if hasattr(os, "getuid") else 0
    found.append(Path(tempfile.gettempdir()) / f"gamesolver-numba-{uid}")
    return found


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK | os.X_OK)


@functools.cache
def cache_directory() -> Path | None:
    """The first writable folder of :func:`candidates`, None if none (said once on stderr)."""
    for folder in candidates():
        if _writable(folder):
            return folder
    tried = ", ".join(repr(str(folder)) for folder in candidates())
    sys.stderr.write(
        f"gamesolver: note: no writable folder for compiled kernels (tried {tried}); using the "
        "pure-Python engine (the same answers, slower); set NUMBA_CACHE_DIR to a writable "
        "folder to use them\n"
    )
    return None
