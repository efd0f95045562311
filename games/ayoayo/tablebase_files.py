"""Tablebase level files: a 64-byte header saying what the file is, then one entry a position.

Assumes the layout of :mod:`games.ayoayo.tablebase_index`. One file per level, named
``ayoayo-NN.tb`` (``NN`` the seeds on the board, two digits). The format (version 2), all
little-endian:

====== ======= ===============================================================================
offset type    field
====== ======= ===============================================================================
0      8 bytes magic: the game and the kind, ``b"AYOAYOTB"`` (values) or ``b"AYOAYODS"``
8      uint32  format version (:data:`FORMAT_VERSION`)
12     uint32  rules version (:data:`RULES_VERSION`): bumped whenever the rules change a value
16     uint32  level: seeds on the board
20     uint32  splits at this level (``len(splits(level))``)
24     uint64  boards at this level (``board_count(level)``)
32     uint32  CRC-32 (zlib) of the entry bytes
36     uint32  built on: the lineage of the level below (0 for level 0)
40     uint32  lineage of this level: CRC-32 of (built on, CRC-32 of the level's values)
44     20      zero bytes (reserved)
64     ...     ``splits * boards`` entries, a C-order ``(splits, boards)`` array
====== ======= ===============================================================================

**Lineage.** A level is computed from every level below it, so its header records the lineage
of the level below (which covers all of them, as each lineage folds in the one below), and
its own lineage folds in its values. A level is used only if every level below is present and
is the one it was built on (:func:`check_lineage`): a level built on a wrong lower level, or
on one that was rebuilt differently since, is refused and rebuilt, never silently wrong. The
distances file of a level carries the lineage of its values file, so a distances file of
another build or level is refused too.

The file depends only on the values, so builds of a level by any means (pure Python, a
native kernel, any executor) are equal byte for byte. How long a build took is kept beside
it, in ``ayoayo-NN.json`` (``{"seconds": ..., "moves": ...}``), written after the level.

A value is the exact final ``mover's captured - opponent's captured`` with perfect play (the
module notes of :mod:`games.ayoayo.tablebase` say what "exact" means).

Beside it, ``ayoayo-NN.dist`` has the same header (magic ``b"AYOAYODS"``) and one
little-endian uint16 a position: the plies until optimal play leaves the level (a capture or
the end), :data:`NO_DISTANCE` (65535) where it stays in the level for ever. A player that
prefers the shortest distance when ahead of endless play (the longest when behind) turns its
value into a result instead of circling. :func:`write_tables` writes it before the values
file, so a level whose values file is present has both.

**Safety.** A file is written to a temporary name in the same directory, flushed to disk, then
renamed, so a reader sees a whole level or none. A file is read into memory (never mapped: a
file truncated in place under a running process cannot crash it), only if it is a regular
file (a FIFO is refused, not waited on).

**Checksums.** Every byte a probe trusts is checked in the process that uses it: a values file
is read whole into memory and its CRC-32 computed from those bytes as they are read in, every
time (a level 16 costs about 0.15 s of a command's time on the 2-core machine); a distances
file, of which a command reads a few entries, is checked a block at a time, each 64 KiB block
the first time an entry of it is read, against the block checksums in ``ayoayo-NN.dist.blocks``
(:class:`BlockChecksums`: a chain of CRC-32s whose last is the header's, made by one pass over
the whole file and guarded by a CRC-32 of its own). Which files were verified is remembered in
``ayoayo-checksums.json`` beside the levels, keyed by size, modification time and inode, only
to list the levels without reading them (:func:`verified_header`); bytes changed with their
time kept (bit rot, a restore, a copy that keeps times) can fool that list, never a probe.

>>> import tempfile, numpy as np
>>> with tempfile.TemporaryDirectory() as d:
...     path = write_level(d, 0, np.zeros((1, 1), dtype=np.int8))
...     read_level(path).values.tolist()
[[0]]
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
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
    "BLOCK",
    "CHECKSUMS",
    "DISTANCES",
    "FORMAT_VERSION",
    "HEADER_SIZE",
    "MAGIC",
    "NO_DISTANCE",
    "RULES_VERSION",
    "VALUES",
    "BlockChecksums",
    "FileKind",
    "Header",
    "LevelEntries",
    "LevelFile",
    "Lineage",
    "TablebaseFileError",
    "TablebaseUnreadableError",
    "build_record_path",
    "level_path",
    "lower_lineage",
    "read_build_record",
    "read_header",
    "read_level",
    "rebuild_hint",
    "verified_header",
    "verify_bytes",
    "write_atomically",
    "write_build_record",
    "write_level",
    "write_tables",
]

MAGIC: Final = b"AYOAYOTB"
NO_DISTANCE: Final = 0xFFFF
"""The distance of a position whose optimal play never leaves its level."""
FORMAT_VERSION: Final = 2
"""Version 2 added the lineage (version 1 files are refused with a rebuild hint)."""
RULES_VERSION: Final = 1
"""The rules of :mod:`games.ayoayo.rules` (reference rules, a never-ending sowing illegal,
endless play scored by the captured seeds). Files of another rules version are not used."""
HEADER_SIZE: Final = 64
CHECKSUMS: Final = "ayoayo-checksums.json"
"""The file beside the levels remembering which files' checksums were verified."""
_HEADER: Final = struct.Struct("<8sIIIIQIII20x")
_PREFIX: Final = struct.Struct("<8sI")
_CHUNK: Final = 1 << 24
_TOP: Final = 48


