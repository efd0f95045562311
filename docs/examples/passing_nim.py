"""Passing Nim: a tiny game that cycles, and what makes gamesolver able to solve it.

Two players take turns taking one or two counters from a pile, or passing; whoever takes the
last counter wins. Passing hands the same pile back, so positions repeat: the game *cycles*,
and backward induction alone has no end. The game declares what a play that goes on for ever
scores (``endless_value``, here ``endless``: 0 by default, nobody wins), and ``solve`` then
solves it exactly.

A state is ``(pile, player to move)``; notation ``"4 MAX"``; actions ``"take1"``, ``"take2"``,
``"pass"``. By hand, for the player to move: an empty pile is lost; 1 or 2 counters are won at
once; from 3 counters on, every take hands the opponent a pile of 1 or 2 or another pile of 3 or
more, so neither player can force a win, and with ``endless`` 0 it is a draw by passing for ever.

>>> from solver.solve import solve
>>> solution = solve(PassingNim(4))
>>> solution.value((2, 0)), solution.plies((2, 0)), solution.best_actions((2, 0))
(1, 1, ('take2',))
>>> solution.value((4, 0)), solution.endless((4, 0)), solution.best_actions((4, 0))
(0, True, ('take1', 'pass'))
"""

from __future__ import annotations

from typing import TypeAlias

from solver.game import IllegalActionError, InvalidStateError, Player

State: TypeAlias = tuple[int, Player]
"""(counters left in the pile, player to move)."""

_SIDES = ("MAX", "MIN")
_TAKEN = {"take1": 1, "take2": 2, "pass": 0}


class PassingNim:
    """Take one or two counters, or pass; who takes the last counter wins (+1 for MAX).

    Args:
        pile: the counters at the start.
        endless: the score (MAX's view) of a play that passes for ever.
    """

    name = "passing-nim"

    def __init__(self, pile: int = 4, endless: float = 0) -> None:
        if isinstance(pile, bool) or not isinstance(pile, int) or pile < 0:
            raise InvalidStateError(f"invalid pile {pile!r}: use a whole number >= 0")
        self.pile = pile
        self.endless = endless

    def initial_state(self) -> State:
        return (self.pile, 0)

    def to_move(self, state: State) -> Player:
        return state[1]

    def actions(self, state: State) -> list[str]:
        if state[0] == 0:
            return []
        return [*("take1", "take2")[: min(2, state[0])], "pass"]

    def result(self, state: State, action: str) -> State:
        return (state[0] - _TAKEN[action], 1 - state[1])

    def is_terminal(self, state: State) -> bool:
        return state[0] == 0

    def utility(self, state: State) -> float:
        return 1 if state[1] == 1 else -1  # the player who just moved took the last counter

    def endless_value(self, state: State) -> float:
        """What a play passing for ever scores: the same for every state, so constant on cycles."""
        return self.endless

    def format_state(self, state: State) -> str:
        return f"{state[0]} {_SIDES[state[1]]}"

    def parse_state(self, text: str) -> State:
        pile, _, side = text.strip().partition(" ")
        if not pile.isdigit() or side not in _SIDES:
            raise InvalidStateError(f"invalid state {text!r}: write the pile then MAX or MIN")
        return (int(pile), _SIDES.index(side))

    def parse_action(self, state: State, text: str) -> str:
        if text.strip() not in _TAKEN:
            raise IllegalActionError(f"invalid action {text!r}: use take1, take2 or pass")
        return text.strip()

    def format_action(self, state: State, action: str) -> str:
        return action
