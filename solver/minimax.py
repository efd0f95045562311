"""The teaching searches: minimax and alpha-beta in the textbook's max_value/min_value form.

Assumes two players, zero-sum, deterministic, perfect information; values are from player 0's
(MAX's) point of view, as in the textbook trees. This module is the project's oracle: it is
written to be read beside AIMA 4e Figures 5.3 (minimax) and 5.7 (alpha-beta), not to be fast
(see :mod:`solver.engine` for the fast search).

The book writes MAX-VALUE and MIN-VALUE twice, once per algorithm. Here one pair serves both:
minimax is alpha-beta that never prunes. For :func:`minimax` the window stays at
(-inf, +inf) and no cut is ever taken; every line alpha-beta adds sits under ``if self.prune``.

What the searches share:

* ``depth=None`` searches to the end of the game. The searches recurse once per ply, so that
  needs a game without cycles and of modest depth (tic-tac-toe has 9 plies); otherwise pass a
  ``depth`` and an evaluation function for the horizon (``evaluate=``, default
  ``game.evaluate``).
* Ties go to the first best action in ``actions`` order (an action replaces the best so far
  only when it is strictly better).
* An optional ``observer`` receives every step as an event (:mod:`solver.events`): ``Enter``
  for every node, ``Leaf`` for terminal and horizon nodes, ``Cutoff`` when alpha-beta stops
  expanding a node (with the actions it never explored), ``Backup`` when a node's value is final.
  Without an observer no event is built.

Alpha-beta's values are fail-soft: a node whose value falls outside the window it was entered
with may return a bound, not the exact value (a value <= alpha means the true value is at most
that; a value >= beta, at least that). A bound can pass up through nodes that were not cut
themselves. The root's value is always exact, and so is every value on the principal variation.
``Backup.exact`` says which values are exact: a node's value is exact when no action was pruned
there and the child that gave the value was exact (every value strictly inside its window is).

>>> from games import load_game
>>> game = load_game("textbook")  # AIMA Figure 5.2: [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
>>> result = minimax(game)
>>> result.value, result.best_action, result.pv, result.stats.nodes
(3, 0, (0, 0), 13)
>>> pruned = alphabeta(game)
>>> pruned.value, pruned.stats.nodes, pruned.stats.cutoffs
(3, 11, 1)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeAlias, TypeVar

from solver.chance import refuse_chance
from solver.events import INF, Backup, Cutoff, Enter, Leaf, Observer
from solver.game import MAX, MIN, CapabilityError, Game, HasEvaluate
from solver.results import SearchResult, SearchStats

__all__ = ["alphabeta", "minimax"]

S = TypeVar("S")
A = TypeVar("A")

Evaluate: TypeAlias = Callable[[S], float]
"""A heuristic value for a state at the search horizon, from player 0's point of view."""


def minimax(
    game: Game[S, A],
    state: S | None = None,
    *,
    depth: int | None = None,
    evaluate: Evaluate[S] | None = None,
    observer: Observer | None = None,
) -> SearchResult:
    """Minimax search (AIMA 4e Figure 5.3): the value and best action for the player to move.

    Args:
        game: the rulebook.
        state: where to search from; None for ``game.initial_state()``.

    Keyword Args:
        depth: how many plies to look ahead; None to search to the end of the game.
        evaluate: the value of a non-terminal state at the horizon (player 0's view); default
            ``game.evaluate``. Only needed when ``depth`` is given.
        observer: called with every search event; None to record nothing.

    Returns:
        A :class:`SearchResult` whose ``action_values`` holds every root action's backed-up
        value and ``best_actions`` every root action that keeps the value. ``exact`` is True when
        no horizon evaluation was used; ``plies`` is then the length of the principal variation.

    Raises:
        CapabilityError: the search reached its horizon and there is no evaluation function.

    >>> from games import load_game
    >>> result = minimax(load_game("textbook", tree=[[3, 12], [2, 4]]))
    >>> result.value, result.best_action, dict(result.action_values)
    (3, 0, {0: 3, 1: 2})
    """
    refuse_chance(game, "minimax")
    return _Search(game, depth, evaluate, observer, prune=False).run(state)


