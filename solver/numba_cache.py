"""numba's disk cache for compiled kernels, loaded lightly and healed when damaged.

A kernel made with :func:`cached` (a ``cache=True`` dispatcher) keeps numba's cache files but
reads them through :class:`CachedKernel`: without refreshing numba's typing registries (most of
a second process's start-up), with a checksum on every data file, and with a damaged entry
moved aside and compiled again. Used by every compiled kernel of the project (Ayòayò's own,
and the compiled route's, :mod:`solver.compiled`). Importing it imports numba.
"""

from __future__ import annotations

import errno
import os
import pickle
import struct
import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import numba
from numba.core.runtime import nrt

from solver import kernel_memory

__all__ = ["CachedKernel", "cached", "jit", "note"]


_CHECKED: Final = "-crc"
"""Added to the cache files' names: files with a checksum (numba's own, without one, are not
read, so an older cache is compiled again once rather than refused entry by entry)."""


class CheckedCacheFile(numba.core.caching.IndexDataCacheFile):
    """numba's index and data files of one kernel, each data file ending in a CRC-32 of the
    rest, checked when it is read: a flipped byte in the machine code is refused (and the entry
    healed, :class:`CachedKernel`) instead of linked and run."""

    def _save_data(self, name: str, data: Any) -> None:
        raw = self._dump(data)  # type: ignore[no-untyped-call]
        with self._open_for_write(self._data_path(name)) as f:  # type: ignore[no-untyped-call]
            f.write(raw + struct.pack("<I", zlib.crc32(raw)))

    def _load_data(self, name: str) -> Any:
        path = self._data_path(name)  # type: ignore[no-untyped-call]
        with open(path, "rb") as f:
            raw = f.read()
        if len(raw) < 4 or struct.unpack("<I", raw[-4:])[0] != zlib.crc32(raw[:-4]):
            raise ValueError(f"{os.path.basename(path)} fails its checksum")
        return pickle.loads(raw[:-4])


