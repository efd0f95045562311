"""Ayòayò's proof search compiled with numba: does the mover reach a threshold, proved?

A *proof* test answers, for a position and a threshold ``t``, whether the player to move can
force a final score (their captured seeds minus the other's) of at least ``t`` against every
defence, and it answers only what it has proved: every line ends at a finished game, at a
position an endgame tablebase holds (its exact value), or at a position repeated on the
line, scored by the endless-play rule (the seeds captured so far, as
:meth:`games.ayoayo.Ayoayo.endless_value`). A line that reaches the depth of the iteration
leaves the answer *unknown* (never a heuristic guess): :mod:`games.ayoayo.proof` deepens until
the root is settled.

What it assumes and guarantees (see docs/solving.md for the argument):

* **Negamax over one threshold.** ``mover >= t`` holds iff some move leads to a child where
  the other player's ``>= 1 - t`` fails; fails iff every move's holds. Values are ints.
* **Repetition, soundly.** A child equal to a position on the current line (same board,
  captured seeds and mover: a capture can never be undone, so the scan stops at the first
  position with other captured counts) is a leaf scored by the endless rule. A result that
  used such a leaf pointing *above* the node (graph-history interaction: its truth depends on
  the line that led there) is returned to the parent but never stored, so no other line can
  reuse it; a result whose repetitions point at the node itself or below is a fact of the
  position and is stored.
* **Heights.** A stored result carries its height: 0 at a leaf, one more than the chosen
  child's (the prover's node) or than the highest child's (the defender's). A child's stored
  height is always below its parent's unless the edge closes a repetition, which is what
  makes the certificate taken from the table free of cycles scored the wrong way
  (:mod:`games.ayoayo.proof` keeps the lowest height of a position).
* **The table.** Buckets of 8 entries with exact keys (no collisions). A proved entry is never
  evicted (the certificate is read from them); entries for positions left unknown at some
  depth (a cache for the rest of that iteration) are. When a bucket is all proved entries a
  new result is not stored and ``TABLE_FULL`` counts it: the proof may then need a larger
  table, never a wrong answer.
* **Limits.** The kernel stops after a node budget and returns to Python (Ctrl-C and the
  clock are looked at there); the caller runs it again and the table gives back every
  finished subtree.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from games.ayoayo.board import TOTAL_SEEDS, WIN_THRESHOLD
from games.ayoayo.native_jit import kernel, warm_up
from games.ayoayo.native_probe import NOT_COVERED, Levels, key_of, tablebase_value
from games.ayoayo.native_rules import WIDTH, is_terminal_with, play_with

__all__ = [
    "DISPROVED",
    "MAX_PLY",
    "N_STATS",
    "PROVED",
    "UNKNOWN",
    "entry",
    "key_of",
    "new_stacks",
    "new_table",
    "prove",
    "proved_rows",
    "restore",
]

Array = npt.NDArray[np.int64]

MAX_PLY: Final = 1000
"""The deepest line the kernel's stacks hold (an iteration deeper than this is refused)."""

SCRATCH: Final = MAX_PLY + 2
"""The board row kept for the rules' trial sowings."""

# Results (the low two bits of a stored entry too).
PROVED, DISPROVED, UNKNOWN = 1, 2, 3
NO_REPETITION: Final = 1 << 20
"""The ``minrep`` of a result that used no repetition leaf."""

# Counters and controls shared with Python (indices into one int64 array).
NODES, STOP_AT, STOPPED, GEN, TB_MAX, TB_LEAVES, REPETITIONS, STORES, TABLE_FULL, HITS, MOVE = (
    range(11)
)
N_STATS: Final = 11

BUCKET: Final = 8


@kernel
def _slot0(k1: int, k2: int, mask: int) -> int:
    h = k1 * -7046029254386353131 + k2 * -4658895280553007687
    h ^= h >> 29
    return (h & mask) & ~(BUCKET - 1)


@kernel
def _find(tk: Array, k1: int, k2: int) -> int:
    base = _slot0(k1, k2, tk.shape[0] - 1)
    for j in range(base, base + BUCKET):
        if tk[j, 1] == k2 and tk[j, 0] == k1:
            return j
        if tk[j, 1] == 0:
            return -1
    return -1


@kernel
def entry(tk: Array, s: Array) -> int:
    """The stored entry of a position (status | depth << 2 | move << 10 | height << 16 |
    generation << 40), or 0."""
    k1, k2 = key_of(s)
    j = _find(tk, k1, k2)
    return 0 if j < 0 else tk[j, 2]


