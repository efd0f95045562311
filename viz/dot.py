"""From the drawing model to Graphviz: the DOT source of a diagram (or of one frame of it).

Draws a :class:`viz.model.Figure` and decides nothing of its own about what a node shows; the
DOT is written once, never patched afterwards. The picture follows the textbook figures: MAX
nodes are up-triangles, MIN nodes down-triangles, leaves boxes, values inside. A value that is
only a bound is written ``≥v`` (lower bound: the node failed high) or ``≤v`` (upper bound: it
failed low), from the node's ``bound``. The principal path is bold, other optimal moves are
drawn blue, pruned subtrees grey and dashed with the cut written at the edge that was cut. Every
node and edge gets an ``id`` and ``class`` (``max``/``min``/``leaf``/``pruned``/``summary``,
``principal``, ``optimal``, ``cut``, and ``bound-lower``/``bound-upper``/``bound-exact``) that
survive into the SVG, so tests and pages can find them.

Options: ``alpha_beta_labels`` writes each node's window on entry (α, β) and the range its
value is known to lie in ([lo, hi], AIMA Figure 5.5) on the node itself; ``order`` numbers the
nodes in the order the search entered them; ``view="negamax"`` shows every value from the side
of the player to move (one rule at every node: the largest of the negated children);
``exercise`` hides every value but the leaves' (and the bounds, cuts and principal path) for
students to fill in, with underlined blanks that hold a handwritten −∞; ``style="aima"`` draws
the book's titles and values. AIMA's node letters stand beside their nodes.

A frame (``step=k``) shows the tree after the first ``k`` steps of backward induction: only the
nodes the search has entered (the others are laid out but invisible), the values found so far,
each node's running range, the node just valued highlighted, pruned subtrees once cut.

Sizes: :func:`to_dot` states the size Graphviz may scale to (:data:`MAX_INCHES` square, unless
``unscaled``) and :func:`readable_options` turns a wider picture sideways or wraps its leaves
into rows, and refuses it when neither fits, rather than let it shrink out of legibility.
"""

from __future__ import annotations

import itertools
import math
import textwrap
from html import escape
from typing import Any

from viz.annotations import exercise_task
from viz.boards import board_label, from_cells
from viz.build import GameTree
from viz.errors import UnreadableError, VizError
from viz.graphviz import (
    FONT,
    MAX_INCHES,
    PATH_COLOUR,
    RANGE_MARK,
    VALUE_MARK,
    WINDOW_MARK,
    dot_attrs,
    legend_table,
    pipe,
)
from viz.model import (
    BOOK_VALUES,
    VIEWS,
    EdgeLook,
    Figure,
    NodeLook,
    chance_note,
    cut_at,
    default_title,
    figure,
    shown,
)
from viz.notation import answer_facts, bound_text, cut_view_text, saving_text
from viz.palette import CHANCE_FILL, CURRENT, MAX_FILL, MIN_FILL, PRUNED
from viz.tree_node import tree_node, tree_nodes

__all__ = [
    "VIEWS",
    "default_title",
    "layout_size",
    "summary_line",
    "to_dot",
    "to_svg",
]


_FILL = {0: MAX_FILL, 1: MIN_FILL}  # MAX blue, MIN salmon (viz.palette)
_NEGAMAX_FILL = "#e4e0f0"
_CHANCE_FILL = CHANCE_FILL  # chance nodes: green circles, as AIMA draws them round
_CHANCE_INK = "#2e6b30"
_LEAF_FILL = {"terminal": "#ffffff", "horizon": "#fff4cc"}
_CURRENT = CURRENT
_CURRENT_KEY = CURRENT  # the highlight in the legend, a shade darker to read as text
_OPTIMAL = "#1f6fb2"
_PRUNED = PRUNED
_CUT = "#b03a2e"
_GLYPH = {0: "▲", 1: "▼"}
_HITS = "#7b3fa0"
INF = float("inf")


def _options_used(tree: GameTree) -> dict[str, bool]:
    facts = tree.graph.graph
    return {k: bool(facts.get(k)) for k in ("transpositions", "collapse", "fold_symmetries")}


class _Look:
    """The figure being drawn and the drawing options of one call."""

    def __init__(self, fig: Figure, *, boards: bool, marks: bool) -> None:
        self.fig = fig
        self.tree: GameTree = fig.tree
        self.boards = boards
        self.ab = fig.labels
        self.order = fig.order
        self.exercise = fig.exercise
        self.view = fig.view
        self.marks = marks  # stepper: colour-mark value and range texts
        self.final = fig.final and not fig.exercise
        self.emphasis = self.final and not marks  # the stepper's style sheet adds it itself


