"""The address space a kernel's compile needs, and whether a failed load was short of memory.

numba compiles a kernel in the process that calls it, and LLVM ends that process (``LLVM
ERROR: out of memory``, ``std::bad_alloc``, SIGABRT) when an allocation fails: no Python code
can catch that. So under an address-space limit (``ulimit -v``, RLIMIT_AS) a compile starts
only when the room left under the limit holds what compiling takes, measured as the growth of
the process's address space (its ``VmPeak`` less its ``VmSize`` when the first compile
started) with a cold cache; otherwise :func:`check_room` raises :class:`KernelMemoryError`,
which the callers take as a kernel that cannot be had (the pure engine answers, or one line
says what to do). A kernel that needs more than :data:`DEFAULT_NEED` registers its need
(:func:`need_to_compile`; Ayòayò's whole set of kernels, compiled in one step, does).

Loading a kernel from the cache needs memory too; a load that fails under a limit with
little room left, or with an error that says so, was short of memory, not given a damaged
entry (:func:`short_of_memory`): it is reported as such, and the cache entry is kept.

numba itself may not load under a limit (its LLVM library cannot be mapped):
:func:`numba_loads` says so once, for every kernel of the process.

Assumes Linux for the limit (``/proc/self/status``); elsewhere no limit is seen and nothing
is refused. Imports numba only when :func:`numba_loads` is asked.

>>> need_of("some_module") == DEFAULT_NEED
True
"""

from __future__ import annotations

import errno
import math
import sys
from typing import Final

from solver import resources
from solver.errors import GameError

__all__ = [
    "DEFAULT_NEED",
    "LOAD_NEED",
    "LOAD_ROOM",
    "KernelMemoryError",
    "check_load_room",
    "check_room",
    "load_failed",
    "need_of",
    "need_to_compile",
    "numba_loads",
    "numba_unloadable",
    "short_of_memory",
]

MB: Final = 1 << 20

DEFAULT_NEED: Final = 96 * MB
"""Address space a kernel's compile may take: the compiled route's node search for Connect Four
grew the process by 71 MB (VmPeak less VmSize, numba 0.68, a cold cache), with a margin."""

LOAD_NEED: Final = 32 * MB
"""Address space a load of one kernel from the cache may take: the tablebase builder's five
entry points grew the process by 0-17 MB each (39 MB together), with a margin. With less room
left the load is not tried: numba's C code then fails at random (SIGSEGV, SIGABRT, a
SystemError), and a process forked from one that loaded its kernels near the limit (a
tablebase worker under ``ulimit -v 400000``) starts with about 1 MB left."""

LOAD_ROOM: Final = 160 * MB
"""Under a limit, a load that fails with less room than this left was short of memory: loading
the tablebase builder's kernels from the cache grows the process by 142 MB (its threads'
stacks and heaps), the search's by 3 MB."""

_MARKERS: Final = (
    "out of memory",
    "cannot allocate memory",
    "failed to map segment",
    "bad_alloc",
    "memoryerror",
)
"""What the errors of numba, LLVM and the dynamic loader say when memory is short."""

_needs: dict[str, int] = {}
_checked: set[str] = set()


class KernelMemoryError(GameError, MemoryError):
    """A compiled kernel cannot be compiled or loaded in the memory this process may use."""

    def __new__(cls, *args: object) -> KernelMemoryError:
        # MemoryError's own __new__ is not safe for a class that also derives from
        # Exception through GameError: unpicklers that call ``cls.__new__(cls)`` (tblib's,
        # installed by the cluster's workers for tracebacks) failed with "MemoryError.__new__
        # (KernelMemoryError) is not safe". Exception's __new__ is the one this class's
        # layout takes (MemoryError's differs only by a free list for MemoryError itself).
        return Exception.__new__(cls, *args)


def need_to_compile(prefix: str, need: int) -> None:
    """Say that compiling the kernels of the modules named ``prefix`` (a package, e.g.
    ``games.ayoayo``, and its modules) takes ``need`` bytes of address space."""
    _needs[prefix] = need


def need_of(module: str) -> int:
    """The address space compiling a kernel of ``module`` takes (:func:`need_to_compile`)."""
    return _needs.get(_family(module), DEFAULT_NEED)


