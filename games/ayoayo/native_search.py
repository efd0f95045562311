"""Ayòayò's node search compiled with numba, with the endgame tablebases probed inside it.

The kernels here are the node search of :mod:`solver.python_search` restated over arrays
(negamax alpha-beta, principal-variation search, a transposition table with bound flags, table
move then history ordering, nodes one ply above the horizon valued inline), with the rules of
:mod:`games.ayoayo.native_rules`. :class:`CompiledSearch` offers them to the engine's one driver
(:func:`solver.engine.search`) as a :class:`solver.node_search.NodeSearch`: deepening, the
root, plies, the principal variation, limits and ties are the driver's, written once.

What it assumes and guarantees:

* **Same answers.** Values, optimal move sets and ``exact`` equal those of the Python node
  search under the same driver (the tests compare them on thousands of positions). Windows
  arrive as the driver's numbers and are made ints exactly (values are ints, so the float just
  below ``x`` becomes ``x - 1``). The table is an array of 4-entry buckets (exact keys: the
  position packed into two 64-bit words, no hash collisions) rather than a dictionary; a bucket
  that overflows replaces its oldest, shallowest entry, so on large searches the tree (not the
  values) may differ from the Python search's.
* **Tablebases inside.** With a :class:`~games.ayoayo.tablebase.Tablebase` as the search's
  oracle, the levels present are handed to the kernel as memory-mapped arrays, and a position
  one of them holds is ranked (stars and bars over the mover's view, the captured split) and
  read in the kernel: the line ends there with its exact value, as the Python oracle path does,
  at kernel speed. Missing levels are simply not probed. Another oracle is not the kernel's to
  probe: :func:`compiled_search` then declines and the Python node search runs.
* **Limits.** The kernel stops after a node budget and returns to Python, which looks at the
  limits and Ctrl-C (delivered there) and, if the search may go on, calls the kernel again:
  the table keeps every finished subtree, so the restart costs a walk down the interrupted
  line. The budget is sized to about 20 ms of search.

>>> from games.ayoayo import Ayoayo
>>> from solver.engine import search
>>> result = search(Ayoayo(), depth=4)
>>> result.value, result.best_actions, result.pv, result.exact
(-4, (5,), (5, 1, 2, 0), False)
"""

from __future__ import annotations

import math
import time
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from games.ayoayo.board import TOTAL_SEEDS, WIN_THRESHOLD
from games.ayoayo.native_jit import kernel, warm_up
from games.ayoayo.native_probe import (
    NOT_COVERED,
    Levels,
    key_of,
    levels_of,
    tablebase_of,
    tablebase_value,
)
from games.ayoayo.native_rules import WIDTH, board_array, is_terminal_with, play_with
from games.ayoayo.rules import AyoayoRules
from games.ayoayo.tablebase import Tablebase
from solver.node_search import Limits, SearchStopped
from solver.results import SearchRequest, SearchStats

__all__ = [
    "KERNEL_CHECK_NODES",
    "MAX_DEPTH",
    "CompiledSearch",
    "compiled_search",
    "tablebase_of",
]

Array = npt.NDArray[np.int64]

MAX_DEPTH: Final = 250
"""The deepest search the kernel's stacks hold (the driver stops deepening there)."""

SCRATCH: Final = MAX_DEPTH + 2
"""The row of the kernel's boards kept for the rules' trial sowings (past the stack's rows)."""

ROOT_PLY: Final = np.int64(0)
"""The stack row of the child a search starts from: an int64, not the literal 0 (numba would
compile the recursive kernels a second time for a literal argument, and its cache mishandles
a recursive function with several overloads: a segmentation fault when a later process loads
them)."""

KERNEL_CHECK_NODES: Final = 1 << 15
"""The first node budget between two returns to Python (then sized to ~20 ms of search)."""

BIG: Final = 1 << 20
"""Infinity for windows (values lie in -48..48)."""

# Counters and controls shared by the kernel and the driver (indices into one int64 array).
# TB_MAX: the most seeds on the board of a tablebase level present (-1: no tablebase).
NODES, LEAVES, CUTOFFS, HITS, HORIZON, STORES, OVERWRITES, STOP_AT, STOPPED, GEN, TB_MAX = range(11)
N_STATS: Final = 11

