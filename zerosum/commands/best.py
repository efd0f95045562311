"""``gamesolver best``: every legal move valued, the optimal ones, the PV and the figures."""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Callable
from typing import Any

from solver.engine import search as engine_search
from solver.game import HasEndlessValue
from solver.interrupts import watching_interrupts
from solver.minimax import alphabeta, minimax
from solver.results import SearchResult
from zerosum.console import EXIT_INTERRUPTED, EXIT_OK, Io, UsageError
from zerosum.moves import move_rows, print_answer, result_json
from zerosum.options import (
    extra_fields,
    game_arguments,
    load,
    position,
    position_argument,
    positive_float,
    positive_int,
    refuse_unaffordable,
)
from zerosum.proving import book_oracle, book_values, proved_json, proved_lines
from zerosum.reach import OUT_OF_REACH, SLOW, end_search_cost, reach_said
from zerosum.tablebases import (
    SOURCE,
    from_tablebase,
    tablebase_arguments,
    tablebase_for,
    trouble_json,
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
    tablebase_arguments(best)
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
    refuse_unaffordable(game, state, args.algorithm, args.depth, args.time)
    consulted, tablebase = (
        tablebase_for(game, args, state, io.warn, quiet=args.json)
        if args.algorithm == "engine"
        else (None, None)
    )
    book = book_oracle(game, state, tablebase) if args.algorithm == "engine" else None
    unbounded = (
        book is None
        and args.depth is None
        and args.time is None
        and isinstance(game, HasEndlessValue)
    )
    if unbounded and not from_tablebase(tablebase, state) and not game.is_terminal(state):
        limits = "--depth N or --time S" if args.algorithm == "engine" else "--depth N"
        raise UsageError(
            f"{game.name} can repeat positions, so a search to the end of the game may never "
            f"end: give {limits}; for exact values use "
            f"'gamesolver solve {game.name} --position P' (every reachable position, cycles "
            f"included) or 'gamesolver analyse {game.name} --position P' (deeper and deeper, "
            "tablebases included)"
        )
    if book is None and args.depth is None and args.time is None:
        refuse_out_of_reach(game, state, args, tablebase, io)
    # probed inside the search (inside the compiled kernel); the opening book answers at once
    oracle = tablebase if book is None else book
    search = searcher(args.algorithm, args.depth, args.time, oracle)
    with watching_interrupts() as watch:  # the engine answers Ctrl-C with its last depth
        result = search(game, state)
    read = result.source == "oracle"
    done = EXIT_INTERRUPTED if watch.interrupted else EXIT_OK  # the answer so far, then 130

    def exact_child(child: Any) -> tuple[float, int | None]:
        depth = None if args.depth is None else args.depth - 1
        if depth == 0:
            return (horizon_value(game, child), 0)
        child_result = searcher(args.algorithm, depth, None, oracle)(game, child)
        return (child_result.value, child_result.plies)

    # Value the moves the teaching alpha-beta only bounded at the root (the engine values them
    # all itself), unless a limit stopped the search.
    rows = move_rows(game, state, result, exact_child if result.complete else None)
    if args.json:
        algorithm = "opening book" if book is not None else "tablebase" if read else args.algorithm
        answer = result_json(
            game, state, result, rows, algorithm=algorithm, tablebase=read and book is None
        )
        answer.update(proved_json(game, book_values(game, state, tablebase)))
        trouble = None if read or consulted is None else trouble_json(consulted, state)
        if trouble is not None:
            answer["tablebase_coverage"] = trouble
        io.json(answer)
        return done
    title = "tablebase" if read else f"{args.algorithm} search"
    source = SOURCE if read else ""
    if book is not None:
        title, source = "opening book", "exact (opening book)"
    print_answer(io, game, state, result, rows, title=title, source=source)
    for line in proved_lines(game, state, book_values(game, state, tablebase)):
        io.print(line)
    return done


def refuse_out_of_reach(
    game: Any, state: Any, args: argparse.Namespace, tablebase: Any, io: Io
) -> None:
    """Refuse a search to the end estimated out of reach, warn about a slow one (see
    :mod:`zerosum.reach`); a position over or read from the tablebase costs nothing."""
    if game.is_terminal(state) or from_tablebase(tablebase, state):
        return
    cost = end_search_cost(
        game, state, prunes=args.algorithm != "minimax", table=args.algorithm == "engine"
    )
    if cost is None or cost.visits <= SLOW:
        return
    limits = "--depth N or --time S" if args.algorithm == "engine" else "--depth N"
    options = "".join(f" -O {shlex.quote(option)}" for option in args.option or ())
    where = options + ("" if args.position is None else " --position P")
    said = reach_said(game, cost, limits, where)
    if cost.visits > OUT_OF_REACH:
        raise UsageError(said)
    io.warn(f"warning: {said}; searching to the end: this can take minutes (Ctrl-C stops it)")


def horizon_value(game: Any, state: Any) -> float:
    if game.is_terminal(state):
        return float(game.utility(state))
    return float(game.evaluate(state))


def searcher(
    algorithm: str,
    depth: int | None,
    time_limit: float | None,
    oracle: Callable[[Any], float | None] | None = None,
) -> Callable[[Any, Any], SearchResult]:
    if algorithm == "engine":  # every root move exactly valued, as analyse does
        return lambda game, state: engine_search(
            game, state, depth=depth, time_limit=time_limit, all_values=True, oracle=oracle
        )
    teaching = minimax if algorithm == "minimax" else alphabeta
    return lambda game, state: teaching(game, state, depth=depth)