def _node(shape: NodeLook, look: _Look) -> dict[str, str]:
    node, kind, leaf, player = shape.node, shape.kind, shape.leaf, shape.player
    classes = [kind if kind != "node" else shape.role]
    if not shape.visible:
        classes.append("unreached")
    if shape.principal:
        classes.append("principal")
    if shape.optimal:
        classes.append("optimal")
    if shape.hits > 1 or (tree_node(look.tree.graph, node).cache_hit):
        classes.append("transposition")
    if shape.current:
        classes.append("current")
    if shape.value and kind != "pruned":
        classes.append("valued")
    if shape.bound_class:
        classes.append("bound-" + shape.bound_class)
    out: dict[str, str] = {"id": f"n{node}", "class": " ".join(classes)}
    tooltip = [f"{shape.title}: {shape.role_name} to move", shape.state]
    if shape.cut:
        tooltip.append(f"pruned by {shape.cut}")
    out["tooltip"] = " | ".join(t for t in tooltip if t)
    if not shape.visible:
        out["style"] = "invis"
    text = shape.value

    if kind == "summary":
        out.update(
            shape="box",
            style="rounded,dotted" if shape.visible else "invis",
            color="#666666",
            fontcolor="#444444",
            fontsize="10",
            label=f"… {shape.positions:,}\npositions",
        )
        return out
    if kind == "pruned":
        return _pruned_node(out, shape, look, text)
    fill = (
        _LEAF_FILL[leaf] if leaf else (_NEGAMAX_FILL if look.view == "negamax" else _FILL[player])
    )
    if shape.role == "chance":
        fill = _CHANCE_FILL
    if shape.current:
        fill = _CURRENT
    rich = (look.boards and shape.board) or shape.notes
    if rich:
        out["label"] = _table(shape, look, text, fill)
        out["shape"] = "plain"
        return out
    _shape(out, player, leaf, look.view, shape.role == "chance")
    if look.exercise and not leaf:  # room to write a value such as −∞ by hand
        out.update(width="1.3", height="1.0")
    _name(out, shape)
    style = "rounded,filled" if leaf == "horizon" else "filled"
    if shape.probe:  # Star2's probe: only its first move was searched
        style += ",dashed"
    out.update(style=style if shape.visible else "invis", fillcolor=fill)
    out["penwidth"] = "3.2" if shape.principal and look.emphasis else "1.2"
    if shape.optimal and not shape.principal and look.emphasis:
        out.update(color=_OPTIMAL, penwidth="2.2")
    mark = f' COLOR="{VALUE_MARK}"' if look.marks else ""
    lines = [f"<FONT{mark}><B>{escape(text) or ' '}</B></FONT>"]
    has_label = bool(tree_node(look.tree.graph, node).label)
    if shape.reserved and not has_label:
        lines = [f'<FONT COLOR="transparent"><B>{escape(shape.reserved)}</B></FONT>']
    if shape.label:
        lines = [f"<B>{escape(shape.label)}</B>"]
        if text:
            lines.append(f'<FONT POINT-SIZE="9"{mark}>{escape(text)}</FONT>')
        out.update(width="0.9" if len(shape.label) < 9 else "1.1", height="0.45")
    extras = _extras(shape)
    if extras:
        lines += extras
        if not leaf:
            out.update(width="0.95", height="0.85")
    out["label"] = "<" + "<BR/>".join(lines) + ">"
    return out


def _extras(shape: NodeLook) -> list[str]:
    out = []
    if shape.hits > 1:
        out.append(f'<FONT POINT-SIZE="9" COLOR="{_HITS}">×{shape.hits}</FONT>')
    if shape.order:
        out.append(f'<FONT POINT-SIZE="8" COLOR="#555555">{shape.order}</FONT>')
    return out


