"""Building a tablebase level out of core: partitions on disk, updates batched per partition.

The in-memory builder (:mod:`games.ayoayo.native_tablebase`) holds a whole level's move graph
and solve state at once: about 125 bytes a board, 52 GB at level 24. This one keeps them in
the files of :mod:`games.ayoayo.tablebase_partitions`, a partition of board ranks each, and
works on one partition at a time (as Bal & Allis, Romein & Bal, and Wu, Liu & Hsu solve
awari and Chinese chess endgames in parts):

1. **Moves.** Per partition, the moves of its boards (the kernel's ``moves``, over the
   executor) and each split's best exit (:func:`games.ayoayo.native_tablebase._absorb`, the
   same kernel as in memory) into ``stay-k`` and ``exit-k``.
2. **Moves reversed.** Each partition's moves are bucketed by the partition of their child and
   appended to that partition's spill file; each spill is then sorted into the partition's
   predecessor lists (``rptr-k``, ``rsrc-k``). The moves' table is then replaced by each
   board's number of moves (``degree-k``), all the solve needs of it.
3. **Solve, a group of splits at a time** (on threads), in *rounds*: a round takes each
   partition's frontier (the positions decided in the last round), walks their predecessors
   and sends each an update ``(position, value of the decided child)``; updates are batched
   per target partition and applied there, which decides new positions: the next frontier.
   The rounds follow :func:`games.ayoayo.native_tablebase._values` (a sweep of thresholds
   from the largest exit value down, a breadth-first search per threshold; the sets it
   builds are least fixpoints, so the order updates arrive in does not change them), then
   ``_plies`` and ``_open_draws`` (breadth-first by ply: the plies a round gives are one
   more than its frontier's, exactly the in-memory queue's order), so values and distances,
   and the files, are the same byte for byte.

Memory: one partition's arrays and the update batches, sized by the memory budget
(:func:`games.ayoayo.tablebase_partitions.layout_for`); everything else is in files.

Resuming: a partition's moves, a partition's reversed moves, a group's values pass and a
group's plies pass are each marked done by a file written after their arrays are flushed, and
a killed build skips what is marked. Inside a pass it goes on from the last checkpoint
(:class:`_Journal`). A pass is a loop of *steps*: a threshold's seeds, the plies' or the open
draws' seeds, or one partition's part of a round (its frontier sends its updates, which are
applied to their target partitions). Applying changes the state in place (counts go down,
values are set), so a step half applied cannot simply be run again. The kernels that change
a partition's state write, just before they change a position, its undo record (the position
and its counter as it is, an absolute value) into an undo journal, a shared memory map,
ordered before the change (so a kill at any instruction leaves a record for every change).
After a step (at most every ``checkpoint`` seconds), a checkpoint writes the frontiers held
in memory to their files, records where the pass is (threshold or ply, next partition), the
frontiers' files and lengths, and starts a new journal. A resumed pass puts back the
journal's old values (each position's oldest: as it was at the checkpoint; doing this twice
is doing it once), cuts the frontier files back, and goes on from the recorded step. So a
killed build loses at most one step, or ``checkpoint`` seconds of steps (default 1 s,
:data:`CHECKPOINT_SECONDS`), whichever is more. The records are not synced to the disk (a
checkpoint costs a few file operations, no ``fsync``): they hold against a killed process,
and a machine that crashed and restarted ignores them
(:func:`games.ayoayo.tablebase_partitions.boot_id`) and runs the pass again. The journal
costs a store of 8 bytes a change, in the loop that makes the changes (see docs/ayoayo.md for
what it costs); ``checkpoint=None`` turns it off.

>>> import tempfile
>>> from pathlib import Path
>>> from games.ayoayo.tablebase_build import build
>>> from games.ayoayo.tablebase_files import DISTANCES, VALUES, level_path
>>> with tempfile.TemporaryDirectory() as parts, tempfile.TemporaryDirectory() as whole:
...     ooc = PartitionedBuilder(Path(parts) / "scratch", partition=1 << 12)
...     _ = build(8, parts, out_of_core=ooc), build(8, whole, kernel=KERNEL)
...     [level_path(parts, 8, k).read_bytes() == level_path(whole, 8, k).read_bytes()
...      for k in (VALUES, DISTANCES)]
[True, True]
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from games.ayoayo.native_jit import compiled, store_order
from games.ayoayo.native_tablebase import KERNEL, LowerLevels, _absorb
from games.ayoayo.tablebase_build import (
    BLOCK,
    NO_EXIT,
    LevelKernel,
    _split_groups,
    available_memory,
    endless_values,
)
from games.ayoayo.tablebase_files import NO_DISTANCE
from games.ayoayo.tablebase_index import board_count, splits
from games.ayoayo.tablebase_partitions import (
    PartitionLayout,
    Scratch,
    boot_id,
    check_disk,
    layout_for,
    remove_scratch,
    scratch_directory,
)

__all__ = [
    "PartitionedBuilder",
    "default_memory",
    "group_exits",
    "partition_buckets",
    "partition_moves",
    "reverse_partition",
    "store_group",
]

_NO_EXIT_REL: Final = 1 << 14
"""A relative exit value no exit has (exits are within +-96), as in the in-memory kernels."""

_VALUES, _PENDING, _PLIES, _DRAWS = 0, 1, 2, 3
"""What an update does where it is applied (:func:`_apply`)."""

_STOP_BLOCK: Final = 1 << 21
"""Updates applied between two looks at a stop request (some 10 ms of work), so Ctrl-C ends
a level-24 round within a second, not at its end."""

_JOURNAL_FORMAT: Final = 3
"""The undo journal's format, in each checkpoint's record (one of another is not trusted)."""

_NO_JOURNAL: Final = (np.zeros(0, dtype=np.int64), 0, 0)
"""The journal arguments of a kernel that changes state (:func:`_apply`...) unjournalled."""

_JOURNAL_WORDS: Final = 1 << 16
"""Undo records a new journal has room for, at least (8 bytes each; grown as needed)."""

_TAG_SHIFT, _TAGS = 49, 1 << 14
"""Where an undo record's tag (its checkpoint's number, modulo ``_TAGS``) starts."""

CHECKPOINT_SECONDS: Final = 1.0
"""Seconds between two checkpoints of a group's pass by default (0: after every step):
a checkpoint costs a few milliseconds of file operations, a step of a small level less."""

_PENDING_COUNTS, _PLY_ROUNDS, _DRAW_SEEDS, _DRAW_ROUNDS, _STORE = range(5)
"""The stages of a group's plies pass, in order (a checkpoint records the stage)."""


def _jit(fn: Any) -> Any:
    return compiled(fn, nogil=True)


# ---- step 2: the moves reversed ----------------------------------------------------------------


