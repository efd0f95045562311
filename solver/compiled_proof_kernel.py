"""The generic compiled proof search's source: threshold tests compiled against one game's rules.

This module is not imported to run: :mod:`solver.compiled_module` appends the text below the
line ``# -- the proof search (begin)`` to the node search's module (:mod:`solver.compiled_kernel`),
so it is compiled against the same block of the game's rules, beside the node search, by numba
with ``cache=True``. numba compiles a function when it is first called, so a game that never
proves never compiles these. :mod:`solver.compiled_proof` says what the search guarantees and
runs it; :mod:`solver.proof_words` says what its ints mean.

A position is a row of the boards' stack (its ``WORDS`` ints, then the ply's scratch), as the
node search's. The table holds each entry's packed position (``KEY_WORDS`` ints, compared in
full: no collision is ever a hit) and one int of status, depth, height, move and generation, in
buckets of ``PROOF_BUCKET``. The line's keys (``pk``) hold each ply's packed words and, last, its
``progress`` (rules that give one).
"""

# The names below are bound by the generated module (the rules' block, the node search's text
# and the proof's constants), not here.
# ruff: noqa: F821

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from solver.numba_cache import inline_jit as inline
from solver.numba_cache import kernel_jit as jit

Array = npt.NDArray[np.int64]

# -- what the proof reads of the generated module (its names, for the type checker)
WORDS: int
POSITION_WORDS: int
MOVE_LIMIT: int
KEY_WORDS: int
HAS_ORACLE: bool
HAS_ENDLESS: bool
HAS_PROGRESS: bool
HAS_MOVE_SCORE: bool
PROVED: int
DISPROVED: int
UNKNOWN: int
NO_REPETITION: int
PROOF_BUCKET: int
DEPTH_SHIFT: int
HEIGHT_SHIFT: int
MOVE_SHIFT: int
GEN_SHIFT: int
MOVE_BITS: int
P_NODES: int
P_STOP_AT: int
P_STOPPED: int
P_GEN: int
P_ORACLE: int
P_ORACLE_LEAVES: int
P_REPETITIONS: int
P_STORES: int
P_TABLE_FULL: int
P_HITS: int
P_MOVE: int
rules_moves: Callable[[Array, Array, Array], int]
rules_play: Callable[[Array, int, Array, Array], bool]
rules_pack: Callable[[Array], tuple[int, ...]]
rules_to_move: Callable[[Array], int]
rules_utility: Callable[[Array], float]
rules_oracle: Callable[[Array, Any], float]
rules_move_score: Callable[[Array, int], int]
rules_endless_value: Callable[[Array], float]
rules_progress: Callable[[Array], int]
is_end: Callable[[Array, Array, Array], bool]
packed_slot: Callable[[Any, int], int]
holds: Callable[[Array, int, Any], bool]

# -- the proof search (begin)


@inline
def proof_first(tk: Array, k: Any) -> int:
    """The first slot of the bucket of the position packed as ``k``."""
    return packed_slot(k, tk.shape[0]) & ~(PROOF_BUCKET - 1)


@jit
def proof_find(tk: Array, k: Any) -> int:
    """The slot holding the position packed as ``k``, or -1 (entries are never removed, so
    the first empty slot of the bucket ends the search)."""
    first = proof_first(tk, k)
    for j in range(first, first + PROOF_BUCKET):
        if tk[j, KEY_WORDS] == 0:
            return -1
        if holds(tk, j, k):
            return j
    return -1


@jit
def proof_entry(tk: Array, s: Array) -> int:
    """The stored entry of the position ``s`` (see :mod:`solver.proof_words`), or 0."""
    k = rules_pack(s)
    j = proof_find(tk, k)
    return 0 if j < 0 else tk[j, KEY_WORDS]


