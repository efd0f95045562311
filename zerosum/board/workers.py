"""Searches for the board, in worker processes: never in the server's event loop.

A :class:`SearchPool` keeps a fixed number of long-lived worker processes (so the compiled
kernel stays loaded: a new search answers its first depth at once). A search is a
:class:`Job`; each completed depth comes back as the JSON ``analyse --json`` prints for it, and
the pool hands it to the caller's callback in the event loop. At most :attr:`SearchPool.size`
searches run at once, however many pages are open; later jobs wait their turn.

Stopping a search is a SIGINT to its worker, which the engine already treats as a limit (the
compiled kernel returns to Python every ~20 ms to look). A worker ignores a SIGINT that is not
meant for the job it is running, so Ctrl-C in the server's terminal, which reaches every
process of the group, stops the server alone; the server then ends its workers.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import multiprocessing
import os
import signal
import time
import traceback
from collections import deque
from collections.abc import Callable
from multiprocessing.connection import Connection
from types import FrameType
from typing import Any, Final

import attrs

from games import load_game
from solver.engine import search
from solver.game import GameError
from solver.results import SearchResult
from zerosum.board.views import load_position
from zerosum.commands.analyse import analysis_search, answer_json, over_json
from zerosum.records import parse_record
from zerosum.review import review_json, review_record
from zerosum.tablebases import open_tablebase

__all__ = [
    "DEFAULT_SEARCH_SECONDS",
    "Job",
    "SearchPool",
    "SearchUnavailable",
    "default_size",
]

DEFAULT_SEARCH_SECONDS: Final = 60.0
"""How long the board's continuous analysis searches one position at most."""

STOP_WAIT: Final = 2.0
"""Seconds to wait for workers to end before they are killed."""


def default_size() -> int:
    """Searches run at once: one per core, two at most (each search uses a whole core)."""
    return max(1, min(2, os.cpu_count() or 1))


@attrs.frozen
class Job:
    """One search: a position of a game, to a depth or for a time."""

    id: int
    game: str
    position: str
    depth: int | None = None
    time: float | None = None
    record: str | None = None
    """A game record to review (the job is then a review, not an analysis)."""


class SearchUnavailable(RuntimeError):
    """No worker is left to run a search (they failed to start, or the server is closing)."""


OnLine = Callable[[dict[str, Any]], None]


@attrs.define
class _Worker:
    process: Any
    conn: Connection
    stop: Any  # a shared ctypes int: the id of the job to stop
    ready: bool = False
    job: Job | None = None
    on_line: OnLine | None = None
    done: asyncio.Future[dict[str, Any] | None] | None = None
    stopped: bool = False
    stop_asked: float = 0.0


