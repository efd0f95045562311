"""``gamesolver match``: two agents play many games; the table of results."""

from __future__ import annotations

import argparse
import functools

from games import load_game
from solver.match import run_match
from zerosum.commands.play import agent, with_tablebase
from zerosum.console import EXIT_OK, Io, UsageError, progress_bar
from zerosum.options import game_arguments, game_options, load, positive_int
from zerosum.tablebases import open_tablebase, tablebase_arguments

NAME = "match"
ALIASES: tuple[str, ...] = ()
HELP = "play many games between two agents and count results"


def add_arguments(match: argparse.ArgumentParser) -> None:
    """The options of ``gamesolver match``."""
    game_arguments(match)
    match.add_argument("agent_a", metavar="A", help="agent A (moves first unless --swap)")
    match.add_argument("agent_b", metavar="B", help="agent B")
    match.add_argument("--games", "-n", type=positive_int, default=100, help="games (100)")
    match.add_argument("--seed", type=int, default=0, help="match seed (default 0)")
    match.add_argument("--swap", action="store_true", help="alternate who moves first")
    match.add_argument("--workers", "-j", type=positive_int, help="worker processes")
    match.add_argument("--max-plies", type=positive_int, metavar="N", help="ply limit per game")
    match.add_argument(
        "--no-repetition-rule",
        dest="end_on_repetition",
        action="store_false",
        help="play on through repeated positions, as the Ayòayò reference does (needs "
        "--max-plies, so that players who cycle still stop)",
    )
    tablebase_arguments(match)
    match.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace, io: Io) -> int:
    """``gamesolver match``: two agents play many games; the table of results."""
    game = load(args)
    tablebase = open_tablebase(game, args)
    agent_a = with_tablebase(agent(args.agent_a, "agent A"), tablebase)
    agent_b = with_tablebase(agent(args.agent_b, "agent B"), tablebase)
    workers = args.workers
    if workers is not None and workers > 1 and (agent_a.interactive or agent_b.interactive):
        raise UsageError("a human agent cannot play with --workers > 1; leave --workers out")
    if not args.end_on_repetition and args.max_plies is None:
        raise UsageError("--no-repetition-rule needs --max-plies N, so that games that cycle end")
    factory = functools.partial(load_game, args.game, **game_options(args))
    with progress_bar(io, f"{args.agent_a} vs {args.agent_b}", total=args.games) as advance:
        result = run_match(
            factory if workers is not None and workers > 1 else game,
            agent_a,
            agent_b,
            games=args.games,
            seed=args.seed,
            swap=args.swap,
            workers=workers,
            max_plies=args.max_plies,
            end_on_repetition=args.end_on_repetition,
            progress=lambda done, total: advance(done),
        )
    if args.json:
        io.json(result.to_dict())
        return EXIT_OK
    io.print(result.table())
    io.print(f"{result.games:,} games in {result.wall_seconds:.2f} s on {result.workers} worker(s)")
    return EXIT_OK
