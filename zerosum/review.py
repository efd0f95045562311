"""A game review: every move of a record valued against the best move in its position.

Each position before a move is analysed as ``analyse`` does (every legal move valued, the
tablebase used where it reaches); the played move's value is compared with the best one, from
the mover's side. The difference is what the move *lost*, and it is marked (values are seeds
in Ayòayò, so the marks are defined in seeds; in a game scored only by win, draw and loss just
the first mark can apply):

* ``??`` the move changes the result: the best move's outcome (win, draw, loss, or who is ahead
  at the horizon) is better for the mover than the played one's;
* ``?`` it loses :data:`MISTAKE` (8) seeds or more: two captures;
* ``?!`` it loses :data:`INACCURACY` (4) seeds or more: one capture.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import attrs

from solver.game import EndgameTablebase, format_action, parse_action, player_label
from solver.results import SearchResult
from zerosum.analysis import analysis_search
from zerosum.records import GameRecord, line_result
from zerosum.report import json_num

__all__ = [
    "DEFAULT_REVIEW_DEPTH",
    "INACCURACY",
    "MARKS",
    "MISTAKE",
    "MoveReview",
    "mark",
    "review_json",
    "review_record",
]

DEFAULT_REVIEW_DEPTH: Final = 12
"""How deep each position of a review is searched without --depth or --time."""

MISTAKE: Final = 8
"""A move losing this much or more (8 seeds: two captures) is marked ``?``."""

INACCURACY: Final = 4
"""A move losing this much or more (4 seeds: one capture) is marked ``?!``."""

MARKS: Final = {
    "??": "changes the result",
    "?": f"loses {MISTAKE} or more",
    "?!": f"loses {INACCURACY} or more",
}
"""The marks of a review and what each means."""


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


def mark(mover: int, best: float, played: float) -> str:
    """The mark of a move valued ``played`` where the best was ``best`` (player 0's view).

    >>> mark(0, 4, 4), mark(0, 4, -4), mark(1, -4, 4), mark(0, 12, 4), mark(1, -8, -4)
    ('', '??', '??', '?', '?!')
    """
    side = 1 if mover == 0 else -1
    if _sign(side * best) > _sign(side * played):
        return "??"
    loss = side * (best - played)
    if loss >= MISTAKE:
        return "?"
    return "?!" if loss >= INACCURACY else ""


@attrs.frozen
class MoveReview:
    """One move of a reviewed game (values from player 0's view, as everywhere)."""

    ply: int
    player: int
    move: str
    value: float
    best_move: str
    best_value: float
    loss: float
    mark: str
    exact: bool
    depth: int | None
    comment: str = ""
    annotation: str = ""  # the annotator's mark in the record (!, ?, !?, ...), not the review's


def _played_value(
    game: Any, state: Any, action: Any, result: SearchResult, search: Callable[..., SearchResult]
) -> float:
    """The value of ``action`` from ``result``, else from a search of the position it leads to."""
    if action in result.action_values:
        return float(result.action_values[action])
    child = game.result(state, action)
    if game.is_terminal(child):
        return float(game.utility(child))
    depth = None if result.depth is None else max(1, result.depth - 1)
    return float(search(child, depth).value)


def review_record(
    record: GameRecord,
    *,
    depth: int | None = None,
    time_limit: float | None = None,
    tablebase: EndgameTablebase | None = None,
    node_limit: int | None = None,
) -> tuple[Any, list[MoveReview]]:
    """``(game, reviews)``: each move of ``record`` valued against the best (see the module).

    Without ``depth`` or ``time_limit`` each position is searched to
    :data:`DEFAULT_REVIEW_DEPTH`; ``node_limit`` bounds each position's search too. Raises
    :class:`~zerosum.records.RecordError` for an illegal move.
    """
    game, states = record.positions()
    if depth is None and time_limit is None:
        depth = DEFAULT_REVIEW_DEPTH

    def search(state: Any, at_depth: int | None) -> SearchResult:
        return analysis_search(
            game,
            state,
            depth=at_depth,
            time_limit=time_limit,
            tablebase=tablebase,
            node_limit=node_limit,
        )

    reviews = []
    for index, move in enumerate(record.moves):
        state = states[index]
        action = parse_action(game, state, move)
        result = search(state, depth)
        played = _played_value(game, state, action, result, search)
        mover = game.to_move(state)
        side = 1 if mover == 0 else -1
        best = float(result.value)
        best_move = (
            "-" if result.best_action is None else format_action(game, state, result.best_action)
        )
        reviews.append(
            MoveReview(
                ply=index + 1,
                player=mover,
                move=format_action(game, state, action),
                value=played,
                best_move=best_move,
                best_value=best,
                loss=max(0.0, side * (best - played)),
                mark=mark(mover, best, played),
                exact=result.exact,
                depth=result.depth,
                comment=record.comments.get(index, ""),
                annotation=record.annotations.get(index, ""),
            )
        )
    return game, reviews


def review_json(game: Any, record: GameRecord, reviews: list[MoveReview]) -> dict[str, Any]:
    """The review as JSON-ready data: the moves, and each player's marks counted."""
    states = record.positions()[1]
    result = line_result(game, states)
    summary = []
    for player in (0, 1):
        mine = [r for r in reviews if r.player == player]
        counts = {symbol: sum(r.mark == symbol for r in mine) for symbol in MARKS}
        summary.append(
            {"player": player, "name": player_label(game, player), "moves": len(mine), **counts}
        )
    return {
        "game": game.name,
        "start": record.start,
        "marks": MARKS,
        "moves": [
            {
                "ply": r.ply,
                "player": r.player,
                "move": r.move,
                "value": json_num(r.value),
                "best_move": r.best_move,
                "best_value": json_num(r.best_value),
                "loss": json_num(r.loss),
                "mark": r.mark,
                "exact": r.exact,
                "depth": r.depth,
                "comment": r.comment,
                "annotation": r.annotation,
            }
            for r in reviews
        ],
        "summary": summary,
        "over": result is not None,
        "result": result,
    }
