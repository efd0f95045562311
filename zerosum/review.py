"""A game review: every move of a record valued against the best move in its position.

Each position before a move is analysed as ``analyse`` does (every legal move valued, the
tablebase used where it reaches); the played move's value is compared with the best one, from
the mover's side. The difference is what the move *lost*, and it is marked in the game's own
terms:

* ``??`` the move changes the result: both values are proved (not horizon evaluations) and the
  best move's outcome (win, draw, loss) is better for the mover than the played one's;
* ``?`` it loses the game's mistake size or more (Ayòayò: 8 seeds, two captures);
* ``?!`` it loses the game's inaccuracy size or more (Ayòayò: 4 seeds, one capture).

The sizes come from the game (:class:`solver.game.HasMistakeSizes`); a game without them (its
values only say who wins, or its evaluation is no margin, as Connect Four's) has only ``??``,
so a horizon evaluation that changes sign is no mistake.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import attrs

from solver.game import (
    EndgameTablebase,
    MistakeSizes,
    format_action,
    mistake_sizes,
    parse_action,
    player_label,
)
from solver.results import SearchResult
from zerosum.analysis import analysis_search
from zerosum.records import GameRecord, line_result
from zerosum.report import json_num, num

__all__ = [
    "DEFAULT_REVIEW_DEPTH",
    "MoveReview",
    "mark",
    "marks",
    "review_json",
    "review_record",
]

DEFAULT_REVIEW_DEPTH: Final = 12
"""How deep each position of a review is searched without --depth or --time."""


def marks(sizes: MistakeSizes | None) -> dict[str, str]:
    """The marks a review of a game with these mistake sizes can give, and what each means.

    >>> marks(MistakeSizes("seeds", 4, 8))
    {'??': 'changes the result', '?': 'loses 8 seeds or more', '?!': 'loses 4 seeds or more'}
    >>> marks(None)
    {'??': 'changes the result'}
    """
    said = {"??": "changes the result"}
    if sizes is not None:
        said["?"] = f"loses {num(sizes.mistake)} {sizes.unit} or more"
        said["?!"] = f"loses {num(sizes.inaccuracy)} {sizes.unit} or more"
    return said


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


def mark(
    mover: int,
    best: float,
    played: float,
    sizes: MistakeSizes | None = None,
    *,
    exact: bool = True,
) -> str:
    """The mark of a move valued ``played`` where the best was ``best`` (player 0's view).

    ``exact``: both values are proved; otherwise they are horizon evaluations, whose change of
    sign is no change of result. ``sizes``: the game's mistake sizes (None: it has none).

    >>> seeds = MistakeSizes("seeds", 4, 8)
    >>> mark(0, 4, -4), mark(1, -4, 4), mark(0, 12, 4, seeds), mark(1, -8, -4, seeds)
    ('??', '??', '?', '?!')
    >>> mark(0, 0.2, -0.1, exact=False), mark(0, 4, -4, seeds, exact=False)
    ('', '?')
    """
    side = 1 if mover == 0 else -1
    if exact and _sign(side * best) > _sign(side * played):
        return "??"
    if sizes is None:
        return ""
    loss = side * (best - played)
    if loss >= sizes.mistake:
        return "?"
    return "?!" if loss >= sizes.inaccuracy else ""


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
    exact: bool  # both values (played and best) are proved, not horizon evaluations
    depth: int | None
    comment: str = ""
    annotation: str = ""  # the annotator's mark in the record (!, ?, !?, ...), not the review's


def _played_value(
    game: Any, state: Any, action: Any, result: SearchResult, search: Callable[..., SearchResult]
) -> tuple[float, bool]:
    """The value of ``action`` and whether it is proved: from ``result``, else from a search
    of the position it leads to."""
    if action in result.action_values:
        proved = result.exact and action not in result.horizon_actions
        return float(result.action_values[action]), proved
    child = game.result(state, action)
    if game.is_terminal(child):
        return float(game.utility(child)), True
    depth = None if result.depth is None else max(1, result.depth - 1)
    answer = search(child, depth)
    return float(answer.value), answer.exact


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
    sizes = mistake_sizes(game)
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
        played, played_exact = _played_value(game, state, action, result, search)
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
                mark=mark(mover, best, played, sizes, exact=result.exact and played_exact),
                exact=result.exact and played_exact,
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
    said = marks(mistake_sizes(game))
    summary = []
    for player in (0, 1):
        mine = [r for r in reviews if r.player == player]
        counts = {symbol: sum(r.mark == symbol for r in mine) for symbol in said}
        summary.append(
            {"player": player, "name": player_label(game, player), "moves": len(mine), **counts}
        )
    return {
        "game": game.name,
        "start": record.start,
        "marks": said,
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
