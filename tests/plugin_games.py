"""Games written as a third party would write them, for the front ends' tests: they name no
module of the project's games, and the front ends must draw and play them by their
capabilities alone.

:class:`TwoRows` keeps a score and draws two rows of six cells, as Ayòayò does, yet is not a
mancala game (it has no pits, no sowing): a front end that took every such game for Ayòayò
would crash on it. :func:`install` registers these games as an installed distribution would
(a ``*.dist-info`` folder with an entry point), so that a board started as a process of its
own finds them too.
"""

from __future__ import annotations

import os
from pathlib import Path

from games.ayoayo import Ayoayo
from solver.game import BoardCells, InvalidStateError

ROW: int = 6
MARKS_EACH: int = 2

State = tuple[tuple[int, ...], tuple[int, ...], int, int, int]
"""``(row 0, row 1, points of player 0, points of player 1, player to move)``; a cell is 1
once its row's player has marked it."""


class TwoRows:
    """Each player marks two cells of their own row of six; a cell scores its number plus one.

    The higher score wins by the difference. A state is :data:`State`; a move is a cell
    number, ``"0"`` to ``"5"``.
    """

    name = "tworows"
    player_names = ("North", "South")

    def initial_state(self) -> State:
        return ((0,) * ROW, (0,) * ROW, 0, 0, 0)

    def to_move(self, state: State) -> int:
        return state[4]

    def actions(self, state: State) -> list[int]:
        if self.is_terminal(state):
            return []
        row = state[state[4]]
        return [cell for cell in range(ROW) if not row[cell]]

    def result(self, state: State, action: int) -> State:
        mover = state[4]
        rows = [list(state[0]), list(state[1])]
        rows[mover][action] = 1
        points = [state[2], state[3]]
        points[mover] += action + 1
        return (tuple(rows[0]), tuple(rows[1]), points[0], points[1], 1 - mover)

    def is_terminal(self, state: State) -> bool:
        return sum(state[0]) + sum(state[1]) == 2 * MARKS_EACH

    def utility(self, state: State) -> float:
        return float(state[2] - state[3])

    def score(self, state: State) -> tuple[int, int]:
        return state[2], state[3]

    def board_cells(self, state: State) -> BoardCells:
        return BoardCells(
            rows=tuple(tuple("x" if mark else "" for mark in row) for row in state[:2]),
            labels=self.player_names,
            header=tuple(str(c) for c in range(ROW)),
        )

    def format_state(self, state: State) -> str:
        rows = ["".join(str(mark) for mark in row) for row in state[:2]]
        return f"{rows[0]}/{rows[1]}/{state[2]}/{state[3]}/{state[4]}"

    def parse_state(self, text: str) -> State:
        parts = text.strip().split("/")
        if (
            len(parts) != 5
            or any(len(row) != ROW or set(row) - {"0", "1"} for row in parts[:2])
            or not all(p.isdigit() for p in parts[2:])
            or parts[4] not in ("0", "1")
        ):
            raise InvalidStateError(
                f"invalid tworows position {text!r}; expected e.g. 100000/000000/1/0/1"
            )
        rows = tuple(tuple(int(c) for c in row) for row in parts[:2])
        return (rows[0], rows[1], int(parts[2]), int(parts[3]), int(parts[4]))


def install(folder: Path, broken: bool = False) -> str:
    """Register :class:`TwoRows` as an installed distribution in ``folder`` would (a
    ``.dist-info`` with its entry point), and the ``PYTHONPATH`` that finds it and this
    module. ``broken``: two broken plug-ins beside it, one whose module fails on import and
    :class:`Refusing`, whose constructor raises."""
    info = folder / "tworows_plugin-1.0.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tworows-plugin\nVersion: 1.0\n")
    points = "[gamesolver.games]\ntworows = tests.plugin_games:TwoRows\n"
    if broken:
        points += "refusing = tests.plugin_games:Refusing\nghost = no_such_module_here:Ghost\n"
    (info / "entry_points.txt").write_text(points)
    root = Path(__file__).resolve().parents[1]
    return os.pathsep.join([str(root), str(folder)])


class Banks:
    """A game of pits with rows of four (not Ayòayò's six): a move banks all the seeds of one
    of your pits. Each row starts 1, 2, 3, 4; the game ends when the player to move has no
    seeds left, the higher bank winning by the difference. A state is ``(row 0, row 1,
    bank 0, bank 1, player to move)``; a move is a cell number, ``"0"`` to ``"3"``."""

    name = "banks"

    def initial_state(self) -> State:
        return ((1, 2, 3, 4), (1, 2, 3, 4), 0, 0, 0)

    def to_move(self, state: State) -> int:
        return state[4]

    def actions(self, state: State) -> list[int]:
        return [cell for cell, seeds in enumerate(state[state[4]]) if seeds]

    def result(self, state: State, action: int) -> State:
        mover = state[4]
        rows, banks = [list(state[0]), list(state[1])], [state[2], state[3]]
        banks[mover] += rows[mover][action]
        rows[mover][action] = 0
        return (tuple(rows[0]), tuple(rows[1]), banks[0], banks[1], 1 - mover)

    def is_terminal(self, state: State) -> bool:
        return not any(state[state[4]])

    def utility(self, state: State) -> float:
        return float(state[2] - state[3])

    def score(self, state: State) -> tuple[int, int]:
        return state[2], state[3]

    def pits(self, state: State) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return state[0], state[1]

    def pit_of(self, state: State, action: int) -> tuple[int, int]:
        return state[4], action


class SizedBanks(Banks):
    """Banks with a starting number of seeds a pit that must be given."""

    def __init__(self, seeds: int, *, rows: int = 2) -> None:
        self.seeds, self.rows = seeds, rows


class Mancala(Ayoayo):
    """A plug-in that sells Ayòayò under another name: the tablebase command must serve it by
    its capabilities (``HasTablebase``, ``HasTablebaseBuilds``), not by the name ``ayoayo``."""

    name = "mancala"


class Refusing(TwoRows):
    """A plug-in whose constructor fails, as a game missing a data file of its own would."""

    def __init__(self) -> None:
        raise RuntimeError("the refusing game's data file is missing")
