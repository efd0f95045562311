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
  with its full window, the others with a null window just above alpha
  (:func:`~solver.node_search.above`),
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
  search runs: horizon leaves, and table entries that were not horizon-free). Values from the
  oracle are exact.
* **Proofs from utility bounds**: with the game's ``utility_bounds()`` (and its own
  evaluation) a child proved to reach its mover's best possible value settles its node, the
  horizon leaves of its siblings aside (:class:`~solver.node_search.Outcomes`), so a forced
  win or loss in N plies is exact at depth N with ``plies`` N. Deepening goes on while other
  moves are unsettled (to the depth asked for): ``best_actions`` is every optimal move, as
  minimax gives them, a slower win included.
* **Deepening stops once the answer is exact** (with its plies, when asked for, or when a line
  met the oracle, which knows values but not plies): a deeper iteration would give the same
  answer, so ``depth=10**100`` on tic-tac-toe ends after 9 plies (``depth`` 9 in the result).
* **Oracle** (``oracle=``, an endgame tablebase): probed at the root (covering the root and its
  children, it answers at once: its value, every move's value, a PV of value-keeping moves
  while it covers the line, no plies) and at every node, leaf included, inside the search (the
  line ends there with an exact value, and ``plies`` stay unknown through it).
* **One driver, two node searches**: everything above (deepening, the root, plies, PV,
  limits, ties) is this module's driver, written once, over a node search
  (:class:`solver.node_search.NodeSearch`): the Python one (:mod:`solver.python_search`), or a
  game's compiled one when the game offers it (:class:`~solver.game.HasCompiledSearch`), there
  is no observer and the evaluation is the game's own; the game's None keeps the Python one.
  The clock of ``time_limit`` starts once the node search is ready, so loading or compiling a
  kernel is never search time. A game on the compiled route
  (:class:`~solver.game.HasCompiledRules`) runs on the generic compiled node search
  (:mod:`solver.compiled`), loaded from numba's disk cache (compiled the first time, or by
  ``gamesolver compile``); if it cannot be built, the Python one.
