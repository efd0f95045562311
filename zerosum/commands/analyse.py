"""``gamesolver analyse``: the engine on one position, deeper and deeper, then the answer."""

from __future__ import annotations

import argparse
from typing import Any

from solver.compiled import prepare
from solver.game import EndgameTablebase
from solver.interrupts import watching_interrupts
from solver.results import SearchResult
from zerosum.analysis import DEFAULT_ANALYSE_SECONDS, analysis_search, answer_json, over_json
from zerosum.console import EXIT_INTERRUPTED, EXIT_OK, Io, UsageError
from zerosum.moves import depth_line, move_rows, print_answer
from zerosum.options import (
    extra_fields,
    game_arguments,
    load,
    position,
    position_argument,
    positive_float,
    positive_int,
    seed_int,
)
from zerosum.proving import prove_position, proved_json, proved_lines
from zerosum.report import board_lines
from zerosum.tablebases import (
    SOURCE,
    from_tablebase,
    tablebase_arguments,
    tablebase_for,
)

NAME = "analyse"
ALIASES: tuple[str, ...] = ("analyze",)
HELP = "analyse a position with the engine, deeper and deeper"


def add_arguments(analyse: argparse.ArgumentParser) -> None:
    """The options of ``gamesolver analyse``."""
    game_arguments(analyse)
    position_argument(analyse)
    extra_fields(analyse)
    limit = analyse.add_mutually_exclusive_group()
    limit.add_argument("--depth", "-d", type=positive_int, metavar="N", help="search depth N")
    limit.add_argument(
        "--time",
        "-t",
        type=positive_float,
        metavar="S",
        help=f"search for S seconds (default {DEFAULT_ANALYSE_SECONDS:g} without --depth)",
    )
    analyse.add_argument("--seed", type=seed_int, help="break ties between equal moves at random")
    analyse.add_argument(
        "--compiled",
        action="store_true",
        help="insist on the game's compiled search (connect4 and ayoayo, where it is the default "
        "anyway): an error if it cannot be used, and a line if it had to be compiled now (15-30 s "
        "the first time, not counted in --time)",
    )
    tablebase_arguments(analyse)
    analyse.add_argument(
        "--no-proof",
        action="store_true",
        help="do not try to prove the value when the search's is not exact (games with a proof "
        "search and tablebases: a second or two)",
    )
    analyse.add_argument("--json", action="store_true", help="print JSON")


def compile_first(game: Any, args: argparse.Namespace, io: Io) -> None:
    """--compiled: the game's search kernel ready now (loaded from the disk cache, or
    compiled the first time), or an error when it cannot be used."""
    seconds = prepare(game)
    if seconds is None:
        raise UsageError(
            f"--compiled: game {game.name!r} has no compiled rules, or numba (the fast "
            "extra) is missing or switched off (GAMESOLVER_NATIVE=0)"
        )
    if not args.json and seconds:
        io.print(f"compiled the search kernel in {seconds:.1f} s")


def _print_heading(
    io: Io,
    game: Any,
    state: Any,
    depth: int | None,
    time_limit: float | None,
    tablebase: EndgameTablebase | None,
) -> None:
    """The board, then what is done: read from ``tablebase`` (given when it covers the
    position) or a search to ``depth`` or for ``time_limit`` seconds."""
    for line in board_lines(game, state):
        io.print(line)
    io.print()
    limit = f"depth {depth}" if depth is not None else ""
    if time_limit is not None:
        limit += (" or " if limit else "") + f"{time_limit:g} s"
    if tablebase is not None:
        io.print(f"in the endgame tablebase ({tablebase.directory})")
    else:
        io.print(f"searching ({limit}; Ctrl-C stops and shows the best answer so far)")


def run(args: argparse.Namespace, io: Io) -> int:
    """``gamesolver analyse``: the engine on one position, a line per depth, then the answer."""
    game = load(args)
    state = position(game, args)
    if game.is_terminal(state):
        if args.json:
            io.json(over_json(game, state))
        else:
            for line in board_lines(game, state):
                io.print(line)
        return EXIT_OK
    if args.compiled:
        compile_first(game, args, io)
    consulted, tablebase = tablebase_for(game, args, state, io.warn, quiet=args.json)
    exact_at_root = from_tablebase(tablebase, state)
    time_limit = args.time
    if args.depth is None and time_limit is None:
        time_limit = DEFAULT_ANALYSE_SECONDS
    if not args.json:
        _print_heading(
            io, game, state, args.depth, time_limit, tablebase if exact_at_root else None
        )
    completed: list[SearchResult] = []

    def on_depth(result: SearchResult) -> None:
        completed.append(result)
        if not args.json:
            io.print(depth_line(game, state, result))

    try:
        with watching_interrupts() as watch:
            result = analysis_search(
                game,
                state,
                depth=args.depth,
                time_limit=time_limit,
                seed=args.seed,
                on_depth=on_depth,
                tablebase=tablebase,
            )
    except KeyboardInterrupt:
        if not completed:
            raise
        result = completed[-1]  # interrupted outside the engine's own handling
        watch.interrupted = True
    # Ctrl-C shows the best answer so far, then exits 130 like any interrupted command.
    done = EXIT_INTERRUPTED if watch.interrupted else EXIT_OK
    # A value the search left inexact may still be proved in a second or two.
    proved = prove_position(
        game, state, tablebase, skip=watch.interrupted or args.no_proof or result.exact
    )
    if args.json:
        answer = answer_json(game, state, result, tablebase=consulted, time_limit=time_limit)
        io.json({**answer, **proved_json(game, proved)})
        return done
    rows = move_rows(game, state, result)
    read = result.source == "oracle"
    io.print()
    print_answer(
        io,
        game,
        state,
        result,
        rows,
        title="tablebase" if read else "engine",
        board=False,
        source=SOURCE if read else "",
    )
    for line in proved_lines(game, state, proved):
        io.print(line)
    return done
