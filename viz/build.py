"""From a real search's events to an annotated networkx tree (and its smaller views).

The search (``solver.minimax.minimax`` or ``alphabeta``) runs once with an observer; every node,
value, window and cut-off in the diagram comes from its events, never from a second computation.
Node attributes (all plain JSON-able values, so the graph can be saved as node-link JSON):

``kind``         "node" (visited), "pruned" (never visited: alpha-beta cut it off) or "summary"
                 (a collapsed subtree, ``positions`` says how many positions it hides)
``player``       0 (MAX) or 1 (MIN), the player to move; ``role`` is "MAX" or "MIN"
``depth``        plies below the root
``move``         the move that led here, in the game's notation ("" at the root)
``state``        the position in the game's notation; ``board`` its ``render`` text (or None)
``name``         the game's ``node_name`` for it when the game offers one (AIMA's A, B, C ...)
``value``        the backed-up value (None if never valued); ``exact`` False for a bound
``leaf``         "terminal", "horizon" or None; ``label`` the caller's ``leaf_label`` text
``principal``    on the principal path; ``optimal`` an optimal move at its parent
``cut_by``       for pruned nodes: the node whose cut-off pruned it; ``cut`` the inequality
``alpha_in``/``beta_in``/``alpha_out``/``beta_out``  the window on entry and exit
``cache_hit``    a transposition (reached before along another path); ``hits`` visits merged
``folded``       the sibling moves folded into this node by symmetry
``step``         the frame at which the node's value (or cut) appears, for step-by-step views

Edges carry ``move``, ``principal``, ``optimal`` and ``pruned`` (with ``cut`` on the first pruned
edge of a cut-off).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any, Literal

import attrs
import networkx as nx

from solver.events import Backup, CacheHit, Cutoff, Enter, Event, Leaf
from solver.game import (
    Game,
    HasRender,
    HasSymmetries,
    format_action,
    format_state,
    player_name,
    state_key,
)
from solver.minimax import alphabeta, minimax
from solver.results import SearchResult, format_value
from viz.errors import TooManyNodesError, VizError

__all__ = ["DEFAULT_MAX_NODES", "RECORD_LIMIT", "GameTree", "Step", "game_tree"]

DEFAULT_MAX_NODES = 1000
"""The largest diagram drawn unless the caller raises ``max_nodes``."""

RECORD_LIMIT = 300_000
"""The most search nodes recorded to build a collapsed, merged or folded view."""

ALGORITHMS = ("minimax", "alphabeta")


@attrs.frozen
class Step:
    """One frame of backward induction: a leaf valued, a value backed up, or a cut-off."""

    kind: Literal["leaf", "backup", "cut"]
    node: int
    text: str


@attrs.frozen(eq=False)
class GameTree:
    """A drawn search: the annotated ``graph`` and what the search reported.

    Attributes:
        graph: a ``networkx.DiGraph``; node and edge attributes as in :mod:`viz.build`, and
            ``graph.graph`` holds the title facts (game, algorithm, depth, value, best move).
        root: the root's node id (0).
        result: the search's own :class:`~solver.results.SearchResult`.
        steps: the frames of backward induction, in the order the search produced them.
        searched: nodes the search entered (the root included).
        pruned: children never visited because of cut-offs.
        has_boards: every node carries a ``board`` picture (the game can ``render``).
    """

    graph: Any
    root: int
    result: SearchResult
    steps: tuple[Step, ...]
    searched: int
    pruned: int
    has_boards: bool

    def _repr_svg_(self) -> str:
        """The diagram as SVG, so a Jupyter cell displays it inline."""
        from viz.dot import to_svg

        return to_svg(self)

    def __repr__(self) -> str:
        facts = self.graph.graph
        return (
            f"<GameTree {facts['game']} {facts['algorithm']}: {self.graph.number_of_nodes()} "
            f"nodes drawn, {self.searched} searched, value {facts['value_text']}>"
        )


class _Recorder:
    """An observer that keeps the events (up to a limit) and counts what it could not keep."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.events: list[Event] = []
        self.entered = 0
        self.pruned = 0
        self.overflow = False

    def __call__(self, event: Event) -> None:
        if isinstance(event, Enter):
            self.entered += 1
            if self.entered > self.limit:
                self.overflow = True
        elif isinstance(event, Cutoff):
            self.pruned += len(event.pruned)
        if not self.overflow:
            self.events.append(event)


