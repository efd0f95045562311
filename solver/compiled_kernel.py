"""The generic compiled node search's source: compiled with numba against one game's rules.

This module is not imported to run: :mod:`solver.compiled_module` writes a module made of this
text with the block of rule declarations below replaced by the game's own rule functions and
constants, imports it, and numba compiles it there with ``cache=True``, so the compiled kernel
is kept on disk and a later process loads it (:mod:`solver.compiled` says what the kernel does).

The kernel is :mod:`solver.python_search` restated over arrays: fail-soft negamax with
principal-variation search, proofs from the utility bounds, a transposition table with bound
flags and horizon-free entries, the table's move first and then the history heuristic, nodes one
ply above the horizon valued inline, the rules' oracle probed at every node. Rules may add what
the best game-specific solvers use (each optional, each a constant of the rules' block that
switches it off at compile time): only the moves that do not lose at once (``safe_moves``),
moves ordered by the rules' own score of each (``move_score``), and a search to the end made of
null-window searches that close in on the value between the bounds (``NULL_WINDOW``).

The rules' functions see a position as a row of the boards' stack: its ``WORDS`` ints, then the
ply's scratch (``bs[ply, WORDS:]``, given to the rules that take it). The table holds each
entry's packed position (``KEY_WORDS`` ints), its bounds and move (one int), and its value (the
word after, read through a float64 view of the same array), each entry padded to a power of two
words, in buckets of ``BUCKET`` entries: one cache line when an entry is four words or fewer
(:func:`solver.compiled_module.table_bucket`). Most of a node's time is the wait for its
bucket, so a node asks for each child's bucket (:func:`solver.memory_hints.prefetch`) as soon as
it has played the child. Every node of depth >= 1 begins with :func:`opening`, where bounds
that meet settle the node.
"""

# The names below are bound by the generated module (the rules' block), not here.
# ruff: noqa: F821

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from solver.memory_hints import prefetch
from solver.numba_cache import inline_jit as inline
from solver.numba_cache import kernel_jit as jit

Array = npt.NDArray[np.int64]

# -- the rules (begin): the generated module replaces this block with the game's rules
WORDS: int
MOVE_LIMIT: int
HAS_KEY: bool
KEY_WORDS: int
BUCKET: int  # entries a position may take: the BUCKET slots from its hash's, rounded down
HAS_TERMINAL: bool
PSEUDO_MOVES: bool
EVALUATE_ENDS: bool
HAS_ORACLE: bool
HAS_BOUNDS: bool
HAS_SAFE_MOVES: bool
HAS_MOVE_SCORE: bool
NULL_WINDOW: bool
MAX_PLIES: int
NODES: int
LEAVES: int
CUTOFFS: int
HITS: int
HORIZON: int
STOP_AT: int
STOPPED: int
GEN: int
EPOCH: int
ORACLE: int
RESUME: int
EXACT: int
LOWER: int
UPPER: int
VALUED: int
BOUNDED: int
rules_moves: Callable[[Array, Array, Array], int]
rules_play: Callable[[Array, int, Array, Array], bool]
rules_terminal: Callable[[Array, Array], bool]
rules_pack: Callable[[Array], tuple[int, ...]]
rules_to_move: Callable[[Array], int]
rules_utility: Callable[[Array], float]
rules_evaluate: Callable[[Array], float]
rules_key: Callable[[Array], int]
rules_oracle: Callable[[Array, Any], float]
rules_top: Callable[[Array], float]
rules_bottom: Callable[[Array], float]
rules_safe_moves: Callable[[Array, Array, Array], int]
rules_move_score: Callable[[Array, int], int]
# -- the rules (end)


@inline
def spread(h: Any, slots: int) -> int:
    """A slot of ``slots`` (a power of two) from the hash ``h``, its bits mixed."""
    h ^= h >> np.uint64(31)
    h *= np.uint64(0x94D049BB133111EB)
    h ^= h >> np.uint64(29)
    return np.int64(h & np.uint64(slots - 1))


