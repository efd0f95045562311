"""The engine's node search in Python: negamax alpha-beta with a bounded transposition table.

Assumes two players, zero-sum, deterministic, perfect information. :class:`PythonSearch` is the
node search the driver (:func:`solver.engine.search`) runs on any game (the contract:
:class:`solver.node_search.NodeSearch`): fail-soft negamax with principal-variation search, a
table whose entries store value, depth, bound flag (EXACT / LOWER / UPPER), best move and
whether the value is horizon-free, table move then history ordering, nodes one ply above the
horizon valued inline, and the oracle probed at every node; with ``symmetric`` (a game with
symmetries) the table is keyed by each position's class, its moves kept with the image that
stored them (:mod:`solver.symmetry`). With an observer it reports its
steps through :class:`Tracer` as :mod:`solver.events`; without one the only cost is a test of
a local variable at each node. See :mod:`solver.engine` for what the search guarantees.

>>> from games import load_game
>>> from solver.node_search import Limits
>>> from solver.results import SearchRequest
>>> game = load_game("textbook", tree=[[3, 12, 8], [2, 4, 6], [14, 5, 2]])
>>> limits = Limits(None, None)
>>> limits.start()
>>> nodes = PythonSearch(game, SearchRequest(), None, None, limits)
>>> root = game.initial_state()
>>> [nodes.child_value(game.result(root, a), 1, 0, 2, -math.inf, math.inf) for a in range(3)]
[3, 2, 2]
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Final

from solver.capabilities import has_capability
from solver.events import Backup, CacheHit, Cutoff, Enter, Iteration, Leaf, Observer, OracleHit
from solver.game import CapabilityError, Game, HasKey, HasPseudoActions, HasSymmetries
from solver.node_search import Limits, SearchStopped, above, below, outcomes
from solver.results import SearchRequest, SearchStats
from solver.symmetry import canonical_key, image_action
from solver.table import END, EXACT, LOWER, UPPER, TranspositionTable, bound_name

__all__ = ["CHECK_EVERY", "PythonSearch", "Tracer"]

INF: Final = math.inf

_UNSET: Final = object()

CHECK_EVERY: Final = 1024
"""How many nodes the search visits between two looks at the clock and the node limit."""

Evaluate = Callable[[Any], float]
Node = Callable[[Any, int, float, Any, Any], Any]
"""A node search: ``(state, player, depth, alpha, beta) -> value`` for ``player`` (negamax)."""


# -- events ----------------------------------------------------------------------------------


class Tracer:
    """Turns the search's steps into :mod:`solver.events`, in player 0's view, with node ids.

    The search calls it only when an observer was given (``PythonSearch.trace`` is None otherwise).
    A stack of the open nodes (id, and the move that led there) gives each node its parent and
    ply; the search names the move it is about to search (:attr:`action`) before it enters the
    child, and closing a node names its move again (for a re-search of the same child).
    """

    __slots__ = ("action", "next_id", "observer", "open")

    def __init__(self, observer: Observer) -> None:
        self.observer = observer
        self.next_id = 0
        self.open: list[tuple[int, Any]] = []
        self.action: Any = None

    def iteration(self, depth: float) -> None:
        """A new iteration of iterative deepening starts; its root is entered next."""
        self.open.clear()
        self.action = None
        self.observer(Iteration(None if depth == END else int(depth)))

    def enter(self, state: Any, mover: int, player: int, alpha: Any, beta: Any) -> None:
        """A node opens: ``mover`` to move there, its window in ``player``'s (negamax) view."""
        action = self.action if self.open else None
        self.open.append((self._new_node(state, mover, player, alpha, beta), action))

    def _new_node(self, state: Any, mover: int, player: int, alpha: Any, beta: Any) -> int:
        node = self.next_id
        self.next_id += 1
        parent, action = (self.open[-1][0], self.action) if self.open else (None, None)
        low, high = _window(player, alpha, beta)
        self.observer(Enter(node, parent, action, state, len(self.open), mover, low, high))
        return node

    def _close(self) -> int:
        """Close the open node: its id; the move that led to it is the current move again."""
        node, self.action = self.open.pop()
        return node

    def leaf(self, value: Any, terminal: bool) -> None:
        """The open node is a leaf worth ``value`` (player 0's view): terminal or horizon."""
        self.observer(Leaf(self._close(), value, terminal))

    def oracle(self, value: Any) -> None:
        """The oracle gave the open node its exact value (player 0's view)."""
        self.observer(OracleHit(self._close(), value))

    def inline_leaf(
        self, state: Any, mover: int, player: int, alpha: Any, beta: Any, value: Any, how: str
    ) -> None:
        """A child valued inline one ply above the horizon: entered and closed at once.

        ``how`` is "terminal", "horizon" or "oracle"; the window is the parent's (``player``'s).
        """
        node = self._new_node(state, mover, player, alpha, beta)
        if how == "oracle":
            self.observer(OracleHit(node, value))
        else:
            self.observer(Leaf(node, value, how == "terminal"))

    def hit(self, key: Hashable, value: Any, flag: int, player: int, depth: float) -> None:
        """A table entry answered for the open node (value and flag in ``player``'s view)."""
        bound = bound_name(_flag_view(player, flag))
        stored = -1 if depth == END else int(depth)
        node = self._close()
        self.observer(CacheHit(node, key, _view(player, value), bound, stored))  # type: ignore[arg-type]

    def cutoff(
        self, player: int, value: Any, alpha: Any, beta: Any, pruned: tuple[Any, ...]
    ) -> None:
        """The open node stops expanding: ``value`` reached ``beta`` (``player``'s view)."""
        low, high = _window(player, alpha, beta)
        self.observer(Cutoff(self.open[-1][0], player, _view(player, value), low, high, pruned))

    def backup(self, player: int, value: Any, move: Any, alpha: Any, beta: Any, flag: int) -> None:
        """The open node closes with its backed-up value and the flag the table stores."""
        low, high = _window(player, alpha, beta)
        bound = bound_name(_flag_view(player, flag))
        node = self._close()
        self.observer(
            Backup(node, _view(player, value), move, low, high, exact=flag == EXACT, bound=bound)  # type: ignore[arg-type]
        )


