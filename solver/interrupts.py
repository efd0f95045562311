"""Noticing Ctrl-C inside code that answers it on its own.

The engine treats Ctrl-C (``KeyboardInterrupt``) as a limit: it stops and returns its last
completed depth. That is right for an analysis, but a caller may need to know it happened: a
match agent must not play that shallower move as if it were its real one, and ``analyse``
exits with status 130 after showing the answer so far. :func:`watching_interrupts` records
whether SIGINT arrived while its block ran, and lets the usual ``KeyboardInterrupt`` happen.

Assumes CPython signal semantics: only the main thread receives signals; elsewhere, and when
SIGINT is ignored or left to the default action, the watch sees nothing.

>>> with watching_interrupts() as watch:
...     pass
>>> watch.interrupted
False
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType

import attrs

__all__ = ["InterruptWatch", "compiling", "quiet_lost_interrupts", "watching_interrupts"]


@attrs.define
class InterruptWatch:
    """Whether a Ctrl-C arrived during a :func:`watching_interrupts` block."""

    interrupted: bool = False


@contextlib.contextmanager
def watching_interrupts() -> Iterator[InterruptWatch]:
    """Record in the yielded watch whether SIGINT arrived while the block ran.

    The handler that was in place still runs (so ``KeyboardInterrupt`` is raised as usual) and
    is restored afterwards.
    """
    watch = InterruptWatch()
    if threading.current_thread() is not threading.main_thread():
        yield watch
        return
    previous = signal.getsignal(signal.SIGINT)
    if not callable(previous):  # SIG_IGN or SIG_DFL: no KeyboardInterrupt to notice
        yield watch
        return

    def notice(signum: int, frame: FrameType | None) -> None:
        watch.interrupted = True
        previous(signum, frame)

    signal.signal(signal.SIGINT, notice)
    try:
        yield watch
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def quiet_lost_interrupts() -> Iterator[None]:
    """A ``KeyboardInterrupt`` raised inside a C library's callback into Python (numba's
    compile calls back from LLVM) cannot propagate: Python reports it through
    ``sys.unraisablehook`` as an ignored exception, with its traceback. In this block such a
    report is dropped (other reports go on as before); the caller, watching with
    :func:`watching_interrupts`, raises the interrupt itself once the C call is over."""
    previous = sys.unraisablehook

    def hook(unraisable: sys.UnraisableHookArgs) -> None:
        if unraisable.exc_type is not None and issubclass(unraisable.exc_type, KeyboardInterrupt):
            return
        previous(unraisable)

    sys.unraisablehook = hook
    try:
        yield
    finally:
        sys.unraisablehook = previous


@contextlib.contextmanager
def compiling() -> Iterator[None]:
    """A block that compiles kernels (numba, calling back from LLVM), where a Ctrl-C may be
    lost in a callback and break the compile: an exception out of the block while SIGINT
    arrived in it becomes the ``KeyboardInterrupt`` that was asked for (the lost one's report
    dropped, :func:`quiet_lost_interrupts`); any other exception goes on as it is."""
    with watching_interrupts() as watch, quiet_lost_interrupts():
        try:
            yield
        except Exception:
            if watch.interrupted:
                raise KeyboardInterrupt from None
            raise
