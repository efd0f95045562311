"""Building Ayòayò tablebases level by level: moves in parallel, then retrograde analysis.

Assumes the layout of :mod:`games.ayoayo.tablebase_index` and the files of
:mod:`games.ayoayo.tablebase_files`. Level ``n`` is built from the levels below it, which are
read from their files and never recomputed:

1. The moves of every board (:func:`games.ayoayo.tablebase_moves.level_moves`, or a faster
   function with the same contract, a kernel's ``moves``), in blocks of board ranks mapped over a
   ``concurrent.futures`` executor (the blocks are independent; results come back in order).
2. Per split, the value of each move that leaves the level, from the mover's view: a move that
   captures (or sweeps) is worth ``-value`` of the lower position it reaches, or the final score
   ``mover's captured - opponent's captured`` when the game is then over (the board is empty or
   a player has more than 24). Only the best of them per position matters.
3. The moves that stay in the level (no seed captured) link split ``cm`` to the split whose
   mover has ``48 - n - cm`` (the opponent moves next, the captured counts unchanged), so the
   level falls into independent groups of one or two splits, each solved by
   :func:`solver.retrograde.solve_graph` with endless play scored ``cm - co`` (no capture can
   happen inside a cycle) and positions without a move scored the same (the game is over and
   only captured seeds count).
4. The level is written atomically, its distances first, then its values: a level whose values
   file exists is complete and is skipped, so an interrupted build resumes at the first missing
   level, and a half-built level is never used.

Steps 1-3 are the three functions of a :class:`LevelKernel`: :data:`PURE` (this module's
:func:`gather` and :func:`solve`, moves through the rules) or the compiled
:data:`games.ayoayo.native_tablebase.KERNEL`, which writes the same bytes in a fraction of the
time and memory. Before each level is built, its memory need (the kernel's measured bytes a
board) is checked against the memory this process may still allocate.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as d:
...     [(r.seeds, r.positions, r.built) for r in build(4, d)]
[(0, 1, 1), (4, 2730, 1)]
"""

from __future__ import annotations

import contextlib
import fcntl
import importlib.util
import math
import os
import shutil
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Final

import attrs
import numpy as np
import numpy.typing as npt

from games.ayoayo.board import CELLS, TOTAL_SEEDS, WIN_THRESHOLD
from games.ayoayo.tablebase_files import (
    DISTANCES,
    HEADER_SIZE,
    NO_DISTANCE,
    TablebaseFileError,
    level_path,
    read_build_record,
    read_level,
    verified_header,
    write_build_record,
    write_tables,
)
from games.ayoayo.tablebase_index import (
    board_count,
    level_size,
    levels_up_to,
    splits,
)
from games.ayoayo.tablebase_moves import LevelMoves, level_moves
from games.ayoayo.tablebase_partitions import OutOfCoreBuilder
from solver.errors import GameError
from solver.resources import available_memory, size_text
from solver.retrograde import ENDLESS, solve_graph
from solver.workers import Mapper

__all__ = [
    "BLOCK",
    "NO_EXIT",
    "PURE",
    "LevelKernel",
    "LevelReport",
    "LevelTooLargeError",
    "MovesFunction",
    "available_memory",
    "build",
    "build_level",
    "check_disk",
    "check_memory",
    "endless_values",
    "gather",
    "memory_needed",
    "recorded_seconds",
    "solve",
]

LOCK: Final = ".ayoayo-build.lock"
"""The file a build holds locked in its directory (one build at a time)."""

BLOCK: Final = 1 << 13
"""Boards per block handed to a worker (small enough that Ctrl-C waits well under a second
for the blocks being worked on)."""

MovesFunction = Callable[[int, int, int], LevelMoves]
"""``moves(seeds, start, stop)``: the contract of :func:`level_moves`."""

NO_EXIT: Final = -128
"""``best_exit`` of a position without a move that leaves the level."""


@attrs.frozen
class LevelReport:
    """What :func:`build` did for one level.

    Attributes:
        seeds: the level.
        positions: positions stored (boards times splits).
        built: 1 if built now, 0 if its file was already there.
        seconds: the build time (now, or as recorded beside the file; None if unknown).
        path: the level's file.
    """

    seeds: int
    positions: int
    built: int
    seconds: float | None
    path: Path