EXACT, LOWER, UPPER = 0, 1, 2  # as solver.table
_BUCKET: Final = 4


@kernel
def _slot0(k1: int, k2: int, mask: int) -> int:
    h = k1 * -7046029254386353131 + k2 * -4658895280553007687
    h ^= h >> 29
    return (h & mask) & ~(_BUCKET - 1)


@kernel
def _probe(tk: Array, k1: int, k2: int) -> int:
    """The table slot holding the position, or -1."""
    base = _slot0(k1, k2, tk.shape[0] - 1)
    for j in range(base, base + _BUCKET):
        if tk[j, 1] == k2 and tk[j, 0] == k1:
            return j
    return -1


@kernel
def _store(
    tk: Array, k1: int, k2: int, value: int, depth: int, flag: int, move: int, free: bool, gen: int
) -> bool:
    """Store an entry; True if it replaced the position's own older one."""
    base = _slot0(k1, k2, tk.shape[0] - 1)
    victim = -1
    for j in range(base, base + _BUCKET):
        if tk[j, 1] == k2 and tk[j, 0] == k1:
            victim = j
            break
    own = victim >= 0
    if not own:
        worst = 0
        for j in range(base, base + _BUCKET):
            if tk[j, 1] == 0:
                victim = j
                break
            info = tk[j, 2]
            # Older generations go first, then shallower searches.
            rank = ((gen - (info >> 40)) << 20) + (0xFFFF - ((info >> 16) & 0xFFFF))
            if victim < 0 or rank > worst:
                victim = j
                worst = rank
    tk[victim, 0] = k1
    tk[victim, 1] = k2
    tk[victim, 2] = (
        (value + 32768)
        | (depth << 16)
        | (flag << 32)
        | (move << 34)
        | ((1 if free else 0) << 37)
        | (gen << 40)
    )
    return own


@kernel
def _hint(tk: Array, s: Array) -> int:
    """The stored best move of a position, or -1."""
    k1, k2 = key_of(s)
    j = _probe(tk, k1, k2)
    return -1 if j < 0 else (tk[j, 2] >> 34) & 7


@kernel
def _stop(st: Array) -> bool:
    st[NODES] += 1
    if st[NODES] >= st[STOP_AT]:
        st[STOPPED] = 1
        return True
    return False


@kernel
def _frontier(  # noqa: C901 (compiled hot loop: one call per node)
    bs: Array, ply: int, alpha: int, beta: int, st: Array, since: int, levels: Levels, lookup: Array
) -> int:
    """Negamax at remaining depth 1: the children are horizon leaves, valued here (as the
    engine's ``frontier``: actions order, no table, no ordering).

    Only whether a horizon leaf was met matters (for ``exact`` and horizon-free entries), not
    how many: ``since`` is the horizon count when the parent began, and once the count is past
    it (the parent already depends on the horizon) no child is tested for the end. A child's
    value is the captured difference either way (the evaluation is the utility), unless the
    tablebase holds it: then its exact value, and no horizon.
    """
    if _stop(st):
        return 0
    s = bs[ply]
    tb_max = st[TB_MAX]
    player = s[14]
    if TOTAL_SEEDS - s[12] - s[13] <= tb_max:  # few enough seeds for a level present
        known = tablebase_value(s, levels, lookup, tb_max)
        if known != NOT_COVERED:
            st[LEAVES] += 1
            return known
    child = bs[ply + 1]
    trial = bs[SCRATCH]
    best = -BIG
    legal = 0
    estimated = 0
    if s[12] <= WIN_THRESHOLD and s[13] <= WIN_THRESHOLD:
        for a in range(6):
            if not play_with(s, a, child, trial):
                continue
            legal += 1
            known = NOT_COVERED
            if TOTAL_SEEDS - child[12] - child[13] <= tb_max:
                known = tablebase_value(child, levels, lookup, tb_max)
            if known != NOT_COVERED:
                v = -known  # the child's mover is the other player
            else:
                if estimated == 0 and st[HORIZON] == since and not is_terminal_with(child, trial):
                    estimated = 1
                v = child[12] - child[13]  # the utility, and the evaluation too
                if player:
                    v = -v
            if v > best:
                best = v
                if v > alpha:
                    if v >= beta:
                        if a != 5:
                            st[CUTOFFS] += 1
                        break
                    alpha = v
    if legal == 0:
        st[LEAVES] += 1
        u = s[12] - s[13]
        return -u if player else u
    st[NODES] += legal
    st[LEAVES] += legal
    st[HORIZON] += estimated
    return best