@attrs.frozen
class FileKind:
    """What a level file holds: its magic, its file suffix, its element type and its name."""

    magic: bytes
    suffix: str
    dtype: str
    name: str


VALUES: Final = FileKind(MAGIC, "tb", "i1", "values")
DISTANCES: Final = FileKind(b"AYOAYODS", "dist", "<u2", "distances")


class TablebaseFileError(GameError, ValueError):
    """A level file that is missing, truncated, corrupt, of another version, level or
    lineage."""


class TablebaseUnreadableError(TablebaseFileError):
    """A level file that is there but cannot be read (permissions, an I/O error): not
    damaged, and not absent either."""


def rebuild_hint(seeds: int) -> str:
    """What to run to replace a refused level file."""
    return f"rebuild with `gamesolver tablebase build ayoayo --seeds {seeds}`"


@attrs.frozen
class Lineage:
    """Where a level comes from: the lineage of the level below and the checksum of its values.

    >>> Lineage(0, 0).chain == Lineage(0, 1).chain
    False
    """

    built_on: int
    values_checksum: int

    @property
    def chain(self) -> int:
        """This level's lineage: a CRC-32 of both (what the level above records)."""
        return zlib.crc32(struct.pack("<II", self.built_on, self.values_checksum))


@attrs.frozen
class Header:
    """A level file's header, checked against the file's size (not yet its checksum)."""

    path: Path
    kind: FileKind
    seeds: int
    splits: int
    boards: int
    checksum: int
    built_on: int
    chain: int

    @property
    def shape(self) -> tuple[int, int]:
        """The ``(splits, boards)`` shape of the entries."""
        return (self.splits, self.boards)


@attrs.frozen(eq=False)
class LevelFile:
    """An opened level: its header fields and its entries, read into memory (read-only)."""

    path: Path
    seeds: int
    checksum: int
    values: npt.NDArray[Any]
    """A ``(splits, boards)`` read-only array: int8 values, or distances."""
    header: Header | None = None


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
        crc = zlib.crc32(flat[i : i + _CHUNK].data, crc)
    return crc


def _shape(seeds: int) -> tuple[int, int]:
    return (len(splits(seeds)), board_count(seeds))


def lower_lineage(directory: str | os.PathLike[str], seeds: int) -> int:
    """The lineage a level ``seeds`` built here is built on: 0 for level 0, else the lineage of
    the level below, verified (checksum and its own lineage).

    Raises:
        TablebaseFileError: the level below is missing or refused.
    """
    if seeds == 0:
        return 0
    return verified_header(directory, seeds - 4).chain