def build(
    up_to: int,
    directory: str | os.PathLike[str],
    *,
    executor: Mapper | None = None,
    kernel: LevelKernel | None = None,
    block: int = BLOCK,
    progress: Callable[[str], None] | None = None,
    out_of_core: OutOfCoreBuilder | None = None,
) -> list[LevelReport]:
    """Build every missing level up to ``up_to`` seeds in ``directory``, smallest first.

    Args:
        up_to: the largest level, a multiple of 4 (0..48).
        directory: where the level files are (created if needed).
        executor: maps the blocks of moves (e.g. a ``ProcessPoolExecutor``); None: in this
            process.
        kernel: how levels are built (:data:`PURE`, the default, or a compiled kernel with
            the same contracts, which gives the same bytes).
        block: boards per block.
        progress: called with a line of text as each level starts and ends.
        out_of_core: builds each level in partitions on disk instead
            (:class:`games.ayoayo.native_partitions.PartitionedBuilder`: the same bytes, in
            a memory budget); its scratch disk is checked instead of the memory.

    Returns:
        A :class:`LevelReport` per level, smallest first.

    Raises:
        ValueError: ``up_to`` is not a level.
        LevelTooLargeError: building a missing level would need more memory than this process
            has available (:func:`check_memory`, before each level is started).
    """
    kernel = kernel or PURE
    with _building(Path(directory)):
        return _build(up_to, Path(directory), executor, kernel, block, progress, out_of_core)


@contextlib.contextmanager
def _building(directory: Path) -> Iterator[None]:
    """Hold the directory's build lock (one build at a time), after checking that it can be
    written; then remove the temporary files a killed build left."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        lock = os.open(directory / LOCK, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise TablebaseFileError(
            f"cannot build in {str(directory)!r}: {e.strerror}; give a writable --dir"
        ) from None
    try:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise TablebaseFileError(
                f"another build is running in {str(directory)!r}; wait for it to finish"
            ) from None
        for stale in directory.glob(".tmp-ayoayo-*"):
            with contextlib.suppress(OSError):
                stale.unlink()
        yield
    finally:
        os.close(lock)


SIDE_FILES: Final = 64 << 10
"""Disk a level takes besides its two arrays: its build record, the checksums and block
checksums, and each file's last partly used block."""


def _compiled_hint() -> str:
    """How to get the compiled builder: install numba, or let it load (a memory limit)."""
    if importlib.util.find_spec("numba") is None:
        return "install the fast extra"
    return "give it room for the compiled kernel, which could not be loaded"


def check_disk(directory: Path, seeds: int) -> None:
    """Refuse to start level ``seeds`` if its files would not fit on the disk.

    Raises:
        TablebaseFileError: naming the directory, the bytes needed and the bytes free.
    """
    need = 3 * level_size(seeds) + 2 * HEADER_SIZE + SIDE_FILES  # 1 byte of value, 2 of distance
    try:
        free = shutil.disk_usage(directory).free
    except OSError:
        return
    if need > free:
        raise TablebaseFileError(
            f"no space left in {str(directory)!r} for level {seeds}: it needs "
            f"{size_text(need)} and {size_text(free)} is free; free some space or give another "
            "--dir"
        )