def game_tree(
    game: Game[Any, Any],
    state: Any = None,
    depth: int | None = None,
    algorithm: str = "minimax",
    *,
    evaluate: Callable[[Any], float] | None = None,
    transpositions: bool = False,
    collapse: bool = False,
    fold_symmetries: bool = False,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    leaf_label: Callable[[Any], str] | None = None,
) -> GameTree:
    """Run ``algorithm`` from ``state`` and build the annotated tree of what it did.

    Args:
        game: any Game; its optional ``render``, ``format_action``, ``format_state``,
            ``symmetries`` and ``node_name`` are used when present.
        state: the root position (None: the initial state).
        depth: the search horizon in plies (None: to the end of the game).
        algorithm: ``"minimax"`` or ``"alphabeta"`` (the teaching searches).
        evaluate: the horizon evaluation (default the game's ``evaluate``).
        transpositions: merge identical states (same position, same depth) into one node, a
            DAG whose nodes count how often the search reached them.
        collapse: keep the principal path and the moves beside it; replace each subtree off
            the path by one summary node ("… 34 positions").
        fold_symmetries: fold sibling positions that the game's ``symmetries`` make equivalent
            into the first of them (which lists the folded moves).
        max_nodes: the most nodes to draw (None: no limit).
        leaf_label: ``state -> str`` written in the leaves (e.g. captured seeds).

    Returns:
        The :class:`GameTree`; draw it with :func:`viz.render`.

    Raises:
        TooManyNodesError: the diagram would draw more than ``max_nodes`` nodes.
        VizError: an unknown ``algorithm``, or a negative ``max_nodes``.
        CapabilityError: a depth limit on a game without ``evaluate`` and no ``evaluate=``.

    >>> from games import load_game
    >>> tree = game_tree(load_game("textbook"), algorithm="alphabeta")
    >>> tree.result.value, tree.searched, tree.pruned
    (3, 11, 2)
    """
    if algorithm not in ALGORITHMS:
        raise VizError(f"unknown algorithm {algorithm!r}; choose one of: {', '.join(ALGORITHMS)}")
    if max_nodes is not None and max_nodes < 1:
        raise VizError(f"invalid max_nodes {max_nodes!r}: use a positive number or None")
    if state is None:
        state = game.initial_state()
    shrinking = transpositions or collapse or fold_symmetries
    limit = RECORD_LIMIT if max_nodes is None or shrinking else max_nodes
    recorder = _Recorder(limit)
    search = alphabeta if algorithm == "alphabeta" else minimax
    result = search(game, state, depth=depth, evaluate=evaluate, observer=recorder)
    total = recorder.entered + recorder.pruned
    if recorder.overflow:
        raise TooManyNodesError(
            _too_many(game, total, max_nodes, depth, shrinking, recorded=limit),
            nodes=total,
            max_nodes=max_nodes if max_nodes is not None else limit,
        )
    graph, steps = _tree_from_events(game, recorder.events, leaf_label)
    graph.graph.update(_facts(game, state, result, algorithm, depth, recorder))
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
            _too_many(game, drawn, max_nodes, depth, shrinking, options=_used(graph)),
            nodes=drawn,
            max_nodes=max_nodes,
        )
    return GameTree(
        graph=graph,
        root=0,
        result=result,
        steps=kept,
        searched=recorder.entered,
        pruned=recorder.pruned,
        has_boards=isinstance(game, HasRender),
    )


def _used(graph: Any) -> set[str]:
    return {k for k in ("transpositions", "collapse", "fold_symmetries") if graph.graph.get(k)}