def write_level(
    directory: str | os.PathLike[str],
    seeds: int,
    values: npt.NDArray[Any],
    *,
    kind: FileKind = VALUES,
    lineage: Lineage | None = None,
) -> Path:
    """Write level ``seeds`` atomically (temporary file, flush, rename); return its path.

    ``lineage``: the level's :class:`Lineage`; None (values only): built on the levels below
    in ``directory`` as they are now. A distances file needs its values' lineage.

    Raises:
        ValueError: ``values`` is not an array of shape ``(splits, boards)`` of the level, of
            the kind's element type, or a distances file has no lineage.
        TablebaseFileError: no lineage given and the level below is missing or refused.
        OutputError: the directory cannot be written, or the write failed (a full disk).
    """
    shape = _shape(seeds)
    if values.dtype != np.dtype(kind.dtype) or values.shape != shape:
        raise ValueError(
            f"level {seeds} {kind.suffix} must be {np.dtype(kind.dtype)} of shape {shape}, "
            f"got {values.dtype} of shape {values.shape}"
        )
    values = np.ascontiguousarray(values, dtype=np.dtype(kind.dtype))
    checksum = _crc(values)
    if lineage is None:
        if kind != VALUES:
            raise ValueError(f"level {seeds} {kind.name} need the lineage of their values")
        lineage = Lineage(lower_lineage(directory, seeds), checksum)
    header = _HEADER.pack(
        kind.magic,
        FORMAT_VERSION,
        RULES_VERSION,
        seeds,
        shape[0],
        shape[1],
        checksum,
        lineage.built_on,
        lineage.chain,
    )
    target = level_path(directory, seeds, kind)
    write_atomically(target, [header, values.reshape(-1).view(np.uint8).data])
    _remember(target, checksum)
    return target


def write_tables(
    directory: str | os.PathLike[str],
    seeds: int,
    values: npt.NDArray[np.int8],
    distances: npt.NDArray[np.uint16],
    *,
    built_on: int,
) -> Path:
    """Write a built level: its distances, then its values (which mark the level complete).

    ``built_on``: the lineage of the level below as the build read it
    (:func:`lower_lineage`; 0 for level 0). Returns the values file's path.

    Raises:
        ValueError, OutputError: as :func:`write_level`.
    """
    lineage = Lineage(built_on, _crc(np.ascontiguousarray(values)))
    write_level(directory, seeds, distances, kind=DISTANCES, lineage=lineage)
    return write_level(directory, seeds, values, lineage=lineage)


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
    except (OSError, ValueError, RecursionError):
        return {}
    return record if isinstance(record, dict) else {}


