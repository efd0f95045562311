"""What building Ayòayò tablebase levels costs: positions, disk, memory and core-hours.

Assumes the level layout of :mod:`games.ayoayo.tablebase_index` and the files of
:mod:`games.ayoayo.tablebase_files` (one byte of value and two of distance a position), the
scratch of :mod:`games.ayoayo.tablebase_partitions`, and a throughput in positions per
core-second, measured on this machine (the build records of the levels built) or given.

The throughput falls as levels grow (more rounds, reads further apart): a level's
core-seconds are its positions divided by the throughput of the largest level measured,
itself divided by ``slowdown`` for each level of 4 seeds above it (:func:`slowdown`: the
geometric mean of the falls between the levels measured here). :func:`check` says how well
that held: each measured level's time predicted from the level below it.

>>> rows = plan(8, rate=1e6, memory=1 << 30)
>>> [(r.seeds, r.positions) for r in rows]
[(0, 1), (4, 2730), (8, 226746)]
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import Final

import attrs

from games.ayoayo.tablebase_files import HEADER_SIZE, read_build_record
from games.ayoayo.tablebase_index import board_count, level_size, levels_up_to
from games.ayoayo.tablebase_partitions import (
    MEMORY_BYTES_PER_PARTITION_BOARD,
    disk_needed,
    layout_for,
)

__all__ = [
    "DEFAULT_RATE",
    "MIN_SECONDS",
    "LevelPlan",
    "Measured",
    "check",
    "measured",
    "plan",
    "slowdown",
    "totals",
]

DEFAULT_RATE: Final = 1.4e6
"""Positions per core-second when nothing was measured here (the in-memory builder's, on
the 2-core machine at level 20)."""


@attrs.frozen
class LevelPlan:
    """The cost of one level."""

    seeds: int
    positions: int
    boards: int
    level_bytes: int
    """The level's files: values and distances."""
    scratch_bytes: int
    """The out-of-core build's scratch files (removed at the end)."""
    partitions: int
    worker_memory: int
    """Memory a worker needs (at most the budget: a level smaller than the budget needs less)."""
    core_hours: float


@attrs.frozen
class Measured:
    """A level built here: its positions, its build seconds and the cores it had."""

    seeds: int
    positions: int
    seconds: float
    cores: int
    out_of_core: bool

    @property
    def rate(self) -> float:
        """Positions per core-second."""
        return self.positions / (self.seconds * self.cores)


def measured(directory: str | os.PathLike[str], cores: int | None = None) -> list[Measured]:
    """The levels of ``directory`` with a build record, smallest first (level 0 left out)."""
    found = []
    for seeds in levels_up_to(48):
        record = read_build_record(Path(directory), seeds)
        seconds = record.get("seconds")
        if seeds == 0 or not isinstance(seconds, (int, float)) or seconds <= 0:
            continue
        found.append(
            Measured(
                seeds,
                level_size(seeds),
                float(seconds),
                cores or os.cpu_count() or 1,
                "Partitioned" in str(record.get("solve", "")),
            )
        )
    return found


MIN_SECONDS: Final = 1.0
"""Levels built faster than this are too short to measure a throughput from."""


def slowdown(levels: Sequence[Measured]) -> float:
    """How much the throughput falls a level (4 seeds) up, from the levels measured (1.0 if
    fewer than two took at least :data:`MIN_SECONDS`; never below 1)."""
    timed = [m for m in levels if m.seconds >= MIN_SECONDS]
    falls = [a.rate / b.rate for a, b in pairwise(timed)]
    if not falls:
        return 1.0
    product = 1.0
    for fall in falls:
        product *= fall
    return max(1.0, float(product ** (1 / len(falls))))


def plan(
    up_to: int, *, rate: float, memory: int, at: int = 0, fall: float = 1.0
) -> list[LevelPlan]:
    """The cost of every level up to ``up_to`` seeds at ``rate`` positions per core-second
    (measured at level ``at``; ``fall``: its fall a level up, :func:`slowdown`), built out of
    core with ``memory`` bytes a worker."""
    rows = []
    for seeds in levels_up_to(up_to):
        positions = level_size(seeds)
        layout = layout_for(seeds, memory)
        rows.append(
            LevelPlan(
                seeds,
                positions,
                board_count(seeds),
                3 * positions + 2 * HEADER_SIZE,
                disk_needed(seeds),
                layout.parts,
                min(memory, layout.size * MEMORY_BYTES_PER_PARTITION_BOARD),
                positions / (rate / fall ** max(0, (seeds - at) // 4)) / 3600,
            )
        )
    return rows


def totals(rows: Sequence[LevelPlan]) -> dict[str, float]:
    """The whole plan: positions, core-hours, the files kept, the largest scratch and memory."""
    return {
        "positions": float(sum(r.positions for r in rows)),
        "core_hours": sum(r.core_hours for r in rows),
        "level_bytes": float(sum(r.level_bytes for r in rows)),
        "scratch_bytes": float(max((r.scratch_bytes for r in rows), default=0)),
        "worker_memory": float(max((r.worker_memory for r in rows), default=0)),
    }


def check(levels: Sequence[Measured]) -> list[tuple[int, float, float]]:
    """Each measured level's seconds as predicted from the level below it (linear in
    positions), beside the seconds measured: ``(seeds, predicted, measured)``."""
    timed = [m for m in levels if m.seconds >= MIN_SECONDS]
    fall = slowdown(timed)
    out = []
    for below, level in pairwise(timed):
        predicted = level.positions / (below.rate / fall) / level.cores
        out.append((level.seeds, predicted, level.seconds))
    return out