def _too_many(
    game: Game[Any, Any],
    nodes: int,
    max_nodes: int | None,
    depth: int | None,
    shrinking: bool,
    *,
    recorded: int | None = None,
    options: set[str] | None = None,
) -> str:
    used = options or set()
    hints = [f"a smaller depth (now {depth})" if depth is not None else "a depth limit"]
    if "collapse" not in used:
        hints.append("collapse=True")
    if "transpositions" not in used:
        hints.append("transpositions=True")
    if "fold_symmetries" not in used and isinstance(game, HasSymmetries):
        hints.append("fold_symmetries=True")
    if recorded is not None and (shrinking or max_nodes is None):
        return (
            f"the search tree has {nodes:,} nodes, more than the {recorded:,} the diagram "
            f"can be built from; use {hints[0]}"
        )
    hints.append(f"a larger max_nodes (now {max_nodes:,})" if max_nodes else "max_nodes=None")
    return f"the diagram would draw {nodes:,} nodes, more than max_nodes={max_nodes!r}; shrink " + (
        f"it with {', '.join(hints[:-1])}, or {hints[-1]}"
    )


def _facts(
    game: Game[Any, Any],
    state: Any,
    result: SearchResult,
    algorithm: str,
    depth: int | None,
    recorder: _Recorder,
) -> dict[str, Any]:
    moves = []
    here = state
    for action in result.pv:
        moves.append(format_action(game, here, action))
        here = game.result(here, action)
    best = format_action(game, state, result.best_action) if result.pv else None
    return {
        "game": game.name,
        "algorithm": algorithm,
        "depth": depth,
        "position": format_state(game, state),
        "value": _json_float(result.value),
        "value_text": num(result.value),
        "best_move": best,
        "pv": moves,
        "searched": recorder.entered,
        "pruned": recorder.pruned,
        "exact": result.exact,
    }


def num(value: float | None) -> str:
    """A value as a teacher writes it, to 3 digits for the diagrams; ``""`` for none.

    >>> num(3.0), num(-2.5), num(float("inf")), num(None)
    ('3', '-2.5', '+∞', '')
    """
    return "" if value is None else format_value(value, digits=3)


def _json_float(value: float) -> float | str:
    """Infinities as the strings "inf"/"-inf" (strict JSON has no infinity)."""
    if value in (float("inf"), float("-inf")):
        return "inf" if value > 0 else "-inf"
    return value


def _node_name(game: Game[Any, Any], state: Any) -> str | None:
    namer = getattr(game, "node_name", None)
    if callable(namer):
        name = namer(state)
        return None if name is None else str(name)
    return None


