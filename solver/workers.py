"""Worker processes of our own that never hang, never outlive their parent and name their dead.

Assumes picklable tasks (a module-level function and its arguments) and a POSIX system
(Linux for the parent-death signal; elsewhere a watcher thread does the same within
:data:`WATCH_SECONDS`).

Not a ``ProcessPoolExecutor``: a worker killed mid-write (the out-of-memory killer, kill -9)
can leave its manager thread waiting for ever on a half-written result, and Ctrl-C then hangs.
Here each worker has a pipe of its own (a half-written result is an end of file, not a wait),
the parent watches each worker's process handle, and:

- a worker that dies raises :class:`WorkerDiedError` naming it (pid, signal or status), in
  one line: what it wrote on stderr is caught (:mod:`solver.worker_output`), passed on with
  each answer, and a crash report it leaves as it dies is kept in a log the error names;
- leaving the ``with`` block for any reason (an error, Ctrl-C, SIGTERM turned into an
  exception by the caller) ends every worker: asked, then terminated, then killed;
- a worker whose parent dies (even by SIGKILL) exits at once: the kernel's parent-death
  signal on Linux, a watcher thread of ``os.getppid()`` elsewhere;
- workers ignore Ctrl-C (the terminal sends it to the whole process group): the parent
  answers it, and ends them.

>>> with WorkerPool(2, name="doc") as pool:
...     list(pool.map(pow, [2, 3, 4], [2, 2, 2]))
[4, 9, 16]
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import multiprocessing
import multiprocessing.connection
import os
import pickle
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Final, Protocol

import attrs

from solver.errors import GameError
from solver.resources import address_space_limit
from solver.worker_output import (
    Descriptor,
    WorkerOutput,
    capture_stderr,
    start_captured,
    written,
)

__all__ = [
    "LOOK_AHEAD",
    "WATCH_SECONDS",
    "Mapper",
    "WorkerDiedError",
    "WorkerPool",
    "describe_death",
    "die_with_parent",
    "kill_with_parent",
]

WATCH_SECONDS: Final = 0.1
"""How often a worker checks that its parent is alive (where no parent-death signal exists)."""

LOOK_AHEAD: Final = 2
"""Tasks in flight per worker: enough to keep workers busy, few enough to stop at once."""

_GRACE: Final = 1.0
"""Seconds a worker is given to exit when asked, then to die when terminated."""

_PR_SET_PDEATHSIG: Final = 1

_OUT_OF_MEMORY: Final = 75
"""A worker's exit status when it ran out of memory reading its task (loading the modules
the task's function needs): the parent then says so instead of showing a traceback."""

_UNREADABLE_TASK: Final = 76
"""A worker's exit status when its task could not be read otherwise (it wrote why, one line)."""

_SAYS: Final = "gamesolver: worker: "
"""How the line begins that a worker writes when it cannot read its task."""


class Mapper(Protocol):
    """Anything that maps a function over arguments in order, like ``Executor.map``: a
    :class:`WorkerPool`, a ``concurrent.futures`` executor, a Dask client's executor."""

    def map(self, fn: Callable[..., Any], /, *iterables: Iterable[Any]) -> Iterator[Any]: ...


class WorkerDiedError(GameError, RuntimeError):
    """A worker process ended while it had work (killed, out of memory, crashed)."""


def describe_death(exitcode: int | None, last_words: tuple[str, Path | None] | None = None) -> str:
    """How a worker process ended, from its ``exitcode`` (``multiprocessing``'s: a signal
    negative), e.g. "was killed by SIGABRT"; ``last_words``: the first line it wrote as it
    died and the log that keeps all it wrote then (:meth:`WorkerOutput.last_words`), quoted."""
    if exitcode is not None and exitcode < 0:
        try:
            how = f"was killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            how = f"was killed by signal {-exitcode}"
        if exitcode == -signal.SIGKILL:
            how += " (the out-of-memory killer, or kill -9)"
    elif exitcode == _OUT_OF_MEMORY:
        how = (
            "ran out of memory loading its work (a limit of the process, e.g. ulimit -v, "
            "or the machine's)"
        )
    elif exitcode == _UNREADABLE_TASK:
        if last_words is None:  # not captured: the worker's own line went to stderr
            how = "could not load its work (the line above says why)"
        else:
            how = f"could not load its work ({last_words[0].removeprefix(_SAYS)})"
            last_words = None
    elif exitcode is not None:
        how = f"exited with status {exitcode}"
    else:
        how = "closed its pipe"
    if last_words is not None:
        said, log = last_words
        kept = f"its whole report: {log}" if log is not None else "its report could not be kept"
        # out of memory loading its work: the status says why, what it wrote is noise
        how += f" ({kept})" if exitcode == _OUT_OF_MEMORY else f" (it wrote {said!r}; {kept})"
    return how


