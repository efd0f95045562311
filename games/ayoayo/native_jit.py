"""How the Ayòayò kernels are compiled, cached and loaded: numba set up once for the package.

Every compiled module of :mod:`games.ayoayo` (``native_rules``, ``native_probe``,
``native_tablebase``) makes its kernels with :func:`kernel` or
:func:`compiled` from here, and names, with :func:`warm_up`, a small call of its entry points.
Then:

* **One compile step.** :func:`ready` (called by :mod:`games.ayoayo.accel`) loads a group
  of entry points (``"rules"`` or ``"tablebase"``) from numba's on-disk cache. When
  something had to be compiled instead (a fresh install, a new numba), every group is compiled
  in that same step, so a later command never compiles again, and stderr says so once, with
  how long it took and where the cache is.
  :func:`solver.engine.search` starts its clock after this, so a compile never eats a search's
  time limit; ``gamesolver compile`` (run by the set-up) does it ahead of time.
* **Where the cache lives.** The first writable of numba's ``__pycache__`` beside these
  files, the user cache directory and a temporary folder (:mod:`games.ayoayo.jit_cache`);
  ``NUMBA_CACHE_DIR`` overrides them.
* **A light load.** A later process links the cached machine code without readying numba's
  compiler (:class:`solver.numba_cache.CachedKernel`): the search kernels allocate nothing and
  are compiled without numba's runtime, so a second process pays little more than ``import numba``.

Importing this module raises ImportError without numba (the ``fast`` extra):
:mod:`games.ayoayo.accel` then says the kernel is not to be used, and everything runs in pure
Python with the same answers.

>>> GROUPS
('rules', 'tablebase')
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, TypeVar, cast

import numba

from games.ayoayo import jit_cache
from solver.numba_cache import CachedKernel as _CachedKernel  # noqa: F401 (the tests use it)
from solver.numba_cache import cached

__all__ = ["GROUPS", "cache_directory", "compiled", "kernel", "ready", "store_order", "warm_up"]

F = TypeVar("F", bound=Callable[..., Any])

GROUPS: Final = ("rules", "tablebase")
"""The groups of entry points: the rules' own (which the builder inlines; loaded only by those
who call them) and the tablebase builder's. (The node search and the proof search are the
compiled route's, :mod:`solver.compiled` and :mod:`solver.compiled_proof`, compiled against
the rules of :mod:`games.ayoayo.native_route` in a kernel of their own.)"""

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


def kernel(fn: F) -> F:
    """``numba.njit(cache=True)`` without numba's runtime, typed for mypy as the identity.

    A kernel made so allocates nothing (callers pass scratch arrays in), so neither it nor
    its cached machine code needs numba's runtime (reference counts, allocation), whose
    initialisation costs a second process ~30 ms. Nothing is compiled or loaded at import: a
    kernel is, at its first call from Python, with the kernels it calls inside it (so only
    the entry points are ever loaded on their own).
    """
    no_runtime = numba.njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # not in stubs
    return cast(F, cached(no_runtime(fn), runtime=False))


def compiled(fn: F, *, nogil: bool = False) -> F:
    """``numba.njit(cache=True)`` with the lighter cache load, for kernels that allocate.

    ``nogil=True`` lets the kernel run on several threads at once (the tablebase builder's).
    """
    return cast(F, cached(numba.njit(cache=True, nogil=nogil)(fn), runtime=True))


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
