"""From an annotated tree to Graphviz: the DOT source of a diagram (or of one frame of it).

The picture follows the textbook figures: MAX nodes are up-triangles, MIN nodes down-triangles,
leaves boxes, values inside. The principal path is bold, other optimal moves are drawn blue,
pruned branches are dashed and grey with the cut written at the edge. Every node and edge gets
an ``id`` and ``class`` (``max``/``min``/``leaf``/``pruned``/``summary``, ``principal``,
``optimal``, ``cut``) that survive into the SVG, so tests and pages can find them.

A frame (``step=k``) shows the tree after the first ``k`` steps of backward induction: only the
values found so far, the node just valued highlighted, pruned branches once their cut happened.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from html import escape
from typing import Any

import graphviz

from viz.boards import board_label
from viz.build import GameTree, num
from viz.errors import GraphvizNotFoundError

__all__ = ["FONT", "default_title", "pipe", "summary_line", "to_dot", "to_svg"]

FONT = "DejaVu Sans"
"""One font for layout and drawing (it has the ▲ ▼ α β ∞ ✂ glyphs)."""

_FILL = {0: "#d7e6f5", 1: "#f8ddd5"}  # MAX blue, MIN rose
_LEAF_FILL = {"terminal": "#ffffff", "horizon": "#fff4cc"}
_CURRENT = "#ffd54f"
_OPTIMAL = "#1f6fb2"
_PRUNED = "#9a9a9a"
_CUT = "#b03a2e"
_GLYPH = {0: "▲", 1: "▼"}
_HITS = "#7b3fa0"
_SIGN = {"exact": "", "lower": "≥", "upper": "≤"}


def _attrs(items: dict[str, str]) -> str:
    parts = []
    for key, value in items.items():
        if value.startswith("<") and value.endswith(">"):
            parts.append(f"{key}={value}")
        else:
            quoted = value.replace("\\", "\\\\").replace('"', '\\"')
            parts.append(f'{key}="{quoted}"')
    return ", ".join(parts)


def _window(alpha: Any, beta: Any) -> str:
    def show(v: Any) -> str:
        return num(float(v)) if v is not None else "?"

    return f"[{show(alpha)}, {show(beta)}]"


class _Frame:
    """What a frame reveals: values up to ``step``, cuts done, the node just valued."""

    def __init__(self, tree: GameTree, step: int | None) -> None:
        self.final = step is None or step >= len(tree.steps)
        self.step = len(tree.steps) if step is None else step
        self.current = tree.steps[self.step - 1].node if self.step > 0 and not self.final else None

    def known(self, data: dict[str, Any]) -> bool:
        if self.final or data["reveal"] is None:
            return self.final or data["kind"] == "summary"
        return bool(data["reveal"] <= self.step)

    def opened(self, data: dict[str, Any]) -> bool:
        if self.final or data.get("opened") is None:
            return self.final
        return bool(data["opened"] <= self.step)

    def cut(self, data: dict[str, Any]) -> bool:
        return self.final or (data["step"] is not None and data["step"] <= self.step)


def _node(node: int, data: dict[str, Any], frame: _Frame, boards: bool, ab: bool) -> dict[str, str]:
    kind = data["kind"]
    player = int(data["player"])
    leaf = data["leaf"]
    known = frame.known(data)
    classes = [kind if kind != "node" else ("leaf" if leaf else ("max", "min")[player])]
    if kind == "pruned" and not frame.cut(data):
        kind = "unvisited"
        classes = ["unvisited"]
    if data["principal"] and frame.final:
        classes.append("principal")
    if data["optimal"] and frame.final:
        classes.append("optimal")
    if data["cache_hit"]:
        classes.append("transposition")
    if node == frame.current:
        classes.append("current")
    if known and data["value"] is not None:
        classes.append("valued")
    out: dict[str, str] = {"id": f"n{node}", "class": " ".join(classes)}
    value = num(data["value"]) if known and data["value"] is not None else ""
    if known and value:
        value = _SIGN[data["bound"]] + value
    hits = f"×{data['hits']}" if data["hits"] > 1 else ""
    tooltip = [data["role"] + " to move", data["state"]]
    if data["cut"]:
        tooltip.append(f"pruned by {data['cut']}")
    out["tooltip"] = " | ".join(t for t in tooltip if t)
    fill = _LEAF_FILL[leaf] if leaf else _FILL[player]
    if node == frame.current:
        fill = _CURRENT
    pen = "3.2" if data["principal"] and frame.final else "1.2"

    if kind == "summary":
        out.update(
            shape="box",
            style="rounded,dotted",
            color="#666666",
            fontcolor="#444444",
            fontsize="10",
            label=f"… {data['positions']:,}\npositions",
        )
        return out
    if kind in ("pruned", "unvisited"):
        grey = _PRUNED if kind == "pruned" else "#c8c8c8"
        out.update(
            color=grey,
            fontcolor=grey,
            style="dashed" if kind == "pruned" else "solid",
            penwidth="1",
        )
        if boards and data["board"]:
            out.update(shape="plain", label=f"<{board_label(data['board'], dim=True)}>")
            out["label"] = (
                f'<<TABLE BORDER="1" STYLE="{"dashed" if kind == "pruned" else "rounded"}" '
                f'COLOR="{grey}" CELLBORDER="0" CELLPADDING="3">'
                f"<TR><TD>{board_label(data['board'], dim=True)}</TD></TR></TABLE>>"
            )
        else:
            _shape(out, player, leaf)
            out["label"] = ""
        return out

    extra = hits
    if boards and data["board"]:
        glyph = "■" if leaf else _GLYPH[player]
        head_colour = "#333333" if leaf else ("#1f5fa8", "#b03a2e")[player]
        label_line = ""
        if data["label"] and known:
            label_line = f'<TR><TD><FONT POINT-SIZE="10">{escape(data["label"])}</FONT></TD></TR>'
        note = f'<FONT POINT-SIZE="10" COLOR="{_HITS}"> {escape(extra)}</FONT>' if extra else ""
        border = "3" if data["principal"] and frame.final else "1"
        colour = "black" if data["principal"] and frame.final else "#777777"
        if data["optimal"] and not data["principal"] and frame.final:
            colour = _OPTIMAL
            border = "2"
        out.update(shape="plain")
        out["label"] = (
            f'<<TABLE BORDER="{border}" STYLE="rounded" COLOR="{colour}" CELLBORDER="0" '
            f'CELLSPACING="0" CELLPADDING="3" BGCOLOR="{fill}">'
            f'<TR><TD><FONT COLOR="{head_colour}">{glyph}</FONT> '
            f'<B><FONT POINT-SIZE="14">{escape(value) or "&nbsp;"}</FONT></B>{note}</TD></TR>'
            f"<TR><TD>{board_label(data['board'])}</TD></TR>{label_line}</TABLE>>"
        )
    else:
        _shape(out, player, leaf)
        style = "rounded,filled" if leaf == "horizon" else "filled"
        out.update(style=style, fillcolor=fill, penwidth=pen)
        if data["optimal"] and not data["principal"] and frame.final:
            out.update(color=_OPTIMAL, penwidth="2.2")
        lines = [f"<B>{escape(value)}</B>" if value else " "]
        if data["label"] and known:
            lines = [f"<B>{escape(data['label'])}</B>"]
            if value:
                lines.append(f'<FONT POINT-SIZE="9">{escape(value)}</FONT>')
            out.update(width="0.9" if len(data["label"]) < 9 else "1.1", height="0.45")
        if extra:
            lines.append(f'<FONT POINT-SIZE="9" COLOR="{_HITS}">{escape(extra)}</FONT>')
            if not leaf:
                out.update(width="0.95", height="0.8")
        out["label"] = "<" + "<BR/>".join(lines) + ">"
    xlabel = []
    if data["name"]:
        xlabel.append(f"<B>{escape(data['name'])}</B>")
    if ab and data["alpha_in"] is not None and not leaf and frame.opened(data):
        xlabel.append(
            '<FONT POINT-SIZE="9" COLOR="#555555">α,β in '
            f"{_window(data['alpha_in'], data['beta_in'])}</FONT>"
        )
        if known and data["alpha_out"] is not None:
            xlabel.append(
                f'<FONT POINT-SIZE="9" COLOR="#555555">out '
                f"{_window(data['alpha_out'], data['beta_out'])}</FONT>"
            )
    if xlabel:
        out["xlabel"] = "<" + "<BR/>".join(xlabel) + ">"
    return out


def _shape(out: dict[str, str], player: int, leaf: str | None) -> None:
    if leaf:
        out.update(shape="box", width="0.55", height="0.4", fixedsize="false")
        if leaf == "horizon":
            out["style"] = "rounded"
    else:
        out.update(
            shape="triangle" if player == 0 else "invtriangle",
            width="0.8",
            height="0.68",
            fixedsize="true",
        )


def _edge(
    u: int,
    v: int,
    data: dict[str, Any],
    child: dict[str, Any],
    parent: dict[str, Any],
    frame: _Frame,
) -> str:
    out: dict[str, str] = {"id": f"e{u}_{v}"}
    classes = []
    move = escape(data["move"])
    if child["folded"]:
        move += " ≡ " + escape(", ".join(child["folded"]))
    label = move
    if data["pruned"] and frame.cut(child):
        classes.append("pruned")
        out.update(style="dashed", color=_PRUNED, fontcolor=_PRUNED, arrowhead="none")
        if data["cut"]:
            classes.append("cut")
            label = (
                f'{move}<BR/><FONT COLOR="{_CUT}" POINT-SIZE="10">✂ {escape(data["cut"])}</FONT>'
            )
    elif data["pruned"]:
        classes.append("unvisited")
        out.update(color="#c8c8c8", fontcolor="#aaaaaa", arrowhead="none")
    elif child["kind"] == "summary":
        out.update(style="dotted", arrowhead="none", color="#666666")
    elif data["principal"] and frame.final:
        classes.append("principal")
        out.update(penwidth="3.2")
    elif data["optimal"] and (frame.final or frame.known(parent)):
        classes.append("optimal")
        out.update(penwidth="2.2", color=_OPTIMAL, fontcolor=_OPTIMAL)
    out["class"] = " ".join(classes) or "move"
    if label:
        out["label"] = f"<{label}>"
    return f"  n{u} -> n{v} [{_attrs(out)}];"


def _levels(graph: Any) -> list[tuple[int, str, list[int]]]:
    by_depth: dict[int, list[int]] = {}
    for node, data in graph.nodes(data=True):
        by_depth.setdefault(int(data["depth"]), []).append(node)
    levels = []
    for depth in sorted(by_depth):
        nodes = by_depth[depth]
        inner = [graph.nodes[n] for n in nodes if graph.nodes[n]["kind"] == "node"]
        movers = {d["role"] for d in inner if not d["leaf"]}
        role = "/".join(sorted(movers, key=lambda r: r != "MAX")) if movers else "leaves"
        levels.append((depth, role, nodes))
    return levels


def _caption(tree: GameTree, title: str | None, legend: bool, frame: _Frame) -> str:
    facts = tree.graph.graph
    rows = []
    name = title or default_title(tree)
    rows.append(
        f'<TR><TD ALIGN="LEFT"><B><FONT POINT-SIZE="14">{escape(name)}</FONT></B></TD></TR>'
    )
    if frame.final:
        summary = summary_line(tree)
    else:
        text = tree.steps[frame.step - 1].text if frame.step else "before the search"
        summary = f"step {frame.step} of {len(tree.steps)}: {text}"
    rows.append(f'<TR><TD ALIGN="LEFT"><FONT POINT-SIZE="11">{escape(summary)}</FONT></TD></TR>')
    if legend:
        items = [
            '<FONT COLOR="#1f5fa8">▲</FONT> MAX takes the largest value',
            '<FONT COLOR="#b03a2e">▼</FONT> MIN takes the smallest',
            "□ leaf: end of the game"
            + (
                "; rounded, yellow: evaluated at the horizon"
                if any(d["leaf"] == "horizon" for _, d in tree.graph.nodes(data=True))
                else ""
            ),
        ]
        lines = [
            "<B>━</B> principal variation (best play from the root)",
            f'<FONT COLOR="{_OPTIMAL}"><B>━</B></FONT> a best move at its node',
        ]
        if tree.pruned and "transpositions" not in facts:
            lines.append(f'<FONT COLOR="{_PRUNED}">╌</FONT> pruned, never visited (✂ the cut)')
        if facts.get("transpositions"):
            lines.append(f'<FONT COLOR="{_HITS}">×n</FONT> position reached n times (a table hit)')
        if facts.get("collapse"):
            lines.append("… subtree off the principal path, collapsed")
        if facts.get("fold_symmetries"):
            lines.append("0 ≡ 2, 6: symmetric moves drawn once")
        if not frame.final:
            lines.append('<FONT COLOR="#b08000">■</FONT> the node just valued')
        rows.append(
            f'<TR><TD ALIGN="LEFT"><FONT POINT-SIZE="10">{"   ".join(items)}</FONT></TD></TR>'
        )
        rows.append(
            f'<TR><TD ALIGN="LEFT"><FONT POINT-SIZE="10">{"   ".join(lines)}</FONT></TD></TR>'
        )
    return '<<TABLE BORDER="0" CELLSPACING="1" CELLPADDING="1">' + "".join(rows) + "</TABLE>>"


def default_title(tree: GameTree) -> str:
    facts = tree.graph.graph
    algorithm = {"minimax": "Minimax", "alphabeta": "Alpha-beta"}[facts["algorithm"]]
    depth = f", depth {facts['depth']}" if facts["depth"] is not None else ""
    return f"{algorithm} on {facts['game']} from {facts['position']}{depth}"


def summary_line(tree: GameTree) -> str:
    facts = tree.graph.graph
    parts = [f"value {facts['value_text']}"]
    if facts["best_move"] is not None:
        parts.append(f"best move {facts['best_move']}")
    if facts["pv"]:
        parts.append("principal variation " + " ".join(facts["pv"]))
    parts.append(f"{tree.searched:,} nodes searched")
    if tree.pruned:
        parts.append(f"{tree.pruned:,} pruned")
    if facts.get("transpositions"):
        parts.append(f"{facts['states']:,} distinct positions")
    if facts.get("collapse"):
        parts.append(f"{facts['collapsed_away']:,} positions collapsed")
    return "; ".join(parts)


def to_dot(
    tree: GameTree,
    *,
    boards: bool = False,
    alpha_beta_labels: bool = False,
    title: str | None = None,
    legend: bool = True,
    step: int | None = None,
) -> str:
    """The Graphviz DOT source of the diagram, or of frame ``step`` (0 = before the search).

    Raises:
        CapabilityError: ``boards=True`` for a game without ``render``.

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
    frame = _Frame(tree, step)
    graph = tree.graph
    lines = [
        "digraph gametree {",
        f'  graph [fontname="{FONT}", nodesep="0.18", ranksep="{0.5 if boards else 0.42}", '
        'labelloc="b", labeljust="l", forcelabels="true", outputorder="edgesfirst", '
        'bgcolor="white", pad="0.25"];',
        f'  node [fontname="{FONT}", fontsize="13", margin="0.02"];',
        f'  edge [fontname="{FONT}", fontsize="11", arrowsize="0.6"];',
        f"  label={_caption(tree, title, legend, frame)};",
    ]
    levels = _levels(graph)
    for depth, role, nodes in levels:
        lines.append(f"  subgraph rank{depth} {{ rank=same;")
        lines.append(
            f'    level{depth} [id="level{depth}", class="level", shape=plaintext, '
            f'fontsize="11", fontcolor="#666666", label="{role}\\ndepth {depth}"];'
        )
        for node in sorted(nodes):
            look = _node(node, graph.nodes[node], frame, boards, alpha_beta_labels)
            lines.append(f"    n{node} [{_attrs(look)}];")
        lines.append("  }")
    for (a, _, _), (b, _, _) in itertools.pairwise(levels):
        lines.append(f"  level{a} -> level{b} [style=invis];")
    for u, v, data in _ordered_edges(graph):
        lines.append(_edge(u, v, data, graph.nodes[v], graph.nodes[u], frame))
    lines.append("}")
    return "\n".join(lines) + "\n"


def _ordered_edges(graph: Any) -> Iterable[tuple[int, int, dict[str, Any]]]:
    return sorted(graph.edges(data=True), key=lambda e: (e[0], e[1]))


def pipe(source: str, fmt: str) -> bytes:
    """Run Graphviz ``dot`` on ``source`` and return the output in ``fmt`` (svg, png, pdf).

    Raises:
        GraphvizNotFoundError: ``dot`` is not installed.
    """
    if fmt == "png":
        source = source.replace("{\n", '{\n  graph [dpi="150"];\n', 1)
    try:
        data: bytes = graphviz.pipe("dot", fmt, source.encode(), quiet=True)
    except graphviz.ExecutableNotFound:
        raise GraphvizNotFoundError(
            f"cannot write {fmt!r}: Graphviz's 'dot' program is not installed "
            "(Debian/Ubuntu: apt-get install graphviz); DOT and JSON output work without it"
        ) from None
    return data


def to_svg(tree: GameTree, **options: Any) -> str:
    """The diagram as an SVG document (options as for :func:`to_dot`)."""
    return pipe(to_dot(tree, **options), "svg").decode()