def alphabeta(
    game: Game[S, A],
    state: S | None = None,
    *,
    depth: int | None = None,
    evaluate: Evaluate[S] | None = None,
    observer: Observer | None = None,
) -> SearchResult:
    """Alpha-beta search (AIMA 4e Figure 5.7): minimax's value and move, visiting fewer nodes.

    Takes the same arguments and gives the same ``value``, ``best_action`` and ``pv`` as
    :func:`minimax`. Root actions after the first are searched with the window narrowed by
    their elder siblings, so a later action's value may be only a bound; ``action_values``
    therefore holds only the root actions whose values are exact, and ``best_actions`` is left
    empty (alpha-beta cannot tell every action that keeps the value without a wider search).
    ``exact`` is True when no horizon evaluation was used; as pruning may skip every node at the
    horizon, alpha-beta can be exact (its value the game's) where minimax at that depth is not.

    Raises:
        CapabilityError: the search reached its horizon and there is no evaluation function.

    >>> from games import load_game
    >>> result = alphabeta(load_game("textbook", tree=[[3, 12], [2, 4]]))
    >>> result.value, dict(result.action_values), result.stats.cutoffs
    (3, {0: 3}, 1)
    """
    refuse_chance(game, "alpha-beta")
    return _Search(game, depth, evaluate, observer, prune=True).run(state)