@kernel
def _put(tk: Array, k1: int, k2: int, info: int, st: Array) -> None:
    """Store ``info`` for the position: a proved entry is kept unless the new one is proved
    with a lower height; an unknown one gives way to anything newer."""
    base = _slot0(k1, k2, tk.shape[0] - 1)
    proved = (info & 3) != UNKNOWN
    victim = -1
    for j in range(base, base + BUCKET):
        if tk[j, 1] == 0 or (tk[j, 1] == k2 and tk[j, 0] == k1):
            old = tk[j, 2]
            if (
                tk[j, 1] != 0
                and (old & 3) != UNKNOWN
                and (not proved or ((old >> 16) & 0xFFFF) <= ((info >> 16) & 0xFFFF))
            ):
                return  # a proved entry stays unless the new one is proved lower
            tk[j, 0] = k1
            tk[j, 1] = k2
            tk[j, 2] = info
            st[STORES] += 1
            return
        if (tk[j, 2] & 3) == UNKNOWN and (victim < 0 or (tk[j, 2] >> 40) < (tk[victim, 2] >> 40)):
            victim = j
    if victim < 0:
        st[TABLE_FULL] += 1
        return
    if (
        not proved
        and (tk[victim, 2] >> 40) == (info >> 40)
        and ((tk[victim, 2] >> 2) & 0xFF) >= ((info >> 2) & 0xFF)
    ):
        return  # both unknown in this iteration: keep the deeper one
    tk[victim, 0] = k1
    tk[victim, 1] = k2
    tk[victim, 2] = info
    st[STORES] += 1


@kernel
def _result(status: int, height: int, minrep: int) -> int:
    return status | (height << 2) | (minrep << 24)


@kernel
def _leaf(value: int, t: int) -> int:
    return _result(PROVED if value >= t else DISPROVED, 0, NO_REPETITION)


@kernel
def _mover_utility(s: Array) -> int:
    u: int = s[12] - s[13]
    return -u if s[14] else u


@kernel
def _repeated(bs: Array, pk: Array, ply: int, k1: int, k2: int) -> int:
    """The ply of the line's position equal to the child at ``ply + 1`` (keys ``k1``, ``k2``),
    or -1. Only positions with the child's captured counts can equal it."""
    c = bs[ply + 1]
    j = ply - 1  # the same mover as the child: every second ply back
    while j >= 0:
        b = bs[j]
        if b[12] != c[12] or b[13] != c[13]:
            return -1
        if pk[j, 0] == k1 and pk[j, 1] == k2:
            return j
        j -= 2
    return -1


