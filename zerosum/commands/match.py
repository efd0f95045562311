"""``gamesolver match``: two agents play many games; the table of results."""

from __future__ import annotations

import argparse
import functools
from pathlib import Path
from typing import Any

from games import load_game
from play import MatchInterrupted, MatchResult, run_match
from solver.errors import AgentError
from solver.output import OutputError, check_directory, replacing_files
from zerosum.console import EXIT_INTERRUPTED, EXIT_OK, Io, UsageError, progress_bar
from zerosum.options import (
    agent,
    game_arguments,
    game_options,
    game_spec,
    load,
    positive_int,
    seed_int,
)
from zerosum.records import format_record
from zerosum.report import match_table
from zerosum.tablebases import open_tablebase, tablebase_arguments, with_tablebase

NAME = "match"
ALIASES: tuple[str, ...] = ()
HELP = "play many games between two agents and count results"


def add_arguments(match: argparse.ArgumentParser) -> None:
    """The options of ``gamesolver match``."""
    game_arguments(match)
    match.add_argument("agent_a", metavar="A", help="agent A (moves first unless --swap)")
    match.add_argument("agent_b", metavar="B", help="agent B")
    match.add_argument("--games", "-n", type=positive_int, default=100, help="games (100)")
    match.add_argument("--seed", type=seed_int, default=0, help="match seed (default 0)")
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
    match.add_argument(
        "--save",
        metavar="DIR",
        help="write each game as a record, DIR/game-00001.txt ... (see docs/board.md)",
    )
    match.add_argument("--force", action="store_true", help="--save: replace old records")
    tablebase_arguments(match)
    match.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace, io: Io) -> int:
    """``gamesolver match``: two agents play many games; the table of results."""
    game = load(args)
    tablebase = open_tablebase(game, args, io.warn)
    agent_a = with_tablebase(agent(args.agent_a, "agent A"), tablebase)
    agent_b = with_tablebase(agent(args.agent_b, "agent B"), tablebase)
    workers = args.workers
    if workers is not None and workers > 1 and (agent_a.interactive or agent_b.interactive):
        raise UsageError("a human agent cannot play with --workers > 1; leave --workers out")
    if not args.end_on_repetition and args.max_plies is None:
        raise UsageError("--no-repetition-rule needs --max-plies N, so that games that cycle end")
    if args.save is not None:
        try:
            check_directory(args.save, RECORD_PATTERN, overwrite=args.force)
        except OutputError as exc:
            raise UsageError(
                f"--save: {exc}".replace("pass overwrite=True (--force)", "pass --force")
            ) from None
    factory = functools.partial(load_game, args.game, **game_options(args))
    label = f"{agent_a.name} vs {agent_b.name}"
    try:
        with progress_bar(io, label, total=args.games) as advance:
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
                keep_outcomes=args.save is not None,  # else counts only: flat memory
                keep_moves=args.save is not None,
            )
    except MatchInterrupted as stopped:  # Ctrl-C: what finished, then exit 130
        _save(io, game, stopped.result, args)
        _report(io, stopped.result, args.json)
        return EXIT_INTERRUPTED
    except AgentError as exc:  # too many workers, or an agent too deep to finish a move
        raise UsageError(str(exc)) from None
    _save(io, game, result, args)
    _report(io, result, args.json)
    return EXIT_OK


RECORD_PATTERN = r"game-\d+\.txt"
"""The names of the records ``--save`` writes."""


def _save(io: Io, game: Any, result: MatchResult, args: argparse.Namespace) -> None:
    """Write each game of ``result`` as a record in ``args.save`` (when given)."""
    if args.save is None:
        return
    start = game.initial_state()
    spec = game_spec(args)  # the records keep the game's options
    # the new records replace the old only once all are written: a full disk keeps the old
    with replacing_files(args.save, RECORD_PATTERN, overwrite=args.force) as staging:
        for outcome in result.outcomes:
            seats = result.agents if outcome.first == 0 else result.agents[::-1]
            headers = {
                "players": ", ".join(seats),
                "match": f"game {outcome.index + 1} of {result.requested}, seed {result.seed}",
                "ended": outcome.ended,
            }
            text = format_record(game, start, outcome.moves, headers=headers, game_spec=spec)
            (staging / f"game-{outcome.index + 1:05d}.txt").write_text(text, encoding="utf-8")
    folder = Path(args.save)
    if not args.json:
        io.print(f"{len(result.outcomes):,} game records written to {folder}")


def _report(io: Io, result: MatchResult, as_json: bool) -> None:
    if as_json:
        io.json(result.to_dict())
        return
    if result.games:
        io.print(match_table(result))
    played = f"{result.games:,}" if result.complete else f"{result.games:,} of {result.requested:,}"
    stopped = "" if result.complete else " (interrupted: the games that finished)"
    io.print(
        f"{played} games in {result.wall_seconds:.2f} s on {result.workers} worker(s){stopped}"
    )
