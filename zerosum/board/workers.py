"""Searches for the board, in worker processes: never in the server's event loop.

A :class:`SearchPool` keeps a fixed number of long-lived worker processes (so the compiled
kernel stays loaded: a new search answers its first depth at once). A search is a
:class:`Job`; each completed depth comes back as the JSON ``analyse --json`` prints for it, and
the pool hands it to the caller's callback in the event loop. At most :attr:`SearchPool.size`
searches run at once, however many pages are open; later jobs wait their turn.

Stopping a search is a SIGINT to its worker, which the engine already treats as a limit (the
compiled kernel returns to Python every ~20 ms to look). A worker ignores a SIGINT that is not
meant for the job it is running, so Ctrl-C in the server's terminal, which reaches every
process of the group, stops the server alone; the server then ends its workers. A worker
starts with SIGINT blocked, so a Ctrl-C while it is still loading is not a traceback either.

Nothing outlives the server or its budget: a worker dies with the server (the kernel's
parent-death signal, as the build's workers: :func:`solver.workers.die_with_parent`), even
after ``kill -9``; and every job has a :class:`Budget` (seconds and nodes) that the search is
given as limits, and that the pool enforces by stopping a job that runs past its seconds.

What a worker writes on stderr (the compiled kernel's notes, the traceback of a search that
failed) reaches the server's log with its next message; a worker that dies is one line in the
log naming its signal or status, and the crash report it wrote as it died is kept in a file
that line names, not shown (:mod:`solver.worker_output`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import logging
import multiprocessing
import os
import signal
import time
import traceback
from collections import deque
from collections.abc import Callable
from multiprocessing import resource_tracker
from multiprocessing.connection import Connection
from types import FrameType
from typing import Any, Final

import attrs

from games import available_games, load_game
from solver.chance import has_chance
from solver.engine import search
from solver.game import GameError
from solver.results import SearchResult
from solver.worker_output import (
    Descriptor,
    WorkerOutput,
    capture_stderr,
    start_captured,
    written,
)
from solver.workers import describe_death, die_with_parent
from zerosum.analysis import analysis_search, answer_json, over_json
from zerosum.console import UsageError
from zerosum.positions import load_position
from zerosum.proving import book_values, proved_json
from zerosum.records import parse_record
from zerosum.review import review_json, review_record
from zerosum.tablebases import open_tablebase

__all__ = [
    "DEFAULT_SEARCH_SECONDS",
    "Budget",
    "Job",
    "SearchPool",
    "SearchUnavailable",
    "default_size",
    "searchable",
    "stop_resource_tracker",
    "tablebase_warnings",
]

DEFAULT_SEARCH_SECONDS: Final = 60.0
"""How long the board's continuous analysis searches one position at most."""

STOP_WAIT: Final = 2.0
"""Seconds to wait for workers to end before they are killed."""

BUDGET_SECONDS: Final = 600.0
"""The longest any one search of the board runs, in seconds (a request may ask for less)."""

BUDGET_NODES: Final = 4_000_000_000
"""The most positions any one search of the board visits (about ten minutes of the compiled
Ayòayò search on one core; a pure-Python game's search meets it later than its seconds)."""

log = logging.getLogger("zerosum.board")

OVERRUN_GRACE: Final = 1.0
"""Seconds past its budget after which the pool stops a job that has not stopped itself."""


@attrs.frozen
class Budget:
    """What any one search of the board may take, whatever the request asks: it stops at
    ``seconds`` or ``nodes``, whichever comes first (a review: each position's search at
    ``nodes``, the whole review at ``seconds``)."""

    seconds: float = BUDGET_SECONDS
    nodes: int = BUDGET_NODES

    def to_json(self) -> dict[str, float | int]:
        """The budget as ``/api/status`` states it."""
        seconds = float(self.seconds)
        return {"seconds": int(seconds) if seconds.is_integer() else seconds, "nodes": self.nodes}


def default_size() -> int:
    """Searches run at once: one per core, two at most (each search uses a whole core)."""
    return max(1, min(2, os.cpu_count() or 1))


def stop_resource_tracker() -> None:
    """End multiprocessing's resource tracker now, once every worker has ended.

    Starting a worker starts it; it ends by itself when every process that could write to it
    has exited, i.e. only after this process's own exit (most of a second with the engine
    loaded). The board calls this as it stops, so nothing of it is left running by then.
    Its stop function is private (CPython's own tests use it): without it, nothing is done.
    """
    stop = getattr(resource_tracker._resource_tracker, "_stop", None)
    if callable(stop):
        with contextlib.suppress(OSError, ChildProcessError, RuntimeError):
            stop()