class _Search:
    """One search: the rulebook, the depth limit, the counters, and max_value/min_value.

    Each node is valued by :meth:`value`, which numbers it, reports it, and either values it as a
    leaf (terminal: utility; at the horizon: evaluate) or hands it to :meth:`max_value` or
    :meth:`min_value`. Those return ``(v, pv, exact)``: the node's value, the moves along best play
    from it, and whether ``v`` is exact rather than an alpha-beta bound. (The book's MAX-VALUE
    calls MIN-VALUE directly because its players alternate; here every child goes through
    :meth:`value`, which asks the game whose move it is, so games where a player may move twice
    in a row work too.)

    :mod:`solver.expectiminimax` adds chance nodes: a subclass sets ``chance`` (which states
    are chance nodes) and :meth:`chance_value`; here no state is one.
    """

    chance: Callable[[Any], bool] | None = None

    def __init__(
        self,
        game: Game[Any, Any],
        depth: int | None,
        evaluate: Evaluate[Any] | None,
        observer: Observer | None,
        prune: bool,
    ) -> None:
        if depth is not None and depth < 0:
            raise ValueError(f"invalid depth {depth!r}: use a number of plies >= 0, or None")
        self.game = game
        self.depth = depth
        self.evaluate = evaluate
        if evaluate is None and isinstance(game, HasEvaluate):
            self.evaluate = game.evaluate
        self.observer = observer
        self.prune = prune
        self.nodes = 0  # also the id of the next node entered
        self.leaves = 0
        self.cutoffs = 0
        self.horizon_leaves = 0
        self.root_children: dict[Any, tuple[float, tuple[Any, ...], bool]] = {}

    def run(self, state: Any) -> SearchResult:
        """Search from ``state`` (None: the initial state) and gather the result."""
        if state is None:
            state = self.game.initial_state()
        start = time.perf_counter()
        v, pv, _ = self.value(state, -INF, INF, 0, None, None)
        seconds = time.perf_counter() - start
        exact = self.horizon_leaves == 0
        action_values = {a: w for a, (w, _, ok) in self.root_children.items() if ok}
        best_actions: tuple[Any, ...] = ()
        if not self.prune:
            best_actions = tuple(a for a, w in action_values.items() if w == v)
        action_plies: dict[Any, int | None] = {}
        if exact:
            children = self.root_children.items()
            action_plies = {a: 1 + len(line) for a, (_, line, ok) in children if ok}
        return SearchResult(
            value=v,
            best_action=pv[0] if pv else None,
            pv=pv,
            action_values=action_values,
            stats=SearchStats(
                nodes=self.nodes, leaves=self.leaves, cutoffs=self.cutoffs, seconds=seconds
            ),
            best_actions=best_actions,
            depth=self.depth,
            plies=len(pv) if exact else None,
            action_plies=action_plies,
            exact=exact,
        )

    def value(
        self,
        state: Any,
        alpha: float,
        beta: float,
        ply: int,
        parent: int | None,
        action: Any,
        probability: Any = None,
    ) -> tuple[float, tuple[Any, ...], bool]:
        """Enter a node: value it as a leaf, or by max_value/min_value for the player to move
        (chance_value at a chance node; ``probability``: of ``action``, from a chance node)."""
        game, observer = self.game, self.observer
        node = self.nodes
        self.nodes += 1
        player = game.to_move(state)
        chance = self.chance is not None and self.chance(state)
        if observer is not None:
            observer(
                Enter(node, parent, action, state, ply, player, alpha, beta, chance, probability)
            )
        if game.is_terminal(state):
            v = game.utility(state)
            self.leaf(node, v, terminal=True)
            return v, (), True
        if self.depth is not None and ply >= self.depth:
            v = self.horizon_value(state)
            self.leaf(node, v, terminal=False)
            return v, (), True
        if chance:
            return self.chance_value(node, state, alpha, beta, ply)
        if player == MAX:
            return self.max_value(node, state, alpha, beta, ply)
        return self.min_value(node, state, alpha, beta, ply)

    def max_value(
        self, node: int, state: Any, alpha: float, beta: float, ply: int
    ) -> tuple[float, tuple[Any, ...], bool]:
        """MAX moves: the largest child value (AIMA's MAX-VALUE; cut when ``v >= beta``)."""
        v, pv, exact = -INF, (), True
        actions = self.game.actions(state)
        for i, a in enumerate(actions):
            v2, pv2, exact2 = self.value(self.game.result(state, a), alpha, beta, ply + 1, node, a)
            if ply == 0:
                self.root_children[a] = (v2, pv2, exact2)
            if i == 0 or v2 > v:  # the first action counts even if its value is -inf
                v, pv, exact = v2, (a, *pv2), exact2
            if self.prune:
                alpha = max(alpha, v)
                if v >= beta:
                    if self.cut(node, MAX, v, alpha, beta, actions[i + 1 :]):
                        exact = False  # the pruned actions might have raised v further
                    break
        self.backup(node, v, pv, alpha, beta, exact)
        return v, pv, exact

    def min_value(
        self, node: int, state: Any, alpha: float, beta: float, ply: int
    ) -> tuple[float, tuple[Any, ...], bool]:
        """MIN moves: the smallest child value (AIMA's MIN-VALUE; cut when ``v <= alpha``)."""
        v, pv, exact = INF, (), True
        actions = self.game.actions(state)
        for i, a in enumerate(actions):
            v2, pv2, exact2 = self.value(self.game.result(state, a), alpha, beta, ply + 1, node, a)
            if ply == 0:
                self.root_children[a] = (v2, pv2, exact2)
            if i == 0 or v2 < v:  # the first action counts even if its value is +inf
                v, pv, exact = v2, (a, *pv2), exact2
            if self.prune:
                beta = min(beta, v)
                if v <= alpha:
                    if self.cut(node, MIN, v, alpha, beta, actions[i + 1 :]):
                        exact = False  # the pruned actions might have lowered v further
                    break
        self.backup(node, v, pv, alpha, beta, exact)
        return v, pv, exact

    def chance_value(
        self, node: int, state: Any, alpha: float, beta: float, ply: int
    ) -> tuple[float, tuple[Any, ...], bool]:
        """Chance moves at ``node``: searches with chance nodes define it."""
        raise NotImplementedError("a search without chance nodes has no chance_value")

    def horizon_value(self, state: Any) -> float:
        """The evaluation function's value of a non-terminal state at the depth limit."""
        if self.evaluate is None:
            raise CapabilityError(
                f"game {self.game.name!r} has no evaluate() for the search horizon at "
                f"depth {self.depth!r}: pass evaluate= or a depth of None to search to the end"
            )
        self.horizon_leaves += 1
        return self.evaluate(state)

    def leaf(self, node: int, v: float, terminal: bool) -> None:
        """Count a leaf and report it."""
        self.leaves += 1
        if self.observer is not None:
            self.observer(Leaf(node, v, terminal))

    def cut(self, node: int, player: int, v: float, alpha: float, beta: float, rest: Any) -> bool:
        """Alpha-beta stops at ``node``: report the actions it prunes; True if there were any."""
        if not rest:
            return False  # the cut came at the last action: nothing is pruned
        self.cutoffs += 1
        if self.observer is not None:
            self.observer(Cutoff(node, player, v, alpha, beta, tuple(rest)))
        return True

    def backup(
        self, node: int, v: float, pv: tuple[Any, ...], alpha: float, beta: float, exact: bool
    ) -> None:
        """Report a node's final value, its best action and the window on exit."""
        if self.observer is not None:
            self.observer(Backup(node, v, pv[0] if pv else None, alpha, beta, exact))
