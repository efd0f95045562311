"""The ``gamesolver`` command line: the application layer over solver, games and viz.

This package is the only one that imports all three: ``solver`` knows no game and no diagram,
``games`` only the protocol, ``viz`` only the searches. Each subcommand is a module of
:mod:`zerosum.commands`; :func:`zerosum.cli.main` runs them.
"""

from zerosum.cli import main

__all__ = ["main"]
