"""What worker processes write on stderr: caught in a file each, passed on once it is known
to be ordinary output, kept in a log for the user when the worker dies.

A worker that crashes (CPython's "Fatal Python error", LLVM's "out of memory", the C
library's abort, a segmentation fault reported by ``faulthandler``) writes a report of tens of
lines straight to stderr as it dies. Shown raw, it comes before, and buries, the parent's one
line naming the dead worker. So each worker writes its stderr into a file of its own
(:func:`capture_stderr`, first thing in the worker), and tells the parent, with each answer it
sends, how much of that file it had written by then (:func:`written`): the parent passes that
much on to its own stderr (:meth:`WorkerOutput.relay`), so warnings and notes reach the user
as before, at the worker's next answer. What a worker writes after its last answer is passed
on only if it ends as asked (:meth:`WorkerOutput.finish`); of a worker that died instead, it is
copied into a log file that is kept, and that the parent's error names with its first line
(:meth:`WorkerOutput.last_words`).

The capture files have no name (removed as soon as made, open in the parent and its worker
only): nothing is left on disk when the workers end, even after ``kill -9``, but the log of a
worker that died. Where no file can be made (a full or read-only temporary folder) the
worker's stderr stays the parent's, as without any of this.
"""

from __future__ import annotations

import contextlib
import faulthandler
import os
import sys
import tempfile
from multiprocessing import reduction
from pathlib import Path
from typing import Any, Final

import attrs

__all__ = ["Descriptor", "WorkerOutput", "capture_stderr", "written"]

_QUOTED: Final = 120
"""The most characters of a dead worker's first line that its error quotes."""

_captured: list[bool] = [False]
"""Whether this process's stderr goes to a capture file (set in the worker)."""


@attrs.frozen
class Descriptor:
    """A file descriptor given to a worker process: the same number in a forked worker; sent
    along (duplicated for it) when a spawned worker unpickles it, as multiprocessing sends a
    pipe's."""

    fd: int

    def __reduce__(self) -> tuple[Any, ...]:
        return (_received, (reduction.DupFd(self.fd),))


def _received(duplicate: Any) -> Descriptor:
    return Descriptor(duplicate.detach())


def capture_stderr(capture: Descriptor | None) -> None:
    """In a worker: send file descriptor 2 (``sys.stderr``, C's stderr, ``faulthandler``'s
    reports) into ``capture``. Nothing changes when it is None."""
    if capture is None:
        return
    with contextlib.suppress(Exception):
        sys.stderr.flush()
    try:
        os.dup2(capture.fd, 2)
    except OSError:
        return
    with contextlib.suppress(OSError):
        os.close(capture.fd)
    _captured[0] = True
    try:
        on_two = sys.stderr.fileno() == 2
    except Exception:  # replaced (contextlib.redirect_stderr, a test's capture)
        on_two = False
    if not on_two:  # what Python code writes is captured too
        sys.stderr = open(  # noqa: SIM115 (it is stderr: open as long as the process)
            2, "w", encoding="utf-8", errors="backslashreplace", closefd=False, buffering=1
        )
    if faulthandler.is_enabled():  # its reports went to the stderr it was enabled with
        faulthandler.enable(2, all_threads=True)


def written() -> int | None:
    """In a worker, before it sends an answer: how many bytes it has written into its capture
    file (flushing ``sys.stderr`` first); None when its stderr is not captured."""
    if not _captured[0]:
        return None
    with contextlib.suppress(Exception):
        sys.stderr.flush()
    try:
        return os.fstat(2).st_size
    except OSError:
        return None


@attrs.define(eq=False)
class WorkerOutput:
    """The parent's side of one worker's capture file (``fd`` None: not captured)."""

    name: str
    """The worker's name, which a kept log's name begins with."""
    fd: int | None
    shown: int = 0
    """Bytes of the file already passed on to this process's stderr."""

    @classmethod
    def create(cls, name: str) -> WorkerOutput:
        """A new, empty, nameless capture file for the worker ``name`` (None inside if no
        file can be made: the worker then writes to this process's stderr)."""
        try:
            fd, path = tempfile.mkstemp(prefix="gamesolver-worker-")
        except OSError:
            return cls(name, None)
        with contextlib.suppress(OSError):
            os.unlink(path)
        return cls(name, fd)

    @property
    def capture(self) -> Descriptor | None:
        """What to give the worker's :func:`capture_stderr`."""
        return None if self.fd is None else Descriptor(self.fd)

    def relay(self, upto: int | None = None) -> None:
        """Pass what the worker wrote up to byte ``upto`` (None: all it wrote) on to this
        process's stderr."""
        data = self._unshown(upto)
        self.shown += len(data)
        if data:
            with contextlib.suppress(Exception):
                sys.stderr.write(data.decode("utf-8", errors="replace"))
                sys.stderr.flush()

    def finish(self, exitcode: int | None) -> None:
        """The worker has ended: the rest of what it wrote is passed on if it ended as asked
        (status 0), not otherwise (the report of a crash, or of a worker ended by force
        half-way through a line); the capture file is closed."""
        if exitcode == 0:
            self.relay()
        fd, self.fd = self.fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)

    def last_words(self, keep: bool = True) -> tuple[str, Path | None] | None:
        """For a worker that died: the first line it wrote after its last answer, and
        (``keep``) a log file, in the temporary folder, with all it wrote then (None if it
        cannot be written); None if it wrote nothing more."""
        data = self._unshown(None)
        text = data.decode("utf-8", errors="replace")
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if not lines:
            return None
        first = lines[0] if len(lines[0]) <= _QUOTED else lines[0][: _QUOTED - 3] + "..."
        return first, self._log(data) if keep else None

    def _log(self, data: bytes) -> Path | None:
        try:
            fd, path = tempfile.mkstemp(prefix=f"gamesolver-{self.name}-", suffix=".log")
        except OSError:
            return None
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(path)
            return None
        return Path(path)

    def _unshown(self, upto: int | None) -> bytes:
        """The bytes after those shown, up to byte ``upto`` (None: to the end)."""
        if self.fd is None:
            return b""
        try:
            end = os.fstat(self.fd).st_size if upto is None else upto
            return os.pread(self.fd, max(0, end - self.shown), self.shown)
        except OSError:
            return b""


def start_captured(
    context: Any, name: str, target: Any, args: tuple[Any, ...]
) -> tuple[Any, WorkerOutput]:
    """Start a daemon worker process ``name`` running ``target(*args, capture)``, its stderr
    caught in a new :class:`WorkerOutput` (closed again if the process cannot start)."""
    output = WorkerOutput.create(name)
    process = context.Process(target=target, args=(*args, output.capture), name=name, daemon=True)
    try:
        process.start()
    except BaseException:
        output.finish(None)
        raise
    return process, output
