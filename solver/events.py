"""Search events: what a search reports, step by step, to an optional observer.

The teaching searches (and the engine, when given an observer) call ``observer(event)`` for
every node entered, every leaf evaluated, every value backed up, every alpha-beta cut-off and
every transposition-table hit. Diagrams (``viz``) are built from these events, so they show what
the algorithm really did. Values and windows are always from player 0's (MAX's) point of view.

Node ids are integers numbered from 0 (the root) in the order the search enters them; a node's
``parent`` is the id of the node it was entered from.

>>> from games import load_game
>>> from solver.minimax import alphabeta
>>> trace = Trace()
>>> alphabeta(load_game("textbook", tree=[[3, 12], [2, 4]]), observer=trace).value
3
>>> [type(e).__name__ for e in trace.events][:4]
['Enter', 'Enter', 'Enter', 'Leaf']
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Literal, TypeAlias

import attrs

from solver.game import Player
from solver.results import format_value

__all__ = [
    "Backup",
    "CacheHit",
    "Cutoff",
    "Enter",
    "Event",
    "Leaf",
    "Observer",
    "OracleHit",
    "Trace",
]

INF = float("inf")

Bound: TypeAlias = Literal["exact", "lower", "upper"]


@attrs.frozen
class Enter:
    """The search entered a node, with the alpha-beta window it was given (±inf for minimax)."""

    node: int
    parent: int | None
    action: Any  # the move from the parent that led here; None at the root
    state: Any
    depth: int  # plies below the root
    player: Player  # the player to move here
    alpha: float = -INF
    beta: float = INF


@attrs.frozen
class Leaf:
    """A node evaluated without expanding it: a terminal state or the search horizon."""

    node: int
    value: float
    terminal: bool  # False: the depth horizon, valued by the evaluation function


@attrs.frozen
class Backup:
    """A node's value is final: the value backed up from its children, and the window on exit.

    ``best_action`` is the child chosen (the first best in ``actions`` order); ``exact`` is
    False when the value is only a bound because alpha-beta cut the node off (fail-high at MAX
    means the true value is >= value; fail-low at MIN means <= value).
    """

    node: int
    value: float
    best_action: Any
    alpha: float = -INF
    beta: float = INF
    exact: bool = True


@attrs.frozen
class Cutoff:
    """Alpha-beta stopped expanding ``node``: ``value`` fell outside the window.

    At a MAX node the cut is ``value >= beta``; at a MIN node ``value <= alpha``. ``pruned``
    lists the actions never explored, in ``actions`` order.
    """

    node: int
    player: Player
    value: float
    alpha: float
    beta: float
    pruned: tuple[Any, ...]

    @property
    def inequality(self) -> str:
        """The cut in the textbook's words, e.g. ``v=2 ≤ α=3``."""
        if self.player == 0:
            return f"v={format_value(self.value)} ≥ β={format_value(self.beta)}"
        return f"v={format_value(self.value)} ≤ α={format_value(self.alpha)}"


@attrs.frozen
class CacheHit:
    """A transposition-table entry answered for ``node`` instead of a search below it."""

    node: int
    key: Hashable
    value: float
    bound: Bound
    depth: int  # the remaining depth the stored entry was searched to (-1: to the end)


@attrs.frozen
class OracleHit:
    """The search's oracle (an endgame tablebase) gave ``node`` its exact game value.

    The line ends there: no search below it, no horizon (the value is exact).
    """

    node: int
    value: float


Event: TypeAlias = Enter | Leaf | Backup | Cutoff | CacheHit | OracleHit
Observer: TypeAlias = Callable[[Event], None]


@attrs.define(repr=False)
class Trace:
    """An observer that records every event, in order.

    >>> Trace()
    <Trace 0 events>
    """

    events: list[Event] = attrs.Factory(list)

    def __call__(self, event: Event) -> None:
        self.events.append(event)

    def __repr__(self) -> str:
        return f"<Trace {len(self.events)} events>"
