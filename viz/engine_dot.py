"""The engine's tree in Graphviz: each node and move drawn as :func:`viz.model.figure` says.

A position the transposition table answered is a cylinder labelled by the entry's flag; MAX and
MIN are triangles, leaves boxes; the window, the order of entry and a table note stand beside a
node; cut moves are dashed grey with the cut written on them (:mod:`viz.engine_tree` says what
each is).

>>> from games import load_game
>>> from viz.engine_tree import engine_tree
>>> game = load_game("tictactoe")
>>> source = engine_dot(engine_tree(game, game.parse_state("o../x.x/ox.")))
>>> source.count('shape="cylinder"')
4
"""

from __future__ import annotations

from html import escape

from viz.build import GameTree
from viz.engine_tree import EngineTree, engine_game_tree
from viz.graphviz import FONT, VALUE_MARK, dot_attrs, legend_table
from viz.model import NodeLook, default_title, figure
from viz.palette import MAX_FILL, MIN_FILL, PRUNED

__all__ = ["engine_dot"]

_FILL = {0: MAX_FILL, 1: MIN_FILL}
_TABLE = "#7b3fa0"
_PRUNED = PRUNED
_CUT = "#b03a2e"


def _node_attrs(shape: NodeLook, marks: bool) -> dict[str, str]:
    """Graphviz attributes of a node, from what the drawing model says it shows; ``marks``:
    colour-mark the value (:data:`viz.graphviz.VALUE_MARK`) for a page to find it."""
    out = {"id": f"n{shape.node}", "tooltip": f"{shape.role_name} to move | {shape.state}"}
    classes = []
    if shape.kind == "pruned":
        classes.append("pruned")
        out.update(
            shape="triangle" if shape.player == 0 else "invtriangle",
            style="dashed",
            color=_PRUNED,
            label="",
            width="0.5",
            height="0.42",
            fixedsize="true",
        )
        out["class"] = " ".join(classes)
        return out
    value = f"<B>{escape(shape.value)}</B>"
    if marks:
        value = f'<FONT COLOR="{VALUE_MARK}">{value}</FONT>'
    pen = "3.2" if shape.principal else "1.2"
    if shape.answered:
        classes.append(f"table {shape.table_kind}")
        out.update(
            shape="cylinder",
            style="filled",
            fillcolor="#efe6f5",
            color=_TABLE,
            penwidth=pen,
            label=f'<{value}<BR/><FONT POINT-SIZE="9">{escape(shape.table)}</FONT>>',
        )
    elif shape.leaf:
        classes.append("leaf")
        out.update(
            shape="box",
            style="rounded,filled" if shape.leaf != "terminal" else "filled",
            fillcolor="#fff4cc"
            if shape.leaf == "horizon"
            else ("#e6f5e6" if shape.leaf == "oracle" else "white"),
            penwidth=pen,
            label=f"<{value}>",
        )
    else:
        classes.append(("max", "min")[shape.player])
        out.update(
            shape="triangle" if shape.player == 0 else "invtriangle",
            style="filled",
            fillcolor=_FILL[shape.player],
            penwidth=pen,
            width="0.85",
            height="0.7",
            fixedsize="true",
            label=f"<{value}>",
        )
    if shape.principal:
        classes.append("principal")
    if shape.bound != "exact":
        classes.append(shape.bound)
    notes = [escape(shape.order)] if shape.order else []
    if shape.name:
        notes.insert(0, f"<B>{escape(shape.name)}</B>")
    if shape.window:
        notes.append(escape(shape.window))
    if shape.table and not shape.answered:
        notes.append(f'<FONT COLOR="{_TABLE}">{escape(shape.table)}</FONT>')
    if notes:
        out["xlabel"] = '<<FONT POINT-SIZE="9" COLOR="#555555">' + "<BR/>".join(notes) + "</FONT>>"
    out["class"] = " ".join(classes)
    return out


def engine_dot(
    tree: EngineTree | GameTree,
    *,
    title: str | None = None,
    legend: bool = True,
    marks: bool = False,
    summary: bool = True,
) -> str:
    """The Graphviz DOT source of the engine's tree (or of :func:`engine_game_tree`'s model of
    it), drawn from what :func:`viz.model.figure` says each node and move shows.

    ``marks``: colour-mark the values for a page to find them (:data:`viz.graphviz.VALUE_MARK`);
    ``summary=False``: the caption is the legend alone (a page writes title and summary).
    """
    drawn = tree if isinstance(tree, GameTree) else engine_game_tree(tree)
    fig = figure(drawn)
    graph = drawn.graph
    lines = [
        "digraph engine {",
        f'  graph [fontname="{FONT}", nodesep="0.25", ranksep="0.55", forcelabels="true", '
        'labelloc="b", labeljust="l", bgcolor="white", pad="0.25", outputorder="edgesfirst"];',
        f'  node [fontname="{FONT}", fontsize="12", margin="0.03"];',
        f'  edge [fontname="{FONT}", fontsize="10", arrowsize="0.6"];',
        f"  label={_caption(drawn, title, legend, summary)};",
    ]
    for node in graph.nodes:
        lines.append(f"  n{node} [{dot_attrs(_node_attrs(fig.nodes[node], marks))}];")
    moves = {(e.parent, e.child): e for e in fig.edges}
    for u, v in graph.edges:
        move = moves[u, v]
        edge = {"id": f"e{u}_{v}", "label": f"<{escape(move.move)}>"}
        if move.pruned:
            edge.update(
                {
                    "class": "pruned",
                    "style": "dashed",
                    "color": _PRUNED,
                    "fontcolor": _PRUNED,
                    "arrowhead": "none",
                }
            )
            if move.cut:
                edge["label"] = (
                    f'<{escape(move.move)}<BR/><FONT COLOR="{_CUT}">✂ {escape(move.cut)}</FONT>>'
                )
        elif move.principal:
            edge.update({"class": "principal", "penwidth": "3.2"})
        lines.append(f"  n{u} -> n{v} [{dot_attrs(edge)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _caption(tree: GameTree, title: str | None, legend: bool, summary: bool = True) -> str:
    name = title or default_title(tree)
    lines = [
        f'<B><FONT POINT-SIZE="14">{escape(name)}</FONT></B>',
        f'<FONT POINT-SIZE="11">{escape(str(tree.graph.graph["summary"]))}</FONT>',
    ]
    if not summary:
        lines = []
    if legend:  # a grid, each item in a cell of its own (a browser's wider font never overlaps)
        table = f'<FONT COLOR="{_TABLE}">cylinder</FONT>'
        items = [
            [
                "▲ MAX",
                "▼ MIN",
                "□ end of the game (yellow: horizon)",
                "#k: order of entry",
                f'<FONT COLOR="{_PRUNED}">╌</FONT> cut off (✂ why)',
            ],
            [f"{table}: answered by the table, =v EXACT, ≥v LOWER, ≤v UPPER, d the depth stored"],
            ["≥v / ≤v on a node: the engine stored a bound"],
            ["(α, β): the window on entry; probe v: a null window"],
        ]
        lines.append(legend_table(items))
    if not lines:
        return '""'
    rows = "".join(f'<TR><TD ALIGN="LEFT">{line}</TD></TR>' for line in lines)
    return f'<<TABLE BORDER="0" CELLSPACING="1" CELLPADDING="1">{rows}</TABLE>>'
