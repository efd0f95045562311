"""Ayòayò, the Yoruba mancala game, as the public reference implementation plays it.

- :mod:`games.ayoayo.rules`: the readable rules (the reference for every other path).

>>> from games.ayoayo import Ayoayo
>>> Ayoayo().actions(Ayoayo().initial_state())
(0, 1, 2, 3, 4, 5)
"""

from games.ayoayo.rules import (
    PLAYER_NAMES,
    TOTAL_SEEDS,
    Ayoayo,
    AyoayoState,
    NeverEndingSowingError,
    relay_sow,
)

__all__ = [
    "PLAYER_NAMES",
    "TOTAL_SEEDS",
    "Ayoayo",
    "AyoayoState",
    "NeverEndingSowingError",
    "relay_sow",
]
