"""``gamesolver play``: a human against the computer in the terminal."""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from solver.game import (
    GameError,
    HasEndlessValue,
    HasScore,
    format_action,
    format_state,
    other,
    player_label,
)
from solver.match import AgentError, HumanAgent, parse_agent, play_game
from zerosum.console import EXIT_OK, Io, UsageError
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
from zerosum.report import board_lines, num
from zerosum.tablebases import open_tablebase, tablebase_arguments, with_tablebase

NAME = "play"
ALIASES: tuple[str, ...] = ()
HELP = "play against the computer in the terminal"


def add_arguments(play: argparse.ArgumentParser) -> None:
    """The options of ``gamesolver play``."""
    game_arguments(play)
    position_argument(play)
    extra_fields(play)
    play.add_argument(
        "--first",
        choices=("human", "ai"),
        default="human",
        help="who moves first from the position (default: human)",
    )
    play.add_argument(
        "--ai",
        default="engine",
        metavar="AGENT",
        help="the computer player: engine (with --time S or --depth N), engine:S, engine:dN, "
        "minimax:D, alphabeta:D or random (default: engine, 1 s a move)",
    )
    play.add_argument("--time", type=positive_float, metavar="S", help="engine: seconds a move")
    play.add_argument("--depth", type=positive_int, metavar="N", help="engine/minimax: depth")
    play.add_argument("--seed", type=seed_int, default=None, help="seed for the AI's tie-breaks")
    play.add_argument("--max-plies", type=positive_int, metavar="N", help="stop after N plies")
    tablebase_arguments(play)


class _Quit(Exception):
    """The human typed q (or quit/exit) at the move prompt."""


QUIT_WORDS = ("q", "quit", "exit")


def _ai_spec(args: argparse.Namespace) -> str:
    """The AI's agent spec from ``--ai`` plus ``--time`` / ``--depth`` for a bare ``engine``."""
    spec: str = args.ai.strip()
    if spec.lower() == "engine":
        if args.depth is not None:
            return f"engine:d{args.depth}"
        return f"engine:{args.time:g}" if args.time is not None else "engine"
    if spec.lower() in ("minimax", "alphabeta"):
        depth = args.depth if args.depth is not None else 3
        return f"{spec.lower()}:{depth}"
    if args.time is not None or args.depth is not None:
        raise UsageError(
            f"--time/--depth go with a bare --ai engine (or minimax/alphabeta), not {spec!r}; "
            "write the limit in the spec instead, e.g. --ai engine:0.5 or --ai minimax:4"
        )
    return spec


def agent(spec: str, role: str) -> Any:
    try:
        return parse_agent(spec)
    except AgentError as exc:
        raise UsageError(f"invalid {role}: {exc}") from None


def score_change(game: Any, before: Any, after: Any) -> tuple[int, ...] | None:
    """What each player banked with a move (captured seeds), for games with a score.

    >>> from games import load_game
    >>> game = load_game("ayoayo")
    >>> start = game.initial_state()
    >>> score_change(game, start, game.result(start, 0))
    (0, 0)
    >>> score_change(load_game("tictactoe"), None, None) is None
    True
    """
    if not isinstance(game, HasScore):
        return None
    old, new = game.score(before), game.score(after)
    return tuple(b - a for a, b in zip(old, new, strict=True))


def run(args: argparse.Namespace, io: Io) -> int:
    """``gamesolver play``: a human against the AI in the terminal."""

    game = load(args)
    state = position(game, args)
    if game.is_terminal(state):
        raise GameError(f"the game is already over in {format_state(game, state)!r}")
    ai = with_tablebase(agent(_ai_spec(args), "--ai"), open_tablebase(game, args))
    if ai.interactive:
        raise UsageError(f"invalid --ai {args.ai!r}: the AI must be a computer player")

    def ask(prompt: str) -> str:
        io.out.file.flush()
        text = input(prompt)
        if not sys.stdin.isatty():  # echo scripted input so the transcript reads like a session
            io.out.file.write(text + "\n")
        if text.strip().lower() in QUIT_WORDS:
            raise _Quit
        return text

    human = HumanAgent(ask=ask, tell=io.print, show_position=False)
    first = game.to_move(state)
    human_side = first if args.first == "human" else other(first)
    seats = [human, ai] if human_side == 0 else [ai, human]
    you = player_label(game, human_side)
    io.print(f"{game.name}: you play {you} against {ai.name}; type a move, or q to quit.")
    for line in board_lines(game, state):
        io.print(line)

    def on_move(ply: int, before: Any, action: Any, after: Any) -> None:
        mover = game.to_move(before)
        who = "you" if mover == human_side else ai.name
        io.print()
        io.print(
            f"{ply}. {player_label(game, mover)} ({who}) plays "
            f"{format_action(game, before, action)}",
            style="bold",
        )
        gained = score_change(game, before, after)
        if gained is not None and any(gained):
            parts = [f"{player_label(game, p)} +{n}" for p, n in enumerate(gained) if n]
            totals = ", ".join(str(n) for n in game.score(after))
            io.print(f"captured: {', '.join(parts)} (now {totals})")
        for line in board_lines(game, after):
            io.print(line)

    try:
        record = play_game(
            game,
            seats,
            random.Random(args.seed),
            max_plies=args.max_plies,
            state=state,
            on_move=on_move,
        )
    except (_Quit, EOFError):
        io.print()
        io.print("game abandoned: you quit.")
        return EXIT_OK
    io.print()
    io.print(f"result: {_final_result(game, record, human_side)}", style="bold")
    return EXIT_OK


def _final_result(game: Any, record: Any, human_side: int) -> str:
    repeated = (
        "scored as endless play, by the game's endless value"
        if isinstance(game, HasEndlessValue)
        else "scored by the position's evaluation"
    )
    how = {
        "terminal": "",
        "repetition": f" (a position repeated: {repeated})",
        "ply-limit": " (ply limit reached: scored by the position's evaluation)",
    }[record.ended]
    if record.winner is None:
        said = "draw"
    else:
        you = "you win" if record.winner == human_side else "you lose"
        said = f"{player_label(game, record.winner)} wins, {you}"
    return f"{said}; score {num(record.score)} after {record.plies} plies{how}"