def _build(
    up_to: int,
    directory: Path,
    executor: Mapper | None,
    kernel: LevelKernel,
    block: int,
    progress: Callable[[str], None] | None,
    out_of_core: OutOfCoreBuilder | None,
) -> list[LevelReport]:
    if out_of_core is not None:  # the largest level's scratch must fit: refused before any work
        out_of_core.check(n for n in levels_up_to(up_to) if not level_path(directory, n).exists())
    reports = []
    lower: dict[int, npt.NDArray[np.int8]] = {}
    built_on = 0  # the lineage of the level below, as read or written
    for seeds in levels_up_to(up_to):
        path = level_path(directory, seeds)
        try:
            header = verified_header(directory, seeds)
            verified_header(directory, seeds, DISTANCES)
            existing = read_level(path, seeds=seeds)
        except TablebaseFileError as refused:
            existing = None
            if progress and os.path.lexists(path):
                progress(f"level {seeds:2d}: refused, so rebuilt: {refused}")
        if existing is not None:
            lower[seeds] = existing.values
            built_on = header.chain
            seconds = read_build_record(directory, seeds).get("seconds")
            reports.append(
                LevelReport(
                    seeds,
                    level_size(seeds),
                    0,
                    recorded_seconds(seconds),
                    existing.path,
                )
            )
            if progress:
                progress(f"level {seeds:2d}: present ({_positions(seeds)})")
            continue
        if out_of_core is None:
            check_memory(seeds, kernel)
        else:  # its memory is its budget; its scratch disk is what must fit
            out_of_core.check([seeds])
        check_disk(directory, seeds)
        if progress:
            progress(f"level {seeds:2d}: building {_positions(seeds)} ...")
        began = time.perf_counter()
        phases: dict[str, float] = {}
        if out_of_core is None:
            values, distances = build_level(
                seeds, lower, executor=executor, kernel=kernel, block=block, phases=phases
            )
        else:
            values, distances = out_of_core(seeds, lower, executor=executor, phases=phases)
        seconds = time.perf_counter() - began
        write_tables(directory, seeds, values, distances, built_on=built_on)
        write_build_record(
            directory,
            seeds,
            seconds=round(seconds, 3),
            phases={k: round(v, 3) for k, v in phases.items()},
            moves=_name(kernel.moves),
            solve=_name(kernel.solve if out_of_core is None else out_of_core),
            executor=_name(executor),
        )
        if out_of_core is not None:
            del values, distances
            out_of_core.finish(seeds)
        written = read_level(path, seeds=seeds)
        assert written.header is not None
        lower[seeds] = written.values
        built_on = written.header.chain
        reports.append(LevelReport(seeds, level_size(seeds), 1, seconds, path))
        if progress:
            progress(f"level {seeds:2d}: built in {seconds:.1f} s")
    return reports


def recorded_seconds(recorded: object) -> float | None:
    """A build time read from a record: a finite number of seconds, else None."""
    if isinstance(recorded, bool) or not isinstance(recorded, (int, float)):
        return None
    return float(recorded) if math.isfinite(recorded) and recorded >= 0 else None


def build_level(
    seeds: int,
    lower: Mapping[int, npt.NDArray[np.int8]],
    *,
    executor: Mapper | None = None,
    kernel: LevelKernel | None = None,
    block: int = BLOCK,
    phases: dict[str, float] | None = None,
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.uint16]]:
    """The ``(splits, boards)`` values and distances of level ``seeds``, given the levels below.

    A distance is the plies, under optimal play, until a move leaves the level (a capture or
    the end of the game): 1 for a position whose best move captures, 0 for one without moves,
    :data:`NO_DISTANCE` where optimal play stays in the level for ever.

    ``phases``, if given, receives the seconds spent on ``"moves"`` (generating them and
    valuing the exits) and ``"solve"`` (the retrograde analysis).

    Raises:
        KeyError: a lower level that a capture reaches is missing from ``lower``.
    """
    kernel = kernel or PURE
    began = time.perf_counter()
    boards = board_count(seeds)
    best_exit = np.full((len(splits(seeds)), boards), NO_EXIT, dtype=np.int8)
    stay = np.empty((boards, CELLS), dtype=np.int32)
    parts = _map_blocks(seeds, boards, executor, kernel.moves, block)
    kernel.gather(seeds, lower, parts, stay, best_exit)
    values = np.zeros(best_exit.shape, dtype=np.int8)
    distances = np.zeros(best_exit.shape, dtype=np.uint16)
    solving = time.perf_counter()
    kernel.solve(seeds, _split_groups(seeds), stay, best_exit, values, distances)
    if phases is not None:
        phases["moves"] = solving - began
        phases["solve"] = time.perf_counter() - solving
    return values, distances