def tablebase_warnings(options: dict[str, Any]) -> list[str]:
    """What is wrong with the tablebases the workers will read (``options``: the pool's
    ``tablebase_dir`` and ``no_tablebase``): each file present but not used (damaged, of
    another level, version or lineage) named, as ``analyse`` warns of them; a
    ``tablebase_dir`` that is not a directory, said so. Empty when all is well."""
    found: list[str] = []
    for name in available_games():
        try:
            game = load_game(name)
        except Exception:  # a broken plug-in: the page names it with its error (/api/games)
            continue
        try:
            open_tablebase(game, argparse.Namespace(**options), found.append)
        except (GameError, UsageError, OSError) as exc:
            found.append(f"warning: {exc}")
    return list(dict.fromkeys(found))


def _deterministic(name: str) -> bool:
    """Whether the game registered as ``name`` loads and has no chance moves."""
    try:
        return not has_chance(load_game(name))
    except Exception:  # a broken plug-in: the page names it with its error (/api/games)
        return False


def searchable(game: Any) -> None:
    """Refuse, before a worker is asked, a game the board's engine cannot search.

    Raises:
        UsageError: the game has chance moves (the message names the games that would do).
    """
    if has_chance(game):
        names = [name for name in available_games() if _deterministic(name)]
        raise UsageError(
            f"the board cannot analyse game {game.name!r}: it has chance moves, and the "
            f"engine assumes a deterministic game; the board analyses: {', '.join(names)} "
            f"(for {game.name!r}: gamesolver solve {game.name})"
        )


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
    output: WorkerOutput
    ready: bool = False
    job: Job | None = None
    on_line: OnLine | None = None
    done: asyncio.Future[dict[str, Any] | None] | None = None
    stopped: bool = False
    stop_asked: float = 0.0
    overrun: asyncio.TimerHandle | None = None
    """The call that stops the job if it runs past its budget."""
    over_budget: bool = False


class SearchPool:
    """Worker processes that run searches, at most ``size`` at once.

    Args:
        size: worker processes (searches at once).
        tablebase_dir: where endgame tablebases are (None: the default place).
        no_tablebase: do not use tablebases.
        budget: what any one search may take.
        warm: the game (a registry name) whose search each worker loads as it starts, so the
            first search of the board's game answers at once (its compiled kernel loaded);
            None loads nothing ahead.
    """

    def __init__(
        self,
        size: int | None = None,
        tablebase_dir: str | None = None,
        no_tablebase: bool = False,
        budget: Budget | None = None,
        warm: str | None = None,
    ) -> None:
        self.size = size or default_size()
        self.budget = budget or Budget()
        self.options = {"tablebase_dir": tablebase_dir, "no_tablebase": no_tablebase}
        self.warm = warm
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
        arguments = (os.getpid(), self.options, self.budget, self.warm)
        # Started with SIGINT blocked (a child inherits the mask): a Ctrl-C while a worker
        # loads waits until the worker's own handler is in place, which ignores it. The
        # resource tracker first: starting it unblocks SIGINT.
        resource_tracker.ensure_running()
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            for n in range(self.size):
                mine, theirs = context.Pipe()
                stop = context.Value("q", 0, lock=False)
                process, output = start_captured(
                    context, f"board-worker-{n}", _worker_main, (theirs, stop, *arguments)
                )
                theirs.close()
                worker = _Worker(process, mine, stop, output)
                self.workers.append(worker)
                self.loop.add_reader(mine.fileno(), self._readable, worker)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)

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
        worker.over_budget = False
        worker.done = self.loop.create_future()
        worker.overrun = self.loop.call_later(
            self.budget.seconds + OVERRUN_GRACE, self._over_budget, worker, job
        )
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

    def _over_budget(self, worker: _Worker, job: Job) -> None:
        if worker.job is not None and worker.job.id == job.id:
            worker.over_budget = True
            self.stop(job)

    def ready(self) -> int:
        """Workers that have loaded the engine."""
        return sum(worker.ready for worker in self.workers)

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
        if worker.overrun is not None:
            worker.overrun.cancel()
        worker.job = worker.on_line = worker.done = worker.overrun = None
        while self.waiting:
            waiter = self.waiting.popleft()
            if not waiter.done():
                waiter.set_result(worker)
                return

    def _readable(self, worker: _Worker) -> None:
        try:
            while worker.conn.poll():
                said, message = worker.conn.recv()
                worker.output.relay(said)  # what it wrote before: notes, a failed search's
                self._message(worker, message)
        except (EOFError, OSError):  # the worker died (it is killed only when closing)
            self._lost(worker)

    def _lost(self, worker: _Worker) -> None:
        """A worker died: one line in the log says how (its crash report kept in a file that
        line names); its search answers None; with none left, the waiting jobs fail."""
        assert self.loop is not None
        self.loop.remove_reader(worker.conn.fileno())
        self.workers.remove(worker)
        worker.process.join(STOP_WAIT)  # its pipe has closed: it has ended, or is ending
        exitcode = worker.process.exitcode
        how = describe_death(exitcode, worker.output.last_words())
        worker.output.finish(exitcode)
        worker.conn.close()
        left = f"{len(self.workers)} left" if self.workers else "no search can run now"
        log.warning(
            "gamesolver: board: search worker (pid %s) %s; %s", worker.process.pid, how, left
        )
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
            if worker.over_budget:
                answer = {
                    "error": f"the search ran past the board's budget of "
                    f"{self.budget.seconds:g} s and was stopped: ask for less (depth or time)"
                }
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
            worker.output.finish(worker.process.exitcode)  # ended by force: nothing to pass on
            if worker.done is not None and not worker.done.done():
                worker.done.set_result(None)
        self.workers.clear()
        for waiter in self.waiting:
            if not waiter.done():
                waiter.cancel()
        self.waiting.clear()


