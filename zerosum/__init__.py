"""The ``gamesolver`` command line: the application layer over solver, games and viz.

This package is the only one that imports all three: ``solver`` knows no game and no diagram,
``games`` only the protocol, ``viz`` only the searches. Each subcommand is a module of
:mod:`zerosum.commands`; :func:`zerosum.cli.main` runs them, and :func:`main` here starts it.

Importing the package imports nothing else, so that :func:`main` can catch a Ctrl-C that comes
while the rest (numpy, networkx, rich, the games) is still being imported.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # the C module: no enum import, so it is set at once


def _interrupted_early(signum: int, frame: object) -> None:
    """Ctrl-C while this package's own few imports run (before :func:`main` can catch it):
    one line and exit 130. Set only for that instant: a program that imports the package keeps
    Python's own handling."""
    import os

    os.write(2, b"gamesolver: error: interrupted\n")
    os._exit(130)


if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:  # not in a test runner's
    _signal.signal(_signal.SIGINT, _interrupted_early)  # own handler, nor where it is ignored

import signal  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
from collections.abc import Sequence  # noqa: E402

__all__ = ["EXIT_INTERRUPTED", "EXIT_TERMINATED", "Terminated", "command", "main"]

EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the program is (as Ctrl-C is), so every ``finally`` runs: worker
    processes are ended and temporary files removed before the exit."""


def _terminate(signum: int, frame: object) -> None:
    raise Terminated


def _import_hashlib() -> None:
    """Import :mod:`hashlib` (the rest imports it) without its own error report: short of
    memory, it logs a traceback for each hash it cannot load and goes on without them.

    Raises:
        MemoryError: a hash the program uses could not be loaded (short of memory).
    """
    import logging

    logging.disable(logging.CRITICAL)
    try:
        import hashlib
    finally:
        logging.disable(logging.NOTSET)
    if not all(hasattr(hashlib, name) for name in ("md5", "sha1", "sha256", "blake2b")):
        raise MemoryError


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``gamesolver``: :func:`zerosum.cli.main`, with a Ctrl-C during start-up exiting 130.

    >>> main(["games", "--json"]) == 0  # doctest: +ELLIPSIS
    [...
    True
    """
    try:
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, _terminate)
        try:
            _import_hashlib()
            from zerosum.cli import main as run
        except (MemoryError, SystemError):  # a low ulimit -v: the imports cannot even finish
            # (an extension module whose allocation fails may return NULL with no exception
            # set, which CPython reports as a SystemError rather than a MemoryError)
            sys.stderr.write(
                "gamesolver: error: out of memory while starting (a limit of this process, "
                "e.g. ulimit -v, or the machine's); it needs about 200 MB of address space to "
                "start (more with the compiled kernel): raise the limit\n"
            )
            return 1
        except (ImportError, OSError) as exc:  # a library that cannot be loaded at all
            text = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:300]
            sys.stderr.write(f"gamesolver: error: cannot start: {text}\n")
            return 1
        return run(argv)
    except Terminated:
        sys.stderr.write("gamesolver: error: terminated\n")
        return EXIT_TERMINATED
    except KeyboardInterrupt:
        sys.stderr.write("gamesolver: error: interrupted\n")
        return EXIT_INTERRUPTED


if _signal.getsignal(_signal.SIGINT) is _interrupted_early:  # imported: Ctrl-C is an exception
    _signal.signal(_signal.SIGINT, _signal.default_int_handler)  # again, which main() catches


def command() -> None:
    """The ``gamesolver`` program: :func:`main`, then the exit with its status.

    The interpreter's last garbage collection is skipped (:func:`gc.freeze`): the exit frees
    everything anyway, and with the compiled kernels and a server loaded that collection took
    up to a second after a Ctrl-C (0.4-2.4 s to stop the board on a loaded machine, 0.2-0.4 s
    without it). Only the program does this: :func:`main` called from Python leaves the
    collector alone.
    """
    code = main()
    import gc

    gc.freeze()
    sys.exit(code)
