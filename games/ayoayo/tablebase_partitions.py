"""A tablebase level cut into partitions on disk: the layout, the scratch files, resuming.

Assumes the layout of :mod:`games.ayoayo.tablebase_index`: a level is ``splits x boards``
positions; its moves that stay in the level link split ``cm`` to split ``48 - n - cm``. The
out-of-core builder (:mod:`games.ayoayo.native_partitions`) cuts the boards into partitions
of consecutive ranks, all the same size but the last, and keeps every array of a partition in
its own file under a scratch directory:

- per partition ``k``: ``stay`` (the moves that stay in the level, int32, ``(boards, 6)``),
  ``exit`` (the best exit of each split, int8), ``rptr``/``rsrc`` (the same moves reversed:
  a CSR of the predecessors of its boards), then ``degree`` (each board's number of moves,
  uint8: all the solve needs of ``stay``, which is removed once the reversed moves are built);
- per group of splits and partition: the solve's state (``value``, ``count``, ``plies``,
  ``pending``, ``byexit``), files of the frontiers of a round;
- the level's values and distances, ``(splits, boards)`` files that each partition fills its
  columns of, then handed to :func:`games.ayoayo.tablebase_files.write_level`.

Only one partition's arrays (and a bounded batch of updates) are worked on at a time, so the
memory a build needs is set by the partition size, not by the level. Each finished step (a
partition's moves, a partition's reversed moves, a group's values, a group's plies) is marked
by a file written atomically after its arrays are flushed, so a build killed at any moment
resumes at the first unmarked step; a step's files are rewritten from the start when it runs.
Inside a group's values or plies pass, the builder also records checkpoints between rounds
(:meth:`Scratch.note`: a small record renamed into place, not synced to the disk, so it holds
against a killed process, and is trusted only on the boot it was written in, see
:func:`boot_id`).

>>> layout = PartitionLayout(8, board_count(8), 1 << 13)
>>> layout.parts, layout.bounds(9), layout.nodes(9, copies=2)
(10, (73728, 75582), 3708)
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final, Protocol

import attrs
import numpy as np
import numpy.typing as npt

from games.ayoayo.tablebase_files import write_atomically
from games.ayoayo.tablebase_index import board_count, splits
from solver.errors import GameError
from solver.resources import parse_size, size_text

__all__ = [
    "FRONTIER_BYTES_PER_BOARD",
    "MEMORY_BYTES_PER_PARTITION_BOARD",
    "MIN_PARTITION",
    "SOLVE_BYTES_PER_POSITION",
    "SOLVE_SPLITS_AT_ONCE",
    "STAY_MOVES_PER_BOARD",
    "OutOfCoreBuilder",
    "PartitionLayout",
    "Scratch",
    "ScratchTooLargeError",
    "boot_id",
    "check_disk",
    "disk_needed",
    "free_disk",
    "layout_for",
    "parse_size",
    "remove_scratch",
    "scratch_directory",
    "scratch_phases",
]

MEMORY_BYTES_PER_PARTITION_BOARD: Final = 200
"""Memory a partition's board takes while it is worked on: its moves both ways (about 60
bytes), a group's solve state for both copies (22), the batches of updates and frontiers, and
two groups at once on two threads. The partition size is the memory budget divided by this."""

STAY_MOVES_PER_BOARD: Final = 2.7
"""Moves a board has that stay in its level, on average: they set the size of the spill and of
the predecessor lists. Measured by ``benchmarks/tablebase_sample.py`` on seeded partitions:
2.68 at level 16, 1.92 at level 24, 1.70 at level 28 (1.26 to 3.06 a partition); the disk
check takes about the largest, so it errs on the side of room (33.3 GB predicted at level 24,
26.3 GB measured)."""

SOLVE_BYTES_PER_POSITION: Final = 6
"""A group's solve state a position, in its plies pass (value 1, plies 4, pending 1; the
values pass needs less)."""

SOLVE_SPLITS_AT_ONCE: Final = 4
"""Splits whose solve state is on disk at once: two groups (two threads) of at most two."""

FRONTIER_BYTES_PER_BOARD: Final = 8
"""Frontier files and the undo journal, a board of the level (measured at level 24: 3.3 GB
of frontiers and 3.1 GB of journal at their peak, about 15 bytes a board, with the journal
before it was kept from checkpoint to checkpoint; now some 8)."""

MIN_PARTITION: Final = 1 << 10
"""The smallest partition (boards) a memory budget may give."""


class ScratchTooLargeError(GameError, OSError):
    """The scratch files of a level would not fit on the disk they go to."""


class OutOfCoreBuilder(Protocol):
    """What :func:`games.ayoayo.tablebase_build.build` calls to build a level out of core."""

    def check(self, missing: Iterable[int]) -> None:
        """Raise if the largest of the ``missing`` levels cannot be built (disk space)."""
        ...

    def __call__(
        self,
        seeds: int,
        lower: Mapping[int, npt.NDArray[np.int8]],
        *,
        executor: Any = None,
        phases: dict[str, float] | None = None,
    ) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.uint16]]:
        """The level's ``(splits, boards)`` values and distances (memory-mapped files)."""
        ...

    def finish(self, seeds: int) -> None:
        """Remove the level's scratch files, once its level files are written."""
        ...


