"""Setting up a position cell by cell (:class:`solver.game.HasCellEditing`) for a game whose
notation is its rows: top first, ``/`` between them, ``.`` for an empty cell, ``x`` and ``o``
for the marks, as tic-tac-toe's and Connect Four's are.

>>> from games.tictactoe import TicTacToe
>>> game = TicTacToe()
>>> game.format_state(game.position_from_cells([["x", "", ""], ["", "o", ""], ["", "", ""]]))
'x../.o./...'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

__all__ = ["MarksInRows"]

S_co = TypeVar("S_co", covariant=True)
S = TypeVar("S")


class _ReadsRows(Protocol[S_co]):
    def parse_state(self, text: str) -> S_co: ...


class MarksInRows:
    """The grid editor's two members, for a game whose notation is its rows of marks."""

    cell_marks: tuple[str, ...] = ("x", "o")
    """What a cell may hold besides empty (``solver.game.HasCellEditing``)."""

    def position_from_cells(self: _ReadsRows[S], rows: Sequence[Sequence[str]]) -> S:
        """The position whose :meth:`board_cells` rows are ``rows`` (``""`` empty), read as
        its row notation is (``solver.game.HasCellEditing``).

        Raises:
            InvalidStateError: the grid is not one a game reaches (the notation's message).
        """
        return self.parse_state("/".join("".join(cell or "." for cell in row) for row in rows))
