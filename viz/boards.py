"""Board pictures inside nodes: a game's ``render`` text read as a grid, drawn as an HTML table.

A game that offers ``board_cells`` (:class:`solver.game.BoardCells`) is drawn from those cells
(:func:`from_cells`); otherwise its ``render`` text is read generically. Separator lines (only
``-+=|_`` and spaces) are dropped; each other line is split into tokens on ``|`` when it has
one, else on spaces. A token is a *cell* when it is a number of up to three digits or a single
character; each line's longest run of consecutive cells is its candidate row, with the words
before it (a row label) and after it (for example ``captured 4``). The longest block of at
least two consecutive lines whose runs have the same width (>= 2) is the grid; a first grid row
that only numbers the columns (``0 1 2 ...``) becomes the column header. Other lines are
captions above or below the grid. Cells ``x``/``o`` are drawn as coloured marks and
``.``/``_``/``-`` (or ``""``) as empty cells.

>>> board = read_board(" x | . | o\\n---+---+---\\n . | x | .\\n---+---+---\\n o | . | .")
>>> board.rows[0], board.above, board.below
(Row(label='', cells=('x', '.', 'o'), note=''), (), ())
>>> text = "cell 0 1 2\\nNorth 1 2 3 captured 4\\nSouth 4 5 6 captured 0\\nSouth to move"
>>> mancala = read_board(text)
>>> mancala.header, mancala.rows[0].note, mancala.below
(('0', '1', '2'), 'captured 4', ('South to move',))
"""

from __future__ import annotations

import re
from html import escape
from typing import Any

import attrs

__all__ = ["Board", "Row", "board_label", "from_cells", "read_board"]

_SEPARATOR = re.compile(r"^[\s\-+=|_]*$")
_CELL = re.compile(r"^(\d{1,3}|\S)$")
_EMPTY = {".", "_", "-", ""}
_MARK_COLOURS = {"x": "#c0392b", "o": "#1f5fa8"}


@attrs.frozen
class Row:
    """One grid row: an optional label before the cells and a note after them."""

    label: str
    cells: tuple[str, ...]
    note: str


@attrs.frozen
class Board:
    """A render text read as a grid: caption lines, an optional column header, the rows."""

    above: tuple[str, ...]
    header: tuple[str, ...] | None
    rows: tuple[Row, ...]
    below: tuple[str, ...]


def _tokens(line: str) -> list[str]:
    if "|" in line:
        parts = [p.strip() for p in line.split("|")]
        while parts and not parts[0]:
            parts.pop(0)
        while parts and not parts[-1]:
            parts.pop()
        return parts
    return line.split()


def _row(line: str) -> Row:
    tokens = _tokens(line)
    best = (0, 0)
    i = 0
    while i < len(tokens):
        if _CELL.match(tokens[i]) or tokens[i] == "":
            j = i
            while j < len(tokens) and (_CELL.match(tokens[j]) or tokens[j] == ""):
                j += 1
            if j - i > best[1]:
                best = (i, j - i)
            i = j
        else:
            i += 1
    start, width = best
    return Row(
        " ".join(tokens[:start]),
        tuple(tokens[start : start + width]),
        " ".join(tokens[start + width :]),
    )


def _numbers_columns(row: Row) -> bool:
    if not all(c.isdigit() for c in row.cells):
        return False
    numbers = [int(c) for c in row.cells]
    return numbers in (list(range(len(numbers))), list(range(1, len(numbers) + 1)))


def read_board(text: str) -> Board:
    """Read a ``render`` text as captions, a column header and grid rows (see the module doc)."""
    lines = [line.rstrip() for line in text.splitlines() if not _SEPARATOR.match(line)]
    rows = [_row(line) for line in lines]
    best = (0, 0)  # (start, length) of the longest run of lines with equal-width rows
    start = 0
    while start < len(lines):
        end = start + 1
        width = len(rows[start].cells)
        while end < len(lines) and len(rows[end].cells) == width:
            end += 1
        if width >= 2 and end - start >= 2 and end - start > best[1]:
            best = (start, end - start)
        start = end
    first, length = best
    if length == 0:
        return Board(tuple(line.strip() for line in lines), None, (), ())
    grid = rows[first : first + length]
    header = None
    if length >= 3 and _numbers_columns(grid[0]):
        header = grid[0].cells
        grid = grid[1:]
    return Board(
        tuple(line.strip() for line in lines[:first]),
        header,
        tuple(grid),
        tuple(line.strip() for line in lines[first + length :]),
    )


