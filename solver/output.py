"""Writing output files safely: checked before the work, written atomically, never clobbered.

Every file the project writes for a user (solutions, match results, diagrams, animation frames)
goes through here, so that:

- a bad output path (a missing folder, a directory, a read-only place) is reported by
  :func:`check_output` *before* a long computation, not after it;
- a file is written to a temporary file in the same directory and moved over the target with
  ``os.replace`` (atomic on POSIX and Windows), so a kill, a full disk or an error half-way
  leaves either the old file or the new one, never a truncated one;
- an existing file is replaced only with ``overwrite=True`` (the command line's ``--force``);
- a reused frames directory is emptied of its old frames (:func:`prepare_directory`), so an
  animation never mixes two runs; :func:`replacing_files` goes further: the new set is written
  aside and swapped in only once whole, so an interruption or a full disk keeps the old set.

Assumes a local file system where the target's directory accepts a temporary file.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_text(folder / "value.txt", "3\\n").read_text()
'3\\n'
>>> write_text(folder / "value.txt", "4\\n")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
solver.errors.OutputError: output file '...value.txt' already exists; pass overwrite=True ...
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import stat
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from solver.errors import OutputError

__all__ = [
    "OutputError",
    "atomic_path",
    "check_directory",
    "check_output",
    "prepare_directory",
    "replacing_files",
    "write_bytes",
    "write_text",
]

PathLike = str | os.PathLike[str]

_TEMP_PREFIX: Final = ".tmp-"


_PATH_SHOWN: Final = 80
"""How many characters of a path a message shows: a longer one by its end, the file's name."""


def _where(path: Path) -> str:
    """A path for a message: whole, or its last characters (where the file's name is).

    >>> _where(Path("/srv/" + "deep/" * 30 + "tree.svg"))[-29:]
    "deep/deep/deep/deep/tree.svg'"
    """
    text = str(path)
    return repr(text) if len(text) <= _PATH_SHOWN else repr("…" + text[-_PATH_SHOWN:])