@jit
def packed_slot(k: Any, slots: int) -> int:
    """The slot of a position packed as ``k``: its packed words mixed."""
    h = np.uint64(0x9E3779B97F4A7C15)
    for i in range(KEY_WORDS):
        h = (h ^ np.uint64(k[i])) * np.uint64(0xBF58476D1CE4E5B9)
    return spread(h, slots)


@jit
def slot_of(k: Any, slots: int, s: Array) -> int:
    """The table slot of a position: its packed words ``k`` mixed, or the rules' key."""
    if HAS_KEY:
        return spread(np.uint64(rules_key(s)), slots)
    return packed_slot(k, slots)


@jit
def bucket_of(ts: Array, k: Any, s: Array) -> int:
    """The first slot of the bucket of the position ``s`` packed as ``k``."""
    return slot_of(k, ts.shape[0], s) & ~(BUCKET - 1)


@inline
def holds(ts: Array, j: int, k: Any) -> bool:
    """Whether slot ``j`` holds the position packed as ``k`` (every packed word equal)."""
    for i in range(KEY_WORDS):  # noqa: SIM110 (a loop numba compiles; no generator)
        if ts[j, i] != k[i]:
            return False
    return True


@jit
def probe(ts: Array, k: Any, first: int, st: Array) -> int:
    """The slot holding the position packed as ``k`` in the bucket from ``first`` (its packed
    words compared in full: a slot shared with another position is a miss, never a hit), or
    -1. An entry of an earlier search counts as empty."""
    for j in range(first, first + BUCKET):
        info = ts[j, KEY_WORDS]
        if info == 0 or (info >> 40) < st[EPOCH]:
            continue
        if holds(ts, j, k):
            return j
    return -1


@jit
def store(ts: Array, tv: Any, k: Any, first: int, value: float, depth: int, flag: int,
          move: int, free: bool, gen: int) -> None:  # fmt: skip
    """Store an entry: over the position's own, else over an empty slot of its bucket, else
    over the oldest iteration's shallowest."""
    victim = -1
    worst = -1
    for j in range(first, first + BUCKET):
        info = ts[j, KEY_WORDS]
        if info == 0:
            if victim < 0 or worst < (1 << 62):
                victim = j
                worst = 1 << 62
            continue
        if holds(ts, j, k):
            victim = j
            break
        rank = ((gen - (info >> 40)) << 20) + (0xFFFF - ((info >> 1) & 0xFFFF))
        if rank > worst:
            victim = j
            worst = rank
    for i in range(KEY_WORDS):
        ts[victim, i] = k[i]
    ts[victim, KEY_WORDS] = 1 | depth << 1 | flag << 17 | int(free) << 19 | move << 20 | gen << 40
    tv[victim, KEY_WORDS + 1] = value


@inline
def is_end(s: Array, out: Array, tr: Array) -> bool:
    """Whether ``s`` is over: the rules' own test, or no moves."""
    if HAS_TERMINAL:
        return rules_terminal(s, tr)
    return rules_moves(s, out, tr) == 0


@jit
def sort_by_history(order: Array, first: int, n: int, h: Array) -> None:
    """``order[first:n]`` by history, highest first; stable."""
    for i in range(first + 1, n):
        m = order[i]
        j = i
        while j > first and h[order[j - 1]] < h[m]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = m


@jit
def sort_by_score(s: Array, order: Array, n: int) -> None:
    """``order[:n]`` by the rules' score of each move, highest first; stable (ties keep the
    rules' order). Each score is packed above its move while sorting."""
    for i in range(n):
        order[i] += rules_move_score(s, order[i]) * MOVE_LIMIT
    for i in range(1, n):
        m = order[i]
        k = m // MOVE_LIMIT
        j = i
        while j > 0 and order[j - 1] // MOVE_LIMIT < k:
            order[j] = order[j - 1]
            j -= 1
        order[j] = m
    for i in range(n):
        order[i] %= MOVE_LIMIT


