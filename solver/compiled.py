"""The compiled route: one generic node search, compiled with numba against a game's own rules.

Assumes two players, zero-sum, deterministic, perfect information, and a game whose positions
fit a fixed number of 64-bit integers. A game offers its rules as plain Python functions that
numba can compile (:class:`CompiledRules`, through :class:`solver.game.HasCompiledRules`); this
module compiles the engine's node search against them once per process and runs it under the
engine's one driver (:func:`solver.engine.search`) as a :class:`~solver.node_search.NodeSearch`.
Deepening, the root, plies, the principal variation, limits and ties stay the driver's.

The kernel is :mod:`solver.python_search` restated over arrays: fail-soft negamax with
principal-variation search, proofs from the utility bounds (a child proved to reach its mover's
best possible value settles the node), a transposition table with bound flags and
horizon-free entries, the table's move first and then the history heuristic, nodes one ply
above the horizon valued inline. Values are float64: ints and floats within 2**53 exactly.
The table is an array of ``2**k`` slots, each holding the whole position (no collision is ever
taken for a hit), replaced on every store; so on large searches the tree (never the values)
may differ from the Python search's.

numba is optional (the ``fast`` extra): without it, or with ``GAMESOLVER_NATIVE=0``,
:func:`compiled_search` answers None and the Python node search runs, with the same answers.

Compiling takes 15-30 s and numba cannot keep kernels built from closures in its disk cache,
so it is paid once per process, and only when asked: :func:`prepare` compiles a game's kernel,
and from then on the engine runs that game's searches on it (a fresh process that does not
ask searches in Python, at once).

>>> from games import load_game
>>> from solver.engine import search
>>> game = load_game("connect4")
>>> prepare(game) is not None  # compiles the kernel (None without numba)
True
>>> result = search(game, game.parse_state("4455"), depth=5)
>>> result.value, result.exact, result.plies, sorted(result.best_actions)
(1, True, 3, [2, 5])
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Hashable
from typing import Any, Final

import attrs
import numpy as np
import numpy.typing as npt

from solver.game import Game, HasCompiledRules, HasKey
from solver.node_search import Limits, SearchStopped, outcomes
from solver.results import SearchRequest, SearchStats
from solver.table import END

__all__ = [
    "CompiledRules",
    "CompiledSearch",
    "compiled_search",
    "numba_available",
    "prepare",
    "ready",
]

Array = npt.NDArray[np.int64]

# Counters and controls shared by the kernel and Python (indices into one int64 array).
NODES, LEAVES, CUTOFFS, HITS, HORIZON, STOP_AT, STOPPED, GEN = range(8)
N_STATS: Final = 8

KERNEL_CHECK_NODES: Final = 1 << 15
"""The first node budget between two returns to Python (then sized to ~20 ms of search)."""

EXACT, LOWER, UPPER = 0, 1, 2  # as solver.table


@attrs.frozen
class CompiledRules:
    """A game's rules as numba-compilable functions over a position held in ``words`` int64s.

    Every function takes the position as a 1-D int64 array ``s`` (``words`` long) and must be
    compilable by ``numba.njit`` (no Python objects; constants may come from a closure).
    Moves are ints in ``0 .. move_limit - 1`` and are the game's actions themselves.

    Attributes:
        name: names the compiled kernel in messages (the game's name and options).
        words: the int64s of one position.
        move_limit: every move is below it.
        max_plies: the longest game (a search this deep meets no horizon).
        encode: Python: a game state as a ``words``-long int64 array.
        moves: ``moves(s, out) -> n``: the legal moves written to ``out[:n]``, in the order the
            search should try them; 0 exactly when ``s`` is terminal.
        play: ``play(s, move, child)``: the position after ``move`` written to ``child``.
        to_move: ``to_move(s) -> 0 or 1``.
        utility: ``utility(s) -> float``: a terminal position's value, player 0's view.
        evaluate: ``evaluate(s) -> float``: the horizon's heuristic, player 0's view (None:
            a search must reach the end); it must equal the game's own ``evaluate``.
        key: ``key(s) -> int``: a hash of the position (None: a mix of its words).
    """

    name: str
    words: int
    move_limit: int
    max_plies: int
    encode: Callable[[Any], Array]
    moves: Callable[..., int]
    play: Callable[..., None]
    to_move: Callable[..., int]
    utility: Callable[..., float]
    evaluate: Callable[..., float] | None = None
    key: Callable[..., int] | None = None


def numba_available() -> bool:
    """Whether compiled node searches may run: numba importable and not switched off."""
    if os.environ.get("GAMESOLVER_NATIVE", "1") == "0":
        return False
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


_KERNELS: dict[CompiledRules, tuple[Any, Any, float]] = {}
"""Compiled kernels by rules: (child_value, table_move, seconds spent compiling)."""


def prepare(game: Any) -> float | None:
    """Compile ``game``'s kernel now (once per process): the seconds it took (0.0 when it was
    ready), or None when there is nothing to compile (no compiled rules, numba missing or
    switched off). From then on the engine searches ``game`` on it."""
    if not (numba_available() and isinstance(game, HasCompiledRules)):
        return None
    rules = game.compiled_rules()
    known = rules in _KERNELS
    seconds = _kernels(rules)[2]
    return 0.0 if known else seconds


def ready(rules: CompiledRules) -> bool:
    """Whether the kernel for ``rules`` is compiled in this process."""
    return rules in _KERNELS


def _kernels(rules: CompiledRules) -> tuple[Any, Any, float]:
    """The kernel compiled for ``rules`` (once per process)."""
    if rules not in _KERNELS:
        began = time.perf_counter()
        child_value, table_move = _build(rules)
        _warm(rules, child_value, table_move)
        _KERNELS[rules] = (child_value, table_move, time.perf_counter() - began)
    return _KERNELS[rules]


def _build(rules: CompiledRules) -> tuple[Any, Any]:  # noqa: C901 (the kernel, compiled once)
    """Compile the node search against ``rules``: ``(child_value, table_move)``."""
    from numba import njit

    words = rules.words
    move_limit = rules.move_limit
    moves = njit(rules.moves)
    play = njit(rules.play)
    to_move = njit(rules.to_move)
    utility = njit(rules.utility)
    has_evaluate = rules.evaluate is not None
    evaluate = njit(rules.evaluate if rules.evaluate is not None else rules.utility)
    has_key = rules.key is not None
    game_key = njit(rules.key if rules.key is not None else rules.to_move)

    @njit(cache=False)
    def slot_of(s: Array, slots: int) -> int:
        if has_key:
            h = np.uint64(game_key(s))
        else:
            h = np.uint64(0x9E3779B97F4A7C15)
            for i in range(words):
                h = (h ^ np.uint64(s[i])) * np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(31)
        h *= np.uint64(0x94D049BB133111EB)
        h ^= h >> np.uint64(29)
        return np.int64(h & np.uint64(slots - 1))

    @njit(cache=False)
    def probe(ts: Array, s: Array) -> int:
        slot = slot_of(s, ts.shape[0])
        if ts[slot, words] == 0:  # the info word: 0 when empty
            return -1
        for i in range(words):
            if ts[slot, i] != s[i]:
                return -1
        return slot

    @njit(cache=False)
    def store(ts: Array, tv: Any, s: Array, value: float, depth: int, flag: int, move: int,
              free: bool, gen: int) -> None:  # fmt: skip
        slot = slot_of(s, ts.shape[0])
        for i in range(words):
            ts[slot, i] = s[i]
        ts[slot, words] = 1 | depth << 1 | flag << 17 | int(free) << 19 | move << 20 | gen << 40
        tv[slot] = value

    @njit(cache=False)
    def sort_by_history(order: Array, first: int, n: int, h: Array) -> None:
        """``order[first:n]`` by history, highest first; stable."""
        for i in range(first + 1, n):
            m = order[i]
            j = i
            while j > first and h[order[j - 1]] < h[m]:
                order[j] = order[j - 1]
                j -= 1
            order[j] = m

    @njit(cache=False)
    def stop(st: Array) -> bool:
        st[NODES] += 1
        if st[NODES] >= st[STOP_AT]:
            st[STOPPED] = 1
        return st[STOPPED] != 0

    @njit(cache=False)
    def leaf_value(s: Array, st: Array) -> float:
        """A horizon node (remaining depth 0): its value for its mover."""
        st[LEAVES] += 1
        n = moves(s, np.empty(move_limit, np.int64))
        if n == 0:
            v = utility(s)
        else:
            st[HORIZON] += 1
            v = evaluate(s)
        return -v if to_move(s) else v

    @njit(cache=False)
    def frontier(bs: Array, ms: Array, ply: int, alpha: float, beta: float,
                 st: Array, tops: Any, bottoms: Any) -> float:  # fmt: skip
        """Remaining depth 1: the children valued inline, in the rules' order."""
        s = bs[ply]
        player = to_move(s)
        top = tops[player]
        if alpha >= top:
            return top
        if beta <= bottoms[player]:
            return bottoms[player]
        if stop(st):
            return 0.0
        order = ms[ply]
        n = moves(s, order)
        if n == 0:
            st[LEAVES] += 1
            u = utility(s)
            return -u if player else u
        child = bs[ply + 1]
        scratch = ms[ply + 1]
        best = -np.inf
        estimated = 0
        valued = 0
        for i in range(n):
            valued += 1
            play(s, order[i], child)
            if moves(child, scratch) == 0:
                v = utility(child)
                sure = True
            else:
                estimated += 1
                v = evaluate(child)
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
        st[NODES] += valued  # the leaves, counted once per node as the Python search does
        st[LEAVES] += valued
        st[HORIZON] += estimated
        return best

    @njit(cache=False)
    def negamax(bs: Array, ms: Array, ply: int, depth: int, alpha: float, beta: float,  # noqa: C901
                ts: Array, tv: Any, hist: Array, st: Array, tops: Any,
                bottoms: Any) -> float:  # fmt: skip
        """Fail-soft alpha-beta value of ``bs[ply]`` for its mover, depth >= 2."""
        s = bs[ply]
        player = to_move(s)
        top = tops[player]
        if alpha >= top:
            return top
        if beta <= bottoms[player]:
            return bottoms[player]
        if stop(st):
            return 0.0
        slot = probe(ts, s)
        hint = -1
        if slot >= 0:
            info = ts[slot, words]
            stored = (info >> 1) & 0xFFFF
            free = (info >> 19) & 1
            if stored == depth or (free and stored <= depth):
                value = tv[slot]
                flag = (info >> 17) & 3
                if flag == EXACT or (value >= beta if flag == LOWER else value <= alpha):
                    st[HITS] += 1
                    if not free:
                        st[HORIZON] += 1
                    return value
            hint = (info >> 20) & 0xFFFFF
        order = ms[ply]
        n = moves(s, order)
        if n == 0:
            st[LEAVES] += 1
            u = utility(s)
            return -u if player else u
        horizon_before = st[HORIZON]
        h = hist[player]
        # The table's move first (the others sorted only if it does not cut off), else all
        # by history; the sort is stable, so ties keep the rules' order, as Python's does.
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
            if n > 1:
                sort_by_history(order, 0, n, h)
        nw = beta
        best = -np.inf
        best_move = order[0]
        alpha0 = alpha
        d1 = depth - 1
        child = bs[ply + 1]
        for i in range(n):
            if i == 1 and hint >= 0:  # the table's move did not cut off: the rest by history
                sort_by_history(order, 1, n, h)
            a = order[i]
            play(s, a, child)
            same = to_move(child) == player
            hz = st[HORIZON]
            if i == 0:  # the first child with the full window
                lo, hi = (alpha, beta) if same else (-beta, -alpha)
            else:  # the others with a null window above alpha, again if they beat it
                nw = np.nextafter(alpha, np.inf)
                if nw >= beta:
                    nw = beta
                lo, hi = (alpha, nw) if same else (-nw, -alpha)
            if d1 == 1:
                v = frontier(bs, ms, ply + 1, lo, hi, st, tops, bottoms)
            else:
                v = negamax(bs, ms, ply + 1, d1, lo, hi, ts, tv, hist, st, tops, bottoms)
            if not same:
                v = -v
            if i > 0 and alpha < v < beta and nw < beta and not st[STOPPED]:
                hz = st[HORIZON]  # the re-search alone decides
                lo, hi = (v, beta) if same else (-beta, -v)
                if d1 == 1:
                    v = frontier(bs, ms, ply + 1, lo, hi, st, tops, bottoms)
                else:
                    v = negamax(bs, ms, ply + 1, d1, lo, hi, ts, tv, hist, st, tops, bottoms)
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
        flag = UPPER if best <= alpha0 else (LOWER if best >= beta else EXACT)
        store(ts, tv, s, best, depth, flag, best_move, st[HORIZON] == horizon_before, st[GEN])
        return best

    @njit(cache=False)
    def child_search(bs: Array, ms: Array, ply: int, depth: int, alpha: float, beta: float,
                     ts: Array, tv: Any, hist: Array, st: Array, tops: Any,
                     bottoms: Any) -> float:  # fmt: skip
        """The value of ``bs[ply]`` for its mover to ``depth``, fail-soft (Python's
        ``child_value`` seen from the child)."""
        if depth <= 0:
            if stop(st):
                return 0.0
            return leaf_value(bs[ply], st)
        if depth == 1:
            return frontier(bs, ms, ply, alpha, beta, st, tops, bottoms)
        return negamax(bs, ms, ply, depth, alpha, beta, ts, tv, hist, st, tops, bottoms)

    @njit(cache=False)
    def child_value(child: Array, depth: int, alpha: float, beta: float, bs: Array, ms: Array,
                    ts: Array, tv: Any, hist: Array, st: Array, tops: Any,
                    bottoms: Any) -> float:  # fmt: skip
        for i in range(words):
            bs[0, i] = child[i]
        return child_search(bs, ms, 0, depth, alpha, beta, ts, tv, hist, st, tops, bottoms)

    @njit(cache=False)
    def table_move(ts: Array, s: Array) -> int:
        slot = probe(ts, s)
        if slot < 0:
            return -1
        return (ts[slot, words] >> 20) & 0xFFFFF

    _ = has_evaluate
    return child_value, table_move


