"""The subtraction game (a one-pile Nim, "21"): a complete gamesolver game in one small file.

Two players take turns removing 1, 2 or 3 counters from a pile of 21; whoever takes the last
counter wins. Assumes what every gamesolver game assumes: two players, zero-sum, deterministic,
perfect information; player 0 (MAX) moves first; values are from player 0's point of view.

A state is a tuple ``(pile, player to move)``: immutable and hashable, as the protocol requires.
Text notation: ``"21 MAX"`` (the pile, then who moves); an action is the number taken, ``"3"``.

>>> game = SubtractionGame(pile=5)
>>> state = game.initial_state()
>>> game.to_move(state), list(game.actions(state))
(0, [1, 2, 3])
>>> game.result(state, 1)
(4, 1)
>>> game.utility((0, 1))
1
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias

from solver.game import IllegalActionError, InvalidStateError, Player

State: TypeAlias = tuple[int, Player]
"""(counters left in the pile, player to move)."""

_SIDES = ("MAX", "MIN")


class SubtractionGame:
    """Take 1..3 counters (or any allowed amounts) from one pile; taking the last one wins.

    Args:
        pile: counters at the start (default 21).
        moves: the amounts a player may take (default 1, 2, 3).

    Raises:
        InvalidStateError: a negative pile, or amounts that are not positive whole numbers.
    """

    name = "subtraction"

    def __init__(self, pile: int = 21, moves: Sequence[int] = (1, 2, 3)) -> None:
        if isinstance(pile, bool) or not isinstance(pile, int) or pile < 0:
            raise InvalidStateError(f"invalid pile {pile!r}: use a whole number >= 0")
        if not moves or any(isinstance(m, bool) or not isinstance(m, int) or m < 1 for m in moves):
            raise InvalidStateError(f"invalid moves {moves!r}: use whole numbers >= 1")
        self.pile = pile
        self.moves = tuple(sorted(set(moves)))

    # -- the six methods of the Game protocol ---------------------------------------------------

    def initial_state(self) -> State:
        return (self.pile, 0)

    def to_move(self, state: State) -> Player:
        return state[1]

    def actions(self, state: State) -> list[int]:
        """The amounts that fit in the pile, smallest first (a fixed order)."""
        return [m for m in self.moves if m <= state[0]]

    def result(self, state: State, action: int) -> State:
        """A new state; never mutates and does not check legality (solver.game.apply does)."""
        pile, player = state
        return (pile - action, 1 - player)

    def is_terminal(self, state: State) -> bool:
        """Over when no allowed amount fits (with 1 allowed: when the pile is empty)."""
        return not self.actions(state)

    def utility(self, state: State) -> float:
        """The player to move cannot move, so the other one made the last move and won."""
        return -1 if state[1] == 0 else 1

    # -- optional capabilities: text notation and a picture -------------------------------------

    def format_state(self, state: State) -> str:
        return f"{state[0]} {_SIDES[state[1]]}"

    def parse_state(self, text: str) -> State:
        """Read ``"<pile> MAX"`` or ``"<pile> MIN"``."""
        parts = text.split()
        if len(parts) != 2 or not parts[0].isdigit() or parts[1].upper() not in _SIDES:
            raise InvalidStateError(
                f"invalid position {text!r}: use the pile and who moves, e.g. '21 MAX'"
            )
        return (int(parts[0]), _SIDES.index(parts[1].upper()))

    def format_action(self, state: State, action: int) -> str:
        return str(action)

    def parse_action(self, state: State, text: str) -> int:
        if not text.strip().isdigit():
            raise IllegalActionError(f"illegal move {text!r}: write how many counters to take")
        return int(text)

    def render(self, state: State) -> str:
        pile, player = state
        return f"{'|' * pile or '(empty)'}  {pile} left, {_SIDES[player]} to move"
