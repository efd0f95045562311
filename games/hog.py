"""Hog, a small dice race: choose how many dice to roll; a 1 on any die scores only 1 point.

Assumes two players, zero-sum, perfect information, with chance (the dice). The rules, after
the dice game Berkeley's CS 61A teaches under this name (its "Pig Out" rule, without its other
special rules):

* The players take turns; player 0 (MAX) rolls first. Both start at 0 points.
* On a turn the player chooses to roll between 1 and ``dice`` dice of ``sides`` sides. If any
  die shows a 1 the turn scores 1 point; otherwise it scores the sum of the dice.
* The first to reach ``goal`` points wins (utility +1 for player 0, -1 for player 1).

Every turn scores at least 1 point, so the game cannot cycle and :func:`solver.solve.solve`
gives every position its exact value: P(player 0 wins) - P(player 1 wins), a ``Fraction``.

A state is ``(score0, score1, mover, rolling)``: ``rolling`` is 0 when ``mover`` is to choose,
else the number of dice they have just chosen (a chance state: the dice decide). At a decision
the actions are ``1 .. dice`` (dice to roll); at a chance state they are the points the roll can
score, in increasing order, with their probabilities.

Notation: a state is ``"12 7 0"`` (scores, then the player to move) or ``"12 7 0 x2"`` (that
player has chosen 2 dice); a move is ``2d`` (roll two dice) or ``+9`` (the roll scores 9).

>>> game = Hog(goal=2, dice=1)
>>> game.actions(game.initial_state())
range(1, 2)
>>> rolled = game.result(game.initial_state(), 1)
>>> game.is_chance(rolled), game.chance_outcomes(rolled)
(True, [(1, Fraction(1, 6)), (2, Fraction(1, 6)), (3, Fraction(1, 6)), (4, Fraction(1, 6)), \
(5, Fraction(1, 6)), (6, Fraction(1, 6))])
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import cache
from typing import TypeAlias

from solver.game import IllegalActionError, InvalidStateError, Player
from solver.quoting import quote

__all__ = ["Hog", "HogState", "roll_points"]

HogState: TypeAlias = tuple[int, int, int, int]
"""``(score0, score1, mover, rolling)``; ``rolling`` 0 at a decision, else the dice chosen."""

_STATE = re.compile(r"\s*([0-9]{1,6})\s+([0-9]{1,6})\s+([01])(?:\s+x([0-9]{1,3}))?\s*", re.ASCII)
_ROLL = re.compile(r"\s*([0-9]{1,3})d\s*", re.ASCII)
_POINTS = re.compile(r"\s*\+([0-9]{1,6})\s*", re.ASCII)


@cache
def roll_points(n: int, sides: int) -> tuple[tuple[int, Fraction], ...]:
    """The points ``n`` dice of ``sides`` sides score with their probabilities, by points.

    A 1 on any die scores 1 point; otherwise the sum. Built by adding one die at a time to the
    distribution of sums of dice showing 2 or more, so it never lists ``sides ** n`` rolls.

    >>> roll_points(1, 6)[0], roll_points(2, 6)[0], roll_points(2, 6)[1]
    ((1, Fraction(1, 6)), (1, Fraction(11, 36)), (4, Fraction(1, 36)))
    """
    face = Fraction(1, sides)
    sums: dict[int, Fraction] = {0: Fraction(1)}  # sums of dice so far, none of them a 1
    for _ in range(n):
        grown: dict[int, Fraction] = {}
        for total, p in sums.items():
            for pips in range(2, sides + 1):
                grown[total + pips] = grown.get(total + pips, Fraction(0)) + p * face
        sums = grown
    pig_out = 1 - sum(sums.values())
    table = dict(sums)
    table[1] = table.get(1, Fraction(0)) + pig_out
    return tuple(sorted(table.items()))


class Hog:
    """Hog: race to ``goal`` points rolling 1..``dice`` dice a turn (see the module notes).

    Args:
        goal: the points that win (2 or more; default 20).
        dice: the most dice a player may roll in a turn (default 3).
        sides: the sides of each die (2 or more; default 6).

    Raises:
        InvalidStateError: an option out of range; the message names it.

    >>> Hog(goal=1)
    Traceback (most recent call last):
    ...
    solver.errors.InvalidStateError: invalid goal 1: use an int from 2 to 10000
    """

    name = "hog"

    def __init__(self, goal: int = 20, dice: int = 3, sides: int = 6) -> None:
        for label, value, lo, hi in (
            ("goal", goal, 2, 10_000),
            ("dice", dice, 1, 10),
            ("sides", sides, 2, 100),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                raise InvalidStateError(
                    f"invalid {label} {quote(value)}: use an int from {lo} to {hi}"
                )
        self.goal, self.dice, self.sides = goal, dice, sides

    # -- the Game protocol ----------------------------------------------------------------------

    def initial_state(self) -> HogState:
        """Both at 0; player 0 to choose."""
        return (0, 0, 0, 0)

    def to_move(self, state: HogState) -> Player:
        """The player whose turn it is (at a chance state, the one rolling)."""
        return state[2]

    def actions(self, state: HogState) -> range | list[int]:
        """Dice to roll (1..dice) at a decision; the points the roll can score at chance."""
        if self.is_terminal(state):
            return []
        if state[3]:
            return [points for points, _ in roll_points(state[3], self.sides)]
        return range(1, self.dice + 1)

    def result(self, state: HogState, action: int) -> HogState:
        """Choose ``action`` dice, or (at chance) score ``action`` points and pass the turn."""
        score0, score1, mover, rolling = state
        if not rolling:
            return (score0, score1, mover, action)
        if mover == 0:
            return (score0 + action, score1, 1, 0)
        return (score0, score1 + action, 0, 0)

    def is_terminal(self, state: HogState) -> bool:
        """A player has reached the goal."""
        return state[0] >= self.goal or state[1] >= self.goal

    def utility(self, state: HogState) -> float:
        """+1 if player 0 reached the goal, -1 if player 1 did.

        Raises:
            InvalidStateError: the game is not over.
        """
        if state[0] >= self.goal:
            return 1
        if state[1] >= self.goal:
            return -1
        raise InvalidStateError(f"no utility at {quote(self.format_state(state))}: not over")

    # -- chance ---------------------------------------------------------------------------------

    def is_chance(self, state: HogState) -> bool:
        """True once the player to move has chosen their dice."""
        return bool(state[3]) and not self.is_terminal(state)

    def chance_outcomes(self, state: HogState) -> list[tuple[int, Fraction]]:
        """Each score the chosen dice can make, with its exact probability."""
        return list(roll_points(state[3], self.sides))

    def evaluate(self, state: HogState) -> float:
        """A heuristic for the search horizon: the lead as a share of the goal, in [-1, 1]."""
        if self.is_terminal(state):
            return self.utility(state)
        return (state[0] - state[1]) / self.goal

    def utility_bounds(self) -> tuple[float, float]:
        """Every utility is -1 or +1."""
        return (-1, 1)

    # -- notation -------------------------------------------------------------------------------

    def format_state(self, state: HogState) -> str:
        """``"12 7 0"``, or ``"12 7 0 x2"`` once player 0 has chosen 2 dice."""
        score0, score1, mover, rolling = state
        return f"{score0} {score1} {mover}" + (f" x{rolling}" if rolling else "")

    def parse_state(self, text: str) -> HogState:
        """Read :meth:`format_state`'s notation.

        Raises:
            InvalidStateError: not that notation, or scores past the goal for both, or a
                number of dice out of range.
        """
        match = _STATE.fullmatch(text)
        if match is None:
            raise InvalidStateError(
                f"invalid position {quote(text)}: use 'SCORE0 SCORE1 MOVER' such as '12 7 0', "
                "or 'SCORE0 SCORE1 MOVER xDICE' such as '12 7 0 x2'"
            )
        score0, score1, mover = (int(match.group(i)) for i in (1, 2, 3))
        rolling = int(match.group(4) or 0)
        if match.group(4) is not None and not 1 <= rolling <= self.dice:
            raise InvalidStateError(
                f"invalid dice {rolling} in {quote(text)}: roll 1 to {self.dice} dice"
            )
        if score0 >= self.goal and score1 >= self.goal:
            raise InvalidStateError(
                f"invalid position {quote(text)}: only one player can reach the goal {self.goal}"
            )
        return (score0, score1, mover, rolling)

    def format_action(self, state: HogState, action: int) -> str:
        """``2d`` (roll two dice) or ``+9`` (the roll scores 9)."""
        return f"+{action}" if state[3] else f"{action}d"

    def parse_action(self, state: HogState, text: str) -> int:
        """Read ``2d`` at a decision, ``+9`` at a chance state (legality is checked elsewhere).

        Raises:
            IllegalActionError: the text is neither form for this state.
        """
        match = (_POINTS if state[3] else _ROLL).fullmatch(text)
        if match is None:
            legal = ", ".join(self.format_action(state, a) for a in self.actions(state))
            raise IllegalActionError(
                f"illegal action {quote(text)} in {quote(self.format_state(state))}; "
                f"legal: {legal or 'none, the game is over'}"
            )
        return int(match.group(1))

    def render(self, state: HogState) -> str:
        """The scores and whose turn it is."""
        score0, score1, mover, rolling = state
        line = f"MAX {score0}, MIN {score1} (goal {self.goal})"
        if self.is_terminal(state):
            return f"{line}\n{'MAX' if score0 >= self.goal else 'MIN'} has won"
        who = ("MAX", "MIN")[mover]
        if rolling:
            return f"{line}\n{who} rolls {rolling} {'die' if rolling == 1 else 'dice'}"
        return f"{line}\n{who} to choose 1 to {self.dice} dice"

    def __repr__(self) -> str:
        return f"Hog(goal={self.goal}, dice={self.dice}, sides={self.sides})"
