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

A move may carry an **annotation**, one of the usual marks written right after it: ``!`` a good
move, ``?`` a mistake, ``!!`` brilliant, ``??`` a blunder, ``!?`` interesting, ``?!`` dubious
(``2. 4?!``). They are the annotator's; ``review`` shows them beside its own marks.

A **variation** (another move than the one played, and what follows it) is written in
parentheses right after the move it replaces, numbered as that move; variations nest::

    1. 2
    2. 4
      (2. 3  # the engine's choice
       3. 1)
    3. 3

Headers: ``game`` (required: the name, then the game's options if it has any, ``game: connect4
width=5 height=4``), ``start`` (the position before the first move, in the game's
notation; default the game's start) and ``result`` (written when the game is over, at its end
or at a position repeated, the rule ``play`` and matches use; read back as information only,
the moves decide). Any other header (``players``, ``date``, ``event``...) is
kept as it is. Lines starting with ``#`` before the moves are comments. Move numbers (``12.``)
are optional; when present they must count from 1 (in a variation, from the number of the move
it replaces). Moves are in the game's notation (an Ayòayò move is the mover's cell, 0..5) and
are checked: a record with an illegal move is refused with the line number and the legal moves.
A review reviews the moves played (the main line); the board shows the variations too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

import attrs

from solver.endings import repetition_at, unfinished_score
from solver.game import GameError, format_action, format_state, parse_action
from solver.quoting import quote
from zerosum.console import UsageError
from zerosum.positions import load_position
from zerosum.report import outcome, repetition_said

__all__ = [
    "MAX_RECORD_CHARS",
    "GameRecord",
    "RecordError",
    "Variation",
    "format_record",
    "headers_from_json",
    "line_result",
    "line_states",
    "parse_record",
    "variation_from_json",
]

MAX_RECORD_CHARS: Final = 200_000
"""The longest record read (a game of a thousand moves is some 10,000 characters)."""

MAX_MOVES: Final = 10_000
"""The most moves a record may hold."""

_HEADER: Final = re.compile(r"([A-Za-z][A-Za-z0-9_-]{0,30})\s*:\s*(.*)")
_NUMBER: Final = re.compile(r"([0-9]{1,6})\.")
_TOKEN: Final = re.compile(r"[()]|[^\s()]+")

ANNOTATIONS: Final = ("!!", "??", "!?", "?!", "!", "?")
"""The marks an annotator may put after a move: brilliant, blunder, interesting, dubious, good,
mistake."""

_ANNOTATED: Final = re.compile(r"(.*?)(!!|\?\?|!\?|\?!|!|\?)")

MAX_NESTING: Final = 50
"""The deepest variation inside a variation a record may hold."""


class RecordError(GameError, ValueError):
    """A record that cannot be read: the message names the line and what is wrong."""


@attrs.frozen
class Variation:
    """Moves played instead of one move of a line, and on from there.

    Attributes:
        moves: the moves in the game's notation; the first replaces the move it follows.
        comments: comment of the move at each index that has one.
        variations: alternatives to the move at each index (nested variations).
        annotations: the mark (one of :data:`ANNOTATIONS`) of the move at each index that has one.
    """

    moves: tuple[str, ...]
    comments: Mapping[int, str] = attrs.field(factory=dict)
    variations: Mapping[int, tuple[Variation, ...]] = attrs.field(factory=dict)
    annotations: Mapping[int, str] = attrs.field(factory=dict)


@attrs.frozen
class GameRecord:
    """A game as a record holds it: the game, the start, the moves and their comments.

    Attributes:
        game: the game's registry name, then its options if it has any (``connect4 width=5
            height=4``: what the ``game:`` header holds and the board sends).
        start: the position before the first move, in the game's notation.
        moves: the moves in the game's notation, in order.
        comments: comment of the move at each index (0 for the first move) that has one.
        headers: other headers, in the order written (``players``, ``date``, ...).
        variations: alternatives to the move at each index (0 for the first move).
        annotations: the annotator's mark of the move at each index that has one.
    """

    game: str
    start: str
    moves: tuple[str, ...]
    comments: Mapping[int, str] = attrs.field(factory=dict)
    headers: Mapping[str, str] = attrs.field(factory=dict)
    variations: Mapping[int, tuple[Variation, ...]] = attrs.field(factory=dict)
    annotations: Mapping[int, str] = attrs.field(factory=dict)

    def positions(self) -> tuple[Any, list[Any]]:
        """``(game, states)``: the start and the position after each move played, every move
        checked (those of the variations too)."""
        game, state = load_position(self.game, self.start)
        states = line_states(game, state, self.moves, 1)
        _check_variations(game, states, self.variations, 1)
        return game, states


