"""Command-line arguments shared by the subcommands: the game, its options, the position.

``--captured`` and ``--to-move`` are for games whose states have those fields (Ayòayò); they
reach the game through its own position notation, so its parser checks them.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Mapping
from typing import Any

from games import load_game
from solver.game import GameError, HasPositionFields, UnknownGameError, parse_state
from zerosum.console import UsageError

__all__ = [
    "extra_fields",
    "game_arguments",
    "game_options",
    "load",
    "parse_captured",
    "player_number",
    "position",
    "position_argument",
    "positive_float",
    "positive_int",
]


def game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The game's constructor options: ``-O KEY=VALUE`` (JSON values) and ``--tree JSON``."""
    options: dict[str, Any] = {}
    for item in getattr(args, "option", None) or ():
        key, sep, raw = item.partition("=")
        if not sep or not key.strip().isidentifier():
            raise UsageError(
                f"invalid game option {item!r}: expected KEY=VALUE, e.g. -O labels=aima"
            )
        try:
            value: Any = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        options[key.strip()] = value
    text = getattr(args, "tree", None)
    if text is not None:
        try:
            tree = json.loads(text)
        except json.JSONDecodeError as exc:
            raise UsageError(
                f"invalid --tree {text!r}: {exc.msg} at character {exc.pos}; "
                "expected JSON nested lists of leaf values, e.g. '[[3,12,8],[2,4,6],[14,5,2]]'"
            ) from None
        if not isinstance(tree, list):
            raise UsageError(
                f"invalid --tree {text!r}: expected a JSON list of subtrees and leaf values, "
                "e.g. '[[3,12,8],[2,4,6],[14,5,2]]'"
            )
        options["tree"] = tree
    return options


def load(args: argparse.Namespace) -> Any:
    """The game named on the command line, with its options (``--tree``)."""
    options = game_options(args)
    try:
        return load_game(args.game, **options)
    except UnknownGameError as exc:
        raise UsageError(str(exc)) from None
    except GameError as exc:
        if options:
            raise UsageError(f"invalid game option for {args.game!r}: {exc}") from None
        raise
    except TypeError as exc:  # a game constructor that does not take the option
        raise UsageError(f"game {args.game!r} does not take the option(s) given: {exc}") from None


def position(game: Any, args: argparse.Namespace) -> Any:
    """The state given by ``--position`` (and ``--captured``/``--to-move``), else the start.

    ``--captured C0,C1`` and ``--to-move P`` are for games whose positions have those fields
    (:class:`~solver.game.HasPositionFields`, e.g. Ayòayò); the game checks them together with
    the board (e.g. that the seeds add up).
    """
    text: str | None = getattr(args, "position", None)
    fields = _extra_fields(args)
    if not fields:
        return game.initial_state() if text is None else _parse_position(game, text)
    known = game.position_fields if isinstance(game, HasPositionFields) else {}
    lacking = [name for name in fields if name not in known]
    if lacking:
        has = f"its positions have {', '.join(known)}" if known else "its positions have no fields"
        raise UsageError(
            f"game {game.name!r} has no {' or '.join(lacking)} in its positions ({has}), so "
            f"{_option_names(fields)} cannot be used; give the whole --position"
        )
    try:
        return game.position_from(text, **fields)
    except GameError as exc:
        where = "the start" if text is None else repr(text)
        raise type(exc)(f"{exc} (in {where}, with {_option_names(fields)})") from None


def _parse_position(game: Any, text: str) -> Any:
    try:
        return parse_state(game, text)  # the game's errors quote the text and say what is valid
    except GameError:
        raise
    except ValueError as exc:  # a game parser that let a plain ValueError through
        raise GameError(f"invalid position {text!r} for {game.name}: {exc}") from None


def _extra_fields(args: argparse.Namespace) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    captured = getattr(args, "captured", None)
    if captured is not None:
        fields["captured"] = captured
    to_move = getattr(args, "to_move", None)
    if to_move is not None:
        fields["to_move"] = to_move
    return fields


def _option_names(fields: Mapping[str, Any]) -> str:
    return "/".join(f"--{name.replace('_', '-')}" for name in fields)


def parse_captured(text: str) -> tuple[int, int]:
    parts = [p.strip() for p in text.replace(" ", ",").split(",") if p.strip()]
    try:
        numbers = tuple(int(p) for p in parts)
    except ValueError:
        numbers = ()
    if len(numbers) != 2 or min(numbers) < 0:
        raise argparse.ArgumentTypeError(
            f"invalid --captured {text!r}: expected two non-negative whole numbers, e.g. 0,0"
        )
    return (numbers[0], numbers[1])


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"invalid value {text!r}: expected a whole number >= 1")
    return value


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0 or math.isinf(value):
        raise argparse.ArgumentTypeError(
            f"invalid value {text!r}: expected a number of seconds > 0"
        )
    return value


def player_number(text: str) -> int:
    if text not in ("0", "1"):
        raise argparse.ArgumentTypeError(f"invalid player {text!r}: expected 0 or 1")
    return int(text)


def game_arguments(sub: argparse.ArgumentParser) -> None:
    """GAME, ``--tree`` and ``-O KEY=VALUE``."""
    sub.add_argument("game", metavar="GAME", help="a registered game (see `gamesolver games`)")
    sub.add_argument(
        "--tree",
        metavar="JSON",
        help="textbook game: the tree as nested lists, e.g. '[[3,12,8],[2,4,6],[14,5,2]]'",
    )
    sub.add_argument(
        "--option",
        "-O",
        metavar="KEY=VALUE",
        action="append",
        help="an option for the game's constructor (VALUE in JSON, else a string)",
    )


def position_argument(sub: argparse.ArgumentParser, required: bool = False) -> None:
    """``--position P`` in the game's notation."""
    sub.add_argument(
        "--position",
        "-p",
        metavar="P",
        required=required,
        help="the position in the game's notation (default: the start)",
    )


def extra_fields(sub: argparse.ArgumentParser) -> None:
    """``--captured C0,C1`` and ``--to-move P`` for games whose positions have them."""
    sub.add_argument(
        "--captured",
        type=parse_captured,
        metavar="C0,C1",
        help="seeds captured so far by players 0 and 1 (games with captures, e.g. ayoayo)",
    )
    sub.add_argument(
        "--to-move",
        type=player_number,
        metavar="P",
        help="the player to move, 0 or 1 (games whose positions store it, e.g. ayoayo)",
    )