def _table(shape: NodeLook, look: _Look, text: str, fill: str) -> str:
    """A node drawn as a small table: mover and value, board, range, window, visit order."""
    player = shape.player
    leaf = shape.leaf
    glyph = "■" if leaf else ("●" if look.view == "negamax" else _GLYPH[player])
    head_colour = "#333333" if leaf else ("#1f5fa8", "#b03a2e")[player]
    if shape.role == "chance":
        glyph, head_colour = "◯", _CHANCE_INK
    mark = f' COLOR="{VALUE_MARK}"' if look.marks else ""
    name = f"<B>{escape(shape.name)}</B> " if shape.name else ""
    rows = [
        f'<TR><TD>{name}<FONT COLOR="{head_colour}">{glyph}</FONT> '
        f'<FONT POINT-SIZE="14"{mark}><B>{escape(text) or "&nbsp;"}</B></FONT></TD></TR>'
    ]
    if shape.blanks:  # the value is written by hand: a blank beside the mover's glyph
        rows = [_blank_row(f'{name}<FONT COLOR="{head_colour}">{glyph}</FONT> v=', _BLANK_CELL)]
    if look.boards and shape.board:
        rows.append(f"<TR><TD>{board_label(_board(shape))}</TD></TR>")
    if shape.label:
        rows.append(f'<TR><TD><FONT POINT-SIZE="10">{escape(shape.label)}</FONT></TD></TR>')
    if shape.blanks:
        rows += _blank_rows()
    elif shape.notes:
        rmark = f' COLOR="{RANGE_MARK}"' if look.marks else ' COLOR="#444444"'
        # room for a wider range the node shows at another step (the stepper's frames):
        # DejaVu Sans averages 0.6 em a character
        room = f' WIDTH="{math.ceil(6 * len(shape.range_room))}"' if shape.range_room else ""
        rows.append(
            f'<TR><TD{room}><FONT POINT-SIZE="10"{rmark}>{escape(shape.range) or "&nbsp;"}'
            "</FONT></TD></TR>"
        )
        wmark = WINDOW_MARK if look.marks else "#444444"
        rows.append(
            f'<TR><TD><FONT POINT-SIZE="9" COLOR="{wmark}">{escape(shape.window) or "&nbsp;"}'
            "</FONT></TD></TR>"
        )
    for extra in _extras(shape):
        rows.append(f"<TR><TD>{extra}</TD></TR>")
    if shape.probe:  # a table cannot be drawn dashed by every Graphviz: said in words instead
        rows.append(
            f'<TR><TD><FONT POINT-SIZE="9" COLOR="{_CHANCE_INK}">'
            "probe: first move only</FONT></TD></TR>"
        )
    border = "3" if shape.principal and look.emphasis else "1"
    colour = "black" if shape.principal and look.emphasis else "#777777"
    if shape.optimal and not shape.principal and look.emphasis:
        colour, border = _OPTIMAL, "2"
    if not shape.visible:
        colour, fill = "transparent", "transparent"
    return (
        f'<<TABLE BORDER="{border}" STYLE="rounded" COLOR="{colour}" CELLBORDER="0" '
        f'CELLSPACING="0" CELLPADDING="2" BGCOLOR="{fill}">{"".join(rows)}</TABLE>>'
    )


BLANK_POINTS = 42
"""The width of an exercise's blank (points, 14.8 mm): printed on A4, still room for a −∞."""


def _blank_rows() -> list[str]:
    """An exercise's range ``[__, __]`` and window ``α=__ β=__``: blanks to write in, each a
    cell :data:`BLANK_POINTS` wide, underlined."""
    blank = _BLANK_CELL
    return [_blank_row("&#91;", blank, ",", blank, "&#93;"), _blank_row("α=", blank, "β=", blank)]


_BLANK_CELL = f'<TD WIDTH="{BLANK_POINTS}" HEIGHT="16" SIDES="B" BORDER="1"> </TD>'


def _blank_row(*cells: str) -> str:
    """One row of texts and blanks, side by side."""
    inner = "".join(c if c.startswith("<TD") else f"<TD>{c}</TD>" for c in cells)
    return (
        '<TR><TD><TABLE BORDER="0" CELLBORDER="0" CELLSPACING="1" CELLPADDING="0">'
        f"<TR>{inner}</TR></TABLE></TD></TR>"
    )


def _pruned_node(out: dict[str, str], shape: NodeLook, look: _Look, text: str) -> dict[str, str]:
    grey = _PRUNED
    visible = shape.visible
    out.update(color=grey, fontcolor=grey, style="dashed" if visible else "invis", penwidth="1")
    shown_text = f'<FONT COLOR="{grey}">{escape(text)}</FONT>' if text else " "
    if look.boards and shape.board:
        out.update(shape="plain")
        out["label"] = (
            f'<<TABLE BORDER="1" STYLE="dashed" COLOR="{grey if visible else "transparent"}" '
            f'CELLBORDER="0" CELLPADDING="3"><TR><TD>{shown_text}</TD></TR>'
            f"<TR><TD>{board_label(_board(shape), dim=True)}</TD></TR></TABLE>>"
        )
        return out
    _shape(out, shape.player, shape.leaf, look.view, shape.role == "chance")
    _name(out, shape)
    out["label"] = f"<{shown_text}>"
    return out


