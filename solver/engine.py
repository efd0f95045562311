"""The fast search: negamax alpha-beta with a bounded transposition table and iterative deepening.

Assumes two players, zero-sum, deterministic, perfect information. Every value the engine
reports is from player 0's (MAX's) point of view; inside, the search is negamax (each node's
value from the view of its player to move), converted at the boundary. The players need not
alternate: a child whose mover is the same player is searched without negation.

What :func:`search` does, and the guarantees it gives:

* **Values equal the teaching minimax at the same depth.** Iterative deepening runs depths
  1, 2, 3, ... up to ``depth``. A transposition-table entry (:mod:`solver.table`) records its
  value as EXACT, a LOWER or an UPPER bound (a value found in a narrowed window is only a
  bound) and is used for a cut-off only when it answers the question asked: searched to the same
  remaining depth, or *horizon-free* (no horizon evaluation influenced it, so its value is the
  game-theoretic one) and searched to a remaining depth no greater than the one needed.
  Horizon-free entries survive from one iteration to the next; the others serve move ordering
  (the table's move first, then the history heuristic; the other moves are sorted only when the
  table's move did not cut off).
* **Exact for any real utilities.** Scores are the game's own numbers (ints, floats): no
  epsilon, no packing of values and plies into one number. The root is searched PVS-style:
  the first action with a full window, each later one with the narrowest window around
  ``best`` (from the float just below to the float just above: nothing lies between for int and
  float values; other number types get an infinite side), which says at once whether the action
  is worse, tied exactly, or better (then re-searched with ``(best, +inf)``). So
  ``best_actions`` is every root action whose value equals the root value, proved, not guessed;
  ``action_values`` holds the root actions whose values are exact (the value-keeping ones and
  any that raised the best; the others are known only to be worse, unless ``all_values=True``
  asks for a full-window search of each, as an analysis table wants).
* **Inside the tree** the search is principal-variation search: a node's first legal child
  with its full window, the others with a null window just above alpha (:func:`_above`),
  searched again with ``(value, beta)`` when they beat alpha (values stay exact, as at the
  root). A game offering :class:`~solver.game.HasPseudoActions` (Ayòayò) is searched through
  its pseudo-legal candidates: a candidate is proved legal only when the search reaches it,
  so pruned moves cost nothing; a node none of whose candidates is legal is terminal. A node one
  ply above the horizon values its children inline (no recursive call), in actions order, and
  neither probes nor fills the table: there a leaf costs less than a probe, a store or a sort.
* **Plies to the end** (``plies``, ``action_plies``, and the tie-break among value-keeping moves:
  :func:`solver.results.ply_preference`, win quickest, lose or draw slowest) are computed only
  when the value is exact, by a second pass that follows the value-keeping moves (each one
  proved by a search with a one-sided window) and backs up the preferred ply count, memoised per
  position. A draw's plies need every drawing line, which alpha-beta on one number cannot give
  soundly (both sides prefer the longer draw), hence the separate pass. Its cost is measured in
  the tests and the report; on tic-tac-toe it is a fraction of the value search.
* **Principal variation**: with exact plies, the line of preferred value-keeping moves (its
  length is ``plies``); otherwise the line of value-keeping moves (table move first), each proved
  by a one-sided search, to the horizon.
* **Exactness**: a result is ``exact`` when no horizon evaluation influenced it (counted as the
  search runs: horizon leaves, and table entries that were not horizon-free).
* **depth=None**: with a time or node limit, ``on_depth`` or an observer, iterative deepening
  1, 2, 3, ... that stops at the first depth whose answer is exact (plies included); with none
  of these (nothing could stop it early or watch it) one search straight to the end of the game
  (``depth`` None in the result): on tic-tac-toe a third of the nodes of deepening 1..9. On a
  game that cycles either form only ends by a limit; the direct one reports the cycle as a
  :class:`~solver.game.GameError` (Python's recursion limit), so give Ayòayò a depth or a limit.
* **plies=False** skips the plies pass: the value, ``best_actions`` and a proved PV only
  (tic-tac-toe's root value then costs a quarter of the full answer).
* **Limits**: ``time_limit`` (seconds) and ``node_limit`` are checked every
  :data:`CHECK_EVERY` nodes (a node count may overshoot by at most one node's children);
  reaching one, or Ctrl-C (``KeyboardInterrupt``), returns the last completed depth's result
  with ``complete=False``. If not even depth 1 completed, the result has the first legal action
  as ``best_action`` and ``pv``, the root's evaluation as ``value`` (NaN when the game has no
  evaluation function), ``depth=0``, empty ``best_actions`` and ``complete=False``.
* **Games without evaluate**: a depth-limited search needs one at the horizon. Without one,
  ``depth=None`` is one search to the end (no deepening) and ``depth=d`` one search to depth
  ``d`` that raises :class:`~solver.game.CapabilityError` if it meets the horizon.
* **Cycles** (Ayòayò can repeat positions): values depend on the position only (the protocol has
  no history, so there is no graph-history interaction: a repeated position is just searched
  again). A depth-limited search always ends. With ``depth=None`` on a game whose answer never
  becomes exact the deepening goes on until a limit or Ctrl-C; without an evaluation function
  a cycle would recurse without end and is reported as a :class:`~solver.game.GameError`.
* **Observer**: with one, a separate instrumented search reports Enter/Leaf/Backup/Cutoff/
  CacheHit events (values and windows from player 0's view; node ids numbered across all
  iterations; every iteration's root has ``parent=None``). The fast path is chosen once, so
  without an observer nothing is paid. The plies and PV passes are not reported.
* **Garbage collection** is switched off while a search runs (and back on after it, if it was
  on): the search allocates many small tuples but no reference cycles, and the collector's
  passes over a large table cost ~10% of the time on Ayòayò.
* **seed**: among equally preferred optimal moves the choice is random, reproducible for a seed;
  without one it is the first in ``actions`` order.

>>> from games import load_game
>>> result = search(load_game("textbook", tree=[[3, 12, 8], [2, 4, 6], [14, 5, 2]]))
>>> result.value, result.best_action, result.best_actions, result.pv, result.depth
(3, 0, (0,), (0, 0), None)
>>> search(load_game("textbook"), depth=2).depth  # deepened to 2 plies (horizon-free)
2
>>> game = load_game("tictactoe-bitboard")
>>> result = search(game, game.parse_state("xx./oo./..."))
>>> result.value, result.best_action, result.plies, result.exact
(1, 2, 1, True)
>>> result = search(game, game.parse_state("xo./.x./..."))  # O loses: the slowest loss
>>> result.best_actions, result.best_action, dict(result.action_plies)[8], result.plies
((2, 3, 5, 6, 7, 8), 8, 4, 4)
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, Final

from solver.events import Backup, CacheHit, Cutoff, Enter, Leaf, Observer, OracleHit
from solver.game import (
    CapabilityError,
    Game,
    GameError,
    HasEvaluate,
    HasKey,
    HasNativeSearch,
    HasPseudoActions,
)
from solver.results import SearchRequest, SearchResult, SearchStats, ply_preference
from solver.table import END, EXACT, LOWER, UPPER, TranspositionTable, bound_name

__all__ = ["CHECK_EVERY", "search"]

INF: Final = math.inf

_EXACT_INT: Final = 2**53

_UNSET: Final = object()

CHECK_EVERY: Final = 1024
"""How many nodes the search visits between two looks at the clock and the node limit."""

Evaluate = Callable[[Any], float]
Oracle = Callable[[Any], "float | None"]
"""``oracle(state)``: the exact game value (player 0's view) of a covered position, else None."""
OnDepth = Callable[[SearchResult], None]


class _Stop(Exception):
    """A time or node limit was reached."""


def search(
    game: Game[Any, Any],
    state: Any = None,
    *,
    depth: int | None = None,
    time_limit: float | None = None,
    node_limit: int | None = None,
    seed: int | None = None,
    table_size: int = 1 << 20,
    evaluate: Evaluate | None = None,
    observer: Observer | None = None,
    on_depth: OnDepth | None = None,
    oracle: Oracle | None = None,
    plies: bool = True,
    all_values: bool = False,
    native: bool = True,
) -> SearchResult:
    """The value, every optimal move and the preferred one, by iterative-deepening alpha-beta.

    Every option after ``state`` is keyword-only.

    Args:
        game: the rulebook.
        state: where to search from; None for ``game.initial_state()``.
        depth: the deepest iteration, in plies; None to deepen until the answer is exact.
        time_limit: seconds after which to stop and answer with the last completed depth.
        node_limit: nodes after which to stop likewise.
        seed: break ties among equally preferred optimal moves at random, reproducibly.
        table_size: the transposition table's size in entries (it never grows past it).
        evaluate: the horizon's evaluation function (player 0's view); default
            ``game.evaluate``.
        observer: called with every search event; None for the fast path.
        on_depth: called with the result of each completed depth.
        oracle: ``oracle(state)`` gives the exact game value (player 0's view) of the positions
            it covers (an endgame tablebase), None elsewhere. Probed at the root (when it covers
            the root and its children, the answer comes from it at once: exact, every move's
            value, plies unknown) and at every node inside the search (the line ends there with
            an exact value: no horizon, so the answer can be exact sooner).
        plies: compute plies to the end (``plies``, ``action_plies``) and prefer among the
            value-keeping moves by them; False for the value and ``best_actions`` only (then
            ``best_action`` is the first of them, or a seeded random one, and ``pv`` a proved
            value-keeping line).
        all_values: give every root action an exact value in ``action_values`` (an analysis
            table), at the cost of a full-window search of each worse action; by default a
            worse action is only proved worse.
        native: hand the search to the game's own compiled search when it has one
            (:class:`~solver.game.HasNativeSearch`), there is no observer and the evaluation
            is the game's own; False for this Python engine always (to compare the two).

    Returns:
        A :class:`~solver.results.SearchResult`; see the module docstring for what each field
        guarantees.

    Raises:
        ValueError: a negative depth, a non-positive limit or table size.
        TypeError: an option of the wrong kind (a seed that is not an int, a callback that is
            not callable).
        CapabilityError: the search met its horizon and there is no evaluation function.
        GameError: a search to the end that never ends (the game cycles), or an oracle
            whose value at the root no move reaches.

    >>> from games import load_game
    >>> game = load_game("tictactoe-bitboard")
    >>> result = search(game, game.parse_state("x.o/.../..."))
    >>> result.value, result.best_actions, result.best_action, result.plies, result.pv
    (1, (3, 6, 8), 3, 5, (3, 6, 4, 8, 5))
    """
    request = SearchRequest(
        depth=depth,
        time_limit=time_limit,
        node_limit=node_limit,
        seed=seed,
        table_size=table_size,
        on_depth=on_depth,
        oracle=oracle,
        plies=plies,
        all_values=all_values,
    )
    if evaluate is not None and not callable(evaluate):
        raise TypeError(f"invalid evaluate {evaluate!r}: use a function of a state, or None")
    if observer is not None and not callable(observer):
        raise TypeError(f"invalid observer {observer!r}: use a function of an event, or None")
    if state is None:
        state = game.initial_state()
    if native and observer is None and isinstance(game, HasNativeSearch):
        own = isinstance(game, HasEvaluate) and evaluate == game.evaluate
        if evaluate is None or own:
            answer = game.native_search(state, request)
            if answer is not None:
                return answer
    table = TranspositionTable(table_size)
    if evaluate is None and isinstance(game, HasEvaluate):
        evaluate = game.evaluate
    engine = _Engine(game, table, evaluate, observer, time_limit, node_limit, all_values, oracle)
    collecting = gc.isenabled()
    gc.disable()  # the search makes no reference cycles; collections would only cost time
    try:
        return engine.run(state, depth, seed, on_depth, plies)
    finally:
        if collecting:
            gc.enable()


class _Engine:
    """One search: the closures of the hot loop, their counters, and the iteration driver."""

    def __init__(
        self,
        game: Game[Any, Any],
        table: TranspositionTable,
        evaluate: Evaluate | None,
        observer: Observer | None,
        time_limit: float | None,
        node_limit: int | None,
        all_values: bool = False,
        oracle: Oracle | None = None,
    ) -> None:
        self.game = game
        self.oracle = oracle
        self.oracle_ended_plies = False  # a plies line ended at a covered position
        self.all_values = all_values
        self.table = table
        self.has_evaluate = evaluate is not None
        self.evaluate = evaluate
        self.observer = observer
        self.time_limit = time_limit
        self.node_limit = node_limit
        self.start = time.perf_counter()
        self.deadline = None if time_limit is None else self.start + time_limit
        self.keyf: Callable[[Any], Hashable] | None = game.key if isinstance(game, HasKey) else None
        self.plies_memo: dict[Hashable, tuple[int, Any, float]] = {}
        self._build()

    # -- the hot loop -----------------------------------------------------------------------------

    def _build(self) -> None:
        """Bind the game's methods and the table to local names and define the searches."""
        game = self.game
        actions = game.actions
        result = game.result
        # The fast path generates pseudo-legal candidates when the game offers them
        # (solver.game.HasPseudoActions): a candidate is proved legal only when it is reached.
        candidates: Callable[[Any], Sequence[Any]]
        play: Callable[[Any, Any], Any]
        if isinstance(game, HasPseudoActions):
            candidates = game.pseudo_actions
            play = game.try_result
        else:
            candidates = actions
            play = result
        to_move = game.to_move
        is_terminal = game.is_terminal
        utility = game.utility
        keyf = self.keyf
        table = self.table
        tt = table.entries
        tt_get = tt.get
        size = table.size
        make_room = table.make_room
        observer = self.observer
        deadline = self.deadline
        node_limit = self.node_limit
        user_evaluate = self.evaluate
        oracle = self.oracle
        name = game.name
        above = _above

        def no_evaluate(state: Any) -> float:
            raise CapabilityError(
                f"game {name!r} has no evaluate() for the search horizon: pass evaluate= "
                "or a depth of None to search to the end"
            )

        evaluate = user_evaluate if user_evaluate is not None else no_evaluate
        history: tuple[defaultdict[Any, float], defaultdict[Any, float]] = (
            defaultdict(int),
            defaultdict(int),
        )
        nodes = leaves = cutoffs = hits = horizon = stores = overwrites = 0
        next_node = 0  # node ids for the observer
        check_at = CHECK_EVERY if node_limit is None else min(CHECK_EVERY, node_limit)
        generation = 0

        def check() -> None:
            nonlocal check_at
            if node_limit is not None and nodes >= node_limit:
                raise _Stop
            if deadline is not None and time.perf_counter() >= deadline:
                raise _Stop
            check_at = nodes + CHECK_EVERY
            if node_limit is not None:
                check_at = min(check_at, node_limit)

        def frontier(state: Any, player: int, depth: float, alpha: Any, beta: Any) -> Any:
            """``negamax`` at remaining depth 1: the children are horizon leaves, valued here.

            No table probe or store and no move ordering: a leaf costs less than either, and
            the positions met one ply above the horizon are rarely met again.
            """
            nonlocal nodes, leaves, cutoffs, horizon
            nodes += 1
            if nodes >= check_at:
                check()
            if oracle is not None and (known := oracle(state)) is not None:
                leaves += 1
                return -known if player else known
            acts = candidates(state)
            best = -INF
            legal = estimated = 0
            v: Any
            for a in acts:
                child = play(state, a)
                if child is None:  # a pseudo-legal candidate that is not legal
                    continue
                legal += 1
                if is_terminal(child):
                    v = utility(child)
                elif oracle is not None and (v := oracle(child)) is not None:
                    pass
                else:
                    estimated += 1
                    v = evaluate(child)
                if player:
                    v = -v
                if v > best:
                    best = v
                    if v > alpha:
                        if v >= beta:
                            if a != acts[-1]:
                                cutoffs += 1
                            break
                        alpha = v
            if not legal:  # no candidate was legal (or none at all): a terminal state
                leaves += 1
                return -utility(state) if player else utility(state)
            nodes += legal  # the leaves, counted once per node rather than one by one
            leaves += legal
            horizon += estimated
            return best

        def negamax(state: Any, player: int, depth: float, alpha: Any, beta: Any) -> Any:
            """Fail-soft alpha-beta value of ``state`` for ``player`` (to move), depth >= 2."""
            nonlocal nodes, leaves, cutoffs, hits, horizon, stores, overwrites
            nodes += 1
            if nodes >= check_at:
                check()
            if oracle is not None and (known := oracle(state)) is not None:
                leaves += 1
                return -known if player else known
            key = state if keyf is None else keyf(state)
            entry = tt_get(key)
            hint = None
            if entry is not None:
                stored = entry[1]
                if stored == depth or (entry[4] and stored <= depth):
                    value = entry[0]
                    flag = entry[2]
                    if flag == EXACT or (value >= beta if flag == LOWER else value <= alpha):
                        hits += 1
                        if not entry[4]:
                            horizon += 1
                        return value
                hint = entry[3]
            acts = candidates(state)
            if not acts:
                leaves += 1
                return -utility(state) if player else utility(state)
            start_horizon = horizon
            hist = history[player]
            rest = False  # the table's move is searched first, the others sorted only if needed
            if len(acts) < 2:
                order = list(acts)
            elif hint is not None and hint in acts:
                order = [hint]
                rest = True
            else:
                order = sorted(acts, key=hist.__getitem__, reverse=True)
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
                    if legal == 1:  # principal variation search: the first child in full
                        if cp == player:
                            v = sub(child, cp, d1, alpha, beta)
                        else:
                            v = -sub(child, cp, d1, -beta, -alpha)
                    else:  # the others with a null window above alpha, again if they beat it
                        if alpha is not nw_of:  # alpha changed: its null window too
                            nw_of = alpha
                            nw = above(alpha)
                            if nw >= beta:
                                nw = beta
                        if cp == player:
                            v = sub(child, cp, d1, alpha, nw)
                            if alpha < v < beta and nw < beta:
                                v = sub(child, cp, d1, v, beta)
                        else:
                            v = -sub(child, cp, d1, -nw, -alpha)
                            if alpha < v < beta and nw < beta:
                                v = -sub(child, cp, d1, -beta, -v)
                    if v > best:
                        best = v
                        best_move = a
                        if v > alpha:
                            if v >= beta:
                                if rest or a != order[-1]:
                                    cutoffs += 1
                                hist[a] += depth * depth if depth < 64 else 4096
                                break
                            alpha = v
                if rest:  # the table's move did not cut off: now the others, by history
                    rest = False
                    others = [b for b in acts if b != a]
                    others.sort(key=hist.__getitem__, reverse=True)
                    order.extend(others)
            if not legal:  # no candidate was legal: a terminal state
                leaves += 1
                return -utility(state) if player else utility(state)
            flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
            tt[key] = (best, depth, flag, best_move, horizon == start_horizon, generation)
            stores += 1
            if entry is not None:
                overwrites += 1
            if len(tt) > size:
                make_room()
            return best

        def leaf(state: Any, player: int) -> Any:
            """A horizon (or terminal) node's value for ``player``."""
            nonlocal nodes, leaves, horizon
            nodes += 1
            if nodes >= check_at:
                check()
            leaves += 1
            if is_terminal(state):
                v = utility(state)
            elif oracle is not None and (known := oracle(state)) is not None:
                v = known
            else:
                horizon += 1
                v = evaluate(state)
            return -v if player else v

        def child_value(
            child: Any, cp: int, player: int, depth: float, alpha: Any, beta: Any
        ) -> Any:
            """A child's fail-soft value from the parent's (``player``'s) view, window mapped."""
            if depth <= 0:
                return leaf(child, player)
            sub = frontier if depth == 1 else negamax
            if cp == player:
                return sub(child, cp, depth, alpha, beta)
            return -sub(child, cp, depth, -beta, -alpha)

        # -- the instrumented twin (observer given): same algorithm, with events ---------------

        def window(player: int, alpha: Any, beta: Any) -> tuple[Any, Any]:
            return (alpha, beta) if player == 0 else (-beta, -alpha)

        def view(player: int, v: Any) -> Any:
            return -v if player else v

        def negamax_obs(
            state: Any,
            player: int,
            depth: float,
            alpha: Any,
            beta: Any,
            ply: int,
            parent: int | None,
            action: Any,
        ) -> Any:
            nonlocal nodes, leaves, cutoffs, hits, horizon, next_node, stores, overwrites
            assert observer is not None
            node = next_node
            next_node += 1
            nodes += 1
            if nodes >= check_at:
                check()
            observer(Enter(node, parent, action, state, ply, player, *window(player, alpha, beta)))
            if oracle is not None and (known := oracle(state)) is not None:
                leaves += 1
                observer(OracleHit(node, known))
                return view(player, known)
            if depth <= 0:
                leaves += 1
                terminal = is_terminal(state)
                if terminal:
                    u = utility(state)
                else:
                    horizon += 1
                    u = evaluate(state)
                observer(Leaf(node, u, terminal))
                return view(player, u)
            key = state if keyf is None else keyf(state)
            entry = tt_get(key)
            hint = None
            if entry is not None:
                stored = entry[1]
                if stored == depth or (entry[4] and stored <= depth):
                    value = entry[0]
                    flag = entry[2]
                    if flag == EXACT or (value >= beta if flag == LOWER else value <= alpha):
                        hits += 1
                        if not entry[4]:
                            horizon += 1
                        if player and flag != EXACT:
                            flag = LOWER + UPPER - flag  # a bound flips with the point of view
                        observer(
                            CacheHit(
                                node,
                                key,
                                view(player, value),
                                bound_name(flag),  # type: ignore[arg-type]
                                -1 if entry[4] else int(stored),
                            )
                        )
                        return value
                hint = entry[3]
            acts = actions(state)
            if not acts:
                leaves += 1
                u = utility(state)
                observer(Leaf(node, u, True))
                return view(player, u)
            start_horizon = horizon
            hist = history[player]
            order = sorted(acts, key=hist.__getitem__, reverse=True)
            if hint is not None and order[0] != hint and hint in acts:
                order.remove(hint)
                order.insert(0, hint)
            best = -INF
            best_move = order[0]
            alpha0 = alpha
            for i, a in enumerate(order):
                child = result(state, a)
                cp = to_move(child)
                if cp == player:
                    v = negamax_obs(child, cp, depth - 1, alpha, beta, ply + 1, node, a)
                else:
                    v = -negamax_obs(child, cp, depth - 1, -beta, -alpha, ply + 1, node, a)
                if v > best:
                    best = v
                    best_move = a
                    if v > alpha:
                        if v >= beta:
                            if i + 1 < len(order):
                                cutoffs += 1
                                observer(
                                    Cutoff(
                                        node,
                                        player,
                                        view(player, v),
                                        *window(player, alpha, beta),
                                        tuple(order[i + 1 :]),
                                    )
                                )
                            hist[a] += depth * depth if depth < 64 else 4096
                            break
                        alpha = v
            flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
            tt[key] = (best, depth, flag, best_move, horizon == start_horizon, generation)
            stores += 1
            if entry is not None:
                overwrites += 1
            if len(tt) > size:
                make_room()
            observer(
                Backup(
                    node,
                    view(player, best),
                    best_move,
                    *window(player, alpha, beta),
                    exact=alpha0 < best < beta,
                )
            )
            return best

        def child_value_obs(
            child: Any,
            cp: int,
            player: int,
            depth: float,
            alpha: Any,
            beta: Any,
            parent: int,
            action: Any,
        ) -> Any:
            if cp == player:
                return negamax_obs(child, cp, depth, alpha, beta, 1, parent, action)
            return -negamax_obs(child, cp, depth, -beta, -alpha, 1, parent, action)

        def enter_root(state: Any, player: int) -> int:
            nonlocal nodes, next_node
            nodes += 1
            if observer is None:
                return -1
            node = next_node
            next_node += 1
            observer(Enter(node, None, None, state, 0, player, -INF, INF))
            return node

        def backup_root(node: int, player: int, value: Any, move: Any) -> None:
            if observer is not None:
                observer(Backup(node, view(player, value), move, -INF, INF, exact=True))

        def counters() -> tuple[int, int, int, int, int]:
            return nodes, leaves, cutoffs, hits, horizon

        def table_counters() -> tuple[int, int, int]:
            return hits, stores, overwrites

        def new_generation() -> None:
            nonlocal generation
            table.new_generation()
            generation = table.generation

        self.negamax = negamax
        self.child_value = child_value
        self.child_value_obs = child_value_obs
        self.enter_root = enter_root
        self.backup_root = backup_root
        self.counters = counters
        self.table_counters = table_counters
        self.new_generation = new_generation
        self.no_evaluate = no_evaluate
        self.history = history

    # -- one iteration ------------------------------------------------------------------------

    def root_child(
        self,
        child: Any,
        cp: int,
        player: int,
        depth: float,
        alpha: Any,
        beta: Any,
        node: int,
        a: Any,
    ) -> Any:
        """A root child's parent-view value in a window, through the chosen path."""
        if self.observer is not None:
            return self.child_value_obs(child, cp, player, depth, alpha, beta, node, a)
        return self.child_value(child, cp, player, depth, alpha, beta)

    def child_ge(self, child: Any, cp: int, player: int, depth: float, x: Any) -> bool:
        """Whether the child's value, from ``player``'s view, is at least ``x`` (exactly).

        A null window ``(below(x), x)`` when :func:`_below` gives one, else ``(-inf, x)``.
        """
        return bool(self.child_value(child, cp, player, depth, _below(x), x) >= x)

    def iterate(
        self,
        root: Any,
        player: int,
        acts: Sequence[Any],
        depth: float,
        previous: dict[Any, Any],
        previous_best: Any,
    ) -> tuple[Any, list[Any], dict[Any, Any], dict[Any, Any], bool]:
        """Search the root to ``depth``: (value, best actions, exact values, bounds, exact).

        Values are from the root player's view. ``previous`` (values of the last iteration)
        and ``previous_best`` order the root actions.
        """
        game = self.game
        self.new_generation()
        horizon0 = self.counters()[4]
        node = self.enter_root(root, player)
        position = {a: i for i, a in enumerate(acts)}
        order = sorted(
            acts,
            key=lambda a: (a != previous_best, -previous.get(a, -INF), position[a]),
        )
        values: dict[Any, Any] = {}
        bounds: dict[Any, Any] = {}
        best: Any = None
        best_set: list[Any] = []
        d1 = depth - 1
        for a in order:
            child = game.result(root, a)
            cp = game.to_move(child)
            if best is None:
                best = self.root_child(child, cp, player, d1, -INF, INF, node, a)
                values[a] = best
                best_set = [a]
                continue
            # One search in the narrowest window around best: nothing lies between lo and best
            # or between best and hi, so the answer says worse, tied (exactly) or better.
            lo, hi = _below(best), _above(best)
            f = self.root_child(child, cp, player, d1, lo, hi, node, a)
            if f > best and f >= hi and hi != INF:  # it failed high: find the exact value
                f = self.root_child(child, cp, player, d1, best, INF, node, a)
            if f > best:
                values[a] = best = f
                best_set = [a]
            elif f == best:  # inside the window, or a bound at +-inf: exact either way
                values[a] = best
                best_set.append(a)
            elif f > lo:  # inside the window (no float just below best): exact
                values[a] = f
            elif self.all_values:  # worse: its exact value lies in (-inf, best)
                values[a] = self.root_child(child, cp, player, d1, -INF, best, node, a)
            else:
                bounds[a] = f
        best_set.sort(key=position.__getitem__)
        self.backup_root(node, player, best, best_set[0])
        exact = self.counters()[4] == horizon0
        return best, best_set, values, bounds, exact

    # -- plies and the principal variation ---------------------------------------------------

    def plies(self, state: Any, player: int, depth: float, x: Any) -> tuple[int, Any] | None:
        """Plies to the end under preferred value-keeping play from ``state`` and the move.

        ``x`` is the state's exact value for ``player`` (to move). None when the answer
        depends on the horizon (a line longer than ``depth``, or a horizon-bound proof).
        """
        game = self.game
        acts = game.actions(state)
        if not acts:
            return (0, None)
        if self.oracle is not None and self.oracle(state) is not None:
            self.oracle_ended_plies = True  # the oracle gives values, not plies
            return None
        if depth <= 0:
            return None
        key = state if self.keyf is None else self.keyf(state)
        memo = self.plies_memo.get(key)
        if memo is not None and memo[2] <= depth:
            return memo[0], memo[1]
        entry = self.table.entries.get(key)
        hint = None if entry is None else entry[3]
        order = list(acts)
        if hint is not None and hint in acts and order[0] != hint:
            order.remove(hint)
            order.insert(0, hint)
        best: tuple[int, Any] | None = None
        for a in order:
            child = game.result(state, a)
            cp = game.to_move(child)
            before = self.counters()[4]
            keeps = self.child_ge(child, cp, player, depth - 1, x)
            if self.counters()[4] != before:
                return None
            if not keeps:
                continue
            sub = self.plies(child, cp, depth - 1, x if cp == player else -x)
            if sub is None:
                return None
            n = 1 + sub[0]
            if best is None or ply_preference(x, n) < ply_preference(x, best[0]):
                best = (n, a)
        assert best is not None, "a value-keeping move must exist"
        if len(self.plies_memo) >= self.table.size:
            self.plies_memo.clear()
        self.plies_memo[key] = (best[0], best[1], depth)
        return best

    def ply_line(self, state: Any, player: int, depth: float, x: Any) -> tuple[Any, ...]:
        """The preferred value-keeping line from ``state`` (whose plies are known)."""
        game = self.game
        line: list[Any] = []
        while True:
            step = self.plies(state, player, depth, x)
            if step is None or step[1] is None:
                return tuple(line)
            line.append(step[1])
            state = game.result(state, step[1])
            cp = game.to_move(state)
            x = x if cp == player else -x
            player = cp
            depth -= 1

    def proved_line(self, state: Any, player: int, depth: float, x: Any) -> tuple[Any, ...]:
        """A value-keeping line from ``state`` to the horizon, each move proved by a search."""
        game = self.game
        line: list[Any] = []
        while depth > 0:
            acts = game.actions(state)
            if not acts:
                break
            key = state if self.keyf is None else self.keyf(state)
            entry = self.table.entries.get(key)
            hint = None if entry is None else entry[3]
            order = list(acts)
            if hint is not None and hint in acts and order[0] != hint:
                order.remove(hint)
                order.insert(0, hint)
            for a in order:
                child = game.result(state, a)
                cp = game.to_move(child)
                if self.child_ge(child, cp, player, depth - 1, x):
                    line.append(a)
                    state = child
                    x = x if cp == player else -x
                    player = cp
                    break
            else:  # pragma: no cover - the value is exact, so some move keeps it
                break
            depth -= 1
        return tuple(line)

    # -- the driver ---------------------------------------------------------------------------

    def run(
        self,
        root: Any,
        depth: int | None,
        seed: int | None,
        on_depth: OnDepth | None,
        want_plies: bool = True,
    ) -> SearchResult:
        """Iterative deepening from ``root``; see :func:`search`."""
        game = self.game
        if not game.actions(root):
            return self.answer(
                game.utility(root), None, (), {}, (), depth, 0, {}, exact=True, complete=True
            )
        player = game.to_move(root)
        acts = tuple(game.actions(root))
        if self.oracle is not None:
            known = self.oracle_answer(root, player, acts, depth, seed)
            if known is not None:
                return known
        if depth == 0:
            return self.depth_zero(root)
        depths: Iterable[float]
        if not self.has_evaluate:
            depths = [END if depth is None else depth]
        elif depth is None and (
            self.time_limit is not None
            or self.node_limit is not None
            or on_depth is not None
            or self.observer is not None
        ):
            depths = _count_from_one()
        elif depth is None:  # nothing to stop early for or report: straight to the end
            depths = [END]
        else:
            depths = range(1, depth + 1)
        last: SearchResult | None = None
        previous: dict[Any, Any] = {}
        previous_best: Any = None
        complete = False
        try:
            for d in depths:
                if last is not None and self.out_of_time():
                    break
                answer = self.one_depth(
                    root, player, acts, d, previous, previous_best, seed, want_plies
                )
                last = answer[0]
                previous, previous_best = answer[1], last.best_action
                if on_depth is not None:
                    on_depth(last)
                if last.exact and (
                    last.plies is not None or not want_plies or self.oracle_ended_plies
                ):
                    complete = True
                    break
            else:
                complete = True
        except (_Stop, KeyboardInterrupt):
            pass
        except RecursionError:
            raise GameError(
                f"the search of {game.name!r} went deeper than Python's recursion limit "
                "without reaching the end: the game may cycle; pass depth= (with an evaluation "
                "function) and a time_limit= or node_limit="
            ) from None
        if last is None:
            return self.fallback(root, acts)
        if complete:
            return last
        return _replace(last, complete=False, stats=self.stats())

    def one_depth(
        self,
        root: Any,
        player: int,
        acts: Sequence[Any],
        depth: float,
        previous: dict[Any, Any],
        previous_best: Any,
        seed: int | None,
        want_plies: bool = True,
    ) -> tuple[SearchResult, dict[Any, Any]]:
        """One iteration and its plies, choice and PV, as a result (and values for ordering)."""
        game = self.game
        best, best_set, values, bounds, exact = self.iterate(
            root, player, acts, depth, previous, previous_best
        )
        action_plies: dict[Any, int | None] = {}
        if exact and want_plies:
            for a in acts:
                if a in values:
                    child = game.result(root, a)
                    cp = game.to_move(child)
                    x = values[a] if cp == player else -values[a]
                    sub = self.plies(child, cp, depth - 1, x)
                    action_plies[a] = None if sub is None else 1 + sub[0]
        candidates = best_set
        known = exact and all(action_plies.get(a) is not None for a in best_set)
        if known:
            preference = {a: ply_preference(best, action_plies[a]) for a in best_set}  # type: ignore[arg-type]
            top = min(preference.values())
            candidates = [a for a in best_set if preference[a] == top]
        chosen = candidates[0] if seed is None else random.Random(seed).choice(candidates)
        child = game.result(root, chosen)
        cp = game.to_move(child)
        x = best if cp == player else -best
        if known:
            pv = (chosen, *self.ply_line(child, cp, depth - 1, x))
        else:
            pv = (chosen, *self.proved_line(child, cp, depth - 1, x))
        sign = 1 if player == 0 else -1
        result = self.answer(
            _zero(sign * best),
            chosen,
            pv,
            {a: _zero(sign * values[a]) for a in acts if a in values},
            tuple(best_set),
            None if depth == END else int(depth),
            action_plies[chosen] if known else None,
            {a: action_plies[a] for a in acts if action_plies.get(a) is not None},
            exact=exact,
            complete=True,
        )
        ordering = dict(bounds)
        ordering.update(values)
        return result, ordering

    def oracle_answer(
        self, root: Any, player: int, acts: Sequence[Any], depth: int | None, seed: int | None
    ) -> SearchResult | None:
        """The answer from the oracle alone, when it covers the root and all its children.

        The value is the oracle's; each action's value is its child's (the utility of a
        terminal child); ``best_actions`` are those equal to the value; the PV follows the
        first value-keeping move while the oracle covers the line, up to ``depth`` plies, a
        terminal state or a repeated position. Plies to the end are unknown (None).
        """
        game = self.game
        oracle = self.oracle
        assert oracle is not None
        value = oracle(root)
        if value is None:
            return None
        values = self.oracle_children(root, acts)
        if values is None:
            return None
        best_set = [a for a in acts if values[a] == value]
        if not best_set:
            mover_best = (max if player == 0 else min)(values.values())
            raise GameError(
                f"the oracle is inconsistent: it values the position {value!r} but its best "
                f"move {mover_best!r}; an oracle must give exact game values"
            )
        chosen = best_set[0] if seed is None else random.Random(seed).choice(best_set)
        pv = [chosen]
        state = game.result(root, chosen)
        seen = {self.state_key(root), self.state_key(state)}
        while depth is None or len(pv) < depth:
            line_acts = tuple(game.actions(state))
            children = self.oracle_children(state, line_acts) if line_acts else None
            if children is None:
                break
            keeping = [a for a in line_acts if children[a] == value]
            if not keeping:
                break
            state = game.result(state, keeping[0])
            key = self.state_key(state)
            if key in seen:
                break
            seen.add(key)
            pv.append(keeping[0])
        return self.answer(
            _zero(value),
            chosen,
            tuple(pv),
            {a: _zero(values[a]) for a in acts},
            tuple(best_set),
            None,
            None,
            {},
            exact=True,
            complete=True,
        )

    def oracle_children(self, state: Any, acts: Sequence[Any]) -> dict[Any, Any] | None:
        """Each action's exact value from the oracle (or the utility at a terminal child).

        None when the oracle does not cover some non-terminal child.
        """
        game = self.game
        oracle = self.oracle
        assert oracle is not None
        values: dict[Any, Any] = {}
        for a in acts:
            child = game.result(state, a)
            v = game.utility(child) if game.is_terminal(child) else oracle(child)
            if v is None:
                return None
            values[a] = v
        return values

    def state_key(self, state: Any) -> Hashable:
        return state if self.keyf is None else self.keyf(state)

    def depth_zero(self, root: Any) -> SearchResult:
        """``depth=0``: the root's evaluation, no move."""
        if self.evaluate is None:
            self.no_evaluate(root)
        assert self.evaluate is not None
        return self.answer(
            self.evaluate(root), None, (), {}, (), 0, None, {}, exact=False, complete=True
        )

    def fallback(self, root: Any, acts: Sequence[Any]) -> SearchResult:
        """No depth completed: the first legal action and the root's evaluation."""
        value = self.evaluate(root) if self.evaluate is not None else math.nan
        return self.answer(
            value, acts[0], (acts[0],), {}, (), 0, None, {}, exact=False, complete=False
        )

    def out_of_time(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def stats(self) -> SearchStats:
        nodes, leaves, cutoffs, hits, _ = self.counters()
        return SearchStats(
            nodes=nodes,
            leaves=leaves,
            cutoffs=cutoffs,
            table_hits=hits,
            seconds=time.perf_counter() - self.start,
        )

    def answer(
        self,
        value: Any,
        best_action: Any,
        pv: tuple[Any, ...],
        action_values: dict[Any, Any],
        best_actions: tuple[Any, ...],
        depth: int | None,
        plies: int | None,
        action_plies: dict[Any, int | None],
        *,
        exact: bool,
        complete: bool,
    ) -> SearchResult:
        table = self.table
        table.hits, table.stores, table.overwrites = self.table_counters()
        return SearchResult(
            value=value,
            best_action=best_action,
            pv=pv,
            action_values=action_values,
            stats=self.stats(),
            best_actions=best_actions,
            depth=depth,
            plies=plies,
            action_plies=action_plies,
            exact=exact,
            complete=complete,
        )


def _count_from_one() -> Iterable[int]:
    d = 1
    while True:
        yield d
        d += 1


def _below(x: Any) -> Any:
    """The greatest value that is surely below ``x`` with nothing between: a null window's alpha.

    For an int or float ``x`` (ints within 2**53) every int or float value below ``x`` is at most
    the float just below it, so ``(below, x)`` decides "at least ``x``?" exactly. For other number
    types there is no such neighbour and the answer is -inf (a one-sided window, still exact).
    """
    kind = type(x)
    if kind is float or (kind is int and -_EXACT_INT <= x <= _EXACT_INT):
        return math.nextafter(x, -INF)
    return -INF


def _above(x: Any) -> Any:
    """The least value surely above ``x`` with nothing between (see :func:`_below`), or +inf."""
    kind = type(x)
    if kind is float or (kind is int and -_EXACT_INT <= x <= _EXACT_INT):
        return math.nextafter(x, INF)
    return INF


def _zero(value: Any) -> Any:
    """``value`` with a negative zero made positive (negamax negates draws)."""
    return abs(value) if value == 0 else value


def _replace(result: SearchResult, **changes: Any) -> SearchResult:
    import attrs

    return attrs.evolve(result, **changes)
