"""Monte Carlo tree search drawn as it runs: the tree after N iterations, and every step.

:func:`solver.mcts.mcts` reports each iteration to an observer (the selected path, the new
node, the playout's result, every counted node's ``N``, ``W`` and bounds); :func:`mcts_tree`
keeps those reports and builds the same :class:`~viz.build.GameTree` the other searches give,
so every writer (Graphviz, TikZ, the stepper's frames and page) draws it through the one
drawing model (:func:`viz.model.figure`). Nothing is computed twice: the counts shown at a
frame are those the search reported, and the UCB terms are :func:`solver.mcts.ucb_terms` of
them.

Each iteration is four steps, so a class can follow it: *select* (the path down, ending at the
node highlighted), *expand* (the new node appears), *playout* (its result and how it ended),
*back up* (the counts change along the path). Each playout's moves are kept
(``graph.graph["playouts"]``, one record an iteration), so the playout can be drawn as a path
to the end it reached (:mod:`viz.mcts_phases` draws one iteration as AIMA's Figure 5.10).
A node shows ``W/N`` (total result from MAX's view over visits; in the book's style, wins
over playouts from the view of the player who moved into it, ``27/35``), the UCB1 score its
parent's mover sees, split into exploitation + exploration, and, for games small enough to
solve, the exact minimax value beside MCTS's estimate, to show the means converging on it
(or where they go wrong). With the solver, a proven node says so.

Assumes what the search assumes (two players, zero-sum, deterministic) and a small tree: at
most ``max_nodes`` nodes drawn (one per iteration, and the root).

>>> from games import load_game
>>> tree = mcts_tree(load_game("textbook"), iterations=12, seed=0)
>>> tree.graph.number_of_nodes(), len(tree.steps), tree.graph.nodes[0]["history"][-1][1:3]
(12, 48, [12, 72.0])
"""

from __future__ import annotations

from typing import Any

import attrs

from solver.errors import GameError
from solver.game import Game, format_action, format_state, player_name
from solver.mcts import DEFAULT_EXPLORATION, MctsResult, MctsStep, PlayoutKind, mcts, ucb_terms
from solver.results import SearchResult, SearchStats
from solver.solve import solve
from viz.build import (
    DEFAULT_MAX_NODES,
    GameTree,
    Step,
    edge_attrs,
    json_float,
    node_cells,
    node_name,
    node_title,
)
from viz.errors import TooManyNodesError
from viz.notation import number, ucb_text
from viz.tree_node import MctsGraph, MctsNode, mcts_node, tree_node, tree_nodes

__all__ = ["EXACT_STATES", "PLAYOUT_MOVES_KEPT", "mcts_texts", "mcts_tree"]

EXACT_STATES = 200_000
"""The most positions solved to show exact values beside the estimates (else none shown)."""

PLAYOUT_MOVES_KEPT = 12
"""The most moves of a playout kept for drawing (a longer one is drawn to its end as "… k more")."""

_ENDED = {"terminal": "the game ended", "repetition": "a position repeated", "ply-limit": "cap"}


def mcts_tree(
    game: Game[Any, Any],
    state: Any = None,
    *,
    iterations: int = 20,
    seed: int = 0,
    exploration: float = DEFAULT_EXPLORATION,
    playout: PlayoutKind = "random",
    solver: bool = False,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    exact: bool = True,
) -> GameTree:
    """Run :func:`solver.mcts.mcts` for ``iterations`` and build the tree it grew.

    Args:
        game, state: the rulebook and the root (None: the initial state).
        iterations, seed, exploration, playout, solver: as for :func:`solver.mcts.mcts`.
        max_nodes: the most nodes to draw (None: no limit); the tree has at most
            ``iterations + 1``.
        exact: solve the game from the root (up to :data:`EXACT_STATES` positions) to show
            each node's exact minimax value.

    Raises:
        TooManyNodesError: more iterations than the drawing may hold.
        ValueError: a bad option (see :func:`solver.mcts.mcts`).
    """
    if state is None:
        state = game.initial_state()
    if (
        max_nodes is not None
        and isinstance(iterations, int)
        and not isinstance(iterations, bool)
        and iterations + 1 > max_nodes
    ):
        raise TooManyNodesError(
            f"{iterations:,} iterations would draw up to {iterations + 1:,} nodes, over the "
            f"limit of {max_nodes:,}; draw fewer iterations or raise the limit",
            nodes=iterations + 1,
            max_nodes=max_nodes,
        )
    reports: list[MctsStep] = []
    result = mcts(
        game,
        state,
        iterations=iterations,
        seed=seed,
        exploration=exploration,
        playout=playout,
        solver=solver,
        observer=reports.append,
    )
    values = _exact_values(game, state) if exact else None
    graph = MctsGraph()
    steps: list[Step] = []
    states: dict[int, Any] = {0: state}  # each node's position, and the move into it
    actions: dict[int, Any] = {}
    graph.add_tree_node(0, attrs.evolve(_describe(game, state, [], values, 0), order=1))
    for report in reports:
        _add_iteration(game, graph, steps, report, values, playout, states, actions)
    graph.graph.update(_facts(game, state, result, graph, iterations, seed, exploration))
    graph.graph.update(solver=solver, playout=playout, exact_shown=values is not None)
    graph.graph["playouts"] = [_playout_record(game, states, report) for report in reports]
    _mark_line(graph, result, actions)
    return GameTree(
        graph=graph,
        root=0,
        result=_search_result(result),
        steps=tuple(steps),
        searched=graph.number_of_nodes(),
        pruned=0,
        has_boards=all(d.board is not None for _, d in tree_nodes(graph)),
    )