def gather(
    seeds: int,
    lower: Mapping[int, npt.NDArray[np.int8]],
    parts: Iterable[LevelMoves],
    stay: npt.NDArray[np.int32],
    best_exit: npt.NDArray[np.int8],
) -> None:
    """Keep the moves of ``parts`` that stay in the level, and each split's best exit.

    ``stay[board, cell]`` becomes the child's rank for a move without a capture, -1 for any
    other; ``best_exit[split, board]`` (filled with -128 beforehand: no exit) the best value,
    for the mover, of a move that captures or ends the game.

    Raises:
        KeyError: a lower level that a capture reaches is missing from ``lower``.
    """
    cms = splits(seeds)
    rest = TOTAL_SEEDS - seeds
    for part in parts:
        legal = part.child >= 0
        stays = legal & (part.gain_mover == 0) & (part.gain_opponent == 0)
        stay[part.start : part.stop] = np.where(stays, part.child, -1)
        rows, cols = np.nonzero(legal & ~stays)
        gm = part.gain_mover[rows, cols].astype(np.int64)
        go = part.gain_opponent[rows, cols].astype(np.int64)
        child = part.child[rows, cols]
        where = rows + part.start
        for s, cm in enumerate(cms):
            value = _exit_values(seeds, cm + gm, rest - cm + go, child, lower)
            np.maximum.at(best_exit[s], where, value)


def solve(
    seeds: int,
    groups: Sequence[tuple[int, ...]],
    stay: npt.NDArray[np.int32],
    best_exit: npt.NDArray[np.int8],
    values: npt.NDArray[np.int8],
    distances: npt.NDArray[np.uint16],
) -> None:
    """Solve each group of splits by :func:`solver.retrograde.solve_graph` into the arrays."""
    source, cell = np.nonzero(stay >= 0)
    target = stay[source, cell].astype(np.int64)
    for group in groups:
        _solve_group(group, seeds, source, target, best_exit, values, distances)


@attrs.frozen
class LevelKernel:
    """How a level is built: three functions with the contracts of this module's own.

    Attributes:
        moves: ``moves(seeds, start, stop)``, mapped over the executor (:func:`level_moves`).
        gather: ``gather(seeds, lower, parts, stay, best_exit)``, in this process
            (:func:`gather`).
        solve: ``solve(seeds, groups, stay, best_exit, values, distances)`` (:func:`solve`).
        bytes_per_board: the peak memory of a level's build per board, measured (it decides
            whether a level fits before it is started).
    """

    moves: MovesFunction
    gather: Callable[..., None]
    solve: Callable[..., None]
    bytes_per_board: int


PURE: Final = LevelKernel(level_moves, gather, solve, bytes_per_board=900)
"""The readable builder: moves through the rules, numpy, :func:`solver.retrograde.solve_graph`
(peak memory: about 860 bytes a board at level 12)."""


class LevelTooLargeError(GameError, MemoryError):
    """Building a level would need more memory than the machine has available."""


def memory_needed(seeds: int, kernel: LevelKernel) -> int:
    """About how many bytes building level ``seeds`` takes with ``kernel`` (measured peaks)."""
    return kernel.bytes_per_board * board_count(seeds)


def check_memory(seeds: int, kernel: LevelKernel) -> None:
    """Refuse to start level ``seeds`` if its build would not fit in the memory this process
    may still allocate (:func:`solver.resources.available_memory`: the machine's, a cgroup's
    limit, ``ulimit -v``); run before every level built.

    Raises:
        LevelTooLargeError: naming the level, the memory it needs and the memory available.
    """
    have = available_memory()
    need = memory_needed(seeds, kernel)
    if have is None or need <= have:
        return
    fits = [n for n in levels_up_to(seeds) if memory_needed(n, kernel) <= have]
    raise LevelTooLargeError(
        f"level {seeds} needs about {need / 1e9:.2f} GB of memory to build and "
        f"{have / 1e9:.2f} GB is available (the least of the machine's, the cgroup's and "
        f"ulimit -v); build up to --seeds {fits[-1] if fits else 0} here"
        + ("" if kernel is not PURE else f", or {_compiled_hint()} (a tenth of the memory)")
    )


def _positions(seeds: int) -> str:
    size = level_size(seeds)
    return f"{size:,} position{'' if size == 1 else 's'}"


def _name(thing: object) -> str:
    """A short name for the moves function or executor of a build record."""
    if thing is None:
        return "none"
    kind = thing if callable(thing) and hasattr(thing, "__qualname__") else type(thing)
    return f"{getattr(kind, '__module__', '?')}.{getattr(kind, '__qualname__', repr(kind))}"


def _map_blocks(
    seeds: int, boards: int, executor: Mapper | None, moves: MovesFunction, block: int
) -> Iterator[LevelMoves]:
    starts = list(range(0, boards, block))
    stops = [min(s + block, boards) for s in starts]
    levels = [seeds] * len(starts)
    if executor is None:
        return map(moves, levels, starts, stops)
    return executor.map(moves, levels, starts, stops)


