"""A bounded transposition table for the engine: entries with bound flags, capped in size.

Alpha-beta values found in a narrowed window are only bounds, so an entry records what its value
means: ``EXACT``, ``LOWER`` (the true value is at least ``value``) or ``UPPER`` (at most). Values
are from the point of view of the player to move in the stored position (the engine is negamax
inside); nothing outside the engine sees them.

Layout and bound. The table is a dict from a position's key to an entry tuple::

    (value, depth, flag, move, free, generation)

``depth`` is the remaining depth the position was searched to (:data:`END` when the search had
no horizon). ``free`` is True when no horizon evaluation influenced the value: the value is then
the game-theoretic one and holds at any remaining depth >= ``depth``. ``move`` is the best move
found (or the move that caused the cut-off). ``generation`` is the iteration of iterative
deepening that stored the entry. Nothing is allocated up front (a search that visits 3,000
positions pays for 3,000 entries, not for ``size``).

Replacement policy (aging, then a fresh start): a position's new entry replaces its old one.
When a store would take the table past ``size`` entries, the table forgets every entry of an
older generation if that frees at least a quarter of it; otherwise it forgets everything. Either
way a quarter of the table is freed, so the cost is O(1) per store amortised, and the table
never holds more than ``size`` entries. ``stores`` counts entries written, ``overwrites`` the
writes that replaced an entry of the same position, ``evictions`` the entries forgotten to make
room, ``hits`` the :meth:`~TranspositionTable.get` calls that found their key (the engine's hot
loop reads :attr:`TranspositionTable.entries` directly, unpacking an entry into named locals).

>>> table = TranspositionTable(4)
>>> table.store("a", 3, 2, EXACT, 0)
>>> table.get("a")
(3, 2, 0, 0, False, 0)
>>> table.store("b", 3, 2, EXACT, 0)
>>> table.new_generation()
>>> for key in "cde":  # at "e" the table is full: "a" and "b" are older and go
...     table.store(key, 5, 1, LOWER, 1)
>>> sorted(table.entries), table.evictions, len(table) <= table.size
(['c', 'd', 'e'], 2, True)
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Any, Final, TypeAlias

__all__ = ["END", "EXACT", "LOWER", "UPPER", "Entry", "TranspositionTable", "bound_name"]

EXACT: Final = 0
"""The stored value is the position's value at the stored depth."""
LOWER: Final = 1
"""The stored value is a lower bound (the search failed high: value >= beta)."""
UPPER: Final = 2
"""The stored value is an upper bound (the search failed low: value <= alpha)."""

END: Final[float] = math.inf
"""The remaining depth of a search with no horizon (to the end of the game)."""

Entry: TypeAlias = tuple[Any, float, int, Any, bool, int]
"""``(value, depth, flag, move, free, generation)``."""

_BOUND_NAMES: Final = ("exact", "lower", "upper")


def bound_name(flag: int) -> str:
    """``"exact"``, ``"lower"`` or ``"upper"`` for a flag.

    >>> bound_name(LOWER)
    'lower'
    """
    return _BOUND_NAMES[flag]


class TranspositionTable:
    """At most ``size`` entries keyed by position; see the module docstring for the policy.

    Args:
        size: the most entries the table can hold (>= 1).

    Raises:
        ValueError: ``size`` is not a positive int.

    >>> table = TranspositionTable(8)
    >>> table.store("s", 1, 3, UPPER, 0, free=True)
    >>> table.get("s"), table.get("t"), table
    ((1, 3, 2, 0, True, 0), None, <TranspositionTable 1/8 entries>)
    """

    __slots__ = ("entries", "evictions", "generation", "hits", "size", "stores")

    def __init__(self, size: int) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ValueError(f"invalid table size {size!r}: use a whole number of entries >= 1")
        self.size: int = size
        self.entries: dict[Hashable, Entry] = {}
        self.generation: int = 0
        self.hits: int = 0
        self.stores: int = 0
        self.evictions: int = 0

    def __repr__(self) -> str:
        return f"<TranspositionTable {len(self)}/{self.size} entries>"

    def __len__(self) -> int:
        return len(self.entries)

    def get(self, key: Hashable) -> Entry | None:
        """The entry stored for ``key``, or None; counts a hit when found."""
        entry = self.entries.get(key)
        if entry is not None:
            self.hits += 1
        return entry

    @property
    def overwrites(self) -> int:
        """The stores that replaced an entry of the same position.

        Every store adds a key or replaces one, and only :meth:`make_room` removes keys, so
        this is the stores that did not add a key now held or since evicted.
        """
        return self.stores - len(self.entries) - self.evictions

    def store(
        self,
        key: Hashable,
        value: Any,
        depth: float,
        flag: int,
        move: Any,
        free: bool = False,
    ) -> None:
        """Store an entry (replacing the position's old one), making room when full."""
        entries = self.entries
        entries[key] = (value, depth, flag, move, free, self.generation)
        self.stores += 1
        if len(entries) > self.size:
            self.make_room()

    def make_room(self) -> None:
        """Free a quarter of the table or more: older generations if that suffices, else all.

        :meth:`store` calls this when a store took the table past ``size``.
        """
        entries = self.entries
        generation = self.generation
        old = [key for key, (*_, stored_in) in entries.items() if stored_in != generation]
        if len(entries) - len(old) <= self.size - max(1, self.size // 4):
            for key in old:
                del entries[key]
            self.evictions += len(old)
        else:
            self.evictions += len(entries)
            entries.clear()

    def new_generation(self) -> None:
        """Start a new generation (the engine calls it once per iteration): older entries age."""
        self.generation += 1

    def clear(self) -> None:
        """Forget every entry and reset the counters."""
        self.entries.clear()
        self.generation = self.hits = self.stores = self.evictions = 0