def _name(out: dict[str, str], shape: NodeLook) -> None:
    """A node drawn as a plain shape carries its letter beside it (AIMA's A, B, C ...)."""
    if shape.name:
        out["xlabel"] = f"<<B>{escape(shape.name)}</B>>"


def _board(shape: NodeLook) -> Any:
    """The node's board: the game's cells when it offers them, else its render text."""
    return from_cells(shape.cells) if shape.cells else shape.board


def _shape(
    out: dict[str, str], player: int, leaf: str | None, view: str, chance: bool = False
) -> None:
    if leaf:
        out.update(shape="box", width="0.55", height="0.4", fixedsize="false")
        if leaf == "horizon":
            out["style"] = "rounded"
    elif chance:
        out.update(shape="circle", width="0.7", fixedsize="true")
    elif view == "negamax":
        out.update(shape="circle", width="0.62", fixedsize="true")
    else:
        out.update(
            shape="triangle" if player == 0 else "invtriangle",
            width="0.8",
            height="0.68",
            fixedsize="true",
        )


def _edge(edge: EdgeLook, look: _Look, *, wrapped: bool = False) -> str:
    """One edge's DOT line; ``wrapped``: its child sits in a wrapped row (no rank constraint)."""
    u, v = edge.parent, edge.child
    out: dict[str, str] = {"id": f"e{u}_{v}"}
    classes = []
    move = escape(edge.move)
    if edge.folded:
        move += '<BR/><FONT POINT-SIZE="9">≡ ' + escape(", ".join(edge.folded)) + "</FONT>"
    if edge.probability:
        ink = _PRUNED if edge.pruned else _CHANCE_INK
        move += f'<BR/><FONT POINT-SIZE="10" COLOR="{ink}">p={escape(edge.probability)}</FONT>'
    label = move
    if not edge.visible:
        classes.append("unreached")
        out["style"] = "invis"
    if edge.pruned:
        classes.append("pruned")
        out.update(color=_PRUNED, fontcolor=_PRUNED, arrowhead="none")
        out["style"] = "dashed" if edge.visible else "invis"
        if edge.cut:
            classes.append("cut")
            colour = _CUT if edge.cut_shown else "transparent"
            label = f'{move}<BR/><FONT COLOR="{colour}" POINT-SIZE="10">✂ {escape(edge.cut)}</FONT>'
    elif edge.path:  # the path this step walks (an MCTS selection or back-up)
        classes.append("path")
        out.update(penwidth="3.2", color=PATH_COLOUR)
    elif edge.summary:
        out.update(arrowhead="none", color="#666666")
        out.setdefault("style", "dotted")
    elif edge.principal:
        classes.append("principal")
        if look.emphasis:
            out.update(penwidth="3.2")
    elif edge.optimal:
        classes.append("optimal")
        if look.emphasis or not look.marks:
            out.update(penwidth="2.2", color=_OPTIMAL, fontcolor=_OPTIMAL)
    out["class"] = " ".join(classes) or "move"
    if label:
        out["label"] = f"<{label}>"
    if wrapped:
        out["constraint"] = "false"
    return f"  n{u} -> n{v} [{dot_attrs(out)}];"


def _levels(graph: Any, view: str) -> list[tuple[int, str, list[int]]]:
    by_depth: dict[int, list[int]] = {}
    for node, data in tree_nodes(graph):
        by_depth.setdefault(data.depth, []).append(node)
    levels = []
    for depth in sorted(by_depth):
        nodes = by_depth[depth]
        inner = [tree_node(graph, n) for n in nodes if not tree_node(graph, n).leaf]
        movers = {d.role for d in inner if d.kind != "summary"}
        role = "/".join(sorted(movers, key=lambda r: r != "MAX")) if movers else "leaves"
        if all(tree_node(graph, n).kind == "summary" for n in nodes):
            role = "not drawn"  # every subtree summarised here: the tree goes on below
        if view == "negamax" and movers:
            role += " to move"
        levels.append((depth, role, nodes))
    return levels


