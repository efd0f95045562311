"""Search events: what a search reports, step by step, to an optional observer.

The teaching searches (and the engine, when given an observer) call ``observer(event)`` for
every node entered, every leaf evaluated, every value backed up, every alpha-beta cut-off and
every transposition-table hit. Diagrams (``viz``) are built from these events, so they show what
the algorithm really did. Values and windows are always from player 0's (MAX's) point of view.

Node ids are integers numbered from 0 (the root) in the order the search enters them; a node's
``parent`` is the id of the node it was entered from.

Every node entered ends with exactly one closing event: :class:`Leaf`, :class:`Backup`,
:class:`CacheHit` or :class:`OracleHit`; :class:`Cutoff` comes before a node's Backup.

The engine (:func:`solver.engine.search` with ``observer=``) reports its real search, the same
algorithm as without an observer (the events are emitted through a hook chosen once):

* :class:`Iteration` starts each iteration of iterative deepening; its root is the next Enter
  (``parent`` None). The events after the last Iteration are the search that gave the answer.
  The passes that find plies to the end and the principal variation are not reported.
* :class:`Enter` carries the window the node was searched with. The engine searches a node's
  first child with the full window and the others with a null window just above alpha
  (principal-variation search); a child that beats it is entered again (a new node id, the
  same ``action``) with the wider window. At the root each later move gets the narrowest
  window around the best value so far.
* One ply above the horizon the engine values the children inline: each is an Enter followed
  at once by its Leaf (or OracleHit), in the order searched, until a cut-off.
* :class:`CacheHit` is a transposition-table entry that answered without a search below:
  its value, its flag (``"exact"``, ``"lower"``, ``"upper"``, in player 0's view) and the
  remaining depth it was searched to.
* :class:`OracleHit` is a position the oracle (an endgame tablebase) valued exactly.
* :class:`Cutoff` lists the legal moves left unsearched; :class:`Backup` gives the value
  backed up, the window on exit and the table flag (``bound``).

>>> from games import load_game
>>> from solver.minimax import alphabeta
>>> trace = Trace()
>>> alphabeta(load_game("textbook", tree=[[3, 12], [2, 4]]), observer=trace).value
3
>>> [type(e).__name__ for e in trace.events][:4]
['Enter', 'Enter', 'Enter', 'Leaf']
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
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
    "Iteration",
    "Leaf",
    "Observer",
    "OracleHit",
    "Trace",
    "last_iteration",
]

INF = float("inf")

Bound: TypeAlias = Literal["exact", "lower", "upper"]


@attrs.frozen
class Iteration:
    """The engine starts an iteration of iterative deepening; its root is the next Enter.

    ``depth`` is the iteration's depth in plies (None: one search to the end of the game).
    """

    depth: int | None


@attrs.frozen
class Enter:
    """The search entered a node, with the alpha-beta window it was given (±inf for minimax)."""

    node: int
    parent: int | None
    action: Any  # the move from the parent that led here; None at the root
    state: Any
    depth: int  # plies below the root
    player: Player  # the player to move here (at a chance node: whose turn the outcome decides)
    alpha: float = -INF
    beta: float = INF
    chance: bool = False  # chance moves here (expectiminimax); ``player`` chooses nothing
    probability: Any = None  # the probability of ``action`` when the parent is a chance node
    probe: bool = False  # Star2's probe: only the first move is searched, for a bound


@attrs.frozen
class Leaf:
    """A node evaluated without expanding it: a terminal state or the search horizon."""

    node: int
    value: float
    terminal: bool  # False: the depth horizon, valued by the evaluation function


@attrs.frozen
class Backup:
    """A node's value is final: the value backed up from its children, and the window on exit.

    ``best_action`` is the child chosen (the first best in ``actions`` order for the teaching
    searches; the engine's best or cutting move); ``exact`` is False when the value is only a
    bound because alpha-beta cut the node off or nothing reached the window. The engine also
    says which bound, in player 0's view, as ``bound``: ``"lower"`` (the true value is >= value:
    a fail-high at MAX, a fail-low at MIN), ``"upper"`` (<= value) or ``"exact"``, the flag its
    transposition table stores with the value; the teaching searches leave it None.
    """

    node: int
    value: float
    best_action: Any
    alpha: float = -INF
    beta: float = INF
    exact: bool = True
    bound: Bound | None = None


@attrs.frozen
class Cutoff:
    """Alpha-beta stopped expanding ``node``: ``value`` fell outside the window.

    At a MAX node the cut is ``value >= beta``; at a MIN node ``value <= alpha``. At a chance
    node (*-minimax) ``fails_high`` says which: True when the expectation is at least
    ``value >= beta`` whatever the outcomes left, False when it is at most ``value <= alpha``.
    ``pruned`` lists the actions never explored, in ``actions`` order.
    """

    node: int
    player: Player
    value: float
    alpha: float
    beta: float
    pruned: tuple[Any, ...]
    fails_high: bool | None = None

    @property
    def high(self) -> bool:
        """The cut is ``value >= beta`` (else ``value <= alpha``)."""
        return self.player == 0 if self.fails_high is None else self.fails_high

    @property
    def inequality(self) -> str:
        """The cut in the textbook's words, e.g. ``v=2 ≤ α=3``."""
        if self.high:
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


Event: TypeAlias = Iteration | Enter | Leaf | Backup | Cutoff | CacheHit | OracleHit
Observer: TypeAlias = Callable[[Event], None]


def last_iteration(events: Sequence[Event]) -> list[Event]:
    """The events of the last iteration of iterative deepening: the search that gave the answer.

    Everything after the last :class:`Iteration` event (all of ``events`` when there is none,
    as from the teaching searches).

    >>> from games import load_game
    >>> from solver.engine import search
    >>> trace = Trace()
    >>> search(load_game("textbook"), depth=2, observer=trace).depth
    2
    >>> last = last_iteration(trace.events)
    >>> last[0], sum(isinstance(e, Iteration) for e in last)
    (Enter(node=4, parent=None, action=None, state=(), depth=0, player=0, alpha=-inf, beta=inf, \
chance=False, probability=None, probe=False), 0)
    """
    starts = [i for i, event in enumerate(events) if isinstance(event, Iteration)]
    return list(events[starts[-1] + 1 :] if starts else events)


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
