"""Search results and statistics: small frozen records every search returns."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, Final

import attrs

from solver.errors import InvalidOptionError

__all__ = [
    "LineEnd",
    "MoveLine",
    "SearchRequest",
    "SearchResult",
    "SearchStats",
    "format_value",
    "ply_preference",
]


@attrs.frozen
class SearchStats:
    """What a search did: nodes visited, leaves evaluated, cut-offs, table hits, time, and
    the positions its table held at the end (None where the node search does not say)."""

    nodes: int = 0
    leaves: int = 0
    cutoffs: int = 0
    table_hits: int = 0
    seconds: float = 0.0
    table_entries: int | None = None

    @property
    def nodes_per_second(self) -> float:
        """Nodes visited per second of search (0 when no time was measured)."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


@attrs.frozen
class LineEnd:
    """How a principal variation ends, so a reader knows what the line shows.

    Attributes:
        kind: ``"end"``, the game is over after the last move; ``"repeat"``, the last move
            brings back the position after ply ``at`` (0: the root), so play goes round for ever
            (endless play, scored by the game's endless value); ``"depth"``, the line stops at
            the search's depth, the game going on; ``"cut"``, the line was cut for ``reason``.
        at: with ``"repeat"``, the ply whose position comes back.
        reason: with ``"cut"``, why (e.g. a length limit, or a position nothing covers).

    >>> LineEnd("repeat", at=2).describe()
    'the position after ply 2 comes back: play repeats for ever (endless play)'
    """

    kind: str
    at: int | None = None
    reason: str = ""

    def describe(self) -> str:
        """The ending in words, to follow a printed line."""
        if self.kind == "end":
            return "the game ends"
        if self.kind == "repeat":
            where = "the starting position" if self.at == 0 else f"the position after ply {self.at}"
            return f"{where} comes back: play repeats for ever (endless play)"
        if self.kind == "depth":
            return "the line stops at the search depth; the game goes on"
        return f"the line is cut: {self.reason}" if self.reason else "the line is cut"


@attrs.frozen
class MoveLine:
    """A root move's line: the move, then best play after it, and how the line ends.

    Attributes:
        moves: the move first, then the value-keeping replies, as the principal variation is.
        end: how the line ends (:class:`LineEnd`).
    """

    moves: tuple[Any, ...]
    end: LineEnd


@attrs.frozen
class SearchResult:
    """The answer of a search from one root state. Values are from player 0's view.

    Attributes:
        value: the backed-up value of the root.
        best_action: the chosen move (first best in ``actions`` order for the teaching
            searches; the quickest win / slowest loss for the engine); None at a terminal root.
        pv: the principal variation, the moves from the root along best play.
        action_values: the backed-up value of each root action that was searched exactly.
        stats: what the search did.
        best_actions: every root action that keeps the value (empty if not computed).
        depth: the depth limit of the answer (None: searched to the end of the game).
        plies: plies to the end of the game under best play, when the value is exact.
        action_plies: plies to the end after each root action, when known.
        exact: the value is the game-theoretic value (no horizon evaluation was used).
        complete: False when a time/node limit or an interrupt stopped the search; the answer
            is then that of the last completed depth.
        pv_end: how the principal variation ends (None: not said, e.g. no move at all).
        endless_actions: root actions whose exact value is reached only by endless play (an
            oracle that guides play, such as a tablebase, says so; their plies are None).
        action_lines: with ``lines=True``, each exactly valued root action's line (the action,
            then best play after it; the chosen action's line is the PV).
        source: where the answer came from: ``"search"``, or ``"oracle"`` when an oracle (a
            tablebase) answered at the root without searching.
        horizon_actions: root actions whose values in ``action_values`` are the depth's (they
            met the horizon) although the result is exact: a win proved beside them, with
            ``all_values``.
    """

    value: float
    best_action: Any
    pv: tuple[Any, ...]
    action_values: Mapping[Any, float]
    stats: SearchStats
    best_actions: tuple[Any, ...] = ()
    depth: int | None = None
    plies: int | None = None
    action_plies: Mapping[Any, int | None] = attrs.field(factory=dict)
    exact: bool = True
    complete: bool = True
    pv_end: LineEnd | None = None
    endless_actions: tuple[Any, ...] = ()
    source: str = "search"
    action_lines: Mapping[Any, MoveLine] = attrs.field(factory=dict)
    horizon_actions: tuple[Any, ...] = ()


MAX_TABLE_SIZE: Final = 1 << 28
"""The largest transposition table a search may ask for, in entries (268,435,456: several GB
in any table; a larger one is refused before anything is allocated)."""


def _table_size(instance: Any, attribute: Any, value: Any) -> None:
    _whole(1, "table size", "a whole number of entries >= 1")(instance, attribute, value)
    if value > MAX_TABLE_SIZE:
        raise InvalidOptionError(
            f"invalid table size {_quote(value)}: use at most {MAX_TABLE_SIZE:,} entries "
            "(the table is allocated whole; memory, not the search, bounds it)"
        )


