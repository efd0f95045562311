"""The moves of every board of a tablebase level: the one function a native kernel replaces.

Assumes the layout of :mod:`games.ayoayo.tablebase_index` (boards from the mover's view, ranked
by stars and bars). A board's moves do not depend on the captured seeds (only the end rule
above 24 does, and the builder applies it), so they are generated once per board and shared by
every split of the level.

:func:`level_moves` plays, for the boards of ranks ``start .. stop - 1`` of level ``seeds``,
each of the mover's six pits through the rules themselves (:meth:`AyoayoRules.try_result`, so the
sowing, the loop rule, the feeding rule and the end sweep live in one place) and returns, per
board and cell:

Column ``c`` is the move from view pit ``5 - c``: the mover's cell ``c`` when the mover is
player 0, cell ``5 - c`` when it is player 1 (the view turns the board round).

- ``child[i, c]``: the rank of the board after the move, seen from the next mover (the
  opponent), among the boards of its own seed count; ``-1`` if cell ``c`` is not a legal move.
- ``gain_mover[i, c]`` and ``gain_opponent[i, c]``: the seeds the move adds to the mover's and
  the opponent's captured (captures, and the end sweep when the opponent cannot feed the mover's
  emptied row, which leaves the board empty). The child's board holds
  ``seeds - gain_mover - gain_opponent`` seeds; a move with no gain stays in the level.

A native kernel must return exactly these arrays for the same arguments (``int64`` ``child``,
``uint8`` gains, shape ``(stop - start, 6)``); the builder and the files are then byte for byte
the same.

>>> moves = level_moves(4, 0, 3)
>>> moves.child[0].tolist(), moves.gain_mover[0].tolist()  # (0,...,0,4): the mover has no seeds
([-1, -1, -1, -1, -1, -1], [0, 0, 0, 0, 0, 0])
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import attrs
import numpy as np
import numpy.typing as npt

from games.ayoayo.board import CELLS
from games.ayoayo.rules import AyoayoRules, AyoayoState
from games.ayoayo.tablebase_index import board_count, boards, boards_of, rank

__all__ = ["LevelMoves", "level_moves"]


@attrs.frozen(eq=False)
class LevelMoves:
    """The moves of the boards of ranks ``start .. stop - 1`` of level ``seeds`` (see module)."""

    seeds: int
    start: int
    stop: int
    child: npt.NDArray[np.int64]
    gain_mover: npt.NDArray[np.uint8]
    gain_opponent: npt.NDArray[np.uint8]


def _rows_up_to(seeds: int) -> Iterator[tuple[int, ...]]:
    """Every row of six pits holding at most ``seeds`` seeds."""
    for total in range(seeds + 1):
        yield from boards_of(total, CELLS)


@cache
def _head_ranks(seeds: int) -> dict[tuple[int, ...], int]:
    """The part of :func:`rank` given by the first six pits of a board of ``seeds`` seeds.

    The last six pits add :func:`_tail_ranks` (they do not depend on the first six).
    """
    return {
        head: rank((*head, *([0] * (CELLS - 1)), seeds - sum(head))) for head in _rows_up_to(seeds)
    }


@cache
def _tail_ranks(seeds: int) -> dict[tuple[int, ...], int]:
    """The part of :func:`rank` given by the last six pits, for rows of at most ``seeds``."""
    return {tail: rank((0,) * CELLS + tail) for tail in _rows_up_to(seeds)}


def level_moves(seeds: int, start: int = 0, stop: int | None = None) -> LevelMoves:
    """The moves of the boards of ranks ``start .. stop - 1`` of level ``seeds`` (pure Python).

    Args:
        seeds: the level, a multiple of 4.
        start: the first board rank.
        stop: one past the last board rank (default: the whole level).

    Returns:
        The arrays described in the module notes.

    >>> moves = level_moves(4)
    >>> moves.child.shape, int((moves.child >= 0).sum())
    ((1365, 6), 1991)
    """
    total = board_count(seeds)
    stop = total if stop is None else stop
    count = stop - start
    child = np.full((max(count, 0), CELLS), -1, dtype=np.int64)
    gain_mover = np.zeros((max(count, 0), CELLS), dtype=np.uint8)
    gain_opponent = np.zeros((max(count, 0), CELLS), dtype=np.uint8)
    heads = {n: _head_ranks(n) for n in range(0, seeds + 1, 4)}
    tails = _tail_ranks(seeds)
    try_result = AyoayoRules(cache_size=0).try_result
    new_state = tuple.__new__
    child_rows = child.tolist()
    gm_rows = gain_mover.tolist()
    go_rows = gain_opponent.tolist()
    for i, board in enumerate(boards(seeds, start, stop)):
        state = new_state(AyoayoState, (*board, 0, 0, 0))
        row = child_rows[i]
        for c in range(CELLS):
            if not board[5 - c]:
                continue
            after = try_result(state, c)
            if after is None:
                continue
            gm = after[12]
            go = after[13]
            # the next mover is the opponent: its view starts with pits 6..11
            row[c] = heads[seeds - gm - go][after[6:12]] + tails[after[0:6]]
            if gm or go:
                gm_rows[i][c] = gm
                go_rows[i][c] = go
    if count > 0:
        child[:] = child_rows
        gain_mover[:] = gm_rows
        gain_opponent[:] = go_rows
    return LevelMoves(seeds, start, stop, child, gain_mover, gain_opponent)
