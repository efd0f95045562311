"""The fast engine's search as a tree: the last iteration of iterative deepening, table hits
and all.

:func:`solver.engine.search` reports what it does to an observer (node entered with its
window, leaf, transposition-table hit with the stored entry's flag, cut-off, value backed up).
:func:`engine_tree` keeps the events of its last iteration, the one whose answer the engine
gives, and builds the tree it explored; :func:`engine_iterations` builds every iteration's.
:func:`engine_game_tree` puts a tree into the drawing model (:mod:`viz.model`), which says once
what each node shows. This module draws nothing: the writers stand above it
(:mod:`viz.engine_dot` for Graphviz, :mod:`viz.tikz`, the pages of :mod:`viz.html` and
:mod:`viz.interactive`), and :func:`viz.export.render` picks the writer for a file's format.

What the picture shows that the teaching trees do not:

- **table hits**: a position whose stored entry answered at once is a cylinder (the table)
  labelled by the entry's flag: ``=v`` EXACT, ``≥v`` LOWER (the true value is at least v),
  ``≤v`` UPPER (at most v); ``d`` gives the depth the entry was searched to (∞: to the end).
  A hit whose bound did not settle the node is noted beside it, and the node is searched on;
- **windows**: every inner node carries the (α, β) window it was entered with, from MAX's side;
  a null window (β − α tiny) is a *probe* ("is the value above v?"), written ``probe v``;
- **move ordering**: children stand in the order the engine tried them (the table's move and the
  history heuristic first), with ``#k``, the order of entry in the iteration, under each node;
- values are bounds exactly where the engine stored them as bounds (≥ LOWER, ≤ UPPER).

Assumes what the engine assumes (two players, zero-sum, deterministic, perfect information) and
that the tree is small: the diagram is refused past ``max_nodes`` entered nodes, counted while the
engine runs, so a large search stops at once instead of running to the end first.

>>> from games import load_game
>>> game = load_game("tictactoe")
>>> tree = engine_tree(game, game.parse_state("o../x.x/ox."))
>>> tree.result.value, tree.searched, sorted(tree.hits.items())
(-1, 29, [('exact', 1), ('lower', 1), ('upper', 2)])
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import attrs
import networkx as nx

from solver.engine import search
from solver.events import Backup, CacheHit, Cutoff, Enter, Event, Iteration, Leaf, OracleHit
from solver.game import Game, format_action, format_state, player_name
from solver.results import SearchResult
from viz.build import (
    DEFAULT_MAX_NODES,
    GameTree,
    Overflow,
    bound_kind,
    edge_attrs,
    json_float,
    node_name,
    node_title,
)
from viz.errors import TooManyNodesError
from viz.notation import (
    PROBE_WIDTH,
    TABLE_FLAG,
    answer_facts,
    cut_text,
    number,
    pair_window_text,
)
from viz.tree_node import EngineGraph, EngineNode

__all__ = [
    "EngineTree",
    "engine_game_tree",
    "engine_iterations",
    "engine_tree",
    "iterations_title",
    "summary_line",
]

FLAG = TABLE_FLAG
"""The transposition-table flag of each bound kind, in the engine's words."""


@attrs.frozen(eq=False)
class EngineTree:
    """The engine's last iteration, as an annotated ``networkx.DiGraph``.

    Attributes:
        graph: nodes carry ``kind`` ("node" or "pruned"), ``player``, ``role``, ``depth``,
            ``move``, ``state``, ``name``, ``order`` (entry order in the iteration, from 1),
            ``alpha_in``/``beta_in`` (the window, MAX's side), ``value`` and ``bound`` (as the
            engine left it), ``leaf`` ("terminal", "horizon", "oracle" or None), ``table``
            (the hit entry's bound kind or None), ``table_value``, ``table_depth`` (-1: searched
            to the end), ``principal``; edges carry ``move``, ``pruned``, ``cut`` and
            ``principal``. ``graph.graph`` holds the facts of the caption.
        root: the root's node id.
        result: the engine's :class:`~solver.results.SearchResult`.
        iteration: the last iteration's depth in plies (None: searched to the end).
        iterations: how many iterations the engine ran.
        searched: nodes entered in the last iteration.
        hits: table hits in the last iteration, by bound kind.
        cutoffs: cut-offs in the last iteration.
    """

    graph: Any
    root: int
    result: SearchResult
    iteration: int | None
    iterations: int
    searched: int
    hits: dict[str, int]
    cutoffs: int
    number: int = 0
    """With :func:`engine_iterations`, which iteration this is (1 for the first); 0: the last."""
    previous_best: str | None = None
    """With :func:`engine_iterations`, the best move of the iteration before (tried first)."""