def _umask() -> int:
    """The process's file-creation mask (read by setting it and putting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def check_output(path: PathLike, *, overwrite: bool = False) -> Path:
    """Check that a file can be written at ``path``; call it before the work that fills it.

    Args:
        path: the file to write.
        overwrite: whether an existing file may be replaced.

    Returns:
        The path as a :class:`~pathlib.Path`.

    Raises:
        OutputError: the path is a directory, its folder is missing or not a folder or not
            writable, or the file exists and ``overwrite`` is False.
    """
    target = Path(path)
    if not str(path):
        raise OutputError("empty output path; expected a file name")
    if target.is_dir():
        raise OutputError(f"output path {_where(target)} is a directory; expected a file name")
    folder = target.parent
    if not folder.exists():
        raise OutputError(
            f"output folder {_where(folder)} does not exist; create it or choose another path"
        )
    if not folder.is_dir():
        raise OutputError(f"output folder {_where(folder)} is not a directory")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"output folder {_where(folder)} is not writable")
    if target.is_file() and not overwrite:  # a FIFO or a device is written, not replaced
        raise OutputError(
            f"output file {_where(target)} already exists; pass overwrite=True (--force) to "
            "replace it"
        )
    if target.exists() and not os.access(target, os.W_OK):
        raise OutputError(f"output file {_where(target)} is read-only")
    return target


@contextlib.contextmanager
def atomic_path(path: PathLike, *, overwrite: bool = False) -> Iterator[Path]:
    """A temporary path beside ``path`` to write to; moved onto ``path`` if the block succeeds.

    For writers that want a file name (e.g. a renderer). The temporary file keeps the
    target's suffix, so tools that choose a format by suffix still do. On an error the
    temporary file is removed and ``path`` is untouched. A symbolic link stays a link: the
    file it points to is replaced. A FIFO or a device (not a file to replace) is written in
    place, with no temporary file: it cannot be written atomically, and replacing it would
    destroy it.

    Raises:
        OutputError: as :func:`check_output`, or the write failed (e.g. a full disk).
    """
    named = check_output(path, overwrite=overwrite)
    target = Path(os.path.realpath(named))  # a link's file is replaced, the link kept
    if target.exists() and not target.is_file():  # a FIFO, a device: written in place
        yield named
        return
    try:
        handle, name = tempfile.mkstemp(
            prefix=_TEMP_PREFIX + target.stem + "-", suffix=target.suffix, dir=target.parent
        )
    except OSError as error:  # e.g. no inode left: the target is what the user named
        raise OutputError(f"cannot write {_where(named)}: {error.strerror or error}") from error
    os.close(handle)
    temporary = Path(name)
    try:
        yield temporary
        if target.exists() and not overwrite:  # appeared while we worked
            raise OutputError(
                f"output file {_where(named)} already exists; pass overwrite=True (--force) "
                "to replace it"
            )
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp's 0600 -> what open() would give
        os.replace(temporary, target)
    except OSError as error:
        if isinstance(error, OutputError):
            raise
        raise OutputError(f"cannot write {_where(named)}: {error.strerror or error}") from error
    finally:
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()


def write_bytes(path: PathLike, data: bytes, *, overwrite: bool = False) -> Path:
    """Write ``data`` to ``path`` atomically (see :func:`atomic_path`); return the path."""
    with atomic_path(path, overwrite=overwrite) as temporary, temporary.open("wb") as file:
        file.write(data)
        file.flush()
        if stat.S_ISREG(os.fstat(file.fileno()).st_mode):  # a FIFO or a device cannot sync
            os.fsync(file.fileno())
    return Path(path)


def write_text(
    path: PathLike, text: str, *, overwrite: bool = False, encoding: str = "utf-8"
) -> Path:
    """Write ``text`` to ``path`` atomically (see :func:`atomic_path`); return the path."""
    return write_bytes(path, text.encode(encoding), overwrite=overwrite)


def check_directory(path: PathLike, pattern: str, *, overwrite: bool = False) -> Path:
    """Check, without changing anything, that :func:`prepare_directory` would succeed.

    Raises:
        OutputError: as :func:`prepare_directory`.
    """
    folder = Path(path)
    if not str(path):
        raise OutputError("empty output directory; expected a directory name")
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"output directory {_where(folder)} is a file; expected a directory")
    existing = folder
    while not existing.exists():  # the nearest ancestor that exists must let us create it
        existing = existing.parent
    if not existing.is_dir():
        raise OutputError(
            f"cannot create output directory {_where(folder)}: {_where(existing)} is a file"
        )
    if not os.access(existing, os.W_OK | os.X_OK):
        raise OutputError(f"output directory {_where(existing)} is not writable")
    if folder.is_dir() and not overwrite:
        matcher = re.compile(pattern)
        old = [entry for entry in folder.iterdir() if matcher.fullmatch(entry.name)]
        if old:
            raise OutputError(
                f"output directory {_where(folder)} already holds {len(old)} file(s) like "
                f"{old[0].name!r}; pass overwrite=True (--force) to replace them"
            )
    return folder


def prepare_directory(path: PathLike, pattern: str, *, overwrite: bool = False) -> Path:
    """A directory for a set of files named by ``pattern``, created or emptied of old ones.

    Args:
        path: the directory (created with its parents if missing).
        pattern: a regular expression matching the names of the files this writer makes
            (e.g. ``r"frame-\\d+\\.svg"``); only those are removed from a reused directory.
        overwrite: whether old files of the pattern may be removed.

    Raises:
        OutputError: the path is a file, cannot be created or written, or holds old files of
            the pattern and ``overwrite`` is False.
    """
    folder = check_directory(path, pattern, overwrite=overwrite)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(
            f"cannot create output directory {_where(folder)}: {error.strerror or error}"
        ) from error
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"output directory {_where(folder)} is not writable")
    matcher = re.compile(pattern)
    old = [entry for entry in folder.iterdir() if matcher.fullmatch(entry.name)]
    if old and not overwrite:
        raise OutputError(
            f"output directory {_where(folder)} already holds {len(old)} file(s) like "
            f"{old[0].name!r}; pass overwrite=True (--force) to replace them"
        )
    for entry in old:
        entry.unlink()
    return folder


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM back (delivered at the end) while a few renames complete."""
    held = {signal.SIGINT, signal.SIGTERM}
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@contextlib.contextmanager
def replacing_files(path: PathLike, pattern: str, *, overwrite: bool = False) -> Iterator[Path]:
    """A hidden staging folder inside directory ``path`` to write a new set of files into; if
    the block succeeds, the set replaces the files of ``pattern`` there.

    The old set is untouched until the new one is whole: an error, Ctrl-C or a full disk
    while writing leaves the old files as they were (and removes the staging folder). The swap
    is a rename per file (with Ctrl-C and SIGTERM held back for those instants), then the old
    files the new set does not replace are removed.

    Raises:
        OutputError: as :func:`check_directory`, or a write or rename failed.
    """
    folder = check_directory(path, pattern, overwrite=overwrite)
    created = _missing_parents(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=_TEMP_PREFIX + "set-", dir=folder))
    except OSError as error:
        _remove_empty(created)
        raise OutputError(f"cannot write in {_where(folder)}: {error.strerror or error}") from None
    done = False
    try:
        yield staging
        matcher = re.compile(pattern)
        new = sorted(staging.iterdir())
        names = {entry.name for entry in new}
        old = [e for e in folder.iterdir() if matcher.fullmatch(e.name) and e.name not in names]
        with _signals_held():
            for entry in new:
                os.replace(entry, folder / entry.name)
            for entry in old:
                entry.unlink()
        done = True
    except OSError as error:
        cause = error.__cause__ if isinstance(error.__cause__, OSError) else error
        if isinstance(cause, OutputError):
            raise
        # the folder, not the hidden staging file, is what the user named
        raise OutputError(f"cannot write in {_where(folder)}: {cause.strerror or cause}") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        if not done:
            _remove_empty(created)


def _missing_parents(folder: Path) -> list[Path]:
    """``folder`` and its ancestors that do not exist yet, deepest first."""
    missing = []
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    return missing


def _remove_empty(folders: list[Path]) -> None:
    """Remove the folders made for a write that failed (deepest first), if still empty."""
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:
            return