def _whole(least: int, what: str, unit: str) -> Callable[[Any, Any, Any], None]:
    """A validator: None or an int >= ``least`` (not a bool)."""

    def check(instance: Any, attribute: Any, value: Any) -> None:
        if value is None and attribute.name != "table_size":
            return
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise ValueError(f"invalid {what} {_quote(value)}: use {unit}")

    return check


def _seconds(instance: Any, attribute: Any, value: Any) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"invalid time limit {_quote(value)}: use a number of seconds, or None")
    if not value > 0:
        raise ValueError(f"invalid time limit {_quote(value)}: use seconds > 0, or None")


def _seed(instance: Any, attribute: Any, value: Any) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise TypeError(f"invalid seed {_quote(value)}: use a whole number, or None")


def _callable_or_none(what: str) -> Callable[[Any, Any, Any], None]:
    def check(instance: Any, attribute: Any, value: Any) -> None:
        if value is not None and not callable(value):
            raise TypeError(f"invalid {what} {_quote(value)}: use a function, or None")

    return check


def _quote(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters (an error line must not echo 5000 digits)."""
    try:
        text = repr(value)
    except ValueError:  # an int too long to print
        text = f"<{type(value).__name__} too large to print>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


@attrs.frozen
class SearchRequest:
    """The engine's options for one search, checked: what :func:`solver.engine.search` was asked.

    A game's compiled node search (:class:`solver.game.HasCompiledSearch`) receives one, and
    must honour every field or decline (return None). It is only asked when there is no observer and
    the evaluation is the game's own, so neither appears here.

    Attributes:
        depth: the deepest iteration in plies (None: deepen until the answer is exact).
        time_limit: seconds after which to answer with the last completed depth (None: none).
        node_limit: nodes after which to do likewise (None: none).
        seed: break ties among equally preferred optimal moves at random, reproducibly.
        table_size: the transposition table's size in entries.
        on_depth: called with the result of each completed depth.
        oracle: ``oracle(state)``: exact values (player 0's view) of covered positions.
        plies: compute plies to the end and prefer among value-keeping moves by them.
        all_values: give every root action an exact value.
        lines: give every exactly valued root action its line (``action_lines``).

    Raises:
        ValueError: a negative depth, a non-positive limit, a table size < 1 or above
            :data:`MAX_TABLE_SIZE` (an :class:`~solver.errors.InvalidOptionError`).
        TypeError: a time limit that is not a number, a seed that is not an int, an
            ``on_depth`` or ``oracle`` that is not callable.

    >>> SearchRequest(depth=3).depth
    3
    >>> SearchRequest(depth=-1)
    Traceback (most recent call last):
    ...
    ValueError: invalid depth -1: use a number of plies >= 0, or None
    """

    depth: int | None = attrs.field(
        default=None, validator=_whole(0, "depth", "a number of plies >= 0, or None")
    )
    time_limit: float | None = attrs.field(default=None, validator=_seconds)
    node_limit: int | None = attrs.field(
        default=None, validator=_whole(1, "node limit", "a whole number >= 1, or None")
    )
    seed: int | None = attrs.field(default=None, validator=_seed)
    table_size: int = attrs.field(default=1 << 20, validator=_table_size)
    on_depth: Callable[[SearchResult], None] | None = attrs.field(
        default=None, validator=_callable_or_none("on_depth")
    )
    oracle: Callable[[Any], float | None] | None = attrs.field(
        default=None, validator=_callable_or_none("oracle")
    )
    plies: bool = True
    all_values: bool = False
    lines: bool = False


def ply_preference(mover_value: float, plies: int) -> int:
    """The tie-break among moves of equal value, from the mover's side: smaller is preferred.

    The seed's depth-aware scores: a player who is winning (``mover_value > 0``) prefers the
    quickest end; a player who is drawing or losing prefers the slowest. One rule for the
    engine, the solver and every report of "plies to the end".

    >>> ply_preference(1, 5) < ply_preference(1, 7)
    True
    >>> ply_preference(-1, 7) < ply_preference(-1, 5)
    True
    """
    return plies if mover_value > 0 else -plies


def format_value(value: float, digits: int = 6) -> str:
    """A value as a teacher writes it: ``3`` not ``3.0``, ``+∞``/``−∞`` for infinities.

    ``digits`` significant digits for other numbers (fewer for crowded diagrams).

    An exact fraction (an expectation over dice) is written as one while its denominator is at
    most 1000, else to ``digits`` digits.

    >>> format_value(3.0), format_value(-0.5), format_value(float("-inf")), format_value(2 / 3, 3)
    ('3', '-0.5', '−∞', '0.667')
    >>> format_value(Fraction(-13, 18)), format_value(Fraction(1, 46656), 3)
    ('-13/18', '2.14e-05')
    """
    if value == float("inf"):
        return "+∞"
    if value == float("-inf"):
        return "−∞"
    if float(value).is_integer():
        return str(int(value))
    if isinstance(value, Fraction) and value.denominator <= 1000:
        return f"{value.numerator}/{value.denominator}"
    return f"{float(value):.{digits}g}"