def _caption(tree: GameTree, title: str | None, legend: bool, look: _Look) -> str:
    facts = tree.graph.graph
    fig = look.fig
    rows = []
    name = default_title(tree, look.view, fig.style) if title is None else title  # "": none
    if look.exercise and name:
        name = "Exercise: " + name
    if name:
        rows.append(
            f'<TR><TD ALIGN="LEFT"><B><FONT POINT-SIZE="14">{escape(name)}</FONT></B></TD></TR>'
        )
    if look.exercise:
        summary = exercise_task(facts["algorithm"], windows=look.ab)
    elif look.marks:
        summary = ""  # the stepper page writes each frame's caption itself
    elif fig.final:
        summary = summary_line(tree)
    else:
        text = step_text(tree, fig.step - 1, look.view) if fig.step else "before the search"
        summary = f"step {fig.step} of {len(tree.steps)}: {text}"
    if summary:
        # an instruction, or the facts under a part of a tree drawn for a slide, wraps, so that
        # it never sets the picture's width
        text = (
            "".join(escape(line) + '<BR ALIGN="LEFT"/>' for line in textwrap.wrap(summary, 64))
            if look.exercise or facts.get("cut_view")
            else escape(summary)
        )
        rows.append(f'<TR><TD ALIGN="LEFT"><FONT POINT-SIZE="11">{text}</FONT></TD></TR>')
    if legend:
        rows.append(f'<TR><TD ALIGN="LEFT">{legend_table(_legend(tree, look))}</TD></TR>')
    if not rows:
        return '""'
    return '<<TABLE BORDER="0" CELLSPACING="1" CELLPADDING="1">' + "".join(rows) + "</TABLE>>"


def _legend(tree: GameTree, look: _Look) -> list[list[str]]:
    facts = tree.graph.graph
    nodes = [d for _, d in tree_nodes(tree.graph)]
    if facts["algorithm"] == "mcts":
        return _mcts_legend(look)
    if look.view == "negamax":
        items = [
            "● each node takes the largest of its children's values, negated: values are "
            "from the side of the player to move there"
        ]
    else:
        items = [
            '<FONT COLOR="#1f5fa8">▲</FONT> MAX takes the largest value',
            '<FONT COLOR="#b03a2e">▼</FONT> MIN takes the smallest',
        ]
    if any(n.role == "chance" for n in look.fig.nodes.values()):
        items.append(
            f'<FONT COLOR="{_CHANCE_INK}">◯</FONT> chance: the sum of p × value over its moves'
        )
    if any(n.probe for n in look.fig.nodes.values()):
        items.append("dashed (or 'probe'): a Star2 probe (its first move only, for a bound)")
    items.append(
        "□ leaf: end of the game"
        + (
            "; rounded, yellow: evaluated at the horizon"
            if any(d.leaf == "horizon" for d in nodes)
            else ""
        )
    )
    lines: list[str] = []
    if not look.exercise:
        lines.append("<B>━</B> principal variation (best play from the root)")
        lines.append(f'<FONT COLOR="{_OPTIMAL}"><B>━</B></FONT> a best move at its node')
        bounds = {d.bound for d in nodes if d.kind == "node" and d.value is not None}
        if look.fig.book_values:
            lines.append(escape(BOOK_VALUES))
        elif bounds - {"exact"}:
            lines.append("≥v lower bound (failed high, v ≥ β)   ≤v upper bound (failed low, v ≤ α)")
        if any(d.kind == "pruned" for d in nodes):
            revealed = facts.get("pruned_view") == "values"
            lines.append(
                f'<FONT COLOR="{_PRUNED}">╌ grey</FONT>: pruned, never visited (✂ the cut)'
                + ("; grey values: what minimax would find there" if revealed else "")
            )
    if look.ab:
        lines.append("[lo, hi]: where the value lies so far   α β: the window on entry")
    if chance_note(look.fig):
        lines.append(escape(chance_note(look.fig)))
    if look.order:
        lines.append("#n: the n-th node the search entered")
    if facts.get("transpositions"):
        apart = facts.get("visits_apart", 0)
        lines.append(
            f'<FONT COLOR="{_HITS}">×n</FONT> the search reached this position n times, '
            "by different move orders, and explored it alike each time"
            + (f"; {apart} positions drawn twice: their visits differed" if apart else "")
        )
    if facts.get("collapse"):
        lines.append("… subtree off the principal path, collapsed")
    if facts.get("cut_view"):
        lines.append("… n positions: the tree goes on below, not drawn here")
    if facts.get("fold_symmetries"):
        lines.append("0 ≡ 2, 6: symmetric moves drawn once")
    if not look.fig.final or look.marks:  # a frame, or the stepper that shows every frame
        lines.append(f'<FONT COLOR="{_CURRENT_KEY}">■</FONT> the node just valued')
    rows = [items]
    for start in range(0, len(lines), 3):
        rows.append(lines[start : start + 3])
    return rows


