"""The drawing model: what a figure shows at every node and edge, computed once for all writers.

Every writer (Graphviz in :mod:`viz.dot`, TikZ in :mod:`viz.tikz`, the stepper's frames and
page, the interactive page) draws a :class:`Figure` and decides nothing of its own about what a
node shows: its shape, name, value and bound kind, window on entry, running range, visit order,
leaf label, whether it is on the principal path, pruned, cut, highlighted, or a blank for the
student to fill in. The texts are written in :mod:`viz.notation`.

A figure is drawn for one set of options (``view``, ``exercise``, ``alpha_beta_labels``,
``order``) at one step of the search (``step=None``: the finished diagram). :class:`Frame` is
the one rule for what step ``k`` reveals; :func:`figure` applies it.

>>> from games import load_game
>>> from viz.build import game_tree
>>> tree = game_tree(load_game("textbook"), algorithm="alphabeta")
>>> look = figure(tree, alpha_beta_labels=True)
>>> [(n.name, n.value, n.range) for n in look.nodes.values() if n.name][:3]
[('A', '3', '[3, 3]'), ('B', '3', '[3, 3]'), ('C', '≤2', '[−∞, 2]')]
"""

from __future__ import annotations

from typing import Any

import attrs

from solver.chance import expectation
from viz.annotations import exercise_value
from viz.build import GameTree, as_float
from viz.choices import PRUNING, STYLES, VIEWS
from viz.errors import VizError
from viz.mcts_tree import mcts_texts
from viz.notation import (
    SWAP,
    bound_text,
    cut_text,
    pair_window_text,
    range_text,
    table_entry_text,
    table_note_text,
    ucb_text,
    window_text,
)
from viz.tree_node import EngineNode, TreeNode, tree_node, tree_nodes

__all__ = [
    "A4_TEXT_MM",
    "STYLES",
    "VIEWS",
    "EdgeLook",
    "Figure",
    "Frame",
    "NodeLook",
    "blanks_fit_a4",
    "chance_note",
    "default_title",
    "figure",
    "shown",
]

BOOK_VALUES = "as in the book, a node cut off shows the value it returned (2): a bound (≤2)"
"""The legend's line for the book's values, in every writer."""
INF = float("inf")

BLANK_RANGE = "[      ,      ]"
"""An exercise's range to fill in (the writers give it room for a handwritten −∞)."""
BLANK_WINDOW = "α=        β=        "
"""An exercise's window to fill in."""


def chance_note(fig: Figure) -> str:
    """The legend's line, in every writer, for the ranges of a *-minimax tree's chance nodes:
    the bounds [L, U] an outcome not searched yet stands for (``""`` where none are drawn).

    >>> from games import load_game
    >>> from viz.build import game_tree
    >>> game = load_game("textbook", tree="[{1/2: [3, 5], 1/2: [1, 9]}]")
    >>> chance_note(figure(game_tree(game, algorithm="star1"), alpha_beta_labels=True))
    'chance [lo, hi]: Σ p × v, an outcome not yet searched anywhere in [L, U] = [1, 9]'
    """
    bounds = fig.tree.graph.graph.get("bounds")
    if not fig.labels or fig.exercise or not bounds:
        return ""
    if not any(n.role == "chance" and n.range for n in fig.nodes.values()):
        return ""
    where = range_text(*bounds)
    return f"chance [lo, hi]: Σ p × v, an outcome not yet searched anywhere in [L, U] = {where}"


def _exact_number(value: Any) -> Any:
    """A stored window edge as a number ("inf" and "-inf" as floats; an exact one stays exact)."""
    return float(value) if isinstance(value, str) else value


def shown(data: TreeNode, view: str) -> tuple[float | None, str]:
    """A node's value and bound as the view shows them (negamax: from the mover's side)."""
    value, bound = data.value, data.bound
    if view == "negamax" and data.player == 1 and value is not None:
        return -value, SWAP[bound]
    return value, bound


