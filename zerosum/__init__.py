"""The ``gamesolver`` command line: the application layer over solver, games and viz.

This package is the only one that imports all three: ``solver`` knows no game and no diagram,
``games`` only the protocol, ``viz`` only the searches. Each subcommand is a module of
:mod:`zerosum.commands`; :func:`zerosum.cli.main` runs them, and :func:`main` here starts it.

Importing the package imports nothing else, so that :func:`main` can catch a Ctrl-C that comes
while the rest (numpy, networkx, rich, the games) is still being imported.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Sequence

__all__ = ["EXIT_INTERRUPTED", "EXIT_TERMINATED", "Terminated", "main"]

EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the program is (as Ctrl-C is), so every ``finally`` runs: worker
    processes are ended and temporary files removed before the exit."""


def _terminate(signum: int, frame: object) -> None:
    raise Terminated


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``gamesolver``: :func:`zerosum.cli.main`, with a Ctrl-C during start-up exiting 130.

    >>> main(["games", "--json"]) == 0  # doctest: +ELLIPSIS
    [...
    True
    """
    try:
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, _terminate)
        from zerosum.cli import main as run

        return run(argv)
    except Terminated:
        sys.stderr.write("gamesolver: error: terminated\n")
        return EXIT_TERMINATED
    except KeyboardInterrupt:
        sys.stderr.write("gamesolver: error: interrupted\n")
        return EXIT_INTERRUPTED
