"""Exam variants: one tree's shape with other leaf values, pruned as much, seeded.

A lecturer who sets the same alpha-beta exercise to several groups wants trees of one shape
that are equally hard: :func:`variants` draws new leaf values for the shape of a tree (a nested
list, as the ``textbook`` game takes it) from a seeded :class:`random.Random`, and keeps a draw
only if alpha-beta, searching the moves left to right, prunes exactly as many moves as on the
tree given, and it differs from the given tree and from every variant kept before.

Knows no game: ``make_game`` turns a nested list into a game, e.g.
``lambda t: load_game("textbook", tree=t)``.

>>> from games import load_game
>>> textbook = lambda t: load_game("textbook", tree=t)
>>> variants([[3, 12, 8], [2, 4, 6], [14, 5, 2]], textbook, count=2, seed=1, values=(0, 20))
[[[20, 17, 0], [12, 6, 13], [0, 16, 7]], [[19, 10, 14], [19, 0, 7], [20, 5, 17]]]
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from solver.game import Game
from viz.build import game_tree
from viz.errors import VizError

__all__ = ["TRIES", "pruned_moves", "variants"]

TRIES = 5_000
"""The most draws tried for all variants together before giving up."""


def pruned_moves(tree: Any, make_game: Callable[[Any], Game[Any, Any]]) -> int:
    """How many moves alpha-beta prunes on ``tree``, searching the moves left to right."""
    return game_tree(make_game(tree), algorithm="alphabeta").pruned


def variants(
    shape: Any,
    make_game: Callable[[Any], Game[Any, Any]],
    *,
    count: int,
    seed: int,
    values: tuple[int, int] = (-9, 20),
    tries: int = TRIES,
) -> list[Any]:
    """``count`` trees of ``shape``'s shape with leaf values in ``values``, each pruned by
    alpha-beta as much as ``shape`` is, all different; the same ``seed`` gives the same trees.

    Raises:
        VizError: ``shape`` is a single leaf, ``count`` is not 1 to 20, ``values`` is empty, or
            so few draws prune alike that :data:`TRIES` draws do not give ``count`` variants
            (the message says how many were found and to widen the values); ``tries`` draws
            in all, :data:`TRIES` unless said.
    """
    if not isinstance(shape, list):
        raise VizError(f"invalid tree {shape!r}: a variant needs a tree with moves, not a leaf")
    if not 1 <= count <= 20:
        raise VizError(f"invalid count {count!r}: make 1 to 20 variants")
    low, high = values
    if low > high:
        raise VizError(f"invalid values {values!r}: use (lowest, highest)")
    others = (high - low + 1) ** _leaves(shape) - 1
    if others < count:
        raise VizError(
            f"values {low} to {high} give only {others} other "
            f"{'tree' if others == 1 else 'trees'} of this shape, fewer than {count}; "
            "widen the values or ask for fewer"
        )
    target = pruned_moves(shape, make_game)
    rng = random.Random(seed)
    seen = [shape]
    found: list[Any] = []
    for _ in range(tries):
        tree = _relabel(shape, iter(lambda: rng.randint(low, high), None))
        if tree in seen or pruned_moves(tree, make_game) != target:
            continue
        seen.append(tree)
        found.append(tree)
        if len(found) == count:
            return found
    raise VizError(
        f"only {len(found)} of {count} variants prune {target} "
        f"{'move' if target == 1 else 'moves'} as the tree does within {tries:,} draws of "
        f"values {low} to {high}; widen the values or ask for fewer"
    )


def _relabel(shape: Any, draws: Iterator[int]) -> Any:
    """``shape`` with every leaf replaced by the next value of ``draws``, left to right."""
    if isinstance(shape, list):
        return [_relabel(child, draws) for child in shape]
    return next(draws)


def _leaves(shape: Any) -> int:
    return sum(_leaves(child) for child in shape) if isinstance(shape, list) else 1