def _death(
    name: str,
    pid: int | None,
    exitcode: int | None,
    last_words: tuple[str, Path | None] | None = None,
) -> WorkerDiedError:
    """The error for the worker ``name`` that died (see :func:`describe_death`)."""
    how = describe_death(exitcode, last_words)
    limit = address_space_limit()
    again = "with fewer workers if memory is short"
    if limit is not None:  # each worker has the same limit: fewer of them would not help
        again = (
            f"with more than the {limit >> 20:,} MB of address space each process may use "
            "(ulimit -v), the likely cause"
        )
    return WorkerDiedError(
        f"worker process {name} (pid {pid}) {how} while it had work; its results are lost, "
        f"so the work was stopped and nothing partial was kept: run it again ({again})"
    )


def kill_with_parent(parent: int | None = None) -> None:
    """Ask the kernel to SIGKILL this process when its parent dies (Linux; elsewhere nothing).

    Made for ``subprocess``'s ``preexec_fn`` (as ``functools.partial(kill_with_parent,
    os.getpid())``): a helper program (Graphviz's ``dot``) started so never outlives a command
    that is killed, even by ``kill -9``; the request survives the ``exec`` of the program. Given
    the pid the parent had, a process whose parent already died between the fork and the
    request (the signal would then never come) ends at once.
    """
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError, TypeError):
            libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if parent is not None and os.getppid() != parent:  # died before the request was made
        os._exit(1)


def die_with_parent(parent: int) -> None:
    """Have this process end when ``parent`` does: a kernel signal, and a watcher thread.

    Called first thing in a worker process (ours here, the analysis board's search workers),
    with the pid its parent had when it started it.
    """
    kill_with_parent(parent)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watcher", daemon=True).start()


def _picklable(error: BaseException) -> BaseException:
    try:
        pickle.dumps(error)
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {error}")
    return error


def _worker_main(conn: Connection, parent: int, capture: Descriptor | None = None) -> None:
    """A worker's life: run each ``(tag, fn, args)`` received and send ``(tag, ok, result,
    written)`` back (``written``: how much it had written into ``capture``, its stderr, by
    then), until told to stop (None) or the pipe closes."""
    capture_stderr(capture)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent(parent)
    while True:
        try:
            message = conn.recv()  # imports what the task's function needs
        except (EOFError, OSError):
            return
        except MemoryError:  # no task to answer: the exit status says it (see _death)
            os._exit(_OUT_OF_MEMORY)
        except Exception as error:  # e.g. a module that fails to import, short of memory
            with contextlib.suppress(OSError):
                os.write(2, f"{_SAYS}{type(error).__name__}: {error}\n".encode())
            os._exit(_UNREADABLE_TASK)
        if message is None:
            return
        tag, fn, args = message
        try:
            reply = (tag, True, fn(*args))
        except Exception as error:  # sent to the parent, which raises it there
            reply = (tag, False, _picklable(error))
        said = written()
        try:
            conn.send((*reply, said))
        except (pickle.PicklingError, TypeError, AttributeError) as error:
            conn.send((tag, False, _picklable(error), said))
        except OSError:  # the parent is gone
            return


@attrs.define(eq=False)
class _Worker:
    name: str
    process: Any
    conn: Connection
    output: WorkerOutput
    tags: set[tuple[int, int]] = attrs.Factory(set)