def _exit_values(
    seeds: int,
    mover: npt.NDArray[np.int64],
    opponent: npt.NDArray[np.int64],
    child: npt.NDArray[np.int64],
    lower: Mapping[int, npt.NDArray[np.int8]],
) -> npt.NDArray[np.int8]:
    """The mover's value of moves leaving the level, given both captured counts after them."""
    value = mover - opponent  # the final score where the game is over
    left = seeds - (mover + opponent - (TOTAL_SEEDS - seeds))
    on = (left > 0) & (mover <= WIN_THRESHOLD) & (opponent <= WIN_THRESHOLD)
    for n in np.unique(left[on]).tolist():
        pick = np.flatnonzero(on & (left == n))
        # the opponent moves next: its split is its own captured count
        first = splits(n)[0]
        value[pick] = -lower[n][(opponent[pick] - first) // 4, child[pick]].astype(np.int64)
    return value.astype(np.int8)


def _split_groups(seeds: int) -> list[tuple[int, ...]]:
    """The split indices whose positions reach each other without a capture: {cm, 48-n-cm}."""
    cms = splits(seeds)
    rest = TOTAL_SEEDS - seeds
    groups: list[tuple[int, ...]] = []
    for s, cm in enumerate(cms):
        mirror = cms.index(rest - cm)
        if s <= mirror:
            groups.append((s,) if s == mirror else (s, mirror))
    return groups


def endless_values(seeds: int, group: Sequence[int]) -> list[int]:
    """Each split's endless value for its mover, ``cm - co``: the score of play that stays in
    the level for ever (no capture can happen inside a cycle).

    >>> endless_values(8, (0, 2))  # splits 16 and 24 of the 40 captured seeds
    [-8, 8]
    """
    cms = splits(seeds)
    rest = TOTAL_SEEDS - seeds
    return [cms[s] - (rest - cms[s]) for s in group]


def _solve_group(
    group: tuple[int, ...],
    seeds: int,
    source: npt.NDArray[np.int64],
    target: npt.NDArray[np.int64],
    best_exit: npt.NDArray[np.int8],
    values: npt.NDArray[np.int8],
    distances: npt.NDArray[np.uint16],
) -> None:
    """Solve the positions of one or two mirrored splits by retrograde analysis.

    The graph is handed over relative to endless play: a position's value minus its endless
    value ``cm - co`` (which flips sign with each move inside the level, as values do), so
    endless play scores 0 everywhere. The values are the same; the plies the core counts then
    mean what a player needs: a position better than endless play for its mover takes the
    quickest way out of the level, one worse the slowest, so following the shorter distances
    makes progress.
    """
    boards = best_exit.shape[1]
    degree = np.bincount(source, minlength=boards)
    indptr_one = np.zeros(boards + 1, dtype=np.int64)
    np.cumsum(degree, out=indptr_one[1:])
    if len(group) == 1:
        indptr = indptr_one
        targets = target
    else:  # nodes: the first split's boards, then the second's; a move crosses over
        indptr = np.concatenate([indptr_one, indptr_one[1:] + len(target)])
        targets = np.concatenate([target + boards, target])
    endless = np.repeat(endless_values(seeds, group), boards)
    exits = np.concatenate([best_exit[s] for s in group]).astype(np.int64)
    has_exit = exits != NO_EXIT
    exit_indptr = np.zeros(len(exits) + 1, dtype=np.int64)
    np.cumsum(has_exit, out=exit_indptr[1:])
    result = solve_graph(
        indptr,
        targets,
        np.zeros(len(endless)),
        exit_indptr=exit_indptr,
        exit_values=(exits - endless)[has_exit],
        terminal_values=np.zeros(len(endless)),
    )
    solved = (np.rint(result.value).astype(np.int64) + endless).reshape(len(group), boards)
    plies = np.where(
        result.plies == ENDLESS, NO_DISTANCE, np.minimum(result.plies, NO_DISTANCE - 1)
    )
    plies = plies.reshape(len(group), boards)
    for i, s in enumerate(group):
        values[s] = solved[i]
        distances[s] = plies[i]