def _tree_from_events(
    game: Game[Any, Any], events: list[Event], leaf_label: Callable[[Any], str] | None
) -> tuple[Any, list[Step]]:
    graph = nx.DiGraph()
    states: dict[int, Any] = {}
    children: dict[int, list[tuple[Any, int]]] = {}
    best: dict[int, Any] = {}
    steps: list[Step] = []
    cuts: list[Cutoff] = []
    renders = isinstance(game, HasRender)

    def describe(node: int, the_state: Any, player: int, depth: int) -> dict[str, Any]:
        return {
            "kind": "node",
            "player": player,
            "role": player_name(player),
            "depth": depth,
            "state": format_state(game, the_state),
            "board": game.render(the_state) if renders else None,  # type: ignore[attr-defined]
            "name": _node_name(game, the_state),
            "value": None,
            "exact": True,
            "leaf": None,
            "label": None,
            "principal": False,
            "optimal": False,
            "cut_by": None,
            "cut": None,
            "alpha_in": "-inf",
            "beta_in": "inf",
            "alpha_out": None,
            "beta_out": None,
            "cache_hit": False,
            "hits": 1,
            "folded": [],
            "positions": 0,
            "step": None,
            "reveal": None,
            "opened": None,
        }

    for event in events:
        if isinstance(event, Enter):
            states[event.node] = event.state
            attrs_ = describe(event.node, event.state, event.player, event.depth)
            attrs_["alpha_in"] = _json_float(event.alpha)
            attrs_["beta_in"] = _json_float(event.beta)
            move = ""
            if event.parent is not None:
                move = format_action(game, states[event.parent], event.action)
                children.setdefault(event.parent, []).append((event.action, event.node))
            attrs_["move"] = move
            graph.add_node(event.node, **attrs_)
            if event.parent is not None:
                graph.add_edge(
                    event.parent,
                    event.node,
                    move=move,
                    principal=False,
                    optimal=False,
                    pruned=False,
                    cut=None,
                )
        elif isinstance(event, Leaf):
            data = graph.nodes[event.node]
            data["value"] = event.value
            data["leaf"] = "terminal" if event.terminal else "horizon"
            if leaf_label is not None:
                data["label"] = leaf_label(states[event.node])
            steps.append(Step("leaf", event.node, _leaf_text(data)))
        elif isinstance(event, Backup):
            data = graph.nodes[event.node]
            already = data["leaf"] is not None and data["value"] == event.value
            data["value"] = event.value
            data["exact"] = event.exact
            data["alpha_out"] = _json_float(event.alpha)
            data["beta_out"] = _json_float(event.beta)
            best[event.node] = event.best_action
            if not already:
                steps.append(Step("backup", event.node, _backup_text(data)))
        elif isinstance(event, Cutoff):
            cuts.append(event)
            steps.append(Step("cut", event.node, ""))  # text filled below
        elif isinstance(event, CacheHit):
            data = graph.nodes[event.node]
            data["cache_hit"] = True
            data["value"] = event.value
            data["exact"] = event.bound == "exact"

    next_id = max(graph.nodes, default=-1) + 1
    cut_text: dict[int, str] = {}
    for cut in cuts:
        parent_state = states[cut.node]
        parent = graph.nodes[cut.node]
        for i, action in enumerate(cut.pruned):
            child_state = game.result(parent_state, action)
            attrs_ = describe(next_id, child_state, game.to_move(child_state), parent["depth"] + 1)
            move = format_action(game, parent_state, action)
            attrs_.update(kind="pruned", move=move, cut_by=cut.node, cut=cut.inequality)
            attrs_["alpha_in"] = attrs_["beta_in"] = None
            if game.is_terminal(child_state):
                attrs_["leaf"] = "terminal"
            graph.add_node(next_id, **attrs_)
            graph.add_edge(
                cut.node,
                next_id,
                move=move,
                principal=False,
                optimal=False,
                pruned=True,
                cut=cut.inequality if i == 0 else None,
            )
            next_id += 1
        moves = ", ".join(format_action(game, parent_state, a) for a in cut.pruned)
        cut_text[cut.node] = (
            f"cut-off at {_who(parent)}: {cut.inequality}, so "
            f"{'move' if len(cut.pruned) == 1 else 'moves'} {moves} need not be searched"
        )
    steps = [Step(s.kind, s.node, cut_text[s.node]) if s.kind == "cut" else s for s in steps]

    # principal path and optimal moves, from the search's own choices
    node = 0
    while node in graph and node in best:
        graph.nodes[node]["principal"] = True
        nxt = next((c for a, c in children.get(node, []) if a == best[node]), None)
        if nxt is None:
            break
        graph.edges[node, nxt]["principal"] = True
        node = nxt
    if 0 in graph and graph.nodes[0]["value"] is not None:
        graph.nodes[node]["principal"] = True
    for parent, kids in children.items():
        pdata = graph.nodes[parent]
        if pdata["value"] is None or not pdata["exact"]:
            continue
        if graph.out_degree(parent) < 2:
            continue  # a forced move is no choice: nothing to mark
        for _, child in kids:
            cdata = graph.nodes[child]
            if cdata["exact"] and cdata["value"] == pdata["value"]:
                cdata["optimal"] = True
                graph.edges[parent, child]["optimal"] = True
    return graph, steps


def _who(data: dict[str, Any]) -> str:
    where = data["name"] or (f"after {data['move']}" if data["move"] else "the root")
    return f"{data['role']} node {where}" if data["name"] else f"the {data['role']} node {where}"


def _leaf_text(data: dict[str, Any]) -> str:
    kind = "terminal position" if data["leaf"] == "terminal" else "horizon position (evaluated)"
    where = f" after {data['move']}" if data["move"] else ""
    return f"{kind}{where} is worth {num(data['value'])}"


def _backup_text(data: dict[str, Any]) -> str:
    how = "maximum" if data["player"] == 0 else "minimum"
    bound = "" if data["exact"] else (" (a bound: " + ("≥" if data["player"] == 0 else "≤") + ")")
    return f"{_who(data)} backs up the {how} of its children: {num(data['value'])}{bound}"