@inline
def stop(st: Array) -> bool:
    st[NODES] += 1
    if st[NODES] >= st[STOP_AT]:
        st[STOPPED] = 1
    return st[STOPPED] != 0


@jit
def leaf_value(bs: Array, ms: Array, ply: int, st: Array, od: Any) -> float:
    """A horizon node (remaining depth 0): its value for its mover."""
    s = bs[ply]
    st[LEAVES] += 1
    if is_end(s, ms[ply], bs[ply, WORDS:]):
        v = rules_utility(s)
    else:
        v = known(s, st, od)
        if np.isnan(v):
            st[HORIZON] += 1
            v = rules_evaluate(s)
    return -v if rules_to_move(s) else v


@inline
def known(s: Array, st: Array, od: Any) -> float:
    """The oracle's exact value of ``s`` (player 0's view), NaN when it does not cover it or
    the search has none."""
    if HAS_ORACLE and st[ORACLE]:
        return rules_oracle(s, od)
    return np.nan


@inline
def opening(s: Array, alpha: float, beta: float, st: Array, tops: Any, bottoms: Any,
            od: Any) -> tuple[bool, float, float, float]:  # fmt: skip
    """What every node of depth >= 1 does first: ``(done, value, top, bottom)``, ``done``
    when the node is answered already (the window lies beyond what the mover can reach, the
    search stops, the oracle covers it), else the mover's bounds."""
    player = rules_to_move(s)
    top = tops[player]
    bottom = bottoms[player]
    if HAS_BOUNDS:  # the rules bound what the mover can still reach from here
        top = min(top, rules_top(s))
        bottom = max(bottom, rules_bottom(s))
        if top <= bottom:  # the bounds meet: the value is known
            return True, top, top, bottom
    if alpha >= top:
        return True, top, top, bottom
    if beta <= bottom:
        return True, bottom, top, bottom
    if stop(st):
        return True, 0.0, top, bottom
    exact = known(s, st, od)
    if not np.isnan(exact):  # the oracle covers it: the line ends here
        st[LEAVES] += 1
        return True, (-exact if player else exact), top, bottom
    return False, 0.0, top, bottom


@jit
def frontier(bs: Array, ms: Array, ply: int, alpha: float, beta: float,
             st: Array, tops: Any, bottoms: Any, od: Any, since: int) -> float:  # fmt: skip
    """Remaining depth 1: the children valued inline, in the rules' order.

    ``since``: the horizon count when the parent began, given by a parent that no child's
    value can settle (no bound to reach), else -1. Once the count has moved past it, the
    parent depends on the horizon whatever this node adds, so with ``EVALUATE_ENDS`` no child
    is tested for the end (its evaluation is its utility then)."""
    s = bs[ply]
    done, value, top, _ = opening(s, alpha, beta, st, tops, bottoms, od)
    if done:
        return value
    player = rules_to_move(s)
    order = ms[ply]
    tr = bs[ply, WORDS:]
    n = rules_moves(s, order, tr)
    child = bs[ply + 1]
    out = ms[ply + 1]
    child_tr = bs[ply + 1, WORDS:]
    best = -np.inf
    estimated = 0
    valued = 0
    for i in range(n):
        if not rules_play(s, order[i], child, tr):
            continue  # a candidate the rules refuse (PSEUDO_MOVES)
        valued += 1
        sure = True
        v = known(child, st, od)
        if not np.isnan(v):
            pass
        elif EVALUATE_ENDS and (estimated or (since >= 0 and st[HORIZON] != since)):
            # the end matters only to a value that settles
            v = rules_evaluate(child)
            sure = (-v if player else v) >= top and is_end(child, out, child_tr)
        elif is_end(child, out, child_tr):
            v = rules_utility(child)
        else:
            estimated += 1
            v = rules_evaluate(child)
            sure = False
        if player:
            v = -v
        if v > best:
            best = v
            if sure and v >= top:
                estimated = 0
                if v >= beta and i < n - 1:
                    st[CUTOFFS] += 1
                break
            if v > alpha:
                if v >= beta:
                    if i < n - 1:
                        st[CUTOFFS] += 1
                    break
                alpha = v
    if valued == 0:  # no move: the game is over
        st[LEAVES] += 1
        u = rules_utility(s)
        return -u if player else u
    st[NODES] += valued  # the leaves, counted once per node as the Python search does
    st[LEAVES] += valued
    st[HORIZON] += estimated
    return best