def _mcts_legend(look: _Look) -> list[list[str]]:
    """The legend of a Monte Carlo tree search's tree (:mod:`viz.mcts_tree`)."""
    items = [
        '<FONT COLOR="#1f5fa8">▲</FONT> MAX to move   <FONT COLOR="#b03a2e">▼</FONT> MIN',
        "□ leaf: end of the game",
        "<B>━</B> the most visited line (the move played)",
    ]
    counts = (
        "wins/playouts for the player who moved into the node (a draw counts 1/2)"
        if look.fig.style == "aima"
        else "W/N: total playout result (MAX's view) over N playouts through the node"
    )
    lines = [
        counts,
        "UCB: exploitation (mean, for the mover above) + exploration",
        "minimax: the exact value   proven: MCTS-Solver's proof",
    ]
    if not look.fig.final or look.marks:
        lines.append(
            f'<FONT COLOR="{_CURRENT_KEY}">■</FONT> the node of this step   '
            f'<FONT COLOR="{PATH_COLOUR}"><B>━</B></FONT> the path it walks'
        )
    return [items, lines[:3], lines[3:]] if len(lines) > 3 else [items, lines]


def step_text(tree: GameTree, index: int, view: str = "minimax") -> str:
    """What step ``index`` (from 0) did, in the words of the view.

    The minimax view uses the step's own text; the negamax view restates it from the side of
    the player to move: a node takes the largest negated child value, every cut reads v ≥ β.
    """
    step = tree.steps[index]
    if view != "negamax":
        return step.text
    data = tree_node(tree.graph, step.node)
    value, bound = shown(data, view)
    who = f"{data.role} node {data.title}" if data.path or data.name else "the root"
    if step.kind == "leaf":
        return (
            f"{step.text} to MAX, so {bound_text(value, bound)} to the player to move there "
            f"({data['role']})"
        )
    if step.kind == "cut":
        moves = step.text.split(", so ", 1)[1]
        return f"cut-off at {who}: {cut_at(tree, step.node, view)}, so {moves}"
    note = {
        "exact": "",
        "lower": " — a lower bound: it reached β",
        "upper": " — an upper bound: it stayed at or below α",
    }[bound]
    return (
        f"{who} takes the largest of its children's values negated: "
        f"{bound_text(value, bound)}{note}"
    )


def summary_line(tree: GameTree) -> str:
    """The caption's facts: the answer, and what the search did (an engine tree's facts were
    written when it was made, :func:`viz.engine_tree.engine_game_tree`)."""
    facts = tree.graph.graph
    if facts["algorithm"] == "engine":
        return str(facts["summary"])
    parts = answer_facts(facts)
    parts.append(f"{tree.searched:,} {'node' if tree.searched == 1 else 'nodes'} searched")
    saving = saving_text(tree.pruned, tree.saved, tree.searched, facts["algorithm"])
    if saving:
        parts.append(saving)
    if facts.get("transpositions"):
        parts.append(f"{facts['states']:,} distinct positions")
    if facts.get("collapse"):
        parts.append(f"{facts['collapsed_away']:,} positions collapsed")
    if facts.get("cut_view"):
        parts.append(cut_view_text(facts["cut_view"]))
    return "; ".join(parts)


