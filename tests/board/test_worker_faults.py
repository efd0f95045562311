"""The board's search workers under faults: a worker that crashes is one line in the server's
log, naming its signal and the file that keeps its crash report; the report is not shown."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from zerosum.board.workers import SearchPool


async def _until(done: Callable[[], bool], within: float = 60.0) -> None:
    deadline = time.monotonic() + within
    while not done() and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert done(), "timed out"


def test_a_crashed_worker_is_one_line_and_its_report_is_kept(
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    # The worker reports a crash as CPython does when faulthandler is on (as numba compiling
    # under ulimit -v did with "Fatal Python error: Cannot recover from MemoryErrors").
    monkeypatch.setenv("PYTHONFAULTHANDLER", "1")

    async def main() -> None:
        pool = SearchPool(1, no_tablebase=True)
        pool.start()
        try:
            await _until(lambda: pool.ready() == 1)
            os.kill(pool.workers[0].process.pid, signal.SIGABRT)
            await _until(lambda: not pool.workers, within=10)
        finally:
            pool.close()

    with caplog.at_level(logging.WARNING, logger="zerosum.board"):
        asyncio.run(main())
    err = capfd.readouterr().err
    assert "Fatal Python error" not in err and "most recent call first" not in err
    [said] = [r.getMessage() for r in caplog.records if "search worker" in r.getMessage()]
    assert "\n" not in said and "was killed by SIGABRT" in said, said
    assert "it wrote 'Fatal Python error: Aborted'" in said and "no search can run now" in said
    found = re.search(r"its whole report: (\S+\.log)\)", said)
    assert found, said
    log = Path(found.group(1))
    assert "most recent call first" in log.read_text()
    log.unlink()


def test_workers_load_the_boards_own_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker loads the search of the game the board was started with (a Connect Four
    board's workers had loaded Ayòayò's kernel, named in the worker, and not Connect Four's)."""
    from zerosum.board import app, workers

    loaded: list[str] = []
    monkeypatch.setattr(workers, "load_game", lambda name: loaded.append(name) or name)
    monkeypatch.setattr(workers, "search", lambda game, depth: None)
    workers._warm_up("connect4")
    assert loaded == ["connect4"]
    created = app.create_app(app.BoardConfig(game="connect4"))
    page = next(route for route in created.routes if getattr(route, "path", None) == "/")
    assert page.endpoint.__self__.pool.warm == "connect4"  # type: ignore[attr-defined]