class _LastIteration:
    """An observer that keeps only the current iteration's events and stops past a limit.

    An iteration is what follows an :class:`~solver.events.Iteration` event, as in
    :func:`solver.events.last_iteration`; keeping one at a time bounds the memory, and counting
    while the engine runs stops a search that is too large at once.
    """

    def __init__(self, limit: int, keep: bool = False) -> None:
        self.limit = limit
        self.keep = keep
        self.kept: list[tuple[list[Event], int | None, int]] = []
        """With ``keep``: each earlier iteration's events, depth and nodes entered."""
        self.events: list[Event] = []
        self.iterations = 0
        self.depth: int | None = None
        self.entered = 0

    def __call__(self, event: Event) -> None:
        if isinstance(event, Iteration):
            if self.keep and self.iterations:
                self.kept.append((self.events, self.depth, self.entered))
            self.events, self.entered, self.depth = [], 0, event.depth
            self.iterations += 1
            return
        if isinstance(event, Enter):
            self.entered += 1
            if self.entered > self.limit:
                raise Overflow
        self.events.append(event)


def engine_tree(
    game: Game[Any, Any],
    state: Any = None,
    depth: int | None = None,
    *,
    evaluate: Any = None,
    max_nodes: int = DEFAULT_MAX_NODES,
    table_size: int = 1 << 16,
) -> EngineTree:
    """Run the engine from ``state`` and build the tree of its last iteration.

    Args:
        game: any Game.
        state: the root position (None: the initial state).
        depth: the deepest iteration (None: deepen until the answer is exact).
        evaluate: the horizon evaluation (default the game's ``evaluate``).
        max_nodes: refuse an iteration that enters more nodes than this.
        table_size: the transposition table's entries (a fresh table for each call).

    Raises:
        TooManyNodesError: an iteration entered more than ``max_nodes`` nodes (the search is
            stopped there).

    >>> from games import load_game
    >>> tree = engine_tree(load_game("textbook"))
    >>> tree.result.value, tree.searched, tree.hits
    (3, 11, {})
    """
    state = game.initial_state() if state is None else state
    recorder = _LastIteration(max_nodes)
    result, _ = _run(game, state, depth, evaluate, table_size, recorder, each=False)
    return _assemble(
        game, state, recorder.events, result, recorder.depth, recorder.iterations, recorder.entered
    )


def engine_iterations(
    game: Game[Any, Any],
    state: Any = None,
    depth: int | None = None,
    *,
    evaluate: Any = None,
    max_nodes: int = DEFAULT_MAX_NODES,
    table_size: int = 1 << 16,
) -> list[EngineTree]:
    """Iterative deepening step by step: the tree of every iteration, first to last.

    Each tree is drawn from that iteration's own events and answer (its value, best move and
    PV at its depth); its root's moves stand in the order the engine tried them, the best move
    of the iteration before first (``previous_best``), so the pictures side by side show how
    each iteration's answer orders the next. A game without an evaluation function has no
    horizon to deepen through: one search, one tree. Options as :func:`engine_tree`
    (``max_nodes`` bounds each iteration).

    >>> from games import load_game
    >>> game = load_game("tictactoe")
    >>> trees = engine_iterations(game, game.parse_state("xo./.xo/.x."))
    >>> [(t.number, t.iteration, t.graph.graph["best_move"], t.previous_best) for t in trees]
    [(1, 1, '6', None), (2, 2, '8', '6'), (3, 3, '8', '8'), (4, 4, '8', '8')]
    >>> [_root_order(t)[0] for t in trees[1:]]  # each iteration tries the last best move first
    ['6', '8', '8']
    """
    state = game.initial_state() if state is None else state
    recorder = _LastIteration(max_nodes, keep=True)
    result, answers = _run(game, state, depth, evaluate, table_size, recorder, each=True)
    runs = [*recorder.kept, (recorder.events, recorder.depth, recorder.entered)]
    answers = answers if len(answers) == len(runs) else [*answers[: len(runs) - 1], result]
    trees: list[EngineTree] = []
    previous: str | None = None
    for k, ((events, at, entered), answer) in enumerate(zip(runs, answers, strict=True), 1):
        tree = _assemble(game, state, events, answer, at, recorder.iterations, entered)
        tree = attrs.evolve(tree, number=k, previous_best=previous)
        tree.graph.graph.update(number=k, previous_best=previous)
        trees.append(tree)
        previous = tree.graph.graph["best_move"]
    return trees


