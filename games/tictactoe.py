"""Tic-tac-toe, written to be read: a state is a tuple of nine cells.

Assumes the usual rules: X (player 0, MAX) moves first, players alternate placing their mark on an
empty cell, three in a row, column or diagonal wins, a full board without a line is a draw.

Cells are numbered 0..8 row by row::

    0 1 2
    3 4 5
    6 7 8

A state is a tuple of nine one-character strings, ``"x"``, ``"o"`` or ``"."`` (empty), the same
characters as the text notation. The side to move is not stored: X moves when the counts of X and
O are equal, else O. Actions are the empty cells' numbers in ascending order; utility is +1 when X
has a line, -1 when O has one, 0 for a draw (X's, player 0's, point of view).

Text notation: the three rows top to bottom separated by ``/``, e.g. ``x.o/.x./..o``; actions are
written as the cell number, and :meth:`TicTacToe.parse_action` also reads ``row,col`` (from 0).

>>> game = TicTacToe()
>>> state = game.parse_state("xx./oo./...")
>>> game.to_move(state), list(game.actions(state))
(0, [2, 5, 6, 7, 8])
>>> game.utility(game.result(state, 2))
1
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final, TypeAlias

from games.marks_in_rows import MarksInRows
from solver.game import BoardCells, IllegalActionError, InvalidStateError, Player
from solver.quoting import quote

__all__ = ["EMPTY", "LINES", "SYMMETRIES", "Board", "O", "TicTacToe", "X"]

Board: TypeAlias = tuple[str, ...]
"""Nine cells, row by row, each ``"x"``, ``"o"`` or ``"."``."""

X: Final = "x"
O: Final = "o"  # noqa: E741 (the letter is the mark)
EMPTY: Final = "."

LINES: Final[tuple[tuple[int, int, int], ...]] = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
)
"""The eight winning lines: rows, columns, diagonals."""

SYMMETRIES: Final[tuple[tuple[int, ...], ...]] = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8),  # identity
    (6, 3, 0, 7, 4, 1, 8, 5, 2),  # rotate 90 degrees clockwise
    (8, 7, 6, 5, 4, 3, 2, 1, 0),  # rotate 180
    (2, 5, 8, 1, 4, 7, 0, 3, 6),  # rotate 270
    (2, 1, 0, 5, 4, 3, 8, 7, 6),  # mirror left-right
    (6, 7, 8, 3, 4, 5, 0, 1, 2),  # mirror top-bottom
    (0, 3, 6, 1, 4, 7, 2, 5, 8),  # transpose (main diagonal)
    (8, 5, 2, 7, 4, 1, 6, 3, 0),  # anti-transpose
)
"""The 8 symmetries of the square: new cell ``i`` takes the mark of old cell ``perm[i]``."""


class TicTacToe(MarksInRows):
    """Tic-tac-toe on a tuple of nine cells.

    >>> game = TicTacToe()
    >>> print(game.render(game.parse_state("x.o/.x./..o")))
     x | . | o
    ---+---+---
     . | x | .
    ---+---+---
     . | . | o
    """

    name: str = "tictactoe"
    player_names: tuple[str, str] = ("X", "O")

    def utility_bounds(self) -> tuple[float, float]:
        """A loss and a win: every utility and evaluation lies in ``[-1, 1]``."""
        return (-1, 1)

    def initial_state(self) -> Board:
        """The empty board."""
        return (EMPTY,) * 9

    def to_move(self, state: Board) -> Player:
        """0 (X) when X and O have as many marks, else 1 (O)."""
        return 0 if state.count(X) == state.count(O) else 1

    def actions(self, state: Board) -> list[int]:
        """The empty cells in ascending order; none once someone has a line."""
        if self._winner(state) is not None:
            return []
        return [i for i, cell in enumerate(state) if cell == EMPTY]

    def result(self, state: Board, action: int) -> Board:
        """The board with the mover's mark on cell ``action`` (unchecked)."""
        mark = X if self.to_move(state) == 0 else O
        return (*state[:action], mark, *state[action + 1 :])

    def is_terminal(self, state: Board) -> bool:
        """True when someone has a line or the board is full."""
        return self._winner(state) is not None or EMPTY not in state

    def utility(self, state: Board) -> float:
        """+1 if X has a line, -1 if O has one, else 0."""
        winner = self._winner(state)
        return 1 if winner == X else -1 if winner == O else 0

    @staticmethod
    def _winner(state: Board) -> str | None:
        for a, b, c in LINES:
            if state[a] != EMPTY and state[a] == state[b] == state[c]:
                return state[a]
        return None

    # -- optional capabilities ------------------------------------------------------------------

    def evaluate(self, state: Board) -> float:
        """Open lines: (lines X can still complete - lines O can still complete) / 10.

        A line is open for a player when the opponent has no mark on it. Dividing by 10 keeps
        every heuristic value strictly between a loss (-1) and a win (+1). Terminal states get
        their utility.

        >>> TicTacToe().evaluate(TicTacToe().parse_state(".../.x./..."))
        0.4
        """
        if self.is_terminal(state):
            return self.utility(state)
        open_x = sum(1 for line in LINES if all(state[i] != O for i in line))
        open_o = sum(1 for line in LINES if all(state[i] != X for i in line))
        return (open_x - open_o) / 10

    def key(self, state: Board) -> Board:
        """The state itself (a tuple of nine short strings, hashed quickly)."""
        return state

    def symmetries(self, state: Board) -> list[Board]:
        """The distinct images of ``state`` under the 8 symmetries of the square, itself first."""
        images: list[Board] = []
        for perm in SYMMETRIES:
            image = tuple(state[i] for i in perm)
            if image not in images:
                images.append(image)
        return images

    def format_state(self, state: Board) -> str:
        """Three rows separated by ``/``, e.g. ``x.o/.x./..o``."""
        text = "".join(state)
        return f"{text[0:3]}/{text[3:6]}/{text[6:9]}"

    def parse_state(self, text: str) -> Board:
        """Read three rows of ``x``, ``o``, ``.`` separated by ``/`` (capitals allowed).

        Checks that the position can arise in play: X has as many marks as O or one more, and
        at most one player has a line, consistent with who moved last.

        Raises:
            InvalidStateError: the message quotes the text and says what is wrong.
        """
        state = parse_board(text)
        check_reachable(text, state)
        return state

    def format_action(self, state: Board, action: int) -> str:
        """The cell number, ``"0"`` .. ``"8"``."""
        return str(action)

    def parse_action(self, state: Board, text: str) -> int:
        """Read a cell number ``0..8`` or ``row,col`` with rows and columns from 0.

        Legality is not checked here (see :func:`solver.game.parse_action`).

        Raises:
            IllegalActionError: the text is neither form or is off the board.
        """
        return parse_cell(text)

    def render(self, state: Board) -> str:
        """A 3x3 grid picture."""
        return render_board(state)

    def board_cells(self, state: Board) -> BoardCells:
        """The nine cells as three rows (cells 0-2 on top), for boards drawn in tree nodes."""
        return board_cells(state)