class SearchPool:
    """Worker processes that run searches, at most ``size`` at once.

    Args:
        size: worker processes (searches at once).
        tablebase_dir: where endgame tablebases are (None: the default place).
        no_tablebase: do not use tablebases.
    """

    def __init__(
        self, size: int | None = None, tablebase_dir: str | None = None, no_tablebase: bool = False
    ) -> None:
        self.size = size or default_size()
        self.options = {"tablebase_dir": tablebase_dir, "no_tablebase": no_tablebase}
        self.workers: list[_Worker] = []
        self.waiting: deque[asyncio.Future[_Worker]] = deque()
        self.ids = itertools.count(1)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.stop_seconds: deque[float] = deque(maxlen=100)
        """How long the latest stopped searches took to stop (seconds), newest last."""

    def start(self) -> None:
        """Start the workers (they load the engine in the background)."""
        self.loop = asyncio.get_running_loop()
        context = multiprocessing.get_context("spawn")
        for _ in range(self.size):
            mine, theirs = context.Pipe()
            stop = context.Value("q", 0, lock=False)
            process = context.Process(
                target=_worker_main, args=(theirs, stop, self.options), daemon=True
            )
            process.start()
            theirs.close()
            worker = _Worker(process, mine, stop)
            self.workers.append(worker)
            self.loop.add_reader(mine.fileno(), self._readable, worker)

    def new_job(
        self,
        game: str,
        position: str,
        depth: int | None = None,
        time: float | None = None,
        record: str | None = None,
    ) -> Job:
        """A job with a fresh id."""
        return Job(next(self.ids), game, position, depth, time, record)

    async def run(self, job: Job, on_line: OnLine | None = None) -> dict[str, Any] | None:
        """Run ``job`` when a worker is free; ``on_line`` gets each completed depth.

        Returns the final answer (None when the search was stopped). Cancelling the caller
        stops the search.
        """
        worker = await self._free_worker()
        assert self.loop is not None
        worker.job, worker.on_line, worker.stopped = job, on_line, False
        worker.done = self.loop.create_future()
        worker.conn.send(job)
        try:
            return await asyncio.shield(worker.done)
        except asyncio.CancelledError:
            self.stop(job)
            raise

    def stop(self, job: Job) -> None:
        """Stop ``job`` at once if it is running (a waiting job is simply never started)."""
        for worker in self.workers:
            if worker.job is not None and worker.job.id == job.id and not worker.stopped:
                worker.stopped = True
                worker.stop_asked = time.perf_counter()
                worker.stop.value = job.id
                with contextlib.suppress(ProcessLookupError):
                    os.kill(worker.process.pid, signal.SIGINT)

    def busy(self) -> int:
        """Searches running now."""
        return sum(worker.job is not None for worker in self.workers)

    async def _free_worker(self) -> _Worker:
        if not self.workers:
            raise SearchUnavailable("the search workers have stopped")
        for worker in self.workers:
            if worker.ready and worker.job is None and not self.waiting:
                return worker
        assert self.loop is not None
        waiter: asyncio.Future[_Worker] = self.loop.create_future()
        self.waiting.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self._release(waiter.result())  # handed a worker just as we were cancelled
            with contextlib.suppress(ValueError):
                self.waiting.remove(waiter)
            raise

    def _release(self, worker: _Worker) -> None:
        worker.job = worker.on_line = worker.done = None
        while self.waiting:
            waiter = self.waiting.popleft()
            if not waiter.done():
                waiter.set_result(worker)
                return

    def _readable(self, worker: _Worker) -> None:
        try:
            while worker.conn.poll():
                self._message(worker, worker.conn.recv())
        except (EOFError, OSError):  # the worker died (it is killed only when closing)
            self._lost(worker)

    def _lost(self, worker: _Worker) -> None:
        """A worker died: its search answers None; with none left, the waiting jobs fail."""
        assert self.loop is not None
        self.loop.remove_reader(worker.conn.fileno())
        self.workers.remove(worker)
        if worker.done is not None and not worker.done.done():
            worker.done.set_result(None)
        if not self.workers:
            while self.waiting:
                waiter = self.waiting.popleft()
                if not waiter.done():
                    waiter.set_exception(SearchUnavailable("the search workers have stopped"))

    def _message(self, worker: _Worker, message: tuple[Any, ...]) -> None:
        kind = message[0]
        if kind == "ready":
            worker.ready = True
            self._release(worker)
        elif kind == "line":
            if worker.on_line is not None and not worker.stopped:
                worker.on_line(message[2])
        elif kind == "done":
            if worker.stopped:
                self.stop_seconds.append(time.perf_counter() - worker.stop_asked)
            done = worker.done
            answer = None if worker.stopped else message[2]
            self._release(worker)
            if done is not None and not done.done():
                done.set_result(answer)

    def close_soon(self) -> None:
        """Close the pool from a signal handler: at the event loop's next turn."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.close)

    def close(self) -> None:
        """End every worker (at once: they hold nothing worth saving)."""
        for worker in self.workers:
            if self.loop is not None:
                with contextlib.suppress(ValueError, OSError):
                    self.loop.remove_reader(worker.conn.fileno())
            if worker.process.is_alive():
                worker.process.terminate()
        for worker in self.workers:
            worker.process.join(STOP_WAIT)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(STOP_WAIT)
            worker.conn.close()
            if worker.done is not None and not worker.done.done():
                worker.done.set_result(None)
        self.workers.clear()
        for waiter in self.waiting:
            if not waiter.done():
                waiter.cancel()
        self.waiting.clear()


@attrs.define
class _Running:
    """What a worker's SIGINT handler needs: the job running and whether it may raise now."""

    job: int = 0
    sending: bool = False
    pending: bool = False


def _worker_main(conn: Connection, stop: Any, options: dict[str, Any]) -> None:
    """A worker: load the engine, then run jobs until the pipe closes."""
    running = _Running()

    def on_sigint(signum: int, frame: FrameType | None) -> None:
        if running.job and stop.value == running.job:
            if running.sending:
                running.pending = True
            else:
                raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_sigint)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _warm_up()
    conn.send(("ready",))
    while True:
        try:
            job = conn.recv()
        except KeyboardInterrupt:
            continue
        except (EOFError, OSError):
            return
        if job is None:
            return
        answer: dict[str, Any] | None = None
        running.job = job.id  # from here a SIGINT for this job stops it
        try:
            if stop.value != job.id:  # not stopped before it started
                answer = _run_job(job, conn, running, options)
        except KeyboardInterrupt:
            answer = None
        except Exception as exc:  # a bug: reported to the page, and the worker lives on
            answer = {"error": f"the search failed: {type(exc).__name__}: {exc}", "bug": True}
            traceback.print_exc()
        finally:
            running.job = 0
            running.pending = False
        conn.send(("done", job.id, answer))


def _warm_up() -> None:
    """Load the compiled kernel now, so the first real search answers at once."""
    with contextlib.suppress(GameError, ImportError):
        search(load_game("ayoayo"), depth=2)


def _run_job(
    job: Job, conn: Connection, running: _Running, options: dict[str, Any]
) -> dict[str, Any]:
    """Search ``job``'s position, sending each completed depth; the final answer."""
    try:
        game, state = load_position(job.game, job.position)
        tablebase = open_tablebase(game, argparse.Namespace(**options))
        if job.record is not None:
            record = parse_record(job.record)
            _, reviews = review_record(
                record, depth=job.depth, time_limit=job.time, tablebase=tablebase
            )
            return review_json(game, record, reviews)
    except (GameError, ValueError) as exc:
        return {"error": str(exc)}
    if game.is_terminal(state):
        return over_json(game, state)

    def on_depth(result: SearchResult) -> None:
        line = answer_json(game, state, result, tablebase=tablebase, time_limit=job.time)
        running.sending = True
        conn.send(("line", job.id, line))
        running.sending = False
        if running.pending:
            raise KeyboardInterrupt  # a stop arrived while sending: the engine stops here

    result = analysis_search(
        game, state, depth=job.depth, time_limit=job.time, tablebase=tablebase, on_depth=on_depth
    )
    return answer_json(game, state, result, tablebase=tablebase, time_limit=job.time)