@jit
def negamax(bs: Array, ms: Array, ply: int, depth: int, alpha: float, beta: float,  # noqa: C901
            ts: Array, tv: Any, hist: Array, st: Array, tops: Any,
            bottoms: Any, od: Any) -> float:  # fmt: skip
    """Fail-soft alpha-beta value of ``bs[ply]`` for its mover, depth >= 2."""
    s = bs[ply]
    done, value, top, bottom = opening(s, alpha, beta, st, tops, bottoms, od)
    if done:
        return value
    player = rules_to_move(s)
    k = rules_pack(s)
    first = bucket_of(ts, k, s)
    slot = probe(ts, k, first, st)
    hint = -1
    if slot >= 0:
        info = ts[slot, KEY_WORDS]
        stored = (info >> 1) & 0xFFFF
        free = (info >> 19) & 1
        if stored == depth or (free and stored <= depth):
            value = tv[slot, KEY_WORDS + 1]
            flag = (info >> 17) & 3
            if flag == EXACT or (value >= beta if flag == LOWER else value <= alpha):
                st[HITS] += 1
                if not free:
                    st[HORIZON] += 1
                return value
        hint = (info >> 20) & 0xFFFFF
    order = ms[ply]
    tr = bs[ply, WORDS:]
    n = rules_safe_moves(s, order, tr) if HAS_SAFE_MOVES else rules_moves(s, order, tr)
    if n == 0:
        st[LEAVES] += 1
        u = rules_utility(s)
        return -u if player else u
    if n < 0:  # every move loses at once: the worst the mover can come to (depth >= 2 sees it)
        st[LEAVES] += 1
        return bottom
    if HAS_MOVE_SCORE and n > 1:
        sort_by_score(s, order, n)
    horizon_before = st[HORIZON]
    since = horizon_before if EVALUATE_ENDS and not HAS_BOUNDS and top == np.inf else -1
    h = hist[player]
    # The table's move first (the others sorted only if it does not cut off), else all
    # by history (by the rules' score when they give one: sorted above); the sort is stable,
    # so ties keep the rules' order, as Python's does.
    found = -1
    if hint >= 0 and n > 1:
        for i in range(n):
            if order[i] == hint:
                found = i
                break
    if found >= 0:
        for j in range(found, 0, -1):
            order[j] = order[j - 1]
        order[0] = hint
    else:
        hint = -1
        if n > 1 and not HAS_MOVE_SCORE:
            sort_by_history(order, 0, n, h)
    nw = beta
    best = -np.inf
    best_move = order[0]
    alpha0 = alpha
    d1 = depth - 1
    child = bs[ply + 1]
    legal = 0
    for i in range(n):
        if i == 1 and hint >= 0 and not HAS_MOVE_SCORE:  # no cut-off: the rest by history
            sort_by_history(order, 1, n, h)
        a = order[i]
        if not rules_play(s, a, child, tr):
            continue  # a candidate the rules refuse (PSEUDO_MOVES)
        legal += 1
        if d1 > 1:
            ck = rules_pack(child)
            prefetch(ts.ctypes.data + bucket_of(ts, ck, child) * ts.strides[0])
        same = rules_to_move(child) == player
        hz = st[HORIZON]
        if legal == 1:  # the first child with the full window
            lo, hi = (alpha, beta) if same else (-beta, -alpha)
        else:  # the others with a null window above alpha, again if they beat it
            nw = np.nextafter(alpha, np.inf)
            if nw >= beta:
                nw = beta
            lo, hi = (alpha, nw) if same else (-nw, -alpha)
        if d1 == 1:
            v = frontier(bs, ms, ply + 1, lo, hi, st, tops, bottoms, od, since)
        else:
            v = negamax(bs, ms, ply + 1, d1, lo, hi, ts, tv, hist, st, tops, bottoms, od)
        if not same:
            v = -v
        if legal > 1 and alpha < v < beta and nw < beta and not st[STOPPED]:
            hz = st[HORIZON]  # the re-search alone decides
            lo, hi = (v, beta) if same else (-beta, -v)
            if d1 == 1:
                v = frontier(bs, ms, ply + 1, lo, hi, st, tops, bottoms, od, since)
            else:
                v = negamax(bs, ms, ply + 1, d1, lo, hi, ts, tv, hist, st, tops, bottoms, od)
            if not same:
                v = -v
        if st[STOPPED]:
            return 0.0
        if v > best:
            best = v
            best_move = a
            if v >= top and st[HORIZON] == hz:  # settled: nothing can beat it
                st[HORIZON] = horizon_before
                if v >= beta and i < n - 1:
                    st[CUTOFFS] += 1
                h[a] += depth * depth if depth < 64 else 4096
                break
            if v > alpha:
                if v >= beta:
                    if i < n - 1:
                        st[CUTOFFS] += 1
                    h[a] += depth * depth if depth < 64 else 4096
                    break
                alpha = v
    if legal == 0:  # no candidate plays: the game is over (PSEUDO_MOVES)
        st[LEAVES] += 1
        u = rules_utility(s)
        return -u if player else u
    flag = UPPER if best <= alpha0 else (LOWER if best >= beta else EXACT)
    store(ts, tv, k, first, best, depth, flag, best_move, st[HORIZON] == horizon_before, st[GEN])
    return best


