"""An Ayòayò sowing step by step (``solver.game.HasMoveSteps``), for the board's animation
and ``play``'s account of a move.

The rules (:mod:`games.ayoayo.rules`) sow in one fast loop that keeps no history. The board
needs each step: every pick-up (the first and each relay lap), every seed dropped, every four
captured and whose store it went to, and the end sweep. :func:`sowing_steps` replays a move
and checks that its steps lead to the very position the rules give, so the animation can never
show a different game from the one played.

Pits are named as the rest of the project names them: ``(row, cell)``, row 0 being player 0's,
cells 0..5 as in the move notation.
"""

from __future__ import annotations

from typing import Final

from games.ayoayo.rules import AyoayoRules, AyoayoState
from solver.game import InvalidStateError, MoveStep, apply

__all__ = ["sowing_steps"]

MAX_STEPS: Final = 20_000
"""More steps than any sowing that ends takes (seeds times laps); a bound on the loop."""


def _pit(flat: int) -> tuple[int, int]:
    """``(row, cell)`` of a pit numbered in sowing order (the rules' internal numbering)."""
    return (0, 5 - flat) if flat < 6 else (1, flat - 6)


def sowing_steps(game: AyoayoRules, state: AyoayoState, cell: int) -> list[MoveStep]:
    """The steps of the mover sowing ``cell`` in ``state``, checked against the rules.

    Raises:
        IllegalActionError: ``cell`` is not a legal move (the message names the legal ones).
        InvalidStateError: the steps do not lead to the rules' position (a bug, never shown).

    >>> game = AyoayoRules()
    >>> steps = sowing_steps(game, game.initial_state(), 2)
    >>> [(s.kind, s.cell) for s in steps[:3]]
    [('pick', (0, 2)), ('drop', (0, 1)), ('drop', (0, 0))]
    """
    after = apply(game, state, cell)
    mover = state.to_move
    pits = list(state[:12])
    stores = [state[12], state[13]]
    steps: list[MoveStep] = []
    pos = 5 - cell if mover == 0 else 6 + cell
    hand = pits[pos]
    while len(steps) < MAX_STEPS:
        pits[pos] = 0
        steps.append(MoveStep("pick", _pit(pos), hand))
        for left in range(hand - 1, -1, -1):
            pos = (pos + 1) % 12
            pits[pos] += 1
            steps.append(MoveStep("drop", _pit(pos), pits[pos]))
            if pits[pos] == 4:
                owner = 0 if pos < 6 else 1
                by = mover if left == 0 else owner  # the last seed's four is the mover's
                pits[pos] = 0
                stores[by] += 4
                steps.append(MoveStep("capture", _pit(pos), 4, by))
        hand = pits[pos]
        if hand < 2:  # the last seed made a four, or fell into an empty pit
            break
    for flat in range(12):
        if pits[flat] and not after[flat]:  # the end sweep: the row's owner takes it
            owner = 0 if flat < 6 else 1
            stores[owner] += pits[flat]
            steps.append(MoveStep("sweep", _pit(flat), pits[flat], owner))
            pits[flat] = 0
    if tuple(pits) != tuple(after[:12]) or tuple(stores) != tuple(after[12:14]):
        raise InvalidStateError(
            f"the traced sowing of cell {cell} in {game.format_state(state)} ends in "
            f"{pits} captured {stores}, not in the rules' {game.format_state(after)}"
        )
    return steps
