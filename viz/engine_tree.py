"""The fast engine's search drawn: the last iteration of iterative deepening, table hits and all.

:func:`solver.engine.search` reports what it does to an observer (node entered with its
window, leaf, transposition-table hit with the stored entry's flag, cut-off, value backed up).
:func:`engine_tree` keeps the events of its last iteration, the one whose answer the engine
gives, and builds the tree it explored; :func:`engine_dot` draws it with Graphviz.

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
>>> tree = engine_tree(game, game.parse_state("oxx/..o/x.."))
>>> tree.result.value, tree.searched, sorted(tree.hits.items())
(-1, 33, [('exact', 1), ('lower', 1), ('upper', 2)])
"""

from __future__ import annotations

import os
from collections import Counter
from html import escape
from pathlib import Path
from typing import Any

import attrs
import networkx as nx

from solver.engine import search
from solver.events import Backup, CacheHit, Cutoff, Enter, Event, Iteration, Leaf, OracleHit
from solver.game import Game, format_action, format_state, player_name
from solver.output import check_output, replacing_files, write_bytes
from solver.results import SearchResult
from viz.build import DEFAULT_MAX_NODES, bound_kind
from viz.dot import FONT, answer_facts, pipe
from viz.errors import TooManyNodesError, UnknownFormatError
from viz.export import FORMATS, node_link_json, output_format
from viz.notation import BOUND_SIGN, bound_text, number

__all__ = [
    "ENGINE_FORMATS",
    "EngineTree",
    "engine_dot",
    "engine_iterations",
    "engine_tree",
    "render_engine",
    "write_engine_iterations",
]

ITERATION_PATTERN = r"iteration-[0-9]+\.(?:svg|png|pdf|dot|gv|json)"
"""The names of the files :func:`write_engine_iterations` writes (and replaces as a set)."""

ENGINE_FORMATS = FORMATS
"""The formats :func:`render_engine` writes."""

FLAG = {"exact": "EXACT", "lower": "LOWER", "upper": "UPPER"}
"""The transposition-table flag of each bound kind, in the engine's words."""

_PROBE_WIDTH = 1e-6  # a window narrower than this is a null-window probe
_FILL = {0: "#d7e6f5", 1: "#f8ddd5"}
_TABLE = "#7b3fa0"
_PRUNED = "#9a9a9a"
_CUT = "#b03a2e"


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

    def _repr_svg_(self) -> str:
        """The diagram as SVG, so a Jupyter cell displays it inline."""
        return pipe(engine_dot(self), "svg").decode()


class _Overflow(Exception):
    """An iteration entered more nodes than the diagram may draw."""


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
                raise _Overflow
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
    except _Overflow:
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
            data = _blank("node", event.player, event.depth, move)
            data.update(
                state=format_state(game, event.state),
                name=_node_name(game, event.state),
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
                    next_id, **_blank("pruned", 1 - parent["player"], parent["depth"] + 1, move)
                )
                graph.add_edge(
                    event.node,
                    next_id,
                    move=move,
                    pruned=True,
                    cut=event.inequality if i == 0 else None,
                )
                next_id += 1
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


def _blank(kind: str, player: int, depth: int, move: str) -> dict[str, Any]:
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


def _node_name(game: Game[Any, Any], state: Any) -> str | None:
    namer = getattr(game, "node_name", None)
    name = namer(state) if callable(namer) else None
    return None if name is None else str(name)


def window_text(alpha: float, beta: float) -> str:
    """A window as the picture writes it: ``(α, β)``, or ``probe v`` for a null window.

    >>> window_text(float("-inf"), 2), window_text(-1.0000000000000002, -0.9999999999999999)
    ('(−∞, 2)', 'probe −1')
    """
    if beta - alpha < _PROBE_WIDTH:
        return "probe " + number((alpha + beta) / 2)
    return f"({number(alpha)}, {number(beta)})"


def _value(data: dict[str, Any]) -> str:
    if data["value"] is None:
        return ""
    return bound_text(data["value"], data["bound"])


def _depth_text(depth: int | None) -> str:
    return "∞" if depth is None or depth < 0 else str(depth)