@kernel
def prove(  # noqa: C901 (compiled hot loop: one call per node)
    bs: Array,
    pk: Array,
    orders: Array,
    kids: Array,
    ply: int,
    depth: int,
    t: int,
    tk: Array,
    st: Array,
    levels: Levels,
    lookup: Array,
) -> int:
    """Whether the mover of ``bs[ply]`` can force at least ``t``: a result word
    (status | height << 2 | minrep << 24, status :data:`PROVED`, :data:`DISPROVED` or
    :data:`UNKNOWN`) searched to ``depth`` more plies.

    ``bs[0:ply]`` is the line that led here (``pk`` their keys, filled in by the caller for
    the root's line); ``minrep`` is the lowest ply of that line a repetition leaf of this
    result pointed at (:data:`NO_REPETITION` if none).
    """
    st[NODES] += 1
    if st[NODES] >= st[STOP_AT]:
        st[STOPPED] = 1
    if st[STOPPED]:
        return UNKNOWN
    s = bs[ply]
    if s[12] > WIN_THRESHOLD or s[13] > WIN_THRESHOLD:
        return _leaf(_mover_utility(s), t)
    tb_max = st[TB_MAX]
    if TOTAL_SEEDS - s[12] - s[13] <= tb_max:
        known = tablebase_value(s, levels, lookup, tb_max)
        if known != NOT_COVERED:
            st[TB_LEAVES] += 1
            return _leaf(known, t)
    k1, k2 = key_of(s)
    pk[ply, 0] = k1
    pk[ply, 1] = k2
    slot = _find(tk, k1, k2)
    hint = -1
    if slot >= 0:
        info = tk[slot, 2]
        status = info & 3
        if status != UNKNOWN:
            st[HITS] += 1
            return _result(status, (info >> 16) & 0xFFFF, NO_REPETITION)
        if (info >> 40) == st[GEN] and ((info >> 2) & 0xFF) >= depth:
            st[HITS] += 1
            return UNKNOWN
        hint = (info >> 10) & 7
        if hint > 5:
            hint = -1
    child = bs[ply + 1]
    trial = bs[SCRATCH]
    if depth <= 0:
        if is_terminal_with(s, trial):
            return _leaf(_mover_utility(s), t)
        return UNKNOWN
    # Move order: the table's move, then by the seeds the move captures for the mover.
    legal = 0
    order = orders[ply]
    gain = orders[ply, 6:]
    kept = kids[ply]
    player = s[14]
    n = 0
    for a in range(6):
        if play_with(s, a, child, trial):
            for i in range(15):
                kept[a, i] = child[i]
            g = child[12 + player] - s[12 + player] - (child[13 - player] - s[13 - player])
            if a == hint:
                g += 1000
            j = n
            while j > 0 and gain[j - 1] < g:
                order[j] = order[j - 1]
                gain[j] = gain[j - 1]
                j -= 1
            order[j] = a
            gain[j] = g
            n += 1
    legal = n
    if legal == 0:
        return _leaf(_mover_utility(s), t)
    t_child = 1 - t
    high = 0
    minrep = NO_REPETITION
    unknown = False
    proved_move = -1
    proved_height = 0
    proved_rep = NO_REPETITION
    for i in range(legal):
        a = order[i]
        for k in range(15):
            child[k] = kept[a, k]
        if child[12] > WIN_THRESHOLD or child[13] > WIN_THRESHOLD:
            r = _leaf(_mover_utility(child), t_child)
        else:
            c1, c2 = key_of(child)
            j = _repeated(bs, pk, ply, c1, c2)
            if j >= 0:
                st[REPETITIONS] += 1
                e = _mover_utility(child)  # the endless rule: the seeds captured so far
                r = _result(PROVED if e >= t_child else DISPROVED, 0, j)
            elif depth == 1:  # a horizon child, valued here: exact or unknown
                st[NODES] += 1
                r = UNKNOWN
                if TOTAL_SEEDS - child[12] - child[13] <= tb_max:
                    known = tablebase_value(child, levels, lookup, tb_max)
                    if known != NOT_COVERED:
                        st[TB_LEAVES] += 1
                        r = _leaf(known, t_child)
                if r == UNKNOWN and is_terminal_with(child, trial):
                    r = _leaf(_mover_utility(child), t_child)
            else:
                r = prove(bs, pk, orders, kids, ply + 1, depth - 1, t_child, tk, st, levels, lookup)
                if st[STOPPED]:
                    return UNKNOWN
        status = r & 3
        h = (r >> 2) & 0x3FFFFF
        rep = r >> 24
        if status == DISPROVED:  # the opponent fails there: this move proves the node
            proved_move = a
            proved_height = h + 1
            proved_rep = rep
            break
        if status == UNKNOWN:
            unknown = True
        else:
            if h + 1 > high:
                high = h + 1
            if rep < minrep:
                minrep = rep
    gen = st[GEN]
    if proved_move >= 0:
        if proved_rep >= ply:
            _put(
                tk,
                k1,
                k2,
                PROVED | (proved_move << 10) | (min(proved_height, 0xFFFF) << 16),
                st,
            )
        st[MOVE] = proved_move  # the last one written is the root's
        return _result(PROVED, proved_height, proved_rep)
    if unknown:
        best = order[0]
        _put(tk, k1, k2, UNKNOWN | (min(depth, 0xFF) << 2) | (best << 10) | (gen << 40), st)
        return UNKNOWN
    if minrep >= ply:
        _put(tk, k1, k2, DISPROVED | (7 << 10) | (min(high, 0xFFFF) << 16), st)
    return _result(DISPROVED, high, minrep)


@kernel
def restore(tk: Array, rows: Array, st: Array) -> None:
    """Put back proved entries saved from a table (``rows``: key words and entry)."""
    for i in range(rows.shape[0]):
        _put(tk, rows[i, 0], rows[i, 1], rows[i, 2], st)


def proved_rows(tk: Array) -> Array:
    """The proved entries of a table (what a checkpoint keeps)."""
    status = tk[:, 2] & 3
    rows: Array = tk[(tk[:, 1] != 0) & ((status == PROVED) | (status == DISPROVED))].copy()
    return rows


def new_table(slots: int) -> Array:
    """An empty table of ``slots`` entries (a power of two, at least one bucket)."""
    size = max(BUCKET, 1 << max(3, (slots - 1).bit_length()))
    return np.zeros((size, 3), np.int64)


def new_stacks() -> tuple[Array, Array, Array, Array]:
    """The kernel's boards (one row a ply, then scratch), the line's keys, the move orders
    and each ply's children by move."""
    return (
        np.zeros((SCRATCH + 1, WIDTH), np.int64),
        np.zeros((MAX_PLY + 1, 2), np.int64),
        np.zeros((MAX_PLY + 2, 12), np.int64),
        np.zeros((MAX_PLY + 2, 6, 16), np.int64),
    )


@warm_up("proof")
def _warm_up() -> None:
    """Call the proof search's entry points once (a shallow test of the start)."""
    from games.ayoayo.native_probe import levels_of

    bs, pk, orders, kids = new_stacks()
    bs[0, :12] = 4
    st = np.zeros(N_STATS, np.int64)
    st[TB_MAX] = -1
    st[STOP_AT] = 1 << 40
    tk = new_table(64)
    levels, lookup, _ = levels_of(None)
    prove(bs, pk, orders, kids, np.int64(0), np.int64(2), np.int64(0), tk, st, levels, lookup)
    restore(tk, proved_rows(tk), st)
    entry(tk, bs[0])
    key_of(bs[0])
