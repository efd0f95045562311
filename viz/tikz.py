"""From an annotated tree to TikZ: the same diagram as the Graphviz one, for LaTeX and Beamer.

The picture carries the annotations of :mod:`viz.dot`: MAX nodes are up-triangles, MIN nodes
down-triangles, leaves boxes (rounded and yellow when valued at the horizon); each value is
written ``≥v`` or ``≤v`` by the node's bound kind (the ``bound`` attribute that alpha-beta's
fail-soft rule gives it), plain when exact; the principal path is bold, other optimal moves blue,
pruned subtrees grey and dashed with the cut (``v=2 ≤ α=3``) written in red at the first pruned
edge; AIMA's node letters stand beside their nodes.

``exercise=True`` draws the sheet a student fills in: the same tree with only the leaves' values,
and without what :func:`viz.annotations.exercise_node` hides (bounds, cuts, pruned marks, the
principal path), as the Graphviz exercise does; the normal picture is its answer key.

Assumes only plain TikZ: the shapes are drawn as paths and the colours defined inside the
picture, so the body needs nothing but ``\\usepackage{tikz}`` in the preamble. The layout is the
textbook one: leaves evenly spaced left to right, each parent centred over its children, one row
per ply; it suits the small trees one puts on a slide (the caller bounds the size with
``max_nodes`` when building the tree).

Two forms of output:

- :func:`to_tikz` with ``standalone=True`` (the default): a complete document that
  ``pdflatex`` compiles to a PDF cropped to the picture;
- ``standalone=False``: only the ``tikzpicture`` environment, to ``\\input`` into a Beamer frame
  or an article (``\\resizebox{\\linewidth}{!}{\\input{tree.tex}}`` scales it to the frame).

>>> from games import load_game
>>> from viz import game_tree
>>> body = to_tikz(game_tree(load_game("textbook"), algorithm="alphabeta"), standalone=False)
>>> body.splitlines()[1], body.count("% MIN node")
('\\\\begin{tikzpicture}[x=1cm, y=1cm]', 3)
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from solver.output import write_text
from viz.annotations import exercise_edge, exercise_node, exercise_task, value_text
from viz.build import GameTree, num
from viz.dot import default_title, summary_line

__all__ = ["latex_text", "to_tikz", "value_tex", "write_tikz"]

_COLOURS = {
    "maxfill": "D7E6F5",
    "minfill": "F8DDD5",
    "horizonfill": "FFF4CC",
    "optimal": "1F6FB2",
    "pruned": "9A9A9A",
    "cut": "B03A2E",
    "hits": "7B3FA0",
}

_HALF_W = 0.42  # half the width of a triangle (cm)
_HALF_H = 0.34  # half the height of every node shape (cm)
_ROW = 1.55  # vertical distance between plies (cm)
_LEAF_GAP = 0.95  # horizontal distance between neighbouring leaves (cm), at the least

# A page cropped to the picture with a 6pt border, in base LaTeX only (the standalone class is
# in Debian's large texlive-latex-extra): typeset the picture in a box, size the page to the box.
_STANDALONE = r"""\documentclass{article}
\usepackage[T1]{fontenc}
\usepackage{tikz}
\newsavebox{\gamesolvertree}
\begin{document}
\begin{lrbox}{\gamesolvertree}
%BODY%
\end{lrbox}
\ifdefined\pdfpagewidth\else\let\pdfpagewidth\pagewidth\let\pdfpageheight\pageheight\fi
\pdfpagewidth=\dimexpr\wd\gamesolvertree+12pt\relax
\pdfpageheight=\dimexpr\ht\gamesolvertree+\dp\gamesolvertree+12pt\relax
\hoffset=-1in \voffset=-1in
\shipout\vbox{\kern6pt\hbox{\kern6pt\usebox{\gamesolvertree}}}
\end{document}
"""

_SPECIAL = re.compile(r"[\\{}$&#^_%~]")
_ESCAPES = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "#": r"\#",
    "^": r"\^{}",
    "_": r"\_",
    "%": r"\%",
    "~": r"\textasciitilde{}",
}
_SYMBOLS = {
    "≥": r"$\geq$",
    "≤": r"$\leq$",
    "α": r"$\alpha$",
    "β": r"$\beta$",
    "∞": r"$\infty$",
    "−": "-",
    "×": r"$\times$",
    "≡": r"$\equiv$",
    "…": r"\ldots{}",
    "✂": "",
    "▲": r"$\triangle$",
    "▼": r"$\bigtriangledown$",
}


def latex_text(text: str) -> str:
    r"""``text`` as LaTeX source that pdflatex typesets: specials escaped, math symbols mapped.

    >>> latex_text("v=2 ≤ α=3 & 50%")
    'v=2 $\\leq$ $\\alpha$=3 \\& 50\\%'
    """
    escaped = _SPECIAL.sub(lambda m: _ESCAPES[m.group()], text)
    return "".join(_SYMBOLS.get(ch, ch) for ch in escaped)


def _layout(tree: GameTree, gap: float, row: float) -> dict[int, tuple[float, float]]:
    """x and y (cm) for every node: leaves left to right ``gap`` apart, parents centred."""
    graph = tree.graph
    where: dict[int, tuple[float, float]] = {}
    next_x = 0.0
    stack: list[tuple[int, bool]] = [(tree.root, False)]
    while stack:
        node, done = stack.pop()
        kids = list(graph.successors(node))
        y = -row * int(graph.nodes[node]["depth"])
        if not kids:
            where[node] = (next_x, y)
            next_x += gap
        elif done:
            xs = [where[k][0] for k in kids]
            where[node] = ((min(xs) + max(xs)) / 2, y)
        else:
            stack.append((node, True))
            stack.extend((k, False) for k in reversed(kids))
    return where


def value_tex(data: dict[str, Any]) -> str:
    r"""The drawn value (see :func:`value_text`) as LaTeX math, so that minus signs are minus.

    The sign of the bound and the number are groups of their own, so the minus stays unary
    (no space after it).

    >>> value_tex({"value": -1, "bound": "upper"})
    '${\\leq}{-1}$'
    """
    if data["value"] is None:
        return ""
    sign = {"exact": "", "lower": r"{\geq}", "upper": r"{\leq}"}[data["bound"]]
    number = num(data["value"]).replace("∞", r"\infty").replace("−", "-")
    return f"${sign}{{{number}}}$"


_RULE_LINE = re.compile(r"^[\s\-+=|─━┼┃│]*$")


def _board_rows(board: str) -> list[str]:
    """A ``render`` picture's lines without its rule lines (the rows stay apart)."""
    return [line.rstrip() for line in board.splitlines() if not _RULE_LINE.match(line)]