def from_cells(cells: dict[str, Any]) -> Board:
    """A board from a game's ``board_cells`` (as the tree stores it: a dict of its fields).

    >>> from_cells({"rows": [["x", "", "o"]], "labels": [], "notes": [], "header": [],
    ...             "caption": ""}).rows[0].cells
    ('x', '', 'o')
    """
    rows = [tuple(r) for r in cells["rows"]]
    labels = list(cells["labels"]) or [""] * len(rows)
    notes = list(cells["notes"]) or [""] * len(rows)
    return Board(
        above=(),
        header=tuple(cells["header"]) or None,
        rows=tuple(Row(lab, row, note) for lab, row, note in zip(labels, rows, notes, strict=True)),
        below=(cells["caption"],) if cells["caption"] else (),
    )


def _cell(text: str, size: int) -> str:
    shown = "" if text in _EMPTY else f'<FONT POINT-SIZE="11">{escape(text)}</FONT>'
    colour = _MARK_COLOURS.get(text.lower())
    if colour:
        shown = f'<FONT COLOR="{colour}" POINT-SIZE="12"><B>{escape(text.upper())}</B></FONT>'
    return (
        f'<TD WIDTH="{size}" HEIGHT="{size}" FIXEDSIZE="TRUE" BGCOLOR="white">{shown or " "}</TD>'
    )


def board_label(text: str | Board, *, dim: bool = False) -> str:
    """The HTML-like table (without the outer ``<>``) that draws a board (or a render text
    read as one).

    Row labels longer than three characters are left out (the node is small); notes after a
    row (such as captured seeds) are kept in small print.

    >>> "<TABLE" in board_label("x . o\\n. x .\\n. . o")
    True
    """
    board = read_board(text) if isinstance(text, str) else text
    colour = "#9a9a9a" if dim else "#555555"
    small = f'<FONT POINT-SIZE="8" COLOR="{colour}">'
    parts = ['<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="0">']
    for line in board.above:
        parts.append(f"<TR><TD>{small}{escape(line)}</FONT></TD></TR>")
    if board.rows:
        width = max(len(r.cells) for r in board.rows)
        size = 17 if width <= 4 else 19
        labels = any(0 < len(r.label) <= 3 for r in board.rows)
        notes = any(r.note for r in board.rows)
        fixed = ""
        if not labels and not notes and not board.header:
            # a bare grid keeps its square cells even inside a wider node
            fixed = (
                f' FIXEDSIZE="TRUE" WIDTH="{width * size + 2}" '
                f'HEIGHT="{len(board.rows) * size + 2}"'
            )
        grid = [
            '<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="0" '
            f'COLOR="{colour}"{fixed}>'
        ]
        if board.header:
            cells = "".join(f'<TD BORDER="0">{small}{escape(c)}</FONT></TD>' for c in board.header)
            grid.append(
                "<TR>"
                + ('<TD BORDER="0"></TD>' if labels else "")
                + cells
                + ('<TD BORDER="0"></TD>' if notes else "")
                + "</TR>"
            )
        for row in board.rows:
            label = row.label if len(row.label) <= 3 else ""
            grid.append(
                "<TR>"
                + (f'<TD BORDER="0">{small}{escape(label)}</FONT></TD>' if labels else "")
                + "".join(_cell(c, size) for c in row.cells)
                + (
                    f'<TD BORDER="0" ALIGN="LEFT">{small} {escape(row.note)}</FONT></TD>'
                    if notes
                    else ""
                )
                + "</TR>"
            )
        grid.append("</TABLE>")
        parts.append(f"<TR><TD>{''.join(grid)}</TD></TR>")
    for line in board.below:
        parts.append(f"<TR><TD>{small}{escape(line)}</FONT></TD></TR>")
    parts.append("</TABLE>")
    return "".join(parts)
