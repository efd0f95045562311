"""What Ayòayò's compiled searches share: a position's exact key, and the endgame tablebase
read inside a kernel.

The node searches (the compiled route's rules, :mod:`games.ayoayo.native_route`, and the
hand-written :mod:`games.ayoayo.native_search`) and the proof search
(:mod:`games.ayoayo.native_proof`) key their tables by :func:`key_of` and probe the tablebase
with :func:`tablebase_value`: the levels present are handed to the kernel as memory-mapped
arrays (:func:`levels_of`), and a position one of them holds is ranked (stars and bars over the
mover's view, the captured split) and read there, at kernel speed. Missing levels are simply
not probed.

>>> levels, lookup, top = levels_of(None)
>>> len(levels), top
(13, -1)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from games.ayoayo.board import TOTAL_SEEDS, WIN_THRESHOLD
from games.ayoayo.native_jit import kernel
from games.ayoayo.native_tablebase import view_rank
from games.ayoayo.tablebase import Tablebase
from games.ayoayo.tablebase_index import splits

__all__ = [
    "LEVELS",
    "NOT_COVERED",
    "PROBE_CACHE",
    "Levels",
    "key_of",
    "levels_of",
    "tablebase_of",
    "tablebase_value",
]

Array = npt.NDArray[np.int64]
Levels = tuple[npt.NDArray[np.int8], ...]
"""One memory-mapped array per level 0, 4, ..., 48 (an empty one for a level not present)."""

LEVELS: Final = TOTAL_SEEDS // 4 + 1

PROBE_CACHE: Final = 1 << 16
"""Entries of the cache of recent tablebase probes (512 KB: it stays in the processor's cache)."""

NOT_COVERED: Final = 1 << 30
"""What :func:`tablebase_value` answers for a position the tablebase does not hold."""

OCCUPIED: Final = 1 << 40
"""A bit of every key's second word, so a key is never two zeros (an empty table entry)."""


@kernel
def key_of(s: Array) -> tuple[int, int]:
    """The position packed exactly into two words (6 bits a pit or count)."""
    k1 = 0
    for i in range(10):
        k1 |= s[i] << (6 * i)
    k2 = s[10] | (s[11] << 6) | (s[12] << 12) | (s[13] << 18) | (s[14] << 24) | OCCUPIED
    return k1, k2


@kernel
def tablebase_value(s: Array, levels: Levels, lookup: Array, tb_max: int) -> int:
    """The tablebase's exact value of ``s`` for its mover, or :data:`NOT_COVERED`.

    As :meth:`games.ayoayo.tablebase.Tablebase.probe` in the mover's view: the 12 pits from the
    mover's own first, ranked by stars and bars (:mod:`games.ayoayo.tablebase_index`), in the
    row of the mover's captured split. A finished game (more than 24) is left to the caller.
    """
    c0 = s[12]
    c1 = s[13]
    if c0 > WIN_THRESHOLD or c1 > WIN_THRESHOLD or (c0 | c1) & 3:
        return NOT_COVERED
    seeds = TOTAL_SEEDS - c0 - c1
    if seeds > tb_max:
        return NOT_COVERED
    level = levels[seeds >> 2]
    if level.shape[0] == 0:
        return NOT_COVERED
    p = s[14]
    k = seeds >> 2
    r = view_rank(s, 6 * p, seeds)
    row = (s[12 + p] - lookup[k]) >> 2
    # A small cache of recent probes (it fits the processor's cache; a level does not).
    key = (((k << 4) | row) << 40) | r
    slot = LEVELS + (((key * -7046029254386353131) >> 40) & (PROBE_CACHE - 1))
    entry = lookup[slot]
    if entry >> 8 == key + 1:
        return (entry & 0xFF) - 128
    value = np.int64(level[row, r])
    lookup[slot] = ((key + 1) << 8) | (value + 128)
    return value


def tablebase_of(oracle: Any) -> Tablebase | None:
    """The :class:`Tablebase` behind an oracle (the tablebase itself or its ``probe``), or None."""
    if isinstance(oracle, Tablebase):
        return oracle
    owner = getattr(oracle, "__self__", None)
    if isinstance(owner, Tablebase) and getattr(oracle, "__func__", None) is Tablebase.probe:
        return owner
    return None


def _empty_level() -> npt.NDArray[np.int8]:
    empty = np.zeros((0, 0), dtype=np.int8)
    empty.flags.writeable = False  # the type of a memory-mapped level: one compiled signature
    return empty


def levels_of(tablebase: Tablebase | None) -> tuple[Levels, Array, int]:
    """The kernel's view of ``tablebase``: the level arrays; ``lookup``, each level's first
    split (the mover's captured seeds in row 0) followed by a cache of recent probes
    (:data:`PROBE_CACHE` entries, each ``(key + 1) << 8 | value + 128``); the top level."""
    found: Mapping[int, npt.NDArray[np.int8]] = {} if tablebase is None else tablebase.arrays()
    levels = tuple(
        np.asarray(found[n]) if n in found else _empty_level() for n in range(0, TOTAL_SEEDS + 1, 4)
    )
    lookup = np.zeros(LEVELS + PROBE_CACHE, dtype=np.int64)
    lookup[:LEVELS] = [splits(n)[0] for n in range(0, TOTAL_SEEDS + 1, 4)]
    return levels, lookup, max(found, default=-1)
