"""Ayòayò compiled with numba: the rules and the engine's search, 10-20 times the Python speed.

The kernels here restate :mod:`games.ayoayo.rules` (the readable reference) over numpy arrays
and the fast path of :mod:`solver.engine` (negamax alpha-beta, principal-variation search, a
transposition table with bound flags, table move then history ordering, frontier nodes valued
inline) in ``@njit(cache=True)`` functions. The tests hold both to the Python versions: the
legal moves and children of every ply of the reference's vectors, and values, optimal move
sets and legal principal variations on thousands of random positions.

What it assumes and guarantees:

* **Same rules.** A position is 15 ints as in :class:`~games.ayoayo.rules.AyoayoState`: the
  12 pits in sowing order, the two captured counts, the player to move. A sowing that never
  ends is found exactly (Brent's cycle detection over the triples (board, pit just emptied,
  captures so far) after each pick-up; the rules module keeps a set of them: the same test).
* **Same answers.** :func:`native_search` follows the engine's driver move for move: the same
  iterations, the same root windows (values are ints, so the float just below ``x`` becomes
  ``x - 1``), the same horizon counting for ``exact``, the same plies pass and principal
  variation. Its table is an array of 4-entry buckets (exact keys: the position packed into
  two 64-bit words, no hash collisions) rather than a dictionary; a bucket that overflows
  replaces its oldest, shallowest entry, so on large searches the tree (not the values) may
  differ from the Python engine's.
* **Limits.** The kernel stops after a node budget and returns to Python, which looks at the
  clock, the node limit and Ctrl-C (delivered there) and, if the search may go on, calls the
  kernel again: the table keeps every finished subtree, so the restart costs a walk down
  the interrupted line. Stopping returns the last completed depth, as the engine does.
* **Compilation.** The first use compiles the kernels (a few seconds, said once on stderr)
  and numba caches them on disk: beside this file when its folder is writable, else in the
  user cache directory (``$XDG_CACHE_HOME/gamesolver/numba`` or ``~/.cache/gamesolver/numba``;
  ``NUMBA_CACHE_DIR`` overrides both).
* **Start-up.** A later process loads two entry points from that cache at its first search
  (:func:`_child_value`, which holds the whole search, and :func:`_hint`), without readying
  numba's compiler or runtime (:class:`_CachedKernel`): the search kernels allocate nothing
  (scratch rows are passed in) and are compiled without numba's runtime. Importing numba
  itself is most of what is left. Importing this module raises ImportError without numba;
  :meth:`games.ayoayo.rules.Ayoayo.native_search` then answers None and the engine runs in
  pure Python, as it does with ``GAMESOLVER_NATIVE=0``.

>>> from games.ayoayo import Ayoayo
>>> game = Ayoayo()
>>> native_search(game, game.initial_state(), SearchRequest(depth=6)).value
-4
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from math import comb
from pathlib import Path
from typing import Any, Final, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt
from numba.core.runtime import nrt

from games.ayoayo.rules import WIN_THRESHOLD
from games.ayoayo.tablebase_index import board_count, unrank
from games.ayoayo.tablebase_moves import LevelMoves
from solver.results import SearchRequest, SearchResult, SearchStats, ply_preference

__all__ = [
    "KERNEL_CHECK_NODES",
    "MAX_DEPTH",
    "WIDTH",
    "board_array",
    "compiled",
    "is_terminal",
    "legal_mask",
    "level_moves",
    "native_search",
    "play",
]

Array = npt.NDArray[np.int64]
F = TypeVar("F", bound=Callable[..., Any])


def _cache_dir() -> None:
    """Point numba's cache at the user cache directory when this package's folder is read-only."""
    if os.environ.get("NUMBA_CACHE_DIR") or os.access(Path(__file__).parent, os.W_OK):
        return
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    setattr(numba.config, "CACHE_DIR", str(Path(base) / "gamesolver" / "numba"))  # noqa: B010


_cache_dir()


class _CompileNotice(numba.core.event.Listener):
    """Says once on stderr that the kernels are being compiled (not when loaded from cache)."""

    announced = False

    def on_start(self, event: Any) -> None:
        data = getattr(event, "data", None) or {}
        fn = getattr(data.get("dispatcher"), "py_func", None)
        if fn is not None and not fn.__module__.startswith(__name__):
            return  # someone else's numba function
        if not _CompileNotice.announced:
            _CompileNotice.announced = True
            print(
                "gamesolver: compiling the Ayòayò kernel (once; numba caches it on disk)...",
                file=sys.stderr,
                flush=True,
            )

    def on_end(self, event: Any) -> None:
        pass


numba.core.event.register("numba:compile", _CompileNotice())  # type: ignore[no-untyped-call]


class _CachedKernel(numba.core.caching.FunctionCache):
    """numba's on-disk cache for one kernel, loading without readying the compiler first.

    numba's own load refreshes its typing and lowering registries before reading a cached
    kernel (importing and installing every implementation it has: about 0.2 s, the largest
    share of a second process's start-up). Linking cached machine code needs at most numba's
    runtime (for kernels that allocate arrays: ``runtime``); the registries matter only to a
    compile, and numba's compiler refreshes them itself. Should this lighter load fail
    (numba's internals change), the regular one runs.
    """

    def __init__(self, py_func: Callable[..., Any], runtime: bool) -> None:
        super().__init__(py_func)  # type: ignore[no-untyped-call]
        self.runtime = runtime

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        try:
            if self.runtime:
                nrt.rtsys.initialize(target_context)
            with self._guard_against_spurious_io_errors():
                return self._load_overload(sig, target_context)  # type: ignore[no-untyped-call]
        except Exception:  # any failure: numba's regular path decides
            return super().load_overload(sig, target_context)  # type: ignore[no-untyped-call]


def _jit(fn: F) -> F:
    """``numba.njit(cache=True)`` without numba's runtime, typed for mypy as the identity.

    A kernel made so allocates nothing (callers pass scratch arrays in), so neither it nor
    its cached machine code needs numba's runtime (reference counts, allocation), whose
    initialisation costs a second process ~30 ms. Nothing is compiled or loaded at import: a
    kernel is, at its first call from Python, with the kernels it calls inside it (so
    :func:`_negamax` and the rules are never loaded on their own: only the entry points
    :func:`_child_value` and :func:`_hint` are, at the first search).
    """
    no_runtime = numba.njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # not in stubs
    return cast(F, _cached(no_runtime(fn), runtime=False))


def _jit_allocating(fn: F) -> F:
    """:func:`_jit` for a kernel that allocates arrays (with numba's runtime)."""
    return compiled(fn)


def compiled(fn: F, *, nogil: bool = False) -> F:
    """``numba.njit(cache=True)`` with the lighter cache load, for this package's kernels.

    ``nogil=True`` lets the kernel run on several threads at once (the tablebase builder's).
    Its first compile is said once on stderr, as this module's are.
    """
    return cast(F, _cached(numba.njit(cache=True, nogil=nogil)(fn), runtime=True))


def _cached(dispatcher: Any, runtime: bool) -> Any:
    """Give a ``cache=True`` dispatcher the lighter load of :class:`_CachedKernel`.

    Under ``NUMBA_DISABLE_JIT=1`` (numba's debugging switch) ``njit`` hands the Python
    function back, which runs as it is.
    """
    if isinstance(dispatcher, numba.core.dispatcher.Dispatcher):
        dispatcher._cache = _CachedKernel(dispatcher.py_func, runtime)  # type: ignore[attr-defined]
    return dispatcher


# ---- the rules ------------------------------------------------------------------------------

WIDTH: Final = 32
"""Ints in a kernel position: the 15 of ``AyoayoState``, then scratch for the sowing."""
LOOP_CHECK_AFTER: Final = 12
"""Pick-ups after which a sowing starts looking for a repeated triple (as the rules module)."""


@_jit
def _pit(p: int, cell: int) -> int:
    """The flat pit of the mover's cell (``q(0, c) = 5 - c``, ``q(1, c) = 6 + c``)."""
    return 5 - cell if p == 0 else 6 + cell


@_jit
def _row_empty(b: Array, p: int) -> bool:
    r = 6 * p
    return (
        b[r] == 0
        and b[r + 1] == 0
        and b[r + 2] == 0
        and b[r + 3] == 0
        and (b[r + 4] == 0 and b[r + 5] == 0)
    )


@_jit
def _sow(b: Array, p: int, o: int) -> bool:  # noqa: C901 (compiled hot loop, kept inline)
    """Relay-sow pit ``o`` for player ``p`` on ``b`` in place (pits 0..11, captures added to
    ``b[12]`` and ``b[13]``); False (``b`` part-sown) when the sowing never ends.

    ``b`` holds at least :data:`WIDTH` ints: ``b[16:31]`` is scratch for the loop check.
    """
    h = b[o]
    b[o] = 0
    pos = o
    c0 = 0
    c1 = 0
    pickups = 0
    snapped = False
    power = 1
    lam = 0
    while True:
        for _ in range(h):
            pos += 1
            if pos == 12:
                pos = 0
            n = b[pos]
            if n == 3:  # a four: the row's owner takes it (fixed below for the last seed)
                b[pos] = 0
                if pos < 6:
                    c0 += 4
                else:
                    c1 += 4
            else:
                b[pos] = n + 1
        h = b[pos]
        if h < 2:
            if h == 0:  # the last seed made a four: the mover takes it, whatever the row
                if pos < 6:
                    if p == 1:
                        c0 -= 4
                        c1 += 4
                elif p == 0:
                    c1 -= 4
                    c0 += 4
            b[12] += c0
            b[13] += c1
            return True
        b[pos] = 0  # relay: pick the whole pit up
        pickups += 1
        if pickups > LOOP_CHECK_AFTER:
            # Brent: compare with a snapshot (kept in b[16:31]) retaken at pick-ups 1, 2, 4,
            # 8, ... after the previous one.
            if not snapped:
                snapped = True
            else:
                same = b[28] == pos and b[29] == c0 and b[30] == c1
                i = 0
                while same and i < 12:
                    same = b[16 + i] == b[i]
                    i += 1
                if same:
                    return False
                lam += 1
                if lam != power:
                    continue
                power *= 2
                lam = 0
            for i in range(12):
                b[16 + i] = b[i]
            b[28] = pos
            b[29] = c0
            b[30] = c1


@_jit
def _can_feed(b: Array, q: int, trial: Array) -> bool:
    """Whether player ``q`` has a sowing that ends and leaves the opponent's row non-empty.

    ``trial`` (:data:`WIDTH` ints) is scratch for the trial sowings.
    """
    for cell in range(6):
        o = _pit(q, cell)
        if b[o]:
            for i in range(12):
                trial[i] = b[i]
            trial[12] = 0
            trial[13] = 0
            if _sow(trial, q, o) and not _row_empty(trial, 1 - q):
                return True
    return False


@_jit_allocating
def play(s: Array, cell: int, out: Array) -> bool:
    """Write the position after the mover sows ``cell`` into ``out``; False if illegal.

    Illegal: an empty pit, a sowing that never ends, or one that leaves an already empty
    opponent row empty (the feeding rule). As ``Ayoayo.try_result``, it does not look at the
    end by more than 24 captured: the callers do (no move is tried then).
    """
    return _play(s, cell, out, np.empty(WIDTH, np.int64))


@_jit
def _play(s: Array, cell: int, out: Array, trial: Array) -> bool:
    """:func:`play` with ``trial`` (:data:`WIDTH` ints) as scratch: the search allocates nothing."""
    p = s[14]
    o = _pit(p, cell)
    if s[o] == 0:
        return False
    for i in range(15):
        out[i] = s[i]
    if not _sow(out, p, o):
        return False
    q = 1 - p
    if _row_empty(out, q) and _row_empty(s, q):
        return False  # the opponent's row was empty and stays empty: not feeding
    out[14] = q
    if not _row_empty(out, p):
        return True
    # The mover's row is empty: the next player must feed it, or takes its own row.
    if not _row_empty(out, q) and not _can_feed(out, q, trial):
        r = 6 * q
        for i in range(r, r + 6):
            out[12 + q] += out[i]
            out[i] = 0
    return True


@_jit_allocating
def is_terminal(s: Array) -> bool:
    """Over when a player has more than 24 or the player to move has no legal move."""
    return _is_terminal(s, np.empty(WIDTH, np.int64))


@_jit
def _is_terminal(s: Array, trial: Array) -> bool:
    """:func:`is_terminal` with ``trial`` (:data:`WIDTH` ints) as scratch."""
    if s[12] > WIN_THRESHOLD or s[13] > WIN_THRESHOLD:
        return True
    p = s[14]
    if _row_empty(s, 1 - p):
        return not _can_feed(s, p, trial)
    r = 6 * p
    for o in range(r, r + 6):
        h = s[o]
        if 0 < h < 12:
            last = s[(o + h) % 12]
            if last == 0 or last == 3:
                return False  # the first lap ends the move
    for o in range(r, r + 6):
        if s[o]:
            for i in range(14):
                trial[i] = s[i]
            if _sow(trial, p, o):
                return False
    return True


@_jit_allocating
def legal_mask(s: Array) -> int:
    """The legal cells as bits (bit ``c`` for cell ``c``); 0 iff the game is over."""
    if s[12] > WIN_THRESHOLD or s[13] > WIN_THRESHOLD:
        return 0
    out = np.empty(WIDTH, np.int64)
    trial = np.empty(WIDTH, np.int64)
    mask = 0
    for cell in range(6):
        if _play(s, cell, out, trial):
            mask |= 1 << cell
    return mask


# ---- the search -----------------------------------------------------------------------------

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
NODES, LEAVES, CUTOFFS, HITS, HORIZON, STORES, OVERWRITES, STOP_AT, STOPPED, GEN = range(10)
N_STATS: Final = 10

EXACT, LOWER, UPPER = 0, 1, 2  # as solver.table
_OCCUPIED: Final = 1 << 40
_BUCKET: Final = 4


@_jit
def _key(s: Array) -> tuple[int, int]:
    """The position packed exactly into two words (6 bits a pit or count)."""
    k1 = 0
    for i in range(10):
        k1 |= s[i] << (6 * i)
    k2 = s[10] | (s[11] << 6) | (s[12] << 12) | (s[13] << 18) | (s[14] << 24) | _OCCUPIED
    return k1, k2


@_jit
def _slot0(k1: int, k2: int, mask: int) -> int:
    h = k1 * -7046029254386353131 + k2 * -4658895280553007687
    h ^= h >> 29
    return (h & mask) & ~(_BUCKET - 1)


@_jit
def _probe(tk: Array, k1: int, k2: int) -> int:
    """The table slot holding the position, or -1."""
    base = _slot0(k1, k2, tk.shape[0] - 1)
    for j in range(base, base + _BUCKET):
        if tk[j, 1] == k2 and tk[j, 0] == k1:
            return j
    return -1


@_jit
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


@_jit
def _hint(tk: Array, s: Array) -> int:
    """The stored best move of a position, or -1."""
    k1, k2 = _key(s)
    j = _probe(tk, k1, k2)
    return -1 if j < 0 else (tk[j, 2] >> 34) & 7


@_jit
def _stop(st: Array) -> bool:
    st[NODES] += 1
    if st[NODES] >= st[STOP_AT]:
        st[STOPPED] = 1
        return True
    return False


@_jit
def _frontier(bs: Array, ply: int, alpha: int, beta: int, st: Array, since: int) -> int:
    """Negamax at remaining depth 1: the children are horizon leaves, valued here (as the
    engine's ``frontier``: actions order, no table, no ordering).

    Only whether a horizon leaf was met matters (for ``exact`` and horizon-free entries), not
    how many: ``since`` is the horizon count when the parent began, and once the count is past
    it (the parent already depends on the horizon) no child is tested for the end. A child's
    value is the captured difference either way (the evaluation is the utility).
    """
    if _stop(st):
        return 0
    s = bs[ply]
    child = bs[ply + 1]
    trial = bs[SCRATCH]
    player = s[14]
    best = -BIG
    legal = 0
    estimated = 0
    if s[12] <= WIN_THRESHOLD and s[13] <= WIN_THRESHOLD:
        for a in range(6):
            if not _play(s, a, child, trial):
                continue
            legal += 1
            if estimated == 0 and st[HORIZON] == since and not _is_terminal(child, trial):
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


@_jit
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


@_jit
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
) -> int:
    """Fail-soft alpha-beta value of ``bs[ply]`` for its mover, depth >= 2 (the engine's)."""
    if _stop(st):
        return 0
    s = bs[ply]
    k1, k2 = _key(s)
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
        if _play(s, a, child, trial):
            legal += 1
            if legal == 1:
                if d1 == 1:
                    v = -_frontier(bs, ply + 1, -beta, -alpha, st, start_horizon)
                else:
                    v = -_negamax(bs, orders, ply + 1, d1, -beta, -alpha, tk, hist, st)
            else:
                nw = alpha + 1
                if nw > beta:
                    nw = beta
                if d1 == 1:
                    v = -_frontier(bs, ply + 1, -nw, -alpha, st, start_horizon)
                    if alpha < v < beta and nw < beta and not st[STOPPED]:
                        v = -_frontier(bs, ply + 1, -beta, -v, st, start_horizon)
                else:
                    v = -_negamax(bs, orders, ply + 1, d1, -nw, -alpha, tk, hist, st)
                    if alpha < v < beta and nw < beta and not st[STOPPED]:
                        v = -_negamax(bs, orders, ply + 1, d1, -beta, -v, tk, hist, st)
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


@_jit
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
) -> int:
    """A child's fail-soft value from its parent's view (the parent is the other player)."""
    for i in range(15):
        bs[0, i] = child[i]
    if depth <= 0:
        if _stop(st):
            return 0
        st[LEAVES] += 1
        if not _is_terminal(child, bs[SCRATCH]):
            st[HORIZON] += 1
        v = child[12] - child[13]
        return v if child[14] else -v  # the parent's view: the parent is 1 - child[14]
    if depth == 1:
        return -_frontier(bs, ROOT_PLY, -beta, -alpha, st, st[HORIZON])
    return -_negamax(bs, orders, ROOT_PLY, depth, -beta, -alpha, tk, hist, st)


# ---- the driver: the engine's iterations, plies pass and principal variation ----------------


class _Stop(Exception):
    """A time or node limit was reached."""


class _Search:
    """One native search: the kernel's arrays, the limits, and the engine's driver over them."""

    def __init__(
        self,
        game: Any,
        time_limit: float | None,
        node_limit: int | None,
        table_size: int,
        all_values: bool,
    ) -> None:
        self.game = game
        self.all_values = all_values
        self.start = time.perf_counter()
        self.deadline = None if time_limit is None else self.start + time_limit
        self.node_limit = node_limit
        slots = 1 << max(2, table_size.bit_length() - 1)  # a power of two <= size (>= 4)
        self.table = np.zeros((slots, 3), np.int64)
        self.boards = np.zeros((SCRATCH + 1, WIDTH), np.int64)
        self.orders = np.zeros((MAX_DEPTH + 2, 12), np.int64)
        self.history = np.zeros((2, 6), np.int64)
        self.st = np.zeros(N_STATS, np.int64)
        self.budget = KERNEL_CHECK_NODES
        self.plies_memo: dict[Any, tuple[int, Any, int]] = {}
        self.memo_size = table_size
        self._arm()

    def _arm(self) -> None:
        """Set the kernel's next stop: after a budget of nodes, or at the node limit."""
        st = self.st
        stop = int(st[NODES]) + self.budget
        if self.node_limit is not None:
            stop = min(stop, self.node_limit)
        st[STOP_AT] = stop
        st[STOPPED] = 0

    def child_value(self, child: Sequence[int], depth: int, alpha: int, beta: int) -> int:
        """The kernel's value of a child (parent's view), resumed after each node budget."""
        st = self.st
        arr = board_array(child)
        while True:
            horizon = int(st[HORIZON])
            nodes = int(st[NODES])
            began = time.perf_counter()
            v = int(
                _child_value(
                    arr,
                    depth,
                    alpha,
                    beta,
                    self.boards,
                    self.orders,
                    self.table,
                    self.history,
                    st,
                )
            )
            if not st[STOPPED]:
                return v
            # Interrupted: the restart counts its own horizon (the table keeps the rest).
            st[HORIZON] = horizon
            now = time.perf_counter()
            if self.node_limit is not None and st[NODES] >= self.node_limit:
                raise _Stop
            if self.deadline is not None and now >= self.deadline:
                raise _Stop
            # Aim at ~20 ms between two looks at the clock (and at a pending Ctrl-C).
            rate = (int(st[NODES]) - nodes) / max(now - began, 1e-4)
            self.budget = int(min(max(rate * 0.02, 4096), 1 << 20))
            self._arm()

    def child_ge(self, child: Sequence[int], depth: int, x: int) -> bool:
        """Whether a child's value (parent's view) is at least ``x``: a null window."""
        return self.child_value(child, depth, x - 1, x) >= x

    def hint(self, state: Sequence[int]) -> int:
        return int(_hint(self.table, board_array(state)))

    def ordered(self, state: Any, acts: Sequence[int]) -> list[int]:
        """``acts`` with the table's move first."""
        order = list(acts)
        hint = self.hint(state)
        if hint in acts and order[0] != hint:
            order.remove(hint)
            order.insert(0, hint)
        return order

    def iterate(
        self, root: Any, acts: Sequence[int], depth: int, previous: dict[int, int], prev_best: Any
    ) -> tuple[int, list[int], dict[int, int], dict[int, int], bool]:
        """Search the root to ``depth`` (the engine's ``iterate``; values the root player's)."""
        game = self.game
        st = self.st
        st[GEN] += 1
        horizon0 = int(st[HORIZON])
        st[NODES] += 1
        position = {a: i for i, a in enumerate(acts)}
        order = sorted(acts, key=lambda a: (a != prev_best, -previous.get(a, -BIG), position[a]))
        values: dict[int, int] = {}
        bounds: dict[int, int] = {}
        best = -BIG
        best_set: list[int] = []
        d1 = depth - 1
        for a in order:
            child = game.result(root, a)
            if not best_set:
                best = values[a] = self.child_value(child, d1, -BIG, BIG)
                best_set = [a]
                continue
            lo, hi = best - 1, best + 1
            f = self.child_value(child, d1, lo, hi)
            if f >= hi:  # it failed high: find the exact value
                f = self.child_value(child, d1, best, BIG)
            if f > best:
                values[a] = best = f
                best_set = [a]
            elif f == best:
                values[a] = best
                best_set.append(a)
            elif self.all_values:
                values[a] = self.child_value(child, d1, -BIG, best)
            else:
                bounds[a] = f
        best_set.sort(key=position.__getitem__)
        return best, best_set, values, bounds, int(st[HORIZON]) == horizon0

    def plies(self, state: Any, depth: int, x: int) -> tuple[int, Any] | None:
        """Plies to the end under preferred value-keeping play (the engine's ``plies``)."""
        game = self.game
        acts = game.actions(state)
        if not acts:
            return (0, None)
        if depth <= 0:
            return None
        memo = self.plies_memo.get(state)
        if memo is not None and memo[2] <= depth:
            return memo[0], memo[1]
        best: tuple[int, Any] | None = None
        for a in self.ordered(state, acts):
            child = game.result(state, a)
            before = int(self.st[HORIZON])
            keeps = self.child_ge(child, depth - 1, x)
            if int(self.st[HORIZON]) != before:
                return None
            if not keeps:
                continue
            sub = self.plies(child, depth - 1, -x)
            if sub is None:
                return None
            n = 1 + sub[0]
            if best is None or ply_preference(x, n) < ply_preference(x, best[0]):
                best = (n, a)
        assert best is not None, "a value-keeping move must exist"
        if len(self.plies_memo) >= self.memo_size:
            self.plies_memo.clear()
        self.plies_memo[state] = (best[0], best[1], depth)
        return best

    def ply_line(self, state: Any, depth: int, x: int) -> tuple[int, ...]:
        line: list[int] = []
        while True:
            step = self.plies(state, depth, x)
            if step is None or step[1] is None:
                return tuple(line)
            line.append(step[1])
            state = self.game.result(state, step[1])
            x = -x
            depth -= 1

    def proved_line(self, state: Any, depth: int, x: int) -> tuple[int, ...]:
        line: list[int] = []
        game = self.game
        while depth > 0:
            acts = game.actions(state)
            if not acts:
                break
            for a in self.ordered(state, acts):
                child = game.result(state, a)
                if self.child_ge(child, depth - 1, x):
                    line.append(a)
                    state = child
                    x = -x
                    break
            else:  # pragma: no cover - the value is exact, so some move keeps it
                break
            depth -= 1
        return tuple(line)

    def one_depth(
        self,
        root: Any,
        acts: Sequence[int],
        depth: int,
        previous: dict[int, int],
        prev_best: Any,
        seed: int | None,
        want_plies: bool,
    ) -> tuple[SearchResult, dict[int, int]]:
        """One iteration with its plies, choice and PV (the engine's ``one_depth``)."""
        game = self.game
        player = root[14]
        best, best_set, values, bounds, exact = self.iterate(root, acts, depth, previous, prev_best)
        action_plies: dict[int, int | None] = {}
        if exact and want_plies:
            for a in acts:
                if a in values:
                    sub = self.plies(game.result(root, a), depth - 1, -values[a])
                    action_plies[a] = None if sub is None else 1 + sub[0]
        candidates = best_set
        known = exact and all(action_plies.get(a) is not None for a in best_set)
        if known:
            preference = {a: ply_preference(best, action_plies[a]) for a in best_set}  # type: ignore[arg-type]
            top = min(preference.values())
            candidates = [a for a in best_set if preference[a] == top]
        chosen = candidates[0] if seed is None else random.Random(seed).choice(candidates)
        child = game.result(root, chosen)
        if known:
            pv = (chosen, *self.ply_line(child, depth - 1, -best))
        else:
            pv = (chosen, *self.proved_line(child, depth - 1, -best))
        sign = -1 if player else 1
        result = self.answer(
            sign * best,
            chosen,
            pv,
            {a: sign * values[a] for a in acts if a in values},
            tuple(best_set),
            depth,
            action_plies[chosen] if known else None,
            {a: p for a in acts if (p := action_plies.get(a)) is not None},
            exact=exact,
            complete=True,
        )
        ordering = dict(bounds)
        ordering.update(values)
        return result, ordering

    def run(
        self,
        root: Any,
        depth: int | None,
        seed: int | None,
        on_depth: Callable[[SearchResult], None] | None,
        want_plies: bool,
    ) -> SearchResult:
        """Iterative deepening from ``root`` (the engine's ``run``, with an evaluation)."""
        game = self.game
        acts = tuple(game.actions(root))
        if not acts:
            u = root[12] - root[13]
            return self.answer(u, None, (), {}, (), depth, 0, {}, exact=True, complete=True)
        if depth == 0:
            v = root[12] - root[13]
            return self.answer(v, None, (), {}, (), 0, None, {}, exact=False, complete=True)
        last: SearchResult | None = None
        previous: dict[int, int] = {}
        previous_best: Any = None
        complete = False
        d = 0
        try:
            while True:
                d += 1
                if depth is not None and d > depth:
                    complete = True
                    break
                if d > MAX_DEPTH:
                    break
                if last is not None and self.out_of_time():
                    break
                last, previous = self.one_depth(
                    root, acts, d, previous, previous_best, seed, want_plies
                )
                previous_best = last.best_action
                if on_depth is not None:
                    on_depth(last)
                if last.exact and (last.plies is not None or not want_plies):
                    complete = True
                    break
        except (_Stop, KeyboardInterrupt):
            pass
        if last is None:
            v = root[12] - root[13]
            return self.answer(
                v, acts[0], (acts[0],), {}, (), 0, None, {}, exact=False, complete=False
            )
        if complete:
            return last
        return SearchResult(
            value=last.value,
            best_action=last.best_action,
            pv=last.pv,
            action_values=last.action_values,
            stats=self.stats(),
            best_actions=last.best_actions,
            depth=last.depth,
            plies=last.plies,
            action_plies=last.action_plies,
            exact=last.exact,
            complete=False,
        )

    def out_of_time(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def stats(self) -> SearchStats:
        st = self.st
        return SearchStats(
            nodes=int(st[NODES]),
            leaves=int(st[LEAVES]),
            cutoffs=int(st[CUTOFFS]),
            table_hits=int(st[HITS]),
            seconds=time.perf_counter() - self.start,
        )

    def answer(
        self,
        value: int,
        best_action: Any,
        pv: tuple[int, ...],
        action_values: dict[int, int],
        best_actions: tuple[int, ...],
        depth: int | None,
        plies: int | None,
        action_plies: dict[int, int],
        *,
        exact: bool,
        complete: bool,
    ) -> SearchResult:
        return SearchResult(
            value=value,
            best_action=best_action,
            pv=pv,
            action_values=action_values,
            stats=self.stats(),
            best_actions=best_actions,
            depth=depth,
            plies=plies,
            action_plies=action_plies,
            exact=exact,
            complete=complete,
        )


def native_search(game: Any, state: Any, request: SearchRequest) -> SearchResult | None:
    """:func:`solver.engine.search` on Ayòayò with the game's own evaluation, compiled.

    ``request`` holds the engine's options, meaning what they mean there. Returns None for a
    call the kernel does not serve: an oracle (tablebase probes stay in Python), ``depth=None``
    with nothing to stop the search (the engine's one search to the end), or a depth beyond
    :data:`MAX_DEPTH`.

    >>> from games.ayoayo import Ayoayo
    >>> game = Ayoayo()
    >>> result = native_search(game, game.initial_state(), SearchRequest(depth=4))
    >>> result.value, result.best_actions, result.pv, result.exact
    (-4, (5,), (5, 1, 2, 0), False)
    """
    r = request
    if r.oracle is not None:
        return None
    if r.depth is None and r.time_limit is None and r.node_limit is None and r.on_depth is None:
        return None
    if r.depth is not None and r.depth > MAX_DEPTH:
        return None
    engine = _Search(game, r.time_limit, r.node_limit, r.table_size, r.all_values)
    return engine.run(state, r.depth, r.seed, r.on_depth, r.plies)


def board_array(state: Sequence[int]) -> Array:
    """A position (15 ints, as ``AyoayoState``) as the kernels' int64 array (:data:`WIDTH`)."""
    b = np.zeros(WIDTH, np.int64)
    b[:15] = state
    return b


# ---- tablebase levels: the moves of every board (games.ayoayo.tablebase_moves's contract) ----

_STARS_AND_BARS: Final = np.array(
    [[comb(m + j, j) for m in range(49)] for j in range(13)], dtype=np.int64
)
"""``[j][m]`` = C(m + j, j): boards of m seeds in j + 1 pits (as tablebase_index)."""


@_jit
def _advance(board: Array) -> None:
    """Step a 12-pit board to the next of as many seeds in lexicographic order (in place)."""
    if board[11]:
        board[11] -= 1
        board[10] += 1
        return
    j = 10
    while j > 0 and board[j] == 0:
        j -= 1
    if j == 0:
        return
    board[j - 1] += 1
    board[11] = board[j] - 1
    board[j] = 0


@_jit_allocating
def _level_moves(
    first: Array, count: int, table: Array, child: Array, gain_mover: Array, gain_opponent: Array
) -> None:
    """Fill the moves of ``count`` boards from ``first`` on (mover's view: player 0 moves)."""
    board = first.copy()
    state = np.zeros(WIDTH, np.int64)
    out = np.zeros(WIDTH, np.int64)
    trial = np.empty(WIDTH, np.int64)
    for i in range(count):
        if i:
            _advance(board)
        for p in range(12):
            state[p] = board[p]
        for c in range(6):
            child[i, c] = -1
            if board[5 - c] == 0 or not _play(state, c, out, trial):
                continue
            gm = out[12]
            go = out[13]
            # the next mover is the opponent: its view starts with pits 6..11
            r = 0
            remaining = 0
            for p in range(12):
                remaining += out[p]
            for k in range(11):
                b = out[(k + 6) % 12]
                if b:
                    r += table[11 - k, remaining] - table[11 - k, remaining - b]
                    remaining -= b
            child[i, c] = r
            gain_mover[i, c] = gm
            gain_opponent[i, c] = go


def level_moves(seeds: int, start: int = 0, stop: int | None = None) -> LevelMoves:
    """:func:`games.ayoayo.tablebase_moves.level_moves`, compiled: the same arrays, faster.

    >>> from games.ayoayo import tablebase_moves
    >>> fast, pure = level_moves(4), tablebase_moves.level_moves(4)
    >>> bool((fast.child == pure.child).all() and (fast.gain_mover == pure.gain_mover).all())
    True
    """
    total = board_count(seeds)
    stop = total if stop is None else stop
    count = max(stop - start, 0)
    child = np.full((count, 6), -1, dtype=np.int64)
    gains = np.zeros((2, count, 6), dtype=np.int64)
    if count:
        first = np.array(unrank(seeds, start), dtype=np.int64)
        _level_moves(first, count, _STARS_AND_BARS, child, gains[0], gains[1])
    return LevelMoves(
        seeds, start, stop, child, gains[0].astype(np.uint8), gains[1].astype(np.uint8)
    )