def _run(
    game: Game[Any, Any],
    state: Any,
    depth: int | None,
    evaluate: Any,
    table_size: int,
    recorder: _LastIteration,
    each: bool,
) -> tuple[SearchResult, list[SearchResult]]:
    """The engine's search under ``recorder``, and each completed iteration's answer.

    ``each``: ask for every iteration's answer, which makes the engine deepen one ply at a time
    even to the end (without, a search to the end is one search, as the engine runs it).
    """
    max_nodes = recorder.limit
    if max_nodes < 1:
        raise TooManyNodesError(
            f"invalid max_nodes {max_nodes!r}: use a positive number", nodes=0, max_nodes=max_nodes
        )
    answers: list[SearchResult] = []
    try:
        result = search(
            game,
            state,
            depth=depth,
            evaluate=evaluate,
            observer=recorder,
            table_size=table_size,
            plies=True,
            on_depth=answers.append if each else None,
        )
    except Overflow:
        where = f"iteration {recorder.iterations}" if recorder.iterations > 1 else "its search"
        raise TooManyNodesError(
            f"the engine entered more than max_nodes={max_nodes:,} nodes in {where}; draw a "
            "position nearer the end, "
            + ("a depth limit" if depth is None else f"a smaller depth (now {depth})")
            + ", or raise max_nodes",
            nodes=max_nodes + 1,
            max_nodes=max_nodes,
            at_least=True,
            shrink=("depth",),
        ) from None
    return result, answers


def _assemble(
    game: Game[Any, Any],
    state: Any,
    events: list[Event],
    result: SearchResult,
    depth: int | None,
    iterations: int,
    searched: int,
) -> EngineTree:
    """The tree of one iteration's ``events`` (``searched`` nodes entered, at ``depth``) with
    its answer ``result``, one of ``iterations``."""
    graph = _graph(game, events, result)
    if not graph:  # the game is over at the root: the engine answers without entering it
        graph.add_node(0, **_engine_node("node", game.to_move(state), 0, ""))
        graph.nodes[0].update(
            state=format_state(game, state),
            name=node_name(game, state),
            value=result.value,
            leaf="terminal",
            principal=True,
        )
    hits = Counter(d["table"] for _, d in graph.nodes(data=True) if d["table"])
    cutoffs = sum(isinstance(e, Cutoff) for e in events)
    iteration = depth if depth is not None else result.depth
    facts = graph.graph
    facts.update(
        game=game.name,
        position=format_state(game, state),
        value=result.value,
        value_text=number(result.value),
        best_move=format_action(game, state, result.best_action) if result.pv else None,
        pv=_pv_moves(game, state, result.pv),
        iteration=iteration,
        iterations=iterations,
        searched=searched,
        hits=dict(hits),
        cutoffs=cutoffs,
    )
    return EngineTree(
        graph=graph,
        root=min(graph.nodes),
        result=result,
        iteration=iteration,
        iterations=iterations,
        searched=searched,
        hits=dict(hits),
        cutoffs=cutoffs,
    )


def _pv_moves(game: Game[Any, Any], state: Any, pv: tuple[Any, ...]) -> list[str]:
    moves = []
    for action in pv:
        moves.append(format_action(game, state, action))
        state = game.result(state, action)
    return moves


