"""How answers read: values, outcomes in words, board pictures and principal variations.

Values are from player 0's (MAX's) point of view, as everywhere in the project.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any

from play.results import MatchResult
from solver.game import (
    HasEndlessValue,
    HasRender,
    HasStateNotation,
    format_action,
    format_state,
    player_label,
)
from solver.results import LineEnd, format_value

__all__ = [
    "board_lines",
    "evaluation",
    "isnan",
    "json_num",
    "jsonable",
    "line_end_json",
    "match_table",
    "num",
    "outcome",
    "pv_moves",
    "pv_notation",
    "pv_text",
    "value_text",
]


def num(value: float | None) -> str:
    """A value as people write it (:func:`~solver.results.format_value`), ``-`` for None.

    >>> num(3.0), num(-0.5), num(float("inf")), num(None)
    ('3', '-0.5', '+∞', '-')
    """
    if value is None or isnan(value):
        return "-"
    return format_value(value)


def evaluation(value: float) -> str:
    """A horizon evaluation as people read it: signed, to two decimals (a heuristic's further
    digits mean nothing); a value that small keeps one significant digit, and its sign.

    >>> evaluation(0.0817431), evaluation(-0.019411764705882358), evaluation(4.0)
    ('+0.08', '-0.02', '+4')
    >>> evaluation(0.0), evaluation(-0.0012), evaluation(-4)
    ('0', '-0.001', '-4')
    """
    if value == 0:
        return "0"
    rounded = round(float(value), 2)
    if rounded == 0:
        return f"{value:+.1g}"
    return f"{rounded:+.0f}" if rounded.is_integer() else f"{rounded:+.2f}"


def value_text(value: float | None, *, exact: bool = True) -> str:
    """A value as :func:`num` writes it when exact, else as an evaluation that says it is one.

    >>> value_text(1.0), value_text(-0.142857, exact=False), value_text(None, exact=False)
    ('1', 'eval -0.14', '-')
    """
    if exact or value is None or isnan(value):
        return num(value)
    return f"eval {evaluation(value)}"


def isnan(value: float | None) -> bool:
    return value is not None and isinstance(value, float) and math.isnan(value)


def json_num(value: float | None) -> float | int | None:
    """A value for JSON: ints stay ints, infinities become None."""
    if value is None or math.isinf(value) or math.isnan(value):
        return None
    return int(value) if float(value).is_integer() else float(value)


def jsonable(value: Any) -> Any:
    """An action or other game object as JSON: ints/strings as they are, tuples as lists."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return repr(value)


def repetition_said(game: Any) -> str:
    """How a game the repetition rule ended is scored, in words (``play``, the board).

    >>> from games import load_game
    >>> print(repetition_said(load_game("ayoayo")))
    a position repeated: scored as endless play, by the game's endless value
    """
    how = (
        "scored as endless play, by the game's endless value"
        if isinstance(game, HasEndlessValue)
        else "scored by the position's evaluation"
    )
    return f"a position repeated: {how}"


def outcome(
    game: Any,
    value: float,
    *,
    exact: bool = True,
    plies: int | None = None,
    endless: bool = False,
) -> str:
    """Who wins, in words: ``"draw"``, ``"X wins in 5 plies"``, ``"X wins by 4 by endless
    play"``, or a horizon estimate.

    >>> from games import load_game
    >>> game = load_game("ayoayo")
    >>> outcome(game, -4, endless=True), outcome(game, 8, plies=37), outcome(game, 0, plies=3)
    ('Player 2 wins by 4 by endless play', 'Player 1 wins by 8 in 37 plies', 'draw after 3 plies')
    >>> outcome(game, -4, exact=False), outcome(load_game("connect4"), 0.0817431, exact=False)
    ('Player 2 better at the horizon', 'X better at the horizon')
    """
    if not exact:
        if value == 0:
            return "level at the horizon"
        side = player_label(game, 0 if value > 0 else 1)
        return f"{side} better at the horizon"
    if value == 0:
        if endless:
            return "draw by endless play"
        return f"draw{' after ' + str(plies) + ' plies' if plies else ''}"
    tail = "" if plies is None else f" in {plies} pl{'y' if plies == 1 else 'ies'}"
    if endless:
        tail = " by endless play"
    margin = "" if abs(value) == 1 else f" by {num(abs(value))}"
    return f"{player_label(game, 0 if value > 0 else 1)} wins{margin}{tail}"


