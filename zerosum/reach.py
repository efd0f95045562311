"""Whether a search to the end of the game is within reach, said before it starts.

A search with no depth and no time limit runs until the game's value is proved. On a large
game that is never: ``best connect4`` would run silently until Ctrl-C. The cost is estimated up
front from the game tree's size below the position (Knuth's estimator over seeded random lines
of play, :func:`solver.tree_size.tree_sizes`): even a perfectly ordered alpha-beta search visits
about twice the square root of it (Knuth and Moore's minimal tree), a full-width minimax all of
it, and no search with a table needs more than the game's positions when the game knows how
many it has (:class:`solver.game.HasPositionCount`). Over :data:`OUT_OF_REACH` the search is
refused with the figures and the options that help; over :data:`SLOW` it runs after a warning.

Measured (the Python node search, which searches to the end, at about 45,000 nodes a second):
Connect Four 4x4 is estimated at 1.9e4 visits and takes 1.0e6 nodes, 22 s; tic-tac-toe at
1.5e3, well under a second. Real searches visit tens of times the minimal tree.
"""

from __future__ import annotations

import math
import random
from typing import Any, Final

import attrs

from solver.game import HasChance, HasPositionCount
from solver.tree_size import tree_sizes

__all__ = ["OUT_OF_REACH", "SLOW", "EndSearchCost", "end_search_cost", "reach_said"]

OUT_OF_REACH: Final = 10**6
"""Estimated visits (a minimal tree) beyond which a search to the end is refused: the real
search would take tens of millions of nodes, hours at the Python node search's speed."""

SLOW: Final = 10**4
"""Estimated visits beyond which a search to the end is warned about (a few seconds or more)."""

SOLVABLE: Final = 10**8
"""A game known to have more positions than this is not sent to ``gamesolver solve``."""

DEEPEST: Final = 1_000
"""The longest line of play the estimate follows (a line that long is out of reach anyway)."""


@attrs.frozen
class EndSearchCost:
    """What a search to the end from one position would cost, estimated.

    Attributes:
        tree: the game tree's estimated size below the position (positions, with repeats).
        visits: the positions the search would visit at least (see the module).
        positions: the game's own count of its positions, when it knows it.
        prunes: the search prunes (alpha-beta, the engine); a minimax does not.
    """

    tree: float
    visits: float
    positions: int | None
    prunes: bool


def end_search_cost(
    game: Any, state: Any, *, prunes: bool = True, table: bool = True
) -> EndSearchCost | None:
    """The estimated cost of a search to the end from ``state``; None for a game with chance
    moves (its searches are expectations, which this does not estimate). ``prunes``: the
    search is an alpha-beta; ``table``: it keeps a transposition table (the engine), so the
    game's own count of its positions bounds it too.

    >>> from games import load_game
    >>> game = load_game("tictactoe")
    >>> cost = end_search_cost(game, game.initial_state())
    >>> round(cost.tree, -4), round(cost.visits, -2), cost.positions
    (540000.0, 1500.0, None)
    """
    if isinstance(game, HasChance):
        return None
    tree = tree_sizes(game, state, DEEPEST, random.Random(0))[-1]
    visits = 2 * math.sqrt(tree) if prunes else tree
    positions = game.position_count() if isinstance(game, HasPositionCount) else None
    if positions is not None and table:
        visits = min(visits, float(positions))
    return EndSearchCost(tree, visits, positions, prunes)


def reach_said(game: Any, cost: EndSearchCost, limits: str, where: str = "") -> str:
    """The figures of ``cost`` and what to do instead (``limits``: the options that bound the
    search; ``where``: the position's option, e.g. ``" --position P"``).

    >>> from games import load_game
    >>> cost = EndSearchCost(6.9e15, 1.7e8, 4531985219092, True)
    >>> print(reach_said(load_game("connect4"), cost, "--depth N or --time S"))
    ... # doctest: +NORMALIZE_WHITESPACE
    a search of connect4 to the end from here would visit about 1.7e+08 positions even with the
    best move ordering (its game tree has about 6.9e+15, estimated from random lines of play;
    the game has 4,531,985,219,092 positions); give --depth N or --time S, or use 'gamesolver
    analyse connect4' (deeper and deeper within a time limit)
    """
    search = "even with the best move ordering" if cost.prunes else "with a full-width minimax"
    known = "" if cost.positions is None else f"; the game has {cost.positions:,} positions"
    solve = (
        f", or 'gamesolver solve {game.name}{where}' if its positions fit in memory"
        if cost.positions is None or cost.positions <= SOLVABLE
        else ""
    )
    return (
        f"a search of {game.name} to the end from here would visit about {cost.visits:.1e} "
        f"positions {search} (its game tree has about {cost.tree:.1e}, estimated from random "
        f"lines of play{known}); give {limits}, or use 'gamesolver analyse {game.name}{where}' "
        f"(deeper and deeper within a time limit){solve}"
    )