def _exact_values(game: Game[Any, Any], state: Any) -> Any:
    """The exact value of every position below ``state``, or None for a game too large."""
    try:
        return solve(game, state, max_states=EXACT_STATES).value
    except GameError:
        return None


def _describe(
    game: Game[Any, Any], state: Any, path: list[str], values: Any, depth: int
) -> MctsNode:
    from solver.game import HasRender

    name = node_name(game, state)
    terminal = game.is_terminal(state)
    player = game.to_move(state)
    return MctsNode(
        player=player,
        role=player_name(player),
        depth=depth,
        path=path,
        title=node_title(name, path),
        state=format_state(game, state),
        board=game.render(state) if isinstance(game, HasRender) else None,
        cells=node_cells(game, state),
        name=name,
        leaf="terminal" if terminal else None,
        label=f"utility {number(game.utility(state))}" if terminal else None,
        minimax=None if values is None else json_float(values(state)),
    )


def _add_iteration(
    game: Game[Any, Any],
    graph: Any,
    steps: list[Step],
    report: MctsStep,
    values: Any,
    playout: str,
    states: dict[int, Any],
    actions: dict[int, Any],
) -> None:
    k = report.iteration
    selected = report.path[:-1] if report.expanded is not None else report.path
    titles = " → ".join(tree_node(graph, n).title for n in selected)
    steps.append(
        Step("select", selected[-1], f"iteration {k}: select {titles} by UCB1", tuple(selected))
    )
    if report.expanded is not None:
        parent = report.parent
        assert parent is not None
        pdata = tree_node(graph, parent)
        move = format_action(game, states[parent], report.action)
        data = attrs.evolve(
            _describe(game, report.state, [*pdata.path, move], values, pdata.depth + 1),
            move=move,
            order=report.expanded + 1,
            opened=len(steps) + 1,
            reveal=len(steps) + 1,  # a terminal's utility is known once it is in the tree
        )
        states[report.expanded] = report.state
        actions[report.expanded] = report.action
        graph.add_tree_node(report.expanded, data)
        graph.add_edge(parent, report.expanded, **edge_attrs(move))
        said = f"iteration {k}: expand {data.title}, a new node"
        steps.append(Step("expand", report.expanded, said, tuple(report.path)))
    else:
        why = "it is terminal" if tree_node(graph, selected[-1]).leaf else "the tree is full"
        said = f"iteration {k}: nothing to expand: {why}"
        steps.append(Step("expand", selected[-1], said, tuple(report.path)))
    start = tree_node(graph, report.path[-1])
    ended = _ENDED[report.ended]
    if report.ended == "ply-limit":
        ended = f"the playout cap of {report.plies} plies"
    said = (
        f"playout from {start.title}: {number(report.result)} after {report.plies} "
        f"{playout} {'ply' if report.plies == 1 else 'plies'} ({ended})"
    )
    if report.plies == 0 and report.ended == "terminal":
        said = f"{start.title} is terminal: no playout, its utility {number(report.result)}"
    steps.append(Step("playout", report.path[-1], f"iteration {k}: {said}", (report.path[-1],)))
    steps.append(
        Step(
            "backup",
            report.path[-1],
            f"iteration {k}: back up {number(report.result)}: N + 1 and W + "
            f"{number(report.result)} at {len(report.path)} "
            f"{'node' if len(report.path) == 1 else 'nodes'} up to the root",
            tuple(report.path),
        )
    )
    for stat in report.stats:
        mcts_node(graph, stat.node).history.append(
            [
                len(steps),
                stat.n,
                stat.w,
                json_float(stat.lo),
                json_float(stat.hi),
                report.span,
                stat.wins,
            ]
        )


def _playout_record(
    game: Game[Any, Any], states: dict[int, Any], report: MctsStep
) -> dict[str, Any]:
    """One iteration's playout as drawn: the node it ran from, its first
    :data:`PLAYOUT_MOVES_KEPT` moves in the game's notation, its length, end and result."""
    state = states[report.path[-1]]
    moves = []
    for action in report.playout[:PLAYOUT_MOVES_KEPT]:
        moves.append(format_action(game, state, action))
        state = game.result(state, action)
    return {
        "iteration": report.iteration,
        "path": list(report.path),
        "expanded": report.expanded,
        "start": report.path[-1],
        "moves": moves,
        "plies": report.plies,
        "ended": report.ended,
        "result": json_float(report.result),
    }