@jit
def proof_put(tk: Array, k: Any, info: int, st: Array) -> None:
    """Store ``info`` for the position packed as ``k``: a proved entry is kept unless the new
    one is proved with a lower height; an unknown one gives way to anything newer. A bucket
    all of proved entries keeps them and counts the miss (``P_TABLE_FULL``)."""
    first = proof_first(tk, k)
    proved = (info & 3) != UNKNOWN
    victim = -1
    for j in range(first, first + PROOF_BUCKET):
        old = tk[j, KEY_WORDS]
        if old == 0 or holds(tk, j, k):
            lower = ((old >> HEIGHT_SHIFT) & 0xFFFF) <= ((info >> HEIGHT_SHIFT) & 0xFFFF)
            if old != 0 and (old & 3) != UNKNOWN and (not proved or lower):
                return  # a proved entry stays unless the new one is proved lower
            for i in range(KEY_WORDS):
                tk[j, i] = k[i]
            tk[j, KEY_WORDS] = info
            st[P_STORES] += 1
            return
        if (old & 3) == UNKNOWN and (
            victim < 0 or (old >> GEN_SHIFT) < (tk[victim, KEY_WORDS] >> GEN_SHIFT)
        ):
            victim = j
    if victim < 0:
        st[P_TABLE_FULL] += 1
        return
    old = tk[victim, KEY_WORDS]
    if (
        not proved
        and (old >> GEN_SHIFT) == (info >> GEN_SHIFT)
        and ((old >> DEPTH_SHIFT) & 0xFF) >= ((info >> DEPTH_SHIFT) & 0xFF)
    ):
        return  # both unknown in this iteration: keep the deeper one
    for i in range(KEY_WORDS):
        tk[victim, i] = k[i]
    tk[victim, KEY_WORDS] = info
    st[P_STORES] += 1


@jit
def proof_restore(tk: Array, rows: Array, st: Array) -> None:
    """Put back proved entries saved from a table (``rows``: packed words, then the entry)."""
    for i in range(rows.shape[0]):
        proof_put(tk, rows[i, :KEY_WORDS], rows[i, KEY_WORDS], st)


@jit
def proof_line_keys(bs: Array, pk: Array, n: int) -> None:
    """The keys of the line's first ``n`` positions (the root's line, given by the caller)."""
    for j in range(n):
        k = rules_pack(bs[j])
        for i in range(KEY_WORDS):
            pk[j, i] = k[i]
        if HAS_PROGRESS:
            pk[j, KEY_WORDS] = rules_progress(bs[j])


@inline
def proof_result(status: int, height: int, minrep: int) -> int:
    return status | (height << 2) | (minrep << 24)


@inline
def proof_leaf(value: float, t: float) -> int:
    """A settled leaf's result: ``value`` (the mover's view) against the threshold."""
    return proof_result(PROVED if value >= t else DISPROVED, 0, NO_REPETITION)


@inline
def mover_view(value: float, player: int) -> float:
    return -value if player else value


@jit
def proof_repeated(pk: Array, ply: int, k: Any, child: Array) -> int:
    """The ply of the line's position equal to the child at ``ply + 1`` (packed as ``k``), or
    -1. With a ``progress`` rule the scan stops at the first position of another progress."""
    p = rules_progress(child) if HAS_PROGRESS else 0
    j = ply
    while j >= 0:
        if HAS_PROGRESS and pk[j, KEY_WORDS] != p:
            return -1
        if pk[j, 0] == k[0]:
            same = True
            for i in range(1, KEY_WORDS):
                if pk[j, i] != k[i]:
                    same = False
                    break
            if same:
                return j
        j -= 1
    return -1