def board_lines(game: Any, state: Any) -> list[str]:
    """The picture of ``state`` (the game's ``render``, else its notation) and who moves."""
    lines: list[str] = []
    picture = ""
    if isinstance(game, HasRender):
        picture = game.render(state).rstrip("\n")
        lines.extend(picture.splitlines())
        if isinstance(game, HasStateNotation):
            lines.append(f"position: {game.format_state(state)}")
    else:
        lines.append(f"position: {format_state(game, state)}")
    said = picture.lower()  # do not repeat what the game's own picture already says
    if game.is_terminal(state):
        if "game over" not in said:
            lines.append(f"game over: {outcome(game, game.utility(state))}")
    elif "to move" not in said:
        lines.append(f"to move: {player_label(game, game.to_move(state))}")
    return lines


def _pv_steps(game: Any, state: Any, pv: Sequence[Any]) -> Iterator[tuple[Any, Any]]:
    """Each move of a principal variation with the position it is played in, up to the end."""
    for action in pv:
        if game.is_terminal(state):
            return
        yield state, action
        state = game.result(state, action)


SPELLED_OUT = 12
"""Principal variations up to this many moves are written ``MAX plays 4, MIN plays 0, ...``."""


def pv_text(game: Any, state: Any, pv: Sequence[Any], end: LineEnd | None = None) -> str:
    """The principal variation written move by move, and how it ends when ``end`` says.

    Up to :data:`SPELLED_OUT` moves: ``MAX plays 4, MIN plays 0, ...``; a longer line is
    written in the game's notation after who starts and how many plies it has.
    """
    steps = list(_pv_steps(game, state, pv))
    if not steps:
        return "(none: the game is over)"
    if len(steps) <= SPELLED_OUT:
        text = ", ".join(
            f"{player_label(game, game.to_move(before))} plays {format_action(game, before, a)}"
            for before, a in steps
        )
    else:
        first = player_label(game, game.to_move(steps[0][0]))
        moves = " ".join(format_action(game, before, a) for before, a in steps)
        text = f"{len(steps)} plies, {first} first: {moves}"
    return text if end is None else f"{text}; {end.describe()}"


def line_end_json(end: LineEnd | None) -> dict[str, Any] | None:
    """How a principal variation ends, as JSON-ready data (None when not said)."""
    if end is None:
        return None
    return {"kind": end.kind, "at": end.at, "reason": end.reason or None, "text": end.describe()}


def pv_notation(game: Any, state: Any, pv: Sequence[Any]) -> list[str]:
    """The moves of a principal variation in the game's notation, each in its own position."""
    return [format_action(game, before, action) for before, action in _pv_steps(game, state, pv)]


def pv_moves(game: Any, state: Any, pv: Sequence[Any]) -> list[dict[str, Any]]:
    return [
        {
            "player": game.to_move(before),
            "move": format_action(game, before, action),
            "action": jsonable(action),
        }
        for before, action in _pv_steps(game, state, pv)
    ]


def match_table(result: MatchResult) -> str:
    """A match's results as a text table like the article's, one row per seating.

    >>> from games import load_game
    >>> from play import run_match
    >>> result = run_match(load_game("textbook"), "minimax:2", "random", games=4, seed=1)
    >>> print(match_table(result).splitlines()[2].split()[:6])
    ['minimax:2', 'random', '4', '4', '0', '0']
    """
    header = (
        "P1 (first)",
        "P2",
        "games",
        "P1 wins",
        "P2 wins",
        "draws",
        "by repetition",
        "by ply limit",
        "avg plies",
        "s/game",
    )
    body = [
        (
            r.first,
            r.second,
            f"{r.games:,}",
            f"{r.p1_wins:,}",
            f"{r.p2_wins:,}",
            f"{r.draws:,}",
            f"{r.repetitions:,}",
            f"{r.ply_limits:,}",
            f"{r.average_plies:.2f}",
            f"{r.seconds_per_game:.3g}",
        )
        for r in result.rows()
    ]
    widths = [max(len(line[i]) for line in (header, *body)) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        parts = [
            cell.ljust(width) if i < 2 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(parts).rstrip()

    lines = [line(header), "  ".join("-" * w for w in widths), *map(line, body)]
    if result.swap:
        a, b = result.wins
        lines.append(
            f"by agent over {result.games:,} games: A ({result.agents[0]}) won {a:,}, "
            f"B ({result.agents[1]}) won {b:,}, {result.draws:,} drawn"
        )
    limit = f"; ply limit {result.max_plies}" if result.max_plies is not None else ""
    ending = (
        "A repeated position (or the ply limit) ends a game"
        if result.end_on_repetition
        else "Repeated positions do not end a game; the ply limit does"
    )
    lines.append(
        f"{result.game}, seed {result.seed}{limit}. {ending},\n"
        "scored by the game's endless value at a repetition if it declares one, else by its "
        "evaluation (the sign decides; a draw if it has neither)."
    )
    return "\n".join(lines)