@kernel
def _sort_by_history(order: Array, start: int, cells: Array, n: int, hist: Array) -> None:
    """``order[start:start+n]`` = ``cells[:n]`` by history, highest first, stable."""
    for i in range(n):
        c = cells[i]
        h = hist[c]
        j = start + i
        while j > start and hist[order[j - 1]] < h:
            order[j] = order[j - 1]
            j -= 1
        order[j] = c


@kernel
def _negamax(  # noqa: C901 (compiled hot loop: the search, one call per node)
    bs: Array,
    orders: Array,
    ply: int,
    depth: int,
    alpha: int,
    beta: int,
    tk: Array,
    hist: Array,
    st: Array,
    levels: Levels,
    lookup: Array,
) -> int:
    """Fail-soft alpha-beta value of ``bs[ply]`` for its mover, depth >= 2 (the engine's).

    A position the tablebase holds is a leaf with its exact value, probed first (as the
    engine's oracle).
    """
    if _stop(st):
        return 0
    s = bs[ply]
    tb_max = st[TB_MAX]
    if TOTAL_SEEDS - s[12] - s[13] <= tb_max:  # few enough seeds for a level present
        known = tablebase_value(s, levels, lookup, tb_max)
        if known != NOT_COVERED:
            st[LEAVES] += 1
            return known
    k1, k2 = key_of(s)
    slot = _probe(tk, k1, k2)
    hint = -1
    if slot >= 0:
        info = tk[slot, 2]
        stored = (info >> 16) & 0xFFFF
        free = (info >> 37) & 1
        if stored == depth or (free and stored <= depth):
            value = (info & 0xFFFF) - 32768
            flag = (info >> 32) & 3
            if flag == EXACT or (value >= beta if flag == LOWER else value <= alpha):
                st[HITS] += 1
                if not free:
                    st[HORIZON] += 1
                return value
        hint = (info >> 34) & 7
    player = s[14]
    if s[12] > WIN_THRESHOLD or s[13] > WIN_THRESHOLD:
        st[LEAVES] += 1
        u = s[12] - s[13]
        return -u if player else u
    start_horizon = st[HORIZON]
    h = hist[player]
    order = orders[ply]
    cells = orders[ply, 6:]
    rest = False
    n_order = 6
    if hint >= 0:
        order[0] = hint
        n_order = 1
        rest = True
    else:
        for c in range(6):
            cells[c] = c
        _sort_by_history(order, 0, cells, 6, h)
    best = -BIG
    best_move = order[0]
    alpha0 = alpha
    legal = 0
    d1 = depth - 1
    child = bs[ply + 1]
    trial = bs[SCRATCH]
    i = 0
    while i < n_order:
        a = order[i]
        i += 1
        if play_with(s, a, child, trial):
            legal += 1
            if legal == 1:
                if d1 == 1:
                    v = -_frontier(bs, ply + 1, -beta, -alpha, st, start_horizon, levels, lookup)
                else:
                    v = -_negamax(
                        bs, orders, ply + 1, d1, -beta, -alpha, tk, hist, st, levels, lookup
                    )
            else:
                nw = alpha + 1
                if nw > beta:
                    nw = beta
                if d1 == 1:
                    v = -_frontier(bs, ply + 1, -nw, -alpha, st, start_horizon, levels, lookup)
                    if alpha < v < beta and nw < beta and not st[STOPPED]:
                        v = -_frontier(bs, ply + 1, -beta, -v, st, start_horizon, levels, lookup)
                else:
                    v = -_negamax(
                        bs, orders, ply + 1, d1, -nw, -alpha, tk, hist, st, levels, lookup
                    )
                    if alpha < v < beta and nw < beta and not st[STOPPED]:
                        v = -_negamax(
                            bs, orders, ply + 1, d1, -beta, -v, tk, hist, st, levels, lookup
                        )
            if st[STOPPED]:
                return 0
            if v > best:
                best = v
                best_move = a
                if v > alpha:
                    if v >= beta:
                        if rest or i < n_order:
                            st[CUTOFFS] += 1
                        h[a] += depth * depth if depth < 64 else 4096
                        break
                    alpha = v
        if rest:  # the table's move did not cut off: now the others, by history
            rest = False
            k = 0
            for c in range(6):
                if c != a:
                    cells[k] = c
                    k += 1
            _sort_by_history(order, 1, cells, 5, h)
            n_order = 6
    if legal == 0:
        st[LEAVES] += 1
        u = s[12] - s[13]
        return -u if player else u
    flag = UPPER if best <= alpha0 else (LOWER if best >= beta else EXACT)
    if _store(tk, k1, k2, best, depth, flag, best_move, st[HORIZON] == start_horizon, st[GEN]):
        st[OVERWRITES] += 1
    st[STORES] += 1
    return best


