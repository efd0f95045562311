"""Board pictures inside nodes: a game's ``render`` text read as a grid, drawn as an HTML table.

Game-agnostic: the text is read generically. Separator lines (only ``-+=|_`` and spaces) are
dropped; each other line is split into cells on ``|`` when it has one, else on spaces. The
longest run of at least two consecutive lines with the same number (>= 2) of cells is the grid;
the lines above and below it are captions (for example the captured seeds of a mancala board).
Cells ``x``/``o`` are drawn as coloured marks and ``.``/``_``/``-`` as empty cells.

>>> board = read_board(" x | . | o\\n---+---+---\\n . | x | .\\n---+---+---\\n o | . | .")
>>> board.rows[0], board.above, board.below
(('x', '.', 'o'), (), ())
>>> read_board("Player 2 captured: 4\\n 1 2 3\\n 4 5 6\\nPlayer 1 captured: 0").above
('Player 2 captured: 4',)
"""

from __future__ import annotations

import re
from html import escape

import attrs

__all__ = ["Board", "board_label", "read_board"]

_SEPARATOR = re.compile(r"^[\s\-+=|_]*$")
_EMPTY = {".", "_", "-", ""}
_MARK_COLOURS = {"x": "#c0392b", "o": "#1f5fa8"}


@attrs.frozen
class Board:
    """A render text read as a grid: caption lines above, the grid's rows, lines below."""

    above: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    below: tuple[str, ...]


def _cells(line: str) -> tuple[str, ...]:
    if "|" in line:
        parts = [p.strip() for p in line.split("|")]
        while parts and not parts[0]:
            parts.pop(0)
        while parts and not parts[-1]:
            parts.pop()
        return tuple(parts)
    return tuple(line.split())


def read_board(text: str) -> Board:
    """Read a ``render`` text as caption lines and a grid of cells (see the module doc)."""
    lines = [line.rstrip() for line in text.splitlines() if not _SEPARATOR.match(line)]
    cells = [_cells(line) for line in lines]
    best: tuple[int, int] = (0, 0)  # (start, length) of the longest equal-width run
    start = 0
    while start < len(lines):
        end = start + 1
        width = len(cells[start])
        while end < len(lines) and len(cells[end]) == width:
            end += 1
        if width >= 2 and end - start >= 2 and end - start > best[1]:
            best = (start, end - start)
        start = end
    first, length = best
    if length == 0:
        return Board(tuple(line.strip() for line in lines), (), ())
    return Board(
        tuple(line.strip() for line in lines[:first]),
        tuple(cells[first : first + length]),
        tuple(line.strip() for line in lines[first + length :]),
    )


def _cell(text: str, size: int) -> str:
    shown = "" if text in _EMPTY else escape(text)
    colour = _MARK_COLOURS.get(text.lower())
    if colour:
        shown = f'<FONT COLOR="{colour}"><B>{escape(text.upper())}</B></FONT>'
    return (
        f'<TD WIDTH="{size}" HEIGHT="{size}" FIXEDSIZE="TRUE" BGCOLOR="white">{shown or " "}</TD>'
    )


def board_label(text: str, *, dim: bool = False) -> str:
    """The HTML-like table (without the outer ``<>``) that draws a render text as a board.

    >>> "<TABLE" in board_label("x . o\\n. x .\\n. . o")
    True
    """
    board = read_board(text)
    colour = "#9a9a9a" if dim else "#555555"
    parts = ['<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="0">']
    small = f'<FONT POINT-SIZE="8" COLOR="{colour}">'
    for line in board.above:
        parts.append(f"<TR><TD>{small}{escape(line)}</FONT></TD></TR>")
    if board.rows:
        width = max(len(r) for r in board.rows)
        size = 15 if width <= 4 else 17
        grid = [
            f'<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="1" COLOR="{colour}">'
        ]
        for row in board.rows:
            grid.append("<TR>" + "".join(_cell(c, size) for c in row) + "</TR>")
        grid.append("</TABLE>")
        parts.append(f"<TR><TD>{''.join(grid)}</TD></TR>")
    for line in board.below:
        parts.append(f"<TR><TD>{small}{escape(line)}</FONT></TD></TR>")
    parts.append("</TABLE>")
    return "".join(parts)