class Frame:
    """What a frame reveals: nodes entered and values found up to ``step``, cuts done.

    ``step=None`` (or past the last step) is the finished diagram.
    """

    def __init__(self, tree: GameTree, step: int | None, *, book: bool = False) -> None:
        self.tree = tree
        self.book = book
        """Ranges as AIMA's Figure 5.5 draws them (:meth:`book_range`)."""
        self.final = step is None or step >= len(tree.steps)
        self.step = len(tree.steps) if step is None else max(0, step)
        self.current = tree.steps[self.step - 1].node if self.step > 0 and not self.final else None
        self.path = tree.steps[self.step - 1].path if self.current is not None else ()
        """The nodes the current step walks (an MCTS selection or back-up path), root first."""

    def known(self, data: TreeNode) -> bool:
        """The node's value is shown (a summary node has none to hide)."""
        if self.final:
            return True
        if data.kind == "pruned":
            return self.cut(data)
        return data.reveal is not None and bool(data.reveal <= self.step)

    def visible(self, data: TreeNode) -> bool:
        """The search has reached the node (entered it, or cut it off) by this frame."""
        if self.final:
            return True
        if data.kind == "summary":
            return False
        if data.depth == 0:
            return True  # the search starts at the root
        return data.opened is not None and bool(data.opened <= self.step)

    def cut(self, data: TreeNode) -> bool:
        return self.final or (data.step is not None and data.step <= self.step)

    def value(self, node: int, view: str) -> tuple[float | None, str]:
        """The value shown at this frame: final once backed up, else none."""
        data = tree_node(self.tree.graph, node)
        if not self.known(data):
            return None, "exact"
        return shown(data, view)

    def range(self, node: int, view: str) -> tuple[float, float] | None:
        """[lo, hi] the node's value is known to lie in at this frame (AIMA Figure 5.5).

        Before any child is valued: [−∞, +∞]. While children come in, a MAX node's value is at
        least the largest child value that is not an upper bound (MIN: at most the smallest
        that is not a lower bound). Once backed up, the node's own bound decides.

        A chance node's range is :meth:`chance_range`'s, what the search knows of the
        expectation, narrowed once backed up by the value's own bound.
        """
        graph = self.tree.graph
        data = tree_node(graph, node)
        if data.kind != "node" or data.leaf or not self.visible(data):
            return None
        if data.chance:
            return self.chance_range(node)
        low, high = graph.graph.get("bounds") or (-INF, INF)  # *-minimax: every value in [L, U]
        if self.book:
            lo, hi = self.book_range(node, {})
            return (-hi, -lo) if view == "negamax" and data.player == 1 else (lo, hi)
        lo, hi = self.own_range(node, view)
        if view == "negamax" and data.player == 1:
            low, high = -high, -low
        return max(lo, low), min(hi, high)

    def book_range(self, node: int, seen: dict[int, tuple[Any, Any]]) -> tuple[Any, Any]:
        """[lo, hi] as AIMA's Figure 5.5 draws it (MAX's side), from every child's range:
        a MAX node's is [max lo_i, max hi_i], a MIN node's [min lo_i, min hi_i], a child not
        searched yet (or pruned) anywhere in [L, U] (−∞, +∞ without bounds), a leaf its value.
        So the root of Figure 5.2 reads [3, +∞], then [3, 14] and [3, 5] while D is searched,
        and D, all of whose leaves were searched, [2, 2]; C, cut after its first leaf, [−∞, 2].
        """
        if node in seen:
            return seen[node]
        graph = self.tree.graph
        data = tree_node(graph, node)
        low, high = graph.graph.get("bounds") or (-INF, INF)
        if data.kind != "node" or not self.visible(data):
            out: tuple[Any, Any] = (low, high)
        elif data.chance and not data.leaf:
            out = self.chance_range(node)
        elif not any(True for _ in graph.successors(node)):  # a leaf: its value once found
            out = (data.value, data.value) if self.known(data) else (low, high)
            if out[0] is None:  # a summary or a leaf never valued
                out = (low, high)
        else:
            kids = [self.book_range(child, seen) for child in graph.successors(node)]
            pick = max if data.player == 0 else min
            out = (pick(lo for lo, _ in kids), pick(hi for _, hi in kids))
            out = (max(out[0], low), min(out[1], high))
        seen[node] = out
        return out

    def own_range(self, node: int, view: str) -> tuple[float, float]:
        """:meth:`range` of a MAX or MIN node from its value and children, before [L, U]."""
        graph = self.tree.graph
        data = tree_node(graph, node)
        if self.known(data):
            value, bound = shown(data, view)
            assert value is not None
            return (value if bound != "upper" else -INF, value if bound != "lower" else INF)
        lo, hi = -INF, INF
        for child in graph.successors(node):
            kid = tree_node(graph, child)
            if kid.kind != "node" or not self.known(kid) or kid.value is None:
                continue
            if data.player == 0 and kid.bound != "upper":
                lo = max(lo, kid.value)
            if data.player == 1 and kid.bound != "lower":
                hi = min(hi, kid.value)
        if view == "negamax" and data.player == 1:
            lo, hi = -hi, -lo
        return lo, hi

    def chance_range(self, node: int) -> tuple[float, float]:
        """[lo, hi] a chance node's expectation lies in at this frame: Ballard's Star1 bounds.

        *-minimax knows every value lies in [L, U] (``graph.graph["bounds"]``): an outcome
        not searched yet is worth at least L and at most U, one searched is worth its value,
        or lies on one side of it: Star2's probe of its first move, or a value at or beyond
        the edge of the window it was searched in (read as the search reads it, even a leaf's:
        the figure shows what the search knew, not what one could know). With
        probabilities p_j the expectation lies in [Σ p_j lo_j, Σ p_j hi_j]: after outcomes
        1..i valued exactly, [Σ p_j v_j + (1 − Σ p_j) L, Σ p_j v_j + (1 − Σ p_j) U], the sums
        the search itself cuts on. Once the node is backed up its own bound narrows that.
        Expectiminimax knows no bounds (L = −∞, U = +∞): [−∞, +∞] until every outcome is in.
        """
        graph = self.tree.graph
        data = tree_node(graph, node)
        low, high = graph.graph.get("bounds") or (-INF, INF)
        # each outcome's [lo, hi, p], the outcomes not drawn too (a cut before any search)
        assert data.outcomes is not None  # a chance node entered lists its outcomes
        known = {move: [low, high, p] for move, p in data.outcomes}
        for child in graph.successors(node):  # Star2 may visit an outcome twice
            kid = tree_node(graph, child)
            if kid.kind != "node" or not self.known(kid) or kid.value is None:
                continue
            out, v = known[graph.edges[node, child]["move"]], kid.value
            if kid.probe:  # its first move's value: a bound on one side
                bound = kid.bound
            else:  # as the search reads a value: outside the window it was searched in, a bound
                alpha, beta = (_exact_number(x) for x in (kid.alpha_in, kid.beta_in))
                failed_low, failed_high = v <= alpha and alpha > low, v >= beta and beta < high
                bound = "upper" if failed_low else "lower" if failed_high else "exact"
            if bound == "exact":
                out[0] = out[1] = v
            elif bound == "lower":
                out[0] = max(out[0], v)
            else:
                out[1] = min(out[1], v)
        lo = expectation((p, v) for v, _, p in known.values())
        hi = expectation((p, v) for _, v, p in known.values())
        if self.known(data):
            value, bound = data.value, data.bound
            assert value is not None  # a chance node shown known has backed up its value
            tight = (
                max(lo, value) if bound != "upper" else lo,
                min(hi, value) if bound != "lower" else hi,
            )
            if tight[0] <= tight[1]:  # else float sums missed the value by a rounding error
                return tight
            return (value if bound != "upper" else -INF, value if bound != "lower" else INF)
        return lo, hi


