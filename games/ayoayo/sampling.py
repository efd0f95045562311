"""Ayòayò positions of a given number of seeds on the board, drawn at random (for checks and
benchmarks that compare searches on many positions).

Each is a board of the level drawn uniformly from the tablebase's index (the mover's view), a
split of the captured seeds and a mover, kept when the game is still in play.

>>> import random
>>> [sum(s[:12]) for s in random_positions(8, 3, random.Random(1))]
[8, 8, 8]
"""

from __future__ import annotations

import random

from games.ayoayo.board import TOTAL_SEEDS
from games.ayoayo.rules import AyoayoRules, AyoayoState
from games.ayoayo.tablebase_index import board_count, splits, unrank

__all__ = ["random_positions"]

_RULES = AyoayoRules()


def random_positions(seeds: int, count: int, rng: random.Random) -> list[AyoayoState]:
    """``count`` positions with ``seeds`` seeds on the board, still in play, drawn with ``rng``."""
    found: list[AyoayoState] = []
    while len(found) < count:
        view = unrank(seeds, rng.randrange(board_count(seeds)))
        mover_captured = rng.choice(splits(seeds))
        other = TOTAL_SEEDS - seeds - mover_captured
        mover = rng.randrange(2)
        pits = view if mover == 0 else view[6:] + view[:6]
        captured = (mover_captured, other) if mover == 0 else (other, mover_captured)
        state = AyoayoState((*pits, *captured, mover))
        if not _RULES.is_terminal(state):
            found.append(state)
    return found