def _board_text(board: str) -> str:
    """A ``render`` picture in typewriter type, one line per row."""
    rows = [r"\texttt{" + latex_text(line).replace(" ", "~") + "}" for line in _board_rows(board)]
    return r"{\scriptsize\begin{tabular}{@{}l@{}}" + r"\\ ".join(rows) + r"\end{tabular}}"


def _fmt(x: float) -> str:
    return f"{x:.3f}".rstrip("0").rstrip(".") if x else "0"


def _shape_path(data: dict[str, Any], x: float, y: float, w: float, h: float) -> str:
    if data["kind"] == "summary" or data["leaf"] or data.get("board"):
        corners = [(x - w, y - h), (x + w, y - h), (x + w, y + h), (x - w, y + h)]
    elif int(data["player"]) == 0:
        corners = [(x - w, y - h), (x + w, y - h), (x, y + h)]
    else:
        corners = [(x - w, y + h), (x + w, y + h), (x, y - h)]
    return " -- ".join(f"({_fmt(a)},{_fmt(b)})" for a, b in corners) + " -- cycle"


def _node_commands(
    node: int, data: dict[str, Any], x: float, y: float, half_w: float, half_h: float
) -> list[str]:
    kind = data["kind"]
    player = int(data["player"])
    leaf = data["leaf"]
    role = "leaf" if leaf else ("MAX", "MIN")[player]
    out = [f"% {role} node {node}" + (f" ({data['name']})" if data["name"] else "")]
    path = _shape_path(data, x, y, half_w + (0.1 if kind == "summary" else 0.0), half_h)
    rounded = ", rounded corners=3pt" if leaf == "horizon" or kind == "summary" else ""
    at = f"({_fmt(x)},{_fmt(y)})"
    if kind == "summary":
        out.append(rf"\draw[densely dotted, draw=black!60{rounded}] {path};")
        out.append(
            rf"\node[font=\tiny, text=black!70, align=center, inner sep=0pt] at {at} "
            rf"{{\ldots{{}}{data['positions']:,}\\positions}};"
        )
        return out
    if kind == "pruned":
        out.append(rf"\draw[dashed, draw=pruned{rounded}] {path};")
        if data["value"] is not None:  # a pruned subtree with its values revealed
            out.append(rf"\node[font=\footnotesize, text=pruned] at {at} {{{value_tex(data)}}};")
        return out
    fill = (
        "horizonfill"
        if leaf == "horizon"
        else ("white" if leaf else ("maxfill", "minfill")[player])
    )
    pen = "very thick" if data["principal"] else "thin"
    colour = "optimal" if data["optimal"] and not data["principal"] else "black"
    if colour == "optimal":
        pen = "thick"
    out.append(rf"\filldraw[fill={fill}, draw={colour}, {pen}{rounded}] {path};")
    # one line per fact, each in a group of its own: TikZ breaks lines (\\) only outside groups
    value = value_tex(data)
    lines = []
    if data.get("board") and not leaf:
        lines.append(
            (r"$\triangle$ ", r"$\bigtriangledown$ ")[player] + rf"{{\bfseries\boldmath {value}}}"
        )
    elif data["label"]:
        lines.append(rf"{{\bfseries {latex_text(data['label'])}}}")
        if value:
            lines.append(rf"{{\scriptsize {value}}}")
    elif value:
        lines.append(rf"{{\bfseries\boldmath {value}}}")
    if data["hits"] > 1:
        lines.append(rf"{{\scriptsize\color{{hits}}$\times${data['hits']}}}")
    if data.get("board"):
        lines.append(_board_text(data["board"]))
    text = r"\\".join(lines)
    # a triangle's text sits low in an up-triangle and high in a down-triangle, where it is wide
    shift = 0.0 if leaf or data.get("board") else (-0.09 if player == 0 else 0.09)
    # a triangle holds two characters at \footnotesize; a longer value (≤−1) goes a size down
    size = r"\scriptsize" if not leaf and len(value_text(data)) > 2 else r"\footnotesize"
    if text:
        out.append(
            rf"\node[font={size}, align=center, inner sep=0pt] at "
            rf"({_fmt(x)},{_fmt(y + shift)}) {{{text}}};"
        )
    if data["name"]:
        out.append(
            rf"\node[font=\small\bfseries, anchor=east] at ({_fmt(x - half_w - 0.05)},{_fmt(y)}) "
            f"{{{latex_text(str(data['name']))}}};"
        )
    return out