@attrs.frozen
class NodeLook:
    """Everything one node shows in one figure (texts already written in the notation).

    Attributes:
        node: the node's id in the tree.
        kind: ``"node"``, ``"pruned"`` (drawn grey and dashed) or ``"summary"``.
        role: ``"max"``, ``"min"``, ``"chance"`` or ``"leaf"``; ``leaf`` the leaf kind (or
            None).
        player: 0 (MAX) or 1 (MIN) to move.
        name: the game's node name (AIMA's letters) or None.
        value: the value as drawn (``3``, ``≥3``, ``≤−1``), ``""`` for none.
        reserved: the final value text where ``value`` is not shown yet (the layout keeps room).
        bound: the bound kind of the value drawn.
        range: the ``[lo, hi]`` range (alpha-beta labels), ``""`` for none.
        window: the window on entry ``α=.. β=..`` (alpha-beta labels), ``""`` for none.
        blanks: the exercise's blanks at this node: ``("range", "window")`` or ``()``.
        order: the visit order (``"#3"``) or ``""``.
        label: the leaf label (e.g. captured seeds) or None.
        hits: how many visits a merged node stands for.
        principal: drawn on the principal path; ``optimal`` drawn as a best move.
        visible: drawn at this step (the search has reached it).
        current: the node just valued (highlighted).
        cut: the cut that pruned it (for a tooltip), ``""`` for none.
        board: the position's ``render`` text when boards are drawn; ``cells`` its cells.
        positions: the positions a summary node stands for.
        title, state, role_name: how captions and tooltips name the node.
        bound_class: the bound kind the search gave it (``None``: unvalued or hidden).
        probe: Star2 searched only its first move here, for a bound (drawn dashed).
        table, table_kind, answered: the engine's transposition-table hit here (``""``/None:
            none): ``answered`` when the entry settled the node at once (drawn as the table),
            ``table`` then its flag and depth (``LOWER d2``); else the entry's note (``table ≥1
            LOWER, searched on``). ``table_kind`` is the entry's bound kind.
        notes: the node carries the rows ``range`` and ``window`` (room kept for them even
            while they are empty): an inner node with alpha-beta labels, every node of an
            MCTS tree (its UCB terms and exact value; terminal leaves too).
        range_room: a range text wider than ``range`` that the node shows at another step
            (an MCTS child's ``UCB +∞ (unvisited)``), for which a layout drawn once keeps
            room; ``""`` for none.
    """

    node: int
    kind: str
    role: str
    leaf: str | None
    player: int
    name: str | None
    value: str
    reserved: str
    bound: str
    range: str
    window: str
    blanks: tuple[str, ...]
    order: str
    label: str | None
    hits: int
    principal: bool
    optimal: bool
    visible: bool
    current: bool
    cut: str
    board: str | None
    cells: Any
    positions: int
    title: str
    state: str
    role_name: str
    bound_class: str | None
    folded: tuple[str, ...]
    probe: bool = False
    table: str = ""
    table_kind: str | None = None
    answered: bool = False
    notes: bool = False
    range_room: str = ""


