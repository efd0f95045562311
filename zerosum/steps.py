"""A move shown step by step (``solver.game.HasMoveSteps``), told in a line for ``play``.

The steps come from the game (Ayòayò's sowing); the board animates them on the page and
``play`` says what they did: the laps, the fours captured and whose they became, the
end sweep. Pits are named ``(row, cell)`` as :class:`solver.game.HasPits` names them.
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.game import MoveStep

__all__ = ["sowing_said"]


def sowing_said(
    steps: Sequence[MoveStep], names: tuple[str, str] | list[str], first_cell: int = 0
) -> str:
    """What a sowing did, in a line: its laps, the fours and whose they became, the sweep.

    Cells are numbered from ``first_cell`` (0 as in the notation, 1 as ``play --cells 1-6``).

    >>> from games import load_game
    >>> game = load_game("ayoayo")
    >>> sowing_said(game.move_steps(game.initial_state(), 2), game.player_names)
    'cell 2: 5 laps'
    """
    laps = sum(step.kind == "pick" for step in steps)
    parts = [f"cell {steps[0].cell[1] + first_cell}: {laps} lap{'' if laps == 1 else 's'}"]
    fours = [
        f"four in {names[s.cell[0]]}'s cell {s.cell[1] + first_cell} -> {names[s.by or 0]}"
        for s in steps
        if s.kind == "capture"
    ]
    if fours:
        parts.append("; ".join(fours))
    swept = [s for s in steps if s.kind == "sweep"]
    if swept:
        owner = names[swept[0].by or 0]
        parts.append(f"the game ends: {owner} takes the {sum(s.count for s in swept)} left")
    return " · ".join(parts)