def _view(player: int, value: Any) -> Any:
    """A negamax value of ``player`` in player 0's view."""
    return -value if player else value


def _window(player: int, alpha: Any, beta: Any) -> tuple[Any, Any]:
    """A negamax window of ``player`` in player 0's view."""
    return (alpha, beta) if player == 0 else (-beta, -alpha)


def _flag_view(player: int, flag: int) -> int:
    """A bound flag of ``player``'s value in player 0's view (a bound flips with the sign)."""
    return flag if player == 0 or flag == EXACT else LOWER + UPPER - flag


# -- the search ------------------------------------------------------------------------------


class PythonSearch:
    """One search's state (table, history, counters) and the recursive alpha-beta.

    Values inside are negamax: from the view of ``player``, the player to move at the node
    searched. ``depth`` is the remaining depth (:data:`~solver.table.END` for no horizon).
    """

    def __init__(
        self,
        game: Game[Any, Any],
        request: SearchRequest,
        evaluate: Evaluate | None,
        trace: Tracer | None,
        limits: Limits,
        symmetric: bool = False,
    ) -> None:
        self.game = game
        # Pseudo-legal candidates when the game offers them (solver.game.HasPseudoActions):
        # a candidate is proved legal only when the search reaches it.
        self.candidates: Callable[[Any], Sequence[Any]]
        self.play: Callable[[Any, Any], Any]
        if has_capability(game, HasPseudoActions):
            self.candidates, self.play = game.pseudo_actions, game.try_result
        else:
            self.candidates, self.play = game.actions, game.result
        self.to_move = game.to_move
        self.is_terminal = game.is_terminal
        self.utility = game.utility
        self.has_evaluate = evaluate is not None
        self.evaluate: Evaluate = evaluate if evaluate is not None else self._no_evaluate
        self.oracle = request.oracle
        # Each player's best and worst possible value (negamax view): a child proved to reach
        # the best settles its node (solver.node_search.Outcomes).
        self.outcomes = outcomes(game, evaluate)
        self.keyf: Callable[[Any], Hashable] | None = (
            game.key if has_capability(game, HasKey) else None
        )
        # A symmetry-reduced table (a game with symmetries): one entry per class of symmetric
        # positions, under the class's key, its move kept with the image that found it and
        # carried over to the image searched (solver.symmetry); None: one entry per position.
        self.canonical: Callable[[Any], Hashable] | None = None
        if symmetric and has_capability(game, HasSymmetries):
            self.canonical = canonical_key(game, self.keyf)
        self.table_key = self.keyf if self.canonical is None else self.canonical
        self.table = TranspositionTable(request.table_size)
        self.history: tuple[defaultdict[Any, float], defaultdict[Any, float]] = (
            defaultdict(int),
            defaultdict(int),
        )
        self.trace = trace
        self.frontier = self._bind_frontier()
        self.negamax = self._bind_negamax()
        self.limits = limits
        self.max_depth = INF
        self.memo_size = request.table_size
        node_limit = request.node_limit
        self.check_at = CHECK_EVERY if node_limit is None else min(CHECK_EVERY, node_limit)
        # What the search did; ``horizon`` counts horizon evaluations (and table answers that
        # relied on some): an answer is exact when the count did not move while it was found.
        self.nodes = self.leaves = self.cutoffs = self.hits = self.horizon = 0

    # -- bookkeeping -----------------------------------------------------------------------

    def key(self, state: Any) -> Hashable:
        return state if self.keyf is None else self.keyf(state)

    def check(self) -> None:
        """Stop (:class:`SearchStopped`) at a limit; else look again a little later."""
        if self.limits.reached(self.nodes):
            raise SearchStopped
        self.check_at = self.nodes + CHECK_EVERY
        limit = self.limits.node_limit
        if limit is not None:
            self.check_at = min(self.check_at, limit)

    def table_move(self, state: Any) -> Any:
        """The table's best move for ``state``, or None."""
        tkey = self.table_key
        entry = self.table.entries.get(state if tkey is None else tkey(state))
        if entry is None or self.canonical is None:
            return None if entry is None else entry[3]
        return self.image_move(state, entry[3])

    def image_move(self, state: Any, stored: tuple[Any, Any]) -> Any:
        """A symmetry-reduced table's move ``(image, move)`` as a move of ``state``."""
        assert self.canonical is not None
        image, move = stored
        return image_action(self.canonical, image, move, state, self.candidates, self.play)

    def new_iteration(self) -> None:
        """A new iteration: the table's entries of older ones become the first to go."""
        self.table.new_generation()

    def stats(self) -> SearchStats:
        return SearchStats(
            nodes=self.nodes,
            leaves=self.leaves,
            cutoffs=self.cutoffs,
            table_hits=self.hits,
            seconds=self.limits.elapsed(),
            table_entries=len(self.table),
        )

    def _no_evaluate(self, state: Any) -> float:
        raise CapabilityError(
            f"game {self.game.name!r} has no evaluate() for the search horizon: pass evaluate= "
            "or a depth of None to search to the end"
        )

    # -- nodes -----------------------------------------------------------------------------

    def child_value(
        self, child: Any, cp: int, player: int, depth: float, alpha: Any, beta: Any
    ) -> Any:
        """A child's fail-soft value from the parent's (``player``'s) view, window mapped."""
        if depth <= 0:
            return self.leaf(child, cp, player, alpha, beta)
        sub = self.frontier if depth == 1 else self.negamax
        if cp == player:
            return sub(child, cp, depth, alpha, beta)
        return -sub(child, cp, depth, -beta, -alpha)

    def leaf(self, state: Any, mover: int, player: int, alpha: Any, beta: Any) -> Any:
        """A node at the horizon (remaining depth 0): its value for the parent's ``player``."""
        self.nodes = nodes = self.nodes + 1
        if nodes >= self.check_at:
            self.check()
        self.leaves += 1
        trace = self.trace
        if trace is not None:
            trace.enter(state, mover, player, alpha, beta)
        if self.is_terminal(state):
            v = self.utility(state)
        elif self.oracle is not None and (known := self.oracle(state)) is not None:
            v = known
        else:
            self.horizon += 1
            v = self.evaluate(state)
        if trace is not None:
            how = self.leaf_kind(state)
            trace.oracle(v) if how == "oracle" else trace.leaf(v, how == "terminal")
        return -v if player else v

    def leaf_kind(self, state: Any) -> str:
        """For the events: how a leaf got its value, "terminal", "oracle" or "horizon"."""
        if self.is_terminal(state):
            return "terminal"
        if self.oracle is not None and self.oracle(state) is not None:
            return "oracle"
        return "horizon"

    def _bind_frontier(self) -> Node:  # noqa: C901 (binds the hot loop below)
        """``self.frontier``: negamax at remaining depth 1, whose children are valued inline.

        No table probe or store and no move ordering: a leaf costs less than either, and the
        positions met one ply above the horizon are rarely met again. Bound once per search:
        the game's methods sit in the closure's cells, read faster than attributes.
        """
        search = self
        candidates, play, to_move = self.candidates, self.play, self.to_move
        is_terminal, utility, evaluate = self.is_terminal, self.utility, self.evaluate
        oracle = self.oracle
        tops, bottoms = self.outcomes.best, self.outcomes.worst

        def frontier(  # noqa: C901 (the search's hot loop: inline, one call per node)
            state: Any, player: int, depth: float, alpha: Any, beta: Any
        ) -> Any:
            top = tops[player]
            if alpha >= top:  # nothing can beat alpha here: proved at once, no node searched
                return top
            if beta <= bottoms[player]:
                return bottoms[player]
            search.nodes = nodes = search.nodes + 1
            if nodes >= search.check_at:
                search.check()
            trace = search.trace
            if trace is not None:
                trace.enter(state, player, player, alpha, beta)
            if oracle is not None and (known := oracle(state)) is not None:
                return search.oracle_value(known, player)
            acts = candidates(state)
            best = -INF
            best_move = None
            alpha0 = alpha
            legal = estimated = 0
            v: Any
            for a in acts:
                child = play(state, a)
                if child is None:  # a pseudo-legal candidate that is not legal
                    continue
                legal += 1
                sure = True  # a game value, not a horizon estimate
                if is_terminal(child):
                    v = utility(child)
                elif oracle is not None and (known := oracle(child)) is not None:
                    v = known
                else:
                    estimated += 1
                    sure = False
                    v = evaluate(child)
                if trace is not None:
                    trace.action = a
                    how = search.leaf_kind(child)
                    trace.inline_leaf(child, to_move(child), player, alpha, beta, v, how)
                if player:
                    v = -v
                if v > best:
                    best = v
                    best_move = a
                    if sure and v >= top:  # the best possible, proved: the estimates do not count
                        estimated = 0
                        if v >= beta and a != acts[-1]:
                            search.cutoffs += 1
                            if trace is not None:
                                trace.cutoff(
                                    player, v, alpha, beta, search.unsearched(state, acts, a)
                                )
                        break
                    if v > alpha:
                        if v >= beta:
                            if a != acts[-1]:
                                search.cutoffs += 1
                                if trace is not None:
                                    trace.cutoff(
                                        player, v, alpha, beta, search.unsearched(state, acts, a)
                                    )
                            break
                        alpha = v
            if not legal:  # no candidate was legal (or none at all): a terminal state
                return search.terminal_value(state, player)
            search.nodes += legal  # the leaves, counted once per node rather than one by one
            search.leaves += legal
            search.horizon += estimated
            if trace is not None:
                flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
                trace.backup(player, best, best_move, alpha, beta, flag)
            return best

        return frontier

    def _bind_negamax(self) -> Node:  # noqa: C901 (binds the hot loop below)
        """``self.negamax``: the fail-soft alpha-beta value of a node for its mover, depth >= 2.

        Principal-variation search: the first legal child with the full window, the others
        with a null window just above alpha, searched again with ``(value, beta)`` when they
        beat it. The table answers when its entry settles the question asked (searched to
        this depth, or horizon-free to no more, and its bound decides the window); otherwise
        its move is searched first and the others by history, sorted only if it did not cut.
        """
        search = self
        candidates, play, to_move = self.candidates, self.play, self.to_move
        oracle, tkey, histories, frontier = self.oracle, self.table_key, self.history, self.frontier
        symmetric = self.canonical is not None
        table = self.table
        entries, size = table.entries, table.size
        tops, bottoms = self.outcomes.best, self.outcomes.worst

        def negamax(  # noqa: C901 (the search's hot loop: inline, one call per node)
            state: Any, player: int, depth: float, alpha: Any, beta: Any
        ) -> Any:
            top = tops[player]
            if alpha >= top:  # nothing can beat alpha here: proved at once, no node searched
                return top
            if beta <= bottoms[player]:
                return bottoms[player]
            search.nodes = nodes = search.nodes + 1
            if nodes >= search.check_at:
                search.check()
            trace = search.trace
            if trace is not None:
                trace.enter(state, player, player, alpha, beta)
            if oracle is not None and (known := oracle(state)) is not None:
                return search.oracle_value(known, player)
            key = state if tkey is None else tkey(state)
            entry = entries.get(key)
            hint = None
            if entry is not None:
                value, stored_depth, flag, hint, free, _ = entry
                # It answers when searched to this depth, or horizon-free to no more than it, and
                # its value settles the window.
                if (stored_depth == depth or (free and stored_depth <= depth)) and (
                    flag == EXACT or (value >= beta if flag == LOWER else value <= alpha)
                ):
                    return search.table_value(key, value, stored_depth, flag, free, player)
                if symmetric:  # the move of the image that stored it, as a move here
                    hint = search.image_move(state, hint)
            acts = candidates(state)
            if not acts:
                return search.terminal_value(state, player)
            horizon_before = search.horizon
            history = histories[player]
            rest = False  # the table's move is searched first, the others sorted only if needed
            if len(acts) < 2:
                order = list(acts)
            elif hint is not None and hint in acts:
                order = [hint]
                rest = True
            else:
                order = sorted(acts, key=history.__getitem__, reverse=True)
            best = -INF
            best_move = order[0]
            alpha0 = alpha
            legal = 0  # children searched (a pseudo-legal candidate may turn out illegal)
            d1 = depth - 1
            sub = frontier if d1 == 1 else negamax
            nw_of: Any = _UNSET
            nw: Any = beta
            for a in order:
                child = play(state, a)
                if child is not None:
                    legal += 1
                    cp = to_move(child)
                    h = search.horizon
                    if trace is not None:
                        trace.action = a
                    if legal == 1:  # the first child with the full window
                        v = (
                            sub(child, cp, d1, alpha, beta)
                            if cp == player
                            else -sub(child, cp, d1, -beta, -alpha)
                        )
                    else:  # the others with a null window above alpha, again if they beat it
                        if alpha is not nw_of:  # alpha changed: its null window too
                            nw_of = alpha
                            nw = above(alpha)
                            if nw >= beta:
                                nw = beta
                        if cp == player:
                            v = sub(child, cp, d1, alpha, nw)
                            if alpha < v < beta and nw < beta:  # the re-search alone decides
                                h = search.horizon
                                v = sub(child, cp, d1, v, beta)
                        else:
                            v = -sub(child, cp, d1, -nw, -alpha)
                            if alpha < v < beta and nw < beta:
                                h = search.horizon
                                v = -sub(child, cp, d1, -beta, -v)
                    if v > best:
                        best = v
                        best_move = a
                        if v >= top and search.horizon == h:  # settled: nothing can beat it
                            search.horizon = horizon_before  # the siblings' horizons do not count
                            if v >= beta and (rest or a != order[-1]):
                                search.cutoffs += 1
                                if trace is not None:
                                    trace.cutoff(
                                        player, v, alpha, beta, search.unsearched(state, order, a)
                                    )
                            history[a] += depth * depth if depth < 64 else 4096
                            break
                        if v > alpha:
                            if v >= beta:
                                if rest or a != order[-1]:
                                    search.cutoffs += 1
                                    if trace is not None:
                                        trace.cutoff(
                                            player,
                                            v,
                                            alpha,
                                            beta,
                                            search.unsearched(state, order, a),
                                        )
                                history[a] += depth * depth if depth < 64 else 4096
                                break
                            alpha = v
                if rest:  # the table's move did not cut off: now the others, by history
                    rest = False
                    others = [b for b in acts if b != a]
                    others.sort(key=history.__getitem__, reverse=True)
                    order.extend(others)
            if not legal:  # no candidate was legal: a terminal state
                return search.terminal_value(state, player)
            flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
            free = search.horizon == horizon_before
            # TranspositionTable.store, inline: one per node searched in full
            move = (state, best_move) if symmetric else best_move
            entries[key] = (best, depth, flag, move, free, table.generation)
            table.stores += 1
            if len(entries) > size:
                table.make_room()
            if trace is not None:
                trace.backup(player, best, best_move, alpha, beta, flag)
            return best

        return negamax

    def terminal_value(self, state: Any, player: int) -> Any:
        """A node with no legal move: its utility for ``player``."""
        self.leaves += 1
        v = self.utility(state)
        if self.trace is not None:
            self.trace.leaf(v, True)
        return -v if player else v

    def oracle_value(self, known: Any, player: int) -> Any:
        """A node the oracle covers: its exact value for ``player``; the line ends here."""
        self.leaves += 1
        if self.trace is not None:
            self.trace.oracle(known)
        return -known if player else known

    def table_value(
        self, key: Hashable, value: Any, depth: float, flag: int, free: bool, player: int
    ) -> Any:
        """A node the table answered: the stored value (a horizon value unless ``free``)."""
        self.hits += 1
        if not free:
            self.horizon += 1
        if self.trace is not None:
            self.trace.hit(key, value, flag, player, depth)
        return value

    def unsearched(self, state: Any, order: Sequence[Any], last: Any) -> tuple[Any, ...]:
        """For a cut-off's event: the legal moves not searched, in ``actions`` order."""
        searched = set(order[: list(order).index(last) + 1])
        return tuple(a for a in self.game.actions(state) if a not in searched)

    def child_ge(self, child: Any, cp: int, player: int, depth: float, x: Any) -> bool:
        """Whether the child's value, from ``player``'s view, is at least ``x`` (exactly).

        A null window ``(below(x), x)`` when :func:`~solver.node_search.below` gives one, else
        ``(-inf, x)``.
        """
        return bool(self.child_value(child, cp, player, depth, below(x), x) >= x)
