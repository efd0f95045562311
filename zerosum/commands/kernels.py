"""``gamesolver compile``: compile the games' native kernels now, so no later command waits.

A game with a compiled search (:class:`solver.game.HasCompiledSearch`, Ayòayò's numba kernel)
or on the compiled route (:class:`solver.game.HasCompiledRules`, Connect Four: the generic
node search compiled against its rules, :mod:`solver.compiled`) compiles it once, on first
use, and caches it on disk; searches never count that time against
their ``--time``, but the first command still waits for it. This command does it ahead of
time (the set-up runs it), and says what it did: compiled, loaded from the cache, or no
kernel to use (numba not installed, or ``GAMESOLVER_NATIVE=0``: searches then run in Python).
"""

from __future__ import annotations

import argparse

from games import available_games, load_game
from solver.compiled import prepare
from solver.errors import GameError
from solver.game import HasCompiledRules, HasCompiledSearch
from zerosum.console import EXIT_OK, Io

NAME = "compile"
ALIASES: tuple[str, ...] = ()
HELP = "compile the games' native kernels now (once; later commands load them from the cache)"


def add_arguments(compile_: argparse.ArgumentParser) -> None:
    """The options of ``gamesolver compile``."""
    compile_.add_argument(
        "games",
        nargs="*",
        metavar="GAME",
        help="the games whose kernels to compile (default: every game that has one)",
    )


def run(args: argparse.Namespace, io: Io) -> int:
    """``gamesolver compile``: each game's kernels compiled or loaded, a line each."""
    names = args.games or available_games()
    for name in names:
        try:
            game = load_game(name)  # an unknown name is an error that lists the games
        except Exception as exc:  # a plug-in's code may raise anything
            said = " ".join(str(exc).split()) or type(exc).__name__
            if args.games and isinstance(exc, GameError):
                raise
            if args.games:
                raise GameError(f"game {name!r} cannot be loaded: {said}") from exc
            io.print(f"{name}: cannot be loaded, skipped ({said})")
            continue
        if isinstance(game, HasCompiledSearch):
            seconds = game.compile_kernels()
        elif isinstance(game, HasCompiledRules):
            seconds = prepare(game)
        else:
            if args.games:
                io.print(f"{name}: no compiled kernel (its searches run in Python)")
            continue
        if seconds is None:
            io.print(
                f"{name}: no compiled kernel to use (numba is not installed, "
                "GAMESOLVER_NATIVE=0, or it failed to build): its searches run in Python, with "
                "the same answers"
            )
        elif seconds:
            io.print(f"{name}: compiled in {seconds:.1f} s; later commands load it from the cache")
        else:
            io.print(f"{name}: ready (loaded from the cache; nothing to compile)")
    return EXIT_OK