def _graph(game: Game[Any, Any], events: list[Event], result: SearchResult) -> Any:
    graph = nx.DiGraph()
    states: dict[int, Any] = {}
    actions: dict[tuple[int, Any], int] = {}
    windows: dict[int, tuple[float, float]] = {}
    next_id = max((e.node for e in events if isinstance(e, Enter)), default=0) + 1
    for event in events:
        if isinstance(event, Enter):
            states[event.node] = event.state
            windows[event.node] = (event.alpha, event.beta)
            move = (
                ""
                if event.parent is None
                else format_action(game, states[event.parent], event.action)
            )
            data = _engine_node("node", event.player, event.depth, move)
            data.update(
                state=format_state(game, event.state),
                name=node_name(game, event.state),
                order=len(windows),
                alpha_in=event.alpha,
                beta_in=event.beta,
            )
            graph.add_node(event.node, **data)
            if event.parent is not None:
                actions[event.parent, event.action] = event.node
                graph.add_edge(event.parent, event.node, move=move, pruned=False, cut=None)
        elif isinstance(event, Leaf):
            graph.nodes[event.node].update(
                value=event.value, bound="exact", leaf="terminal" if event.terminal else "horizon"
            )
        elif isinstance(event, OracleHit):
            graph.nodes[event.node].update(value=event.value, bound="exact", leaf="oracle")
        elif isinstance(event, CacheHit):
            graph.nodes[event.node].update(
                value=event.value,
                bound=event.bound,
                table=event.bound,
                table_value=event.value,
                table_depth=event.depth,
            )
        elif isinstance(event, Backup):
            # the flag the engine stored; the fail-soft rule for a search that does not say
            bound = event.bound or bound_kind(event.value, *windows[event.node])
            graph.nodes[event.node].update(value=event.value, bound=bound)
        elif isinstance(event, Cutoff):
            parent = graph.nodes[event.node]
            for i, action in enumerate(event.pruned):
                move = format_action(game, states[event.node], action)
                graph.add_node(
                    next_id,
                    **_engine_node("pruned", 1 - parent["player"], parent["depth"] + 1, move),
                )
                graph.add_edge(
                    event.node,
                    next_id,
                    move=move,
                    pruned=True,
                    cut=_cut_text(event) if i == 0 else None,
                )
                next_id += 1
    if not graph:
        return graph
    # the principal variation the engine answers with, along the nodes it entered
    root = min(graph.nodes)
    node: int | None = root
    graph.nodes[root]["principal"] = True
    for action in result.pv:
        child = actions.get((node, action)) if node is not None else None
        if child is None:
            break
        graph.edges[node, child]["principal"] = True
        graph.nodes[child]["principal"] = True
        node = child
    return graph


def _cut_text(cut: Cutoff) -> str:
    """The cut-off as an inequality in :mod:`viz.notation`'s words: ``v=1 ≥ β=0``; in a null
    window the edge is written as the probe's value (``β=0``, not the next float above 0)."""
    limit = cut.beta if cut.high else cut.alpha
    if cut.beta - cut.alpha < PROBE_WIDTH:
        limit = (cut.alpha + cut.beta) / 2 + 0.0
    return cut_text(cut.value, limit, fails_high=cut.high)


def _engine_node(kind: str, player: int, depth: int, move: str) -> dict[str, Any]:
    return {
        "kind": kind,
        "player": int(player),
        "role": player_name(int(player)),
        "depth": depth,
        "move": move,
        "state": "",
        "name": None,
        "order": None,
        "alpha_in": None,
        "beta_in": None,
        "value": None,
        "bound": "exact",
        "leaf": None,
        "table": None,
        "table_value": None,
        "table_depth": None,
        "principal": False,
    }


def window_text(alpha: float, beta: float) -> str:
    """A window as the picture writes it (:func:`viz.notation.pair_window_text`).

    >>> window_text(float("-inf"), 2), window_text(-1.0000000000000002, -0.9999999999999999)
    ('(−∞, 2)', 'probe −1')
    """
    return pair_window_text(alpha, beta)