def _open_regular(path: Path, kind: FileKind) -> int:
    """A read-only descriptor of ``path``, refused unless it is a regular file (never blocks
    on a FIFO)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise TablebaseUnreadableError(
            f"cannot read tablebase {kind.name} file {str(path)!r}: {e.strerror}"
        ) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise TablebaseFileError(
            f"{str(path)!r} is not a regular file (a FIFO, device or directory); expected an "
            f"Ayòayò tablebase {kind.name} file"
        )
    return fd


def _parse(path: Path, raw: bytes, size: int, kind: FileKind, expected: int | None) -> Header:
    if len(raw) < _PREFIX.size or raw[:8] != kind.magic:
        other = DISTANCES if kind is VALUES else VALUES
        if raw[:8] == other.magic:
            raise TablebaseFileError(
                f"{str(path)!r} is an Ayòayò tablebase {other.name} file, not a {kind.name} file"
            )
        raise TablebaseFileError(f"{str(path)!r} is not an Ayòayò tablebase {kind.name} file")
    fmt = _PREFIX.unpack_from(raw)[1]
    if fmt != FORMAT_VERSION or len(raw) < HEADER_SIZE:
        raise TablebaseFileError(
            f"{str(path)!r} has format version {fmt}; this gamesolver reads format "
            f"{FORMAT_VERSION} (which records the levels each level was built on): "
            f"{rebuild_hint(expected if expected is not None else 0)}"
        )
    _, _, rules, seeds, n_splits, n_boards, checksum, built_on, chain = _HEADER.unpack(raw)
    hint = rebuild_hint(expected if expected is not None else seeds)
    if rules != RULES_VERSION:
        raise TablebaseFileError(
            f"{str(path)!r} has rules version {rules}; this gamesolver plays rules "
            f"{RULES_VERSION}: {hint}"
        )
    if seeds % 4 or seeds > _TOP or (n_splits, n_boards) != _shape(seeds):
        raise TablebaseFileError(
            f"{str(path)!r} claims level {seeds} with {n_splits} x {n_boards} positions, "
            f"which is not a level's shape: {hint}"
        )
    if expected is not None and seeds != expected:
        raise TablebaseFileError(
            f"{str(path)!r} holds level {seeds}, not level {expected}: it was copied or "
            f"renamed from another level: {hint}"
        )
    length = HEADER_SIZE + n_splits * n_boards * np.dtype(kind.dtype).itemsize
    if size != length:
        raise TablebaseFileError(
            f"{str(path)!r} holds {size} bytes, expected {length} (truncated or damaged): {hint}"
        )
    return Header(path, kind, seeds, n_splits, n_boards, checksum, built_on, chain)


def read_header(
    path: str | os.PathLike[str], *, kind: FileKind = VALUES, seeds: int | None = None
) -> Header:
    """A file's header, checked (magic, versions, level ``seeds``, shape, size), not its
    checksum.

    Raises:
        TablebaseFileError: the file is missing, not a regular file, of another kind, format,
            rules version or level, or of the wrong size.
    """
    path = Path(path)
    fd = _open_regular(path, kind)
    try:
        raw = os.pread(fd, HEADER_SIZE, 0)
        size = os.fstat(fd).st_size
    except OSError as e:
        raise TablebaseUnreadableError(f"cannot read {str(path)!r}: {e.strerror}") from None
    finally:
        os.close(fd)
    return _parse(path, raw, size, kind, seeds)


def read_level(
    path: str | os.PathLike[str],
    *,
    verify: bool = True,
    kind: FileKind = VALUES,
    seeds: int | None = None,
) -> LevelFile:
    """Read a level file into memory, checking its header, its size and (``verify``) its
    checksum (once per file: see the module notes).

    ``seeds``: the level the file is to be used as; a file whose header says another level
    (copied or renamed from one) is refused, as its checksum is valid for the wrong positions.
    The lineage is not checked here: :func:`verified_header` does.

    Raises:
        TablebaseFileError: the file is missing, truncated (even while being read), corrupt,
            of another format or rules version, or of another level than ``seeds``.
    """
    path = Path(path)
    fd = _open_regular(path, kind)
    try:
        with os.fdopen(fd, "rb", closefd=True) as f:
            before = os.fstat(f.fileno())
            header = _parse(path, f.read(HEADER_SIZE), before.st_size, kind, seeds)
            values: npt.NDArray[Any] = np.empty(header.shape, dtype=np.dtype(kind.dtype))
            view = values.reshape(-1).view(np.uint8).data
            got = 0
            while got < len(view):
                n = f.readinto(view[got:])
                if not n:
                    break
                got += n
            after = os.fstat(f.fileno())
    except OSError as e:
        raise TablebaseUnreadableError(f"cannot read {str(path)!r}: {e.strerror}") from None
    if got < len(view) or _key(after) != _key(before):
        raise TablebaseFileError(
            f"{str(path)!r} changed while it was read (truncated or rewritten in place): "
            f"{rebuild_hint(header.seeds)}"
        )
    if verify:  # these bytes, whatever the remembered checksums say (see the module notes)
        if _crc(values) != header.checksum:
            _forget(path)
            raise TablebaseFileError(
                f"{str(path)!r} fails its checksum (damaged): {rebuild_hint(header.seeds)}"
            )
        _remember(path, header.checksum, after)
    values.flags.writeable = False
    return LevelFile(path, header.seeds, header.checksum, values, header)


class LevelEntries:
    """A level file read an entry at a time (``os.pread`` on a descriptor kept open): for a
    level's distances, of which a command reads a few entries, where reading the whole file
    would take seconds and gigabytes at level 24 (5.8 GB). Nothing is mapped, so a file cut
    short under a running reader is a short read, refused as a truncated file, never a crash;
    a rebuild (written to another name and renamed) leaves the file opened here as it was.

    The file is checked as :func:`read_level` checks it (header, size), and every entry read
    is checked: the first read in a block verifies the whole block against the file's
    :class:`BlockChecksums`, so bytes damaged since any earlier check are refused, naming the
    file (:class:`TablebaseFileError`), never returned.
    """

    def __init__(self, path: str | os.PathLike[str], *, kind: FileKind, seeds: int) -> None:
        self.path = Path(path)
        self._fd: int | None = None
        fd = _open_regular(self.path, kind)
        try:
            info = os.fstat(fd)
            self.header = _parse(self.path, os.pread(fd, HEADER_SIZE, 0), info.st_size, kind, seeds)
            self._blocks = BlockChecksums.for_file(self.path, fd, self.header, info)
        except OSError as e:
            os.close(fd)
            raise TablebaseUnreadableError(
                f"cannot read {str(self.path)!r}: {e.strerror}"
            ) from None
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        self._checked: set[int] = set()
        self._dtype = np.dtype(kind.dtype)
        self.shape = self.header.shape

    def __getitem__(self, index: tuple[int, int]) -> int:
        row, column = index
        splits_, boards = self.shape
        if not (0 <= row < splits_ and 0 <= column < boards):
            raise IndexError(f"entry {index!r} is outside a level of shape {self.shape!r}")
        if self._fd is None:
            raise ValueError(f"{str(self.path)!r} is closed")
        size = self._dtype.itemsize
        at = HEADER_SIZE + (row * boards + column) * size
        try:
            block = (at - HEADER_SIZE) // BLOCK
            if block not in self._checked:
                self._blocks.verify(self._fd, block)
                self._checked.add(block)
            raw = os.pread(self._fd, size, at)
        except OSError as e:
            raise TablebaseUnreadableError(
                f"cannot read {str(self.path)!r}: {e.strerror}"
            ) from None
        if len(raw) < size:
            raise TablebaseFileError(
                f"{str(self.path)!r} changed while it was read (truncated in place): "
                f"{rebuild_hint(self.header.seeds)}"
            )
        return int(np.frombuffer(raw, dtype=self._dtype)[0])

    def close(self) -> None:
        """Close the file (entries can no longer be read)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __del__(self) -> None:
        self.close()


