"""Command-line arguments shared by the subcommands: the game, its options, the position.

``--captured`` and ``--to-move`` are for games whose positions have those fields (Ayòayò); they
reach the game through :class:`~solver.game.HasPositionFields`, which checks them with the board.
"""

from __future__ import annotations

import argparse
import json
import math
import re
from collections.abc import Mapping
from typing import Any, Final

from games import load_game
from play import Agent, EngineAgent, MinimaxAgent, check_agents, parse_agent
from solver.errors import AgentError
from solver.game import GameError, HasPositionFields, UnknownGameError, parse_state
from solver.output import OutputError, check_directory, check_output
from solver.quoting import quote
from zerosum.console import UsageError

__all__ = [
    "checked_frames",
    "checked_output",
    "extra_fields",
    "game_arguments",
    "game_options",
    "game_spec",
    "load",
    "option_argument",
    "parse_captured",
    "parse_position",
    "player_number",
    "position",
    "position_argument",
    "positive_float",
    "positive_int",
    "read_game_spec",
    "refuse_unaffordable",
    "seed_int",
    "title_text",
]


def agent(spec: str, role: str) -> Agent:
    """The agent a command-line spec names (:func:`play.parse_agent`); ``role`` says which
    option or argument gave it, for the error (``play``'s --engine, ``match``'s agents).

    >>> agent("minimax:3", "agent A").name
    'minimax:3'
    >>> agent("club", "agent A")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    zerosum.console.UsageError: invalid agent A: unknown agent 'club'; valid: random, ...
    """
    try:
        return parse_agent(spec)
    except AgentError as exc:
        raise UsageError(f"invalid {role}: {exc}") from None


def game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The game's constructor options: ``-O KEY=VALUE`` (JSON values) and ``--tree JSON``."""
    options: dict[str, Any] = {}
    for item in getattr(args, "option", None) or ():
        key, sep, raw = item.partition("=")
        if not sep or not key.strip().isidentifier():
            raise UsageError(
                f"invalid game option {quote(item)}: expected KEY=VALUE, e.g. -O labels=aima"
            )
        options[key.strip()] = _json_or_text(raw)
    text = getattr(args, "tree", None)
    if text is not None:
        tree = _json_or_text(text)
        if not isinstance(tree, (list, str)):
            raise UsageError(
                f"invalid --tree {quote(text)}: expected a JSON list of subtrees and leaf "
                "values, e.g. '[[3,12,8],[2,4,6],[14,5,2]]'"
            )
        options["tree"] = tree
    return options


def game_spec(args: argparse.Namespace) -> str:
    """The game and its options in one line, as records and the board keep them:
    ``connect4 width=5 height=4`` (the name alone for a game without options, as records
    always had it); :func:`read_game_spec` reads it back.

    >>> game_spec(argparse.Namespace(game="connect4", option=["width=5", "height=4"]))
    'connect4 width=5 height=4'

    Raises:
        UsageError: an option's value holds white space, which the line cannot keep.
    """
    items = [args.game]
    for key, value in game_options(args).items():
        text = value if isinstance(value, str) and _json_or_text(value) == value else None
        if text is None:
            text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        if not text or any(c.isspace() for c in text):
            raise UsageError(
                f"invalid game option {key}={quote(value)}: a value kept with the game (in a "
                "record, on the board) must be one word, e.g. -O width=5"
            )
        items.append(f"{key}={text}")
    return " ".join(items)


def read_game_spec(spec: str) -> tuple[str, list[str]]:
    """``(name, options as -O items)`` from a game's line as :func:`game_spec` writes it.

    >>> read_game_spec("connect4 width=5 height=4")
    ('connect4', ['width=5', 'height=4'])
    """
    name, *items = spec.split() or [""]
    return name, items