def _edge_command(
    u: tuple[float, float],
    v: tuple[float, float],
    edge: dict[str, Any],
    child: dict[str, Any],
    half_h: float,
) -> list[str]:
    start = f"({_fmt(u[0])},{_fmt(u[1] - half_h)})"
    end = f"({_fmt(v[0])},{_fmt(v[1] + half_h)})"
    move = latex_text(edge["move"])
    if child["folded"]:
        move += r" $\equiv$ " + latex_text(", ".join(child["folded"]))
    if edge["pruned"]:
        style = "dashed, draw=pruned"
        label_style = "text=pruned"
    elif child["kind"] == "summary":
        style, label_style = "densely dotted, draw=black!60", "text=black!70"
    elif edge["principal"]:
        style, label_style = "very thick", ""
    elif edge["optimal"]:
        style, label_style = "thick, draw=optimal", "text=optimal"
    else:
        style, label_style = "thin", ""
    label = ""
    if move:
        label = (
            rf" node[pos=0.45, fill=white, inner sep=1pt, font=\scriptsize, {label_style}] "
            f"{{{move}}}"
        )
    if edge["pruned"] and edge.get("cut"):
        # the cut in red at two thirds of the first pruned edge, on the side the edge leans to
        anchor = "west" if v[0] >= u[0] else "east"
        label += (
            rf" node[pos=0.7, anchor={anchor}, fill=white, inner sep=0.5pt, font=\scriptsize, "
            f"text=cut] {{{latex_text(edge['cut'])}}}"
        )
    return [rf"\draw[{style}] {start} --{label} {end};"]


def _caption(
    tree: GameTree,
    title: str | None,
    legend: bool,
    exercise: bool,
    where: tuple[float, float, float],
) -> str:
    bottom, left, width = where
    facts = tree.graph.graph
    name = title or default_title(tree)
    rows = [
        r"\textbf{" + latex_text(("Exercise: " if exercise else "") + name) + "}",
        latex_text(exercise_task(facts["algorithm"]) if exercise else summary_line(tree)),
    ]
    if legend:
        items = [
            r"$\triangle$ MAX takes the largest value",
            r"$\bigtriangledown$ MIN the smallest",
        ]
        if not exercise:  # the rest are answers
            items += [
                r"$\geq v$ / $\leq v$: a bound (alpha-beta stopped early)",
                r"\textbf{bold}: principal variation",
                r"{\color{optimal}blue}: a best move",
            ]
        if tree.pruned and not exercise:
            items.append(r"{\color{pruned}dashed}: pruned, never visited ({\color{cut}the cut})")
        if facts.get("transpositions"):
            items.append(r"{\color{hits}$\times n$}: position reached $n$ times")
        rows.append(r"{\scriptsize " + "; ".join(items) + "}")
    return (
        rf"\node[anchor=north west, align=left, font=\footnotesize, inner sep=0pt, "
        rf"text width={_fmt(width)}cm] at ({_fmt(left)},{_fmt(bottom)}) "
        "{" + r"\\ ".join(rows) + "};"
    )