BLOCK: Final = 1 << 16
"""The bytes of a level file checked at once when :class:`LevelEntries` reads an entry."""
_BLOCKS_MAGIC: Final = b"AYOAYOBK"
_BLOCKS_HEAD: Final = struct.Struct("<8sIIIQI")


@attrs.frozen(eq=False)
class BlockChecksums:
    """The checksums of a level file's entry bytes a :data:`BLOCK` at a time, chained: entry
    ``i`` is the CRC-32 of blocks ``0..i`` (``zlib.crc32(block_i, chain[i - 1])``), so the
    last is the header's checksum and one pass over the file makes and checks them all; a block
    is then verified alone from its neighbour's entry.

    Kept beside the file in ``NAME.blocks`` (magic, version, block size, the file's checksum,
    its size, the count, the chain, then a CRC-32 of all that), written atomically when first
    made; a copy that is missing, damaged or of another file is made again from the file (one
    pass, verifying the file's checksum), in memory only where the directory cannot be written.
    """

    path: Path
    checksum: int
    size: int
    chain: npt.NDArray[np.uint32]

    @classmethod
    def for_file(cls, path: Path, fd: int, header: Header, info: os.stat_result) -> BlockChecksums:
        """The block checksums of the open level file ``fd`` (``path``, its ``header``), read
        from beside it or made by one pass (:meth:`made`).

        Raises:
            TablebaseFileError: the file fails its checksum, or changed while it was read.
            OSError: the file could not be read.
        """
        found = cls._load(path, header.checksum, info.st_size)
        return found if found is not None else cls.made(path, fd, header, info)

    @classmethod
    def made(
        cls, path: Path, fd: int, header: Header, info: os.stat_result, *, keep: bool = True
    ) -> BlockChecksums:
        """The block checksums of the open level file ``fd`` made by one pass over its bytes,
        which verifies its checksum (remembered as verified); ``keep``: also written beside
        it (best effort).

        Raises:
            TablebaseFileError: the file fails its checksum, or changed while it was read.
            OSError: the file could not be read.
        """
        chain = np.empty(-(-(info.st_size - HEADER_SIZE) // BLOCK), dtype=np.uint32)
        crc = 0
        step = _CHUNK // BLOCK
        for first in range(0, chain.size, step):  # a chunk read at once, its blocks chained
            chunk = os.pread(fd, _CHUNK, HEADER_SIZE + first * BLOCK)
            for i in range(first, min(first + step, chain.size)):
                at = (i - first) * BLOCK
                crc = zlib.crc32(chunk[at : at + BLOCK], crc)
                chain[i] = crc
        if crc != header.checksum or _key(os.fstat(fd)) != _key(info):
            _forget(path)
            raise TablebaseFileError(
                f"{str(path)!r} fails its checksum (damaged): {rebuild_hint(header.seeds)}"
            )
        made = cls(path, header.checksum, info.st_size, chain)
        if keep:
            with contextlib.suppress(OSError):
                head = _BLOCKS_HEAD.pack(
                    _BLOCKS_MAGIC, 1, BLOCK, header.checksum, info.st_size, chain.size
                )
                body = head + chain.astype("<u4").tobytes()
                write_atomically(cls.where(path), [body, struct.pack("<I", zlib.crc32(body))])
        _remember(path, header.checksum, info)
        return made

    @staticmethod
    def where(path: Path) -> Path:
        """The file that keeps the block checksums of level file ``path``."""
        return path.with_name(path.name + ".blocks")

    @classmethod
    def _load(cls, path: Path, checksum: int, size: int) -> BlockChecksums | None:
        try:
            raw = cls.where(path).read_bytes()
        except OSError:
            return None
        if len(raw) < _BLOCKS_HEAD.size + 4:
            return None
        body, (own,) = raw[:-4], struct.unpack("<I", raw[-4:])
        if zlib.crc32(body) != own:
            return None
        magic, version, block, for_checksum, for_size, count = _BLOCKS_HEAD.unpack_from(body)
        if (magic, version, block, for_checksum, for_size) != (
            _BLOCKS_MAGIC,
            1,
            BLOCK,
            checksum,
            size,
        ) or len(body) != _BLOCKS_HEAD.size + 4 * count:
            return None
        if count != -(-(size - HEADER_SIZE) // BLOCK):
            return None
        chain = np.frombuffer(body, dtype="<u4", offset=_BLOCKS_HEAD.size).astype(np.uint32)
        if count and int(chain[-1]) != checksum:
            return None
        return cls(path, checksum, size, chain)

    def verify(self, fd: int, block: int) -> None:
        """Check block ``block`` of the open file ``fd`` against its checksum.

        Raises:
            TablebaseFileError: the block's bytes are not those the file was verified with.
            OSError: the file could not be read.
        """
        before = 0 if block == 0 else int(self.chain[block - 1])
        raw = os.pread(fd, BLOCK, HEADER_SIZE + block * BLOCK)
        if len(raw) < min(BLOCK, self.size - HEADER_SIZE - block * BLOCK):
            raise TablebaseFileError(
                f"{str(self.path)!r} changed while it was read (truncated in place): "
                f"{rebuild_hint(_seeds_of(self.path))}"
            )
        if zlib.crc32(raw, before) != int(self.chain[block]):
            _forget(self.path)
            raise TablebaseFileError(
                f"{str(self.path)!r} fails its checksum in block {block} (damaged since it was "
                f"verified): {rebuild_hint(_seeds_of(self.path))}"
            )


def _seeds_of(path: Path) -> int:
    """The level of a file named ``ayoayo-NN.*`` (0 if the name says none)."""
    digits = path.name[7:9]
    return int(digits) if digits.isascii() and digits.isdigit() else 0


def verify_bytes(
    path: str | os.PathLike[str], *, kind: FileKind = VALUES, seeds: int | None = None
) -> Header:
    """Check every byte of a level file against its checksum, reading it a chunk at a time
    (never whole); remembered as verified, and a distances file's block checksums kept beside
    it (:class:`BlockChecksums`).

    Raises:
        TablebaseFileError: the file is missing, not a regular file, of another kind, format,
            rules version or level, of the wrong size, or fails its checksum.
    """
    path = Path(path)
    fd = _open_regular(path, kind)
    try:
        info = os.fstat(fd)
        header = _parse(path, os.pread(fd, HEADER_SIZE, 0), info.st_size, kind, seeds)
        BlockChecksums.made(path, fd, header, info, keep=kind == DISTANCES)
    except OSError as e:
        raise TablebaseUnreadableError(f"cannot read {str(path)!r}: {e.strerror}") from None
    finally:
        os.close(fd)
    return header


def verified_header(
    directory: str | os.PathLike[str], seeds: int, kind: FileKind = VALUES
) -> Header:
    """The header of level ``seeds`` of ``kind`` in ``directory``, once the file is known good:
    its checksum verified (once per file), every level below present and the one it was built
    on, and a distances file of the same build as its values.

    Raises:
        TablebaseFileError: naming the file refused and why.
    """
    path = level_path(directory, seeds, kind)
    header = read_header(path, kind=kind, seeds=seeds)
    try:
        now = os.stat(path)
    except OSError as e:
        raise TablebaseUnreadableError(f"cannot read {str(path)!r}: {e.strerror}") from None
    if not _known_good(path, now, header.checksum):
        verify_bytes(path, kind=kind, seeds=seeds)  # and remembers it
    if kind != VALUES:
        own = verified_header(directory, seeds, VALUES)
        if own.chain != header.chain:
            raise TablebaseFileError(
                f"{str(path)!r} belongs to another build of level {seeds} than "
                f"{str(own.path)!r}: {rebuild_hint(seeds)}"
            )
        return header
    if Lineage(header.built_on, header.checksum).chain != header.chain:
        raise TablebaseFileError(
            f"{str(path)!r} has a lineage that does not match its values (edited): "
            f"{rebuild_hint(seeds)}"
        )
    if seeds == 0:
        if header.built_on != 0:
            raise TablebaseFileError(
                f"{str(path)!r} claims to be built on a level below 0: {rebuild_hint(0)}"
            )
        return header
    below = level_path(directory, seeds - 4)
    try:
        lower = verified_header(directory, seeds - 4)
    except TablebaseFileError as e:
        missing = not os.path.lexists(below)
        unreadable = isinstance(e, TablebaseUnreadableError)
        raise (TablebaseUnreadableError if unreadable else TablebaseFileError)(
            f"{str(path)!r} was built on level {seeds - 4}, which is "
            + ("missing" if missing else f"refused ({e})")
            + f": {rebuild_hint(seeds)} (levels that come out the same are kept)"
        ) from None
    if lower.chain != header.built_on:
        raise TablebaseFileError(
            f"{str(path)!r} was built on another level {seeds - 4} than {str(below)!r} "
            f"(replaced or rebuilt since), so its values may be wrong: {rebuild_hint(seeds)}"
        )
    return header


# The checksums verified: (device, inode, size, modification time) -> checksum, per directory.
_verified: dict[Path, dict[str, list[int]]] = {}


def _key(info: os.stat_result) -> list[int]:
    return [info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns]


def _cache_file(directory: Path) -> Path:
    return directory / CHECKSUMS


def _known(directory: Path) -> dict[str, list[int]]:
    found = _verified.get(directory)
    if found is None:
        found = {}
        with contextlib.suppress(OSError, ValueError, RecursionError):
            loaded = json.loads(_cache_file(directory).read_text())
            if isinstance(loaded, dict):
                found = {
                    k: v
                    for k, v in loaded.items()
                    if isinstance(k, str)
                    and isinstance(v, list)
                    and len(v) == 5
                    and all(type(x) is int for x in v)
                }
        _verified[directory] = found
    return found


def _known_good(path: Path, info: os.stat_result, checksum: int) -> bool:
    return _known(path.parent).get(path.name) == [*_key(info), checksum]


def _forget(path: Path) -> None:
    """Forget that ``path`` was verified (it failed a check since); best effort on disk."""
    with contextlib.suppress(OSError):
        known = _known(path.parent)
        if known.pop(path.name, None) is not None:
            text = json.dumps(known, sort_keys=True)
            write_atomically(_cache_file(path.parent), [text.encode()])


def _remember(path: Path, checksum: int, info: os.stat_result | None = None) -> None:
    """Remember that ``path`` (as it is now) has ``checksum`` verified; best effort on disk."""
    with contextlib.suppress(OSError):
        info = info if info is not None else os.stat(path)
        known = _known(path.parent)
        known[path.name] = [*_key(info), checksum]
        text = json.dumps(known, sort_keys=True)
        write_atomically(_cache_file(path.parent), [text.encode()])