def to_dot(
    tree: GameTree,
    *,
    boards: bool = False,
    alpha_beta_labels: bool = False,
    title: str | None = None,
    legend: bool = True,
    step: int | None = None,
    order: bool = False,
    exercise: bool = False,
    view: str = "minimax",
    rankdir: str = "TB",
    marks: bool = False,
    wrap: int | None = None,
    unscaled: bool = False,
    style: str = "default",
) -> str:
    """The Graphviz DOT source of the diagram, or of frame ``step`` (0 = before the search).

    Args:
        tree: from :func:`viz.game_tree`.
        boards: draw each position inside its node (the game's ``render``).
        alpha_beta_labels: write each node's window on entry and value range on the node.
        title: the caption's first line.
        legend: add the key to the symbols under the caption.
        step: draw frame ``step`` of backward induction (None: the finished diagram).
        order: number the nodes in the order the search entered them.
        exercise: leaves only; inner values, bounds, cuts and the principal path left blank.
        view: ``"minimax"`` (values from MAX's side) or ``"negamax"`` (the mover's side).
        rankdir: ``"TB"`` (root on top) or ``"LR"`` (root on the left, for wide trees).
        marks: colour-mark the value and range texts (for the stepper page).
        wrap: lay the leaves under a node out in rows of ``wrap`` (for wide trees).
        style: ``"aima"`` for the book's titles and values (:data:`viz.model.STYLES`).
        unscaled: state no largest size (:data:`MAX_INCHES`): Graphviz draws the picture at
            its natural size however large.

    Raises:
        CapabilityError: ``boards=True`` for a game without ``render``.
        VizError: an unknown ``view`` or ``rankdir``.

    >>> from games import load_game
    >>> from viz import game_tree
    >>> source = to_dot(game_tree(load_game("textbook")))
    >>> source.count('shape="triangle"'), source.count('shape="invtriangle"')
    (1, 3)
    """
    if boards and not tree.has_boards:
        from solver.game import CapabilityError

        raise CapabilityError(
            f"game {tree.graph.graph['game']!r} has no render() to draw boards in the nodes; "
            "draw it without boards"
        )
    if tree.graph.graph["algorithm"] == "engine":  # the engine's own picture, from the model
        from viz.engine_dot import engine_dot  # below this module: loads the engine's search

        figure(tree, step=step, view=view, exercise=exercise)  # refuses what it cannot draw
        return engine_dot(tree, title=title, legend=legend, marks=marks)
    if rankdir not in ("TB", "LR"):
        raise VizError(f"unknown rankdir {rankdir!r}; choose TB or LR")
    fig = figure(
        tree,
        step=step,
        view=view,
        exercise=exercise,
        alpha_beta_labels=alpha_beta_labels,
        order=order,
        boards=boards,
        style=style,
    )
    look = _Look(fig, boards=boards, marks=marks)
    graph = tree.graph
    size = "" if unscaled else f', size="{MAX_INCHES:g},{MAX_INCHES:g}"'
    lines = [
        "digraph gametree {",
        f'  graph [fontname="{FONT}", nodesep="0.18", ranksep="{0.5 if boards else 0.42}", '
        'labelloc="b", labeljust="l", outputorder="edgesfirst", forcelabels="true", '
        f'bgcolor="white", pad="0.25", rankdir="{rankdir}"{size}];',
        f'  node [fontname="{FONT}", fontsize="13", margin="0.02"];',
        f'  edge [fontname="{FONT}", fontsize="11", arrowsize="0.6"];',
        f"  label={_caption(tree, title, legend, look)};",
    ]
    levels = _levels(graph, view)
    rows = _wrapped_rows(graph, wrap) if wrap else {}
    for depth, role, nodes in levels:
        lines.append(f"  subgraph rank{depth} {{ rank=same;")
        lines.append(
            f'    level{depth} [id="level{depth}", class="level", shape=plaintext, '
            f'fontsize="11", fontcolor="#666666", label="{role}\\ndepth {depth}"];'
        )
        for node in sorted(nodes):
            if rows.get(node):
                continue  # a wrapped leaf sits below its level, on a rank of its own
            lines.append(f"    n{node} [{dot_attrs(_node(fig.nodes[node], look))}];")
        lines.append("  }")
    for node in sorted(n for n, row in rows.items() if row):
        lines.append(f"  n{node} [{dot_attrs(_node(fig.nodes[node], look))}];")
    for (a, _, _), (b, _, _) in itertools.pairwise(levels):
        lines.append(f"  level{a} -> level{b} [style=invis];")
    for edge in fig.edges:
        lines.append(_edge(edge, look, wrapped=bool(rows.get(edge.child))))
    for above, below in _wrap_columns(graph, rows, wrap):
        lines.append(f'  n{above} -> n{below} [style="invis", class="wrap"];')
    lines.append("}")
    return "\n".join(lines) + "\n"


def _wrapped_rows(graph: Any, per_row: int) -> dict[int, int]:
    """The row (0, 1, ...) of each leaf among its parent's leaf children, ``per_row`` a row."""
    rows: dict[int, int] = {}
    for node in graph.nodes:
        leaves = [c for c in sorted(graph.successors(node)) if graph.out_degree(c) == 0]
        if len(leaves) > per_row:
            for index, leaf in enumerate(leaves):
                rows[leaf] = index // per_row
    return rows