@kernel
def _child_value(
    child: Array,
    depth: int,
    alpha: int,
    beta: int,
    bs: Array,
    orders: Array,
    tk: Array,
    hist: Array,
    st: Array,
    levels: Levels,
    lookup: Array,
) -> int:
    """A child's fail-soft value from its parent's view (the parent is the other player)."""
    for i in range(15):
        bs[0, i] = child[i]
    if depth <= 0:
        if _stop(st):
            return 0
        st[LEAVES] += 1
        if st[TB_MAX] >= 0:
            known = tablebase_value(child, levels, lookup, st[TB_MAX])
            if known != NOT_COVERED:
                return -known
        if not is_terminal_with(child, bs[SCRATCH]):
            st[HORIZON] += 1
        v = child[12] - child[13]
        return v if child[14] else -v  # the parent's view: the parent is 1 - child[14]
    if depth == 1:
        return -_frontier(bs, ROOT_PLY, -beta, -alpha, st, st[HORIZON], levels, lookup)
    return -_negamax(bs, orders, ROOT_PLY, depth, -beta, -alpha, tk, hist, st, levels, lookup)


# ---- the node search the driver runs ---------------------------------------------------------


class CompiledSearch:
    """The kernel as a :class:`solver.node_search.NodeSearch`: its arrays and counters.

    Args:
        game: the rules (for the evaluation the driver asks of a root).
        request: the search's options (its table size).
        limits: the search's limits, looked at between two kernel calls.
        tablebase: levels to probe inside the search, or None.
    """

    trace = None
    has_evaluate = True
    max_depth: float = MAX_DEPTH

    def __init__(
        self,
        game: AyoayoRules,
        request: SearchRequest,
        limits: Limits,
        tablebase: Tablebase | None = None,
    ) -> None:
        self.game = game
        self.limits = limits
        size = request.table_size
        slots = 1 << max(2, size.bit_length() - 1)  # a power of two <= size (>= 4)
        self.table = np.zeros((slots, 3), np.int64)
        self.boards = np.zeros((SCRATCH + 1, WIDTH), np.int64)
        self.orders = np.zeros((MAX_DEPTH + 2, 12), np.int64)
        self.history = np.zeros((2, 6), np.int64)
        self.st = np.zeros(N_STATS, np.int64)
        self.levels, self.lookup, self.st[TB_MAX] = levels_of(tablebase)
        self.budget = KERNEL_CHECK_NODES
        self.memo_size = size
        self.kernel_seconds = 0.0  # time inside the kernel (the rest is the driver's Python)

    @property
    def nodes(self) -> int:
        return int(self.st[NODES])

    @nodes.setter
    def nodes(self, value: int) -> None:
        self.st[NODES] = value

    @property
    def horizon(self) -> int:
        return int(self.st[HORIZON])

    def _arm(self) -> None:
        """Set the kernel's next stop: after a budget of nodes, or at the node limit."""
        st = self.st
        stop = int(st[NODES]) + self.budget
        if self.limits.node_limit is not None:
            stop = min(stop, self.limits.node_limit)
        st[STOP_AT] = stop
        st[STOPPED] = 0

    def child_value(
        self, child: Any, cp: int, player: int, depth: float, alpha: Any, beta: Any
    ) -> int:
        """The kernel's value of a child (the parent's view), resumed after each node budget."""
        assert cp != player, "Ayòayò's players alternate"
        lo = -BIG if alpha == -math.inf else math.floor(alpha)  # exact: values are ints
        hi = BIG if beta == math.inf else math.ceil(beta)
        st = self.st
        arr = board_array(child)
        d = int(depth)
        while True:
            self._arm()
            horizon = int(st[HORIZON])
            nodes = int(st[NODES])
            began = time.perf_counter()
            v = int(
                _child_value(
                    arr,
                    d,
                    lo,
                    hi,
                    self.boards,
                    self.orders,
                    self.table,
                    self.history,
                    st,
                    self.levels,
                    self.lookup,
                )
            )
            spent = time.perf_counter() - began
            self.kernel_seconds += spent
            if not st[STOPPED]:
                return v
            # Interrupted: the restart counts its own horizon (the table keeps the rest).
            st[HORIZON] = horizon
            if self.limits.reached(int(st[NODES])):
                raise SearchStopped
            # Aim at ~20 ms between two looks at the clock (and at a pending Ctrl-C).
            rate = (int(st[NODES]) - nodes) / max(spent, 1e-4)
            self.budget = int(min(max(rate * 0.02, 4096), 1 << 20))

    def child_ge(self, child: Any, cp: int, player: int, depth: float, x: Any) -> bool:
        """Whether a child's value (the parent's view) is at least ``x``: a null window."""
        return self.child_value(child, cp, player, depth, x - 1, x) >= x

    def evaluate(self, state: Any) -> int:
        return self.game.evaluate(state)

    def key(self, state: Any) -> Any:
        return state

    def table_move(self, state: Any) -> int | None:
        hint = int(_hint(self.table, board_array(state)))
        return None if hint < 0 else hint

    def new_iteration(self) -> None:
        self.st[GEN] += 1

    def stats(self) -> SearchStats:
        st = self.st
        return SearchStats(
            nodes=int(st[NODES]),
            leaves=int(st[LEAVES]),
            cutoffs=int(st[CUTOFFS]),
            table_hits=int(st[HITS]),
            seconds=self.limits.elapsed(),
        )


