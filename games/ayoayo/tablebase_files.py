"""Tablebase level files: a 64-byte header and one signed byte per position, written atomically.

Assumes the layout of :mod:`games.ayoayo.tablebase_index`. One file per level, named
``ayoayo-NN.tb`` (``NN`` the seeds on the board, two digits). The format (version 1), all
little-endian:

====== ======= ===============================================================================
offset type    field
====== ======= ===============================================================================
0      8 bytes magic ``b"AYOAYOTB"``
8      uint32  format version (:data:`FORMAT_VERSION`)
12     uint32  rules version (:data:`RULES_VERSION`): bumped whenever the rules change a value
16     uint32  level: seeds on the board
20     uint32  splits at this level (``len(splits(level))``)
24     uint64  boards at this level (``board_count(level)``)
32     uint32  CRC-32 (zlib) of the value bytes
36     28      zero bytes (reserved)
64     int8    ``splits * boards`` values, a C-order ``(splits, boards)`` array
====== ======= ===============================================================================

The file depends only on the values, so builds of a level by any means (pure Python, a
native kernel, any executor) are equal byte for byte. How long a build took is kept beside
it, in ``ayoayo-NN.json`` (``{"seconds": ..., "moves": ...}``), written after the level.

A value is the exact final ``mover's captured - opponent's captured`` with perfect play (the
module notes of :mod:`games.ayoayo.tablebase` say what "exact" means).

Beside it, ``ayoayo-NN.dist`` has the same header (magic ``b"AYOAYODS"``, the CRC-32 of its
bytes) and one little-endian uint16 a position: the plies until optimal play leaves the level
(a capture or the end), :data:`NO_DISTANCE` (65535) where it stays in the level for ever. A
player that prefers the shortest distance when ahead of endless play (the longest when behind)
turns its value into a result instead of circling. The builder writes it before the values
file, so a level whose values file is present has both. A file is written to a
temporary name in the same directory, flushed to disk, then renamed, so a reader sees a whole
level or none.

>>> import tempfile, numpy as np
>>> with tempfile.TemporaryDirectory() as d:
...     path = write_level(d, 0, np.zeros((1, 1), dtype=np.int8))
...     read_level(path).values.tolist()
[[0]]
"""

from __future__ import annotations

import json
import os
import struct
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final

import attrs
import numpy as np
import numpy.typing as npt

from games.ayoayo.tablebase_index import board_count, splits
from solver.game import GameError
from solver.output import atomic_path

__all__ = [
    "DISTANCES",
    "FORMAT_VERSION",
    "HEADER_SIZE",
    "MAGIC",
    "NO_DISTANCE",
    "RULES_VERSION",
    "VALUES",
    "FileKind",
    "LevelFile",
    "TablebaseFileError",
    "build_record_path",
    "level_path",
    "read_build_record",
    "read_level",
    "write_atomically",
    "write_build_record",
    "write_level",
]

MAGIC: Final = b"AYOAYOTB"
NO_DISTANCE: Final = 0xFFFF
"""The distance of a position whose optimal play never leaves its level."""
FORMAT_VERSION: Final = 1
RULES_VERSION: Final = 1
"""The rules of :mod:`games.ayoayo.rules` (reference rules, a never-ending sowing illegal,
endless play scored by the captured seeds). Files of another rules version are not used."""
HEADER_SIZE: Final = 64
_HEADER: Final = struct.Struct("<8sIIIIQI28x")
_CHUNK: Final = 1 << 24


@attrs.frozen
class FileKind:
    """What a level file holds: its magic, its file suffix and its element type."""

    magic: bytes
    suffix: str
    dtype: str


VALUES: Final = FileKind(MAGIC, "tb", "i1")
DISTANCES: Final = FileKind(b"AYOAYODS", "dist", "<u2")


class TablebaseFileError(GameError, ValueError):
    """A level file that is missing, truncated, corrupt or of another version."""


@attrs.frozen(eq=False)
class LevelFile:
    """An opened level: its header fields and its values, memory-mapped read-only."""

    path: Path
    seeds: int
    checksum: int
    values: npt.NDArray[Any]
    """A ``(splits, boards)`` array (a read-only memory map): int8 values, or distances."""


def level_path(directory: str | os.PathLike[str], seeds: int, kind: FileKind = VALUES) -> Path:
    """The file of level ``seeds`` in ``directory`` (its values, or another ``kind``).

    >>> level_path("/tmp/tb", 8).name, level_path("/tmp/tb", 8, DISTANCES).name
    ('ayoayo-08.tb', 'ayoayo-08.dist')
    """
    return Path(directory) / f"ayoayo-{seeds:02d}.{kind.suffix}"


def _crc(values: npt.NDArray[Any]) -> int:
    flat = values.reshape(-1).view(np.uint8)
    crc = 0
    for i in range(0, flat.size, _CHUNK):
        crc = zlib.crc32(flat[i : i + _CHUNK].tobytes(), crc)
    return crc