def variation_from_json(data: Any, depth: int = 0) -> Variation:
    """A line sent as JSON: ``{"moves": [...], "comments": {"i": text}, "variations":
    {"i": [line, ...]}, "annotations": {"i": mark}}`` (all but moves optional; indexes count
    from 0).

    Raises:
        RecordError: anything else, named.
    """
    if depth > MAX_NESTING:
        raise RecordError(f"variations nested more than {MAX_NESTING} deep")
    if not isinstance(data, dict):
        raise RecordError(f"invalid line {quote(data)}: expected {{'moves': [...], ...}}")
    moves = data.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordError(f"invalid moves {quote(moves)}: expected a list of moves as text")
    comments, variations = data.get("comments") or {}, data.get("variations") or {}
    annotations = data.get("annotations") or {}
    if not isinstance(annotations, dict) or not all(a in ANNOTATIONS for a in annotations.values()):
        raise RecordError(
            f"invalid annotations {quote(annotations)}: expected {{index: mark}}, a mark one of "
            + ", ".join(ANNOTATIONS)
        )
    if not isinstance(comments, dict) or not all(isinstance(c, str) for c in comments.values()):
        raise RecordError(f"invalid comments {quote(comments)}: expected {{index: text}}")
    if not isinstance(variations, dict) or not all(
        isinstance(v, list) for v in variations.values()
    ):
        raise RecordError(f"invalid variations {quote(variations)}: expected {{index: [line]}}")

    def index(key: Any) -> int:
        if not (isinstance(key, str) and key.isascii() and key.isdigit()) or int(key) >= len(moves):
            raise RecordError(f"invalid move index {quote(key)}: use 0 to {len(moves) - 1}")
        return int(key)

    return Variation(
        tuple(moves),
        {index(k): v for k, v in comments.items() if v.strip()},
        {
            index(k): tuple(variation_from_json(line, depth + 1) for line in found)
            for k, found in variations.items()
            if found
        },
        {index(k): v for k, v in annotations.items()},
    )


RESERVED_HEADERS: Final = ("game", "start", "result")
"""Headers a record writes itself, from its game, start and moves."""

_HEADER_KEY: Final = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,30}")


def headers_from_json(data: Any) -> dict[str, str]:
    """A record's other headers sent as JSON, ``{"players": "Ada, engine:1", ...}`` (None: none).

    Raises:
        RecordError: not an object of texts, a key that is not a header name, or one the
            record writes itself (game, start, result).
    """
    if data is None:
        return {}
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise RecordError(f"invalid headers {quote(data)}: expected {{name: text}}")
    for key in data:
        if not _HEADER_KEY.fullmatch(key):
            raise RecordError(
                f"invalid header name {quote(key)}: a letter, then letters, digits, _ or -"
            )
        if key.lower() in RESERVED_HEADERS:
            raise RecordError(
                f"invalid header {quote(key)}: the record writes game, start and result itself"
            )
    return {key.lower(): value for key, value in data.items()}


def line_states(game: Any, start: Any, moves: Sequence[str], first: int) -> list[Any]:
    """``start`` and the position after each of ``moves`` (move numbers from ``first``).

    Raises:
        RecordError: an illegal move, named by its number and the legal moves.
    """
    states = [start]
    for index, move in enumerate(moves):
        try:
            action = parse_action(game, states[-1], move)
        except GameError as exc:
            raise RecordError(f"move {first + index} ({quote(move)}): {exc}") from None
        states.append(game.result(states[-1], action))
    return states


def _check_variations(
    game: Any, states: list[Any], variations: Mapping[int, tuple[Variation, ...]], first: int
) -> None:
    """Every move of every variation is legal where it is played (nested ones too)."""
    for index, alternatives in variations.items():
        for variation in alternatives:
            try:
                inner = line_states(game, states[index], variation.moves, first + index)
            except RecordError as exc:
                raise RecordError(f"in a variation: {exc}") from None
            _check_variations(game, inner, variation.variations, first + index)


