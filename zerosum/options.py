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
from solver.game import GameError, HasStateNotation, UnknownGameError, parse_state
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

    ``--captured C0,C1`` and ``--to-move P`` are for games whose states have those fields
    (Ayòayò). They are appended to the position text in the notation such games read
    (``... captured C0,C1 to-move P``, as ``format_state`` writes it), so the game's own parser
    checks them together with the board (e.g. that the seeds add up). Without ``--position``
    they go to the game's ``state_from(board, captured=..., to_move=...)``.
    """
    text: str | None = getattr(args, "position", None)
    extras = _extra_fields(args)
    if extras:
        _check_extras_apply(game, extras)
    if text is None:
        return _with_extras(game, game.initial_state(), extras) if extras else game.initial_state()
    if extras:
        text = " ".join([text, *_extra_text(extras)])
    try:
        return parse_state(game, text)  # the game's errors quote the text and say what is valid
    except GameError as exc:
        if extras:
            raise type(exc)(f"{exc} (in {text!r}, with {_option_names(extras)})") from None
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


def _option_names(extras: Mapping[str, Any]) -> str:
    return "/".join(f"--{name.replace('_', '-')}" for name in extras)


def _check_extras_apply(game: Any, extras: Mapping[str, Any]) -> None:
    start = game.initial_state()
    lacking = [name for name in extras if not hasattr(start, name)]
    if lacking or not isinstance(game, HasStateNotation):
        raise UsageError(
            f"game {game.name!r} has no {' or '.join(lacking) or 'position notation'} in its "
            f"positions, so {_option_names(extras)} cannot be used; give the whole --position"
        )


def _extra_text(extras: Mapping[str, Any]) -> list[str]:
    words = []
    if "captured" in extras:
        words.append("captured " + ",".join(str(n) for n in extras["captured"]))
    if "to_move" in extras:
        words.append(f"to-move {extras['to_move']}")
    return words


def _with_extras(game: Any, state: Any, extras: Mapping[str, Any]) -> Any:
    """The start position with other captured counts / side to move, via ``state_from``."""
    state_from = getattr(game, "state_from", None)
    if state_from is None or not hasattr(state, "board"):
        raise UsageError(
            f"game {game.name!r} cannot build a position from {_option_names(extras)} alone; "
            "give the whole --position"
        )
    fields = {
        name: getattr(state, name) for name in ("captured", "to_move") if hasattr(state, name)
    }
    fields.update(extras)
    return state_from(state.board, **fields)


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