def _node_attrs(node: int, data: dict[str, Any], searched_on: bool) -> dict[str, str]:
    """Graphviz attributes of a node; ``searched_on``: it has children in the drawing."""
    out = {"id": f"n{node}", "tooltip": f"{data['role']} to move | {data['state']}"}
    classes = []
    if data["kind"] == "pruned":
        classes.append("pruned")
        out.update(
            shape="triangle" if data["player"] == 0 else "invtriangle",
            style="dashed",
            color=_PRUNED,
            label="",
            width="0.5",
            height="0.42",
            fixedsize="true",
        )
        out["class"] = " ".join(classes)
        return out
    value = escape(_value(data))
    pen = "3.2" if data["principal"] else "1.2"
    answered = data["table"] is not None and data["leaf"] is None and not searched_on
    if answered:
        classes.append(f"table {data['table']}")
        out.update(
            shape="cylinder",
            style="filled",
            fillcolor="#efe6f5",
            color=_TABLE,
            penwidth=pen,
            label=f'<<B>{value}</B><BR/><FONT POINT-SIZE="9">{FLAG[data["table"]]} '
            f"d{_depth_text(data['table_depth'])}</FONT>>",
        )
    elif data["leaf"]:
        classes.append("leaf")
        out.update(
            shape="box",
            style="rounded,filled" if data["leaf"] != "terminal" else "filled",
            fillcolor="#fff4cc"
            if data["leaf"] == "horizon"
            else ("#e6f5e6" if data["leaf"] == "oracle" else "white"),
            penwidth=pen,
            label=f"<<B>{value}</B>>",
        )
    else:
        classes.append(("max", "min")[data["player"]])
        out.update(
            shape="triangle" if data["player"] == 0 else "invtriangle",
            style="filled",
            fillcolor=_FILL[data["player"]],
            penwidth=pen,
            width="0.85",
            height="0.7",
            fixedsize="true",
            label=f"<<B>{value}</B>>",
        )
    if data["principal"]:
        classes.append("principal")
    if data["bound"] != "exact":
        classes.append(data["bound"])
    notes = [f"#{data['order']}"]
    if data["name"]:
        notes.insert(0, f"<B>{escape(data['name'])}</B>")
    if not data["leaf"] and data["alpha_in"] is not None and not answered:
        notes.append(escape(window_text(data["alpha_in"], data["beta_in"])))
    if data["table"] is not None and searched_on:
        hint = BOUND_SIGN[data["table"]] or "="
        notes.append(
            f'<FONT COLOR="{_TABLE}">table {escape(hint)}{escape(number(data["table_value"]))} '
            f"{FLAG[data['table']]}, searched on</FONT>"
        )
    out["xlabel"] = '<<FONT POINT-SIZE="9" COLOR="#555555">' + "<BR/>".join(notes) + "</FONT>>"
    out["class"] = " ".join(classes)
    return out


