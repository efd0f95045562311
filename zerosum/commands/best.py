"""``gamesolver best``: every legal move valued, the optimal ones, the PV and the figures."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from solver import minimax
from solver.results import SearchResult
from zerosum.console import EXIT_OK, Io, UsageError
from zerosum.moves import move_rows, print_answer, result_json
from zerosum.options import (
    extra_fields,
    game_arguments,
    load,
    position,
    position_argument,
    positive_float,
    positive_int,
)

NAME = "best"
ALIASES: tuple[str, ...] = ()
HELP = "value every legal move of a position and show best play"


def add_arguments(best: argparse.ArgumentParser) -> None:
    """The options of ``gamesolver best``."""
    game_arguments(best)
    position_argument(best)
    best.add_argument(
        "--algorithm",
        "-a",
        choices=("minimax", "alphabeta", "engine"),
        default="engine",
        help="search algorithm (default: engine)",
    )
    best.add_argument("--depth", "-d", type=positive_int, help="search depth (default: to the end)")
    best.add_argument("--time", type=positive_float, metavar="S", help="engine: time limit")
    extra_fields(best)
    best.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace, io: Io) -> int:
    """``gamesolver best``: every legal move valued, the optimal ones, the PV and the figures."""
    game = load(args)
    state = position(game, args)
    if args.time is not None and args.algorithm != "engine":
        raise UsageError(
            f"--time limits the engine only, not {args.algorithm!r}; "
            "use --algorithm engine, or --depth N for the teaching searches"
        )
    search = searcher(args.algorithm, args.depth, args.time)
    result = search(game, state)

    def exact_child(child: Any) -> tuple[float, int | None]:
        depth = None if args.depth is None else args.depth - 1
        if depth == 0:
            return (horizon_value(game, child), 0)
        child_result = searcher(args.algorithm, depth, None)(game, child)
        return (child_result.value, child_result.plies)

    # Value the moves a pruning search only bounded, unless a limit stopped the search.
    rows = move_rows(game, state, result, exact_child if result.complete else None)
    if args.json:
        io.json(result_json(game, state, result, rows, algorithm=args.algorithm))
        return EXIT_OK
    print_answer(io, game, state, result, rows, title=f"{args.algorithm} search")
    return EXIT_OK


def horizon_value(game: Any, state: Any) -> float:
    if game.is_terminal(state):
        return float(game.utility(state))
    return float(game.evaluate(state))


def searcher(
    algorithm: str, depth: int | None, time_limit: float | None
) -> Callable[[Any, Any], SearchResult]:
    if algorithm == "engine":
        from solver.engine import search

        return lambda game, state: search(game, state, depth=depth, time_limit=time_limit)
    teaching = minimax.minimax if algorithm == "minimax" else minimax.alphabeta
    return lambda game, state: teaching(game, state, depth=depth)