def to_tikz(
    tree: GameTree,
    *,
    standalone: bool = True,
    boards: bool = False,
    title: str | None = None,
    legend: bool = True,
    caption: bool = True,
    exercise: bool = False,
) -> str:
    r"""The diagram as TikZ: a standalone LaTeX document, or the ``tikzpicture`` alone.

    Args:
        tree: from :func:`viz.game_tree`.
        standalone: a whole document whose page is cropped to the picture (``pdflatex tree.tex``);
            False gives the ``tikzpicture`` environment only, to ``\input`` into Beamer.
        boards: write each position's ``render`` text inside its node.
        title: the caption's first line (default: algorithm, game, position, depth).
        legend: add the key to the symbols under the caption.
        caption: write the title and the summary line under the tree.
        exercise: the sheet for students: leaves' values only, no bounds, cuts, pruned marks
            or principal path (the caption says what to fill in).

    Raises:
        CapabilityError: ``boards=True`` for a game without ``render``.
        VizError: ``exercise=True`` and a leaf was pruned without a value (build the tree with
            ``pruned="values"``).

    >>> from games import load_game
    >>> from viz import game_tree
    >>> source = to_tikz(game_tree(load_game("textbook")))
    >>> source.startswith("\\documentclass"), source.count("% MAX node")
    (True, 1)
    """
    if boards and not tree.has_boards:
        from solver.game import CapabilityError

        raise CapabilityError(
            f"game {tree.graph.graph['game']!r} has no render() to draw boards in the nodes; "
            "draw it without boards"
        )
    graph = tree.graph
    show_boards = boards and tree.has_boards
    half_w, half_h, row = _HALF_W, _HALF_H, _ROW
    if show_boards:  # boxes as large as the largest board (typewriter \scriptsize: ~0.13 cm a char)
        shown = [_board_rows(d["board"]) for _, d in graph.nodes(data=True) if d.get("board")]
        chars = max((len(r) for rows in shown for r in rows), default=10)
        count = max((len(rows) for rows in shown), default=3)
        half_w = max(0.8, 0.066 * chars + 0.15)
        half_h = max(0.72, 0.15 * (count + 2) + 0.05)
        row = 2 * half_h + 0.9
    widest_label = max((len(d["label"] or "") for _, d in graph.nodes(data=True)), default=0)
    summaries = any(d["kind"] == "summary" for _, d in graph.nodes(data=True))
    gap = max(_LEAF_GAP + (0.2 if summaries else 0.0), 2 * half_w + 0.25, 0.16 * widest_label + 0.3)
    where = _layout(tree, gap, row)
    lines = [r"\begin{tikzpicture}[x=1cm, y=1cm]"]
    lines += [rf"\definecolor{{{name}}}{{HTML}}{{{hex_}}}" for name, hex_ in _COLOURS.items()]
    lines.append("% edges first, so that the nodes cover their ends")
    for u, v, edge in graph.edges(data=True):
        if exercise:
            edge = exercise_edge(edge)
        lines += _edge_command(where[u], where[v], edge, graph.nodes[v], half_h)
    for node, data in graph.nodes(data=True):
        if exercise:
            data = exercise_node(data)
        if not show_boards:
            data = {**data, "board": None}
        lines += _node_commands(node, data, *where[node], half_w, half_h)
    if caption:
        bottom = min(y for _, y in where.values()) - half_h - 0.35
        left = min(x for x, _ in where.values()) - half_w - 0.4  # room for a node letter
        width = max(max(x for x, _ in where.values()) + half_w - left, 9.0)
        lines.append(_caption(tree, title, legend, exercise, (bottom, left, width)))
    lines.append(r"\end{tikzpicture}")
    body = "\n".join(lines) + "\n"
    if not standalone:
        return "% gamesolver tree: \\input this where the preamble has \\usepackage{tikz}\n" + body
    return _STANDALONE.replace("%BODY%\n", body)


def write_tikz(
    tree: GameTree, path: str | os.PathLike[str], *, overwrite: bool = True, **options: Any
) -> Path:
    """Write :func:`to_tikz` to ``path`` and return the path (options as there).

    The file is written atomically; ``overwrite=False`` refuses to replace an existing one.

    Raises:
        OutputError: the path cannot be written, or exists and ``overwrite`` is False.
    """
    return write_text(path, to_tikz(tree, **options), overwrite=overwrite)
