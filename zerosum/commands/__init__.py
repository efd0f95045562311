"""The subcommands of ``gamesolver``, one module each.

A command module has ``NAME``, ``ALIASES``, ``HELP``, ``add_arguments(parser)`` and
``run(args, io) -> exit code``; :data:`COMMANDS` lists them in the order ``--help`` shows.
"""

from __future__ import annotations

from types import ModuleType

from zerosum.commands import (
    analyse,
    best,
    board,
    games,
    kernels,
    match,
    play,
    review,
    solve,
    tablebase,
    tree,
)

__all__ = ["COMMANDS"]

COMMANDS: tuple[ModuleType, ...] = (
    games,
    solve,
    best,
    analyse,
    tree,
    play,
    match,
    tablebase,
    review,
    board,
    kernels,
)