@attrs.define
class _Running:
    """What a worker's SIGINT handler needs: the job running, whether it is a review (many
    searches) and whether it may raise now."""

    job: int = 0
    review: bool = False
    sending: bool = False
    pending: bool = False


class _JobStopped(BaseException):
    """Ends a whole job in a worker: a review's many searches, where a KeyboardInterrupt
    would end only the search running (the engine takes it as that search's limit)."""


def _send(conn: Connection, message: tuple[Any, ...]) -> None:
    """Send ``message`` to the pool, with how much the worker has written on stderr by now."""
    conn.send((written(), message))


def _worker_main(
    conn: Connection,
    stop: Any,
    parent: int,
    options: dict[str, Any],
    budget: Budget,
    warm: str | None,
    capture: Descriptor | None = None,
) -> None:
    """A worker: load the engine, then run jobs until the pipe closes or ``parent`` dies;
    what it writes on stderr goes into ``capture``."""
    capture_stderr(capture)
    die_with_parent(parent)
    running = _Running()

    def on_sigint(signum: int, frame: FrameType | None) -> None:
        if running.job and stop.value == running.job:
            if running.sending:
                running.pending = True
            elif running.review:
                raise _JobStopped
            else:
                raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_sigint)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # blocked by the pool
    if warm is not None:
        _warm_up(warm)
    _send(conn, ("ready",))
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
        running.review = job.record is not None
        running.job = job.id  # from here a SIGINT for this job stops it
        try:
            if stop.value != job.id:  # not stopped before it started
                answer = _run_job(job, conn, running, options, budget)
        except (KeyboardInterrupt, _JobStopped):
            answer = None
        except Exception as exc:  # a bug: reported to the page, and the worker lives on
            answer = {"error": f"the search failed: {type(exc).__name__}: {exc}", "bug": True}
            traceback.print_exc()
        finally:
            running.job = 0
            running.pending = False
        _send(conn, ("done", job.id, answer))


def _warm_up(name: str) -> None:
    """Load game ``name``'s search now (its compiled kernel, where it has one), so the first
    real search answers at once."""
    with contextlib.suppress(GameError, ImportError):
        search(load_game(name), depth=2)


def _run_job(
    job: Job, conn: Connection, running: _Running, options: dict[str, Any], budget: Budget
) -> dict[str, Any]:
    """Search ``job``'s position within ``budget``, sending each completed depth; the final
    answer. The answer says the time asked for, as ``analyse --json`` does; the search is
    given the budget's limits too."""
    seconds = budget.seconds if job.time is None else min(job.time, budget.seconds)
    tablebase = None
    try:
        game, state = load_position(job.game, job.position)
        tablebase = open_tablebase(game, argparse.Namespace(**options))
        if job.record is not None:
            record = parse_record(job.record)
            _, reviews = review_record(
                record,
                depth=job.depth,
                time_limit=None if job.time is None else seconds,
                tablebase=tablebase,
                node_limit=budget.nodes,
            )
            return review_json(game, record, reviews)
        if game.is_terminal(state):
            return over_json(game, state)

        proved = proved_json(game, book_values(game, state, tablebase))  # the opening book's

        def on_depth(result: SearchResult) -> None:
            line = answer_json(game, state, result, tablebase=tablebase, time_limit=job.time)
            line.update(proved)
            running.sending = True
            _send(conn, ("line", job.id, line))
            running.sending = False
            if running.pending:
                raise KeyboardInterrupt  # a stop arrived while sending: the engine stops here

        result = analysis_search(
            game,
            state,
            depth=job.depth,
            time_limit=seconds,
            node_limit=budget.nodes,
            tablebase=tablebase,
            on_depth=on_depth,
        )
    except (GameError, ValueError) as exc:  # the game's or the tablebase's own message
        if tablebase is None:
            return {"error": str(exc)}
        where = getattr(tablebase, "directory", "its directory")
        return {
            "error": f"{exc} (with the tablebase in {where}: it may be damaged; "
            f"'gamesolver tablebase info {game.name} --dir DIR' checks it, and the board "
            "answers without it when started with --no-tablebase)"
        }
    return {**answer_json(game, state, result, tablebase=tablebase, time_limit=job.time), **proved}
