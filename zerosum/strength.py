"""Named strength levels for the computer player, from beginner to perfect.

Each level is an engine limit: a fixed depth (the same move every time, whatever the machine)
or a time per move. Every level uses the endgame tablebase where one is built, and the engine
stops early wherever it proves the exact value, so the strongest level plays perfectly wherever
the tablebase or an exact search reaches.
"""

from __future__ import annotations

from typing import Final

import attrs

from solver.quoting import quote
from zerosum.console import UsageError

__all__ = ["LEVELS", "Level", "level"]


@attrs.frozen
class Level:
    """A strength level: a name, its engine limit and a line for people."""

    name: str
    depth: int | None
    seconds: float | None
    said: str

    @property
    def agent(self) -> str:
        """The agent spec of this level (``engine:d2``, ``engine:3``)."""
        return f"engine:d{self.depth}" if self.depth is not None else f"engine:{self.seconds:g}"


LEVELS: Final = {
    level.name: level
    for level in (
        Level("beginner", 1, None, "looks one move ahead"),
        Level("casual", 2, None, "looks at the reply too"),
        Level("club", 4, None, "four plies ahead"),
        Level("strong", 8, None, "eight plies ahead"),
        Level("expert", None, 1.0, "one second a move, twenty plies and more"),
        Level(
            "perfect", None, 5.0, "five seconds a move; exact where tablebases and solving reach"
        ),
    )
}
"""The levels, weakest first."""


def level(name: str) -> Level:
    """The level called ``name``.

    Raises:
        UsageError: no level has that name (the message lists them).

    >>> level("club").agent
    'engine:d4'
    """
    found = LEVELS.get(str(name).strip().lower())
    if found is None:
        raise UsageError(f"unknown strength {quote(name)}; levels: {', '.join(LEVELS)}")
    return found