@jit
def child_search(bs: Array, ms: Array, ply: int, depth: int, alpha: float, beta: float,
                 ts: Array, tv: Any, hist: Array, st: Array, nw: Any, tops: Any,
                 bottoms: Any, od: Any) -> float:  # fmt: skip
    """The value of ``bs[ply]`` for its mover to ``depth``, fail-soft (Python's
    ``child_value`` seen from the child)."""
    if NULL_WINDOW and depth > MAX_PLIES:
        return null_windows(
            bs, ms, ply, depth, alpha, beta, ts, tv, hist, st, nw, tops, bottoms, od
        )
    st[RESUME] = 0  # no narrowing to resume
    if depth <= 0:
        if stop(st):
            return 0.0
        return leaf_value(bs, ms, ply, st, od)
    if depth == 1:
        return frontier(bs, ms, ply, alpha, beta, st, tops, bottoms, od, np.int64(-1))
    return negamax(bs, ms, ply, depth, alpha, beta, ts, tv, hist, st, tops, bottoms, od)


@jit
def null_windows(bs: Array, ms: Array, ply: int, depth: int, alpha: float, beta: float,
                 ts: Array, tv: Any, hist: Array, st: Array, nw: Any, tops: Any,
                 bottoms: Any, od: Any) -> float:  # fmt: skip
    """A search to the end as null-window searches that close in on the value between the
    bounds (Pons's solver: each asks "at least x?" and leaves its bounds in the table),
    fail-soft in ``(alpha, beta)`` as :func:`negamax` is. The next x is the middle of what is
    left, moved towards 0 (a draw, the likeliest value) when 0 is nearer.

    The interval left is kept in ``nw`` after each search: called again for the same search
    after the node budget stopped it (``st[RESUME]``, set by the caller), it goes on from
    there. Started over, it would ask its earlier questions again, and the table, which keeps
    one bound a position, holds the later questions' answers by then (a restart cost more
    nodes than the budget between two)."""
    s = bs[ply]
    player = rules_to_move(s)
    lo = max(alpha, bottoms[player])
    hi = min(beta, tops[player])
    if HAS_BOUNDS:
        lo = max(lo, rules_bottom(s))
        hi = min(hi, rules_top(s))
    if st[RESUME]:
        st[RESUME] = 0
        lo, hi = nw[0], nw[1]
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return negamax(bs, ms, ply, depth, alpha, beta, ts, tv, hist, st, tops, bottoms, od)
    while lo < hi:
        nw[0] = lo
        nw[1] = hi
        x = lo + (hi - lo) / 2
        if x <= 0 and lo / 2 < x:
            x = lo / 2
        elif x >= 0 and hi / 2 > x:
            x = hi / 2
        if x <= lo:  # no float between: ask about hi itself
            x = hi
        below = np.nextafter(x, -np.inf)
        v = negamax(bs, ms, ply, depth, below, x, ts, tv, hist, st, tops, bottoms, od)
        if st[STOPPED]:
            return 0.0
        if v >= x:
            lo = v
        else:
            hi = v
    return lo if lo >= beta or lo > hi else hi