def _mark_steps(graph: Any, steps: tuple[Step, ...]) -> None:
    """Record at which frame each node's value (``reveal``) and each cut (``step``) appears.

    Also ``opened``: the first frame at which the search is known to have entered the node
    (the first step in its subtree), so a frame never shows a window the search has not set yet.
    """
    for index, step in enumerate(steps, start=1):
        if step.node not in graph:
            continue
        node: int | None = step.node
        while node is not None and graph.nodes[node].get("opened") is None:
            graph.nodes[node]["opened"] = index
            node = next(iter(graph.predecessors(node)), None)
        if step.kind == "cut":
            for child in graph.successors(step.node):
                if graph.nodes[child]["kind"] == "pruned":
                    graph.nodes[child]["step"] = index
        else:
            graph.nodes[step.node]["reveal"] = index
            graph.nodes[step.node]["step"] = index


def _subtree(graph: Any, node: int) -> list[int]:
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
        if parent not in graph:
            continue
        seen: dict[frozenset[Hashable], int] = {}
        for child in list(graph.successors(parent)):
            data = graph.nodes[child]
            child_state = states.get(child)
            if child_state is None:
                parent_state = states[parent]
                child_state = _pruned_state(game, parent_state, data["move"])
                if child_state is None:
                    continue
            cls = frozenset(_keys(game, game.symmetries(child_state)))  # type: ignore[attr-defined]
            if cls in seen:
                keep = seen[cls]
                graph.nodes[keep]["folded"].append(data["move"])
                gone = [child, *_subtree(graph, child)]
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
    for node in [n for n, d in graph.nodes(data=True) if d["principal"]]:
        for child in list(graph.successors(node)):
            if graph.nodes[child]["principal"]:
                continue
            below = _subtree(graph, child)
            if not below:
                continue
            graph.remove_nodes_from(below)
            hidden += len(below)
            cdata = graph.nodes[child]
            graph.add_node(
                next_id,
                kind="summary",
                player=1 - cdata["player"],
                role="MIN" if cdata["player"] == 0 else "MAX",
                depth=cdata["depth"] + 1,
                move="",
                state="",
                board=None,
                name=None,
                value=None,
                exact=True,
                leaf=None,
                label=None,
                principal=False,
                optimal=False,
                cut_by=None,
                cut=None,
                alpha_in=None,
                beta_in=None,
                alpha_out=None,
                beta_out=None,
                cache_hit=False,
                hits=1,
                folded=[],
                positions=len(below),
                step=None,
                reveal=None,
            )
            graph.add_edge(
                child, next_id, move="", principal=False, optimal=False, pruned=False, cut=None
            )
            next_id += 1
    graph.graph["collapsed_away"] = hidden


def _merge(graph: Any) -> Any:
    """Merge nodes with the same position at the same depth into one node of a DAG."""
    groups: dict[tuple[str, int, str], int] = {}
    rep: dict[int, int] = {}
    for node in sorted(graph.nodes):
        data = graph.nodes[node]
        if data["kind"] == "summary":
            rep[node] = node
            continue
        group = (data["state"], data["depth"], "p" if data["kind"] == "pruned" else "v")
        visited = (data["state"], data["depth"], "v")
        if data["kind"] == "pruned" and visited in groups:
            group = visited
        if group in groups:
            first = groups[group]
            rep[node] = first
            if data["kind"] == "node":
                graph.nodes[first]["hits"] += 1
                graph.nodes[first]["cache_hit"] = True
        else:
            groups[group] = node
            rep[node] = node
    merged = nx.DiGraph()
    merged.graph.update(graph.graph)
    merged.graph["transpositions"] = True
    for node, data in graph.nodes(data=True):
        if rep[node] == node:
            merged.add_node(node, **data)
    for u, v, data in graph.edges(data=True):
        a, b = rep[u], rep[v]
        if merged.has_edge(a, b):
            edge = merged.edges[a, b]
            edge["principal"] = edge["principal"] or data["principal"]
            edge["optimal"] = edge["optimal"] or data["optimal"]
            edge["pruned"] = edge["pruned"] and data["pruned"]
        else:
            merged.add_edge(a, b, **data)
    merged.graph["states"] = merged.number_of_nodes()
    return merged
