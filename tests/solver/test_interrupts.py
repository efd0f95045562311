"""solver.interrupts: a Ctrl-C lost in a C library's callback is reported nowhere, and only
that: the caller raises it once the C call is over."""

from __future__ import annotations

import ctypes
import sys

import pytest

from solver.interrupts import quiet_lost_interrupts

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