def _warm(rules: CompiledRules, child_value: Any, table_move: Any) -> None:
    """Call the kernel once on a tiny table so numba compiles it now."""
    arrays = _Arrays(rules, 4)
    tops = np.array([math.inf, math.inf])
    bottoms = np.array([-math.inf, -math.inf])
    start = np.zeros(rules.words, np.int64)
    arrays.st[STOP_AT] = 1
    child_value(start, 2, -math.inf, math.inf, *arrays.parts(), tops, bottoms)
    table_move(arrays.table, start)


class _Arrays:
    """The kernel's memory for one search: stacks, table, history, counters."""

    def __init__(self, rules: CompiledRules, table_size: int) -> None:
        slots = 1 << max(2, table_size.bit_length() - 1)  # a power of two <= size (>= 4)
        rows = rules.max_plies + 3
        self.boards = np.zeros((rows, rules.words), np.int64)
        self.orders = np.zeros((rows, rules.move_limit), np.int64)
        self.table = np.zeros((slots, rules.words + 1), np.int64)
        self.values = np.zeros(slots, np.float64)
        self.history = np.zeros((2, rules.move_limit), np.int64)
        self.st = np.zeros(N_STATS, np.int64)

    def parts(self) -> tuple[Array, Array, Array, Any, Array, Array]:
        return self.boards, self.orders, self.table, self.values, self.history, self.st


