"""Ayòayò, the Yoruba mancala game, as the public reference implementation plays it.

- :mod:`games.ayoayo.board`: the board's numbers, once.
- :mod:`games.ayoayo.rules`: the readable rules (the reference for every other path).
- :mod:`games.ayoayo.tablebase`: exact endgame values, built by retrograde analysis.
- :mod:`games.ayoayo.native_route`: the rules for the engine's generic compiled search, the
  one kernel every game shares, which probes the tablebases itself.
- :mod:`games.ayoayo.game`: :class:`Ayoayo`, the rules with both wired in.

>>> from games.ayoayo import Ayoayo
>>> Ayoayo().actions(Ayoayo().initial_state())
(0, 1, 2, 3, 4, 5)
"""

from games.ayoayo.board import TOTAL_SEEDS
from games.ayoayo.game import Ayoayo
from games.ayoayo.rules import (
    PLAYER_NAMES,
    AyoayoRules,
    AyoayoState,
    NeverEndingSowingError,
    relay_sow,
)

__all__ = [
    "PLAYER_NAMES",
    "TOTAL_SEEDS",
    "Ayoayo",
    "AyoayoRules",
    "AyoayoState",
    "NeverEndingSowingError",
    "relay_sow",
]