@jit
def child_value(child: Array, depth: int, alpha: float, beta: float, bs: Array, ms: Array,
                ts: Array, tv: Any, hist: Array, st: Array, nw: Any, tops: Any,
                bottoms: Any, od: Any) -> float:  # fmt: skip
    for i in range(WORDS):
        bs[0, i] = child[i]
    root = np.int64(0)  # not the literal 0: a second overload of the recursive kernels,
    # which numba's cache mishandles (a segmentation fault when a later process loads it)
    return child_search(bs, ms, root, depth, alpha, beta, ts, tv, hist, st, nw, tops, bottoms, od)


@jit
def table_move(ts: Array, s: Array, st: Array) -> int:
    k = rules_pack(s)
    slot = probe(ts, k, bucket_of(ts, k, s), st)
    if slot < 0:
        return -1
    return (ts[slot, KEY_WORDS] >> 20) & 0xFFFFF


FIRST, RESEARCH, WORSE = 0, 1, 2
"""The phases of a root move's search in :func:`root_moves`: its first search (the full window
for the first move, else the narrowest window around the best so far), the search again of one
that failed high, and the full-window search of a worse one (``all_values``)."""


@jit
def root_moves(kids: Array, same: Array, n: int, depth: int, all_values: bool, found: Any,
               kinds: Array, free: Array, at: Array, bs: Array, ms: Array, ts: Array, tv: Any,
               hist: Array, st: Array, nw: Any, tops: Any, bottoms: Any,
               od: Any) -> bool:  # fmt: skip
    """Every root move's search of one iteration, as the engine's driver does it (its
    ``search_root``): the first move ``kids[0]`` with the full window, each later one with the
    narrowest window around the best so far (``found[n]``), again with ``(best, inf)`` when it
    fails high, and with ``(-inf, best)`` when it is worse and ``all_values`` asks for its value.

    Per move ``i`` it writes its value or bound ``found[i]`` (the root mover's view), ``kinds[i]``
    (:data:`VALUED` or :data:`BOUNDED`) and ``free[i]`` (its deciding search met no horizon);
    ``same[i]``: the child's mover is the root's. Resumable: when the node budget stops it
    (True), ``at`` holds the move and phase to search again (the table keeps the work done) and
    the horizon count is as it was before that search, as the driver's restart wants."""
    while at[0] < n:
        i = at[0]
        phase = at[1]
        best = found[n]
        if phase == FIRST:
            at[2] = st[HORIZON]  # the horizon count before the move: its search decides
            if i == 0:
                lo, hi = -np.inf, np.inf
            else:
                lo, hi = np.nextafter(best, -np.inf), np.nextafter(best, np.inf)
        elif phase == RESEARCH:
            at[2] = st[HORIZON]  # the search again alone decides
            lo, hi = best, np.inf
        else:
            lo, hi = -np.inf, best
        at[3] = st[HORIZON]
        if same[i]:
            v = child_value(kids[i], depth, lo, hi, bs, ms, ts, tv, hist, st, nw, tops, bottoms, od)
        else:
            v = -child_value(
                kids[i], depth, -hi, -lo, bs, ms, ts, tv, hist, st, nw, tops, bottoms, od
            )
        if st[STOPPED]:
            st[HORIZON] = at[3]
            return True
        if phase == WORSE:
            found[i] = v
            kinds[i] = VALUED
            at[0] += 1
            at[1] = FIRST
            continue
        if phase == FIRST and i > 0 and v > best and v >= hi and hi != np.inf:
            at[1] = RESEARCH  # it failed high: find its exact value
            continue
        free[i] = st[HORIZON] == at[2]
        found[i] = v
        kinds[i] = VALUED
        at[1] = FIRST
        if i == 0 or v > best:
            found[n] = v
        elif v != best and v <= np.nextafter(best, -np.inf):  # worse: only a bound
            if all_values:
                at[1] = WORSE
                continue
            kinds[i] = BOUNDED
        at[0] += 1
    return False


