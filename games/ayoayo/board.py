"""The Ayòayò board's numbers, defined once: seeds, pits, sowing order, the end rule.

Everything else in :mod:`games.ayoayo` stands on this module, which imports nothing of the
project: the readable rules (:mod:`games.ayoayo.rules`), the tablebases' indexing
(:mod:`games.ayoayo.tablebase_index`) and the compiled kernel (:mod:`games.ayoayo.native_rules`)
all read these names rather than restating them.

- **Pits in sowing order.** The 12 pits are numbered 0..11 in the direction seeds travel
  (anticlockwise): player 0's row is pits 0..5, player 1's pits 6..11. A player's *cell* ``c``
  (the reference's numbering, 0..5 left to right as the player sees the board) is pit
  ``CELL_PITS[p][c]``: ``5 - c`` for player 0, ``6 + c`` for player 1.
- **The end rule.** The game is over as soon as a player has captured more than
  :data:`WIN_THRESHOLD` seeds (a majority of :data:`TOTAL_SEEDS`).
- **Captures take exactly 4**, so the seeds on the board are always a multiple of
  :data:`CAPTURE` (which is how tablebases are levelled).

>>> CELL_PITS[0][0], CELL_PITS[1][0], ROW_PITS[1][-1], TOTAL_SEEDS - 2 * WIN_THRESHOLD
(5, 6, 11, 0)
>>> STARS_AND_BARS[11][4]  # boards of 4 seeds in 12 pits
1365
"""

from __future__ import annotations

from math import comb
from typing import Final

__all__ = [
    "CAPTURE",
    "CELLS",
    "CELL_PITS",
    "LOOP_CHECK_AFTER",
    "PITS",
    "ROW_PITS",
    "STARS_AND_BARS",
    "TOTAL_SEEDS",
    "WIN_THRESHOLD",
]

TOTAL_SEEDS: Final = 48
"""Seeds in play: on the board plus captured, always (seeds left at the end stay on the board)."""

PITS: Final = 12
"""Pits on the board, both rows."""

CELLS: Final = 6
"""Pits in a row: a player's moves are its cells 0..5."""

CAPTURE: Final = 4
"""A capture takes exactly this many seeds (a pit made up to four)."""

WIN_THRESHOLD: Final = 24
"""The game ends as soon as a player has captured more than this."""

CELL_PITS: Final = ((5, 4, 3, 2, 1, 0), (6, 7, 8, 9, 10, 11))
"""``CELL_PITS[p][c]``: the pit (in sowing order) of player ``p``'s cell ``c``."""

ROW_PITS: Final = ((0, 1, 2, 3, 4, 5), (6, 7, 8, 9, 10, 11))
"""``ROW_PITS[p]``: player ``p``'s pits in sowing order."""

LOOP_CHECK_AFTER: Final = 12
"""Pick-ups after which a relay sowing starts looking for a repeat (one that never ends).

Sowings that end need far fewer (the longest seen in 16 million cases had 52 drops), so the
check rarely runs; the readable rules and the compiled kernel use the same number.
"""

STARS_AND_BARS: Final = tuple(
    tuple(comb(m + j, j) for m in range(TOTAL_SEEDS + 1)) for j in range(PITS + 1)
)
"""``STARS_AND_BARS[j][m]`` = C(m + j, j): the boards of ``m`` seeds in ``j + 1`` pits.

The tablebases rank boards with it (:mod:`games.ayoayo.tablebase_index`), in Python and in the
compiled kernel alike.
"""
