"""How the Ayòayò kernels are compiled, cached and loaded: numba set up once for the package.

Every compiled module of :mod:`games.ayoayo` (``native_rules``, ``native_search``,
``native_tablebase``) makes its kernels with :func:`kernel` or :func:`compiled` from here, and
names, with :func:`warm_up`, a small call of its entry points. Then:

* **One compile step.** :func:`ready` (called by :mod:`games.ayoayo.accel`) loads a group
  of entry points (``"search"``, ``"rules"`` or ``"tablebase"``) from numba's on-disk cache. When
  something had to be compiled instead (a fresh install, a new numba), every group is compiled
  in that same step, so a later command never compiles again, and stderr says so once, with
  how long it took and where the cache is.
  :func:`solver.engine.search` starts its clock after this, so a compile never eats a search's
  time limit; ``gamesolver compile`` (run by the set-up) does it ahead of time.
* **Where the cache lives.** The first writable of numba's ``__pycache__`` beside these
  files, the user cache directory and a temporary folder (:mod:`games.ayoayo.jit_cache`);
  ``NUMBA_CACHE_DIR`` overrides them.
* **A light load.** A later process links the cached machine code without readying numba's
  compiler (:class:`_CachedKernel`): the search kernels allocate nothing and are compiled
  without numba's runtime, so a second process pays little more than ``import numba``.

Importing this module raises ImportError without numba (the ``fast`` extra):
:mod:`games.ayoayo.accel` then says the kernel is not to be used, and everything runs in pure
Python with the same answers.

>>> GROUPS
('search', 'rules', 'tablebase', 'proof')
"""

from __future__ import annotations

import os
import pickle
import struct
import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, TypeVar, cast

import numba
from numba.core.runtime import nrt

from games.ayoayo import jit_cache

__all__ = ["GROUPS", "cache_directory", "compiled", "kernel", "ready", "store_order", "warm_up"]

F = TypeVar("F", bound=Callable[..., Any])

GROUPS: Final = ("search", "rules", "tablebase", "proof")
"""The groups of entry points: the search's, the rules' own (which the search and the builder
inline; loaded only by those who call them), the tablebase builder's and the proof search's."""

_PACKAGE: Final = __name__.rsplit(".", 1)[0]


def cache_directory() -> Path:
    """Where numba keeps this package's compiled kernels (:mod:`games.ayoayo.jit_cache`)."""
    folder = jit_cache.cache_directory()
    if folder is None:  # accel does not load the kernels then; a direct import still may
        raise OSError("no writable folder for numba's cache; set NUMBA_CACHE_DIR")
    return folder


def _point_cache() -> None:
    """Point numba's cache at the first writable folder (unless NUMBA_CACHE_DIR says)."""
    folder = jit_cache.cache_directory()
    if os.environ.get("NUMBA_CACHE_DIR") or folder is None:
        return
    if folder != Path(__file__).parent / "__pycache__":
        setattr(numba.config, "CACHE_DIR", str(folder))  # noqa: B010


_point_cache()


class _CompileWatch(numba.core.event.Listener):
    """Counts compiles of this package's kernels (not loads from the cache), saying the first."""

    compiles = 0

    def on_start(self, event: Any) -> None:
        data = getattr(event, "data", None) or {}
        fn = getattr(data.get("dispatcher"), "py_func", None)
        if fn is not None and not fn.__module__.startswith(_PACKAGE):
            return  # someone else's numba function
        if _CompileWatch.compiles == 0:
            print(
                "gamesolver: compiling the Ayòayò kernel (once; later commands load it from "
                f"{cache_directory()})...",
                file=sys.stderr,
                flush=True,
            )
        _CompileWatch.compiles += 1

    def on_end(self, event: Any) -> None:
        pass


numba.core.event.register("numba:compile", _CompileWatch())  # type: ignore[no-untyped-call]


_CHECKED: Final = "-crc"
"""Added to the cache files' names: files with a checksum (numba's own, without one, are not
read, so an older cache is compiled again once rather than refused entry by entry)."""


class _CheckedCacheFile(numba.core.caching.IndexDataCacheFile):
    """numba's index and data files of one kernel, each data file ending in a CRC-32 of the
    rest, checked when it is read: a flipped byte in the machine code is refused (and the entry
    healed, :class:`_CachedKernel`) instead of linked and run."""

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