@jit
def proved_line(cur: Array, kid: Array, deepest: int, xs: Any, line: Array,
                order: Array, at: Array, bs: Array, ms: Array, ts: Array, tv: Any,
                hist: Array, st: Array, nw: Any, tops: Any, bottoms: Any,
                od: Any) -> bool:  # fmt: skip
    """A value-keeping line from ``cur`` (the engine driver's ``proved_line``): at each step
    the moves in the rules' order, the table's move first, each child asked "at least x?"
    (a null window below ``xs[0]``, the value of ``cur`` for its mover), the first that keeps
    it played, until the game ends, no move keeps it, or ``at[2]`` plies are played (each
    child searched to the plies left, at most ``deepest``: to the end).

    Writes the moves to ``line[:at[0]]``; ``cur`` becomes the line's last position. Resumable:
    when the node budget stops it (True), ``at`` holds the step's move under test and
    ``order`` the step's moves, and the horizon count is as it was before that search."""
    while at[2] > 0:
        s = cur
        tr = cur[WORDS:]
        if at[4] == 0:  # a new step: its moves, the table's first
            n = rules_moves(s, order, tr)
            hint = table_move(ts, s, st)
            for i in range(1, n):
                if order[i] == hint:
                    for j in range(i, 0, -1):
                        order[j] = order[j - 1]
                    order[0] = hint
                    break
            at[3] = n
            at[1] = 0
            at[4] = 1
        n = at[3]
        if n == 0:
            return False
        player = rules_to_move(s)
        x = xs[0]
        d1 = min(at[2] - 1, deepest)
        kept = False
        while at[1] < n:
            a = order[at[1]]
            if not rules_play(s, a, kid, tr):
                at[1] += 1
                continue
            same = rules_to_move(kid) == player
            lo = np.nextafter(x, -np.inf)
            at[5] = st[HORIZON]
            if same:
                v = child_value(kid, d1, lo, x, bs, ms, ts, tv, hist, st, nw, tops, bottoms, od)
            else:
                v = -child_value(kid, d1, -x, -lo, bs, ms, ts, tv, hist, st, nw, tops, bottoms, od)
            if st[STOPPED]:
                st[HORIZON] = at[5]
                return True
            if v >= x:
                kept = True
                line[at[0]] = a
                at[0] += 1
                for i in range(cur.shape[0]):
                    cur[i] = kid[i]
                if not same:
                    xs[0] = -x
                break
            at[1] += 1
        if not kept:
            return False
        at[2] -= 1
        at[4] = 0
    return False