@attrs.frozen
class EdgeLook:
    """Everything one move shows: its label, and whether it is pruned, cut or on the best path.

    ``cut`` is the cut-off's inequality on the first pruned move of a cut (``""`` elsewhere);
    ``cut_shown`` says whether this step has reached it (before, it is laid out but unseen).
    ``probability`` is the chance of a move out of a chance node (``"1/6"``), else ``""``.
    """

    parent: int
    child: int
    move: str
    folded: tuple[str, ...]
    pruned: bool
    cut: str
    cut_shown: bool
    principal: bool
    optimal: bool
    summary: bool
    visible: bool
    probability: str = ""
    path: bool = False
    """On the path the current step walks (an MCTS selection or back-up)."""


@attrs.frozen(eq=False)
class Figure:
    """A figure's whole content: one :class:`NodeLook` per node, one :class:`EdgeLook` per edge.

    ``final``: the finished diagram (no step highlighted); ``exercise``: a sheet for students;
    ``labels``: alpha-beta windows and ranges are drawn; ``step``: the step shown; ``path``:
    the nodes the current step walks, root first (its moves are the edges marked ``path``).
    """

    tree: GameTree
    nodes: dict[int, NodeLook]
    edges: tuple[EdgeLook, ...]
    view: str
    exercise: bool
    labels: bool
    order: bool
    final: bool
    step: int
    current: int | None
    style: str = "default"
    path: tuple[int, ...] = ()

    @property
    def book_values(self) -> bool:
        """Some value drawn is a bound written as the book writes it (without ≥ or ≤)."""
        return self.style == "aima" and any(
            n.bound != "exact" and n.value and n.kind == "node" for n in self.nodes.values()
        )


A4_TEXT_MM = 170.0
"""The width an A4 page leaves for a picture (210 mm less two 20 mm margins)."""
_BLANKED_NODE_MM = 52.0  # an inner node with its value, range and window blanks, and a gap
_LEAF_MM = 17.0  # a leaf box and the gap beside it
_MARGINS_MM = 32.0  # the level names left of the rows, and the picture's border