* **depth=None**: with a time or node limit or ``on_depth``, iterative deepening
  1, 2, 3, ... that stops at the first depth whose answer is exact (plies included); with none
  of these (nothing could stop it early or watch it) one search straight to the end of the game
  (``depth`` None in the result): on tic-tac-toe a third of the nodes of deepening 1..9. On a
  game that cycles either form only ends by a limit; the direct one reports the cycle as a
  :class:`~solver.errors.GameError` (Python's recursion limit), so give Ayòayò a depth or a limit.
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
  ``d`` that raises :class:`~solver.errors.CapabilityError` if it meets the horizon.
* **Cycles** (Ayòayò can repeat positions): values depend on the position only (the protocol has
  no history, so there is no graph-history interaction: a repeated position is just searched
  again). A depth-limited search always ends. With ``depth=None`` on a game whose answer never
  becomes exact the deepening goes on until a limit or Ctrl-C; without an evaluation function
  a cycle would recurse without end and is reported as a :class:`~solver.errors.GameError`.
* **Observer**: the same search reports its steps as :mod:`solver.events` (Iteration, Enter,
  Leaf, CacheHit with the entry's flag, OracleHit, Cutoff, Backup with the stored flag; values
  and windows from player 0's view; node ids numbered across all iterations; each iteration
  starts with an Iteration event and a root with ``parent=None``). The events go through a
  tracer that is None without an observer: the only cost then is a test of a local variable
  at each node (measured with ``benchmarks/compare.py``). The plies and PV passes are not
  reported.
* **Symmetry-reduced table** (``symmetric=True``, a game with
  :class:`~solver.game.HasSymmetries`): the Python node search keys its table by each
  position's class (:mod:`solver.symmetry`), a stored move carried to the image searched; the
  same value, exactness, optimal moves and plies as without (deepening may settle an
  iteration sooner). The compiled node searches have no such table, so the option runs the
  Python one.
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
import itertools
import math
import random
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from typing import Any, Final, TypeVar

import attrs

from solver.capabilities import has_capability
from solver.chance import refuse_chance
from solver.compiled import compiled_search, numba_available
from solver.events import Observer
from solver.game import (
    Game,
    GameError,
    GuidingOracle,
    HasCompiledRules,
    HasCompiledSearch,
    HasEvaluate,
    HasSymmetries,
    checked_state,
)
from solver.node_search import Limits, NodeSearch, SearchStopped, above, below, outcomes
from solver.python_search import CHECK_EVERY, PythonSearch, Tracer
from solver.results import LineEnd, MoveLine, SearchRequest, SearchResult, ply_preference
from solver.table import END, EXACT

__all__ = ["CHECK_EVERY", "Oracle", "search"]

INF: Final = math.inf

S = TypeVar("S")
A = TypeVar("A")

Evaluate = Callable[[Any], float]
Oracle = Callable[[Any], "float | None"]
"""``oracle(state)``: the exact game value (player 0's view) of a covered position, else None."""
OnDepth = Callable[[SearchResult], None]

ENDLESS: Final = 10**9
"""Plies standing for play that never ends (longer than any line), in preferences."""

GUIDED_PLIES: Final = 10_000
"""The longest line followed along a guiding oracle's play before it is cut."""


def search(
    game: Game[S, A],
    state: S | None = None,
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
    lines: bool = False,
    native: bool = True,
    symmetric: bool = False,
) -> SearchResult:
    """The value, every optimal move and the preferred one, by iterative-deepening alpha-beta.

    Every option after ``state`` is keyword-only.

    Args:
        game: the rulebook.
        state: where to search from; None for ``game.initial_state()``.
        depth: the deepest iteration, in plies; None to deepen until the answer is exact.
            Either way deepening stops at the first exact answer (with its plies).
        time_limit: seconds after which to stop and answer with the last completed depth.
        node_limit: nodes after which to stop likewise.
        seed: break ties among equally preferred optimal moves at random, reproducibly.
        table_size: the transposition table's size in entries (it never grows past it).
        evaluate: the horizon's evaluation function (player 0's view); default
            ``game.evaluate``.
        observer: called with every search event (:mod:`solver.events`); None for none.
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
        lines: give every exactly valued root action its line in ``action_lines`` (the action,
            then value-keeping play after it, proved as the PV is, and how it ends), so an
            analysis can show each move's line, not only the best one's.
        native: run the game's own compiled node search under this driver when it has one
            (:class:`~solver.game.HasCompiledSearch`), there is no observer and the evaluation
            is the game's own; False for the Python node search always (to compare the two).
        symmetric: a symmetry-reduced transposition table for a game with ``symmetries``
            (:class:`~solver.game.HasSymmetries`): one entry per class of symmetric positions,
            so a position's symmetric images are answered from it (the same answers, fewer
            nodes and entries; each interior node pays for finding its class's key). The
            Python node search keeps such a table, the compiled ones do not: with this
            option a game with symmetries is searched in Python. No effect on a game without.

    Returns:
        A :class:`~solver.results.SearchResult`; see the module docstring for what each field
        guarantees.

    Raises:
        ValueError: a negative depth, a non-positive limit or table size
            (:class:`~solver.errors.InvalidOptionError` for a table size above
            :data:`~solver.results.MAX_TABLE_SIZE`).
        NotAGameError: ``game`` is not a game.
        InvalidStateError: ``state`` is not a state of ``game`` (checked once, here).
        TypeError: an option of the wrong kind (a seed that is not an int, a callback that is
            not callable).
        CapabilityError: the search met its horizon and there is no evaluation function, or
            the game has chance moves (use :mod:`solver.expectiminimax`).
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
        lines=lines,
    )
    state = checked_state(game, state, "search")  # once here, never in the node loop
    if evaluate is not None and not callable(evaluate):
        raise TypeError(f"invalid evaluate {evaluate!r}: use a function of a state, or None")
    refuse_chance(game, "the engine")
    if observer is not None and not callable(observer):
        raise TypeError(f"invalid observer {observer!r}: use a function of an event, or None")
    own_evaluation = evaluate is None or (
        has_capability(game, HasEvaluate) and evaluate == game.evaluate
    )
    limits = Limits(request.time_limit, request.node_limit)
    bounds = outcomes(game, evaluate)
    nodes: NodeSearch | None = None
    if symmetric and has_capability(game, HasSymmetries):
        native = False  # only the Python node search keeps a symmetry-reduced table
    if native and observer is None and own_evaluation and has_capability(game, HasCompiledSearch):
        nodes = game.compiled_search(request, limits)  # loads (or compiles) the game's kernel
    elif (
        native
        and observer is None
        and own_evaluation
        and has_capability(game, HasCompiledRules)
        and numba_available()
    ):  # the generic compiled search (solver.compiled); None if it cannot serve: Python then
        nodes = compiled_search(game, game.compiled_rules(), request, limits, bounds)
    if nodes is None:
        if evaluate is None and has_capability(game, HasEvaluate):
            evaluate = game.evaluate
        tracer = None if observer is None else Tracer(observer)
        nodes = PythonSearch(game, request, evaluate, tracer, limits, symmetric)
    limits.start()  # the clock starts now: loading or compiling a kernel is not search time
    collecting = gc.isenabled()
    gc.disable()  # the search makes one reference cycle (its bound closures); collecting costs
    try:
        return _Driver(game, nodes, request, limits, bounds.best).run(state)
    finally:
        if collecting:
            gc.enable()


# -- the root, plies, lines and the deepening ------------------------------------------------


@attrs.frozen
class _Iteration:
    """One iteration's root answer, in the root player's view.

    Attributes:
        value: the root's value.
        best: every value-keeping action, in ``actions`` order.
        values: the actions whose values are exact, with them.
        bounds: the others, with their upper bounds (each is worse than ``value``).
        exact: no horizon evaluation influenced the answer (the value, or the value and
            every move's when not ``proved_only``).
        proved_only: exact because a move was proved to reach the best possible value
            while other moves met the horizon.
        horizon: the actions in ``values`` whose values are the depth's (met the horizon).
    """

    value: Any
    best: list[Any]
    values: dict[Any, Any]
    bounds: dict[Any, Any]
    exact: bool
    proved_only: bool = False
    horizon: tuple[Any, ...] = ()


class _Driver:
    """Iterative deepening from one root, and what makes a result of an iteration."""

    def __init__(
        self,
        game: Game[Any, Any],
        nodes: NodeSearch,
        request: SearchRequest,
        limits: Limits,
        tops: tuple[Any, Any],
    ) -> None:
        self.game = game
        self.tops = tops  # each player's best possible value (negamax view): a proved win
        self.nodes = nodes
        self.request = request
        self.limits = limits
        self.plies_memo: dict[Hashable, tuple[int, Any, float]] = {}
        self.oracle_ended_plies = False  # a plies line met a covered position: plies unknown
        self.values_at_horizon = False  # the last iteration's table holds depth values
        oracle = request.oracle
        self.guide = oracle if oracle is not None and isinstance(oracle, GuidingOracle) else None
        # state key -> plies to the end along the guide's moves (ENDLESS: it repeats; None: cut)
        self.guided_memo: dict[Hashable, int | None] = {}
        self.guided_moves: dict[Hashable, Any] = {}  # state key -> the guide's move

    def run(self, root: Any) -> SearchResult:
        """Iterative deepening from ``root``; see :func:`search`."""
        game = self.game
        nodes = self.nodes
        request = self.request
        acts = tuple(game.actions(root))
        if not acts:
            return self.result(
                value=game.utility(root), depth=request.depth, plies=0, pv_end=LineEnd("end")
            )
        if request.oracle is not None:
            known = self.oracle_answer(root, acts)
            if known is not None:
                return known
        if request.depth == 0:
            return self.result(value=nodes.evaluate(root), depth=0, exact=False)
        last: SearchResult | None = None
        ordering: dict[Any, Any] = {}
        complete = False
        try:
            for depth in self.depths():
                if depth > nodes.max_depth:  # deeper than its stacks hold: stop (not complete)
                    break
                if last is not None and self.limits.out_of_time():
                    break
                last, ordering = self.one_depth(root, acts, depth, ordering, last)
                if request.on_depth is not None:
                    request.on_depth(last)
                if self.settled(last):
                    complete = True
                    break
            else:
                complete = True
        except (SearchStopped, KeyboardInterrupt):
            pass
        except RecursionError:
            raise GameError(
                f"the search of {game.name!r} went deeper than Python's recursion limit "
                "without reaching the end: the game may cycle; pass depth= (with an evaluation "
                "function) and a time_limit= or node_limit="
            ) from None
        if last is None:  # no depth completed: the first legal action, the root's evaluation
            value = nodes.evaluate(root) if nodes.has_evaluate else math.nan
            return self.result(
                value=value,
                best_action=acts[0],
                pv=(acts[0],),
                depth=0,
                exact=False,
                complete=False,
            )
        if complete:
            return last
        return attrs.evolve(last, complete=False, stats=nodes.stats())

    def depths(self) -> Iterable[float]:
        """The iterations' depths: up to ``depth``, or to the end in one search.

        Without an evaluation function there is no horizon to deepen through: one search (to
        ``depth`` or the end). With ``depth=None`` and nothing that could stop the search early
        or report each depth, one search straight to the end costs fewer nodes than deepening
        (an observer changes nothing: it sees the search that runs without it).
        """
        request = self.request
        if not self.nodes.has_evaluate:
            return [END if request.depth is None else request.depth]
        if request.depth is not None:
            return range(1, request.depth + 1)
        watched = (
            request.time_limit is not None
            or request.node_limit is not None
            or request.on_depth is not None
        )
        return itertools.count(1) if watched else [END]

    def settled(self, result: SearchResult) -> bool:
        """Whether deeper iterations would give the same answer: exact, plies known or moot."""
        return (
            result.exact
            and not self.values_at_horizon
            and (result.plies is not None or not self.request.plies or self.oracle_ended_plies)
        )

    def one_depth(
        self,
        root: Any,
        acts: Sequence[Any],
        depth: float,
        ordering: dict[Any, Any],
        last: SearchResult | None,
    ) -> tuple[SearchResult, dict[Any, Any]]:
        """One iteration, its plies, choice and PV as a result, and values for ordering."""
        game = self.game
        nodes = self.nodes
        player = game.to_move(root)
        previous_best = None if last is None else last.best_action
        found = self.search_root(root, player, acts, depth, ordering, previous_best)
        # Deepen on until every move is settled: best_actions promises every optimal move.
        self.values_at_horizon = found.proved_only
        trace, nodes.trace = nodes.trace, None  # the plies and PV passes are not reported
        try:
            action_plies = self.root_plies(root, player, acts, depth, found)
            known = found.exact and all(action_plies.get(a) is not None for a in found.best)
            # the choice is among the moves valued exactly: in a proved win, a move that met
            # the best value only at the horizon is best (as minimax at this depth says) but has
            # no line to follow
            candidates = [a for a in found.best if a in found.values] or found.best
            if known:
                preference = {a: ply_preference(found.value, action_plies[a]) for a in found.best}  # type: ignore[arg-type]
                top = min(preference.values())
                candidates = [a for a in found.best if preference[a] == top]
            seed = self.request.seed
            chosen = candidates[0] if seed is None else random.Random(seed).choice(candidates)
            principal = self.action_line(root, player, chosen, depth, found, known)
            pv, pv_end = principal.moves, principal.end
            lines = {chosen: principal}
            if self.request.lines:
                for a in acts:
                    if a in found.values and a != chosen:
                        counted = found.exact and action_plies.get(a) is not None
                        lines[a] = self.action_line(root, player, a, depth, found, counted)
        finally:
            nodes.trace = trace
        sign = 1 if player == 0 else -1
        result = self.result(
            value=_zero(sign * found.value),
            best_action=chosen,
            pv=pv,
            action_values={a: _zero(sign * found.values[a]) for a in acts if a in found.values},
            best_actions=tuple(found.best),
            depth=None if depth == END else int(depth),
            plies=action_plies[chosen] if known else None,
            action_plies={a: p for a in acts if (p := action_plies.get(a)) is not None},
            exact=found.exact,
            pv_end=pv_end,
            action_lines=lines if self.request.lines else None,
            horizon_actions=found.horizon,
        )
        return result, {**found.bounds, **found.values}

    def action_line(
        self,
        root: Any,
        player: int,
        action: Any,
        depth: float,
        found: _Iteration,
        counted: bool,
    ) -> MoveLine:
        """``action``'s line: the action, then value-keeping play after it, by plies to the end
        when they are ``counted`` (known exactly), else each move proved by a search. The PV
        is the chosen action's line."""
        game = self.game
        child = game.result(root, action)
        cp = game.to_move(child)
        x = found.values[action] if cp == player else -found.values[action]
        line = self.ply_line if counted else self.proved_line
        moves, end = self.line_end(root, (action, *line(child, cp, depth - 1, x)))
        return MoveLine(moves, end)

    def search_root(
        self,
        root: Any,
        player: int,
        acts: Sequence[Any],
        depth: float,
        previous: dict[Any, Any],
        previous_best: Any,
    ) -> _Iteration:
        """Search the root to ``depth``, PVS-style, for every value-keeping action.

        The first action (the last best, then by the last values) with the full window; each
        later one in the narrowest window around the best so far, which says at once whether
        it is worse, tied (exactly) or better (then searched again for its exact value).
        """
        game = self.game
        nodes = self.nodes
        nodes.new_iteration()
        horizon_before = nodes.horizon
        nodes.nodes += 1
        trace = nodes.trace
        if trace is not None:
            trace.iteration(depth)
            trace.enter(root, player, player, -INF, INF)
        position = {a: i for i, a in enumerate(acts)}
        order = sorted(
            acts, key=lambda a: (a != previous_best, -previous.get(a, -INF), position[a])
        )
        d1 = depth - 1
        at_once = getattr(nodes, "root_values", None) if trace is None else None
        if at_once is not None:  # a compiled node search that searches them all in one entry
            return self.root_at_once(root, player, order, d1, at_once, position, horizon_before)
        values: dict[Any, Any] = {}
        bounds: dict[Any, Any] = {}
        best: Any = None
        best_set: list[Any] = []
        top = self.tops[player]
        proved = False  # the best possible value reached with no horizon behind it
        free: set[Any] = set()  # the actions whose search met no horizon
        for a in order:
            child = game.result(root, a)
            cp = game.to_move(child)
            if trace is not None:
                trace.action = a
            h = nodes.horizon
            if best is None:
                best = values[a] = nodes.child_value(child, cp, player, d1, -INF, INF)
                best_set = [a]
                if nodes.horizon == h:
                    free.add(a)
                    proved = best >= top
                continue
            lo, hi = below(best), above(best)
            f = nodes.child_value(child, cp, player, d1, lo, hi)
            if f > best and f >= hi and hi != INF:  # it failed high: find the exact value
                h = nodes.horizon  # the re-search alone decides
                f = nodes.child_value(child, cp, player, d1, best, INF)
            if nodes.horizon == h:
                free.add(a)
            if f > best:
                values[a] = best = f
                best_set = [a]
                proved = best >= top and a in free
            elif f == best:  # inside the window, or a bound at +-inf: exact either way
                values[a] = best
                best_set.append(a)
            elif f > lo:  # inside the window (no float just below best): exact
                values[a] = f
            elif self.request.all_values:  # worse: its exact value lies in (-inf, best)
                values[a] = nodes.child_value(child, cp, player, d1, -INF, best)
            else:
                bounds[a] = f
        best_set.sort(key=position.__getitem__)
        if trace is not None:
            trace.backup(player, best, best_set[0], -INF, INF, EXACT)
        return self.iteration(best, best_set, values, bounds, free, proved, horizon_before)

    def root_at_once(
        self,
        root: Any,
        player: int,
        order: list[Any],
        d1: float,
        at_once: Callable[..., list[tuple[Any, bool, bool]]],
        position: dict[Any, int],
        horizon_before: int,
    ) -> _Iteration:
        """:meth:`search_root`'s loop run by the node search in one entry (``root_values``:
        each move's value or bound, in the same windows), read back as the loop reads it."""
        game = self.game
        children = [game.result(root, a) for a in order]
        answers = at_once(
            children, [game.to_move(c) for c in children], player, d1, self.request.all_values
        )
        values: dict[Any, Any] = {}
        bounds: dict[Any, Any] = {}
        best: Any = None
        best_set: list[Any] = []
        proved = False
        free: set[Any] = set()
        for a, (f, valued, searched_free) in zip(order, answers, strict=True):
            if searched_free:
                free.add(a)
            if best is None or (valued and f > best):
                values[a] = best = f
                best_set = [a]
                proved = searched_free and best >= self.tops[player]
            elif not valued:
                bounds[a] = f
            elif f == best:
                values[a] = best
                best_set.append(a)
            else:
                values[a] = f
        best_set.sort(key=position.__getitem__)
        return self.iteration(best, best_set, values, bounds, free, proved, horizon_before)

    def iteration(
        self,
        best: Any,
        best_set: list[Any],
        values: dict[Any, Any],
        bounds: dict[Any, Any],
        free: set[Any],
        proved: bool,
        horizon_before: int,
    ) -> _Iteration:
        """The root's iteration as its search left it: exact to the end when no horizon was
        met; else settled by a proved win (:meth:`proved_win`) when the best move reached the
        best possible value with no horizon behind it; else bounded by the horizon."""
        free_of_horizon = self.nodes.horizon == horizon_before
        if free_of_horizon or not proved:
            return _Iteration(best, best_set, values, bounds, free_of_horizon)
        return self.proved_win(best, best_set, values, bounds, free)

    def proved_win(
        self,
        best: Any,
        best_set: list[Any],
        values: dict[Any, Any],
        bounds: dict[Any, Any],
        free: set[Any],
    ) -> _Iteration:
        """A root proved won while some moves met the horizon: exact. Those moves keep their
        values only for an analysis table (all_values), which then deepens on."""
        horizon = tuple(a for a in values if a not in free)
        if not self.request.all_values:
            for a in horizon:
                bounds[a] = values.pop(a)
            horizon = ()
        return _Iteration(best, best_set, values, bounds, True, proved_only=True, horizon=horizon)

    # -- plies to the end and the principal variation --------------------------------------

    def root_plies(
        self, root: Any, player: int, acts: Sequence[Any], depth: float, found: _Iteration
    ) -> dict[Any, int | None]:
        """Plies to the end after each exactly valued root action (when the value is exact)."""
        if not (found.exact and self.request.plies):
            return {}
        game = self.game
        action_plies: dict[Any, int | None] = {}
        for a in acts:
            if a in found.values:
                child = game.result(root, a)
                cp = game.to_move(child)
                x = found.values[a] if cp == player else -found.values[a]
                sub = self.plies(child, cp, depth - 1, x)
                action_plies[a] = None if sub is None else 1 + sub[0]
        return action_plies

    def plies(self, state: Any, player: int, depth: float, x: Any) -> tuple[int, Any] | None:
        """Plies to the end under preferred value-keeping play from ``state``, and the move.

        ``x`` is the state's exact value for ``player`` (to move). None when the answer
        depends on the horizon (a line longer than ``depth``, or a horizon-bound proof) or
        meets a position the oracle covers and cannot count to the end (an oracle that only
        gives values, or a guiding one whose play there is endless).
        """
        game = self.game
        nodes = self.nodes
        acts = game.actions(state)
        if not acts:
            return (0, None)
        if self.request.oracle is not None and self.request.oracle(state) is not None:
            counted = self.guided_plies(state)
            if counted is None or counted == ENDLESS:
                self.oracle_ended_plies = True
                return None
            return counted, self.preferred(state)
        if depth <= 0:
            return None
        key = nodes.key(state)
        memo = self.plies_memo.get(key)
        if memo is not None and memo[2] <= depth:
            return memo[0], memo[1]
        best: tuple[int, Any] | None = None
        winning = x >= self.tops[player]  # only the wins proved within the depth count
        for a in self.table_move_first(state, acts):
            child = game.result(state, a)
            cp = game.to_move(child)
            horizon_before = nodes.horizon
            keeps = nodes.child_ge(child, cp, player, depth - 1, x)
            if nodes.horizon != horizon_before:
                if winning:  # not a win within the depth: a quicker one is proved elsewhere
                    continue
                return None
            if not keeps:
                continue
            sub = self.plies(child, cp, depth - 1, x if cp == player else -x)
            if sub is None:
                return None
            n = 1 + sub[0]
            if best is None or ply_preference(x, n) < ply_preference(x, best[0]):
                best = (n, a)
        if best is None:  # a win at the horizon's value, not proved (an evaluation at the best)
            return None
        if len(self.plies_memo) >= nodes.memo_size:
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
        """A value-keeping line from ``state`` to the horizon, each move proved by a search
        (by the node search in one call when it offers that: ``proved_line``)."""
        at_once = getattr(self.nodes, "proved_line", None)
        if at_once is not None:
            found: tuple[Any, ...] | None = at_once(state, player, depth, x)
            if found is not None:
                return found
        game = self.game
        line: list[Any] = []
        while depth > 0:
            acts = game.actions(state)
            if not acts:
                break
            for a in self.table_move_first(state, acts):
                child = game.result(state, a)
                cp = game.to_move(child)
                if self.nodes.child_ge(child, cp, player, depth - 1, x):
                    line.append(a)
                    state = child
                    x = x if cp == player else -x
                    player = cp
                    break
            else:  # pragma: no cover - the value is exact, so some move keeps it
                break
            depth -= 1
        return tuple(line)

    def table_move_first(self, state: Any, acts: Sequence[Any]) -> list[Any]:
        """``acts`` with the table's best move for ``state`` (if any) moved to the front."""
        order = list(acts)
        move = self.nodes.table_move(state)
        if move is not None and move in order and order[0] != move:
            order.remove(move)
            order.insert(0, move)
        return order

    # -- answers from the oracle -----------------------------------------------------------

    def oracle_answer(self, root: Any, acts: Sequence[Any]) -> SearchResult | None:
        """The answer from the oracle alone, when it covers the root and all its children.

        The value is the oracle's; each action's value is its child's (the utility of a
        terminal child); ``best_actions`` are those equal to the value. A guiding oracle
        (:class:`~solver.game.GuidingOracle`, a tablebase) also gives each move's plies to the
        end along its play, or says the value is reached only by endless play; the move chosen
        is then the quickest win or the slowest loss (endless play counting as the longest),
        and the PV follows its play to the end or to the position that repeats. Another
        oracle's PV follows the first value-keeping move while it covers the line, up to
        ``depth`` plies, a terminal state or a repeated position, with plies unknown.
        """
        oracle = self.request.oracle
        assert oracle is not None
        game = self.game
        value = oracle(root)
        values = None if value is None else self.oracle_children(root, acts)
        if value is None or values is None:
            return None
        best = [a for a in acts if values[a] == value]
        if not best:
            mover_best = (max if game.to_move(root) == 0 else min)(values.values())
            raise GameError(
                f"the oracle is inconsistent: it values the position {value!r} but its best "
                f"move {mover_best!r}; an oracle must give exact game values"
            )
        action_plies: dict[Any, int] = {}
        endless: list[Any] = []
        candidates = best
        if self.guide is not None:
            for a in acts:
                counted = self.guided_plies(game.result(root, a))
                if counted == ENDLESS:
                    endless.append(a)
                elif counted is not None:
                    action_plies[a] = 1 + counted
            mover_value = value if game.to_move(root) == 0 else -value

            def preference(a: Any) -> int:
                plies = ENDLESS if a in endless else action_plies.get(a)
                return 0 if plies is None else ply_preference(mover_value, plies)

            top = min(preference(a) for a in best)
            candidates = [a for a in best if preference(a) == top]
        seed = self.request.seed
        chosen = candidates[0] if seed is None else random.Random(seed).choice(candidates)
        lines = {
            a: self.oracle_action_line(root, a, values[a])
            for a in (acts if self.request.lines else (chosen,))
        }
        pv, pv_end = lines[chosen].moves, lines[chosen].end
        return self.result(
            value=_zero(value),
            best_action=chosen,
            pv=pv,
            action_values={a: _zero(values[a]) for a in acts},
            best_actions=tuple(best),
            plies=action_plies.get(chosen),
            action_plies=dict(action_plies),
            pv_end=pv_end,
            endless_actions=tuple(endless),
            source="oracle",
            action_lines=lines if self.request.lines else None,
        )

    def oracle_action_line(self, root: Any, action: Any, value: Any) -> MoveLine:
        """``action``'s line when the oracle answers at the root: a guide's play to the end,
        else value-keeping moves while the oracle covers them (``value``: the action's)."""
        if self.guide is not None:
            return MoveLine(*self.line_end(root, (action,)))
        line = (action, *self.oracle_line(self.game.result(root, action), value, {root}))
        return MoveLine(*self.line_end(root, line))

    def oracle_line(self, state: Any, value: Any, seen_states: set[Any]) -> Iterator[Any]:
        """Value-keeping moves from ``state`` while the oracle covers them, no position twice."""
        game = self.game
        seen = {self.nodes.key(s) for s in seen_states} | {self.nodes.key(state)}
        limit = self.request.depth
        played = 1
        while limit is None or played < limit:
            acts = tuple(game.actions(state))
            children = self.oracle_children(state, acts) if acts else None
            keeping = [a for a in acts if children is not None and children[a] == value]
            if not keeping:
                return
            state = game.result(state, keeping[0])
            key = self.nodes.key(state)
            if key in seen:
                return
            seen.add(key)
            played += 1
            yield keeping[0]

    def guided_walk(
        self, state: Any, seen: dict[Hashable, int], ply: int
    ) -> tuple[list[Any], LineEnd]:
        """The guide's moves from ``state`` (reached at ``ply``) and how the line ends.

        ``seen`` maps the keys of the positions already on the line to their plies; it grows.
        """
        game = self.game
        moves: list[Any] = []
        while True:
            if game.is_terminal(state):
                return moves, LineEnd("end")
            if len(moves) >= GUIDED_PLIES:
                return moves, LineEnd("cut", reason=f"longer than {GUIDED_PLIES} plies")
            action = self.preferred(state)
            if action is None:
                return moves, LineEnd("cut", reason="the oracle does not cover the position")
            state = game.result(state, action)
            moves.append(action)
            ply += 1
            key = self.nodes.key(state)
            if key in seen:
                return moves, LineEnd("repeat", at=seen[key])
            seen[key] = ply

    def preferred(self, state: Any) -> Any:
        """The guide's preferred move of ``state`` (None: not covered), memoised: every
        iteration's lines walk the same endgames again."""
        guide = self.guide
        assert guide is not None
        key = self.nodes.key(state)
        if key in self.guided_moves:
            return self.guided_moves[key]
        if len(self.guided_moves) >= self.nodes.memo_size:
            self.guided_moves.clear()
        action = self.guided_moves[key] = guide.preferred_action(state)
        return action

    def guided_plies(self, state: Any) -> int | None:
        """Plies to the end along the guide's moves from ``state``: :data:`ENDLESS` when its
        play repeats for ever, None when there is no guide or the line is cut (memoised)."""
        if self.guide is None:
            return None
        key = self.nodes.key(state)
        if key in self.guided_memo:
            return self.guided_memo[key]
        seen = {key: 0}  # the walk adds every position of the line, with its ply
        moves, end = self.guided_walk(state, seen, 0)
        if len(self.guided_memo) + len(seen) >= self.nodes.memo_size:
            self.guided_memo.clear()
        for k, ply in seen.items():
            found = {"end": len(moves) - ply, "repeat": ENDLESS}.get(end.kind)
            self.guided_memo.setdefault(k, found)
        return self.guided_memo[key]

    def line_end(self, root: Any, pv: tuple[Any, ...]) -> tuple[tuple[Any, ...], LineEnd]:
        """``pv`` up to where it must stop, and how it ends.

        The line stops where a position comes back (endless play). At the first position a
        guiding oracle covers, its play takes over to the end. Otherwise it ends at the end of
        the game, or at the search's depth.
        """
        game = self.game
        key = self.nodes.key
        seen = {key(root): 0}
        state = root
        oracle, guide = self.request.oracle, self.guide
        for ply, action in enumerate(pv, 1):
            state = game.result(state, action)
            k = key(state)
            if k in seen:
                return pv[:ply], LineEnd("repeat", at=seen[k])
            seen[k] = ply
            if guide is not None and not game.is_terminal(state) and guide(state) is not None:
                moves, end = self.guided_walk(state, seen, ply)
                return (*pv[:ply], *moves), end
        if game.is_terminal(state):
            return pv, LineEnd("end")
        if oracle is not None and oracle(state) is not None:
            return pv, LineEnd("cut", reason="the oracle gives this position's value, not its play")
        return pv, LineEnd("depth")

    def oracle_children(self, state: Any, acts: Sequence[Any]) -> dict[Any, Any] | None:
        """Each action's exact value from the oracle (the utility of a terminal child).

        None when the oracle does not cover some non-terminal child.
        """
        game = self.game
        oracle = self.request.oracle
        assert oracle is not None
        values: dict[Any, Any] = {}
        for a in acts:
            child = game.result(state, a)
            v = game.utility(child) if game.is_terminal(child) else oracle(child)
            if v is None:
                return None
            values[a] = v
        return values

    def result(
        self,
        *,
        value: Any,
        best_action: Any = None,
        pv: tuple[Any, ...] = (),
        action_values: dict[Any, Any] | None = None,
        best_actions: tuple[Any, ...] = (),
        depth: int | None = None,
        plies: int | None = None,
        action_plies: dict[Any, int | None] | None = None,
        exact: bool = True,
        complete: bool = True,
        pv_end: LineEnd | None = None,
        endless_actions: tuple[Any, ...] = (),
        source: str = "search",
        action_lines: dict[Any, MoveLine] | None = None,
        horizon_actions: tuple[Any, ...] = (),
    ) -> SearchResult:
        """A :class:`SearchResult` with the search's statistics so far."""
        return SearchResult(
            value=value,
            best_action=best_action,
            pv=pv,
            action_values={} if action_values is None else action_values,
            stats=self.nodes.stats(),
            best_actions=best_actions,
            depth=depth,
            plies=plies,
            action_plies={} if action_plies is None else action_plies,
            exact=exact,
            complete=complete,
            pv_end=pv_end,
            endless_actions=endless_actions,
            source=source,
            action_lines={} if action_lines is None else action_lines,
            horizon_actions=horizon_actions,
        )


def _zero(value: Any) -> Any:
    """``value`` with a negative zero made positive (negamax negates draws)."""
    return abs(value) if value == 0 else value