class _CachedKernel(numba.core.caching.FunctionCache):
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
    """

    def __init__(self, py_func: Callable[..., Any], runtime: bool) -> None:
        super().__init__(py_func)  # type: ignore[no-untyped-call]
        self.runtime = runtime
        self.py_func = py_func
        self._cache_file = _CheckedCacheFile(  # type: ignore[no-untyped-call]
            cache_path=self._cache_path,
            filename_base=self._impl.filename_base + _CHECKED,
            source_stamp=self._impl.locator.get_source_stamp(),
        )

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        try:
            found = self._light_load(sig, target_context)
        except Exception:  # numba's regular path decides
            try:
                found = super().load_overload(sig, target_context)  # type: ignore[no-untyped-call]
            except Exception as e:  # a damaged entry: whatever numba or LLVM raised
                self._set_aside(f"{type(e).__name__}: {_first_line(e)}")
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
            self.disable()  # type: ignore[no-untyped-call]
            _note(
                f"the compiled kernel's cache entry for {name} could not be loaded ({why}) nor "
                f"moved aside ({e.strerror}); compiling it for this command only"
            )
            return
        _note(
            f"the compiled kernel's cache entry for {name} could not be loaded ({why}); moved "
            f"aside to {aside}, compiling it again"
        )

    def save_overload(self, sig: Any, data: Any) -> None:
        try:
            super().save_overload(sig, data)  # type: ignore[no-untyped-call]
        except OSError as e:
            self.disable()  # type: ignore[no-untyped-call]
            if not _CachedKernel.unsaved:
                _CachedKernel.unsaved = True
                _note(
                    f"could not save the compiled kernel in {self.cache_path} ({e.strerror}); "
                    "it is used now, and each command compiles it again until the folder can "
                    "be written (or set NUMBA_CACHE_DIR to one that can)"
                )

    unsaved = False
    """Whether a save failed in this process (said once)."""


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0][:200] if text else "no message"


def _note(text: str) -> None:
    print(f"gamesolver: note: {text}", file=sys.stderr, flush=True)


def kernel(fn: F) -> F:
    """``numba.njit(cache=True)`` without numba's runtime, typed for mypy as the identity.

    A kernel made so allocates nothing (callers pass scratch arrays in), so neither it nor
    its cached machine code needs numba's runtime (reference counts, allocation), whose
    initialisation costs a second process ~30 ms. Nothing is compiled or loaded at import: a
    kernel is, at its first call from Python, with the kernels it calls inside it (so only
    the entry points are ever loaded on their own).
    """
    no_runtime = numba.njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # not in stubs
    return cast(F, _cached(no_runtime(fn), runtime=False))


def compiled(fn: F, *, nogil: bool = False) -> F:
    """``numba.njit(cache=True)`` with the lighter cache load, for kernels that allocate.

    ``nogil=True`` lets the kernel run on several threads at once (the tablebase builder's).
    """
    return cast(F, _cached(numba.njit(cache=True, nogil=nogil)(fn), runtime=True))


def _cached(dispatcher: Any, runtime: bool) -> Any:
    """Give a ``cache=True`` dispatcher the lighter load of :class:`_CachedKernel`.

    Under ``NUMBA_DISABLE_JIT=1`` (numba's debugging switch) ``njit`` hands the Python
    function back, which runs as it is.
    """
    if isinstance(dispatcher, numba.core.dispatcher.Dispatcher):
        dispatcher._cache = _CachedKernel(dispatcher.py_func, runtime)  # type: ignore[attr-defined]
    return dispatcher


def _store_order_intrinsic() -> Callable[[], None]:
    @numba.extending.intrinsic
    def store_order(typingctx: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            builder.fence("seq_cst", "singlethread")
            return context.get_dummy_value()

        return numba.types.void(), codegen

    return cast(Callable[[], None], store_order)


def _no_store_order() -> None:
    """Plain Python stores are in order already (NUMBA_DISABLE_JIT)."""


store_order: Callable[[], None] = (
    _no_store_order
    if numba.config.DISABLE_JIT  # type: ignore[attr-defined]
    else _store_order_intrinsic()
)
"""In a kernel: the stores before this call are made before the stores after it.

A compiler barrier, C's ``atomic_signal_fence(memory_order_seq_cst)`` (LLVM's ``fence
syncscope("singlethread") seq_cst``): no machine instruction, but neither LLVM nor its code
generator moves a load or store across it, so the machine code stores in the order the
kernel is written in. A thread stopped at any instruction (a signal, SIGKILL) has then made
every store before it and none after; stores to a shared file mapping are in the page cache,
where another process reads them, as soon as they are made (the CPU's store buffer drains
even after the thread stops). Cross-thread ordering is not what it gives (that needs real
fences); the tablebase builder's undo journal (:mod:`games.ayoayo.native_partitions`) needs
only this.
"""


# ---- the one compile step --------------------------------------------------------------------

_WARM_UPS: dict[str, Callable[[], None]] = {}
_READY: set[str] = set()


def warm_up(group: str) -> Callable[[Callable[[], None]], Callable[[], None]]:
    """Register a function that calls ``group``'s entry points once, on tiny inputs.

    Each compiled module registers one for its group; :func:`ready` runs them.
    """
    if group not in GROUPS:
        raise ValueError(f"unknown kernel group {group!r}; known: {', '.join(GROUPS)}")

    def register(fn: Callable[[], None]) -> Callable[[], None]:
        _WARM_UPS[group] = fn
        return fn

    return register


def ready(group: str) -> float:
    """Load ``group``'s entry points; if any had to be compiled, compile every group now.

    Every group's module must be imported (so its warm-up is registered):
    :mod:`games.ayoayo.accel` imports them. Returns the seconds spent compiling (0.0 when
    everything came from the cache or was ready already). A compile is said on stderr: that
    it starts, then how long it took.
    """
    if group in _READY:
        return 0.0
    began = time.perf_counter()
    before = _CompileWatch.compiles
    _run(group)
    if _CompileWatch.compiles == before:
        return 0.0
    for other in GROUPS:  # one step: a later command must not compile the rest
        if other not in _READY:
            _run(other)
    seconds = time.perf_counter() - began
    print(f"gamesolver: compiled the Ayòayò kernel in {seconds:.1f} s", file=sys.stderr, flush=True)
    return seconds


def _run(group: str) -> None:
    if group not in _WARM_UPS:
        raise RuntimeError(f"the kernel group {group!r} was not imported before ready()")
    _WARM_UPS[group]()
    _READY.add(group)