def _json_or_text(text: str) -> Any:
    """``text`` read as JSON, or the text itself when it is not JSON Python can read.

    JSON that is malformed, nested deeper than Python's recursion limit, or holds an int of
    more than 4,300 digits is passed on as text: the game's own parser then says what is wrong
    (the textbook game reads trees of any depth itself).
    """
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return text


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
    if text is not None:  # the whole `position: ...` line that the commands print is accepted
        text = _POSITION_LABEL.sub("", text, count=1)
    fields = _extra_fields(args)
    if not fields:
        return game.initial_state() if text is None else parse_position(game, text)
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
        where = "the start" if text is None else quote(text)
        raise type(exc)(f"{exc} (in {where}, with {_option_names(fields)})") from None


def parse_position(game: Any, text: str) -> Any:
    """``text`` read by the game's notation; a game's plain ValueError made a GameError."""
    try:
        return parse_state(game, text)  # the game's errors quote the text and say what is valid
    except GameError:
        raise
    except ValueError as exc:  # a game parser that let a plain ValueError through
        raise GameError(f"invalid position {quote(text)} for {game.name}: {exc}") from None


_POSITION_LABEL: Final = re.compile(r"\A\s*position\s*:\s*", re.IGNORECASE)


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


MAX_WHOLE: Final = 10**9 - 1
"""The largest whole-number option value (depths, counts, limits): nine digits."""

MAX_SECONDS: Final = 86_400.0
"""The longest time option: one day."""

_WHOLE = re.compile(r"\+?[0-9]{1,9}", re.ASCII)
_SIGNED = re.compile(r"[-+]?[0-9]{1,18}", re.ASCII)
_DECIMAL = re.compile(r"\+?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]{1,3})?", re.ASCII)


MAX_TITLE: Final = 500
"""The longest ``--title`` (characters): a caption, not a document."""


def title_text(text: str) -> str:
    """A diagram title of at most :data:`MAX_TITLE` characters."""
    if len(text) > MAX_TITLE:
        raise argparse.ArgumentTypeError(
            f"invalid --title {quote(text)}: at most {MAX_TITLE} characters"
        )
    return text


def checked_output(path: str, option: str, force: bool) -> str:
    """``path`` if a file can be written there (``force``: replacing one); else a usage error."""
    try:
        check_output(path, overwrite=force)
    except OutputError as exc:
        raise _output_usage(option, exc) from None
    return path


def checked_frames(path: str, force: bool) -> str:
    """``path`` if frames can be written into it (``force``: replacing old ones)."""
    from viz.frames import FRAME_PATTERN  # the drawing code, loaded only to draw

    try:
        check_directory(path, FRAME_PATTERN, overwrite=force)
    except OutputError as exc:
        raise _output_usage("--frames", exc) from None
    return path


def _output_usage(option: str, exc: OutputError) -> UsageError:
    """The output error as the command line says it: the option, and --force for overwrite."""
    return UsageError(f"{option}: {exc}".replace("pass overwrite=True (--force)", "pass --force"))


def parse_captured(text: str) -> tuple[int, int]:
    parts = [p.strip() for p in text.replace(" ", ",").split(",") if p.strip()]
    if len(parts) != 2 or not all(_WHOLE.fullmatch(p) for p in parts):
        raise argparse.ArgumentTypeError(
            f"invalid --captured {quote(text)}: expected two whole numbers >= 0 (ASCII digits), "
            "e.g. 0,0"
        )
    return (int(parts[0]), int(parts[1]))


def whole_number(text: str, *, signed: bool = False) -> int | None:
    """``text`` as a whole number of up to 9 ASCII digits (a sign ``+`` allowed; ``-`` too if
    ``signed``), else None: ``int()`` alone also reads other scripts' digits (``'١٢'`` is 12)
    and any length."""
    body = text.strip()
    if signed and body.startswith("-"):
        found = whole_number(body[1:])
        return None if found is None or body[1:2] in ("+", "-") else -found
    return int(body) if _WHOLE.fullmatch(body) else None


