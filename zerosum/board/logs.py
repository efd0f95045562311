"""The board's log, kept readable under a flood: a line repeated many times is summarised.

A client that floods the board with bad requests (or with connections that are not HTTP)
makes the server log the same warning for each. :class:`RepeatedLines` lets the first few of
a kind through in each minute and then counts the rest, which the next one let through
reports: ``Invalid HTTP request received. (and 197 more like it in the last 60 s)``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Final

__all__ = ["REPEATS", "WINDOW", "RepeatedLines"]

REPEATS: Final = 3
"""How many lines of one kind are logged in each window."""

WINDOW: Final = 60.0
"""The window, in seconds."""


class RepeatedLines(logging.Filter):
    """A logging filter that lets :data:`REPEATS` lines of a kind (logger, level, message
    template) through per :data:`WINDOW` seconds and counts the others.

    >>> lines = RepeatedLines(repeats=2, window=60, clock=lambda: 0.0)
    >>> record = logging.makeLogRecord({"msg": "bad request", "levelno": 30})
    >>> [lines.filter(record) for _ in range(4)]
    [True, True, False, False]
    >>> lines.clock = lambda: 61.0
    >>> lines.filter(record), record.getMessage()
    (True, 'bad request (and 2 more like it in the last 60 s)')
    """

    def __init__(
        self,
        repeats: int = REPEATS,
        window: float = WINDOW,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.repeats = repeats
        self.window = window
        self.clock = clock
        self.seen: dict[tuple[str, int, object], list[float]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.levelno, record.msg)
        now = self.clock()
        started, count = self.seen.get(key, [now, 0.0])
        if now - started >= self.window:
            dropped = int(count) - self.repeats
            self.seen[key] = [now, 1.0]
            if dropped > 0:
                record.msg = (
                    f"{record.getMessage()} (and {dropped} more like it in the last "
                    f"{self.window:g} s)"
                )
                record.args = None
            return True
        if len(self.seen) > 1000 and key not in self.seen:
            self.seen.clear()  # many kinds at once: start over rather than grow
        self.seen[key] = [started, count + 1]
        return count + 1 <= self.repeats