def engine_game_tree(tree: EngineTree) -> GameTree:
    """The engine's tree in the drawing model's terms: a :class:`~viz.build.GameTree` that
    every writer draws (Graphviz, TikZ, the pages) through :func:`viz.model.figure`.

    Its nodes are :class:`~viz.tree_node.EngineNode`: a teaching tree's fields (``path``,
    ``title``, the window as ``alpha_in``/``beta_in``, ``value`` and ``bound`` as the engine
    stored them, ``order``, ``principal``) and the table hit (``table``, ``table_value``,
    ``table_depth``); its moves
    the cut as :mod:`viz.notation` writes it. ``graph.graph`` holds the caption's facts, the
    algorithm ``"engine"`` and the summary line. It has no steps: an iteration is drawn whole.

    >>> from games import load_game
    >>> game = load_game("tictactoe")
    >>> drawn = engine_game_tree(engine_tree(game, game.parse_state("o../x.x/ox.")))
    >>> drawn.graph.graph["algorithm"], drawn.searched, drawn.pruned
    ('engine', 29, 2)
    """
    source = tree.graph
    graph = EngineGraph()
    paths: dict[int, list[str]] = {}
    for node, data in source.nodes(data=True):
        parents = list(source.predecessors(node))
        path = [*paths[parents[0]], data["move"]] if parents else []
        paths[node] = path
        out = EngineNode(
            kind=data["kind"],
            player=data["player"],
            role=player_name(data["player"]),
            depth=data["depth"],
            move=data["move"],
            path=path,
            title=node_title(data["name"], path),
            state=data["state"],
            name=data["name"],
            order=data["order"],
            alpha_in=None if data["alpha_in"] is None else json_float(data["alpha_in"]),
            beta_in=None if data["beta_in"] is None else json_float(data["beta_in"]),
            value=data["value"],
            bound=data["bound"],
            exact=data["bound"] == "exact",
            leaf=data["leaf"],
            principal=data["principal"],
            table=data["table"],
            table_value=data["table_value"],
            table_depth=data["table_depth"],
        )
        graph.add_tree_node(node, out)
    for u, v, data in source.edges(data=True):
        edge = edge_attrs(data["move"], data["pruned"], data["cut"])
        edge["principal"] = bool(data.get("principal"))
        graph.add_edge(u, v, **edge)
    facts = source.graph
    graph.graph.update(
        {
            **facts,
            "algorithm": "engine",
            "depth": tree.iteration,
            "value": json_float(facts["value"]),
            "exact": tree.result.exact,
            "searched": tree.searched,
            "pruned": sum(1 for _, d in source.nodes(data=True) if d["kind"] == "pruned"),
            "summary": summary_line(tree),
            "root_order": _root_order(tree),
        }
    )
    return GameTree(
        graph=graph,
        root=tree.root,
        result=tree.result,
        steps=(),
        searched=tree.searched,
        pruned=graph.graph["pruned"],
        has_boards=False,
        saved=None,
    )


def summary_line(tree: EngineTree) -> str:
    """The caption's facts: value, best move, PV, and what the last iteration did."""
    parts = answer_facts(tree.graph.graph)
    which = "to the end" if tree.iteration is None else f"depth {tree.iteration}"
    if not tree.searched:  # the engine answers a finished game without entering it
        return "; ".join([*parts, "the game is over at the root: nothing searched"])
    if tree.number:  # one of engine_iterations' trees
        order = ", ".join(_root_order(tree))
        first = (
            f"; {tree.previous_best} first, the best move of iteration {tree.number - 1}"
            if tree.previous_best is not None
            else ""
        )
        parts.append(
            f"iteration {tree.number} of {tree.iterations} ({which}): {tree.searched:,} nodes; "
            f"root moves tried {order}{first}"
        )
    elif tree.iterations == 1:
        parts.append(f"one search ({which}): {tree.searched:,} nodes")
    else:
        parts.append(f"last of {tree.iterations} iterations ({which}): {tree.searched:,} nodes")
    if tree.hits:
        kinds = ", ".join(
            f"{tree.hits[k]} {FLAG[k]}" for k in ("exact", "lower", "upper") if k in tree.hits
        )
        parts.append(f"{sum(tree.hits.values())} table hits ({kinds})")
    parts.append(f"{tree.cutoffs} cut-off" + ("" if tree.cutoffs == 1 else "s"))
    return "; ".join(parts)


def _root_order(tree: EngineTree) -> list[str]:
    """The root's moves in the order the engine entered them (a re-searched move once)."""
    graph = tree.graph
    moves: list[str] = []
    children = sorted(graph.successors(tree.root), key=lambda n: graph.nodes[n]["order"] or 0)
    for child in children:
        if graph.nodes[child]["kind"] == "node" and graph.nodes[child]["move"] not in moves:
            moves.append(graph.nodes[child]["move"])
    return moves


def iterations_title(trees: list[EngineTree]) -> str:
    """The pages' heading: the engine, the game and the position, iterative deepening."""
    facts = trees[-1].graph.graph
    return (
        f"Iterative deepening: the engine on {facts['game']} from {facts['position']}, "
        f"{len(trees)} {'iteration' if len(trees) == 1 else 'iterations'}"
    )
