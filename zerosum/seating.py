"""Ayòayò in the terminal as at a real board: your row at the bottom, cells numbered your way.

``gamesolver play ayoayo --seat`` draws the board from the human's side: their row at the
bottom, the opponent's facing it, both laid out so that the seeds travel counter-clockwise
(left to right along the bottom row), as on the analysis board. ``--cells 1-6`` (for a row of
six pits; ``1-N`` for rows of ``N``) numbers the cells from 1 on screen and at the prompt, as
the reference's command line does; records and positions keep the project's notation (cells
from 0).
"""

from __future__ import annotations

import re
from typing import Any, Final

import attrs

from solver.game import player_label
from zerosum.console import UsageError

__all__ = ["CellNumbers", "cell_numberings", "seated_lines"]

_NUMBER: Final = re.compile(r"\d+")


def cell_numberings(size: int) -> tuple[str, str]:
    """The ``--cells`` choices for rows of ``size`` pits: from 0 (the notation) or from 1.

    >>> cell_numberings(6)
    ('0-5', '1-6')
    """
    return f"0-{size - 1}", f"1-{size}"


@attrs.frozen
class CellNumbers:
    """How the cells of a row of ``size`` pits are numbered for the player: from 0 (the
    notation) or from 1.

    >>> ones = CellNumbers.named("1-6", size=6)
    >>> ones.shown(0), ones.read("6"), ones.prompt("Player 1 to move (0, 2, 5): ")
    ('1', '5', 'Player 1 to move (1, 3, 6): ')
    >>> CellNumbers.named("1-6", size=4)
    Traceback (most recent call last):
    ...
    zerosum.console.UsageError: invalid --cells '1-6' for rows of 4 pits; choose 0-3 or 1-4
    """

    first: int = 0
    size: int = 6

    @classmethod
    def named(cls, name: str, size: int) -> CellNumbers:
        """The numbering :func:`cell_numberings` ``(size)`` names ``name``."""
        choices = cell_numberings(size)
        if name not in choices:
            raise UsageError(
                f"invalid --cells {name!r} for rows of {size} pits; choose {' or '.join(choices)}"
            )
        return cls(choices.index(name), size)

    def is_cell(self, text: str) -> bool:
        """Whether ``text`` is a cell number of a row, as the player numbers them (ASCII digits)."""
        word = text.strip()
        return (
            word.isascii() and word.isdigit() and self.first <= int(word) < self.first + self.size
        )

    def shown(self, cell: Any) -> str:
        """A cell of the notation as the player sees it."""
        return str(int(cell) + self.first)

    def read(self, text: str) -> str:
        """What the player typed, in the notation (text that is not a cell stays as it is)."""
        word = text.strip()
        if self.first and self.is_cell(word):
            return str(int(word) - 1)
        if self.first and word == "0":
            return "cell 0"  # not a cell when counting from 1: the game's message says so
        return text

    def prompt(self, prompt: str) -> str:
        """The move prompt with its list of legal cells renumbered."""
        if not self.first or "(" not in prompt:
            return prompt
        head, _, rest = prompt.partition("(")
        inside, _, tail = rest.partition(")")
        return f"{head}({_NUMBER.sub(lambda m: self.shown(m.group()), inside)}){tail}"


def seated_lines(game: Any, state: Any, bottom: int, cells: CellNumbers) -> list[str]:
    """The board of a game of pits and stores (``solver.game.HasPits`` and ``HasScore``:
    Ayòayò) seen from player ``bottom``'s side, with the captured seeds and who moves.

    >>> from games import load_game
    >>> game = load_game("ayoayo")
    >>> print("\\n".join(seated_lines(game, game.initial_state(), 1, CellNumbers(1))))
    cell              1   2   3   4   5   6
    Player 1          4   4   4   4   4   4   captured 0
    Player 2 (you)    4   4   4   4   4   4   captured 0
    cell              1   2   3   4   5   6
    seeds travel counter-clockwise: left to right along your row
    Player 1 to move (to-move 0)
    """
    board = game.pits(state)
    captured = game.score(state)
    size = len(board[0])
    order = [size - 1 - c for c in range(size)] if bottom == 0 else list(range(size))
    names = [player_label(game, p) + (" (you)" if p == bottom else "") for p in (0, 1)]
    width = max(len(name) for name in names) + 1

    # Both rows in the same column order: across the board, cell c faces cell c.
    numbers = "".join(f"{cells.shown(c):>4}" for c in order)

    def pits(row: int) -> str:
        return "".join(f"{board[row][c]:>4}" for c in order)

    top = 1 - bottom
    lines = [
        f"{'cell':<{width}}{numbers}",
        f"{names[top]:<{width}}{pits(top)}   captured {captured[top]}",
        f"{names[bottom]:<{width}}{pits(bottom)}   captured {captured[bottom]}",
        f"{'cell':<{width}}{numbers}",
        "seeds travel counter-clockwise: left to right along your row",
    ]
    if game.is_terminal(state):
        lines.append("game over")
    else:
        mover = game.to_move(state)
        lines.append(f"{player_label(game, mover)} to move (to-move {mover})")
    return lines