def _wrap_columns(graph: Any, rows: dict[int, int], per_row: int | None) -> list[tuple[int, int]]:
    """Invisible edges that stack each wrapped leaf under the one a row above it."""
    out = []
    for node in graph.nodes:
        leaves = [c for c in sorted(graph.successors(node)) if rows.get(c) is not None]
        if per_row:
            out += [(leaves[i - per_row], leaves[i]) for i in range(per_row, len(leaves))]
    return out


def layout_size(tree: GameTree, **looks: Any) -> tuple[float, float]:
    """The natural width and height, in inches, of the picture :func:`to_dot` lays out.

    ``looks`` are :func:`to_dot` options; the size limit is left out, so the answer is what
    Graphviz would draw unscaled.
    """
    source = to_dot(tree, **{**looks, "unscaled": True})
    first = pipe(source, "plain").decode().split("\n", 1)[0].split()
    return float(first[2]), float(first[3])


def readable_options(tree: GameTree, *, large: bool = False, **looks: Any) -> dict[str, Any]:
    """The layout options that make the picture readable: none if the plain layout fits in
    :data:`MAX_INCHES`, else the root on the left (``rankdir="LR"``), else the leaves under each
    node wrapped into rows of 4, 3 or 2 (either way round); with ``large=True`` and none of
    these fitting, ``{"unscaled": True}`` (drawn at its natural size).

    Raises:
        UnreadableError: no layout fits and ``large`` is False; the message gives the size and
            the options that would shrink it.
    """
    width, height = layout_size(tree, **looks)
    if max(width, height) <= MAX_INCHES:
        return {}
    # Each try is a full layout: try only those that can shrink the picture enough. Turning
    # it sideways swaps width for height (nodes are about as tall as wide), so it helps only a
    # picture within a few times the limit; wrapping leaves into rows of k narrows a level of
    # n leaves under one node at most n/k times.
    graph = tree.graph
    most = max(
        (sum(1 for c in graph.successors(n) if graph.out_degree(c) == 0) for n in graph), default=0
    )
    factor = max(width, height) / MAX_INCHES
    tries: list[dict[str, Any]] = [{"rankdir": "LR"}] if factor <= 3 else []
    tries += [
        {"rankdir": d, "wrap": k} for k in (4, 3, 2) for d in ("TB", "LR") if most / k >= factor
    ]
    for extra in tries:
        if max(layout_size(tree, **{**looks, **extra})) <= MAX_INCHES:
            return extra
    if large:
        return {"unscaled": True}
    raise _unreadable(tree, width, height, bool(looks.get("boards")))


def readable_dot(tree: GameTree, *, large: bool = False, **looks: Any) -> str:
    """The DOT source in the layout :func:`readable_options` picks."""
    return to_dot(tree, **{**looks, **readable_options(tree, large=large, **looks)})


def _unreadable(tree: GameTree, width: float, height: float, boards: bool) -> UnreadableError:
    used = _options_used(tree)
    shrink = ["depth"] + [k for k in ("collapse", "transpositions") if not used[k]]
    if not used["fold_symmetries"] and tree.graph.graph.get("foldable"):
        shrink.append("fold_symmetries")
    if boards:
        shrink.append("boards")
    words = {
        "depth": "a smaller depth",
        "collapse": "collapse=True",
        "transpositions": "transpositions=True",
        "fold_symmetries": "fold_symmetries=True",
        "boards": "boards=False",
    }
    return UnreadableError(
        f"the picture would be {width:.0f} x {height:.0f} inches ({width * 96:,.0f} x "
        f"{height * 96:,.0f} px at 96 dpi), more than {MAX_INCHES:g} inches even turned "
        "sideways or with its leaves wrapped into rows, so it could only be read shrunk past "
        f"legibility; shrink it with {', '.join(words[k] for k in shrink)}, or pass large=True "
        "to draw it at its natural size",
        inches=(width, height),
        shrink=(*shrink, "large"),
    )


def to_svg(tree: GameTree, *, large: bool = False, **options: Any) -> str:
    """The diagram as an SVG document (options as for :func:`to_dot`; ``large`` as for
    :func:`readable_options`)."""
    return pipe(readable_dot(tree, large=large, **options), "svg").decode()
