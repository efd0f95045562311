"""The ``gamesolver`` command line: the application layer over solver, games and viz.

This package is the only one that imports all three: ``solver`` knows no game and no diagram,
``games`` only the protocol, ``viz`` only the searches. Each subcommand is a module of
:mod:`zerosum.commands`; :func:`zerosum.cli.main` runs them, and :func:`main` here starts it.

Importing the package imports nothing else, so that :func:`main` can catch a Ctrl-C that comes
while the rest (numpy, networkx, rich, the games) is still being imported.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

__all__ = ["main"]

EXIT_INTERRUPTED = 130


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``gamesolver``: :func:`zerosum.cli.main`, with a Ctrl-C during start-up exiting 130.

    >>> main(["games", "--json"]) == 0  # doctest: +ELLIPSIS
    [...
    True
    """
    try:
        from zerosum.cli import main as run
    except KeyboardInterrupt:
        sys.stderr.write("gamesolver: error: interrupted\n")
        return EXIT_INTERRUPTED
    return run(argv)
