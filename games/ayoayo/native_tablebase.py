"""Tablebase levels compiled with numba: the exits of each block of moves and the level's solve.

The pure builder (:mod:`games.ayoayo.tablebase_build`) values the moves that leave a level with
numpy and hands each group of splits to :func:`solver.retrograde.solve_graph`, which decides
one threshold at a time over the whole graph and keeps its arrays per move in int64. That is
general and readable; for levels of 16 and 20 seeds (13 and 85 million boards) it is slow and
needs tens of gigabytes. This module does the same work over the tablebase's own structure:

* **One move table per level.** A board's moves are the same in every split, so the moves that
  stay in the level are kept once, as ``stay[board, cell]`` (the child's rank, int32, ``-1``
  for a move that captures or is illegal), with the reversed moves in CSR form (``int32``).
  A group of one or two mirrored splits is a graph over ``(copy, board)`` whose edges are
  implied: in a group of two a move crosses to the other split, in a group of one it stays.
* **Values in one pass.** Relative to endless play (each position's value minus its mover's
  ``cm - co``, as the pure builder hands them over) endless play scores 0, so for ``s > 0``
  the positions whose mover forces ``>= s`` (``W_s``) and those whose mover gets ``<= -s``
  (``L_s``) both *grow* as ``s`` falls. One sweep from the largest exit value down to 1 keeps a
  counter per position (its moves not yet known to lead into ``W``, plus one for its best exit
  until that is ``<= -s``): a position joins ``W_s`` through an exit ``>= s`` or a move into
  ``L_s``, and ``L_s`` when its counter reaches 0. Each position joins once, so the sweep is
  linear in the moves; what never joins is worth 0 (endless play or the end of the game).
  The values are the game's values, so they equal the threshold solver's.
* **Plies** as :meth:`solver.retrograde._Graph.plies` counts them (a winner the quickest
  value-keeping end, a loser or drawer the slowest; draws that could circle take the quickest
  end in a second pass): there every scheduled ply is one more than the ply being settled,
  so rounds of increasing plies are a breadth-first queue here, and the second pass a merge of
  the settled nodes (sorted by ply) with a queue. The results, and so the files, are equal
  byte for byte (the tests build levels both ways).

The kernels release the GIL, so the groups of a level are solved on threads at once, and they
look at a stop flag every few thousand positions, so Ctrl-C ends a build within a second.

>>> import tempfile
>>> from games.ayoayo.tablebase_build import build
>>> from games.ayoayo.tablebase_files import DISTANCES, VALUES, level_path
>>> with tempfile.TemporaryDirectory() as fast, tempfile.TemporaryDirectory() as pure:
...     _ = build(4, fast, kernel=KERNEL), build(4, pure)  # compiled, then pure
...     [level_path(fast, 4, kind).read_bytes() == level_path(pure, 4, kind).read_bytes()
...      for kind in (VALUES, DISTANCES)]
[True, True]
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any, Final, TypeVar

import numpy as np
import numpy.typing as npt

from games.ayoayo.board import STARS_AND_BARS, TOTAL_SEEDS, WIN_THRESHOLD
from games.ayoayo.native_jit import compiled, kernel, warm_up
from games.ayoayo.native_rules import WIDTH, play_with
from games.ayoayo.tablebase_build import NO_EXIT, LevelKernel, build, endless_values
from games.ayoayo.tablebase_files import NO_DISTANCE
from games.ayoayo.tablebase_index import advance, board_count, splits, unrank
from games.ayoayo.tablebase_moves import LevelMoves

__all__ = ["KERNEL", "LevelGraph", "gather", "level_moves", "solve", "view_rank"]

Array = npt.NDArray[np.int64]
F = TypeVar("F", bound=Callable[..., Any])

_NO_EXIT_REL: Final = 1 << 14
"""A relative exit value no exit has (exits are within +-96)."""
_STOP_EVERY: Final = 1 << 16
"""Positions between two looks at the stop flag."""


def _jit(fn: F) -> F:
    """A kernel that releases the GIL (:func:`games.ayoayo.native_jit.compiled`)."""
    return compiled(fn, nogil=True)


# ---- the moves of a block: what stays in the level, and the best exit per split --------------


@_jit
def _absorb(
    seeds: int,
    start: int,
    child: Any,
    gain_mover: Any,
    gain_opponent: Any,
    cms: Any,
    lower: Any,
    lower_offset: Any,
    lower_boards: Any,
    lower_first: Any,
    stay: Any,
    best_exit: Any,
) -> None:
    rest = TOTAL_SEEDS - seeds
    for i in range(child.shape[0]):
        row = start + i
        for c in range(6):
            x = child[i, c]
            stay[row, c] = -1
            if x < 0:
                continue
            gm = np.int64(gain_mover[i, c])
            go = np.int64(gain_opponent[i, c])
            if gm == 0 and go == 0:
                stay[row, c] = x
                continue
            left = seeds - gm - go
            for s in range(cms.shape[0]):
                mover = cms[s] + gm
                opponent = rest - cms[s] + go
                value = mover - opponent  # the final score where the game is over
                if left > 0 and mover <= WIN_THRESHOLD and opponent <= WIN_THRESHOLD:
                    split = (opponent - lower_first[left]) // 4  # the opponent moves next
                    at = lower_offset[left] + split * lower_boards[left] + x
                    value = -np.int64(lower[at])
                if value > best_exit[s, row]:
                    best_exit[s, row] = value


def gather(
    seeds: int,
    lower: Mapping[int, npt.NDArray[np.int8]],
    parts: Iterable[LevelMoves],
    stay: npt.NDArray[np.int32],
    best_exit: npt.NDArray[np.int8],
) -> None:
    """:func:`games.ayoayo.tablebase_build.gather`, compiled: the same arrays.

    Raises:
        KeyError: a lower level that a capture reaches is missing from ``lower``.
    """
    cms = np.array(splits(seeds), dtype=np.int64)
    below = LowerLevels(seeds, lower)
    for part in parts:
        _absorb(
            seeds,
            part.start,
            part.child,
            part.gain_mover,
            part.gain_opponent,
            cms,
            below.flat,
            below.offset,
            below.boards,
            below.first,
            stay,
            best_exit,
        )


class LowerLevels:
    """The values of the levels below, in one flat array numba can index (a level's offset)."""

    def __init__(self, seeds: int, lower: Mapping[int, npt.NDArray[np.int8]]) -> None:
        needed = list(range(4, seeds, 4))
        missing = [n for n in needed if n not in lower]
        if missing:
            raise KeyError(f"level {seeds} needs the levels below it; missing {missing!r}")
        self.offset = np.full(TOTAL_SEEDS + 1, -1, dtype=np.int64)
        self.boards = np.zeros(TOTAL_SEEDS + 1, dtype=np.int64)
        self.first = np.zeros(TOTAL_SEEDS + 1, dtype=np.int64)  # the mover's captured of split 0
        parts = []
        at = 0
        for n in needed:
            values = np.ascontiguousarray(lower[n]).reshape(-1)
            self.offset[n] = at
            self.boards[n] = board_count(n)
            self.first[n] = splits(n)[0]
            parts.append(values)
            at += values.size
        self.flat = np.concatenate(parts) if parts else np.zeros(1, dtype=np.int8)


# ---- the moves of every board of a level (games.ayoayo.tablebase_moves's contract) ----------

_SB: Final = np.array(STARS_AND_BARS, dtype=np.int64).reshape(-1)
""":data:`games.ayoayo.board.STARS_AND_BARS` flattened, row ``j`` at ``j * _SB_ROW``."""
_SB_ROW: Final = TOTAL_SEEDS + 1

_advance = kernel(advance)
""":func:`games.ayoayo.tablebase_index.advance`, the same source compiled."""


@kernel
def view_rank(pits: Array, first: int, seeds: int) -> int:
    """:func:`games.ayoayo.tablebase_index.rank` of the 12 pits read from ``pits[first]`` on
    (wrapping round: ``first`` 6 is player 1's view), which hold ``seeds`` seeds.

    Branch-free: an empty pit adds ``C(m, j) - C(m, j) = 0``.
    """
    q = first
    remaining = seeds
    r = 0
    for i in range(11):
        b = pits[q]
        row = (11 - i) * _SB_ROW
        r += _SB[row + remaining] - _SB[row + remaining - b]
        remaining -= b
        q = q + 1 if q < 11 else 0
    return r


@compiled
def _level_moves(
    first: Array, count: int, child: Array, gain_mover: Array, gain_opponent: Array
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
            if board[5 - c] == 0 or not play_with(state, c, out, trial):
                continue
            gm = out[12]
            go = out[13]
            remaining = 0
            for p in range(12):
                remaining += out[p]
            child[i, c] = view_rank(out, 6, remaining)  # the next mover's view: pits 6..11 first
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
        _level_moves(first, count, child, gains[0], gains[1])
    return LevelMoves(
        seeds, start, stop, child, gains[0].astype(np.uint8), gains[1].astype(np.uint8)
    )


# ---- the level's graph: stay moves and their reverse -------------------------------------------


@_jit
def _reverse(stay: Any, ptr: Any, src: Any, stop: Any) -> bool:
    boards = stay.shape[0]
    for b in range(boards):
        if b % _STOP_EVERY == 0 and stop[0]:
            return False
        for c in range(6):
            x = stay[b, c]
            if x >= 0:
                ptr[x + 1] += 1
    for b in range(boards):
        ptr[b + 1] += ptr[b]
    fill = ptr[:-1].copy()
    for b in range(boards):
        if b % _STOP_EVERY == 0 and stop[0]:
            return False
        for c in range(6):
            x = stay[b, c]
            if x >= 0:
                src[fill[x]] = b
                fill[x] += 1
    return True


class LevelGraph:
    """A level's moves that stay in it (``stay``) and the same reversed (``ptr``, ``src``)."""

    def __init__(self, stay: npt.NDArray[np.int32], stop: npt.NDArray[np.int64]) -> None:
        self.stay = stay
        self.ptr = np.zeros(stay.shape[0] + 1, dtype=np.int64)
        self.src = np.zeros(int(np.count_nonzero(stay >= 0)), dtype=np.int32)
        self.whole = _reverse(stay, self.ptr, self.src, stop)


# ---- solving a group of one or two mirrored splits ------------------------------------------


@_jit
def _linked_copy(u: int, boards: int, copies: int) -> int:
    """The first node of the copy that the moves of node ``u`` lead to (and come from): in a
    group of two splits a move crosses to the other split, in a group of one it stays."""
    return 0 if copies == 1 else (1 - u // boards) * boards


@_jit
def _values(  # noqa: C901 (compiled hot loop, kept inline)
    stay: Any, ptr: Any, src: Any, rel: Any, copies: int, value: Any, stop: Any
) -> bool:
    """Values relative to endless play (see the module notes); False if stopped."""
    boards = stay.shape[0]
    n = copies * boards
    count = np.zeros(n, dtype=np.uint8)  # a value of 0 is undecided: W_s gives s, L_s gives -s
    top = 0
    for u in range(n):
        if u % _STOP_EVERY == 0 and stop[0]:
            return False
        b = u % boards
        d = 0
        for c in range(6):
            if stay[b, c] >= 0:
                d += 1
        if rel[u] != _NO_EXIT_REL:
            d += 1
            a = abs(np.int64(rel[u]))
            if a > top:
                top = a
        count[u] = d
        value[u] = 0
    # the positions with an exit, by exit value (counting sort), for the sweep's seeds
    first = np.zeros(2 * top + 2, dtype=np.int64)
    for u in range(n):
        if u % _STOP_EVERY == 0 and stop[0]:
            return False
        if rel[u] != _NO_EXIT_REL:
            first[rel[u] + top + 1] += 1
    for k in range(2 * top + 1):
        first[k + 1] += first[k]
    by_exit = np.empty(first[2 * top + 1], dtype=np.int32)
    fill = first.copy()
    for u in range(n):
        if u % _STOP_EVERY == 0 and stop[0]:
            return False
        if rel[u] != _NO_EXIT_REL:
            by_exit[fill[rel[u] + top]] = u
            fill[rel[u] + top] += 1
    queue = np.empty(n, dtype=np.int32)
    head = 0
    tail = 0
    work = 0
    for s in range(top, 0, -1):
        for k in range(first[s + top], first[s + top + 1]):  # best exit == s: into W_s
            u = by_exit[k]
            if value[u] == 0:
                value[u] = s
                queue[tail] = u
                tail += 1
        for k in range(first[top - s], first[top - s + 1]):  # best exit == -s: now <= -s
            u = by_exit[k]
            if value[u] == 0:
                count[u] -= 1
                if count[u] == 0:
                    value[u] = -s
                    queue[tail] = u
                    tail += 1
        while head < tail:
            x = queue[head]
            head += 1
            work += 1
            if work % _STOP_EVERY == 0 and stop[0]:
                return False
            base = _linked_copy(x, boards, copies)
            bx = x % boards
            for j in range(ptr[bx], ptr[bx + 1]):
                y = base + src[j]
                if value[y] != 0:
                    continue
                if value[x] < 0:  # x in L_s: y moves there and forces s
                    value[y] = s
                    queue[tail] = y
                    tail += 1
                else:
                    count[y] -= 1
                    if count[y] == 0:
                        value[y] = -s
                        queue[tail] = y
                        tail += 1
    return True


@_jit
def _plies(  # noqa: C901 (compiled hot loop, kept inline)
    stay: Any, ptr: Any, src: Any, rel: Any, copies: int, value: Any, plies: Any, stop: Any
) -> bool:
    """Plies to leaving the level as the pure solver counts them; False if stopped."""
    boards = stay.shape[0]
    n = copies * boards
    pending = np.zeros(n, dtype=np.uint8)
    terminal = np.zeros(n, dtype=np.bool_)
    for u in range(n):
        if u % _STOP_EVERY == 0 and stop[0]:
            return False
        b = u % boards
        to = _linked_copy(u, boards, copies)
        d = 0
        keep = 0
        for c in range(6):
            x = stay[b, c]
            if x >= 0:
                d += 1
                if value[to + x] == -value[u]:
                    keep += 1
        pending[u] = keep
        terminal[u] = d == 0 and rel[u] == _NO_EXIT_REL
        plies[u] = -1
    queue = np.empty(n, dtype=np.int32)
    tail = 0
    for u in range(n):
        if u % _STOP_EVERY == 0 and stop[0]:
            return False
        if terminal[u]:
            plies[u] = 0
            queue[tail] = u
            tail += 1
    for u in range(n):
        if u % _STOP_EVERY == 0 and stop[0]:
            return False  # a value-keeping exit: winners, and the others with nothing else
        if rel[u] == value[u] and (value[u] > 0 or pending[u] == 0):
            plies[u] = 1
            queue[tail] = u
            tail += 1
    head = 0
    work = 0
    while head < tail:
        x = queue[head]
        head += 1
        work += 1
        if work % _STOP_EVERY == 0 and stop[0]:
            return False
        p = plies[x]
        base = _linked_copy(x, boards, copies)
        bx = x % boards
        for j in range(ptr[bx], ptr[bx + 1]):
            y = base + src[j]
            if plies[y] != -1 or value[y] != -value[x]:
                continue
            if value[y] > 0:
                plies[y] = p + 1
                queue[tail] = y
                tail += 1
            else:
                pending[y] -= 1
                if pending[y] == 0:
                    plies[y] = p + 1
                    queue[tail] = y
                    tail += 1
    return _open_draws(stay, ptr, src, rel, copies, value, plies, queue, stop)


@_jit
def _open_draws(  # noqa: C901 (compiled hot loop, kept inline)
    stay: Any,
    ptr: Any,
    src: Any,
    rel: Any,
    copies: int,
    value: Any,
    plies: Any,
    queue: Any,
    stop: Any,
) -> bool:
    """The second pass: draws left open take the quickest value-keeping end."""
    boards = stay.shape[0]
    n = copies * boards
    top = 0
    opened = 0
    for u in range(n):
        if u % _STOP_EVERY == 0 and stop[0]:
            return False
        if plies[u] > top:
            top = plies[u]
        if plies[u] == -1 and value[u] == 0:
            opened += 1
    if opened == 0:
        return True
    # the settled draws, by ply (only value-0 nodes keep a draw's value)
    first = np.zeros(top + 2, dtype=np.int64)
    for u in range(n):
        if u % _STOP_EVERY == 0 and stop[0]:
            return False
        if value[u] == 0 and plies[u] >= 0:
            first[plies[u] + 1] += 1
    for k in range(top + 1):
        first[k + 1] += first[k]
    settled = np.empty(first[top + 1], dtype=np.int32)
    for u in range(n):
        if u % _STOP_EVERY == 0 and stop[0]:
            return False
        if value[u] == 0 and plies[u] >= 0:
            settled[first[plies[u]]] = u
            first[plies[u]] += 1
    tail = 0
    for u in range(n):
        if u % _STOP_EVERY == 0 and stop[0]:
            return False
        if plies[u] == -1 and value[u] == 0 and rel[u] == 0:
            plies[u] = 1
            queue[tail] = u
            tail += 1
    head = 0
    i = 0
    work = 0
    while head < tail or i < settled.shape[0]:
        work += 1
        if work % _STOP_EVERY == 0 and stop[0]:
            return False
        if i < settled.shape[0] and (head == tail or plies[settled[i]] <= plies[queue[head]]):
            x = settled[i]
            i += 1
        else:
            x = queue[head]
            head += 1
        p = plies[x]
        base = _linked_copy(x, boards, copies)
        bx = x % boards
        for j in range(ptr[bx], ptr[bx + 1]):
            y = base + src[j]
            if plies[y] == -1 and value[y] == 0:
                plies[y] = p + 1
                queue[tail] = y
                tail += 1
    return True


def _solve_group(
    graph: LevelGraph,
    exits: Sequence[npt.NDArray[np.int8]],
    endless: Sequence[int],
    stop: npt.NDArray[np.int64],
) -> tuple[list[npt.NDArray[np.int8]], list[npt.NDArray[np.uint16]]] | None:
    """Values and distances of one group's splits (``exits`` and ``endless`` per split)."""
    copies = len(exits)
    rel = np.concatenate(
        [
            np.where(e == NO_EXIT, _NO_EXIT_REL, e.astype(np.int16) - np.int16(end))
            for e, end in zip(exits, endless, strict=True)
        ]
    ).astype(np.int16)
    value = np.empty(rel.size, dtype=np.int16)
    if not graph.whole or not _values(graph.stay, graph.ptr, graph.src, rel, copies, value, stop):
        return None
    plies = np.empty(rel.size, dtype=np.int32)
    if not _plies(graph.stay, graph.ptr, graph.src, rel, copies, value, plies, stop):
        return None
    boards = graph.stay.shape[0]
    values = []
    distances = []
    for k, end in enumerate(endless):
        part = slice(k * boards, (k + 1) * boards)
        values.append((value[part] + end).astype(np.int8))
        p = plies[part]
        distances.append(
            np.where(p == -1, NO_DISTANCE, np.minimum(p, NO_DISTANCE - 1)).astype(np.uint16)
        )
    return values, distances


def solve(
    seeds: int,
    groups: Sequence[tuple[int, ...]],
    stay: npt.NDArray[np.int32],
    best_exit: npt.NDArray[np.int8],
    values: npt.NDArray[np.int8],
    distances: npt.NDArray[np.uint16],
    *,
    threads: int | None = None,
) -> None:
    """:func:`games.ayoayo.tablebase_build.solve`, compiled: the groups solved on threads.

    The kernels run on worker threads (they release the GIL) while this thread waits, so
    Ctrl-C (KeyboardInterrupt here) raises the stop flag at once; the kernels see it within a
    few milliseconds and the interrupt goes on when they have returned.
    """
    stop = np.zeros(1, dtype=np.int64)
    workers = max(1, min(len(groups), threads or os.cpu_count() or 1))
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="tablebase")
    try:
        (graph,) = _finished([pool.submit(LevelGraph, stay, stop)])
        futures = []
        for group in groups:
            exits = [best_exit[s] for s in group]
            endless = endless_values(seeds, group)
            futures.append(pool.submit(_solve_group, graph, exits, endless, stop))
        for group, answer in zip(groups, _finished(futures), strict=True):
            for s, v, d in zip(group, *answer, strict=True):
                values[s] = v
                distances[s] = d
    except BaseException:
        stop[0] = 1
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _finished(futures: list[Future[Any]]) -> list[Any]:
    """The futures' results, in order, waiting in short steps so Ctrl-C is seen at once.

    Raises:
        KeyboardInterrupt: a kernel gave up because the stop flag was raised.
    """
    pending = set(futures)
    while pending:
        done, pending = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
        if any(f.result() is None for f in done):
            raise KeyboardInterrupt
    return [f.result() for f in futures]


KERNEL: Final = LevelKernel(level_moves, gather, solve, bytes_per_board=125)
"""The compiled builder: :func:`level_moves`, :func:`gather`, :func:`solve`
(peak memory: 116-119 bytes a board at levels 16 and 20, two groups solved at once)."""


@warm_up("tablebase")
def _warm_up() -> None:
    """Call the builder's entry points once: levels 0 and 4 built into a scratch folder."""
    with tempfile.TemporaryDirectory(prefix="gamesolver-warm-") as scratch:
        build(4, scratch, kernel=KERNEL)
