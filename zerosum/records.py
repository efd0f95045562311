"""Game records: one plain-text format that the board, ``play``, ``match`` and ``review`` share.

A record is a few ``key: value`` header lines, then the moves, one per line, each optionally
numbered and optionally followed by a comment after ``#``::

    # gamesolver game record
    game: ayoayo
    start: [[4,4,4,4,4,4],[4,4,4,4,4,4]] captured 0,0 to-move 0
    players: you, engine:1
    result: Player 2 wins by 4

    1. 2
    2. 4   # value -4 at depth 18
    3. 3

Headers: ``game`` (required), ``start`` (the position before the first move, in the game's
notation; default the game's start) and ``result`` (written when the game is over; read back as
information only, the moves decide). Any other header (``players``, ``date``, ``event``...) is
kept as it is. Lines starting with ``#`` before the moves are comments. Move numbers (``12.``)
are optional; when present they must count from 1. Moves are in the game's notation (an
Ayòayò move is the mover's cell, 0..5) and are checked: a record with an illegal move is refused
with the line number and the legal moves.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

import attrs

from solver.game import GameError, format_action, format_state, parse_action
from solver.quoting import quote
from zerosum.board.views import load_position
from zerosum.console import UsageError
from zerosum.report import outcome

__all__ = ["MAX_RECORD_CHARS", "GameRecord", "RecordError", "format_record", "parse_record"]

MAX_RECORD_CHARS: Final = 200_000
"""The longest record read (a game of a thousand moves is some 10,000 characters)."""

MAX_MOVES: Final = 10_000
"""The most moves a record may hold."""

_HEADER: Final = re.compile(r"([A-Za-z][A-Za-z0-9_-]{0,30})\s*:\s*(.*)")
_NUMBER: Final = re.compile(r"([0-9]{1,6})\.")


class RecordError(GameError, ValueError):
    """A record that cannot be read: the message names the line and what is wrong."""


@attrs.frozen
class GameRecord:
    """A game as a record holds it: the game, the start, the moves and their comments.

    Attributes:
        game: the game's registry name.
        start: the position before the first move, in the game's notation.
        moves: the moves in the game's notation, in order.
        comments: comment of the move at each index (0 for the first move) that has one.
        headers: other headers, in the order written (``players``, ``date``, ...).
    """

    game: str
    start: str
    moves: tuple[str, ...]
    comments: Mapping[int, str] = attrs.field(factory=dict)
    headers: Mapping[str, str] = attrs.field(factory=dict)

    def positions(self) -> tuple[Any, list[Any]]:
        """``(game, states)``: the start and the position after each move (all checked)."""
        game, state = load_position(self.game, self.start)
        states = [state]
        for index, move in enumerate(self.moves):
            try:
                action = parse_action(game, states[-1], move)
            except GameError as exc:
                raise RecordError(f"move {index + 1} ({quote(move)}): {exc}") from None
            states.append(game.result(states[-1], action))
        return game, states


def parse_record(text: Any) -> GameRecord:
    """Read a record (see the module docstring); the moves are checked by :meth:`positions`.

    Raises:
        RecordError: the text is not a record; the message names the line.

    >>> record = parse_record("game: tictactoe\\n1. 4  # the centre\\n2. 0\\n")
    >>> record.moves, record.comments, record.start
    (('4', '0'), {0: 'the centre'}, '.../.../...')
    """
    if not isinstance(text, str):
        raise RecordError(f"invalid record {quote(text)}: expected the record as text")
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError(f"invalid record: longer than {MAX_RECORD_CHARS:,} characters")
    headers: dict[str, str] = {}
    moves: list[str] = []
    comments: dict[int, str] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        body, _, comment = raw.partition("#")
        body, comment = body.strip(), comment.strip()
        header = _HEADER.fullmatch(body) if not moves else None
        if header and not _NUMBER.match(body):
            key = header.group(1).lower()
            if key in headers:
                raise RecordError(f"record line {number}: header {key!r} given twice")
            headers[key] = header.group(2).strip()
            continue
        for token in body.split():
            numbered = _NUMBER.fullmatch(token)
            if numbered:
                if int(numbered.group(1)) != len(moves) + 1:
                    raise RecordError(
                        f"record line {number}: move number {token!r} where move "
                        f"{len(moves) + 1} was expected"
                    )
                continue
            moves.append(token)
            if len(moves) > MAX_MOVES:
                raise RecordError(f"record line {number}: more than {MAX_MOVES:,} moves")
        if comment and moves and body:
            comments[len(moves) - 1] = comment
    if "game" not in headers:
        raise RecordError(
            "invalid record: no 'game:' header; a record starts with e.g. 'game: ayoayo'"
        )
    game_name = headers.pop("game")
    start_text = headers.pop("start", "") or None
    headers.pop("result", None)
    try:
        game, start = load_position(game_name, start_text)
    except (GameError, UsageError) as exc:
        raise RecordError(f"invalid record: {exc}") from None
    return GameRecord(game.name, format_state(game, start), tuple(moves), comments, headers)


def format_record(
    game: Any,
    start: Any,
    actions: Sequence[Any],
    *,
    comments: Mapping[int, str] | None = None,
    headers: Mapping[str, str] | None = None,
) -> str:
    """The record of ``actions`` played from ``start`` (the result header if the game ended).

    >>> from games import load_game
    >>> game = load_game("tictactoe")
    >>> print(format_record(game, game.initial_state(), [4, 0], comments={0: "the centre"}))
    # gamesolver game record
    game: tictactoe
    start: .../.../...
    <BLANKLINE>
    1. 4  # the centre
    2. 0
    <BLANKLINE>
    """
    lines = [
        "# gamesolver game record",
        f"game: {game.name}",
        f"start: {format_state(game, start)}",
    ]
    for key, value in (headers or {}).items():
        lines.append(f"{key}: {' '.join(str(value).split())}")
    state = start
    written = []
    for index, action in enumerate(actions):
        move = f"{index + 1}. {format_action(game, state, action)}"
        note = (comments or {}).get(index)
        written.append(f"{move}  # {' '.join(note.split())}" if note else move)
        state = game.result(state, action)
    if game.is_terminal(state):
        lines.append(f"result: {outcome(game, game.utility(state))}")
    return "\n".join([*lines, "", *written, ""])
