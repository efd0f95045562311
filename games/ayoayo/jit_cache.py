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

import functools
import os
import sys
import tempfile  # noqa: F401 (the tests point its gettempdir elsewhere)
from pathlib import Path

from solver import kernel_folder, kernel_memory

__all__ = ["cache_directory", "candidates"]


def candidates() -> list[Path]:
    """The folders tried, in order (see the module notes): numba's ``__pycache__`` beside
    the kernels unless ``NUMBA_CACHE_DIR`` is set, then
    :func:`solver.kernel_folder.candidates`."""
    beside = [] if os.environ.get("NUMBA_CACHE_DIR") else [Path(__file__).parent / "__pycache__"]
    return beside + kernel_folder.candidates()


_writable = kernel_folder.writable

COMPILE_NEED = 240 << 20
"""Address space compiling the kernels takes (every group, in one step): a cold compile grew
the process by 209 MB (VmPeak less VmSize when it began, numba 0.68), with a margin. Under a
smaller room left by ``ulimit -v`` the compile is not started (:mod:`solver.kernel_memory`)."""

kernel_memory.need_to_compile(__name__.rsplit(".", 1)[0], COMPILE_NEED)


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
