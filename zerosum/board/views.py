"""A position as the board page draws it, built from the game's capabilities.

A game with pits and a score (:class:`~solver.game.HasPits`, :class:`~solver.game.HasScore`:
Ayòayò) is drawn as a mancala board: its ``view`` is ``"pits"`` and a move is the pit the game
names. Any other game with a :class:`~solver.game.BoardCells` grid (tic-tac-toe, Connect Four)
is drawn as that grid, a move being the cell it changes; a game with neither is listed move by
move (``"moves"``), with its text picture when it has one. A move the game shows step by step
(:class:`~solver.game.HasMoveSteps`) comes with its steps. Nothing here is written for one game
beyond what its capabilities say.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from solver.endings import Ending, SeenPositions, unfinished_score
from solver.game import (
    HasBoardCells,
    HasCellEditing,
    HasMoveSteps,
    HasPits,
    HasRender,
    HasScore,
    format_action,
    format_state,
    parse_action,
    player_label,
)
from solver.quoting import quote
from zerosum.console import UsageError
from zerosum.report import json_num, outcome, repetition_said

__all__ = ["describe", "play_move"]


def _view(game: Any) -> str:
    if isinstance(game, HasPits) and isinstance(game, HasScore):
        return "pits"
    return "grid" if isinstance(game, HasBoardCells) else "moves"


def _move_cells(game: Any, state: Any, view: str, actions: Any) -> list[list[int] | None]:
    """Where each legal move is played on the drawn board: ``[row, column]`` or None."""
    if view == "pits":
        return [list(game.pit_of(state, action)) for action in actions]
    if view != "grid":
        return [None for _ in actions]
    before = game.board_cells(state).rows
    found: list[list[int] | None] = []
    for action in actions:
        after = game.board_cells(game.result(state, action)).rows
        changed = [
            [r, c]
            for r, row in enumerate(before)
            for c, text in enumerate(row)
            if after[r][c] != text
        ]
        found.append(changed[0] if len(changed) == 1 else None)
    return found


def describe(game: Any, state: Any, repeated: bool = False) -> dict[str, Any]:
    """Everything the page draws for ``state``: board, legal moves, side to move, scores.

    ``repeated``: the position came before in its game, which the repetition rule ends there
    (scored as :func:`play.play_game` scores it, so the board and ``play`` agree); the
    view is then over, with ``ended`` ``"repetition"`` (``"end"`` at a terminal position).

    >>> from games import load_game
    >>> view = describe(load_game("tictactoe"), load_game("tictactoe").initial_state())
    >>> view["view"], view["moves"][4]
    ('grid', {'move': '4', 'cell': [1, 1]})
    """
    terminal = game.is_terminal(state)
    over = terminal or repeated
    actions = () if over else tuple(game.actions(state))
    view = _view(game)
    out: dict[str, Any] = {
        "game": game.name,
        "position": format_state(game, state),
        "view": view,
        "players": [player_label(game, p) for p in (0, 1)],
        "to_move": None if over else game.to_move(state),
        "over": over,
        "moves": [
            {"move": format_action(game, state, action), "cell": cell}
            for action, cell in zip(actions, _move_cells(game, state, view, actions), strict=True)
        ],
    }
    if over:
        ended: Ending = "terminal" if terminal else "repetition"
        value = game.utility(state) if terminal else unfinished_score(game, state, ended)
        out["value"] = json_num(value)
        out["outcome"] = outcome(game, value) + ("" if terminal else f" ({repetition_said(game)})")
        out["ended"] = "end" if terminal else "repetition"
    if isinstance(game, HasScore):
        out["score"] = list(game.score(state))
    if view == "pits":
        out["rows"] = [list(row) for row in game.pits(state)]
        left = sum(out["rows"][0]) + sum(out["rows"][1])
        if over and left:
            seeds = f"{left} seed{'s' if left > 1 else ''}"
            out["note"] = f"the {seeds} left on the board count for nobody"
    elif view == "grid":
        cells = game.board_cells(state)
        out["rows"] = [list(row) for row in cells.rows]
        if isinstance(game, HasCellEditing):
            out["marks"] = list(game.cell_marks)
    elif isinstance(game, HasRender):
        out["text"] = game.render(state)
    return out


def play_move(game: Any, state: Any, move: Any, earlier: Sequence[Any] = ()) -> dict[str, Any]:
    """The move ``move`` (in the game's notation) played in ``state``: the new position's
    description, the move as written, and its steps when the game shows a move step by step
    (:class:`~solver.game.HasMoveSteps`: Ayòayò's sowing).

    ``earlier``: the positions of the game before ``state``; a move back to one of them (or to
    ``state``) ends the game by the repetition rule (see :func:`describe`).

    Raises:
        UsageError: ``move`` is not text.
        IllegalActionError: it is not a legal move (the message lists the legal ones).
    """
    if not isinstance(move, str):
        raise UsageError(f"invalid move {quote(move)}: expected the move as text, e.g. '3'")
    action = parse_action(game, state, move)
    after = game.result(state, action)
    played: dict[str, Any] = {
        "move": format_action(game, state, action),
        "mover": game.to_move(state),
        "position": describe(game, after, SeenPositions(game, [*earlier, state]).repeats(after)),
    }
    if isinstance(game, HasMoveSteps):
        played["steps"] = [step.to_json() for step in game.move_steps(state, action)]
    return played