def _family(module: str) -> str:
    """The registered prefix ``module`` belongs to, else the module itself."""
    for prefix in _needs:
        if module == prefix or module.startswith(prefix + "."):
            return prefix
    return module


def _megabytes(size: int) -> str:
    return f"{math.ceil(size / MB):,} MB"


def check_room(module: str, name: str) -> None:
    """Before ``name`` (a kernel of ``module``) is compiled: refuse when the room left under
    the address-space limit is less than the compile needs (checked once a process for each
    family of kernels: the first compile of a family is the one the need was measured from).

    Raises:
        KernelMemoryError: naming the limit, the room and the need, and what to do.
    """
    family = _family(module)
    limit = resources.address_space_limit()
    if limit is None or family in _checked:
        return
    room = resources.address_space_room() or 0
    need = need_of(module)
    if room >= need:
        _checked.add(family)
        return
    enough = limit - room + need
    raise KernelMemoryError(
        f"compiling the kernel {name} needs about {_megabytes(need)} of address space, "
        f"{_megabytes(room)} is left under ulimit -v ({_megabytes(limit)}): raise it to "
        f"{_megabytes(enough)} or run 'gamesolver compile' once without it"
    )


def check_load_room(name: str) -> None:
    """Before kernel ``name`` is loaded from the cache: refuse when less than
    :data:`LOAD_NEED` is left under the address-space limit.

    Raises:
        KernelMemoryError: naming the limit and the room.
    """
    limit = resources.address_space_limit()
    if limit is None:
        return
    room = resources.address_space_room() or 0
    if room < LOAD_NEED:
        raise KernelMemoryError(
            f"the compiled kernel {name} cannot be loaded: {_megabytes(room)} of address space "
            f"is left under ulimit -v ({_megabytes(limit)}) and a load takes up to "
            f"{_megabytes(LOAD_NEED)}: raise the limit"
        )


def short_of_memory(error: BaseException) -> bool:
    """Whether ``error``, raised loading a kernel from the cache, came of memory being short:
    a MemoryError or ENOMEM in its chain, an error that says so, or (numba's C code failing
    without a word, "error return without exception set") a failure under an address-space
    limit with less than :data:`LOAD_ROOM` left."""
    seen: BaseException | None = error
    for _ in range(8):  # a chain of causes, not a cycle
        if seen is None:
            break
        if isinstance(seen, MemoryError):
            return True
        if isinstance(seen, OSError) and seen.errno == errno.ENOMEM:
            return True
        if any(marker in str(seen).lower() for marker in _MARKERS):
            return True
        seen = seen.__cause__ or seen.__context__
    room = resources.address_space_room()
    return room is not None and room < LOAD_ROOM


def load_failed(name: str, why: str) -> KernelMemoryError:
    """The error for kernel ``name``, whose load from the cache failed (``why``) short of
    memory: the cache entry is sound and kept."""
    limit = resources.address_space_limit()
    where = ": free some" if limit is None else f" under ulimit -v ({_megabytes(limit)}): raise it"
    return KernelMemoryError(
        f"the compiled kernel {name} could not be loaded from its cache ({why[:80]}): out of "
        f"memory{where}; the cache entry is kept"
    )


_unloadable: list[str] = []
"""Why numba could not be loaded, once said on stderr."""


def numba_loads() -> bool:
    """Whether numba imports: False quietly when it is not installed; False with one line on
    stderr (once a process) when it is but cannot be loaded (its LLVM library cannot be mapped
    under a low ``ulimit -v``, a broken install)."""
    try:
        import numba  # noqa: F401
    except ModuleNotFoundError:
        return False
    except (ImportError, OSError, MemoryError) as e:
        if not _unloadable:
            text = (str(e).strip().splitlines() or [type(e).__name__])[0].split(". ")[0][:160]
            _unloadable.append(text)
            sys.stderr.write(
                f"gamesolver: note: the compiled kernel cannot be loaded (numba: {text}); a "
                "memory limit such as ulimit -v is the usual cause; using the pure-Python "
                "engine (the same answers, slower)\n"
            )
        return False
    return True


def numba_unloadable() -> bool:
    """Whether numba is installed but could not be loaded in this process (said already)."""
    return bool(_unloadable)
