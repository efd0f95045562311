"""Tic-tac-toe on bitboards: the whole position is one int. The benchmark game.

Same rules, notation, action order and utilities as :mod:`games.tictactoe` (X, player 0, moves
first; actions are the empty cells 0..8 in ascending order; +1/0/-1 for X).

A state is an ``int``: bit ``n`` (``0 <= n < 9``) is set when X is on cell ``n``, bit ``9 + n``
when O is; cells are numbered 0..8 row by row. The side to move is not stored: X moves when both
have as many marks, else O (the popcounts of the two 9-bit halves, read from a table).

Every question the search asks is a lookup in tables built at import time over the 512 possible
9-bit masks: which masks contain a line, the set cells of a mask in ascending order (listed with
``bb & -bb``), popcounts, open-line counts and the images of a mask under the 8 symmetries.

>>> game = BitboardTicTacToe()
>>> state = game.parse_state("xx./oo./...")
>>> state == 0b11 | 0b11000 << 9
True
>>> game.to_move(state), list(game.actions(state))
(0, [2, 5, 6, 7, 8])
>>> game.utility(game.result(state, 2))
1
"""

from __future__ import annotations

from typing import Final, TypeAlias

from games.marks_in_rows import MarksInRows
from games.tictactoe import (
    EMPTY,
    LINES,
    SYMMETRIES,
    O,
    X,
    board_cells,
    check_reachable,
    parse_board,
    parse_cell,
    render_board,
)
from solver.game import BoardCells, Player

__all__ = ["FULL", "WIN_MASKS", "Bitboard", "BitboardTicTacToe"]

Bitboard: TypeAlias = int
"""X's marks in bits 0..8, O's in bits 9..17."""

FULL: Final = 0x1FF
"""All nine cells of one half."""

WIN_MASKS: Final[tuple[int, ...]] = tuple(sum(1 << i for i in line) for line in LINES)
"""The eight lines as 9-bit masks."""


def _cells(mask: int) -> tuple[int, ...]:
    """The set bits of ``mask``, lowest first, peeled off with ``mask & -mask``."""
    cells = []
    while mask:
        low = mask & -mask
        cells.append(low.bit_length() - 1)
        mask ^= low
    return tuple(cells)


_CELLS: Final[tuple[tuple[int, ...], ...]] = tuple(_cells(m) for m in range(512))
_WON: Final[tuple[bool, ...]] = tuple(any(m & w == w for w in WIN_MASKS) for m in range(512))
_POP: Final[tuple[int, ...]] = tuple(m.bit_count() for m in range(512))
_OPEN: Final[tuple[int, ...]] = tuple(sum(1 for w in WIN_MASKS if not m & w) for m in range(512))
"""``_OPEN[m]``: lines holding none of the marks in ``m``, i.e. open for the other player."""
_IMAGE: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(sum(1 << i for i, src in enumerate(perm) if m >> src & 1) for m in range(512))
    for perm in SYMMETRIES
)
_NO_ACTIONS: Final[tuple[int, ...]] = ()


class BitboardTicTacToe(MarksInRows):
    """Tic-tac-toe with the board as one int; see the module docstring for the layout.

    >>> game = BitboardTicTacToe()
    >>> game.format_state(game.result(game.result(game.initial_state(), 4), 0))
    'o../.x./...'
    """

    name: str = "tictactoe-bitboard"
    player_names: tuple[str, str] = ("X", "O")

    def utility_bounds(self) -> tuple[float, float]:
        """A loss and a win: every utility and evaluation lies in ``[-1, 1]``."""
        return (-1, 1)

    def initial_state(self) -> Bitboard:
        """The empty board, ``0``."""
        return 0

    def to_move(self, state: Bitboard) -> Player:
        """0 (X) when both halves have as many bits set, else 1 (O)."""
        return 0 if _POP[state & FULL] == _POP[state >> 9] else 1

    def actions(self, state: Bitboard) -> tuple[int, ...]:
        """The empty cells in ascending order; none once someone has a line."""
        x = state & FULL
        o = state >> 9
        if _WON[x] or _WON[o]:
            return _NO_ACTIONS
        return _CELLS[FULL ^ (x | o)]

    def result(self, state: Bitboard, action: int) -> Bitboard:
        """The board with the mover's bit for cell ``action`` set (unchecked)."""
        if _POP[state & FULL] == _POP[state >> 9]:
            return state | 1 << action
        return state | 1 << (action + 9)

    def is_terminal(self, state: Bitboard) -> bool:
        """True when someone has a line or the board is full."""
        x = state & FULL
        o = state >> 9
        return _WON[x] or _WON[o] or x | o == FULL

    def utility(self, state: Bitboard) -> float:
        """+1 if X has a line, -1 if O has one, else 0."""
        if _WON[state & FULL]:
            return 1
        if _WON[state >> 9]:
            return -1
        return 0

    # -- optional capabilities ------------------------------------------------------------------

    def evaluate(self, state: Bitboard) -> float:
        """Open lines, as :meth:`games.tictactoe.TicTacToe.evaluate`: (X's - O's) / 10.

        >>> BitboardTicTacToe().evaluate(1 << 4)
        0.4
        """
        if self.is_terminal(state):
            return self.utility(state)
        return (_OPEN[state >> 9] - _OPEN[state & FULL]) / 10

    def key(self, state: Bitboard) -> Bitboard:
        """The int itself."""
        return state

    def symmetries(self, state: Bitboard) -> list[Bitboard]:
        """The distinct images under the 8 symmetries of the square, itself first."""
        x = state & FULL
        o = state >> 9
        images: list[Bitboard] = []
        for table in _IMAGE:
            image = table[x] | table[o] << 9
            if image not in images:
                images.append(image)
        return images

    def format_state(self, state: Bitboard) -> str:
        """Three rows separated by ``/``, e.g. ``x.o/.x./..o``."""
        cells = [X if state >> i & 1 else O if state >> (i + 9) & 1 else EMPTY for i in range(9)]
        text = "".join(cells)
        return f"{text[0:3]}/{text[3:6]}/{text[6:9]}"

    def parse_state(self, text: str) -> Bitboard:
        """Read the row notation, with the same checks as :meth:`TicTacToe.parse_state`.

        Raises:
            InvalidStateError: the message quotes the text and says what is wrong.
        """
        cells = parse_board(text)
        check_reachable(text, cells)
        state = 0
        for i, cell in enumerate(cells):
            if cell == X:
                state |= 1 << i
            elif cell == O:
                state |= 1 << (i + 9)
        return state

    def format_action(self, state: Bitboard, action: int) -> str:
        """The cell number, ``"0"`` .. ``"8"``."""
        return str(action)

    def parse_action(self, state: Bitboard, text: str) -> int:
        """Read a cell number ``0..8`` or ``row,col`` (from 0); legality is checked elsewhere.

        Raises:
            IllegalActionError: the text is neither form or is off the board.
        """
        return parse_cell(text)

    def render(self, state: Bitboard) -> str:
        """A 3x3 grid picture."""
        return render_board(self.format_state(state).replace("/", ""))

    def board_cells(self, state: Bitboard) -> BoardCells:
        """The nine cells as three rows (cells 0-2 on top), for boards drawn in tree nodes."""
        return board_cells(self.format_state(state).replace("/", ""))
