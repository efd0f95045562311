"""How a game stopped before a terminal state ends and is scored: the repetition rule.

Assumes two players, zero-sum, deterministic, perfect information; knows no game. Shared by the
searches that play games out (:mod:`solver.mcts`'s playouts) and by :mod:`play` (matches,
``gamesolver play``, the board), so a playout, a match and the board end a game alike.

A game ends at a terminal state (``"terminal"``, scored by ``utility``); when a full position
repeats (``"repetition"``: the state's :func:`~solver.game.state_key`, which for a board game
holds the board, anything captured and the side to move, equals that of an earlier position of
the same game); or after a ply limit (``"ply-limit"``). A game that ends by repetition is scored
by the game's ``endless_value`` when it has one, the score :func:`solver.solve.solve` gives play
that cycles for ever, so a played-out repetition and a solved value agree; otherwise, and at the
ply limit, by the game's ``evaluate`` when it has one (its sign decides the winner; for Ayòayò
both are the captured-seeds difference), and it is a draw otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, TypeAlias

from solver.game import Game, HasEndlessValue, HasEvaluate, state_key

__all__ = ["Ending", "SeenPositions", "repetition_at", "unfinished_score"]

Ending: TypeAlias = Literal["terminal", "repetition", "ply-limit"]
AnyGame: TypeAlias = Game[Any, Any]


def unfinished_score(game: AnyGame, state: Any, ended: Ending) -> float:
    """The score of a game (or playout) stopped before a terminal state, player 0's view.

    At a repetition, the game's ``endless_value`` when it has one; otherwise, and at a ply
    limit, its ``evaluate`` when it has one; else 0 (a draw).
    """
    if ended == "repetition" and isinstance(game, HasEndlessValue):
        return game.endless_value(state)  # the score solve gives endless play
    return game.evaluate(state) if isinstance(game, HasEvaluate) else 0


class SeenPositions:
    """The repetition rule's memory: the full positions (:func:`state_key`) of one game so far.

    ``repeats(state)`` is True when the position came before in this game, and remembers it
    otherwise: a game ends at the first position for which it is True (see the module
    docstring). :func:`play.play_game` and :func:`repetition_at` both ask it, so a match, ``play``
    and the board end a game at the same ply.
    """

    def __init__(self, game: AnyGame, earlier: Sequence[Any] = ()) -> None:
        self.game = game
        self.keys = {state_key(game, state) for state in earlier}

    def repeats(self, state: Any) -> bool:
        key = state_key(self.game, state)
        if key in self.keys:
            return True
        self.keys.add(key)
        return False


def repetition_at(game: AnyGame, states: Sequence[Any]) -> int | None:
    """The index in ``states`` (a game's positions in order, its start first) of the first
    position the repetition rule ends the game at, or None.

    >>> from games import load_game
    >>> game = load_game("ayoayo")
    >>> start = game.initial_state()
    >>> repetition_at(game, [start, game.result(start, 2)]) is None
    True
    >>> repetition_at(game, [start, game.result(start, 2), start])
    2
    """
    seen = SeenPositions(game)
    for index, state in enumerate(states):
        if seen.repeats(state):
            return index
    return None
