"""The contract between the engine's driver and a node search, and the limits they share.

:func:`solver.engine.search` is one driver (iterative deepening, the root's windows, every root
move's value, plies to the end, the principal variation, the tie-breaking rules, time and node
limits, Ctrl-C) over a *node search*: what values a position to a remaining depth inside a
window, with its own transposition table and move ordering. The engine's own node search is
Python (:mod:`solver.python_search`); a game may offer a compiled one of its own through
:class:`solver.game.HasCompiledSearch`, and the driver treats both alike, so everything the
driver decides is written once.

Assumes two players, zero-sum, deterministic, perfect information. Values inside a node search
are negamax: from the view of the player named in the call.

>>> limits = Limits(time_limit=None, node_limit=10)
>>> limits.start()
>>> limits.reached(9), limits.reached(10)
(False, True)
>>> below(3) < 3 < above(3), below(2**60)
(True, -inf)
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable
from typing import Any, Final, Protocol, runtime_checkable

import attrs

from solver.capabilities import has_capability
from solver.game import Game, HasEvaluate, HasUtilityBounds
from solver.results import SearchStats

__all__ = ["Limits", "NodeSearch", "Outcomes", "SearchStopped", "above", "below", "outcomes"]

INF: Final = math.inf
_EXACT_INT: Final = 2**53


class SearchStopped(Exception):
    """A time or node limit was reached: the driver answers with its last completed depth."""


@attrs.define
class Limits:
    """A search's time and node limits, and its clock.

    The clock starts when :meth:`start` is called: the driver calls it once its node search is
    ready, so loading or compiling a game's kernel is never counted as search time.

    Attributes:
        time_limit: seconds of search allowed (None: no limit).
        node_limit: nodes allowed (None: no limit).
    """

    time_limit: float | None
    node_limit: int | None
    started: float = attrs.field(init=False, default=0.0)
    deadline: float | None = attrs.field(init=False, default=None)

    def start(self) -> None:
        """Start the clock now."""
        self.started = time.perf_counter()
        self.deadline = None if self.time_limit is None else self.started + self.time_limit

    def reached(self, nodes: int) -> bool:
        """Whether a search that has visited ``nodes`` nodes must stop now."""
        if self.node_limit is not None and nodes >= self.node_limit:
            return True
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def out_of_time(self) -> bool:
        """Whether the time limit has passed."""
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def elapsed(self) -> float:
        """Seconds since the clock started."""
        return time.perf_counter() - self.started


@runtime_checkable
class NodeSearch(Protocol):
    """What the driver asks of a node search (the Python one, or a game's compiled one).

    A node search keeps its own transposition table, history and counters for one search.
    It raises :class:`SearchStopped` when its :class:`Limits` are reached (looking at them at
    least every few milliseconds), and lets ``KeyboardInterrupt`` through, so the driver can
    answer with the last completed depth.

    A node search may also offer ``root_values(children, cps, player, depth, all_values)``:
    the driver's loop over the root's moves (the windows of :meth:`child_value` calls it would
    make, in its order) run in one call, answering per child its value, whether that value is
    exact (else an upper bound below the best) and whether its search met no horizon; the
    compiled one does (:meth:`solver.compiled.CompiledSearch.root_values`), so a search to the
    end costs one kernel entry an iteration instead of one a move or more. Likewise
    ``proved_line(state, player, depth, x)``: the driver's proved principal variation in one
    call (None: the driver's own loop).

    Attributes:
        trace: the observer's tracer (:class:`solver.python_search.Tracer`), or None; a
            compiled search has none (the engine only hands it searches with no observer).
        has_evaluate: there is an evaluation function for the horizon.
        max_depth: the deepest iteration it can search (``math.inf`` for no bound).
        memo_size: how many positions the driver may remember for plies (the table's size).
        nodes: nodes visited so far (the driver counts each root as one).
        horizon: horizon evaluations so far, and table answers that relied on some: an answer
            is exact when this count did not move while it was found.
    """

    trace: Any
    has_evaluate: bool
    max_depth: float
    memo_size: int
    nodes: int

    @property
    def horizon(self) -> int: ...

    def child_value(
        self, child: Any, cp: int, player: int, depth: float, alpha: Any, beta: Any
    ) -> Any:
        """The fail-soft value of ``child`` (``cp`` to move) to remaining ``depth``, from the
        parent's mover ``player``'s view, in the window ``(alpha, beta)`` of that view."""
        ...

    def child_ge(self, child: Any, cp: int, player: int, depth: float, x: Any) -> bool:
        """Whether the child's value, from ``player``'s view, is at least ``x`` (exactly)."""
        ...

    def evaluate(self, state: Any) -> Any:
        """The horizon's evaluation of ``state`` (player 0's view)."""
        ...

    def key(self, state: Any) -> Hashable:
        """The table key of ``state``."""
        ...

    def table_move(self, state: Any) -> Any:
        """The table's best move for ``state``, or None."""
        ...

    def new_iteration(self) -> None:
        """A new iteration of deepening starts (entries of older ones age)."""
        ...

    def stats(self) -> SearchStats:
        """What the search did so far."""
        ...


@attrs.frozen
class Outcomes:
    """The best and the worst value a node can have, for each player to move (negamax view).

    From the game's :class:`~solver.game.HasUtilityBounds`: player 0's best is ``hi`` and
    worst ``lo``; player 1's, in its negamax view, ``-lo`` and ``-hi``. Without bounds (or with
    an evaluation function not the game's own, which need not respect them) both are infinite
    and nothing is settled early.

    What the searches do with them: a child worth its mover's parent's ``best``, found with no
    horizon leaf behind it, *settles* the node (its value is proved: nothing can beat it, the
    siblings are not searched and the horizon leaves met before it do not make it inexact); a
    window entirely above ``best`` or below ``worst`` is answered at once. So a forced win or
    loss is proved exactly by a search as deep as the line, with its distance counted by the
    driver's plies pass.

    >>> from games import load_game
    >>> outcomes(load_game("tictactoe"), None)
    Outcomes(best=(1, 1), worst=(-1, -1))
    """

    best: tuple[Any, Any]
    worst: tuple[Any, Any]


UNBOUNDED: Final = Outcomes(best=(INF, INF), worst=(-INF, -INF))


def outcomes(game: Game[Any, Any], evaluate: Any) -> Outcomes:
    """The game's :class:`Outcomes` when the search's evaluation is the game's own (or none)."""
    if not has_capability(game, HasUtilityBounds):
        return UNBOUNDED
    if evaluate is not None and not (
        has_capability(game, HasEvaluate) and evaluate == game.evaluate
    ):
        return UNBOUNDED
    lo, hi = game.utility_bounds()
    return Outcomes(best=(hi, -lo), worst=(lo, -hi))


def below(x: Any) -> Any:
    """The greatest value surely below ``x`` with nothing between: a null window's alpha.

    For an int or float ``x`` (ints within 2**53) every int or float value below ``x`` is at most
    the float just below it, so ``(below, x)`` decides "at least ``x``?" exactly. For other number
    types there is no such neighbour and the answer is -inf (a one-sided window, still exact).
    """
    kind = type(x)
    if kind is float or (kind is int and -_EXACT_INT <= x <= _EXACT_INT):
        return math.nextafter(x, -INF)
    return -INF


def above(x: Any) -> Any:
    """The least value surely above ``x`` with nothing between (see :func:`below`), or +inf."""
    kind = type(x)
    if kind is float or (kind is int and -_EXACT_INT <= x <= _EXACT_INT):
        return math.nextafter(x, INF)
    return INF