@jit
def prove(  # noqa: C901 (compiled hot loop: one call per node)
    bs: Array,
    pk: Array,
    ms: Array,
    gs: Any,
    kids: Array,
    ply: int,
    depth: int,
    t: float,
    tk: Array,
    st: Array,
    od: Any,
) -> int:
    """Whether the mover of ``bs[ply]`` can force at least ``t`` (the mover's view): a result
    (status, height, minrep) searched to ``depth`` more plies.

    ``bs[0:ply]`` is the line that led here (``pk`` their keys); ``minrep`` is the lowest ply
    of that line a repetition leaf of this result pointed at (``NO_REPETITION`` if none)."""
    st[P_NODES] += 1
    if st[P_NODES] >= st[P_STOP_AT]:
        st[P_STOPPED] = 1
    if st[P_STOPPED]:
        return UNKNOWN
    s = bs[ply]
    tr = bs[ply, WORDS:]
    player = rules_to_move(s)
    cands = ms[ply]
    n = rules_moves(s, cands, tr)
    if n == 0:
        return proof_leaf(mover_view(rules_utility(s), player), t)
    if HAS_ORACLE and st[P_ORACLE]:
        known = rules_oracle(s, od)
        if not np.isnan(known):
            st[P_ORACLE_LEAVES] += 1
            return proof_leaf(mover_view(known, player), t)
    k = rules_pack(s)
    for i in range(KEY_WORDS):
        pk[ply, i] = k[i]
    if HAS_PROGRESS:
        pk[ply, KEY_WORDS] = rules_progress(s)
    slot = proof_find(tk, k)
    hint = -1
    if slot >= 0:
        info = tk[slot, KEY_WORDS]
        status = info & 3
        if status != UNKNOWN:
            st[P_HITS] += 1
            return proof_result(status, (info >> HEIGHT_SHIFT) & 0xFFFF, NO_REPETITION)
        if (info >> GEN_SHIFT) == st[P_GEN] and ((info >> DEPTH_SHIFT) & 0xFF) >= depth:
            st[P_HITS] += 1
            return UNKNOWN
        hint = ((info >> MOVE_SHIFT) & ((1 << MOVE_BITS) - 1)) - 1
    if depth <= 0:
        if is_end(s, cands, tr):
            return proof_leaf(mover_view(rules_utility(s), player), t)
        return UNKNOWN
    # Every move played once, its child kept; the order: the table's move, then by what the
    # move gains for the mover in the endless value (a capture), else by the rules' score.
    child = bs[ply + 1]
    kept = kids[ply]
    ranks = ms[ply, MOVE_LIMIT:]
    gain = gs[ply]
    e0 = rules_endless_value(s) if HAS_ENDLESS else 0.0
    legal = 0
    for i in range(n):
        a = cands[i]
        if not rules_play(s, a, child, tr):
            continue  # a candidate the rules refuse (pseudo-moves)
        kid = kept[legal]
        for w in range(POSITION_WORDS):
            kid[w] = child[w]
        kid[POSITION_WORDS] = a
        if a == hint:
            g = np.inf
        elif HAS_ENDLESS:
            g = mover_view(rules_endless_value(child) - e0, player)
        elif HAS_MOVE_SCORE:
            g = float(rules_move_score(s, a))
        else:
            g = 0.0
        j = legal
        while j > 0 and gain[j - 1] < g:
            ranks[j] = ranks[j - 1]
            gain[j] = gain[j - 1]
            j -= 1
        ranks[j] = legal
        gain[j] = g
        legal += 1
    if legal == 0:  # no candidate plays: the game is over
        return proof_leaf(mover_view(rules_utility(s), player), t)
    t_other = np.nextafter(-t, np.inf)  # the other's test fails iff the mover's holds
    out = ms[ply + 1]
    child_tr = bs[ply + 1, WORDS:]
    high = 0
    minrep = NO_REPETITION
    unknown = False
    proved_move = -1
    proved_height = 0
    proved_rep = NO_REPETITION
    for r in range(legal):
        kid = kept[ranks[r]]
        for w in range(POSITION_WORDS):
            child[w] = kid[w]
        cp = rules_to_move(child)
        same = cp == player
        tc = t if same else t_other
        c = rules_pack(child)
        j = proof_repeated(pk, ply, c, child) if HAS_ENDLESS else -1
        if j >= 0:
            st[P_REPETITIONS] += 1
            e = mover_view(rules_endless_value(child), cp)  # the endless rule
            res = proof_result(PROVED if e >= tc else DISPROVED, 0, j)
        elif depth == 1:  # a horizon child, valued here: exact or unknown
            st[P_NODES] += 1
            res = UNKNOWN
            if HAS_ORACLE and st[P_ORACLE]:
                known = rules_oracle(child, od)
                if not np.isnan(known):
                    st[P_ORACLE_LEAVES] += 1
                    res = proof_leaf(mover_view(known, cp), tc)
            if res == UNKNOWN and is_end(child, out, child_tr):
                res = proof_leaf(mover_view(rules_utility(child), cp), tc)
        else:
            res = prove(bs, pk, ms, gs, kids, ply + 1, depth - 1, tc, tk, st, od)
            if st[P_STOPPED]:
                return UNKNOWN
        status = res & 3
        h = (res >> 2) & 0x3FFFFF
        rep = res >> 24
        if status != UNKNOWN and (status == PROVED) == same:  # this move proves the node
            proved_move = kid[POSITION_WORDS]
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
    if proved_move >= 0:
        if proved_rep >= ply:  # a fact of the position, whatever line led here
            height = min(proved_height, 0xFFFF)
            info = PROVED | (height << HEIGHT_SHIFT) | ((proved_move + 1) << MOVE_SHIFT)
            proof_put(tk, k, info, st)
        st[P_MOVE] = proved_move  # the last one written is the root's
        return proof_result(PROVED, proved_height, proved_rep)
    if unknown:
        best = kept[ranks[0], POSITION_WORDS]
        info = UNKNOWN | (min(depth, 0xFF) << DEPTH_SHIFT) | ((best + 1) << MOVE_SHIFT)
        proof_put(tk, k, info | (st[P_GEN] << GEN_SHIFT), st)
        return UNKNOWN
    if minrep >= ply:
        proof_put(tk, k, DISPROVED | (min(high, 0xFFFF) << HEIGHT_SHIFT), st)
    return proof_result(DISPROVED, high, minrep)