@attrs.define(eq=False)
class WorkerPool:
    """Worker processes that run tasks sent over their own pipes (see the module notes).

    Use it as a context manager; :meth:`map` (in order, like ``Executor.map``) and
    :meth:`imap_unordered` (as they finish) are lazy and keep :data:`LOOK_AHEAD` tasks per
    worker in flight.

    Args:
        workers: how many processes (>= 1).
        name: the prefix of their names (``name-0``, ``name-1``, ...), used in errors.
    """

    workers: int
    name: str = "worker"
    _pool: list[_Worker] = attrs.field(factory=list, init=False, repr=False)
    _generation: int = attrs.field(default=0, init=False, repr=False)

    def __enter__(self) -> WorkerPool:
        self.start()
        return self

    def __exit__(self, kind: object, error: object, traceback: object) -> None:
        self.close(abandon=kind is not None)

    @property
    def pids(self) -> list[int]:
        """The process ids of the workers (started and not yet closed)."""
        return [w.process.pid for w in self._pool]

    def start(self) -> None:
        """Start the processes (if not started)."""
        if self._pool:
            return
        if self.workers < 1:
            raise ValueError(f"bad number of workers {self.workers!r}; expected an int >= 1")
        context: Any = multiprocessing.get_context()  # typeshed: no Process on BaseContext
        if context.get_start_method() == "forkserver":
            # The default on Linux from Python 3.14: a forkserver's children are not this
            # process's, so their watch of their parent would end them at once; spawn's are.
            context = multiprocessing.get_context("spawn")
        try:
            for n in range(self.workers):
                mine, theirs = context.Pipe(duplex=True)
                name = f"{self.name}-{n}"
                process, output = start_captured(context, name, _worker_main, (theirs, os.getpid()))
                theirs.close()  # so a dead worker's pipe reads as the end of file here
                self._pool.append(_Worker(name, process, mine, output))
        except BaseException:
            self.close(abandon=True)
            raise

    def close(self, *, abandon: bool = False) -> None:
        """End every worker: asked to stop (``abandon``: terminated at once), then killed if
        still there after :data:`_GRACE` seconds. Never raises, never waits longer. What a
        worker that ended as asked wrote last is passed on; the capture files are removed,
        but for the logs of workers that died (named in their errors)."""
        pool, self._pool = self._pool, []
        for worker in pool:
            if abandon:
                with contextlib.suppress(OSError, ValueError):
                    worker.process.terminate()
            else:
                with contextlib.suppress(OSError, ValueError):
                    worker.conn.send(None)
        deadline = time.monotonic() + _GRACE
        for worker in pool:
            worker.process.join(max(0.0, deadline - time.monotonic()))
        for worker in pool:
            if worker.process.is_alive():
                with contextlib.suppress(OSError, ValueError):
                    worker.process.kill()
                worker.process.join(_GRACE)
            with contextlib.suppress(OSError, ValueError):
                worker.conn.close()
            worker.output.finish(worker.process.exitcode)

    def map(self, fn: Callable[..., Any], /, *iterables: Iterable[Any]) -> Iterator[Any]:
        """``fn(*args)`` for the arguments zipped from ``iterables``, in order, lazily.

        Raises:
            WorkerDiedError: a worker died; the exception a task raised, re-raised here.
        """
        waiting: dict[int, Any] = {}
        following = 0
        for index, result in self._run(fn, zip(*iterables, strict=False)):
            waiting[index] = result
            while following in waiting:
                yield waiting.pop(following)
                following += 1

    def imap_unordered(
        self, fn: Callable[..., Any], arguments: Iterable[tuple[Any, ...]]
    ) -> Iterator[Any]:
        """``fn(*args)`` for each tuple of ``arguments``, as they finish (any order)."""
        for _, result in self._run(fn, arguments):
            yield result

    def _run(
        self, fn: Callable[..., Any], arguments: Iterable[tuple[Any, ...]]
    ) -> Iterator[tuple[int, Any]]:
        self.start()
        self._generation += 1
        generation = self._generation
        for worker in self._pool:  # results of an abandoned run are not this run's
            worker.tags.clear()
        todo = enumerate(arguments)
        exhausted = False
        while True:
            for worker in self._pool:
                while not exhausted and len(worker.tags) < LOOK_AHEAD:
                    task = next(todo, None)
                    if task is None:
                        exhausted = True
                        break
                    index, args = task
                    try:
                        worker.conn.send(((generation, index), fn, tuple(args)))
                    except OSError:
                        raise self._died(worker) from None
                    worker.tags.add((generation, index))
            if exhausted and not any(worker.tags for worker in self._pool):
                return
            yield from self._collect(generation)

    def _collect(self, generation: int) -> Iterator[tuple[int, Any]]:
        by_handle: dict[Any, _Worker] = {}
        for worker in self._pool:
            by_handle[worker.conn] = worker
            by_handle[worker.process.sentinel] = worker
        ready = multiprocessing.connection.wait(list(by_handle), timeout=0.5)
        for handle in ready:
            worker = by_handle[handle]
            if handle is not worker.conn:
                raise self._died(worker)
            try:
                tag, ok, payload, said = worker.conn.recv()
            except (EOFError, OSError):
                raise self._died(worker) from None
            worker.output.relay(said)  # what it wrote before answering: its notes, warnings
            if tag not in worker.tags or tag[0] != generation:
                continue  # a late answer of an abandoned run
            worker.tags.discard(tag)
            if not ok:
                raise payload
            yield tag[1], payload

    def _died(self, worker: _Worker) -> WorkerDiedError:
        worker.process.join(_GRACE)
        exitcode = worker.process.exitcode
        said = worker.output.last_words(keep=exitcode != _UNREADABLE_TASK)  # its one line
        return _death(worker.name, worker.process.pid, exitcode, said)
