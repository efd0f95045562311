"""Move ordering for teaching: search the moves as given, best first or worst first.

Alpha-beta prunes most when the best move is searched first and nothing when the worst is.
To show that, the game is wrapped so that ``actions`` lists each node's moves sorted by the
minimax value of the position they lead to, from the mover's side (a stable sort: equal values
keep the game's order). The values come from one minimax pre-pass over the same tree (same
root, same horizon); a position reached at several depths takes the value of its first visit.
Everything else (notation, boards, names) is the game's own, so moves keep their names and the
drawing shows the reordered moves under their usual labels.

>>> from games import load_game
>>> game = load_game("textbook", tree=[[3, 12], [2, 4]])
>>> best = ordered(game, (), None, None, "best", 1000)
>>> list(best.actions(())), list(best.actions((0,))), list(best.actions((1,)))
([0, 1], [0, 1], [0, 1])
>>> worst = ordered(game, (), None, None, "worst", 1000)
>>> list(worst.actions(())), list(worst.actions((0,)))
([1, 0], [1, 0])
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from solver.events import Backup, Enter, Event, Leaf
from solver.game import Game, state_key
from solver.minimax import minimax
from viz.choices import ORDERINGS
from viz.errors import TooManyNodesError

__all__ = ["ORDERINGS", "ordered"]


class _Stop(Exception):
    pass


class _Ordered:
    """A game whose ``actions`` are sorted by the pre-pass values; all else is the game's."""

    def __init__(self, game: Game[Any, Any], values: dict[Hashable, float], best: bool) -> None:
        self._game = game
        self._values = values
        self._best = best
        self.name = game.name

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self._game, attribute)

    def actions(self, state: Any) -> Sequence[Any]:
        game = self._game
        moves = list(game.actions(state))
        sign = 1 if game.to_move(state) == 0 else -1  # the mover's side
        if self._best:
            sign = -sign  # largest for MAX first
        values = self._values

        def key(action: Any) -> float:
            return sign * values.get(state_key(game, game.result(state, action)), 0.0)

        return sorted(moves, key=key)


def ordered(
    game: Game[Any, Any],
    state: Any,
    depth: int | None,
    evaluate: Callable[[Any], float] | None,
    how: str,
    limit: int,
) -> Game[Any, Any]:
    """``game`` with its moves searched in order ``how`` (``"best"`` or ``"worst"``).

    Raises:
        TooManyNodesError: the minimax pre-pass passed ``limit`` nodes (it stops there).
    """
    values: dict[Hashable, float] = {}
    keys: dict[int, Hashable] = {}
    entered = 0

    def observe(event: Event) -> None:
        nonlocal entered
        if isinstance(event, Enter):
            entered += 1
            if entered > limit:
                raise _Stop
            keys[event.node] = state_key(game, event.state)
        elif isinstance(event, (Leaf, Backup)):
            values.setdefault(keys[event.node], event.value)

    try:
        minimax(game, state, depth=depth, evaluate=evaluate, observer=observe)
    except _Stop:
        raise TooManyNodesError(
            f"ordering moves {how!r} needs a minimax pass over the tree, which passed "
            f"{limit:,} nodes and was stopped; use a depth limit or ordering='given'",
            nodes=entered,
            max_nodes=limit,
            limit="record_limit",
            shrink=("depth",),
            at_least=True,
        ) from None
    return _Ordered(game, values, how == "best")
