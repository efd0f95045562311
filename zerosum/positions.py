"""A game and a position loaded for both front ends (the command line and the board).

A game is named with its options (``connect4 width=5 height=4``, as records and the board keep
it), a position is given in the game's notation or as the cells of its grid (the board's grid
editor), and the positions a game went through before a move are read once each. The command
line's own functions read them, so a bad one gets the same message everywhere.
"""

from __future__ import annotations

import argparse
import functools
from typing import Any, Final

from solver.game import HasCellEditing, HasStateNotation
from solver.quoting import quote
from zerosum.console import UsageError
from zerosum.options import load, position, read_game_spec

__all__ = [
    "MAX_CELLS",
    "MAX_EARLIER",
    "MAX_POSITION_CHARS",
    "load_cells",
    "load_earlier",
    "load_position",
]

MAX_POSITION_CHARS: Final = 2_000
"""The longest position text the board reads (Ayòayò's is under 60 characters)."""


def load_position(game_name: Any, text: Any) -> tuple[Any, Any]:
    """``(game, state)`` from a game's name, with its options if it has any (``connect4
    width=5 height=4``, :func:`~zerosum.options.game_spec`), and a position in its notation
    (None: the start).

    The game and the position are read by the command line's own functions, so a bad one gets
    the same message as ``gamesolver analyse GAME --position TEXT``.

    Raises:
        UsageError: the game is unknown, or the values are not text.
        GameError: the position is not valid (the game's message).
    """
    if not isinstance(game_name, str):
        raise UsageError(f"invalid game {quote(game_name)}: expected a game's name as text")
    if text is not None and not isinstance(text, str):
        raise UsageError(f"invalid position {quote(text)}: expected the position as text")
    if text is not None and len(text) > MAX_POSITION_CHARS:
        raise UsageError(f"invalid position: longer than {MAX_POSITION_CHARS} characters")
    name, options = read_game_spec(game_name)
    args = argparse.Namespace(game=name, position=text or None, option=options, tree=None)
    game = load(args)
    if text and not isinstance(game, HasStateNotation):
        raise UsageError(f"game {game.name!r} has no text notation for positions")
    return game, position(game, args)


MAX_CELLS: Final = 400
"""The most cells a grid sent by the grid editor may have."""


def load_cells(game_name: Any, cells: Any) -> tuple[Any, Any]:
    """``(game, state)`` from a game's name and a grid of cell texts, as the board's grid
    editor sends them (:class:`~solver.game.HasCellEditing`).

    Raises:
        UsageError: the game is unknown or sets no position by cells, or ``cells`` is not a
            grid of texts.
        GameError: the grid is no position of the game (the game's message).
    """
    game, _ = load_position(game_name, None)
    if not isinstance(game, HasCellEditing):
        raise UsageError(f"game {game.name!r} sets no position cell by cell; give it as text")
    if (
        not isinstance(cells, list)
        or not all(isinstance(row, list) for row in cells)
        or sum(len(row) for row in cells) > MAX_CELLS
        or not all(isinstance(c, str) and c in ("", *game.cell_marks) for r in cells for c in r)
    ):
        marks = ", ".join(repr(m) for m in ("", *game.cell_marks))
        raise UsageError(
            f"invalid cells {quote(cells)}: expected rows of cells, each one of {marks}"
        )
    return game, game.position_from_cells(cells)


MAX_EARLIER: Final = 10_000
"""The most earlier positions a move may name (a record holds at most as many moves)."""


def load_earlier(spec: str, texts: Any) -> list[Any]:
    """The positions a game (``spec``: its name and options, as :func:`load_position` takes
    them) went through before the one a move is played in (for the repetition rule): a list
    of positions in the game's notation, or None for none.

    Raises:
        UsageError: not a list of texts, or too long.
        GameError: a position is not valid (the game's message).
    """
    if texts is None:
        return []
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        raise UsageError(
            f"invalid earlier {quote(texts)}: expected the game's earlier positions, a list of "
            "texts"
        )
    if len(texts) > MAX_EARLIER:
        raise UsageError(f"invalid earlier: more than {MAX_EARLIER:,} positions")
    return [_known_position(spec, text) for text in texts]


@functools.lru_cache(maxsize=MAX_EARLIER)
def _known_position(game_name: str, text: str) -> Any:
    """A position read once: a page sends its game's earlier positions with every move."""
    return load_position(game_name, text)[1]