def write_level(
    directory: str | os.PathLike[str],
    seeds: int,
    values: npt.NDArray[Any],
    *,
    kind: FileKind = VALUES,
) -> Path:
    """Write level ``seeds`` atomically (temporary file, flush, rename); return its path.

    Raises:
        ValueError: ``values`` is not an array of shape ``(splits, boards)`` of the level, of
            the kind's element type.
    """
    shape = (len(splits(seeds)), board_count(seeds))
    if values.dtype != np.dtype(kind.dtype) or values.shape != shape:
        raise ValueError(
            f"level {seeds} {kind.suffix} must be {np.dtype(kind.dtype)} of shape {shape}, "
            f"got {values.dtype} of shape {values.shape}"
        )
    values = np.ascontiguousarray(values, dtype=np.dtype(kind.dtype))
    header = _HEADER.pack(
        kind.magic,
        FORMAT_VERSION,
        RULES_VERSION,
        seeds,
        shape[0],
        shape[1],
        _crc(values),
    )
    target = level_path(directory, seeds, kind)
    write_atomically(target, [header, values.reshape(-1).view(np.uint8).data])
    return target


def write_atomically(target: Path, chunks: Iterable[bytes | memoryview]) -> None:
    """Write ``chunks`` to ``target`` through a temporary file in its directory and a rename.

    Raises:
        OutputError: the directory cannot be written, or the write failed (a full disk).
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(target, overwrite=True) as temporary, temporary.open("wb") as out:
        for chunk in chunks:
            out.write(chunk)
        out.flush()
        os.fsync(out.fileno())


def build_record_path(directory: str | os.PathLike[str], seeds: int) -> Path:
    """The file beside a level that says how its build went (``ayoayo-NN.json``)."""
    return Path(directory) / f"ayoayo-{seeds:02d}.json"


def write_build_record(directory: str | os.PathLike[str], seeds: int, **record: object) -> None:
    """Record how level ``seeds`` was built (seconds, moves function), atomically."""
    text = json.dumps(record, sort_keys=True) + "\n"
    write_atomically(build_record_path(directory, seeds), [text.encode()])


def read_build_record(directory: str | os.PathLike[str], seeds: int) -> dict[str, Any]:
    """What :func:`write_build_record` wrote for the level, or ``{}`` if nothing readable."""
    try:
        record = json.loads(build_record_path(directory, seeds).read_text())
    except (OSError, ValueError):
        return {}
    return record if isinstance(record, dict) else {}


def read_level(
    path: str | os.PathLike[str],
    *,
    verify: bool = True,
    kind: FileKind = VALUES,
    seeds: int | None = None,
) -> LevelFile:
    """Open a level file, checking its header, its size and (``verify``) its checksum.

    ``seeds``: the level the file is to be used as; a file whose header says another level
    (copied or renamed from one) is refused, as its checksum is valid for the wrong positions.

    Raises:
        TablebaseFileError: the file is missing, truncated, corrupt, of another format or
            rules version, or of another level than ``seeds``.
    """
    path = Path(path)
    try:
        with path.open("rb") as f:
            raw = f.read(HEADER_SIZE)
        size = path.stat().st_size
    except OSError as e:
        raise TablebaseFileError(
            f"cannot read tablebase file {str(path)!r}: {e.strerror}"
        ) from None
    if len(raw) < HEADER_SIZE or raw[:8] != kind.magic:
        raise TablebaseFileError(f"{str(path)!r} is not an Ayòayò tablebase {kind.suffix} file")
    expected = seeds
    _, fmt, rules, seeds, n_splits, n_boards, checksum = _HEADER.unpack(raw)
    if fmt != FORMAT_VERSION or rules != RULES_VERSION:
        raise TablebaseFileError(
            f"{str(path)!r} has format version {fmt} and rules version {rules}; this gamesolver "
            f"reads format {FORMAT_VERSION}, rules {RULES_VERSION}: rebuild it"
        )
    if seeds % 4 or seeds > 48 or (n_splits, n_boards) != (len(splits(seeds)), board_count(seeds)):
        raise TablebaseFileError(
            f"{str(path)!r} claims level {seeds} with {n_splits} x {n_boards} positions, "
            "which is not a level's shape"
        )
    if expected is not None and seeds != expected:
        raise TablebaseFileError(
            f"{str(path)!r} holds level {seeds}, not level {expected}: it was copied or "
            "renamed from another level; delete it and build again"
        )
    length = HEADER_SIZE + n_splits * n_boards * np.dtype(kind.dtype).itemsize
    if size != length:
        raise TablebaseFileError(f"{str(path)!r} holds {size} bytes, expected {length}")
    values: npt.NDArray[Any] = np.memmap(
        path, dtype=np.dtype(kind.dtype), mode="r", offset=HEADER_SIZE, shape=(n_splits, n_boards)
    )
    if verify and _crc(values) != checksum:
        raise TablebaseFileError(f"{str(path)!r} fails its checksum: rebuild it")
    return LevelFile(path, seeds, checksum, values)