def blanks_fit_a4(graph: Any) -> bool:
    """An exercise with range and window blanks (each room for a handwritten −∞, 12 mm) fits
    A4's width: its widest row (inner nodes with blanks, leaves), shrunk to :data:`A4_TEXT_MM`,
    leaves every blank 12 mm wide.

    A larger tree's sheet asks only for the values and the cuts.

    >>> from games import load_game
    >>> from viz.build import game_tree
    >>> blanks_fit_a4(game_tree(load_game("textbook"), algorithm="alphabeta").graph)
    True
    """
    rows: dict[int, float] = {}
    for _, data in tree_nodes(graph):
        need = _LEAF_MM if data.leaf else _BLANKED_NODE_MM
        rows[data.depth] = rows.get(data.depth, 0.0) + need
    # the writers draw blanks 14 mm wide or more: a sheet up to 14/12 of A4's width, shrunk to
    # fit, still leaves 12 mm
    return max(rows.values(), default=0.0) + _MARGINS_MM <= A4_TEXT_MM * 14 / 12


def cut_at(tree: GameTree, node: int, view: str) -> str:
    """The cut at ``node`` as an inequality: ``v=2 ≤ α=3`` (negamax: ``v=−2 ≥ β=−3``).

    >>> from games import load_game
    >>> from viz.build import game_tree
    >>> tree = game_tree(load_game("textbook"), algorithm="alphabeta")
    >>> cut_at(tree, 5, "minimax"), cut_at(tree, 5, "negamax")
    ('v=2 ≤ α=3', 'v=−2 ≥ β=−3')
    """
    data = tree_node(tree.graph, node)
    value = data.value
    assert value is not None  # a node cut off has backed up the value it was cut with
    if data.fails_high is not None and data.chance:  # a *-minimax cut
        edge = as_float(data.beta_out if data.fails_high else data.alpha_out)
        assert edge is not None
        return cut_text(value, edge, fails_high=bool(data.fails_high))
    if data.player == 0:
        beta = as_float(data.beta_out)
        assert beta is not None
        return cut_text(value, beta, fails_high=True)
    alpha = as_float(data.alpha_out)
    assert alpha is not None
    if view == "negamax":
        return cut_text(-value, -alpha, fails_high=True)
    return cut_text(value, alpha, fails_high=False)


def _cut_node(child: TreeNode, parent: int) -> int:
    """The node whose cut pruned ``child``: its parent, or (a Star2 probe's moves never
    searched) the chance node above the probe."""
    by = child.cut_by
    return parent if by is None else int(by)


def _cut(tree: GameTree, node: int, edge: dict[str, Any], view: str) -> str:
    """The cut written on a pruned move: the engine's trees carry it as the engine made it
    (its window, in :mod:`viz.notation`); the teaching trees' is :func:`cut_at`."""
    if tree.graph.graph["algorithm"] == "engine":
        return str(edge["cut"])
    return cut_at(tree, node, view)


def _engine_look(graph: Any, node: int, data: TreeNode, look: NodeLook) -> NodeLook:
    """What an engine node shows beyond a teaching node: the window on entry as a pair (or a
    probe), its order of entry, and a table hit: the entry that answered it at once, or the
    note of an entry that did not settle it (the node was searched on)."""
    if look.kind != "node":
        return look
    assert isinstance(data, EngineNode)
    searched_on = graph.out_degree(node) > 0
    kind = data.table
    answered = kind is not None and not data.leaf and not searched_on
    window = ""
    alpha, beta = as_float(data.alpha_in), as_float(data.beta_in)
    if not data.leaf and alpha is not None and beta is not None and not answered:
        window = pair_window_text(alpha, beta)
    table = ""
    if answered and kind is not None:
        table = table_entry_text(kind, data.table_depth)
    elif kind is not None and searched_on:
        assert data.table_value is not None  # a table entry stores its value with its bound
        table = table_note_text(data.table_value, kind)
    return attrs.evolve(
        look,
        window=window,
        range="",
        order="" if data.order is None else f"#{data.order}",
        table=table,
        table_kind=kind,
        answered=answered,
    )


def node_window(data: TreeNode, view: str) -> str:
    """The window a node was entered with, ``α=3 β=+∞`` (negamax: the mover's window)."""
    alpha, beta = as_float(data.alpha_in), as_float(data.beta_in)
    if alpha is None or beta is None:
        return ""
    if view == "negamax" and data.player == 1:
        alpha, beta = -beta, -alpha
    return window_text(alpha, beta)


