"""solver.interrupts: a Ctrl-C lost in a C library's callback is reported nowhere, and only
that; a compile it broke stops with the interrupt, not with the compile's failure."""

from __future__ import annotations

import ctypes
import os
import signal
import sys

import pytest

from solver.interrupts import compiling, quiet_lost_interrupts

CALLBACK = ctypes.CFUNCTYPE(None)


def _raising(error: type[BaseException]) -> object:
    def callback() -> None:
        raise error

    return CALLBACK(callback)


def test_only_an_interrupt_in_a_callback_goes_unreported(monkeypatch: pytest.MonkeyPatch) -> None:
    """ctypes reports an exception its callback raised through sys.unraisablehook (printed as
    ignored, with a traceback): in the block a KeyboardInterrupt's report is dropped, any
    other goes on; after it, the hook is the one before."""
    seen: list[type[BaseException] | None] = []

    def recorder(unraisable: sys.UnraisableHookArgs) -> None:
        seen.append(unraisable.exc_type)

    monkeypatch.setattr(sys, "unraisablehook", recorder)
    with quiet_lost_interrupts():
        _raising(KeyboardInterrupt)()  # type: ignore[operator]
        _raising(ValueError)()  # type: ignore[operator]
    assert seen == [ValueError]
    assert sys.unraisablehook is recorder
    _raising(KeyboardInterrupt)()  # type: ignore[operator]
    assert seen == [ValueError, KeyboardInterrupt]


def test_a_compile_broken_by_a_lost_interrupt_stops_as_asked() -> None:
    """Ctrl-C inside a C callback is lost there and the C call fails later: out of
    ``compiling`` comes the KeyboardInterrupt, not the failure."""

    def interrupted() -> None:
        os.kill(os.getpid(), signal.SIGINT)  # its KeyboardInterrupt is raised in here: lost

    callback = CALLBACK(interrupted)

    def broken_compile() -> None:
        with compiling():
            callback()
            raise RuntimeError("no compiled object yet")  # as the broken compile then fails

    with pytest.raises(KeyboardInterrupt):
        broken_compile()


def test_other_failures_of_a_compile_go_on_as_they_are() -> None:
    def failing_compile() -> None:
        with compiling():
            raise RuntimeError("no compiled object yet")

    with pytest.raises(RuntimeError, match="no compiled object yet"):
        failing_compile()