def signed_number(text: str) -> int | float | None:
    """``text`` as a number in ASCII digits: a whole one (:func:`whole_number`, signed) as an
    int, else a finite decimal one (a ``-`` allowed) as a float; None for anything else
    (another script's digits, ``nan``, ``1_000``, a number too large for a float)."""
    whole = whole_number(text, signed=True)
    if whole is not None:
        return whole
    body = text.strip()
    if not _DECIMAL.fullmatch(body[1:] if body.startswith("-") else body):
        return None
    value = float(body)
    return value if math.isfinite(value) else None


def positive_rate(text: str) -> float:
    """A rate: a finite decimal number above 0, at most 10**12, in ASCII digits."""
    value = float(text) if _DECIMAL.fullmatch(text.strip()) else math.nan
    if not 0 < value <= 1e12:
        raise argparse.ArgumentTypeError(
            f"invalid rate {quote(text)}: expected a decimal number above 0 and at most 1e12 "
            "(ASCII digits, e.g. 2.5e6)"
        )
    return value


def positive_int(text: str) -> int:
    """A whole number from 1 to :data:`MAX_WHOLE`, in ASCII digits."""
    value = int(text) if _WHOLE.fullmatch(text.strip()) else 0
    if not 1 <= value <= MAX_WHOLE:
        raise argparse.ArgumentTypeError(
            f"invalid value {quote(text)}: expected a whole number from 1 to {MAX_WHOLE:,} "
            "(ASCII digits)"
        )
    return value


def seed_int(text: str) -> int:
    """A random seed: a whole number of up to 18 digits, possibly negative."""
    if not _SIGNED.fullmatch(text.strip()):
        raise argparse.ArgumentTypeError(
            f"invalid seed {quote(text)}: expected a whole number of up to 18 digits (ASCII digits)"
        )
    return int(text)


def positive_float(text: str) -> float:
    """Seconds: a decimal number above 0 and at most :data:`MAX_SECONDS`."""
    value = float(text) if _DECIMAL.fullmatch(text.strip()) else 0.0
    if not 0 < value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            f"invalid value {quote(text)}: expected a number of seconds above 0 and at most "
            f"{MAX_SECONDS:g} (e.g. 0.5)"
        )
    return value


def exploration_float(text: str) -> float:
    """An exploration constant: a decimal number from 0 to 1000 (UCB1's is about 1.41)."""
    value = float(text) if _DECIMAL.fullmatch(text.strip()) else math.nan
    if not 0 <= value <= 1000:
        raise argparse.ArgumentTypeError(
            f"invalid exploration constant {quote(text)}: expected a decimal number from 0 to "
            "1000 (e.g. 1.41, UCB1's √2)"
        )
    return value


def player_number(text: str) -> int:
    if text not in ("0", "1"):
        raise argparse.ArgumentTypeError(f"invalid player {quote(text)}: expected 0 or 1")
    return int(text)


def game_arguments(sub: argparse.ArgumentParser) -> None:
    """GAME, ``--tree`` and ``-O KEY=VALUE``."""
    sub.add_argument("game", metavar="GAME", help="a registered game (see `gamesolver games`)")
    sub.add_argument(
        "--tree",
        metavar="JSON",
        help="textbook game: the tree as nested lists, e.g. '[[3,12,8],[2,4,6],[14,5,2]]'",
    )
    option_argument(sub)


def option_argument(
    sub: argparse.ArgumentParser,
    help: str = "an option for the game's constructor (VALUE in JSON, else a string)",
) -> None:
    """``-O KEY=VALUE``, repeatable: the game's options."""
    sub.add_argument("--option", "-O", metavar="KEY=VALUE", action="append", help=help)


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


def refuse_unaffordable(
    game: Any, state: Any, algorithm: str, depth: int | None, time_limit: float | None
) -> None:
    """A usage error for a fixed depth whose search could never finish (as match refuses)."""
    if depth is None or time_limit is not None:
        return
    agent: Agent = (
        EngineAgent(depth=depth)
        if algorithm == "engine"
        else MinimaxAgent(depth, "alphabeta" if algorithm == "alphabeta" else "minimax")
    )
    try:
        check_agents(game, [agent], state)
    except AgentError as exc:
        raise UsageError(f"--depth {depth} with {algorithm}: {exc}") from None