def figure(
    tree: GameTree,
    *,
    step: int | None = None,
    view: str = "minimax",
    exercise: bool = False,
    alpha_beta_labels: bool = False,
    order: bool = False,
    boards: bool = False,
    style: str = "default",
) -> Figure:
    """What the figure of ``tree`` shows with these options, at ``step`` (None: finished).

    ``style="aima"`` writes values as the book does (see :data:`STYLES`).

    Raises:
        VizError: an unknown ``view`` or ``style``; or an exercise of a tree whose leaves
            are not all shown (see :func:`viz.annotations.exercise_value`).
    """
    if view not in VIEWS:
        raise VizError(f"unknown view {view!r}; choose one of: {', '.join(VIEWS)}")
    if style not in STYLES:
        raise VizError(f"unknown style {style!r}; choose one of: {', '.join(STYLES)}")
    frame = Frame(tree, step, book=style == "aima")
    graph = tree.graph
    mcts = graph.graph["algorithm"] == "mcts"
    engine = graph.graph["algorithm"] == "engine"
    if engine and (view != "minimax" or exercise):
        raise VizError(
            "the engine's tree is drawn as the engine searched it, from MAX's side: "
            "not in the negamax view, nor as an exercise"
        )
    labels = (alpha_beta_labels and graph.graph["algorithm"] in PRUNING) or mcts
    if view == "negamax" and any(d.chance for _, d in tree_nodes(graph)):
        raise VizError(
            "the negamax view has no side to take at chance nodes: use view='minimax' for a "
            "tree with chance"
        )
    if exercise and labels and not blanks_fit_a4(graph):
        labels = False  # ask only for what the sheet has room for: values and cuts
    final = frame.final and not exercise
    nodes = {}
    for node, data in tree_nodes(graph):
        ab_rows = labels and not mcts  # an MCTS tree fills those rows with its own texts
        nodes[node] = _node_look(tree, node, data, frame, view, exercise, ab_rows, order, final)
        if style == "aima":  # the book writes the value returned, not the bound it stands for
            look = nodes[node]
            sign = look.value[:1] if look.value[:1] in ("≥", "≤") else ""
            nodes[node] = attrs.evolve(
                look,
                value=look.value[len(sign) :],
                reserved=look.reserved.lstrip("≥≤"),
            )
        if mcts:  # counts, UCB terms and exact value in the value, range and window rows
            step_shown = None if frame.final else frame.step
            counts, ucb, exact = mcts_texts(graph, node, step_shown, book=style == "aima")
            # every child is unvisited at the steps that add it (see mcts_texts)
            room = ucb_text(None) if node != tree.root else ""
            nodes[node] = attrs.evolve(
                nodes[node],
                value=counts,
                range=ucb,
                window=exact,
                reserved="",
                bound_class=None,
                notes=True,
                range_room=room if len(room) > len(ucb) else "",
            )
        if engine:  # windows, order of entry and table hits, always
            nodes[node] = _engine_look(graph, node, data, nodes[node])
        if not boards:
            nodes[node] = attrs.evolve(nodes[node], board=None, cells=None)
    edges = []
    walked = set(zip(frame.path, frame.path[1:], strict=False))
    for u, v, edge in sorted(graph.edges(data=True), key=lambda e: (e[0], e[1])):
        child, parent = tree_node(graph, v), tree_node(graph, u)
        pruned = bool(edge["pruned"]) and not exercise
        edges.append(
            EdgeLook(
                parent=u,
                child=v,
                move=edge["move"],
                folded=tuple(child.folded),
                pruned=pruned,
                cut=_cut(tree, _cut_node(child, u), edge, view) if pruned and edge["cut"] else "",
                cut_shown=frame.cut(child),
                principal=bool(edge["principal"]) and final,
                optimal=bool(edge["optimal"])
                and not exercise
                and not pruned
                and (frame.final or frame.known(parent)),
                summary=child.kind == "summary",
                visible=frame.visible(child),
                probability=edge.get("probability") or "",
                path=(u, v) in walked,
            )
        )
    return Figure(
        tree=tree,
        nodes=nodes,
        edges=tuple(edges),
        view=view,
        exercise=exercise,
        labels=labels,
        order=(order or engine) and not exercise,
        final=frame.final,
        step=frame.step,
        current=frame.current,
        style=style,
        path=frame.path,
    )


