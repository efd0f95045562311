"""Whether the compiled Ayòayò kernels are to be used, in one place.

They are used when numba is installed (the ``fast`` extra) and the environment does not say
``GAMESOLVER_NATIVE=0``; everything else falls back to the pure-Python paths, which give the
same answers. Nothing here imports numba until a kernel is asked for.

>>> import os
>>> level_kernel() is None or os.environ.get("GAMESOLVER_NATIVE") != "0"
True
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from games.ayoayo import jit_cache
from solver import kernel_memory
from solver.interrupts import compiling

if TYPE_CHECKING:
    from games.ayoayo.tablebase_build import LevelKernel
    from solver.compiled_proof import ProofKernel

__all__ = [
    "compile_kernels",
    "enabled",
    "level_kernel",
    "missing_reason",
    "proof_kernel",
]


def enabled() -> bool:
    """Whether the kernels are to be used: numba installed, not switched off, and a writable
    folder for its cache (:mod:`games.ayoayo.jit_cache`). numba not loading is said in one
    line (:func:`solver.kernel_memory.numba_loads`)."""
    if os.environ.get("GAMESOLVER_NATIVE", "1") == "0":
        return False
    return kernel_memory.numba_loads() and jit_cache.cache_directory() is not None


_failed: list[str] = []
"""Why the kernels failed to load or compile in this process (then not tried again)."""


def missing_reason() -> str:
    """What to do to have the kernels, for a capability that needs them: install numba,
    unset ``GAMESOLVER_NATIVE=0``, or (numba there but not loaded, said on stderr already)
    give the process the memory it needs."""
    if os.environ.get("GAMESOLVER_NATIVE", "1") == "0":
        return "unset GAMESOLVER_NATIVE=0"
    if kernel_memory.numba_unloadable() or _failed or _proof_failed:
        return (
            "it could not be loaded or compiled here (the note above says why; under a "
            "memory limit such as ulimit -v, raise it)"
        )
    if jit_cache.cache_directory() is None and kernel_memory.numba_loads():
        return "set NUMBA_CACHE_DIR to a writable folder"
    return "install the 'fast' extra (numba)"


def _load(groups: tuple[str, ...] | None) -> float | None:
    """Load ``groups`` of kernels (None: every group), compiling what the cache lacks
    (:func:`games.ayoayo.native_jit.ready`): the seconds spent compiling, or None when the
    kernels are not to be used, or loading and compiling failed (said in one line: the pure
    engine answers)."""
    if not enabled() or _failed:
        return None
    try:
        with compiling():  # a Ctrl-C that broke the compile stops the command, as asked
            from games.ayoayo import (  # noqa: F401 (each module registers its group's warm-up)
                native_jit,
                native_rules,
                native_tablebase,
            )

            return sum(native_jit.ready(group) for group in groups or native_jit.GROUPS)
    except Exception as e:  # numba or LLVM failed where a damaged cache was healed already
        _fail(e)
        return None


def _fail(e: Exception) -> None:
    """Say once that the kernels failed (``e``), and remember it: not tried again."""
    text = (str(e).strip().splitlines() or ["no message"])[0][:300]
    _failed.append(f"{type(e).__name__}: {text}")
    sys.stderr.write(
        f"gamesolver: note: the compiled kernel could not be loaded or compiled "
        f"({_failed[0]}); using the pure-Python engine (the same answers, slower)\n"
    )


def proof_kernel() -> ProofKernel | None:
    """Ayòayò's compiled proof search (the generic one of :mod:`solver.compiled_proof` on the
    rules of :mod:`games.ayoayo.native_route`), loaded or compiled now (said on stderr with
    its time), or None when not to be used (see :func:`_load`; a failure is said in one
    line)."""
    if not enabled() or _failed:
        return None
    from games.ayoayo.native_route import compiled_rules
    from solver.compiled_proof import proof_kernel as kernel
    from solver.compiled_proof import warm

    try:
        if warm(compiled_rules()) is None:  # numba there, the route's module not (said)
            _proof_failed.append("no proof search")
            return None
    except Exception as e:  # numba or LLVM failed: there is no proof search here
        _fail(e)
        return None
    return kernel(compiled_rules())


_proof_failed: list[str] = []
"""Set when the proof search alone could not be had (its note said why): the other kernels
stay usable."""


def level_kernel() -> LevelKernel | None:
    """The compiled tablebase builder (:data:`games.ayoayo.native_tablebase.KERNEL`), loaded, or
    None when the kernels are not to be used (the builder then runs in pure Python: the same
    bytes)."""
    if _load(("tablebase",)) is None:
        return None
    from games.ayoayo import native_tablebase

    return native_tablebase.KERNEL


def compile_kernels() -> float | None:
    """Load the rules' and the tablebase builder's kernels now, compiling what the cache lacks:
    the seconds spent compiling (0.0 when all came from the cache), or None when the kernels
    are not to be used. (The proof search is the compiled route's, compiled when a proof first
    asks for it: :func:`proof_kernel`.)"""
    return _load(None)
