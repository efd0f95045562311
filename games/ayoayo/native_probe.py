"""What Ayòayò's compiled searches share: a position's exact key, and the endgame tablebase
read inside a kernel.

The compiled route's node search and proof search (:mod:`solver.compiled`,
:mod:`solver.compiled_proof`, through the rules of :mod:`games.ayoayo.native_route`) key their
tables by :func:`key_of` and probe the tablebase in the kernel: a position a level holds is
ranked (stars and bars over the mover's view, the captured split) and read there, at kernel
speed. Missing levels are simply not probed. A kernel carries its oracle's data down every
recursive call, so it is handed the levels read into memory (:func:`levels_of`) as one array of
their addresses (:func:`oracle_words`, probed by :func:`tablebase_value_at`), which keeps the
levels alive as long as it lives.

>>> levels, lookup, top = levels_of(None)
>>> len(levels), top
(13, -1)
>>> words = oracle_words(None)
>>> int(words[TB_TOP]), int(words[TB_ADDRESS:TB_CACHE].any())
(-1, 0)
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from typing import Any, Final

import numba
import numpy as np
import numpy.typing as npt
from numba.core import types

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
    "byte_at",
    "key_of",
    "levels_of",
    "oracle_words",
    "tablebase_of",
    "tablebase_value_at",
]

Array = npt.NDArray[np.int64]
Levels = tuple[npt.NDArray[np.int8], ...]
"""One memory-mapped array per level 0, 4, ..., 48 (an empty one for a level not present)."""

LEVELS: Final = TOTAL_SEEDS // 4 + 1

PROBE_CACHE: Final = 1 << 16
"""Entries of the cache of recent tablebase probes (512 KB: it stays in the processor's cache)."""

NOT_COVERED: Final = 1 << 30
"""What :func:`tablebase_value_at` answers for a position the tablebase does not hold."""

TB_TOP: Final = 0
"""Where :func:`oracle_words` keeps the top level (-1: none), then, a word a level (0, 4, ..,
48): its first split (``TB_FIRST``), its values' address (``TB_ADDRESS``, 0: not present) and
its ranks a split (``TB_COLUMNS``), and from ``TB_CACHE`` on the cache of recent probes."""
TB_FIRST: Final = 1
TB_ADDRESS: Final = TB_FIRST + LEVELS
TB_COLUMNS: Final = TB_ADDRESS + LEVELS
TB_CACHE: Final = TB_COLUMNS + LEVELS

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


@numba.extending.intrinsic
def byte_at(typingctx, address):  # type: ignore[no-untyped-def]
    """The int8 at the memory address ``address`` (an int64), read in a kernel: what lets
    :func:`tablebase_value_at` reach the levels through one array of their addresses."""

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        int8_pointer = types.CPointer(types.int8)  # type: ignore[no-untyped-call]
        pointer = builder.inttoptr(args[0], context.get_value_type(int8_pointer))
        return builder.load(pointer)

    return types.int8(types.int64), codegen


@kernel
def tablebase_value_at(s: Array, words: Array) -> int:
    """The tablebase's exact value of ``s`` for its mover, or :data:`NOT_COVERED`, over
    :func:`oracle_words`: the levels reached through their addresses, so a kernel carries one
    array down its recursion instead of thirteen (each array an argument of several words in
    every call).

    As :meth:`games.ayoayo.tablebase.Tablebase.probe` in the mover's view: the 12 pits from the
    mover's own first, ranked by stars and bars (:mod:`games.ayoayo.tablebase_index`), in the
    row of the mover's captured split. A finished game (more than 24) is left to the caller.
    """
    c0 = s[12]
    c1 = s[13]
    if c0 > WIN_THRESHOLD or c1 > WIN_THRESHOLD or (c0 | c1) & 3:
        return NOT_COVERED
    seeds = TOTAL_SEEDS - c0 - c1
    if seeds > words[TB_TOP]:
        return NOT_COVERED
    k = seeds >> 2
    address = words[TB_ADDRESS + k]
    if address == 0:
        return NOT_COVERED
    p = s[14]
    r = view_rank(s, 6 * p, seeds)
    row = (s[12 + p] - words[TB_FIRST + k]) >> 2
    # A small cache of recent probes (it fits the processor's cache; a level does not).
    key = (((k << 4) | row) << 40) | r
    slot = TB_CACHE + (((key * -7046029254386353131) >> 40) & (PROBE_CACHE - 1))
    entry = words[slot]
    if entry >> 8 == key + 1:
        return (entry & 0xFF) - 128
    value = np.int64(byte_at(address + row * words[TB_COLUMNS + k] + r))  # type: ignore[call-arg]
    words[slot] = ((key + 1) << 8) | (value + 128)
    return value


def _pin(levels: tuple[npt.NDArray[np.int8], ...]) -> None:
    """Called when an :func:`oracle_words` array is freed: the levels it held go with it."""


def oracle_words(tablebase: Tablebase | None) -> Array:
    """The kernel's view of ``tablebase`` in one int64 array (:data:`TB_TOP` says what each
    word holds): the top level, each level's first split, address and ranks a split, and a
    cache of recent probes.

    The words hold the levels' addresses, not the arrays, so the arrays are pinned to the
    words' lifetime: they stay alive while the words do, whatever the tablebase does meanwhile
    (a :meth:`~games.ayoayo.tablebase.Tablebase.refresh` dropping its levels, a file rebuilt;
    the levels are the values read into memory, never a mapping a file change could cut)."""
    levels, lookup, top = levels_of(tablebase)
    words = np.zeros(TB_CACHE + PROBE_CACHE, np.int64)
    words[TB_TOP] = top
    words[TB_FIRST : TB_FIRST + LEVELS] = lookup[:LEVELS]
    kept = []
    for n, level in enumerate(levels):
        if level.size == 0:
            continue
        values = np.ascontiguousarray(level, dtype=np.int8)  # rows of ranks, one after another
        words[TB_ADDRESS + n] = values.ctypes.data
        words[TB_COLUMNS + n] = values.shape[1]
        kept.append(values)
    weakref.finalize(words, _pin, tuple(kept))  # holds the arrays until the words are freed
    return words


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