_ALGORITHM_NAMES = {
    "minimax": "Minimax",
    "alphabeta": "Alpha-beta",
    "expectiminimax": "Expectiminimax",
    "star1": "Star1 (*-minimax)",
    "star2": "Star2 (*-minimax)",
}


def default_title(tree: GameTree, view: str = "minimax", style: str = "default") -> str:
    """The figure's title: algorithm, game, position, depth, ordering; in the book's style,
    as the book titles its figures.

    >>> from games import load_game
    >>> from viz.build import game_tree
    >>> tree = game_tree(load_game("textbook"), algorithm="alphabeta")
    >>> default_title(tree), default_title(tree, style="aima")
    ('Alpha-beta on textbook from root', 'Alpha–beta search of a two-ply game tree')
    """
    facts = tree.graph.graph
    if facts["algorithm"] == "engine":
        return (
            "Engine (negamax alpha-beta with a transposition table) on "
            f"{facts['game']} from {facts['position']}"
        )
    if facts["algorithm"] == "mcts":
        solver = " with MCTS-Solver" if facts.get("solver") else ""
        return (
            f"Monte Carlo tree search (UCT){solver} on {facts['game']} from {facts['position']}, "
            f"{facts['iterations']} iterations, c={facts['exploration']:.3g}, seed {facts['seed']}"
        )
    order = {"given": "", "best": ", best move first", "worst": ", worst move first"}
    ordering = order[facts.get("ordering", "given")]
    if style == "aima":
        name = _ALGORITHM_NAMES[facts["algorithm"]].replace("-", "–")
        plies = max((d.depth for _, d in tree_nodes(tree.graph)), default=0)
        words = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}.get(plies, str(plies))
        view_note = " (negamax view)" if view == "negamax" else ""
        return f"{name} search of a {words}-ply game tree{view_note}{ordering}"
    algorithm = _ALGORITHM_NAMES[facts["algorithm"]]
    if view == "negamax":
        algorithm += " (negamax view)"
    depth = f", depth {facts['depth']}" if facts["depth"] is not None else ""
    return f"{algorithm} on {facts['game']} from {facts['position']}{depth}{ordering}"


def _node_look(
    tree: GameTree,
    node: int,
    data: TreeNode,
    frame: Frame,
    view: str,
    exercise: bool,
    labels: bool,
    order: bool,
    final: bool,
) -> NodeLook:
    kind = data.kind
    leaf = data.leaf
    if exercise and kind == "pruned":
        kind = "node"  # the student must find the cuts: draw it like any other node
    value, bound = frame.value(node, view)
    reserved = ""
    if value is None and not exercise and data.value is not None:
        reserved = bound_text(*shown(data, view))
    if exercise:
        value, bound = exercise_value(data, *shown(data, view))
    span = window = ""
    blanks: tuple[str, ...] = ()
    notes = labels and not leaf and kind == "node"
    if notes:
        if exercise:
            blanks = ("range", "window")
            span, window = BLANK_RANGE, BLANK_WINDOW
        else:
            known = frame.range(node, view)
            span = range_text(*known) if known else ""
            window = node_window(data, view)  # drawn (or laid out unseen) from the start
    return NodeLook(
        node=node,
        kind=kind,
        role="leaf" if leaf else "chance" if data.chance else ("max", "min")[int(data.player)],
        leaf=leaf,
        player=int(data.player),
        name=data.name,
        value=bound_text(value, bound) if kind != "summary" else "",
        reserved=reserved,
        bound=bound,
        range=span,
        window=window,
        blanks=blanks,
        order=f"#{data.order}" if order and not exercise and data.order is not None else "",
        label=data.label if data.label and (frame.known(data) or exercise) else None,
        hits=int(data.hits),
        principal=bool(data.principal) and final,
        optimal=bool(data.optimal) and final,
        visible=frame.visible(data),
        current=node == frame.current,
        cut=data.cut or "" if not exercise else "",
        board=data.board,
        cells=data.cells,
        positions=int(data.positions),
        title=data.title,
        state=data.state,
        role_name=data.role,
        bound_class=None if exercise or data.value is None else data.bound,
        folded=tuple(data.folded),
        probe=bool(data.probe),
        notes=notes,
    )