def compiled_search(
    game: AyoayoRules, request: SearchRequest, limits: Limits
) -> CompiledSearch | None:
    """The kernel, loaded (or compiled once), for ``request``; None when it cannot serve it.

    It cannot serve an oracle other than a :class:`Tablebase` (or its ``probe``), a search to
    the end with nothing to stop it (``depth=None`` without limits or ``on_depth``: the
    driver's one search without a horizon), or a depth beyond :data:`MAX_DEPTH`.

    >>> from games.ayoayo import Ayoayo
    >>> compiled_search(Ayoayo(), SearchRequest(depth=3), Limits(None, None)).max_depth
    250
    >>> compiled_search(Ayoayo(), SearchRequest(oracle=lambda s: None), Limits(None, None))
    """
    r = request
    tablebase = tablebase_of(r.oracle)
    if r.oracle is not None and tablebase is None:
        return None
    if r.depth is None and r.time_limit is None and r.node_limit is None and r.on_depth is None:
        return None
    if r.depth is not None and r.depth > MAX_DEPTH:
        return None
    return CompiledSearch(game, request, limits, tablebase)


@warm_up("search")
def _warm_up() -> None:
    """Call the search's entry points once (a depth-2 search of the start, the table's move)."""
    game = AyoayoRules()
    limits = Limits(None, None)
    limits.start()
    nodes = CompiledSearch(game, SearchRequest(table_size=64), limits)
    start = game.initial_state()
    nodes.child_value(game.result(start, 0), 1, 0, 2, -math.inf, math.inf)
    nodes.table_move(start)