def _facts(
    game: Game[Any, Any],
    state: Any,
    result: MctsResult,
    graph: Any,
    iterations: int,
    seed: int,
    exploration: float,
) -> dict[str, Any]:
    here = state
    moves = []
    for action in result.pv:
        moves.append(format_action(game, here, action))
        here = game.result(here, action)
    return {
        "game": game.name,
        "algorithm": "mcts",
        "depth": None,
        "position": format_state(game, state),
        "value": result.value,
        "value_text": "mean "
        + number(round(result.value, 3))
        + ("" if result.proven is None else f" (proven {number(result.proven)})"),
        "best_move": moves[0] if moves else None,
        "pv": moves,
        "searched": graph.number_of_nodes(),
        "pruned": 0,
        "exact": result.proven is not None,
        "iterations": result.iterations,
        "seed": seed,
        "exploration": exploration,
    }


def _mark_line(graph: Any, result: MctsResult, actions: dict[int, Any]) -> None:
    """The line :func:`~solver.mcts.mcts` chose (most visited, or proven) is principal
    (``actions``: the move into each node below the root)."""
    node = 0
    tree_node(graph, 0).principal = True
    for action in result.pv:
        kids = list(graph.successors(node))
        best = next(c for c in kids if actions[c] == action)
        graph.edges[node, best]["principal"] = True
        tree_node(graph, best).principal = True
        node = best


def _search_result(result: MctsResult) -> SearchResult:
    return SearchResult(
        value=result.proven if result.proven is not None else result.value,
        best_action=result.best_action,
        pv=result.pv,
        action_values={c.action: c.mean for c in result.children},
        stats=SearchStats(nodes=result.nodes, leaves=result.iterations, seconds=result.seconds),
        exact=result.proven is not None,
    )


def mcts_texts(
    graph: Any, node: int, step: int | None, *, book: bool = False
) -> tuple[str, str, str]:
    """What a node of an MCTS tree shows at ``step`` (None: the end): its ``W/N`` (``book``:
    its wins over playouts from the view of the player who moved into it, as AIMA's Figure
    5.10 writes them, ``27/35``), its UCB1
    score as its parent's mover sees it (exploitation + exploration) and its exact value
    (and, with the solver, what is proven). Every node shows them, terminal leaves too.

    A node not yet counted (its first playout not backed up: the expand and playout steps
    that add it) shows ``W/N 0/0`` and, below the root, ``UCB +∞ (unvisited)``: UCB1 scores
    an unvisited child infinite (the search tries every move once before it compares).

    >>> from games import load_game
    >>> tree = mcts_tree(load_game("textbook"), iterations=12, seed=0)
    >>> mcts_texts(tree.graph, 1, None)
    ('W/N 34/5', 'UCB 6.8 + 12', 'minimax 3')
    >>> mcts_texts(tree.graph, 1, 3)  # iteration 1 expanded B: its playout is not counted yet
    ('W/N 0/0', 'UCB +∞ (unvisited)', 'minimax 3')
    >>> # MAX moved into B: its wins are results above 8, the middle of [2, 14] (8 counts 1/2)
    >>> mcts_texts(tree.graph, 1, None, book=True)[0]
    '2/5'
    """
    data = mcts_node(graph, node)
    parents = list(graph.predecessors(node))
    entry = _entry(data, step)
    exact = "" if data.minimax is None else f"minimax {number(float(data.minimax))}"
    if entry is None:
        return "0/0" if book else "W/N 0/0", ucb_text(None) if parents else "", exact
    _, n, w, lo, hi, _, wins = entry
    if float(lo) == float(hi) and graph.graph.get("solver"):
        exact = f"proven {number(float(lo))}" + (f" · {exact}" if exact else "")
    counts = f"{number(wins)}/{n}" if book else f"W/N {number(round(w, 2))}/{n}"
    if not parents:
        return counts, "", exact
    parent = mcts_node(graph, parents[0])
    above = _entry(parent, step)
    now = _entry(mcts_node(graph, 0), step)
    assert above is not None and now is not None  # a parent is counted whenever its child is
    span = now[5]  # the scale of the latest iteration (the root is counted in every one)
    terms = ucb_terms(parent.player, above[1], n, w, float(graph.graph["exploration"]), span)
    return counts, ucb_text(terms), exact


def _entry(data: MctsNode, step: int | None) -> list[Any] | None:
    """The node's last reported counts at or before ``step`` (None: not yet counted)."""
    found = None
    for entry in data.history:
        if step is not None and entry[0] > step:
            break
        found = entry
    return found