class CompiledSearch:
    """The generic compiled node search of one search (a :class:`NodeSearch`)."""

    trace = None
    max_depth: float = math.inf

    def __init__(
        self,
        game: Game[Any, Any],
        rules: CompiledRules,
        request: SearchRequest,
        limits: Limits,
    ) -> None:
        self.game = game
        self.rules = rules
        self.limits = limits
        self.kernel, self.probe, self.compile_seconds = _kernels(rules)
        self.arrays = _Arrays(rules, request.table_size)
        best = outcomes(game, None)
        self.tops = np.array(best.best, np.float64)
        self.bottoms = np.array(best.worst, np.float64)
        self.has_evaluate = rules.evaluate is not None
        self.keyf = game.key if isinstance(game, HasKey) else None
        self.budget = KERNEL_CHECK_NODES
        self.memo_size = request.table_size

    @property
    def nodes(self) -> int:
        return int(self.arrays.st[NODES])

    @nodes.setter
    def nodes(self, value: int) -> None:
        self.arrays.st[NODES] = value

    @property
    def horizon(self) -> int:
        return int(self.arrays.st[HORIZON])

    def child_value(
        self, child: Any, cp: int, player: int, depth: float, alpha: Any, beta: Any
    ) -> Any:
        """The kernel's value of a child from the parent's view, resumed after each budget."""
        st = self.arrays.st
        arr = self.rules.encode(child)
        d = self.rules.max_plies + 1 if depth == END else int(depth)
        d = min(d, self.rules.max_plies + 1)
        lo, hi = (float(alpha), float(beta)) if cp == player else (-float(beta), -float(alpha))
        while True:
            stop = int(st[NODES]) + self.budget
            if self.limits.node_limit is not None:
                stop = min(stop, self.limits.node_limit)
            st[STOP_AT] = stop
            st[STOPPED] = 0
            horizon = int(st[HORIZON])
            nodes = int(st[NODES])
            began = time.perf_counter()
            v = float(self.kernel(arr, d, lo, hi, *self.arrays.parts(), self.tops, self.bottoms))
            spent = time.perf_counter() - began
            if not st[STOPPED]:
                v = v if cp == player else -v
                return int(v) if v.is_integer() and abs(v) < 2**53 else v
            st[HORIZON] = horizon  # the restart counts its own horizon (the table keeps the rest)
            if self.limits.reached(int(st[NODES])):
                raise SearchStopped
            rate = (int(st[NODES]) - nodes) / max(spent, 1e-4)
            self.budget = int(min(max(rate * 0.02, 4096), 1 << 20))

    def child_ge(self, child: Any, cp: int, player: int, depth: float, x: Any) -> bool:
        """Whether a child's value (the parent's view) is at least ``x``: a null window."""
        return bool(self.child_value(child, cp, player, depth, np.nextafter(x, -np.inf), x) >= x)

    def evaluate(self, state: Any) -> Any:
        return self.game.evaluate(state)  # type: ignore[attr-defined]

    def key(self, state: Any) -> Hashable:
        return state if self.keyf is None else self.keyf(state)

    def table_move(self, state: Any) -> Any:
        move = int(self.probe(self.arrays.table, self.rules.encode(state)))
        return None if move < 0 else move

    def new_iteration(self) -> None:
        self.arrays.st[GEN] += 1

    def stats(self) -> SearchStats:
        st = self.arrays.st
        return SearchStats(
            nodes=int(st[NODES]),
            leaves=int(st[LEAVES]),
            cutoffs=int(st[CUTOFFS]),
            table_hits=int(st[HITS]),
            seconds=self.limits.elapsed(),
        )


def compiled_search(
    game: Game[Any, Any], rules: CompiledRules | None, request: SearchRequest, limits: Limits
) -> CompiledSearch | None:
    """The generic compiled node search for ``game``'s ``rules`` (compiled once per process),
    or None when it cannot serve: no rules, numba missing or switched off
    (``GAMESOLVER_NATIVE=0``), or an oracle (the kernel cannot call Python)."""
    if rules is None or request.oracle is not None or not numba_available():
        return None
    return CompiledSearch(game, rules, request, limits)