@_jit
def _bucket_edges(stay: Any, lo: int, size: int, parts: int) -> Any:
    """The moves of a partition as ``(child's local rank, board)`` pairs, by child partition."""
    first = np.zeros(parts + 1, dtype=np.int64)
    for i in range(stay.shape[0]):
        for c in range(6):
            x = stay[i, c]
            if x >= 0:
                first[x // size + 1] += 1
    for t in range(parts):
        first[t + 1] += first[t]
    pairs = np.empty((first[parts], 2), dtype=np.int32)
    fill = first[:-1].copy()
    for i in range(stay.shape[0]):
        for c in range(6):
            x = stay[i, c]
            if x >= 0:
                t = x // size
                pairs[fill[t], 0] = x - t * size
                pairs[fill[t], 1] = lo + i
                fill[t] += 1
    return pairs, first


@_jit
def _predecessors(pairs: Any, boards: int) -> Any:
    """The CSR of a partition's predecessors from its spilled ``(local rank, board)`` pairs."""
    ptr = np.zeros(boards + 1, dtype=np.int64)
    for j in range(pairs.shape[0]):
        ptr[pairs[j, 0] + 1] += 1
    for b in range(boards):
        ptr[b + 1] += ptr[b]
    src = np.empty(pairs.shape[0], dtype=np.int32)
    fill = ptr[:-1].copy()
    for j in range(pairs.shape[0]):
        x = pairs[j, 0]
        src[fill[x]] = pairs[j, 1]
        fill[x] += 1
    return ptr, src


# ---- step 3: rounds of updates ------------------------------------------------------------------


@_jit
def _expand(front: Any, ptr: Any, src: Any, value: Any, copies: int, shift: int, nts: Any) -> Any:
    """The updates a partition's decided positions ``front`` send their predecessors.

    Partitions are ``1 << shift`` boards (``nts[t]``: partition ``t``'s). Returns ``(target,
    payload, first)``: the target's position in its own partition, the decided child's
    value, and where each target partition's updates start.
    """
    parts = nts.shape[0]
    mask = (1 << shift) - 1
    nk = ptr.shape[0] - 1
    first = np.zeros(parts + 1, dtype=np.int64)
    for f in range(front.shape[0]):
        i = front[f] % nk
        for j in range(ptr[i], ptr[i + 1]):
            first[(src[j] >> shift) + 1] += 1
    for t in range(parts):
        first[t + 1] += first[t]
    target = np.empty(first[parts], dtype=np.int32)
    payload = np.empty(first[parts], dtype=np.int8)
    fill = first[:-1].copy()
    for f in range(front.shape[0]):
        u = front[f]
        c = u // nk
        i = u - c * nk
        to = 0 if copies == 1 else 1 - c  # a move crosses to the other split of a pair
        v = value[u]
        for j in range(ptr[i], ptr[i + 1]):
            b = src[j]
            t = b >> shift
            at = fill[t]
            target[at] = to * nts[t] + (b & mask)
            payload[at] = v
            fill[t] = at + 1
    return target, payload, first


@_jit
def _note(journal: Any, at: int, head: int, y: int, old: int) -> int:
    """Write the undo record of position ``y`` (its counter ``old``) at ``journal[at]``,
    ordered before the stores that follow (:func:`store_order`); where the next one goes.
    ``head`` holds the partition's and the record's kind (:meth:`_Journal.sink`)."""
    journal[at] = head + (np.int64(y) << 9) + np.int64(old)
    store_order()
    return at + 1


@_jit
def _apply(  # noqa: C901 (compiled hot loop, kept inline)
    phase: int,
    target: Any,
    payload: Any,
    arg: int,
    value: Any,
    count: Any,
    plies: Any,
    pending: Any,
    out: Any,
    journal: Any,
    at: int,
    head: int,
) -> Any:
    """Apply updates to a partition's state; the positions decided go to ``out``. ``arg`` is
    the threshold (values) or the senders' ply (plies, draws). Each position's undo record
    goes to ``journal`` from ``at`` before the position changes (none when ``journal`` is
    empty; room for one a update). Returns how many were decided and where the journal is."""
    log = journal.shape[0] != 0
    n = 0
    for m in range(target.shape[0]):
        y = target[m]
        vx = payload[m]
        if phase == 0:  # values at threshold arg: the sender joined W (vx > 0) or L (vx < 0)
            if value[y] != 0:
                continue
            if log:
                at = _note(journal, at, head, y, count[y])
            if vx < 0:
                value[y] = arg
                out[n] = y
                n += 1
            else:
                count[y] -= 1
                if count[y] == 0:
                    value[y] = -arg
                    out[n] = y
                    n += 1
        elif phase == 1:  # pending: the moves that keep the value
            if vx == -value[y]:
                if log:
                    at = _note(journal, at, head, y, pending[y])
                pending[y] += 1
        elif phase == 2:  # plies: a winner's quickest, a loser's or drawer's slowest
            if plies[y] != -1 or value[y] != -vx:
                continue
            if log:
                at = _note(journal, at, head, y, pending[y])
            if value[y] > 0:
                plies[y] = arg + 1
                out[n] = y
                n += 1
            else:
                pending[y] -= 1
                if pending[y] == 0:
                    plies[y] = arg + 1
                    out[n] = y
                    n += 1
        else:  # open draws take the quickest value-keeping end
            if plies[y] == -1 and value[y] == 0:
                if log:
                    at = _note(journal, at, head, y, pending[y])
                plies[y] = arg + 1
                out[n] = y
                n += 1
    return n, at


@_jit
def _degrees(stay: Any, out: Any) -> None:
    """Each board's number of moves that stay in the level."""
    for b in range(stay.shape[0]):
        d = 0
        for c in range(6):
            if stay[b, c] >= 0:
                d += 1
        out[b] = d


@_jit
def _init_values(degree: Any, rel: Any, value: Any, count: Any) -> None:
    """Undecided positions, each with its moves plus one for its exit to count down."""
    nk = degree.shape[0]
    for u in range(rel.shape[0]):
        d = np.int64(degree[u % nk])
        if rel[u] != _NO_EXIT_REL:
            d += 1
        count[u] = d
        value[u] = 0


@_jit
def _by_exit(rel: Any, top: int) -> Any:
    """The positions with an exit, by exit value (counting sort), and where each value starts."""
    first = np.zeros(2 * top + 2, dtype=np.int64)
    for u in range(rel.shape[0]):
        if rel[u] != _NO_EXIT_REL:
            first[rel[u] + top + 1] += 1
    for k in range(2 * top + 1):
        first[k + 1] += first[k]
    order = np.empty(first[2 * top + 1], dtype=np.int32)
    fill = first.copy()
    for u in range(rel.shape[0]):
        if rel[u] != _NO_EXIT_REL:
            order[fill[rel[u] + top]] = u
            fill[rel[u] + top] += 1
    return order, first


@_jit
def _seed_values(
    order: Any,
    first: Any,
    top: int,
    s: int,
    value: Any,
    count: Any,
    out: Any,
    journal: Any,
    at: int,
    head: int,
) -> Any:
    """Threshold ``s``: an exit worth ``s`` decides a win; one worth ``-s`` is no longer
    better than ``-s`` (the counter of a position all of whose moves lead into W). Journalled
    as :func:`_apply`."""
    log = journal.shape[0] != 0
    n = 0
    for k in range(first[s + top], first[s + top + 1]):
        u = order[k]
        if value[u] == 0:
            if log:
                at = _note(journal, at, head, u, count[u])
            value[u] = s
            out[n] = u
            n += 1
    for k in range(first[top - s], first[top - s + 1]):
        u = order[k]
        if value[u] == 0:
            if log:
                at = _note(journal, at, head, u, count[u])
            count[u] -= 1
            if count[u] == 0:
                value[u] = -s
                out[n] = u
                n += 1
    return n, at


@_jit
def _init_plies(degree: Any, rel: Any, plies: Any, pending: Any, out: Any) -> int:
    """No plies yet; positions without a move or an exit (the game over) end in 0 plies."""
    nk = degree.shape[0]
    n = 0
    for u in range(rel.shape[0]):
        pending[u] = 0
        plies[u] = -1
        if degree[u % nk] == 0 and rel[u] == _NO_EXIT_REL:
            plies[u] = 0
            out[n] = u
            n += 1
    return n


@_jit
def _seed_plies(
    rel: Any, value: Any, pending: Any, plies: Any, out: Any, journal: Any, at: int, head: int
) -> Any:
    """A value-keeping exit ends in 1 ply: for winners, and for the others with nothing else
    (all undecided yet). Journalled as :func:`_apply`."""
    log = journal.shape[0] != 0
    n = 0
    for u in range(rel.shape[0]):
        if rel[u] == value[u] and (value[u] > 0 or pending[u] == 0):
            if log:
                at = _note(journal, at, head, u, pending[u])
            plies[u] = 1
            out[n] = u
            n += 1
    return n, at


@_jit
def _settled_draws(value: Any, plies: Any, top: int) -> Any:
    """The draws with plies, by ply (counting sort), and where each ply starts."""
    first = np.zeros(top + 2, dtype=np.int64)
    for u in range(value.shape[0]):
        if value[u] == 0 and plies[u] >= 0:
            first[plies[u] + 1] += 1
    for k in range(top + 1):
        first[k + 1] += first[k]
    order = np.empty(first[top + 1], dtype=np.int32)
    fill = first.copy()
    for u in range(value.shape[0]):
        if value[u] == 0 and plies[u] >= 0:
            order[fill[plies[u]]] = u
            fill[plies[u]] += 1
    return order, first


@_jit
def _seed_draws(
    rel: Any, value: Any, plies: Any, pending: Any, out: Any, journal: Any, at: int, head: int
) -> Any:
    """Open draws with an exit worth a draw end in 1 ply. Journalled as :func:`_apply`."""
    log = journal.shape[0] != 0
    n = 0
    for u in range(rel.shape[0]):
        if plies[u] == -1 and value[u] == 0 and rel[u] == 0:
            if log:
                at = _note(journal, at, head, u, pending[u])
            plies[u] = 1
            out[n] = u
            n += 1
    return n, at


# ---- one partition's steps (called here and by the cluster build, on its workers) ------------


def partition_moves(
    scratch: Scratch,
    k: int,
    below: LowerLevels,
    moves: Callable[[int, int, int], Any],
    mapper: Callable[..., Iterable[Any]] = map,
    stop: Callable[[], None] | None = None,
) -> None:
    """Step 1 for partition ``k``: its moves (``stay-k``) and each split's best exit
    (``exit-k``), the blocks of moves mapped over ``mapper``; marks ``moves-k`` done.
    ``stop`` is called between blocks (it raises to stop)."""
    layout = scratch.layout
    seeds = layout.seeds
    cms = np.array(splits(seeds), dtype=np.int64)
    lo, hi = layout.bounds(k)
    stay = scratch.create(f"stay-{k}", np.int32, (hi - lo, 6))
    best = scratch.create(f"exit-{k}", np.int8, (cms.size, hi - lo))
    best[:] = NO_EXIT
    starts = list(range(lo, hi, BLOCK))
    stops = [min(s + BLOCK, hi) for s in starts]
    for part in mapper(moves, [seeds] * len(starts), starts, stops):
        if stop is not None:
            stop()
        _absorb(
            seeds,
            part.start - lo,
            part.child,
            part.gain_mover,
            part.gain_opponent,
            cms,
            below.flat,
            below.offset,
            below.boards,
            below.first,
            np.asarray(stay),
            np.asarray(best),
        )
    scratch.mark(f"moves-{k}", stay, best)


def partition_buckets(scratch: Scratch, k: int) -> list[npt.NDArray[np.int32]]:
    """Step 2a for partition ``k``: its moves as ``(child's local rank, board)`` pairs, one
    array per child partition (in the order of ``k``'s boards)."""
    layout = scratch.layout
    lo, hi = layout.bounds(k)
    stay = np.asarray(scratch.open(f"stay-{k}", np.int32, (hi - lo, 6)))
    pairs, first = _bucket_edges(stay, lo, layout.size, layout.parts)
    return [pairs[first[t] : first[t + 1]] for t in range(layout.parts)]


def reverse_partition(scratch: Scratch, t: int, spills: Sequence[str]) -> None:
    """Step 2b for partition ``t``: its predecessor lists (``rptr-t``, ``rsrc-t``) from the
    pairs spilled to it, read from the files of arrays ``spills`` in order."""
    found = [np.fromfile(p, dtype=np.int32) for p in map(scratch.path, spills) if p.exists()]
    pairs = np.concatenate(found) if found else np.zeros(0, np.int32)
    lo, hi = scratch.layout.bounds(t)
    ptr, src = _predecessors(pairs.reshape(-1, 2), hi - lo)
    scratch.save(f"rptr-{t}", ptr)
    scratch.save(f"rsrc-{t}", src)


def partition_degrees(scratch: Scratch, k: int) -> None:
    """Step 2c for partition ``k``, once every partition's predecessor lists are built: the
    number of moves each board has that stay in the level (``degree-k``), all the solve needs
    of ``stay-k``, which is then removed (23 of its 24 bytes a board of scratch)."""
    if not scratch.done(f"degree-{k}"):
        lo, hi = scratch.layout.bounds(k)
        stay = np.asarray(scratch.open(f"stay-{k}", np.int32, (hi - lo, 6)))
        degree = scratch.create(f"degree-{k}", np.uint8, (hi - lo,))
        _degrees(stay, np.asarray(degree))
        scratch.mark(f"degree-{k}", degree)
    scratch.remove(f"stay-{k}")


def partition_degree(scratch: Scratch, k: int) -> npt.NDArray[np.uint8]:
    """Partition ``k``'s boards' numbers of moves that stay in the level (step 2c's file)."""
    lo, hi = scratch.layout.bounds(k)
    return np.asarray(scratch.open(f"degree-{k}", np.uint8, (hi - lo,)))


def group_exits(scratch: Scratch, group: Sequence[int], k: int) -> npt.NDArray[np.int16]:
    """Partition ``k``'s best exits in the splits ``group``, relative to endless play, the
    copies end to end."""
    lo, hi = scratch.layout.bounds(k)
    cms = splits(scratch.layout.seeds)
    best = np.asarray(scratch.open(f"exit-{k}", np.int8, (len(cms), hi - lo)))
    ends = endless_values(scratch.layout.seeds, group)
    return np.concatenate(
        [
            np.where(best[s] == NO_EXIT, _NO_EXIT_REL, best[s].astype(np.int16) - end)
            for s, end in zip(group, ends, strict=True)
        ]
    ).astype(np.int16)


def store_group(
    scratch: Scratch,
    group: Sequence[int],
    k: int,
    value: npt.NDArray[np.int8],
    plies: npt.NDArray[np.int32],
    values: npt.NDArray[np.int8],
    distances: npt.NDArray[np.uint16],
) -> None:
    """Put partition ``k``'s solved ``value`` and ``plies`` (a group's, copies end to end)
    in its columns of the level's ``values`` and ``distances``."""
    lo, hi = scratch.layout.bounds(k)
    nk = hi - lo
    ends = endless_values(scratch.layout.seeds, group)
    for c, (s, end) in enumerate(zip(group, ends, strict=True)):
        part = slice(c * nk, (c + 1) * nk)
        values[s, lo:hi] = value[part] + np.int8(end)
        p_k = plies[part]
        distances[s, lo:hi] = np.where(p_k == -1, NO_DISTANCE, np.minimum(p_k, NO_DISTANCE - 1))


# ---- the driver ---------------------------------------------------------------------------------


def default_memory() -> int:
    """The default memory budget: half the memory available (at least 256 MB)."""
    return max(1 << 28, (available_memory() or 1 << 32) // 2)


class _Interrupted(Exception):
    """Another thread of the build stopped (Ctrl-C or an error)."""


class _Frontiers:
    """Each partition's positions decided in a round, in memory up to a cap, then on disk.

    Partition ``k``'s file is ``front-TAG-k-G``, a new generation ``G`` each time the file is
    taken, so that a checkpoint (:meth:`flush`, then :meth:`restore`) can name what a frontier
    held: the files it had, each cut to the length it had then.
    """

    def __init__(self, scratch: Scratch, tag: str, parts: int, cap: int) -> None:
        self.scratch = scratch
        self.tag = tag
        self.kept: list[list[npt.NDArray[np.int32]]] = [[] for _ in range(parts)]
        self.spilled = [0] * parts
        self.gen = [0] * parts
        self.bytes = 0
        self.cap = cap
        self.stale: list[Path] = []
        self.keep_stale = False  # taken files stay until the next checkpoint

    def file(self, k: int) -> Path:
        return self.scratch.path(f"front-{self.tag}-{k}-{self.gen[k]}")

    def add(self, k: int, positions: npt.NDArray[np.int32]) -> None:
        if not positions.size:
            return
        if self.bytes + positions.nbytes <= self.cap:
            self.kept[k].append(positions.copy())
            self.bytes += positions.nbytes
            return
        self._spill(k, [positions])

    def _spill(self, k: int, parts: Sequence[npt.NDArray[np.int32]]) -> None:
        with self.file(k).open("ab") as f:
            for positions in parts:
                f.write(positions.data)
                self.spilled[k] += positions.size

    def empty(self) -> bool:
        return not any(self.kept) and not any(self.spilled)

    def take(self, k: int) -> npt.NDArray[np.int32]:
        parts = self.kept[k]
        self.kept[k] = []
        self.bytes -= sum(p.nbytes for p in parts)
        if self.spilled[k]:
            path = self.file(k)
            parts.insert(0, np.fromfile(path, dtype=np.int32, count=self.spilled[k]))
            if self.keep_stale:
                self.stale.append(path)
            else:
                path.unlink()
            self.spilled[k] = 0
            self.gen[k] += 1
        if not parts:
            return np.zeros(0, dtype=np.int32)
        return parts[0] if len(parts) == 1 else np.concatenate(parts)

    def flush(self) -> dict[str, list[int]]:
        """Write what is kept in memory to the files; what the frontier holds now."""
        for k, parts in enumerate(self.kept):
            if parts:
                self._spill(k, parts)
                self.kept[k] = []
        self.bytes = 0
        return {"gen": list(self.gen), "spilled": list(self.spilled)}

    def drop_stale(self) -> None:
        """Delete the files taken before the last checkpoint."""
        for path in self.stale:
            path.unlink(missing_ok=True)
        self.stale = []

    def restore(self, held: Mapping[str, Sequence[int]]) -> None:
        """Back to what :meth:`flush` returned: later files deleted, the others cut back."""
        self.gen, self.spilled = list(held["gen"]), list(held["spilled"])
        self.kept = [[] for _ in self.kept]
        self.bytes = 0
        self.stale = []
        for path in self.scratch.directory.glob(f"front-{self.tag}-*.bin"):
            name = path.stem.split("-")
            if len(name) != 4 or int(name[3]) != self.gen[int(name[2])]:
                path.unlink()
            else:
                with path.open("r+b") as f:
                    f.truncate(4 * self.spilled[int(name[2])])

    def clear(self) -> None:
        """Nothing in the frontier (the files of an earlier build deleted)."""
        self.restore({"gen": [0] * len(self.kept), "spilled": [0] * len(self.kept)})


class _Journal:
    """The checkpoints of a group's pass between rounds, and the undo records since the last.

    **Records.** The kernels that change a partition's state (:func:`_apply`,
    :func:`_seed_values`, :func:`_seed_plies`, :func:`_seed_draws`) write, just before they
    change a position, its undo record into the journal ``journal-PASS-g-map``: a shared
    memory map of a file created sparse (all zeros), one 64-bit word a record, from the
    start on after each checkpoint, ``tag << 49 | (index + 1) << 9 | decided << 8 |
    counter``. ``tag`` is the number of the checkpoint the record follows (modulo
    ``_TAGS``), ``index`` the position's place in the group (its partition times ``stride``
    plus its place in the partition), ``counter`` the position's ``count`` (values pass) or
    ``pending`` (plies pass) as it is, an absolute value, and ``decided`` whether the change
    may decide it. Only undecided positions change (value 0, or plies -1), so undoing makes
    them undecided again: ``undecided`` is that value of the pass's first state array
    (``a``; ``b`` holds the counters). The journal's records since the last checkpoint are
    its words with that checkpoint's tag: a word never written is 0 (its index field is
    never 0), the others are earlier checkpoints' records, left where the map is reused
    (its pages stay mapped, in the page cache: a new file each checkpoint would cost a
    page fault and a new page of the file every 512 records). A tag is not met again before
    the file is made anew: at the start of the pass, when a pass resumes (after the undo),
    and every ``_TAGS // 2`` checkpoints (just after the checkpoint's record is written;
    killed before, the file holds at most ``_TAGS // 2`` tags, none the record's).

    **Why a kill at any instruction is safe.** The state arrays are shared memory maps of the
    scratch files, as is the journal: a store to either is in the page cache, where the
    resumed process reads it, the moment it is made, and a killed process loses none (the
    CPU's stores drain after it stops; a machine crash is another matter, hence the boot
    id). A record is one aligned 64-bit store, one instruction: there is all of it or none.
    :func:`_note` makes it, then :func:`store_order`, a compiler barrier (C's
    ``atomic_signal_fence``): the compiled code stores the record before it stores the change
    of its position, in that order, and a thread stopped at any instruction has made every
    store before that instruction and none after. So at any instant every position changed
    since the checkpoint has a record, and its oldest record holds what it was at the
    checkpoint (before that record it was not changed). Undoing puts back each position's
    oldest counter and makes every recorded position that may have been decided undecided:
    the state of the checkpoint; records without their change put back what is there.
    Undoing twice is undoing once, so a kill while undoing is safe too; the journal is
    deleted (a new empty one made) only once the undo's stores are made.

    **Checkpoints.** A checkpoint writes the frontiers' memory to their files, then the
    record ``round-PASS-g`` (where the pass is, the frontiers' files and lengths, its
    number, the boot and the format), then starts its records from the journal's start,
    with its tag (a killed process that wrote the record needs the earlier ones no more,
    one that did not still has them). A resumed pass undoes the records of the recorded
    checkpoint, cuts the frontiers back and goes on from the recorded place. Disabled (no
    records, no journal, no cost) by ``checkpoint=None`` and where the boot cannot be told
    (:func:`boot_id`).
    """

    def __init__(
        self,
        group: _Group,
        kind: str,
        fronts: Sequence[_Frontiers],
        undecided: int,
    ) -> None:
        self.group = group
        self.undecided = undecided
        self.scratch = group.scratch
        self.name = f"{kind}-{group.g}"
        self.fronts = fronts
        self.stride = group.layout.nodes(0, group.copies)  # the largest partition's
        if (group.parts * self.stride) >> (_TAG_SHIFT - 9):
            raise ValueError(f"{group.parts} partitions of {self.stride} positions: too many")
        interval = group.level.builder.checkpoint
        self.boot = boot_id() if interval is not None else None
        self.on = self.boot is not None
        self.interval = interval or 0.0
        self.seq = 0
        self.words = np.zeros(0, dtype=np.int64)  # the journal's map (empty: none)
        self.at = 0  # where its next record goes
        self.last = time.monotonic()
        self.a: Sequence[npt.NDArray[Any]] = ()
        self.b: Sequence[npt.NDArray[Any]] = ()
        self.record: dict[str, Any] | None = None
        if self.boot is not None:
            found = self.scratch.recall(f"round-{self.name}")
            if (
                found is not None
                and found.get("boot") == self.boot
                and found.get("journal") == _JOURNAL_FORMAT
            ):
                self.record = found
        for front in fronts:
            front.keep_stale = self.boot is not None

    @property
    def resumed(self) -> bool:
        """Whether the pass goes on from a checkpoint (else it starts again)."""
        return self.record is not None

    def journal(self) -> Path:
        return self.scratch.path(f"journal-{self.name}-map")

    def _journals(self) -> list[Path]:
        return list(self.scratch.directory.glob(f"journal-{self.name}-*.bin"))

    def begin(
        self, a: Sequence[npt.NDArray[Any]], b: Sequence[npt.NDArray[Any]]
    ) -> dict[str, Any] | None:
        """Journal the state arrays ``a`` and ``b``; the place of the checkpoint to go on
        from (its state restored), or None (the pass starts again: records of earlier builds
        deleted)."""
        self.a, self.b = a, b
        if self.record is None:
            self.scratch.forget(f"round-{self.name}")
            for path in self._journals():
                path.unlink()
            for front in self.fronts:
                front.clear()
            self._open()
            return None
        self.seq = int(self.record["seq"])
        journal = self.journal()
        if journal.exists() and journal.stat().st_size >= 8:
            self._undo(np.fromfile(journal, dtype=np.int64))
        for path in self._journals():
            path.unlink()
        for front in self.fronts:
            front.restore(self.record["fronts"][front.tag])
        self._open()
        cursor: dict[str, Any] = self.record["cursor"]
        return cursor

    def _undo(self, words: npt.NDArray[np.int64]) -> None:
        """Put back what the records since the checkpoint say: each position's oldest
        counter; undecided, each that a record says may have been decided."""
        words = words[(words != 0) & (words >> _TAG_SHIFT == self.seq % _TAGS)]
        where = ((words >> 9) & ((1 << (_TAG_SHIFT - 9)) - 1)) - 1
        decided = ((words >> 8) & 1) == 1
        place, oldest = np.unique(where, return_index=True)  # the first record of each
        counter = (words[oldest] & 0xFF).astype(np.uint8)
        settled = np.unique(where[decided])
        for t in range(len(self.b)):
            lo, hi = t * self.stride, (t + 1) * self.stride
            mine = (place >= lo) & (place < hi)
            self.b[t][place[mine] - lo] = counter[mine]
            self.a[t][settled[(settled >= lo) & (settled < hi)] - lo] = self.undecided

    def _open(self, words: int = _JOURNAL_WORDS) -> None:
        """A new journal (none must exist) with room for ``words``."""
        self.at = 0
        if not self.on:
            return
        with self.journal().open("xb") as f:
            f.truncate(8 * words)  # sparse: zeros, disk taken only as records are written
        self._map(words)

    def _map(self, words: int) -> None:
        self.words = np.asarray(np.memmap(self.journal(), np.int64, "r+", shape=(words,)))

    def sink(self, t: int, most: int, *, decided: bool = True) -> tuple[Any, int, int]:
        """What a kernel changing partition ``t``, at most ``most`` positions, journals into:
        the journal's words (with room for them), where its next record goes and the record's
        head (partition, kind); a kernel returns where the journal is then, for :attr:`at`.
        The words are empty (no records) when the journal is off."""
        if not self.on:
            return _NO_JOURNAL
        if self.at + most > self.words.size:
            grown = max(2 * self.words.size, self.at + most)
            with self.journal().open("r+b") as f:
                f.truncate(8 * grown)
            self._map(grown)
        tag = (self.seq % _TAGS) << _TAG_SHIFT
        return self.words, self.at, tag | ((t * self.stride + 1) << 9) | (int(decided) << 8)

    def commit(self, cursor: Mapping[str, Any], *, force: bool = False) -> bool:
        """A checkpoint at ``cursor`` (if ``force`` or the interval has passed since the last
        one); whether one was written."""
        if not self.on or not (force or time.monotonic() - self.last >= self.interval):
            return False
        fronts = {front.tag: front.flush() for front in self.fronts}
        record = {
            "boot": self.boot,
            "journal": _JOURNAL_FORMAT,
            "seq": self.seq + 1,
            "cursor": dict(cursor),
            "fronts": fronts,
        }
        self.scratch.note(f"round-{self.name}", record)
        self.seq += 1
        self.at = 0
        if self.seq % (_TAGS // 2) == 0:
            size = self.words.size
            self.words = np.zeros(0, dtype=np.int64)
            self.journal().unlink()
            self._open(size)
        for front in self.fronts:
            front.drop_stale()
        self.last = time.monotonic()
        return True

    def finish(self) -> None:
        """The pass is marked done: its checkpoint and journal go."""
        self.words = np.zeros(0, dtype=np.int64)
        self.scratch.forget(f"round-{self.name}")
        for path in self._journals():
            path.unlink()
        for front in self.fronts:
            front.clear()


class PartitionedBuilder:
    """Builds a level in partitions on disk (see the module notes); the same bytes as in memory.

    Args:
        root: where the levels' scratch directories go (``ayoayo-NN.scratch``).
        memory: the memory budget in bytes, which sets the partition size (default: half the
            memory available).
        partition: boards per partition, a power of two, overriding the budget (tests use
            small ones).
        threads: groups of splits solved at once (default: the CPUs, at most 2 a level's
            memory budget is shared between).
        kernel: the moves function (the compiled one).
        step: called with the name of each step as it is marked done (a test kills a build
            there).
        checkpoint: seconds between two checkpoints of a group's pass (0: after every step
            of a round; None: none, a killed pass starts again; see :class:`_Journal`).
        round: called at three points of each step of a group's pass (a test stops a build
            there), with ``"KIND-g:n:WHEN"``: step ``n`` of group ``g``'s ``values`` or
            ``plies`` pass is about to change the state (``begun``), has its first batch of
            updates applied (``applied``), or is finished (``done``).
    """

    def __init__(
        self,
        root: Path,
        *,
        memory: int | None = None,
        partition: int | None = None,
        threads: int | None = None,
        kernel: LevelKernel = KERNEL,
        step: Callable[[str], None] | None = None,
        checkpoint: float | None = CHECKPOINT_SECONDS,
        round: Callable[[str], None] | None = None,
    ) -> None:
        self.root = Path(root)
        self.memory = memory if memory is not None else default_memory()
        self.partition = partition
        self.threads = threads or min(2, os.cpu_count() or 1)
        self.kernel = kernel
        self.step = step
        self.checkpoint = checkpoint
        self.round = round
        self.rounds = 0
        self.steps = 0  # steps of groups' passes done (each partition's part of a round)
        self.lock = threading.Lock()

    def layout(self, seeds: int) -> PartitionLayout:
        """The partitions of level ``seeds`` under this budget."""
        if self.partition is not None:
            boards = board_count(seeds)
            return PartitionLayout(seeds, boards, self.partition)
        return layout_for(seeds, self.memory // self.threads)

    def check(self, missing: Iterable[int]) -> None:
        """Raise :class:`ScratchTooLargeError` if the largest missing level's scratch files
        would not fit on the scratch disk."""
        levels = list(missing)
        if levels:
            check_disk(max(levels), self.root)

    def finish(self, seeds: int) -> None:
        """Remove level ``seeds``'s scratch directory."""
        remove_scratch(self.root, seeds)

    def __call__(
        self,
        seeds: int,
        lower: Mapping[int, npt.NDArray[np.int8]],
        *,
        executor: Any = None,
        phases: dict[str, float] | None = None,
    ) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.uint16]]:
        """The values and distances of level ``seeds`` (memory maps of scratch files)."""
        layout = self.layout(seeds)
        scratch = Scratch(scratch_directory(self.root, seeds), layout)
        level = _Level(self, scratch, layout, lower, executor)
        times = phases if phases is not None else {}
        began = time.perf_counter()
        level.moves()
        times["moves"] = time.perf_counter() - began
        began = time.perf_counter()
        level.reverse()
        times["graph"] = time.perf_counter() - began
        began = time.perf_counter()
        level.solve()
        times["solve"] = time.perf_counter() - began
        times["partitions"] = layout.parts
        return level.values, level.distances


class _Level:
    """One level's out-of-core build: its scratch files and the steps over them."""

    def __init__(
        self,
        builder: PartitionedBuilder,
        scratch: Scratch,
        layout: PartitionLayout,
        lower: Mapping[int, npt.NDArray[np.int8]],
        executor: Any,
    ) -> None:
        self.builder = builder
        self.scratch = scratch
        self.layout = layout
        self.lower = lower
        self.executor = executor
        self.seeds = layout.seeds
        self.cms = splits(self.seeds)
        shape = (len(self.cms), layout.boards)
        if scratch.path("values").exists():
            self.values = scratch.open("values", np.int8, shape, write=True)
            self.distances = scratch.open("distances", np.uint16, shape, write=True)
        else:
            self.distances = scratch.create("distances", np.uint16, shape)
            self.values = scratch.create("values", np.int8, shape)
        budget = builder.memory // builder.threads
        # positions a batch of updates comes from: at most 2**20 (some 3 M updates, tens of
        # milliseconds to expand), so a stop request is seen between two batches within a second
        self.update_cap = max(256, min(budget // 64, 1 << 20))
        self.frontier_cap = budget // 8  # bytes of frontiers kept in memory, the rest on disk
        self.stop = threading.Event()

    def _mark(self, step: str, *arrays: npt.NDArray[Any]) -> None:
        self.scratch.mark(step, *arrays)
        self.marked(step)

    def marked(self, step: str) -> None:
        """Tell the builder's hook that ``step`` is marked done."""
        if self.builder.step is not None:
            self.builder.step(step)

    # -- step 1 ------------------------------------------------------------------------------

    def moves(self) -> None:
        layout = self.layout
        todo = [k for k in range(layout.parts) if not self.scratch.done(f"moves-{k}")]
        if not todo:
            return
        below = LowerLevels(self.seeds, self.lower)
        mapper = map if self.executor is None else self.executor.map
        for k in todo:
            partition_moves(
                self.scratch, k, below, self.builder.kernel.moves, mapper, self._check_stop
            )
            self.marked(f"moves-{k}")

    # -- step 2 ------------------------------------------------------------------------------

    def reverse(self) -> None:
        parts = self.layout.parts
        if not all(self.scratch.done(f"reverse-{t}") for t in range(parts)):
            self._reverse()
        for k in range(parts):  # the moves' table is not read once the spill is done
            self._check_stop()
            fresh = not self.scratch.done(f"degree-{k}")
            partition_degrees(self.scratch, k)
            if fresh:
                self.marked(f"degree-{k}")

    def _reverse(self) -> None:
        parts = self.layout.parts
        if not self.scratch.done("spill"):
            self.scratch.remove(*(f"spill-{t}" for t in range(parts)))
            for k in range(parts):
                self._check_stop()
                for t, pairs in enumerate(partition_buckets(self.scratch, k)):
                    if pairs.size:
                        with self.scratch.path(f"spill-{t}").open("ab") as f:
                            f.write(pairs.data)
            self._mark("spill")
        for t in range(parts):
            if self.scratch.done(f"reverse-{t}"):
                continue
            self._check_stop()
            reverse_partition(self.scratch, t, [f"spill-{t}"])
            self._mark(f"reverse-{t}")
            self.scratch.remove(f"spill-{t}")

    # -- step 3 ------------------------------------------------------------------------------

    def solve(self) -> None:
        groups = _split_groups(self.seeds)
        todo = [g for g in range(len(groups)) if not self.scratch.done(f"plies-{g}")]
        if not todo:
            return
        graph = [
            (self.scratch.load(f"rptr-{t}", np.int64), self.scratch.load(f"rsrc-{t}", np.int32))
            for t in range(self.layout.parts)
        ]
        pool = ThreadPoolExecutor(max_workers=self.builder.threads, thread_name_prefix="ooc")
        try:
            futures = [pool.submit(_Group(self, g, groups[g], graph).run) for g in todo]
            _wait_all(futures)
        except BaseException:
            self.stop.set()
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)

    def _check_stop(self) -> None:
        if self.stop.is_set():
            raise _Interrupted


class _Group:
    """The solve of one group of one or two mirrored splits, in rounds over the partitions.

    Each pass is a loop over *steps* (a threshold's or the plies' seeds, or one partition's
    part of a round) from a place (``cursor``) that a checkpoint records, so a resumed pass
    goes on where its last checkpoint was (:class:`_Journal`).
    """

    def __init__(
        self,
        level: _Level,
        g: int,
        group: tuple[int, ...],
        graph: Sequence[tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]],
    ) -> None:
        self.level = level
        self.builder = level.builder
        self.scratch = level.scratch
        self.layout = level.layout
        self.g = g
        self.group = group
        self.copies = len(group)
        self.graph = graph
        self.parts = self.layout.parts
        self.dummy8 = np.zeros(1, dtype=np.uint8)
        self.dummy32 = np.zeros(1, dtype=np.int32)
        self.cap = level.frontier_cap
        self.arrays: tuple[Sequence[npt.NDArray[Any]], ...] = ()  # the pass's state

    def name(self, array: str, k: int) -> str:
        return f"{array}-{self.g}-{k}"

    def rel(self, k: int) -> npt.NDArray[np.int16]:
        """Partition ``k``'s best exits relative to endless play, both copies end to end."""
        return group_exits(self.scratch, self.group, k)

    def state(self, array: str, dtype: Any, *, create: bool = False) -> list[npt.NDArray[Any]]:
        shapes = [(self.layout.nodes(k, self.copies),) for k in range(self.parts)]
        if create:
            maps = [
                self.scratch.create(self.name(array, k), dtype, s) for k, s in enumerate(shapes)
            ]
        else:
            maps = [
                self.scratch.open(self.name(array, k), dtype, s, write=True)
                for k, s in enumerate(shapes)
            ]
        return maps

    def run(self) -> None:
        if not self.scratch.done(f"values-{self.g}"):
            self.values()
        self.plies()

    def _event(self, kind: str, n: int, when: str) -> None:
        if self.builder.round is not None:
            self.builder.round(f"{kind}-{self.g}:{n}:{when}")

    def _done(self, journal: _Journal, kind: str, cursor: dict[str, Any]) -> None:
        """A step finished: count it, maybe checkpoint, tell the hook."""
        cursor["n"] += 1
        with self.builder.lock:
            self.builder.steps += 1
        journal.commit(cursor)
        self._event(kind, cursor["n"] - 1, "done")

    def step(
        self,
        kind: str,
        journal: _Journal,
        cursor: dict[str, Any],
        phase: int,
        front: _Frontiers,
        arg: int,
        k: int,
        nxt: _Frontiers | None,
        *,
        every: bool = False,
    ) -> None:
        """Partition ``k``'s part of a round: its frontier sends its updates, batched per
        target partition, applied there (journalled as they are); what they decide goes to ``nxt``
        (or, when None, back to ``front``, for the values of a threshold, where the order does
        not matter). ``every``: the frontier is the partition's every position (the pending
        counts). The state is ``self.arrays``. A partition with nothing to send is no step
        (nothing counted or recorded)."""
        self.level._check_stop()
        value, count, plies, pending = self.arrays
        layout = self.layout
        chunk = self.level.update_cap
        shift = layout.size.bit_length() - 1
        nts = np.array([layout.nodes(t) for t in range(self.parts)], dtype=np.int64)
        positions = (
            np.arange(layout.nodes(k, self.copies), dtype=np.int32) if every else front.take(k)
        )
        if not positions.size:
            return
        ptr, src = self.graph[k]
        n = cursor["n"]
        first_block = True
        for begin in range(0, positions.size, chunk):
            target, payload, first = _expand(
                positions[begin : begin + chunk], ptr, src, value[k], self.copies, shift, nts
            )
            self.builder.rounds += 1
            batches = [
                (t, target[first[t] : first[t + 1]], payload[first[t] : first[t + 1]])
                for t in range(self.parts)
                if first[t] < first[t + 1]
            ]
            for t, y_all, v_all in batches:
                for start in range(0, y_all.size, _STOP_BLOCK):
                    self.level._check_stop()  # a stop here is a kill between two blocks
                    y, v = y_all[start : start + _STOP_BLOCK], v_all[start : start + _STOP_BLOCK]
                    if first_block:
                        self._event(kind, n, "begun")
                    out = np.empty(0 if phase == _PENDING else y.size, dtype=np.int32)
                    words, at, head = journal.sink(t, y.size, decided=phase != _PENDING)
                    found, journal.at = _apply(
                        phase,
                        y,
                        v,
                        arg,
                        value[t],
                        count[t],
                        plies[t],
                        pending[t],
                        out,
                        words,
                        at,
                        head,
                    )
                    if found:
                        (front if nxt is None else nxt).add(t, out[:found])
                    if first_block:
                        self._event(kind, n, "applied")
                        first_block = False
        if first_block:  # no updates at all
            self._event(kind, n, "begun")
            self._event(kind, n, "applied")
        self._done(journal, kind, cursor)

    def values(self) -> None:
        """Each position's value relative to endless play (``_values``'s sweep, in rounds)."""
        front = _Frontiers(self.scratch, f"v{self.g}", self.parts, self.cap)
        journal = _Journal(self, "values", [front], 0)
        fresh = not journal.resumed
        value = [np.asarray(a) for a in self.state("value", np.int8, create=fresh)]
        count = [np.asarray(a) for a in self.state("count", np.uint8, create=fresh)]
        plies = [self.dummy32] * self.parts
        pending = [self.dummy8] * self.parts
        self.arrays = (value, count, plies, pending)
        cursor = journal.begin(value, count)
        if cursor is None:
            top = 0
            for k in range(self.parts):
                self.level._check_stop()
                rel = self.rel(k)
                has = rel[rel != _NO_EXIT_REL]
                if has.size:
                    top = max(top, int(np.abs(has).max()))
            starts = []
            for k in range(self.parts):
                self.level._check_stop()
                rel = self.rel(k)
                _init_values(partition_degree(self.scratch, k), rel, value[k], count[k])
                order, first = _by_exit(rel, top)
                self.scratch.save(self.name("byexit", k), order)
                starts.append(first)
            self.scratch.save(f"byexit-first-{self.g}", np.stack(starts))
            cursor = {"n": 0, "top": top, "s": top, "k": -1}  # k -1: s is not seeded yet
            journal.commit(cursor, force=True)
        top = int(cursor["top"])
        by_value = self.scratch.load(f"byexit-first-{self.g}", np.int64).reshape(self.parts, -1)
        orders = [
            (self.scratch.load(self.name("byexit", k), np.int32), by_value[k])
            for k in range(self.parts)
        ]
        while cursor["s"] > 0:
            s, k = cursor["s"], cursor["k"]
            if k < 0:
                self.level._check_stop()
                self._event("values", cursor["n"], "begun")
                for t, (order, first) in enumerate(orders):
                    self.level._check_stop()
                    wins = first[s + top + 1] - first[s + top]
                    out = np.empty(wins + first[top - s + 1] - first[top - s], dtype=np.int32)
                    words, at, head = journal.sink(t, out.size)
                    found, journal.at = _seed_values(
                        order, first, top, s, value[t], count[t], out, words, at, head
                    )
                    front.add(t, out[:found])
                    if t == 0:
                        self._event("values", cursor["n"], "applied")
                cursor["k"] = 0
                self._done(journal, "values", cursor)
            elif k == 0 and front.empty():
                cursor["s"], cursor["k"] = s - 1, -1
            else:
                cursor["k"] = (k + 1) % self.parts
                self.step("values", journal, cursor, _VALUES, front, s, k, None)
        self.scratch.mark(f"values-{self.g}", *self.state("value", np.int8))
        journal.finish()
        self.scratch.remove(
            *(self.name(a, k) for a in ("count", "byexit") for k in range(self.parts)),
            f"byexit-first-{self.g}",
        )
        self.level.marked(f"values-{self.g}")

    def plies(self) -> None:
        """Plies to leaving the level (``_plies`` then ``_open_draws``, in rounds by ply)."""
        fronts = [
            _Frontiers(self.scratch, f"{kind}{self.g}{half}", self.parts, self.cap // 2)
            for kind in "pd"
            for half in "ab"
        ]
        journal = _Journal(self, "plies", fronts, -1)
        fresh = not journal.resumed
        value = [np.asarray(a) for a in self.state("value", np.int8)]
        plies = [np.asarray(a) for a in self.state("plies", np.int32, create=fresh)]
        pending = [np.asarray(a) for a in self.state("pending", np.uint8, create=fresh)]
        count = [self.dummy8] * self.parts
        self.arrays = (value, count, plies, pending)
        cursor = journal.begin(plies, pending)
        if cursor is None:
            for k in range(self.parts):
                self.level._check_stop()
                rel = self.rel(k)
                out = np.empty(rel.size, dtype=np.int32)
                degree = partition_degree(self.scratch, k)
                found = _init_plies(degree, rel, plies[k], pending[k], out)
                fronts[0].add(k, out[:found])
            cursor = {"n": 0, "stage": _PENDING_COUNTS, "p": 0, "k": 0}
            journal.commit(cursor, force=True)
        while cursor["stage"] != _STORE:
            stage, p, k = cursor["stage"], cursor["p"], cursor["k"]
            if stage == _PENDING_COUNTS:
                if k < self.parts:
                    cursor["k"] = k + 1
                    self.step("plies", journal, cursor, _PENDING, fronts[0], 0, k, None, every=True)
                    continue
                self.seed_plies(journal, cursor, fronts[1])
            elif stage == _PLY_ROUNDS:
                front, nxt = (fronts[0], fronts[1]) if p % 2 == 0 else (fronts[1], fronts[0])
                if k == 0 and front.empty() and nxt.empty():
                    cursor.update(stage=_DRAW_SEEDS, p=0, k=0)
                    continue
                cursor.update(p=p + (k + 1) // self.parts, k=(k + 1) % self.parts)
                self.step("plies", journal, cursor, _PLIES, front, p, k, nxt)
            elif stage == _DRAW_SEEDS:
                self.seed_draws(journal, cursor, fronts[3])
            else:
                front, nxt = (fronts[2], fronts[3]) if p % 2 == 0 else (fronts[3], fronts[2])
                top = cursor["top"]
                if k == 0 and not (p <= top or not (front.empty() and nxt.empty())):
                    cursor.update(stage=_STORE)
                    continue
                if k == 0 and p <= top:  # the draws settled at ply p join the frontier
                    self.settled(front, p)
                cursor.update(p=p + (k + 1) // self.parts, k=(k + 1) % self.parts)
                self.step("plies", journal, cursor, _DRAWS, front, p, k, nxt)
        for k in range(self.parts):
            store_group(
                self.scratch,
                self.group,
                k,
                value[k],
                plies[k],
                self.level.values,
                self.level.distances,
            )
        self.scratch.mark(f"plies-{self.g}", self.level.values, self.level.distances)
        journal.finish()
        self.scratch.remove(
            *(
                self.name(a, k)
                for a in ("value", "plies", "pending", "settled")
                for k in range(self.parts)
            ),
            f"settled-first-{self.g}",
        )
        self.level.marked(f"plies-{self.g}")

    def settled(self, front: _Frontiers, p: int) -> None:
        """The draws that had ``p`` plies before the open draws' rounds, into ``front``."""
        firsts = self.scratch.load(f"settled-first-{self.g}", np.int64).reshape(self.parts, -1)
        for t in range(self.parts):
            order = self.scratch.load(self.name("settled", t), np.int32)
            front.add(t, order[firsts[t][p] : firsts[t][p + 1]])

    def seed_partitions(
        self,
        journal: _Journal,
        cursor: dict[str, Any],
        nxt: _Frontiers,
        seed: Callable[..., tuple[int, int]],
    ) -> None:
        """The seeds of a stage of the plies pass, one partition at a time into ``nxt``:
        ``seed(t, rel, out, words, at, head)`` is the kernel call that puts partition ``t``'s
        (its exits ``rel``) in ``out``, journalled from ``at`` in ``words``."""
        self._event("plies", cursor["n"], "begun")
        for t in range(self.parts):
            self.level._check_stop()
            rel = self.rel(t)
            out = np.empty(rel.size, dtype=np.int32)
            words, at, head = journal.sink(t, rel.size)
            found, journal.at = seed(t, rel, out, words, at, head)
            nxt.add(t, out[:found])
            if t == 0:
                self._event("plies", cursor["n"], "applied")

    def seed_plies(self, journal: _Journal, cursor: dict[str, Any], nxt: _Frontiers) -> None:
        """Before the plies' rounds (``_plies``): the positions whose exit keeps their value,
        one ply from leaving the level."""
        value, _, plies, pending = self.arrays
        self.seed_partitions(
            journal,
            cursor,
            nxt,
            lambda t, rel, *out: _seed_plies(rel, value[t], pending[t], plies[t], *out),
        )
        cursor.update(stage=_PLY_ROUNDS, p=0, k=0)
        self._done(journal, "plies", cursor)

    def seed_draws(self, journal: _Journal, cursor: dict[str, Any], nxt: _Frontiers) -> None:
        """Before the open draws' rounds (``_open_draws``): the draws settled so far by ply,
        and the open draws with an exit worth a draw (1 ply)."""
        self.level._check_stop()
        value, _, plies, pending = self.arrays
        opened = sum(
            int(np.count_nonzero((p == -1) & (v == 0))) for v, p in zip(value, plies, strict=True)
        )
        if not opened:
            cursor.update(stage=_STORE)
            return
        top = max((int(p.max()) for p in plies if p.size), default=0)
        firsts = []
        for k in range(self.parts):
            order, first = _settled_draws(value[k], plies[k], top)
            self.scratch.save(self.name("settled", k), order)
            firsts.append(first)
        self.scratch.save(f"settled-first-{self.g}", np.stack(firsts))
        self.seed_partitions(
            journal,
            cursor,
            nxt,
            lambda t, rel, *out: _seed_draws(rel, value[t], plies[t], pending[t], *out),
        )
        cursor.update(stage=_DRAW_ROUNDS, p=0, k=0, top=top)
        self._done(journal, "plies", cursor)


def _wait_all(futures: list[Future[None]]) -> None:
    """Wait in short steps (so Ctrl-C is seen at once), raising the first failure."""
    pending = set(futures)
    while pending:
        done, pending = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
        for f in done:
            f.result()