def parse_record(text: Any, options: Sequence[str] = ()) -> GameRecord:
    """Read a record (see the module docstring); the moves are checked by :meth:`positions`.
    ``options``: the game's options as ``KEY=VALUE`` items, added to (and overriding) those of
    its ``game:`` header (``review -O``: a record written without them).

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
    reader = _MovesReader()
    for number, raw in enumerate(text.splitlines(), start=1):
        body, _, comment = raw.partition("#")
        body, comment = body.strip(), comment.strip()
        header = _HEADER.fullmatch(body) if reader.count == 0 and reader.top_level else None
        if header and not _NUMBER.match(body):
            key = header.group(1).lower()
            if key in headers:
                raise RecordError(f"record line {number}: header {key!r} given twice")
            headers[key] = header.group(2).strip()
            continue
        last = None
        for token in _TOKEN.findall(body):
            last = reader.read(token, number) or last
        if comment and last is not None:
            last[0].comments[last[1]] = comment
    main = reader.finish()
    if "game" not in headers:
        raise RecordError(
            "invalid record: no 'game:' header; a record starts with e.g. 'game: ayoayo'"
        )
    # The name, then the game's options: 'connect4 width=5'.
    game_name = " ".join([headers.pop("game"), *options])
    start_text = headers.pop("start", "") or None
    headers.pop("result", None)
    try:
        game, start = load_position(game_name, start_text)
    except (GameError, UsageError) as exc:
        raise RecordError(f"invalid record: {exc}") from None
    line = main.variation()
    return GameRecord(
        " ".join([game.name, *game_name.split()[1:]]),
        format_state(game, start),
        line.moves,
        line.comments,
        headers,
        line.variations,
        line.annotations,
    )


class _MovesReader:
    """The moves of a record, token by token: the main line and its nested variations."""

    def __init__(self) -> None:
        self.stack = [_Frame(first=1, opened=0)]
        self.count = 0

    @property
    def top_level(self) -> bool:
        return len(self.stack) == 1

    def read(self, token: str, number: int) -> tuple[_Frame, int] | None:
        """Take one token of line ``number``; a move returns ``(its line, its index)``."""
        frame = self.stack[-1]
        if token == "(":
            if not frame.moves:
                raise RecordError(
                    f"record line {number}: '(' before any move: a variation follows "
                    "the move it replaces"
                )
            if len(self.stack) > MAX_NESTING:
                raise RecordError(
                    f"record line {number}: variations nested more than {MAX_NESTING} deep"
                )
            at = len(frame.moves) - 1
            inner = _Frame(first=frame.first + at, opened=number)
            frame.variations.setdefault(at, []).append(inner)
            self.stack.append(inner)
            return None
        if token == ")":
            if self.top_level:
                raise RecordError(f"record line {number}: ')' closes no variation")
            if not frame.moves:
                raise RecordError(f"record line {number}: an empty variation '()'")
            self.stack.pop()
            return None
        numbered = _NUMBER.fullmatch(token)
        if numbered:
            expected = frame.first + len(frame.moves)
            if int(numbered.group(1)) != expected:
                where = "move" if self.top_level else "move of this variation"
                raise RecordError(
                    f"record line {number}: move number {token!r} where {where} "
                    f"{expected} was expected"
                )
            return None
        annotated = _ANNOTATED.fullmatch(token)
        if annotated and not annotated.group(1):  # a mark standing apart: ``2. 4 ?!``
            if not frame.moves:
                raise RecordError(f"record line {number}: the annotation {token!r} follows no move")
            frame.annotations[len(frame.moves) - 1] = annotated.group(2)
            return frame, len(frame.moves) - 1
        if annotated:
            token = annotated.group(1)
            frame.annotations[len(frame.moves)] = annotated.group(2)
        frame.moves.append(token)
        self.count += 1
        if self.count > MAX_MOVES:
            raise RecordError(f"record line {number}: more than {MAX_MOVES:,} moves")
        return frame, len(frame.moves) - 1

    def finish(self) -> _Frame:
        """The main line, once every variation is closed."""
        if not self.top_level:
            raise RecordError(
                f"record line {self.stack[-1].opened}: the variation opened here is not "
                "closed with ')'"
            )
        return self.stack[0]


@attrs.define
class _Frame:
    """A line being read: the main line, or a variation opened on line ``opened``."""

    first: int  # the number of its first move
    opened: int
    moves: list[str] = attrs.field(factory=list)
    comments: dict[int, str] = attrs.field(factory=dict)
    variations: dict[int, list[_Frame]] = attrs.field(factory=dict)
    annotations: dict[int, str] = attrs.field(factory=dict)

    def variation(self) -> Variation:
        return Variation(
            tuple(self.moves),
            dict(self.comments),
            {at: tuple(f.variation() for f in found) for at, found in self.variations.items()},
            dict(self.annotations),
        )


def format_record(
    game: Any,
    start: Any,
    actions: Sequence[Any],
    *,
    comments: Mapping[int, str] | None = None,
    headers: Mapping[str, str] | None = None,
    variations: Mapping[int, Sequence[Variation]] | None = None,
    annotations: Mapping[int, str] | None = None,
    game_spec: str | None = None,
) -> str:
    """The record of ``actions`` played from ``start`` (the result header if the game ended),
    with ``variations`` (moves in the game's notation, checked) after the moves they replace.
    ``game_spec``: the game with its options (``connect4 width=5 height=4``) for the ``game:``
    header, which is then what loads it again (default: its name alone).

    >>> from games import load_game
    >>> game = load_game("tictactoe")
    >>> print(format_record(game, game.initial_state(), [4, 0], comments={0: "the centre"},
    ...                     variations={1: [Variation(("1", "0"), {0: "an edge"})]}))
    # gamesolver game record
    game: tictactoe
    start: .../.../...
    <BLANKLINE>
    1. 4  # the centre
    2. 0
      (2. 1  # an edge
       3. 0)
    <BLANKLINE>

    Raises:
        RecordError: a move of a variation is not legal where it is played.
    """
    lines = [
        "# gamesolver game record",
        f"game: {' '.join((game_spec or game.name).split())}",
        f"start: {format_state(game, start)}",
    ]
    for key, value in (headers or {}).items():
        lines.append(f"{key}: {' '.join(str(value).split())}")
    states = [start]
    moves = []
    for action in actions:
        moves.append(format_action(game, states[-1], action))
        states.append(game.result(states[-1], action))
    result = line_result(game, states)
    if result is not None:
        lines.append(f"result: {result}")
    main = Variation(
        tuple(moves),
        dict(comments or {}),
        {k: tuple(v) for k, v in (variations or {}).items()},
        dict(annotations or {}),
    )
    entries = _line_entries(game, states, main, 1, 0)
    written = [
        " " * indent + (f"{text}  # {' '.join(note.split())}" if note else text)
        for indent, text, note in entries
    ]
    return "\n".join([*lines, "", *written, ""])


def line_result(game: Any, states: Sequence[Any]) -> str | None:
    """How a game through ``states`` (its positions, the start first) ended, in words, or None
    while it goes on: at a terminal position, or by the repetition rule at its last position."""
    if game.is_terminal(states[-1]):
        return outcome(game, game.utility(states[-1]))
    if repetition_at(game, states) == len(states) - 1:
        score = unfinished_score(game, states[-1], "repetition")
        return f"{outcome(game, score)} ({repetition_said(game)})"
    return None


def _line_entries(
    game: Any, states: list[Any], line: Variation, first: int, indent: int
) -> list[list[Any]]:
    """``[indent, text, comment]`` per written line: each move of ``line`` (numbered from
    ``first``; ``states``: the positions before and after each of its moves), each followed by
    its variations, indented, in parentheses (their moves checked where they are played)."""
    entries: list[list[Any]] = []
    for index, move in enumerate(line.moves):
        written = f"{first + index}. {move}{line.annotations.get(index, '')}"
        entries.append([indent, written, line.comments.get(index, "")])
        for variation in line.variations.get(index, ()):
            if not variation.moves:
                raise RecordError(f"an empty variation at move {first + index}")
            inner_states = line_states(game, states[index], variation.moves, first + index)
            inner = _line_entries(game, inner_states, variation, first + index, indent + 3)
            inner[0][0] = indent + 2
            inner[0][1] = "(" + inner[0][1]
            inner[-1][1] += ")"
            entries.extend(inner)
    return entries
