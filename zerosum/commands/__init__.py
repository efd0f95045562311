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
    prove,
    review,
    scores,
    solve,
    tablebase,
    tree,
    verify,
)

__all__ = ["COMMANDS"]

COMMANDS: tuple[ModuleType, ...] = (
    games,
    solve,
    prove,
    verify,
    scores,
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