@attrs.frozen
class PartitionLayout:
    """Level ``seeds`` cut into partitions of ``size`` consecutive board ranks.

    ``size`` is a power of two, so a board's partition is a shift of its rank.
    """

    seeds: int
    boards: int
    size: int = attrs.field()

    @size.validator
    def _power_of_two(self, _: object, size: int) -> None:
        if size < 1 or size & (size - 1):
            raise ValueError(f"a partition size must be a power of two, got {size!r}")

    @property
    def parts(self) -> int:
        """How many partitions."""
        return -(-self.boards // self.size)

    def bounds(self, k: int) -> tuple[int, int]:
        """The board ranks ``lo .. hi - 1`` of partition ``k``."""
        lo = k * self.size
        return lo, min(lo + self.size, self.boards)

    def nodes(self, k: int, copies: int = 1) -> int:
        """Positions of partition ``k`` in a group of ``copies`` splits."""
        lo, hi = self.bounds(k)
        return copies * (hi - lo)


def layout_for(seeds: int, memory: int) -> PartitionLayout:
    """The partitions of level ``seeds`` whose work fits in ``memory`` bytes.

    >>> layout_for(16, 2 * 10**9).parts, layout_for(4, 2 * 10**9).parts
    (2, 1)
    """
    boards = board_count(seeds)
    size = max(MIN_PARTITION, memory // MEMORY_BYTES_PER_PARTITION_BOARD)
    if size >= boards:  # one partition: the level's boards rounded up to a power of two
        return PartitionLayout(seeds, boards, 1 << (boards - 1).bit_length())
    return PartitionLayout(seeds, boards, 1 << (size.bit_length() - 1))


def scratch_phases(seeds: int, moves: float = STAY_MOVES_PER_BOARD) -> dict[str, int]:
    """Scratch bytes of level ``seeds`` at the peak of each phase of its build, for ``moves``
    moves a board that stay in the level: ``"moves"`` (the moves' table, 24 bytes a board, and
    the best exits, a byte a position, with the spill of the reversed moves, 8 bytes a move),
    and ``"solve"`` (the exits, the move counts, the predecessor lists, 8 bytes a board and 4
    a move, the level's values and distances, 3 bytes a position, the solve state of the splits
    solved at once, the frontiers and the journal).

    >>> {k: round(v / 1e9, 1) for k, v in scratch_phases(24).items()}
    {'moves': 21.9, 'solve': 33.3}
    """
    boards, positions = board_count(seeds), board_count(seeds) * len(splits(seeds))
    at_once = min(len(splits(seeds)), SOLVE_SPLITS_AT_ONCE) * boards
    return {
        "moves": round(24 * boards + positions + 8 * moves * boards),
        "solve": round(
            positions
            + boards
            + 8 * boards
            + 4 * moves * boards
            + 3 * positions
            + SOLVE_BYTES_PER_POSITION * at_once
            + FRONTIER_BYTES_PER_BOARD * boards
        ),
    }


def disk_needed(seeds: int) -> int:
    """Scratch bytes of level ``seeds`` at the peak of its build (besides its level files,
    written at the end, which the scratch's values and distances are copied to).

    >>> round(disk_needed(24) / 1e9, 1)
    33.3
    """
    return max(scratch_phases(seeds).values())


def free_disk(path: Path) -> int:
    """Bytes free for this user on the file system of ``path`` (or its nearest parent)."""
    while not path.exists() and path != path.parent:
        path = path.parent
    return shutil.disk_usage(path).free


class Scratch:
    """The scratch directory of one level's out-of-core build: arrays, marks and layout.

    A directory whose recorded layout differs from ``layout`` (another memory budget) is
    emptied: its partial work belongs to other partitions.
    """

    def __init__(self, directory: Path, layout: PartitionLayout) -> None:
        self.directory = directory
        self.layout = layout
        record = directory / "layout.json"
        wanted = {"seeds": layout.seeds, "boards": layout.boards, "size": layout.size}
        try:
            found = json.loads(record.read_text())
        except (OSError, ValueError):
            found = None
        if found != wanted:
            if directory.exists():
                shutil.rmtree(directory)
            directory.mkdir(parents=True)
            write_atomically(record, [json.dumps(wanted).encode()])

    @classmethod
    def attach(cls, directory: Path, layout: PartitionLayout) -> Scratch:
        """The scratch directory of ``layout`` another process set up (on a cluster's
        worker): neither checked nor emptied."""
        scratch = cls.__new__(cls)
        scratch.directory = directory
        scratch.layout = layout
        return scratch

    @property
    def resumed(self) -> list[str]:
        """The steps already done (by an earlier, interrupted build)."""
        return sorted(p.name[:-5] for p in self.directory.glob("*.done"))

    def done(self, step: str) -> bool:
        """Whether ``step`` was finished (its files are complete)."""
        return (self.directory / f"{step}.done").exists()

    def mark(self, step: str, *arrays: npt.NDArray[Any]) -> None:
        """Flush ``arrays`` (memory maps) to disk, then mark ``step`` done, atomically."""
        for array in arrays:
            if isinstance(array, np.memmap):
                array.flush()
        write_atomically(self.directory / f"{step}.done", [b"done\n"])

    def note(self, name: str, record: Mapping[str, Any]) -> None:
        """Replace the record ``name`` (JSON) at once, by a rename: a reader sees the old
        record or the new one. Not synced to the disk: it outlives the process that writes
        it, not the machine (pair it with :func:`boot_id`)."""
        target = self.directory / f"{name}.json"
        temporary = self.directory / f"{name}.json.tmp"
        temporary.write_text(json.dumps(record))
        os.replace(temporary, target)

    def recall(self, name: str) -> dict[str, Any] | None:
        """The record ``name`` written by :meth:`note` (None if there is none)."""
        try:
            found = json.loads((self.directory / f"{name}.json").read_text())
        except (OSError, ValueError):
            return None
        return found if isinstance(found, dict) else None

    def forget(self, name: str) -> None:
        """Delete the record ``name`` (if any)."""
        (self.directory / f"{name}.json").unlink(missing_ok=True)

    def path(self, name: str) -> Path:
        """The file of array ``name`` (e.g. ``"stay-3"``)."""
        return self.directory / f"{name}.bin"

    def create(self, name: str, dtype: Any, shape: tuple[int, ...]) -> npt.NDArray[Any]:
        """A new zeroed file-backed array (any old one replaced)."""
        path = self.path(name)
        path.unlink(missing_ok=True)
        if 0 in shape:
            return np.zeros(shape, dtype=dtype)
        return np.memmap(path, dtype=dtype, mode="w+", shape=shape)

    def open(self, name: str, dtype: Any, shape: tuple[int, ...], *, write: bool = False) -> Any:
        """An existing file-backed array (read-only unless ``write``)."""
        if 0 in shape:
            return np.zeros(shape, dtype=dtype)
        return np.memmap(self.path(name), dtype=dtype, mode="r+" if write else "r", shape=shape)

    def save(self, name: str, array: npt.NDArray[Any]) -> None:
        """Write a whole array atomically (its length read back by :meth:`load`)."""
        write_atomically(self.path(name), [np.ascontiguousarray(array).reshape(-1).data])

    def load(self, name: str, dtype: Any) -> npt.NDArray[Any]:
        """An array written by :meth:`save`, memory-mapped read-only (empty if nothing was
        written: read-only too, so a kernel sees one type of array either way)."""
        path = self.path(name)
        if not path.exists() or path.stat().st_size == 0:
            empty = np.zeros(0, dtype=dtype)
            empty.flags.writeable = False
            return empty
        return np.memmap(path, dtype=dtype, mode="r")

    def remove(self, *names: str) -> None:
        """Delete the files of arrays ``names`` (missing ones are fine)."""
        for name in names:
            self.path(name).unlink(missing_ok=True)


def boot_id() -> str | None:
    """What tells this boot of the machine from the others (Linux), or None elsewhere.

    A record written without syncing (a checkpoint between rounds) is only as good as the
    page cache it went to: after a crash of the machine it may be there while the arrays it
    describes are not. Such records carry the boot they were written in and are ignored in
    any other.
    """
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip() or None
    except OSError:
        return None


def scratch_directory(root: Path, seeds: int) -> Path:
    """Where level ``seeds`` keeps its scratch files under ``root``.

    >>> scratch_directory(Path("/tmp/ooc"), 8).name
    'ayoayo-08.scratch'
    """
    return root / f"ayoayo-{seeds:02d}.scratch"


def check_disk(seeds: int, root: Path) -> None:
    """Refuse a level whose scratch files would not fit on the disk of ``root``."""
    need = disk_needed(seeds)
    have = free_disk(root)
    if need > have:
        raise ScratchTooLargeError(
            f"no space left in {str(root)!r} for level {seeds}'s scratch files: they need "
            f"about {size_text(need)} and {size_text(have)} is free; give another --scratch "
            "directory"
        )


def remove_scratch(root: Path, seeds: int) -> None:
    """Remove level ``seeds``'s scratch directory under ``root`` (if any)."""
    shutil.rmtree(scratch_directory(root, seeds), ignore_errors=True)