def engine_dot(tree: EngineTree, *, title: str | None = None, legend: bool = True) -> str:
    """The Graphviz DOT source of the engine's tree.

    >>> from games import load_game
    >>> game = load_game("tictactoe")
    >>> source = engine_dot(engine_tree(game, game.parse_state("oxx/..o/x..")))
    >>> source.count('shape="cylinder"')
    4
    """
    graph = tree.graph
    lines = [
        "digraph engine {",
        f'  graph [fontname="{FONT}", nodesep="0.25", ranksep="0.55", forcelabels="true", '
        'labelloc="b", labeljust="l", bgcolor="white", pad="0.25", outputorder="edgesfirst"];',
        f'  node [fontname="{FONT}", fontsize="12", margin="0.03"];',
        f'  edge [fontname="{FONT}", fontsize="10", arrowsize="0.6"];',
        f"  label={_caption(tree, title, legend)};",
    ]
    for node, data in graph.nodes(data=True):
        lines.append(f"  n{node} [{_attrs(_node_attrs(node, data, graph.out_degree(node) > 0))}];")
    for u, v, data in graph.edges(data=True):
        edge = {"id": f"e{u}_{v}", "label": f"<{escape(data['move'])}>"}
        if data["pruned"]:
            edge.update(
                {
                    "class": "pruned",
                    "style": "dashed",
                    "color": _PRUNED,
                    "fontcolor": _PRUNED,
                    "arrowhead": "none",
                }
            )
            if data["cut"]:
                edge["label"] = (
                    f"<{escape(data['move'])}<BR/>"
                    f'<FONT COLOR="{_CUT}">✂ {escape(data["cut"])}</FONT>>'
                )
        elif data.get("principal"):
            edge.update({"class": "principal", "penwidth": "3.2"})
        lines.append(f"  n{u} -> n{v} [{_attrs(edge)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _attrs(items: dict[str, str]) -> str:
    parts = []
    for key, value in items.items():
        if value.startswith("<") and value.endswith(">"):
            parts.append(f"{key}={value}")
        else:
            parts.append(f'{key}="' + value.replace("\\", "\\\\").replace('"', '\\"') + '"')
    return ", ".join(parts)


def summary_line(tree: EngineTree) -> str:
    """The caption's facts: value, best move, PV, and what the last iteration did."""
    parts = answer_facts(tree.graph.graph)
    which = "to the end" if tree.iteration is None else f"depth {tree.iteration}"
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
    parts.append(f"{tree.cutoffs} cut-offs")
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


def _caption(tree: EngineTree, title: str | None, legend: bool) -> str:
    facts = tree.graph.graph
    name = title or (
        "Engine (negamax alpha-beta with a transposition table) on "
        f"{facts['game']} from {facts['position']}"
    )
    lines = [
        f'<B><FONT POINT-SIZE="14">{escape(name)}</FONT></B>',
        f'<FONT POINT-SIZE="11">{escape(summary_line(tree))}</FONT>',
    ]
    if legend:
        table = f'<FONT COLOR="{_TABLE}">cylinder</FONT>'
        lines += [
            "▲ MAX   ▼ MIN   □ end of the game (yellow: horizon)   "
            f"{table}: answered by the table, =v EXACT, ≥v LOWER, ≤v UPPER, d the depth stored",
            "≥v / ≤v on a node: the engine stored a bound   (α, β): the window on entry; "
            "probe v: a null window   #k: order of entry   "
            f'<FONT COLOR="{_PRUNED}">╌</FONT> cut off (✂ why)',
        ]
        lines[2:] = [f'<FONT POINT-SIZE="10">{line}</FONT>' for line in lines[2:]]
    rows = "".join(f'<TR><TD ALIGN="LEFT">{line}</TD></TR>' for line in lines)
    return f'<<TABLE BORDER="0" CELLSPACING="1" CELLPADDING="1">{rows}</TABLE>>'


def render_engine(
    tree: EngineTree,
    path: str | os.PathLike[str],
    *,
    title: str | None = None,
    legend: bool = True,
    overwrite: bool = True,
) -> Path:
    """Write the engine's tree to ``path`` (DOT, SVG, PNG, PDF or node-link JSON), atomically.

    ``overwrite=False`` refuses to replace an existing file.

    Raises:
        OutputError: the path cannot be written, or exists and ``overwrite`` is False.
        UnknownFormatError: the suffix is not one of :data:`ENGINE_FORMATS`.
        GraphvizNotFoundError: SVG, PNG or PDF asked for and ``dot`` is not installed.
    """
    out = Path(path)
    fmt = output_format(out, ENGINE_FORMATS, what=" for the engine's tree")
    check_output(out, overwrite=overwrite)  # before Graphviz lays the picture out
    if fmt == "json":
        payload = (node_link_json(tree.graph) + "\n").encode()
    else:
        source = engine_dot(tree, title=title, legend=legend)
        payload = source.encode() if fmt in ("dot", "gv") else pipe(source, fmt)
    return write_bytes(out, payload, overwrite=overwrite)


def write_engine_iterations(
    trees: list[EngineTree],
    directory: str | os.PathLike[str],
    *,
    format: str = "svg",
    title: str | None = None,
    overwrite: bool = True,
) -> list[Path]:
    """Write each iteration's tree as ``iteration-01.svg``, ``iteration-02.svg``, ... into
    ``directory``, replacing an earlier set whole (written aside, then swapped in).

    Raises:
        OutputError: the directory cannot be written, or holds a set and ``overwrite`` is False.
        UnknownFormatError: ``format`` is not one of :data:`ENGINE_FORMATS`.
        GraphvizNotFoundError: SVG, PNG or PDF asked for and ``dot`` is not installed.
    """
    fmt = format.lower()
    if fmt not in ENGINE_FORMATS:
        raise UnknownFormatError(
            f"unknown format {format!r} for the iterations; use one of: {', '.join(ENGINE_FORMATS)}"
        )
    folder = Path(directory)
    width = max(2, len(str(len(trees))))
    names = [f"iteration-{tree.number or i + 1:0{width}d}.{fmt}" for i, tree in enumerate(trees)]
    with replacing_files(folder, ITERATION_PATTERN, overwrite=overwrite) as staging:
        for name, tree in zip(names, trees, strict=True):
            render_engine(tree, staging / name, title=title)
    return [folder / name for name in names]
