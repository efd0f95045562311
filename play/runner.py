"""The parallel runner of a match: chunks of games on worker processes or any executor.

Chunks are submitted a few per worker ahead of the results read, so memory stays flat however
many games a match has; any exception here (Ctrl-C included) ends this runner's own workers at
once, and workers exit by themselves if this process dies (:class:`solver.workers.WorkerPool`).
"""

from __future__ import annotations

import concurrent.futures
import os
from collections.abc import Callable, Iterator
from typing import Any

from play.results import GameOutcome
from solver.workers import WorkerPool

__all__ = ["chunks", "max_workers", "play_in_own_pool", "play_in_pool"]


def max_workers() -> int:
    """The most worker processes a match starts: four per CPU (more only compete for them)."""
    return 4 * (os.cpu_count() or 1)


def chunks(games: int, size: int) -> Iterator[range]:
    """The game indices ``0..games-1`` in ranges of at most ``size``."""
    for start in range(0, games, size):
        yield range(start, min(start + size, games))


def play_in_pool(
    pool: concurrent.futures.Executor,
    task: Callable[[range], Any],
    chunks: Iterator[range],
    in_flight: int,
    record: Callable[[list[GameOutcome]], None],
) -> None:
    """Run the chunks on ``pool`` with at most ``in_flight`` submitted and unread at a time."""
    pending: set[concurrent.futures.Future[list[GameOutcome]]] = set()
    try:
        while True:
            while len(pending) < in_flight:
                indices = next(chunks, None)
                if indices is None:
                    break
                pending.add(pool.submit(task, indices))
            if not pending:
                return
            done, pending = concurrent.futures.wait(
                pending, timeout=0.5, return_when=concurrent.futures.FIRST_COMPLETED
            )
            for future in done:
                record(future.result())
    finally:
        for future in pending:
            future.cancel()


def play_in_own_pool(
    workers: int,
    task: Callable[[range], Any],
    chunks: Iterator[range],
    record: Callable[[list[GameOutcome]], None],
) -> None:
    """Run the chunks on worker processes of our own (:class:`solver.workers.WorkerPool`):
    a dead worker raises :class:`solver.workers.WorkerDiedError` naming it, and any exception
    here (Ctrl-C included) ends every worker at once."""
    with WorkerPool(workers, name="match-worker") as pool:
        for outcomes in pool.imap_unordered(task, ((indices,) for indices in chunks)):
            record(outcomes)
