"""From a real search's events to an annotated networkx tree (and its smaller views).

The search (``solver.minimax.minimax`` or ``alphabeta``) runs once with an observer; every node,
value, window and cut-off in the diagram comes from its events, never from a second computation
(the only exceptions are said where they happen: the greyed subtrees below a cut, which the
search never saw, and the move-ordering pre-pass of :mod:`viz.ordering`). The search is bounded
while it runs: once it enters more nodes than the diagram may draw it is stopped at once.

A teaching tree is a :class:`~viz.tree_node.TreeGraph`: each node holds a
:class:`~viz.tree_node.TreeNode`, whose typed fields are read as attributes (``node.value``) and,
as by the tree's users before, by key (``graph.nodes[0]["value"]``; an unknown key is a
``KeyError``). The fields (all plain JSON-able values, so the graph can be saved as node-link
JSON; the JSON export documents them again in ``graph.fields``):

``kind``         "node" (visited), "pruned" (never visited: alpha-beta cut it off, or lies below
                 such a node) or "summary" (a collapsed subtree; ``positions`` says how many
                 positions it hides)
``player``       0 (MAX) or 1 (MIN), the player to move; ``role`` is "MAX" or "MIN"
``depth``        plies below the root
``move``         the move that led here, in the game's notation ("" at the root)
``path``         the moves from the root (a list of move texts; [] at the root)
``title``        how captions name the node: its ``name`` if it has one, else its path (the
                 moves from the root joined by "·", e.g. "4·0·8"), or "the root"
``state``        the position in the game's notation; ``board`` its ``render`` text (or None);
                 ``cells`` its ``board_cells`` (rows, labels, notes, header, caption) or None
``name``         the game's ``node_name`` for it when the game offers one (AIMA's A, B, C ...)
``order``        the visit order: 1 for the root, n for the n-th node the search entered
                 (None for pruned and summary nodes)
``value``        the value the search returned for it (None if never valued; for pruned nodes
                 the minimax value when revealed)
``bound``        how ``value`` relates to the true minimax value: "exact"; "lower" (true value
                 >= value: the node failed high, value >= beta on entry); "upper" (true value
                 <= value: it failed low, value <= alpha on entry). Leaves are exact.
``exact``        ``bound == "exact"``
``range``        [lo, hi]: what the value is known to lie in once the search left the node
                 ([v, v] exact, [v, +inf] lower, [-inf, v] upper), as in AIMA Figure 5.5
``leaf``         "terminal", "horizon" or None; ``label`` the caller's ``leaf_label`` text
``principal``    on the principal path; ``optimal`` an optimal move at its parent
``cut_by``       for pruned nodes: the node whose cut-off pruned it; ``cut`` the inequality
                 (on the pruned moves themselves, not on the nodes below them)
``alpha_in``/``beta_in``/``alpha_out``/``beta_out``  the window on entry and exit
``cache_hit``    a transposition (reached before along another path); ``hits`` visits merged
``folded``       the sibling moves folded into this node by symmetry
``chance``       a chance node (``role`` "CHANCE"); if visited, ``outcomes`` lists every
                 outcome as [move text, probability], searched or not; ``probe`` a Star2 probe
``opened``       the step from which the node is drawn in step-by-step views (entered, or cut)
``step``/``reveal``  the step at which its value (or its cut) appears

Infinite values are written "inf" and "-inf". Edges carry ``move``, ``principal``, ``optimal``
and ``pruned`` (with ``cut`` on the first pruned edge of a cut-off); out of a chance node also
``probability`` (as written, ``"1/2"``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from functools import partial
from typing import Any, Literal, TypeVar

import attrs
import networkx as nx

from solver.chance import expectation, has_chance, is_chance, outcomes, probability_text
from solver.events import Backup, CacheHit, Cutoff, Enter, Event, Leaf
from solver.expectiminimax import expectiminimax, star1, star2, utility_bounds
from solver.game import (
    Game,
    HasBoardCells,
    HasEvaluate,
    HasRender,
    HasSymmetries,
    format_action,
    format_state,
    player_name,
    state_key,
)
from solver.minimax import alphabeta, minimax
from solver.results import SearchResult, ply_preference
from viz.choices import ALGORITHMS, PRUNED_VIEWS, PRUNING
from viz.errors import TooManyNodesError, VizError
from viz.notation import bound_text, cut_text, number
from viz.tree_node import TreeGraph, TreeNode, tree_node, tree_nodes

__all__ = [
    "ALGORITHMS",
    "BOUNDS",
    "DEFAULT_MAX_NODES",
    "PRUNED_VIEWS",
    "PRUNING",
    "RECORD_LIMIT",
    "GameTree",
    "Step",
    "bound_kind",
    "game_tree",
]

S = TypeVar("S")
A = TypeVar("A")

DEFAULT_MAX_NODES = 1000
"""The largest diagram drawn unless the caller raises ``max_nodes``."""

RECORD_LIMIT = 300_000
"""The most search nodes recorded to build a collapsed, merged or folded view."""

BOUNDS = ("exact", "lower", "upper")

INF = float("inf")


@attrs.frozen
class Step:
    """One frame of backward induction: a leaf valued, a value backed up, or a cut-off."""

    kind: Literal["leaf", "backup", "cut", "select", "expand", "playout"]
    """Backward induction's ``leaf``, ``backup`` and ``cut``; Monte Carlo tree search's four
    phases ``select``, ``expand``, ``playout`` and ``backup`` (:mod:`viz.mcts_tree`)."""
    node: int
    text: str
    path: tuple[int, ...] = ()
    """The nodes the step walks, root first (Monte Carlo tree search: the selected path, and
    the path the result is backed up along); () for a step at one node."""


@attrs.frozen(eq=False)
class GameTree:
    """A drawn search: the annotated ``graph`` and what the search reported.

    Attributes:
        graph: a ``networkx.DiGraph`` (a teaching tree's a :class:`~viz.tree_node.TreeGraph`,
            its nodes :class:`~viz.tree_node.TreeNode`); node and edge attributes as in
            :mod:`viz.build`, and ``graph.graph`` holds the title facts (game, algorithm,
            depth, value, best move) and, for *-minimax, the ``bounds`` [L, U] it searched
            with (else None).
        root: the root's node id (0).
        result: the search's own :class:`~solver.results.SearchResult`.
        steps: the frames of backward induction, in the order the search produced them.
        searched: nodes the search entered (the root included).
        pruned: moves never searched because of cut-offs (the tops of the pruned subtrees;
            under Star2 also a probe's moves after the first when its chance node was cut).
        has_boards: every node carries a ``board`` picture (the game can ``render``).
        saved: the tree's nodes (all that minimax, or expectiminimax, visits) less the nodes
            searched (None: more than could be counted within the record limit; 0 for
            minimax; below 0 when Star2's probes were searched again in full).
    """

    graph: Any
    root: int
    result: SearchResult
    steps: tuple[Step, ...]
    searched: int
    pruned: int
    has_boards: bool
    saved: int | None = 0

    def __repr__(self) -> str:
        facts = self.graph.graph
        return (
            f"<GameTree {facts['game']} {facts['algorithm']}: {self.graph.number_of_nodes()} "
            f"nodes drawn, {self.searched} searched, value {facts['value_text']}>"
        )


class Overflow(Exception):
    """Raised inside an observer to stop a search that outgrew the limit (the teaching trees'
    recorder, the engine's last-iteration keeper)."""


class _Recorder:
    """An observer that keeps the events and stops the search once it outgrows ``limit``.

    ``count_pruned``: the limit counts pruned children too (they are drawn as well).
    """

    def __init__(self, limit: int | None, count_pruned: bool) -> None:
        self.limit = limit
        self.count_pruned = count_pruned
        self.events: list[Event] = []
        self.entered = 0
        self.pruned = 0

    def __call__(self, event: Event) -> None:
        if isinstance(event, Enter):
            self.entered += 1
        elif isinstance(event, Cutoff):
            self.pruned += len(event.pruned)
        self.events.append(event)
        if self.limit is not None and self.size > self.limit:
            raise Overflow

    @property
    def size(self) -> int:
        return self.entered + (self.pruned if self.count_pruned else 0)


def bound_kind(value: float, alpha_in: float, beta_in: float) -> str:
    """The fail-soft rule: a value at or below alpha on entry is an upper bound, at or above beta
    a lower bound, else exact (a bound against an infinite window edge is exact: ``≤ −∞`` is −∞).

    >>> bound_kind(4, 3, 5), bound_kind(4, 5, 9), bound_kind(4, -9, 4), bound_kind(-INF, -INF, 2)
    ('exact', 'upper', 'lower', 'exact')
    """
    if value <= alpha_in and alpha_in != -INF:
        return "upper"
    if value >= beta_in and beta_in != INF:
        return "lower"
    return "exact"


def game_tree(
    game: Game[S, A],
    state: S | None = None,
    depth: int | None = None,
    algorithm: str = "minimax",
    *,
    evaluate: Callable[[Any], float] | None = None,
    transpositions: bool = False,
    collapse: bool = False,
    fold_symmetries: bool = False,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    leaf_label: Callable[[Any], str] | None = None,
    ordering: str = "given",
    pruned: str = "subtree",
    record_limit: int = RECORD_LIMIT,
    bounds: tuple[float, float] | None = None,
) -> GameTree:
    """Run ``algorithm`` from ``state`` and build the annotated tree of what it did.

    Args:
        game: any Game; its optional ``render``, ``format_action``, ``format_state``,
            ``symmetries`` and ``node_name`` are used when present.
        state: the root position (None: the initial state).
        depth: the search horizon in plies (None: to the end of the game).
        algorithm: ``"minimax"`` or ``"alphabeta"`` (the teaching searches); for a game with
            chance ``"expectiminimax"``, ``"star1"`` or ``"star2"`` (:mod:`solver.expectiminimax`):
            chance nodes are drawn with the probabilities on their moves.
        evaluate: the horizon evaluation (default the game's ``evaluate``).
        transpositions: merge visits of the same position at the same depth whose whole
            subtrees the search explored alike (same values, bounds and cuts) into one node
            of a DAG that counts the visits; visits that differ stay apart.
        collapse: keep the principal path and the moves beside it; replace each subtree off
            the path by one summary node ("… 34 positions").
        fold_symmetries: fold sibling positions that the game's ``symmetries`` make equivalent
            into the first of them (which lists the folded moves).
        max_nodes: the most nodes to draw (None: no limit).
        leaf_label: ``state -> str`` written in the leaves (e.g. captured seeds).
        ordering: the order moves are searched in: ``"given"`` (the game's), ``"best"`` (best
            for the mover first) or ``"worst"`` (see :mod:`viz.ordering`).
        pruned: how cut-offs are drawn (:data:`PRUNED_VIEWS`): ``"stub"`` the pruned moves
            only, ``"subtree"`` their subtrees greyed, ``"values"`` greyed with minimax values.
        record_limit: the most search nodes a collapsed, merged or folded view is built from.
        bounds: ``(lo, hi)`` on every utility for ``"star1"``/``"star2"`` (default the game's
            ``utility_bounds``).

    Returns:
        The :class:`GameTree`; draw it with :func:`viz.render`.

    Raises:
        TooManyNodesError: the diagram would draw more than ``max_nodes`` nodes (or a shrunk
            view's search outgrew ``record_limit``); the search is stopped as soon as it does.
        VizError: an unknown ``algorithm``, ``ordering`` or ``pruned``, or a bad ``max_nodes``.
        CapabilityError: a depth limit on a game without ``evaluate`` and no ``evaluate=``.

    >>> from games import load_game
    >>> tree = game_tree(load_game("textbook"), algorithm="alphabeta")
    >>> tree.result.value, tree.searched, tree.pruned, tree.saved
    (3, 11, 2, 2)
    """
    from viz.ordering import ORDERINGS, ordered

    if algorithm not in ALGORITHMS:
        raise VizError(f"unknown algorithm {algorithm!r}; choose one of: {', '.join(ALGORITHMS)}")
    if ordering not in ORDERINGS:
        raise VizError(f"unknown ordering {ordering!r}; choose one of: {', '.join(ORDERINGS)}")
    if pruned not in PRUNED_VIEWS:
        raise VizError(f"unknown pruned view {pruned!r}; choose one of: {', '.join(PRUNED_VIEWS)}")
    if max_nodes is not None and max_nodes < 1:
        raise VizError(f"invalid max_nodes {max_nodes!r}: use a positive number or None")
    if state is None:
        state = game.initial_state()
    if evaluate is None and isinstance(game, HasEvaluate):
        evaluate = game.evaluate
    shrinking = transpositions or collapse or fold_symmetries
    options = {
        "transpositions": transpositions,
        "collapse": collapse,
        "fold_symmetries": fold_symmetries,
    }
    searched_game = game
    if ordering != "given" and has_chance(game):
        raise VizError(
            f"ordering moves {ordering!r} sorts them by a minimax pass, and game {game.name!r} "
            f"has chance moves: draw its {algorithm} tree with the moves in the game's order "
            "(--ordering given; ordering='given' in Python)"
        )
    if ordering != "given":
        searched_game = ordered(game, state, depth, evaluate, ordering, record_limit)
    limit = record_limit if max_nodes is None or shrinking else max_nodes
    recorder = _Recorder(limit, count_pruned=not shrinking and max_nodes is not None)
    searches: dict[str, Callable[..., SearchResult]] = {
        "minimax": minimax,
        "alphabeta": alphabeta,
        "expectiminimax": expectiminimax,
        "star1": partial(star1, bounds=bounds),
        "star2": partial(star2, bounds=bounds),
    }
    search = searches[algorithm]
    try:
        result = search(searched_game, state, depth=depth, evaluate=evaluate, observer=recorder)
    except Overflow:
        raise _refusal(game, depth, options, max_nodes, limit, recorder, shrinking) from None
    graph, steps, states = _tree_from_events(game, recorder.events, leaf_label, algorithm)
    # every move never searched, a Star2 probe's other moves too
    pruned_moves = sum(1 for _, d in tree_nodes(graph) if d.kind == "pruned")
    view = "stub" if collapse else pruned  # a collapsed view summarises them anyway
    drawn_limit = None if shrinking else max_nodes
    try:
        saved = _expand_pruned(
            graph, states, game, depth, evaluate, view, record_limit, drawn_limit
        )
        if saved is not None and algorithm == "star2":  # the tree's nodes less those searched:
            # Star2 enters a probed node twice (probe, then in full), or prunes one its probe
            # searched whole; the greyed subtrees do not say what it saved, the count does
            in_tree = _count(game, state, 0, depth, record_limit)
            saved = in_tree - recorder.entered if in_tree <= record_limit else None
    except Overflow:
        nodes = graph.number_of_nodes()
        raise TooManyNodesError(
            f"the pruned subtrees would take the diagram past {drawn_limit or record_limit:,} "
            f"nodes (the search visited {recorder.entered:,}); draw each cut as its pruned "
            f"moves only with pruned='stub', or use {_depth_hint(depth)}",
            nodes=nodes,
            max_nodes=drawn_limit or record_limit,
            limit="max_nodes" if drawn_limit else "record_limit",
            shrink=("pruned", "depth"),
            at_least=True,
        ) from None
    graph.graph.update(_facts(game, state, result, algorithm, depth, recorder, graph))
    graph.graph["pruned"] = pruned_moves
    graph.graph.update(
        ordering=ordering,
        pruned_view=pruned,
        saved=saved,
        foldable=isinstance(game, HasSymmetries),
        # *-minimax's [L, U] on every value: what it knows of an outcome not searched yet
        bounds=_search_bounds(searched_game, algorithm, bounds),
    )
    if fold_symmetries and isinstance(game, HasSymmetries):
        _fold(graph, game, recorder.events)
    if collapse:
        _collapse(graph)
    if transpositions:
        graph = _merge(graph)
    kept = tuple(s for s in steps if s.node in graph)
    _mark_steps(graph, kept)
    drawn = graph.number_of_nodes()
    graph.graph["drawn"] = drawn
    if max_nodes is not None and drawn > max_nodes:
        raise TooManyNodesError(
            _too_many_drawn(game, drawn, max_nodes, depth, options, pruned, algorithm),
            nodes=drawn,
            max_nodes=max_nodes,
            shrink=_shrinkers(game, depth, options, pruned, algorithm),
        )
    return GameTree(
        graph=graph,
        root=0,
        result=result,
        steps=kept,
        searched=recorder.entered,
        pruned=pruned_moves,
        has_boards=isinstance(game, HasRender),
        saved=saved,
    )


def _search_bounds(
    game: Game[Any, Any], algorithm: str, bounds: tuple[float, float] | None
) -> list[Any] | None:
    """The utility bounds *-minimax searched with (None for the other searches)."""
    if algorithm not in ("star1", "star2"):
        return None
    return [json_float(b) for b in utility_bounds(game, bounds, algorithm)]


def _shrinkers(
    game: Game[Any, Any],
    depth: int | None,
    options: dict[str, bool],
    pruned: str = "stub",
    algorithm: str = "minimax",
) -> tuple[str, ...]:
    """The options not yet used that would draw fewer nodes, as ``game_tree`` keywords."""
    out = ["depth"]
    for name in ("collapse", "transpositions"):
        if not options[name]:
            out.append(name)
    if not options["fold_symmetries"] and isinstance(game, HasSymmetries):
        out.append("fold_symmetries")
    if algorithm == "alphabeta" and pruned != "stub":
        out.append("pruned")
    return tuple(out)


_HINT = {
    "collapse": "collapse=True",
    "transpositions": "transpositions=True",
    "fold_symmetries": "fold_symmetries=True",
    "pruned": "pruned='stub'",
}


def _depth_hint(depth: int | None) -> str:
    return f"a smaller depth (now {depth})" if depth is not None else "a depth limit"


def _too_many_drawn(
    game: Game[Any, Any],
    nodes: int,
    max_nodes: int,
    depth: int | None,
    options: dict[str, bool],
    pruned: str,
    algorithm: str,
    *,
    at_least: bool = False,
) -> str:
    hints = [_depth_hint(depth)]
    hints += [_HINT[k] for k in _shrinkers(game, depth, options, pruned, algorithm)[1:]]
    hints.append(f"a larger max_nodes (now {max_nodes:,})")
    many = f"more than {max_nodes:,}" if at_least else f"{nodes:,}"
    return (
        f"the diagram would draw {many} nodes, more than max_nodes={max_nodes!r}"
        + (" (the search was stopped there)" if at_least else "")
        + f"; shrink it with {', '.join(hints[:-1])}, or {hints[-1]}"
    )


def _refusal(
    game: Game[Any, Any],
    depth: int | None,
    options: dict[str, bool],
    max_nodes: int | None,
    limit: int,
    recorder: _Recorder,
    shrinking: bool,
) -> TooManyNodesError:
    """The error for a search stopped at the limit, blaming the limit that stopped it."""
    if shrinking or max_nodes is None:
        used = ", ".join(k + "=True" for k, v in options.items() if v) or "max_nodes=None"
        message = (
            f"the search passed {limit:,} nodes and was stopped: {used} builds its view from "
            f"the whole search, and record_limit={limit:,} bounds it; use {_depth_hint(depth)}"
            " or alphabeta (it searches fewer nodes)"
        )
        return TooManyNodesError(
            message, nodes=recorder.size, max_nodes=limit, shrink=("depth",), limit="record_limit"
        )
    assert max_nodes is not None
    return TooManyNodesError(
        _too_many_drawn(
            game, recorder.size, max_nodes, depth, options, "stub", "minimax", at_least=True
        ),
        nodes=recorder.size,
        max_nodes=max_nodes,
        shrink=_shrinkers(game, depth, options),
        at_least=True,
    )


def _facts(
    game: Game[Any, Any],
    state: Any,
    result: SearchResult,
    algorithm: str,
    depth: int | None,
    recorder: _Recorder,
    graph: Any,
) -> dict[str, Any]:
    moves = []
    node = 0
    while True:
        nxt = [c for c in graph.successors(node) if graph.edges[node, c]["principal"]]
        if not nxt:
            break
        node = nxt[0]
        moves.append(tree_node(graph, node).move)
    return {
        "game": game.name,
        "algorithm": algorithm,
        "depth": depth,
        "position": format_state(game, state),
        "value": json_float(result.value),
        "value_text": number(result.value),
        "best_move": moves[0] if moves else None,
        "pv": moves,
        "searched": recorder.entered,
        "pruned": recorder.pruned,
        "exact": result.exact,
    }


def json_float(value: float) -> float | str:
    """Infinities as the strings "inf"/"-inf" (strict JSON has no infinity)."""
    if value in (INF, -INF):
        return "inf" if value > 0 else "-inf"
    return value


def as_float(value: float | str | None) -> float | None:
    """A stored value back as a number: "inf" and "-inf" as floats, any other value as it is
    (a Fraction stays exact, so a window α=5/2 is written as the values are); None stays None.

    >>> from fractions import Fraction
    >>> as_float("-inf"), as_float(Fraction(5, 2)), as_float(3)
    (-inf, Fraction(5, 2), 3)
    """
    if value is None or not isinstance(value, str):
        return value
    return float(value)


def node_name(game: Game[Any, Any], state: Any) -> str | None:
    """The game's name for the node (AIMA's A, B, C), or None."""
    namer = getattr(game, "node_name", None)
    if callable(namer):
        name = namer(state)
        return None if name is None else str(name)
    return None


def node_cells(game: Game[Any, Any], state: Any) -> dict[str, Any] | None:
    """The game's ``board_cells`` for ``state`` as a JSON-able dict, or None."""
    if not isinstance(game, HasBoardCells):
        return None
    return attrs.asdict(game.board_cells(state))


def blank_node(kind: str, player: int, depth: int) -> dict[str, Any]:
    """Every node attribute, at its default, as a dict (the engine's and the Monte Carlo trees'
    nodes, which add fields of their own; a teaching tree's nodes are :func:`new_node`'s)."""
    return dict(new_node(kind, player, depth))


def new_node(kind: str, player: int, depth: int) -> TreeNode:
    """A teaching tree's node with every field at its default."""
    return TreeNode(kind=kind, player=player, role=player_name(player), depth=depth)


def node_title(name: str | None, path: list[str]) -> str:
    if name:
        return name
    return "the root" if not path else "·".join(path)


def edge_attrs(
    move: str, pruned: bool = False, cut: str | None = None, probability: Any = None
) -> dict[str, Any]:
    """A move's attributes; out of a chance node, its ``probability`` as written (``"1/2"``)."""
    return {
        "move": move,
        "principal": False,
        "optimal": False,
        "pruned": pruned,
        "cut": cut,
        "probability": None if probability is None else probability_text(probability),
    }


def _odds(game: Game[Any, Any], state: Any) -> dict[Any, Any]:
    """The probability of each move out of ``state`` if chance moves there, else ``{}``."""
    return dict(outcomes(game, state)) if is_chance(game, state) else {}


def _mark_chance(data: TreeNode, game: Game[Any, Any], state: Any) -> None:
    """Mark a chance node: its role is CHANCE."""
    if is_chance(game, state):
        data.chance = True
        data.role = "CHANCE"


def _set_value(data: TreeNode, value: float, bound: str) -> None:
    data.value = value
    data.bound = bound
    data.exact = bound == "exact"
    lo = value if bound != "upper" else -INF
    hi = value if bound != "lower" else INF
    data.range = [json_float(lo), json_float(hi)]


def _tree_from_events(
    game: Game[Any, Any],
    events: list[Event],
    leaf_label: Callable[[Any], str] | None,
    algorithm: str,
) -> tuple[Any, list[Step], dict[int, Any]]:
    graph = TreeGraph()
    states: dict[int, Any] = {}
    children: dict[int, list[tuple[Any, int]]] = {}
    window: dict[int, tuple[float, float]] = {}
    steps: list[Step] = []
    cuts: list[tuple[Cutoff, int]] = []
    probe_rest: dict[int, list[tuple[int, list[Any]]]] = {}  # Star2: per chance node cut
    renders = isinstance(game, HasRender)

    def describe(kind: str, the_state: Any, player: int, depth: int, path: list[str]) -> TreeNode:
        name = node_name(game, the_state)
        return attrs.evolve(
            new_node(kind, player, depth),
            state=format_state(game, the_state),
            board=game.render(the_state) if renders else None,  # type: ignore[attr-defined]
            cells=node_cells(game, the_state),
            name=name,
            path=path,
            move=path[-1] if path else "",
            title=node_title(name, path),
        )

    for event in events:
        if isinstance(event, Enter):
            states[event.node] = event.state
            path: list[str] = []
            if event.parent is not None:
                move = format_action(game, states[event.parent], event.action)
                path = [*tree_node(graph, event.parent).path, move]
                children.setdefault(event.parent, []).append((event.action, event.node))
            data = describe("node", event.state, event.player, event.depth, path)
            data = attrs.evolve(
                data,
                order=event.node + 1,
                alpha_in=json_float(event.alpha),
                beta_in=json_float(event.beta),
                probe=event.probe,
            )
            if event.chance:  # every outcome, drawn or not: what its running range sums over
                here = event.state
                listed = [[format_action(game, here, a), p] for a, p in outcomes(game, here)]
                data = attrs.evolve(data, chance=True, role="CHANCE", outcomes=listed)
            window[event.node] = (event.alpha, event.beta)
            graph.add_tree_node(event.node, data)
            if event.parent is not None:
                edge = edge_attrs(path[-1], probability=event.probability)
                graph.add_edge(event.parent, event.node, **edge)
        elif isinstance(event, Leaf):
            data = tree_node(graph, event.node)
            _set_value(data, event.value, "exact")
            data.leaf = "terminal" if event.terminal else "horizon"
            if leaf_label is not None:
                data.label = leaf_label(states[event.node])
            steps.append(Step("leaf", event.node, _leaf_text(data)))
        elif isinstance(event, Backup):
            data = tree_node(graph, event.node)
            if data.leaf is not None:
                continue  # a leaf's value was given by its Leaf event
            cut_here = cuts[-1][0] if cuts and cuts[-1][0].node == event.node else None
            rest = _probe_rest(game, graph, states, children, event, cut_here)
            if rest:  # Star2 cut while probing: the probes' other moves were never searched
                probe_rest[event.node] = rest
                if not (cuts and cuts[-1][0].node == event.node):  # no outcome left to prune
                    player = tree_node(graph, children[event.node][0][1]).player
                    high = event.bound == "lower"
                    cut = Cutoff(event.node, player, event.value, event.alpha, event.beta, (), high)
                    cuts.append((cut, len(steps)))
                    steps.append(Step("cut", event.node, ""))
            bound = "exact"
            if event.bound is not None:  # said by the search (a chance node, a probe)
                bound = event.bound
            elif algorithm in PRUNING:
                bound = bound_kind(event.value, *window[event.node])
            _set_value(data, event.value, bound)
            data.alpha_out = json_float(event.alpha)
            data.beta_out = json_float(event.beta)
            steps.append(Step("backup", event.node, _backup_text(data)))
        elif isinstance(event, Cutoff):
            cuts.append((event, len(steps)))
            steps.append(Step("cut", event.node, ""))  # text filled below
        elif isinstance(event, CacheHit):
            data = tree_node(graph, event.node)
            data.cache_hit = True
            _set_value(data, event.value, event.bound)

    next_id = max(graph.nodes, default=-1) + 1
    for cut, index in cuts:
        high = cut.high
        inequality = cut_text(cut.value, cut.beta if high else cut.alpha, fails_high=high)
        parent = tree_node(graph, cut.node)
        parent.fails_high = high
        moves = []
        first = True
        for at, actions in [(cut.node, list(cut.pruned)), *probe_rest.get(cut.node, [])]:
            at_state, at_data = states[at], tree_node(graph, at)
            odds = _odds(game, at_state)
            for action in actions:
                child_state = game.result(at_state, action)
                move = format_action(game, at_state, action)
                path = [*at_data.path, move]
                moves.append(move if at == cut.node else node_title(None, path))
                data = describe(
                    "pruned", child_state, game.to_move(child_state), at_data.depth + 1, path
                )
                data = attrs.evolve(data, cut_by=cut.node, cut=inequality)
                _mark_chance(data, game, child_state)
                if game.is_terminal(child_state):
                    data.leaf = "terminal"
                graph.add_tree_node(next_id, data)
                p = odds.get(action)
                edge = edge_attrs(move, True, inequality if first else None, p)
                graph.add_edge(at, next_id, **edge)
                states[next_id] = child_state
                next_id += 1
                first = False
        text = (
            f"cut-off at {_who(parent)}: {inequality}, so "
            f"{'move' if len(moves) == 1 else 'moves'} {', '.join(moves)} need not be searched"
        )
        steps[index] = Step("cut", cut.node, text)
    _mark_principal(graph)
    return graph, steps, states


def _probe_rest(
    game: Game[Any, Any],
    graph: Any,
    states: dict[int, Any],
    children: dict[int, list[tuple[Any, int]]],
    backup: Backup,
    cut: Cutoff | None,
) -> list[tuple[int, list[Any]]]:
    """Star2's probes a chance node's cut left unfinished: each probed outcome that was never
    searched in full, with the moves after the first (the probe searched the first alone).
    An outcome the ``cut`` prunes whole is drawn whole beside its probe instead.

    Empty unless ``backup`` is a chance node's bound (a cut) with such a probe below it.
    """
    if backup.bound not in ("lower", "upper") or backup.node not in children:
        return []
    kids = [(k, tree_node(graph, k)) for _, k in children[backup.node]]
    full = {tuple(kid.path) for _, kid in kids if not kid.probe}
    here = states[backup.node]
    for action in cut.pruned if cut is not None else ():
        full.add((*tree_node(graph, backup.node).path, format_action(game, here, action)))
    return [
        (k, list(game.actions(states[k]))[1:])
        for k, kid in kids
        if kid.probe and tuple(kid.path) not in full and len(game.actions(states[k])) > 1
    ]


def _mark_principal(graph: Any) -> None:
    """The principal path and the optimal moves, from the values the search backed up.

    A node's principal child is one of its exact children whose value is the node's value; when
    several are (possible only where every leaf is a game end), the engine's tie-break picks it:
    the quickest win, the slowest loss or draw (:func:`solver.results.ply_preference`), then the
    first in move order. Optimal moves are marked only at nodes whose value is exact.
    """
    exact_game = all(d.leaf != "horizon" for _, d in tree_nodes(graph))
    plies: dict[int, int] = {}
    choice: dict[int, int] = {}
    for node in reversed(list(nx.topological_sort(graph))):
        data = tree_node(graph, node)
        if data.kind != "node" or data.value is None:
            continue
        if data.chance:  # nobody chooses at a roll: the principal path stops here
            plies[node] = 0
            continue
        kids = [
            c
            for c in graph.successors(node)
            if tree_node(graph, c).kind == "node"
            and tree_node(graph, c).value == data.value
            and tree_node(graph, c).exact
        ]
        if not kids:
            plies[node] = 0
            continue
        mover = data.value if data.player == 0 else -data.value
        if exact_game:
            best = min(kids, key=lambda c: (ply_preference(mover, plies.get(c, 0) + 1), c))
        else:
            best = kids[0]
        choice[node] = best
        plies[node] = plies.get(best, 0) + 1
        if data.exact and graph.out_degree(node) >= 2:
            for child in kids:
                tree_node(graph, child).optimal = True
                graph.edges[node, child]["optimal"] = True
    node = 0
    if 0 in graph and tree_node(graph, 0).value is not None:
        tree_node(graph, 0).principal = True
        while node in choice:
            child = choice[node]
            graph.edges[node, child]["principal"] = True
            tree_node(graph, child).principal = True
            node = child


def _expand_pruned(
    graph: Any,
    states: dict[int, Any],
    game: Game[Any, Any],
    depth: int | None,
    evaluate: Callable[[Any], float] | None,
    view: str,
    limit: int,
    drawn_limit: int | None,
) -> int | None:
    """Grow each pruned node's subtree (greyed), valued by minimax for ``"values"``.

    Returns the nodes saved versus minimax: the sizes of all pruned subtrees (None when they
    hold more than ``limit`` nodes, which are then not counted further). The subtrees are
    added to the graph unless ``view`` is ``"stub"``.

    Raises:
        Overflow: the subtrees would take the graph past ``drawn_limit`` nodes, or hold more
            than ``limit`` (checked as they grow, so nothing large is built).
    """
    tops = [n for n, d in tree_nodes(graph) if d.kind == "pruned"]
    next_id = max(graph.nodes, default=-1) + 1
    chance_odds: dict[int, dict[Any, Any]] = {}  # the outcomes' probabilities at chance nodes
    moves_of: dict[int, Any] = {}  # the action that led to each node grown here
    saved = 0
    renders = isinstance(game, HasRender)
    for top in tops:
        if view == "stub":
            saved += _count(game, states[top], tree_node(graph, top).depth, depth, limit - saved)
            if saved > limit:
                return None
            continue
        stack = [top]
        order: list[int] = []
        while stack:
            node = stack.pop()
            order.append(node)
            saved += 1
            if saved > limit or (drawn_limit is not None and len(graph) > drawn_limit):
                raise Overflow
            data = tree_node(graph, node)
            here = states.pop(node) if node != top else states[top]
            if game.is_terminal(here):
                data.leaf = "terminal"
                if view == "values":
                    _set_value(data, game.utility(here), "exact")
                continue
            if depth is not None and data.depth >= depth:
                data.leaf = "horizon"
                if view == "values" and evaluate is not None:
                    _set_value(data, evaluate(here), "exact")
                continue
            kids = []
            odds = _odds(game, here)
            if odds:
                chance_odds[node] = odds
            for action in game.actions(here):
                child = game.result(here, action)
                move = format_action(game, here, action)
                path = [*data.path, move]
                kid = new_node("pruned", game.to_move(child), data.depth + 1)
                _mark_chance(kid, game, child)
                name = node_name(game, child)
                kid = attrs.evolve(
                    kid,
                    state=format_state(game, child),
                    board=game.render(child) if renders else None,  # type: ignore[attr-defined]
                    cells=node_cells(game, child),
                    name=name,
                    path=path,
                    move=move,
                    title=node_title(name, path),
                    cut_by=data.cut_by,
                )
                graph.add_tree_node(next_id, kid)
                p = odds.get(action)
                graph.add_edge(node, next_id, **edge_attrs(move, pruned=True, probability=p))
                states[next_id] = child
                moves_of[next_id] = action
                kids.append(next_id)
                next_id += 1
            stack.extend(reversed(kids))
        if view == "values":
            for node in reversed(order):
                data = tree_node(graph, node)
                kids_of = list(graph.successors(node))
                known = [tree_node(graph, c).value for c in kids_of]
                values = [v for v in known if v is not None]
                if not values or len(values) < len(known):
                    continue
                if node in chance_odds:
                    odds = chance_odds[node]
                    pairs = zip(kids_of, values, strict=True)
                    weighted = [(odds[moves_of[c]], v) for c, v in pairs]
                    _set_value(data, expectation(weighted), "exact")
                else:
                    _set_value(data, max(values) if data.player == 0 else min(values), "exact")
    return saved


def _count(game: Game[Any, Any], state: Any, at: int, depth: int | None, limit: int) -> int:
    """The nodes of the subtree under ``state`` (at ``at`` plies) to the horizon, up to limit+1."""
    seen = 0
    stack = [(state, at)]
    while stack:
        here, ply = stack.pop()
        seen += 1
        if seen > limit:
            return seen
        if game.is_terminal(here) or (depth is not None and ply >= depth):
            continue
        stack.extend((game.result(here, a), ply + 1) for a in game.actions(here))
    return seen


def _who(data: TreeNode) -> str:
    """A node named for a caption: ``MIN node C``, ``MAX node 4·0``, ``the root (MAX)``."""
    if not data.path and not data.name:
        return f"the root ({data.role})"
    return f"{data.role} node {data.title}"


def _leaf_text(data: TreeNode) -> str:
    kind = "terminal position" if data.leaf == "terminal" else "horizon position (evaluated)"
    where = f" {data.title}" if data.path else " at the root"
    return f"{kind}{where} is worth {number(data.value)}"


_BOUND_TEXT = {
    "exact": "",
    "lower": " — a lower bound: it reached β, the value is at least this",
    "upper": " — an upper bound: it stayed at or below α, the value is at most this",
}


def _backup_text(data: TreeNode) -> str:
    how = "maximum" if data.player == 0 else "minimum"
    if data.chance:
        how = "expectation (probability × value, summed)"
    if data.probe:
        side = "a lower" if data.player == 0 else "an upper"
        return (
            f"{_who(data)} is probed (Star2): its first move alone gives "
            f"{bound_text(data.value, data.bound)}, {side} bound on its value"
        )
    return (
        f"{_who(data)} backs up the {how} of its children: "
        f"{bound_text(data.value, data.bound)}{_BOUND_TEXT[data.bound]}"
    )


def _mark_steps(graph: Any, steps: tuple[Step, ...]) -> None:
    """Record the frame at which each node appears (``opened``) and is valued or cut.

    ``opened``: the first frame at which the search is known to have entered the node (the
    first step in its subtree); pruned nodes appear at their cut's frame. ``reveal``/``step``:
    the frame at which the value (or the cut) appears.
    """
    for index, step in enumerate(steps, start=1):
        if step.node not in graph:
            continue
        node: int | None = step.node
        while node is not None and tree_node(graph, node).opened is None:
            tree_node(graph, node).opened = index
            node = next(iter(graph.predecessors(node)), None)
        if step.kind == "cut":
            for child in subtree_nodes(graph, step.node):
                below = tree_node(graph, child)
                if below.kind == "pruned" and below.step is None:
                    below.step = below.opened = index
        else:
            tree_node(graph, step.node).reveal = index
            tree_node(graph, step.node).step = index


def subtree_nodes(graph: Any, node: int) -> list[int]:
    """Every node below ``node`` (not ``node`` itself)."""
    out: list[int] = []
    stack = list(graph.successors(node))
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(graph.successors(n))
    return out


def _fold(graph: Any, game: Game[Any, Any], events: list[Event]) -> None:
    """Fold sibling positions equivalent under the game's symmetries into the first one."""
    graph.graph["fold_symmetries"] = True
    states = {e.node: e.state for e in events if isinstance(e, Enter)}
    folded_away = 0
    for parent in list(graph.nodes):
        if parent not in graph or parent not in states:
            continue
        seen: dict[frozenset[Hashable], int] = {}
        for child in list(graph.successors(parent)):
            data = tree_node(graph, child)
            child_state = states.get(child)
            if child_state is None:
                child_state = _pruned_state(game, states[parent], data.move)
                if child_state is None:
                    continue
            cls = frozenset(_keys(game, game.symmetries(child_state)))  # type: ignore[attr-defined]
            if cls in seen:
                keep = seen[cls]
                tree_node(graph, keep).folded.append(data.move)
                gone = [child, *subtree_nodes(graph, child)]
                folded_away += len(gone)
                graph.remove_nodes_from(gone)
            else:
                seen[cls] = child
    graph.graph["folded_away"] = folded_away


def _keys(game: Game[Any, Any], states: Iterable[Any]) -> Iterable[Hashable]:
    return (state_key(game, s) for s in states)


def _pruned_state(game: Game[Any, Any], parent_state: Any, move: str) -> Any:
    for action in game.actions(parent_state):
        if format_action(game, parent_state, action) == move:
            return game.result(parent_state, action)
    return None


def _collapse(graph: Any) -> None:
    """Keep the principal path and its siblings; summarise every other subtree in one node."""
    graph.graph["collapse"] = True
    next_id = max(graph.nodes) + 1
    hidden = 0
    for node in [n for n, d in tree_nodes(graph) if d.principal]:
        for child in list(graph.successors(node)):
            if tree_node(graph, child).principal:
                continue
            below = subtree_nodes(graph, child)
            if not below:
                continue
            searched = sum(1 for n in below if tree_node(graph, n).kind == "node")
            graph.remove_nodes_from(below)
            hidden += searched
            cdata = tree_node(graph, child)
            summary = new_node("summary", 1 - cdata.player, cdata.depth + 1)
            summary = attrs.evolve(summary, positions=searched, path=cdata.path, title=cdata.title)
            graph.add_tree_node(next_id, summary)
            graph.add_edge(child, next_id, **edge_attrs(""))
            next_id += 1
    graph.graph["collapsed_away"] = hidden


def _merge(graph: Any) -> Any:
    """Merge visits the search explored alike into one node of a DAG.

    Two nodes merge when they hold the same position at the same depth and their whole subtrees
    agree: the same kind, value and bound at every node, the same moves, the same cuts. Under
    minimax every visit of a position (at one depth) is alike, so each position appears once;
    under alpha-beta a visit cut off in one window and searched in full in another stay two
    nodes, each consistent with its children.
    """
    signature: dict[int, int] = {}
    interned: dict[tuple[Any, ...], int] = {}
    first: dict[int, int] = {}
    rep: dict[int, int] = {}
    for node in reversed(list(nx.topological_sort(graph))):
        data = tree_node(graph, node)
        kids = tuple(
            (graph.edges[node, c]["move"], graph.edges[node, c]["pruned"], signature[c])
            for c in sorted(graph.successors(node))
        )
        key = (
            data.kind,
            data.state,
            data.depth,
            data.value,
            data.bound,
            data.positions,
            data.cut,
            kids,
        )
        signature[node] = interned.setdefault(key, len(interned))
    for node in sorted(graph.nodes):
        sig = signature[node]
        if sig in first:
            rep[node] = first[sig]
            keep = tree_node(graph, first[sig])
            keep.hits += 1
            keep.cache_hit = True
        else:
            first[sig] = rep[node] = node
    merged = TreeGraph()
    merged.graph.update(graph.graph)
    merged.graph["transpositions"] = True
    for node, kept in tree_nodes(graph):
        if rep[node] == node:
            merged.add_tree_node(node, kept)
    for u, v, data in graph.edges(data=True):
        a, b = rep[u], rep[v]
        if merged.has_edge(a, b):
            edge = merged.edges[a, b]
            edge["principal"] = edge["principal"] or data["principal"]
            edge["optimal"] = edge["optimal"] or data["optimal"]
        else:
            merged.add_edge(a, b, **data)
    for node in merged.nodes:
        data = tree_node(merged, node)
        if any(merged.edges[p, node]["principal"] for p in merged.predecessors(node)):
            data.principal = True
    positions = {(d.state, d.depth) for _, d in tree_nodes(merged)}
    merged.graph["states"] = len(positions)
    merged.graph["visits_apart"] = merged.number_of_nodes() - len(positions)
    return merged
