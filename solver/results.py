"""Search results and statistics: small frozen records every search returns."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

__all__ = ["SearchResult", "SearchStats", "format_value", "ply_preference"]


@attrs.frozen
class SearchStats:
    """What a search did: nodes visited, leaves evaluated, cut-offs, table hits, time."""

    nodes: int = 0
    leaves: int = 0
    cutoffs: int = 0
    table_hits: int = 0
    seconds: float = 0.0

    @property
    def nodes_per_second(self) -> float:
        """Nodes visited per second of search (0 when no time was measured)."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


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

    >>> format_value(3.0), format_value(-0.5), format_value(float("-inf")), format_value(2 / 3, 3)
    ('3', '-0.5', '−∞', '0.667')
    """
    if value == float("inf"):
        return "+∞"
    if value == float("-inf"):
        return "−∞"
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.{digits}g}"
