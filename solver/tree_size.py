"""How big a game tree is below a position, estimated from random lines of play.

Assumes two players, zero-sum, deterministic, perfect information; knows no game. What says up
front that a search cannot finish: a fixed-depth player in a match (:func:`play.check_agents`)
and ``gamesolver best`` to the end (``zerosum/reach.py``).
"""

from __future__ import annotations

import random
from typing import Any, Final, TypeAlias

from solver.game import Game

__all__ = ["DEFAULT_CAP", "tree_sizes"]

AnyGame: TypeAlias = Game[Any, Any]

DEFAULT_CAP: Final = 1e16
"""Where estimates stop growing: far beyond any search that finishes."""


def tree_sizes(
    game: AnyGame,
    state: Any,
    depth: int,
    rng: random.Random,
    lines: int = 16,
    *,
    cap: float = DEFAULT_CAP,
) -> list[float]:
    """Estimated sizes of the game tree below ``state`` cut at each depth ``0..depth``.

    Knuth's estimator: along a random line of play the product of the branching factors met so
    far stands for the width of each level; the mean over ``lines`` random lines is an unbiased
    estimate of the number of positions a full-width search to that depth visits. Estimates are
    capped at ``cap`` (beyond it only "too many" matters).

    >>> from games import load_game
    >>> game = load_game("textbook", tree=[[3, 12], [2, 4]])
    >>> tree_sizes(game, game.initial_state(), 3, random.Random(0))
    [1.0, 3.0, 7.0, 7.0]
    """
    totals = [0.0] * (depth + 1)
    for _ in range(lines):
        position, width, size = state, 1.0, 1.0
        for level in range(depth + 1):
            totals[level] += size
            if level == depth:
                break
            legal = list(game.actions(position))
            if not legal or size >= cap:  # the rest of this line adds nothing, or nothing new
                for deeper in range(level + 1, depth + 1):
                    totals[deeper] += size
                break
            width *= len(legal)
            size = min(cap, size + width)
            position = game.result(position, rng.choice(legal))
    return [total / lines for total in totals]
