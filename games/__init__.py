"""The game registry: built-in games and third-party games found through entry points.

Built-in games are registered as lazy ``"module:factory"`` strings, so listing them imports
nothing. Third-party packages add games through the entry-point group ``gamesolver.games``; the
entry point's name is the game's name and its object a factory (usually the Game class) that
:func:`load_game` calls with the user's options. A built-in name cannot be taken over by an
entry point: the built-in wins.

Games import nothing from ``solver`` at run time but types and errors (see
docs/adding-a-game.md).

>>> available_games()[:3]
['ayoayo', 'connect4', 'hog']
>>> game = load_game("textbook", tree=[[3, 12], [2, 4]])
>>> game.name, list(game.actions(game.initial_state()))
('textbook', [0, 1])
>>> load_game("tictac")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
solver.errors.UnknownGameError: unknown game 'tictac'; available: ayoayo, connect4, hog, ...
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Iterable
from importlib import metadata
from typing import Any, Final, cast

import attrs

from solver.game import Game, GameError, InvalidStateError, UnknownGameError
from solver.quoting import quote

__all__ = [
    "BUILTIN_GAMES",
    "ENTRY_POINT_GROUP",
    "GameInfo",
    "available_games",
    "game_info",
    "load_game",
]

ENTRY_POINT_GROUP: Final = "gamesolver.games"
"""The entry-point group third-party packages register their games under."""

BUILTIN_GAMES: Final[dict[str, tuple[str, str]]] = {
    "ayoayo": (
        "games.ayoayo:Ayoayo",
        "Ayòayò, the Yoruba mancala: two rows of six pits, sow and capture",
    ),
    "connect4": (
        "games.connect4:ConnectFour",
        "Connect Four on bitboards (Pons's layout), any width and height (default 7x6); "
        "scored=True for Pons's scores as utilities",
    ),
    "hog": (
        "games.hog:Hog",
        "Hog, a dice race: roll 1-3 dice a turn, a 1 scores only 1 point; first to 20 wins",
    ),
    "textbook": (
        "games.textbook:TextbookTree",
        "an explicit game tree from nested lists of leaf values (default: AIMA Figure 5.2)",
    ),
    "tictactoe": (
        "games.tictactoe:TicTacToe",
        "tic-tac-toe, readable: a tuple of nine cells",
    ),
    "tictactoe-bitboard": (
        "games.tictactoe_bitboard:BitboardTicTacToe",
        "tic-tac-toe, fast: the board as one int with X and O bitboards",
    ),
}
"""Registry name -> (``"module:factory"``, one-line summary)."""

_PROTOCOL_METHODS: Final = (
    "initial_state",
    "to_move",
    "actions",
    "result",
    "is_terminal",
    "utility",
)


@attrs.frozen
class GameInfo:
    """What ``gamesolver games`` shows about one game.

    Attributes:
        name: the registry name.
        summary: a one-line description.
        source: ``"built-in"`` or ``"entry point <value> (<distribution>)"``.
        options_needed: the options the game cannot be made without (its factory's
            parameters with no default), e.g. ``("width",)``; empty for most games.
    """

    name: str
    summary: str
    source: str
    options_needed: tuple[str, ...] = ()


def _entry_points() -> dict[str, metadata.EntryPoint]:
    """Third-party games: entry-point name -> entry point (built-in names excluded)."""
    found = metadata.entry_points(group=ENTRY_POINT_GROUP)
    return {ep.name: ep for ep in found if ep.name not in BUILTIN_GAMES}


def available_games() -> list[str]:
    """The names of every built-in and third-party game, sorted."""
    return sorted({*BUILTIN_GAMES, *_entry_points()})


def _unknown(name: str) -> UnknownGameError:
    return UnknownGameError(
        f"unknown game {quote(name)}; available: {', '.join(available_games())}"
    )


def _factory(name: str) -> Callable[..., Any]:
    """Import the factory registered under ``name``."""
    if name in BUILTIN_GAMES:
        module_name, _, attr = BUILTIN_GAMES[name][0].partition(":")
        factory: Callable[..., Any] = getattr(importlib.import_module(module_name), attr)
        return factory
    entry = _entry_points().get(name)
    if entry is None:
        raise _unknown(name)
    try:
        loaded: Callable[..., Any] = entry.load()
    except Exception as error:
        raise GameError(
            f"game {name!r} from entry point {entry.value!r} failed to load: {error}"
        ) from error
    return loaded


def _first_line(doc: str | None) -> str:
    lines = [line.strip() for line in (doc or "").strip().splitlines()]
    return lines[0].rstrip(".") if lines and lines[0] else "(no description)"


def game_info(name: str) -> GameInfo:
    """The name, one-line summary and source of a game.

    Built-ins answer without importing their module; a third-party game's summary is the first
    line of its factory's docstring.

    Raises:
        UnknownGameError: no game has that name.
        GameError: a third-party entry point fails to load.

    >>> game_info("tictactoe").source
    'built-in'
    """
    if name in BUILTIN_GAMES:
        return GameInfo(name, BUILTIN_GAMES[name][1], "built-in")
    entry = _entry_points().get(name)
    if entry is None:
        raise _unknown(name)
    dist = getattr(entry, "dist", None)
    origin = f" ({dist.name})" if dist is not None else ""
    factory = _factory(name)
    return GameInfo(
        name,
        _first_line(factory.__doc__),
        f"entry point {entry.value}{origin}",
        _required_options(factory),
    )


def load_game(name: str, **options: Any) -> Game[Any, Any]:
    """Create the game registered as ``name``, passing ``options`` to its factory.

    Args:
        name: a name from :func:`available_games`.
        **options: keyword arguments for the game's factory, e.g. ``tree=[[3, 12], [2, 4]]``
            for ``textbook``.

    Raises:
        UnknownGameError: no game has that name; the message lists the available ones.
        GameError: an option the game does not accept (the message names it and the accepted
            ones), a third-party entry point that fails to load, or a factory that returns
            something without the Game methods. Bad option values raise the game's own errors
            (e.g. :class:`~solver.errors.InvalidStateError` for a malformed textbook tree).
    """
    factory = _factory(name)
    _check_options(name, factory, options)
    try:
        game = factory(**options)
    except GameError:
        raise
    except (ValueError, TypeError, OverflowError, RecursionError, MemoryError) as error:
        # A factory's own check (or a crash on an odd value) becomes one clear game error.
        given = ", ".join(f"{key}={quote(value)}" for key, value in options.items())
        raise InvalidStateError(
            f"invalid option(s) for game {name!r} ({given or 'none'}): "
            f"{quote(str(error) or type(error).__name__, limit=200)}"
        ) from error
    missing = [m for m in _PROTOCOL_METHODS if not callable(getattr(game, m, None))]
    if missing:
        raise GameError(
            f"game {name!r} does not implement the Game protocol: missing {', '.join(missing)}"
        )
    return cast("Game[Any, Any]", game)


def _required_options(factory: Callable[..., Any], given: Iterable[str] = ()) -> tuple[str, ...]:
    """The factory's parameters with no default that ``given`` does not name."""
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):  # pragma: no cover - builtins without signatures
        return ()
    named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return tuple(
        p.name
        for p in params
        if p.default is inspect.Parameter.empty and p.kind in named and p.name not in given
    )


def _check_options(name: str, factory: Callable[..., Any], options: dict[str, Any]) -> None:
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):  # pragma: no cover - builtins without signatures
        return
    params = signature.parameters.values()
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        return
    accepted = [
        p.name
        for p in params
        if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    ]
    for option in options:
        if option not in accepted:
            choices = ", ".join(accepted) if accepted else "none"
            raise GameError(
                f"game {name!r} has no option {quote(option)}; accepted options: {choices}"
            )
    required = _required_options(factory, options)
    if required:
        raise GameError(f"game {name!r} needs the option(s) {', '.join(required)}")