# -- helpers shared with the bitboard version ---------------------------------------------------


def parse_board(text: str) -> Board:
    """Parse the row notation into nine cells, checking only its shape and characters."""
    rows = text.strip().lower().split("/")
    if len(rows) != 3 or any(len(row) != 3 for row in rows):
        raise InvalidStateError(
            f"invalid tic-tac-toe position {quote(text)}: use three rows of three cells separated "
            "by '/', e.g. 'x.o/.x./..o'"
        )
    cells = tuple("".join(rows))
    bad = sorted({c for c in cells if c not in (X, O, EMPTY)})
    if bad:
        raise InvalidStateError(
            f"invalid tic-tac-toe position {quote(text)}: bad cell {bad[0]!r}; "
            "cells are 'x', 'o' or '.' (empty)"
        )
    return cells


def check_reachable(text: str, state: Sequence[str]) -> None:
    """Raise :class:`InvalidStateError` unless ``state`` can arise in play from the empty board."""
    xs, os = state.count(X), state.count(O)
    if xs not in (os, os + 1):
        raise InvalidStateError(
            f"invalid tic-tac-toe position {quote(text)}: {xs} x and {os} o; X moves first, so x "
            "must equal o or o + 1"
        )
    x_wins = any(all(state[i] == X for i in line) for line in LINES)
    o_wins = any(all(state[i] == O for i in line) for line in LINES)
    if x_wins and o_wins:
        raise InvalidStateError(
            f"invalid tic-tac-toe position {quote(text)}: both players have a line; "
            "the game ends at the first line"
        )
    if x_wins and xs != os + 1:
        raise InvalidStateError(
            f"invalid tic-tac-toe position {quote(text)}: x has a line but o moved after it; "
            "with an x line there must be one more x than o"
        )
    if o_wins and xs != os:
        raise InvalidStateError(
            f"invalid tic-tac-toe position {quote(text)}: o has a line but x moved after it; "
            "with an o line x and o must be equal in number"
        )


_DIGIT = re.compile(r"[0-9]", re.ASCII)


def parse_cell(text: str) -> int:
    """Read a cell number ``0..8`` or ``row,col`` (each 0..2)."""
    stripped = text.strip()
    parts = [p.strip() for p in stripped.split(",")]
    if all(_DIGIT.fullmatch(p) for p in parts):
        if len(parts) == 1 and int(parts[0]) <= 8:
            return int(parts[0])
        if len(parts) == 2 and int(parts[0]) <= 2 and int(parts[1]) <= 2:
            return 3 * int(parts[0]) + int(parts[1])
    raise IllegalActionError(
        f"illegal tic-tac-toe move {quote(text)}: use a cell number 0..8 (row by row) "
        "or 'row,col' with row and col 0..2"
    )


def board_cells(cells: Sequence[str]) -> BoardCells:
    """Three rows of ``"x"``, ``"o"`` or ``""``: cells 0-2, 3-5, 6-8.

    >>> board_cells("x...o....").rows[:2]
    (('x', '', ''), ('', 'o', ''))
    """
    marks = ["" if c == EMPTY else c for c in cells]
    return BoardCells(rows=(tuple(marks[0:3]), tuple(marks[3:6]), tuple(marks[6:9])))


def render_board(cells: Sequence[str]) -> str:
    """Nine cells as a 3x3 grid."""
    rows = [" " + " | ".join(cells[r * 3 : r * 3 + 3]) for r in range(3)]
    return "\n---+---+---\n".join(rows)