class CachedKernel(numba.core.caching.FunctionCache):
    """numba's on-disk cache for one kernel: a lighter load, and an entry that heals.

    **A lighter load.** numba's own load refreshes its typing and lowering registries before
    reading a cached kernel (importing and installing every implementation it has: about 0.2 s,
    the largest share of a second process's start-up). Linking cached machine code needs at
    most numba's runtime (for kernels that allocate arrays: ``runtime``); the registries matter
    only to a compile, and numba's compiler refreshes them itself. Should this lighter load
    fail, the regular one runs.

    **An entry that heals.** A cache entry that fails to load both ways (a file truncated,
    with a flipped byte, zeroed, junk in the index) or that holds another function's code (two
    files swapped) is moved aside, into ``damaged/`` in the cache folder, and the kernel is
    compiled again, once, with one line on stderr saying so; when it cannot be moved aside
    (the folder is read-only), this process compiles it without the cache. A compiled kernel
    that cannot be saved (a full disk, a read-only folder) is used all the same, with one line
    saying each later command compiles it again.

    **Memory.** A load that fails short of memory (under ``ulimit -v``) is not damage: it
    raises :class:`solver.kernel_memory.KernelMemoryError`, one line saying so, and the entry
    is kept. A compile starts only when the room left under an address-space limit holds it
    (:mod:`solver.kernel_memory`); LLVM would end the process otherwise.
    """

    def __init__(self, py_func: Callable[..., Any], runtime: bool) -> None:
        super().__init__(py_func)  # type: ignore[no-untyped-call]
        self.runtime = runtime
        self.py_func = py_func
        self._cache_file = CheckedCacheFile(  # type: ignore[no-untyped-call]
            cache_path=self._cache_path,
            filename_base=self._impl.filename_base + _CHECKED,
            source_stamp=self._impl.locator.get_source_stamp(),
        )

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        """The cached kernel, or None when numba is to compile it: then only if a compile
        fits in the memory left (:func:`solver.kernel_memory.check_room`).

        Raises:
            KernelMemoryError: too little room left to try a load, the load failed short of
                memory (the entry is kept), or the compile that would follow does not fit.
        """
        kernel_memory.check_load_room(self.py_func.__qualname__)
        found = self._load(sig, target_context)
        if found is None:
            kernel_memory.check_room(self.py_func.__module__, self.py_func.__qualname__)
        return found

    def _load(self, sig: Any, target_context: Any) -> Any:
        try:
            found = self._light_load(sig, target_context)
        except Exception:  # numba's regular path decides
            try:
                found = super().load_overload(sig, target_context)  # type: ignore[no-untyped-call]
            except Exception as e:  # a damaged entry, or memory short: whatever numba raised
                why = f"{type(e).__name__}: {first_line(e)}"
                if kernel_memory.short_of_memory(e):
                    raise kernel_memory.load_failed(self.py_func.__qualname__, why) from None
                self._set_aside(why)
                return None
        if found is not None and not self._belongs(found):
            self._set_aside(f"it holds the code of {found.fndesc.qualname!r}")
            return None
        return found

    def _light_load(self, sig: Any, target_context: Any) -> Any:
        if self.runtime:
            nrt.rtsys.initialize(target_context)
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)  # type: ignore[no-untyped-call]

    def _belongs(self, found: Any) -> bool:
        """Whether a loaded entry is this function's (not another's, swapped in)."""
        fndesc = getattr(found, "fndesc", None)
        return (
            fndesc is not None
            and fndesc.qualname == self.py_func.__qualname__
            and fndesc.modname == self.py_func.__module__
        )

    def _set_aside(self, why: str) -> None:
        """Move this function's cache files into ``damaged/`` and say so (one line)."""
        folder = Path(self.cache_path)
        base = self._impl.filename_base + _CHECKED
        aside = folder / "damaged" / time.strftime("%Y%m%d-%H%M%S")
        name = self.py_func.__qualname__
        try:
            aside.mkdir(parents=True, exist_ok=True)
            for path in folder.glob(f"{base}.*"):
                if path.suffix in (".nbi", ".nbc"):
                    os.replace(path, aside / path.name)
        except OSError as e:
            if e.errno == errno.ENOMEM:  # memory was short, not the entry sound
                raise kernel_memory.load_failed(name, why) from None
            self.disable()  # type: ignore[no-untyped-call]
            note(
                f"the compiled kernel's cache entry for {name} could not be loaded ({why}) nor "
                f"moved aside ({e.strerror}); compiling it for this command only"
            )
            return
        note(
            f"the compiled kernel's cache entry for {name} could not be loaded ({why}); moved "
            f"aside to {aside}, compiling it again"
        )

    def save_overload(self, sig: Any, data: Any) -> None:
        try:
            super().save_overload(sig, data)  # type: ignore[no-untyped-call]
        except OSError as e:
            self.disable()  # type: ignore[no-untyped-call]
            if not CachedKernel.unsaved:
                CachedKernel.unsaved = True
                note(
                    f"could not save the compiled kernel in {self.cache_path} ({e.strerror}); "
                    "it is used now, and each command compiles it again until the folder can "
                    "be written (or set NUMBA_CACHE_DIR to one that can)"
                )

    unsaved = False
    """Whether a save failed in this process (said once)."""


def first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0][:200] if text else "no message"


def note(text: str) -> None:
    print(f"gamesolver: note: {text}", file=sys.stderr, flush=True)


def cached(dispatcher: Any, runtime: bool) -> Any:
    """Give a ``cache=True`` dispatcher the lighter load of :class:`CachedKernel`.

    Under ``NUMBA_DISABLE_JIT=1`` (numba's debugging switch) ``njit`` hands the Python
    function back, which runs as it is.
    """
    if isinstance(dispatcher, numba.core.dispatcher.Dispatcher):
        dispatcher._cache = CachedKernel(dispatcher.py_func, runtime)  # type: ignore[attr-defined]
    return dispatcher


def jit(fn: Callable[..., Any]) -> Any:
    """``numba.njit(cache=True)`` with the lighter load of :class:`CachedKernel` (a kernel that
    may allocate: numba's runtime is readied for it)."""
    return cached(numba.njit(cache=True)(fn), runtime=True)


def kernel_jit(fn: Callable[..., Any]) -> Any:
    """``numba.njit(cache=True)`` without numba's runtime, for a kernel that allocates nothing:
    no reference counts on the arrays it passes around (a node search passes many), and a
    later process loads it without readying the runtime."""
    no_runtime = numba.njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # not in stubs
    return cached(no_runtime(fn), runtime=False)


def inline_jit(fn: Callable[..., Any]) -> Any:
    """:func:`kernel_jit` for a small helper that numba inlines into each caller (its own IR,
    not a call): a node search's per-node helpers, which pass large tuples of arrays."""
    no_runtime = numba.njit(cache=True, _nrt=False, inline="always")  # type: ignore[call-overload]
    return cached(no_runtime(fn), runtime=False)
