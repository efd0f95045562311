"""One key per class of symmetric positions, and a move carried from one image to another.

Assumes the game's ``symmetries(state)`` (:class:`solver.game.HasSymmetries`) lists positions
equivalent to ``state``: the same player to move and the same game value, and, for searches
cut at a horizon, the same evaluation. :func:`solver.solve.solve` and the engine's
symmetry-reduced table (``search(symmetric=True)``) key each position by its class, so
that one entry serves every image.

>>> from games import load_game
>>> game = load_game("tictactoe-bitboard")
>>> canonical = canonical_key(game, game.key)
>>> corner, other = game.parse_state("x../.../..."), game.parse_state(".../.../..x")
>>> canonical(corner) == canonical(other) != canonical(game.parse_state(".x./.../..."))
True
>>> image_action(canonical, corner, 4, other, game.actions, game.result)  # the centre
4
>>> image_action(canonical, corner, 1, other, game.actions, game.result)  # the edge beside
5
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from solver.game import HasSymmetries

__all__ = ["canonical_key", "image_action"]


def canonical_key(
    game: HasSymmetries, key_of: Callable[[Any], Hashable] | None
) -> Callable[[Any], Hashable]:
    """The key of a state's class: the least key among its symmetric images (by ``repr``
    when keys do not compare)."""
    symmetries = game.symmetries

    def canonical(state: Any) -> Hashable:
        keys = [image if key_of is None else key_of(image) for image in symmetries(state)]
        try:
            return min(keys)  # type: ignore[type-var]
        except TypeError:
            return min(keys, key=repr)

    return canonical


def image_action(
    canonical: Callable[[Any], Hashable],
    stored: Any,
    action: Any,
    state: Any,
    candidates: Callable[[Any], Sequence[Any]],
    play: Callable[[Any, Any], Any],
) -> Any:
    """The move of ``state`` that ``action`` of ``stored`` (an image of ``state``) becomes:
    a move whose child is in the class of ``action``'s child; None when there is none.

    ``candidates`` and ``play`` are the search's move generation (``actions`` and
    ``result``, or pseudo-legal candidates and ``try_result``, which gives None for an
    illegal one). When ``state`` is symmetric in itself several moves may qualify: they lead
    to equivalent positions, so any of them is as good, and the first is given.
    """
    if stored == state:
        return action
    child = play(stored, action)
    if child is None:
        return None
    target = canonical(child)
    for a in candidates(state):
        image = play(state, a)
        if image is not None and canonical(image) == target:
            return a
    return None
