"""From the drawing model to TikZ: the same figure as the Graphviz one, for LaTeX and Beamer.

The picture draws a :class:`viz.model.Figure` and nothing else: MAX nodes are up-triangles, MIN
nodes down-triangles, leaves boxes (rounded and yellow when valued at the horizon); each value
as :mod:`viz.notation` writes it (``≥v``/``≤v`` on a bound); the principal path bold, other
optimal moves blue, pruned subtrees grey and dashed. AIMA's node letters stand left of their
nodes; to the right stand the node's notes: its range ``[lo, hi]`` and window ``α β`` (with
``alpha_beta_labels``), its visit order ``#n`` (``order``) and, in red, the cut made there
(``✂ v=2 ≤ α=3``). Notes sit within their node's row, where no edge passes, and the layout
reserves room for them, so no label overlaps an edge or another label.

``exercise=True`` draws the sheet a student fills in: only the leaves' values; with
``alpha_beta_labels`` a blank range and window beside every inner node, each blank at least
12 mm wide; the nodes are large enough to write ``−∞`` in.

``overlays=True`` makes a Beamer figure that steps like the stepper page: every node, edge and
note is wrapped in ``\\only<k-l>`` for the steps it shows what it shows (one overlay per step,
the first before the search), the node just valued filled yellow.

Assumes only plain TikZ: the shapes are drawn as paths and the colours defined inside the
picture, so the body needs nothing but ``\\usepackage{tikz}`` (and Beamer for overlays).

Output: a standalone document (``standalone=True``; a Beamer document with one frame for
overlays), or the ``tikzpicture`` alone to ``\\input`` into a frame or an article. The title,
the summary line and the legend are separate pieces (``title``, ``summary``, ``legend``): a
body for a slide is usually the tree alone.

>>> from games import load_game
>>> from viz import game_tree
>>> body = to_tikz(game_tree(load_game("textbook"), algorithm="alphabeta"), standalone=False)
>>> body.splitlines()[1], body.count("% MIN node")
('\\\\begin{tikzpicture}[x=1cm, y=1cm]', 3)
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import attrs

from solver.output import write_text
from viz.annotations import exercise_task
from viz.build import GameTree
from viz.compact import CompactLayout, Extent, compact_layout
from viz.dot import summary_line
from viz.errors import VizError
from viz.graphviz import PATH_COLOUR
from viz.model import (
    BLANK_RANGE,
    BLANK_WINDOW,
    BOOK_VALUES,
    EdgeLook,
    Figure,
    NodeLook,
    chance_note,
    default_title,
    figure,
)
from viz.palette import CHANCE_FILL, CURRENT, MAX_FILL, MIN_FILL, PRUNED
from viz.tree_node import tree_node, tree_nodes

__all__ = ["frame_leaf_size", "latex_text", "to_tikz", "value_tex", "write_tikz"]

_COLOURS = {
    "maxfill": MAX_FILL.lstrip("#").upper(),
    "chancefill": CHANCE_FILL.lstrip("#").upper(),
    "minfill": MIN_FILL.lstrip("#").upper(),
    "horizonfill": "FFF4CC",
    "current": CURRENT.lstrip("#").upper(),
    "optimal": "1F6FB2",
    "pruned": PRUNED.lstrip("#").upper(),
    "cut": "B03A2E",
    "hits": "7B3FA0",
    "table": "7B3FA0",
    "tablefill": "EFE6F5",
    "oraclefill": "E6F5E6",
    "walked": PATH_COLOUR.lstrip("#").upper(),
}

_HALF_W = 0.42  # half the width of a triangle (cm)
_HALF_H = 0.34  # half the height of every node shape (cm)
_ROW = 1.55  # vertical distance between plies (cm)
_MARGIN = 0.25  # the least room between two things side by side (cm)
_CHAR = 0.15  # the width of a letter or digit at \scriptsize, generously (cm)
_WIDE = 0.24  # the width of a math symbol (α β ∞ − = + ≤ ≥) at \scriptsize, spacing included
_WIDE_CHARS = frozenset("αβ∞−=+≤≥×✂[]#")
_LINE = 0.3  # the height of a line of notes at \scriptsize (cm), generously
_BLANK = 1.4  # the width of an exercise blank (cm): room for a handwritten −∞ (12 mm) on A4

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

_BEAMER = r"""\documentclass[aspectratio=169]{beamer}
\usepackage[T1]{fontenc}
\usepackage{tikz}
\setbeamertemplate{navigation symbols}{}
%MARGINS%\begin{document}
\newsavebox{\gamesolvertree}
\begin{frame}{%TITLE%}
\sbox{\gamesolvertree}{%
%BODY%%
}%
\centering
% as large as the frame allows: its width, or %PERCENT%% of its height, whichever is reached first
\ifnum\numexpr\wd\gamesolvertree*1000/\textwidth\relax
  >\numexpr(\ht\gamesolvertree+\dp\gamesolvertree)*1000/(\textheight*%PERCENT%/100)\relax
  \resizebox{\textwidth}{!}{\usebox{\gamesolvertree}}%
\else
  \resizebox{!}{0.%PERCENT%\textheight}{\usebox{\gamesolvertree}}%
\fi
\end{frame}
\end{document}
"""

_COMPACT_MARGINS = "\\setbeamersize{text margin left=4mm, text margin right=4mm}\n"
"""The compact layout's frame: narrower side margins; the picture takes up to 95% of the text
height, 88% under a frame title (which takes less than the rest)."""

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
    "−": r"$-$",
    "×": r"$\times$",
    "≡": r"$\equiv$",
    "Σ": r"$\Sigma$",
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


_MATH = {"≥": r"{\geq}", "≤": r"{\leq}", "−": "-", "∞": r"\infty", "+": "+"}


def value_tex(text: str) -> str:
    r"""A value as :mod:`viz.notation` writes it (``≤−1``), as LaTeX math: a true minus sign.

    The sign of the bound and the number are groups of their own, so the minus stays unary
    (no space after it).

    >>> value_tex("≤−1"), value_tex("+∞"), value_tex("")
    ('${\\leq}{-1}$', '${+\\infty}$', '')
    """
    if not text:
        return ""
    sign = _MATH[text[0]] if text[0] in "≥≤" else ""
    number = text[1:] if sign else text
    return f"${sign}{{{''.join(_MATH.get(ch, ch) for ch in number)}}}$"


def _blank() -> str:
    return rf"\rule{{{_BLANK:g}cm}}{{0.4pt}}"


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


@attrs.frozen
class _Sizes:
    """The node shapes' half sizes, the distance between rows and the half height of each row's
    band (cm): no edge crosses a band except straight down into its own node, so the notes
    beside a node, which fit in the band, never meet an edge."""

    half_w: float
    half_h: float
    row: float
    band: float = 0.0
    compact: bool = False  # viz.compact's layout: nodes as wide as their values, lists

    def with_notes(self, lines: int) -> _Sizes:
        """Sizes whose bands hold ``lines`` lines of notes, rows pushed apart to make room."""
        band = max(self.half_h, _LINE * lines / 2 + 0.04)
        return attrs.evolve(self, band=band, row=max(self.row, 2 * band + 0.87))


def _notes(fig: Figure, shape: NodeLook, compact: bool = False) -> list[tuple[str, str]]:
    """The notes right of a node, as (plain text, LaTeX) pairs: range, window, order, cuts
    (``compact``: a leaf's order too, which its one-line box has no room for, and not the cuts,
    which the compact layout lists under the tree)."""
    out = []
    if shape.blanks:  # the value too: a triangle of a size that fits the sheet is too narrow
        out.append(("v=" + BLANK_WINDOW[-8:], rf"v={_blank()}"))
        out.append((BLANK_RANGE, rf"[{_blank()}, {_blank()}]"))
        out.append((BLANK_WINDOW, rf"$\alpha$={_blank()} $\beta$={_blank()}"))
    else:
        if shape.range:
            out.append((shape.range, latex_text(shape.range)))
        if shape.window:
            out.append((shape.window, latex_text(shape.window)))
    if shape.order and (compact or not shape.leaf):
        out.append((shape.order, latex_text(shape.order)))
    if shape.table and not shape.answered:  # an engine's table entry that did not settle it
        out.append((shape.table, r"{\color{table}" + latex_text(shape.table) + "}"))
    for edge in () if compact else fig.edges:
        if edge.parent == shape.node and edge.cut and edge.cut_shown and edge.visible:
            out.append(("✂ " + edge.cut, r"{\color{cut}" + latex_text(edge.cut) + "}"))
    return out


def _value_width(text: str) -> float:
    r"""A generous estimate of a value's width at \footnotesize in a Beamer frame (9 pt, cm):
    what a compact node must hold.

    >>> round(_value_width("≤−19"), 2)
    0.82
    """
    return sum(0.25 if ch in _WIDE_CHARS else 0.16 for ch in text)


def _width(text: str) -> float:
    r"""A generous estimate of ``text``'s width at \scriptsize (cm).

    >>> round(_width("α=3 β=+∞"), 2)
    1.74
    """
    return sum(_WIDE if ch in _WIDE_CHARS else _CHAR for ch in text)


def _note_width(fig: Figure, shape: NodeLook, compact: bool = False) -> float:
    """The room the notes right of a node take (cm), blanks at their printed width."""
    widths = [0.0]
    for text, _ in _notes(fig, shape, compact):
        if text in (BLANK_RANGE, BLANK_WINDOW):  # two blanks and what stands between them
            plain = "[, ]" if text == BLANK_RANGE else "α= β="
            widths.append(_width(plain) + 2 * _BLANK + 0.1)
        elif text.startswith("v="):
            widths.append(_width("v=") + _BLANK + 0.1)
        else:
            widths.append(_width(text) + 0.1)
    return max(widths)


def _extent(fig: Figure, shape: NodeLook, sizes: _Sizes) -> tuple[float, float]:
    """How far the node and its name and notes reach left and right of its centre (cm)."""
    half = _half(shape, sizes)
    left = half + (_name_width(shape) if shape.name else 0.0)
    notes = _note_width(fig, shape, sizes.compact)
    return left, half + (0.08 + notes if notes else 0.0)


def _name_width(shape: NodeLook) -> float:
    """The room a node's letter takes beside it (small bold), the gap to the node included."""
    return 0.1 + 0.2 * len(shape.name or "")


def _half(shape: NodeLook, sizes: _Sizes) -> float:
    """Half a node's drawn width (cm): a leaf's box, a summary's, a table's or a triangle."""
    if sizes.compact and not shape.board and not shape.answered:
        if shape.kind == "summary":  # "… n positions" on one line, \tiny (5/7 of \scriptsize)
            return _width(f"…{shape.positions:,} positions") * 5 / 14 + 0.12
        if shape.role == "chance":
            return sizes.half_w
        longest = max(shape.value, shape.reserved, shape.label or "", key=_value_width)
        return max(sizes.half_w, _value_width(longest) / 2 + 0.07)
    if shape.leaf:
        return _leaf_half(shape, sizes)
    if shape.answered:  # the engine's table: wide enough for its flag and depth (\tiny)
        return max(sizes.half_w, 0.065 * len(shape.table) + 0.16)
    return sizes.half_w + (0.1 if shape.kind == "summary" else 0.0)


def _leaf_half(shape: NodeLook, sizes: _Sizes) -> float:
    """Half a leaf box's width: its value or label, a board, or a triangle's width at most."""
    if shape.board or shape.kind == "summary":
        return sizes.half_w
    text = max(len(shape.value), len(shape.label or ""))
    return min(sizes.half_w, max(_HALF_W, 0.09 * text + 0.12))


def _layout(figures: Iterable[Figure], sizes: _Sizes) -> dict[int, tuple[float, float]]:
    """x and y (cm) of every node: a tidy tree whose rows never overlap.

    Each subtree is placed right of its left sibling's as close as its contour allows (at every
    depth, the widest either reaches at any step, names and notes included, plus a margin);
    a parent is centred over its children.
    """
    figures = list(figures)
    fig = figures[-1]
    graph = fig.tree.graph
    reach: dict[int, tuple[float, float]] = {}
    for one in figures:
        for node, shape in one.nodes.items():
            left, right = _extent(one, shape, sizes)
            was = reach.get(node, (0.0, 0.0))
            reach[node] = (max(was[0], left), max(was[1], right))
    offset: dict[int, float] = {}  # x of a child relative to its parent
    contour: dict[int, dict[int, tuple[float, float]]] = {}  # depth -> (leftmost, rightmost)
    old: tuple[float, float] | None
    order: list[int] = []
    stack = [fig.tree.root]
    while stack:
        node = stack.pop()
        order.append(node)
        stack.extend(graph.successors(node))
    for node in reversed(order):
        kids = sorted(graph.successors(node))
        depth = int(tree_node(graph, node).depth)
        own = {depth: (-reach[node][0], reach[node][1])}
        if not kids:
            contour[node] = own
            continue
        merged: dict[int, tuple[float, float]] = {}
        places = []
        for kid in kids:
            shift = 0.0
            for d, (lo, _) in contour[kid].items():
                if d in merged:
                    shift = max(shift, merged[d][1] - lo + _MARGIN)
            if not merged:
                shift = 0.0
            places.append(shift)
            for d, (lo, hi) in contour[kid].items():
                old = merged.get(d)
                merged[d] = (
                    (lo + shift, hi + shift) if old is None else (old[0], max(old[1], hi + shift))
                )
        centre = (places[0] + places[-1]) / 2
        for kid, place in zip(kids, places, strict=True):
            offset[kid] = place - centre
        contour[node] = {d: (lo - centre, hi - centre) for d, (lo, hi) in merged.items()}
        contour[node][depth] = own[depth]
    where: dict[int, tuple[float, float]] = {}
    for node in order:
        parents = list(graph.predecessors(node))
        x = where[parents[0]][0] + offset[node] if parents else 0.0
        where[node] = (x, -sizes.row * int(tree_node(graph, node).depth))
    return where


_POINT = 0.1  # how far a compact MAX node's top (a MIN node's bottom) rises to a point (cm)


def _shape_path(
    shape: NodeLook, x: float, y: float, w: float, h: float, compact: bool = False
) -> str:
    if shape.answered:  # a cylinder, the engine's transposition table
        e = h / 4
        arc = f"x radius={_fmt(w)}, y radius={_fmt(e)}"
        return (
            f"({_fmt(x - w)},{_fmt(y + h - e)}) -- ({_fmt(x - w)},{_fmt(y - h + e)}) "
            f"arc[start angle=180, end angle=360, {arc}] -- ({_fmt(x + w)},{_fmt(y + h - e)}) "
            f"arc[start angle=0, end angle=180, {arc}] -- cycle"
        )
    if shape.kind == "summary" or shape.leaf or shape.board:
        corners = [(x - w, y - h), (x + w, y - h), (x + w, y + h), (x - w, y + h)]
    elif shape.role == "chance":  # a circle, as AIMA draws chance nodes
        return f"({_fmt(x)},{_fmt(y)}) circle ({_fmt(min(w, h) * 1.1)})"
    elif compact:  # a box as wide as the value, pointed up for MAX, down for MIN
        p = _POINT if shape.player == 0 else -_POINT
        top, bottom = (y + h, y - h) if shape.player == 0 else (y - h, y + h)
        corners = [(x - w, bottom), (x + w, bottom), (x + w, top - p), (x, top), (x - w, top - p)]
    elif shape.player == 0:
        corners = [(x - w, y - h), (x + w, y - h), (x, y + h)]
    else:
        corners = [(x - w, y + h), (x + w, y + h), (x, y - h)]
    return " -- ".join(f"({_fmt(a)},{_fmt(b)})" for a, b in corners) + " -- cycle"


def _node_commands(
    fig: Figure,
    shape: NodeLook,
    at: tuple[float, float],
    sizes: _Sizes,
    placed: CompactLayout | None = None,
) -> list[str]:
    """The commands that draw one node at this step (none while it is not reached)."""
    if not shape.visible:
        return []
    x, y = at
    kind, leaf, player = shape.kind, shape.leaf, shape.player
    half_w = _half(shape, sizes) - (0.1 if kind == "summary" else 0.0)
    path = _shape_path(
        shape, x, y, half_w + (0.1 if kind == "summary" else 0.0), sizes.half_h, sizes.compact
    )
    rounded = ", rounded corners=3pt" if leaf in ("horizon", "oracle") or kind == "summary" else ""
    here = f"({_fmt(x)},{_fmt(y)})"
    out = []
    if kind == "summary":
        out.append(rf"\draw[densely dotted, draw=black!60{rounded}] {path};")
        words = "~" if sizes.compact else r"\\"  # one line in the compact layout's low rows
        out.append(
            rf"\node[font=\tiny, text=black!70, align=center, inner sep=0pt] at {here} "
            rf"{{\ldots{{}}{shape.positions:,}{words}positions}};"
        )
        return out
    value = value_tex(shape.value)
    if kind == "pruned":
        out.append(rf"\draw[dashed, draw=pruned{rounded}] {path};")
        if value:  # a pruned subtree with its values revealed
            out.append(rf"\node[font=\footnotesize, text=pruned] at {here} {{{value}}};")
    else:
        fill = (
            {"horizon": "horizonfill", "oracle": "oraclefill"}.get(leaf, "white")
            if leaf
            else ("maxfill", "minfill")[player]
        )
        if shape.role == "chance":
            fill = "chancefill"
        if shape.answered:
            fill = "tablefill"
        if shape.current:
            fill = "current"
        pen = "very thick" if shape.principal else "thin"
        colour = "optimal" if shape.optimal and not shape.principal else "black"
        if colour == "optimal":
            pen = "thick"
        if shape.answered:
            colour = "table"
        dashes = ", dashed" if shape.probe else ""  # Star2's probe: its first move only
        out.append(rf"\filldraw[fill={fill}, draw={colour}, {pen}{rounded}{dashes}] {path};")
        if shape.answered:  # the front of the cylinder's lid
            e = sizes.half_h / 4
            out.append(
                rf"\draw[draw=table, {pen}] ({_fmt(x - half_w)},{_fmt(y + sizes.half_h - e)}) "
                f"arc[start angle=180, end angle=360, x radius={_fmt(half_w)}, "
                f"y radius={_fmt(e)}];"
            )
        out += _value_commands(shape, x, y, half_w, sizes.compact)
    return out + _beside_commands(fig, shape, (x, y), half_w, sizes, placed)


def _beside_commands(
    fig: Figure,
    shape: NodeLook,
    at: tuple[float, float],
    half_w: float,
    sizes: _Sizes,
    placed: CompactLayout | None,
) -> list[str]:
    """A node's letter (left of it; right of it in a list) and its notes (right of it; right
    of its list for the parent of one)."""
    x, y = at
    out: list[str] = []
    listed = placed is not None and shape.node in placed.listed
    if shape.name and listed:  # right of it: on its left runs the line in from its parent
        out.append(
            rf"\node[font=\small\bfseries, anchor=west] at ({_fmt(x + half_w + 0.05)},{_fmt(y)}) "
            f"{{{latex_text(shape.name)}}};"
        )
    elif shape.name:
        out.append(
            rf"\node[font=\small\bfseries, anchor=east] at ({_fmt(x - half_w - 0.05)},{_fmt(y)}) "
            f"{{{latex_text(shape.name)}}};"
        )
    notes = [tex for _, tex in _notes(fig, shape, sizes.compact)]
    if notes:
        nx, ny = x + half_w + 0.08, y
        if placed is not None and shape.node in placed.notes:  # right of its list, from the top
            nx, top = placed.notes[shape.node]
            ny = top - _LINE * len(notes) / 2
        elif listed:
            nx += _name_width(shape) if shape.name else 0.0
        out.append(
            rf"\node[font=\scriptsize, anchor=west, align=left, inner sep=0pt, text=black!75] "
            rf"at ({_fmt(nx)},{_fmt(ny)}) {{"
            + r"\\{}".join(notes)
            + "};"  # {}: a [ opening a line is text
        )
    return out


def _value_commands(
    shape: NodeLook, x: float, y: float, half_w: float, compact: bool = False
) -> list[str]:
    """The texts inside a drawn node: value (or leaf label and value), hits, order, board."""
    leaf, player, value = shape.leaf, shape.player, value_tex(shape.value)
    # one line per fact, each in a group of its own: TikZ breaks lines (\\) only outside groups
    lines = []
    if shape.board and not leaf:
        lines.append(
            (r"$\triangle$ ", r"$\bigtriangledown$ ")[player] + rf"{{\bfseries\boldmath {value}}}"
        )
    elif shape.label:
        lines.append(rf"{{\bfseries {latex_text(shape.label)}}}")
        if value:
            lines.append(rf"{{\scriptsize {value}}}")
    elif value:
        lines.append(rf"{{\bfseries\boldmath {value}}}")
    if shape.answered:  # the table entry's flag and depth
        lines.append(rf"{{\tiny\color{{table}}{latex_text(shape.table)}}}")
    if shape.hits > 1:
        lines.append(rf"{{\scriptsize\color{{hits}}$\times${shape.hits}}}")
    if shape.order and leaf and not compact:  # the compact box holds one line: a note
        lines.append(rf"{{\tiny {latex_text(shape.order)}}}")
    if shape.board:
        lines.append(_board_text(shape.board))
    if not lines:
        return []
    # a triangle's text sits low in an up-triangle and high in a down-triangle, where it is wide
    shift = 0.0 if leaf or shape.board else (-0.09 if player == 0 else 0.09)
    if shape.answered:  # below the cylinder's lid
        shift = -0.06
    if compact and not leaf and not shape.board:  # in the box, below or above the point
        shift = -_POINT / 2 if player == 0 else _POINT / 2
    if shape.role == "chance":
        shift = 0.0
    small = not leaf and len(shape.value) > 2 and half_w < 0.6 and not compact
    size = r"\scriptsize" if small else r"\footnotesize"
    return [
        rf"\node[font={size}, align=center, inner sep=0pt] at ({_fmt(x)},{_fmt(y + shift)}) "
        "{" + r"\\".join(lines) + "};"
    ]


def _edge_commands(
    edge: EdgeLook,
    u: tuple[float, float],
    v: tuple[float, float],
    sizes: _Sizes,
    route: list[tuple[float, float]] | None = None,
) -> list[str]:
    """The commands that draw one move at this step (none while it is not reached); ``route``:
    the points of a move into a listed child (down its parent's spine, then in along a stub)."""
    if not edge.visible:
        return []
    half_h, band = sizes.half_h, max(sizes.band, sizes.half_h)
    start = f"({_fmt(u[0])},{_fmt(u[1] - half_h)})"
    end = f"({_fmt(v[0])},{_fmt(v[1] + half_h)})"
    at_label, at_cut = 0.45, 0.8
    if route is not None:
        start = " -- ".join(f"({_fmt(a)},{_fmt(b)})" for a, b in route[:-1])
        end = f"({_fmt(route[-1][0])},{_fmt(route[-1][1])})"
        length = route[-1][0] - route[-2][0]  # the stub, its label near the spine
        at_label = min(0.5, (0.01 + _width(_move_text(edge)) / 2 + 0.035) / length)
    elif band > half_h:  # straight out of the parent's band and into the child's
        start += f" -- ({_fmt(u[0])},{_fmt(u[1] - band)})"
        end = f"({_fmt(v[0])},{_fmt(v[1] + band)}) -- " + end
    move = latex_text(edge.move)
    if edge.folded:
        move += r" $\equiv$ " + latex_text(", ".join(edge.folded))
    if edge.probability:
        move += r", $p=" + latex_text(edge.probability) + "$"
    if edge.pruned:
        style, label_style = "dashed, draw=pruned", "text=pruned"
    elif edge.path:  # the path this step walks (an MCTS selection or back-up)
        style, label_style = "very thick, draw=walked", "text=walked"
    elif edge.summary:
        style, label_style = "densely dotted, draw=black!60", "text=black!70"
    elif edge.principal:
        style, label_style = "very thick", ""
    elif edge.optimal:
        style, label_style = "thick, draw=optimal", "text=optimal"
    else:
        style, label_style = "thin", ""
    label = ""
    if move:
        label = (
            rf" node[pos={_fmt(at_label)}, fill=white, inner sep=1pt, font=\scriptsize, "
            rf"{label_style}] "
            f"{{{move}}}"
        )
    cross = r"text=cut, font=\scriptsize, inner sep=0pt] {$\times$}"
    if edge.cut and edge.cut_shown and route is not None:
        # on the spine just above the stub: the part of the spine only pruned moves take
        down = route[0][1] - route[1][1]
        start = start.replace(" -- ", f" -- node[pos={_fmt(1 - 0.16 / down)}, {cross} ", 1)
    elif edge.cut and edge.cut_shown:  # the cut's mark on the first pruned move
        label += f" node[pos={_fmt(at_cut)}, {cross}"
    return [rf"\draw[{style}] {start} --{label} {end};"]


def _move_text(edge: EdgeLook) -> str:
    """A move's label as plain text: the move, the moves folded into it, its chance."""
    text = edge.move + (" ≡ " + ", ".join(edge.folded) if edge.folded else "")
    return text + (", p=" + edge.probability if edge.probability else "")


def _legend_items(fig: Figure) -> list[str]:
    """The legend of a teaching search's tree (the engine's is ``_ENGINE_LEGEND``)."""
    tree = fig.tree
    facts = tree.graph.graph
    items = [
        r"$\triangle$ MAX takes the largest value",
        r"$\bigtriangledown$ MIN the smallest",
    ]
    if fig.book_values:
        items.append(latex_text(BOOK_VALUES))
    elif not fig.exercise:
        items.append(r"$\geq v$ / $\leq v$: a bound (alpha-beta stopped early)")
    if not fig.exercise:  # the rest are answers
        items += [
            r"\textbf{bold}: principal variation",
            r"{\color{optimal}blue}: a best move",
        ]
    if fig.labels and not fig.exercise:
        items.append(r"$[lo, hi]$: where the value lies so far; $\alpha\ \beta$: the window")
    if chance_note(fig):
        items.append(latex_text(chance_note(fig)))
    if fig.order:
        items.append(r"\#$n$: the $n$-th node the search entered")
    if tree.pruned and not fig.exercise:
        items.append(
            r"{\color{pruned}dashed}: pruned, never visited ({\color{cut}$\times$ the cut})"
        )
    if facts.get("transpositions"):
        items.append(r"{\color{hits}$\times n$}: position reached $n$ times")
    if not fig.final:
        items.append(r"{\color{current}$\blacksquare$} the node just valued")
    if not fig.final and facts["algorithm"] == "mcts":
        items.append(r"{\color{walked}\textbf{---}} the path this step walks")
    return items


def _caption(
    fig: Figure,
    title: str | None,
    summary: bool,
    legend: bool,
    where: tuple[float, float, float],
    compact: bool = False,
) -> str:
    bottom, left, width = where
    tree = fig.tree
    facts = tree.graph.graph
    rows = []
    cuts = [
        rf"\textbf{{{latex_text(fig.nodes[e.parent].name or fig.nodes[e.parent].title)}}} "
        + latex_text(e.cut)
        for e in fig.edges
        if e.cut and e.cut_shown and e.visible
    ]
    if compact and cuts:  # the compact layout has no room for them beside their nodes
        rows.append(r"{\scriptsize{\color{cut}$\times$ cuts:} " + "; ".join(cuts) + "}")
    name = default_title(tree, fig.view, fig.style) if title is None else title
    if name:
        rows.append(r"\textbf{" + latex_text(("Exercise: " if fig.exercise else "") + name) + "}")
    if summary:
        rows.append(
            latex_text(
                exercise_task(facts["algorithm"], windows=fig.labels)
                if fig.exercise
                else summary_line(tree)
            )
        )
    if legend and facts["algorithm"] == "engine":
        rows.append(r"{\scriptsize " + "; ".join(_ENGINE_LEGEND) + "}")
    elif legend:
        rows.append(r"{\scriptsize " + "; ".join(_legend_items(fig)) + "}")
    if not rows:
        return ""
    return (
        rf"\node[anchor=north west, align=left, font=\footnotesize, inner sep=0pt, "
        rf"text width={_fmt(width)}cm] at ({_fmt(left)},{_fmt(bottom)}) "
        "{" + r"\\ ".join(rows) + "};"
    )


_ENGINE_LEGEND = (
    r"$\triangle$ MAX, $\bigtriangledown$ MIN, box: end of the game (yellow: the horizon)",
    r"{\color{table}cylinder}: answered by the table, $=v$ EXACT, $\geq v$ LOWER, "
    r"$\leq v$ UPPER, d the depth stored",
    r"$\geq v$ / $\leq v$ on a node: the engine stored a bound",
    r"$(\alpha, \beta)$: the window on entry; probe $v$: a null window",
    r"\#$k$: order of entry",
    r"\textbf{bold}: principal variation",
    r"{\color{pruned}dashed}: cut off ({\color{cut}$\times$ the cut})",
)
"""The legend of an engine's tree, as its Graphviz picture words it."""


def _spans(steps: list[list[str]]) -> list[tuple[int, int, list[str]]]:
    """Runs of equal commands over the steps: (first step, last step, commands)."""
    out: list[tuple[int, int, list[str]]] = []
    for index, commands in enumerate(steps):
        if out and out[-1][2] == commands:
            out[-1] = (out[-1][0], index, commands)
        else:
            out.append((index, index, commands))
    return out


_FRAME_CM = 8.87  # a 16:9 Beamer frame's text height (252 pt); its width 14 cm, 15.2 compact


def frame_leaf_size(
    tree: GameTree, *, compact: bool = False, alpha_beta_labels: bool = False
) -> float:
    """About how large (pt) a leaf's value comes out when the finished tree is fitted to a 16:9
    Beamer frame as :func:`to_tikz` makes it, from the layout's estimated extent (the caption
    under the tree not counted: the frame's own measure is somewhat smaller).

    >>> from games import load_game
    >>> from viz import game_tree
    >>> tree = game_tree(load_game("textbook"), algorithm="alphabeta")
    >>> frame_leaf_size(tree) >= 8
    True
    """
    fig = figure(tree, alpha_beta_labels=alpha_beta_labels)
    lines = max(len(_notes(fig, s, compact)) for s in fig.nodes.values())
    placed = None
    if compact:
        sizes = _compact_sizes(lines)
        placed = _compact_place([fig], sizes)
        where = placed.where
    else:
        sizes = _sizes(fig, False, False).with_notes(lines)
        where = _layout([fig], sizes)
    xs, ys = [], []
    for node, (x, y) in where.items():
        shape = fig.nodes[node]
        half = _half(shape, sizes)
        name = _name_width(shape) if shape.name else 0.0
        xs += [x - half - name, x + half + name + _note_width(fig, shape, compact)]
        if placed is not None and node in placed.notes:
            xs.append(placed.notes[node][0] + _note_width(fig, shape, compact))
        ys += [y - sizes.band, y + sizes.band]
    width, share = (15.2, 0.88) if compact else (14.0, 0.8)
    scale = min(width / (max(xs) - min(xs)), share * _FRAME_CM / (max(ys) - min(ys)))
    return 9 * scale  # \footnotesize in a Beamer frame


def to_tikz(
    tree: GameTree,
    *,
    standalone: bool = True,
    boards: bool = False,
    title: str | None = None,
    legend: bool = True,
    caption: bool = True,
    summary: bool = True,
    exercise: bool = False,
    alpha_beta_labels: bool = False,
    order: bool = False,
    view: str = "minimax",
    overlays: bool = False,
    style: str = "default",
    compact: bool = False,
) -> str:
    r"""The figure as TikZ: a standalone LaTeX document, or the ``tikzpicture`` alone.

    Args:
        tree: from :func:`viz.game_tree`.
        standalone: a whole document whose page is cropped to the picture (``pdflatex tree.tex``;
            with ``overlays`` or ``compact`` a 16:9 Beamer document of one frame); False gives
            the ``tikzpicture``
            environment only, to ``\input`` into Beamer or an article.
        boards: write each position's ``render`` text inside its node.
        title: the caption's first line (None: algorithm, game, position, depth; ``""``: none).
        legend: add the key to the symbols under the tree.
        caption: False draws the tree alone (no title, summary or legend).
        summary: write the summary line (value, best move, nodes searched) under the title.
        exercise: the sheet for students: leaves' values only; with ``alpha_beta_labels``
            blanks for each inner node's range and window.
        alpha_beta_labels: write each inner node's range ``[lo, hi]`` and window on entry.
        order: number the nodes in the order the search entered them.
        view: ``"minimax"`` or ``"negamax"`` (values from the mover's side).
        overlays: one Beamer overlay per step of the search (``\only<k-l>``), as the stepper.
        style: ``"aima"`` for the book's titles and values (:data:`viz.model.STYLES`).
        compact: the lecture hall's layout (:mod:`viz.compact`): the two lowest plies listed
            down under their parents, nodes as wide as their values, the cuts' reasons listed
            under the tree; a depth-4, branching-3 tree fits a 16:9 frame with its leaves'
            values at 8 pt or more.

    Raises:
        CapabilityError: ``boards=True`` for a game without ``render``.
        VizError: ``exercise=True`` and a leaf was pruned without a value (build the tree with
            ``pruned="values"``), or an unknown ``view``.

    >>> from games import load_game
    >>> from viz import game_tree
    >>> source = to_tikz(game_tree(load_game("textbook")))
    >>> source.startswith("\\documentclass"), source.count("% MAX node")
    (True, 1)
    """
    if compact and tree.graph.graph["algorithm"] in ("engine", "mcts"):
        raise VizError(
            f"compact=True draws the teaching searches' trees; {tree.graph.graph['algorithm']}'s "
            "nodes hold several lines each, which its low rows have no room for"
        )
    if boards and compact:
        raise VizError(
            "compact=True lists nodes in low rows, where boards do not fit: draw the boards "
            "without compact, or compact without boards"
        )
    if boards and not tree.has_boards:
        from solver.game import CapabilityError

        raise CapabilityError(
            f"game {tree.graph.graph['game']!r} has no render() to draw boards in the nodes; "
            "draw it without boards"
        )
    looks: dict[str, Any] = {
        "view": view,
        "exercise": exercise,
        "alpha_beta_labels": alpha_beta_labels,
        "order": order,
        "boards": boards,
        "style": style,
    }
    steps = list(range(len(tree.steps) + 1)) if overlays and not exercise else [None]
    frame_title = ""  # a stepping frame has none; the compact slide the figure's title
    if compact and standalone and not overlays:
        frame_title = default_title(tree, view, style) if title is None else title
    if (overlays or compact) and standalone:
        title, summary = "", False  # the frame's title says it; the summary line is the end
    figures = [figure(tree, step=step, **looks) for step in steps]
    final = figures[-1]
    lines_of_notes = max(len(_notes(f, s, compact)) for f in figures for s in f.nodes.values())
    placed = None
    if compact:
        sizes = _compact_sizes(lines_of_notes)
        placed = _compact_place(figures, sizes)
        where = placed.where
    else:
        sizes = _sizes(final, boards, exercise).with_notes(lines_of_notes)
        where = _layout(figures, sizes)
    lines = [r"\begin{tikzpicture}[x=1cm, y=1cm]"]
    lines += [rf"\definecolor{{{name}}}{{HTML}}{{{hex_}}}" for name, hex_ in _COLOURS.items()]
    lines.append("% edges first, so that the nodes cover their ends")
    for index, edge in enumerate(final.edges):
        route = _route(final, placed, edge, sizes)
        per_step = [
            _edge_commands(fig.edges[index], where[edge.parent], where[edge.child], sizes, route)
            for fig in figures
        ]
        lines += _overlaid(per_step, len(figures))
    for node in final.nodes:
        per_step = [
            _node_commands(fig, fig.nodes[node], where[node], sizes, placed) for fig in figures
        ]
        shape = final.nodes[node]
        lines.append(
            f"% {'leaf' if shape.leaf else ('MAX', 'MIN')[shape.player]} node {node}"
            + (f" ({shape.name})" if shape.name else "")
        )
        lines += _overlaid(per_step, len(figures))
    if caption:
        bottom = min(y for _, y in where.values()) - sizes.band - 0.35
        left = min(x for x, _ in where.values()) - sizes.half_w - 0.4  # room for a node letter
        width = max(max(x for x, _ in where.values()) + sizes.half_w - left, 9.0)
        if placed is not None:  # below the lowest list
            bottom = min(y - 0.25 for _, y in where.values()) - 0.15
            right = max(x + 0.6 for x, _ in where.values())
            width = max(right - left, 9.0)
        per_step = [
            [_caption(fig, title, summary, legend, (bottom, left, width), compact)]
            for fig in figures
        ]
        lines += _overlaid([[c for c in cs if c] for cs in per_step], len(figures))
        if len(figures) > 1:  # every step's caption, unseen: the picture is one size throughout
            shown = dict.fromkeys(c for cs in per_step for c in cs if c)
            lines += [c.replace(r"\node[", r"\node[opacity=0, ", 1) for c in shown]
    if len(figures) > 1:  # and room for what the last steps draw, from the first step on
        lines.append(_reach(figures, where, sizes, placed))
    lines.append(r"\end{tikzpicture}")
    body = "\n".join(lines) + "\n"
    if not standalone:
        needs = "\\usepackage{tikz} (in a Beamer frame)" if overlays else "\\usepackage{tikz}"
        return f"% gamesolver tree: \\input this where the preamble has {needs}\n" + body
    if overlays or compact:  # the frame's title is the figure's; the picture keeps its legend
        name = frame_title
        margins, percent = (_COMPACT_MARGINS, "88" if name else "95") if compact else ("", "80")
        return (
            _BEAMER.replace("%MARGINS%", margins)
            .replace("%PERCENT%", percent)
            .replace("%TITLE%", latex_text(name))
            .replace("%BODY%", body.rstrip("\n"))
        )
    return _STANDALONE.replace("%BODY%\n", body)


def _reach(
    figures: list[Figure],
    where: dict[int, tuple[float, float]],
    sizes: _Sizes,
    placed: CompactLayout | None,
) -> str:
    """An unseen rectangle around everything any step draws (names and notes at their
    estimated widths), so that a Beamer frame scales every overlay alike."""
    xs, ys = [], []
    for node, (x, y) in where.items():
        for fig in figures:
            shape = fig.nodes[node]
            half = _half(shape, sizes)
            name = _name_width(shape) + 0.25 if shape.name else 0.0  # and TikZ's inner sep
            notes = _note_width(fig, shape, sizes.compact)
            xs += [x - half - name - 0.15, x + half + name + notes + 0.25]
            if placed is not None and node in placed.notes:
                xs.append(placed.notes[node][0] + notes + 0.25)
        ys += [y - sizes.band - 0.15, y + sizes.band + 0.15]  # and a very thick line
    return f"\\path ({_fmt(min(xs))},{_fmt(min(ys))}) rectangle ({_fmt(max(xs))},{_fmt(max(ys))});"


def _overlaid(per_step: list[list[str]], count: int) -> list[str]:
    """One step's commands as they are, or each run of steps wrapped in ``\\only<a-b>``."""
    if count == 1:
        return per_step[0]
    out = []
    for first, last, commands in _spans(per_step):
        if not commands:
            continue
        if first == 0 and last == count - 1:
            out += commands
            continue
        slides = f"{first + 1}-{last + 1}" if last > first else f"{first + 1}"
        if last == count - 1:
            slides = f"{first + 1}-"
        out.append(rf"\only<{slides}>{{" + " ".join(commands) + "}")
    return out


def _compact_sizes(lines_of_notes: int) -> _Sizes:
    """The compact layout's sizes: low boxes, and tidy plies just far enough apart for the
    notes beside their nodes and a move's label on the edges between them."""
    band = max(0.25, _LINE * lines_of_notes / 2 + 0.04)  # edges leave a node straight down,
    return _Sizes(0.3, 0.17, max(2 * band + 0.28, 0.78), band, compact=True)  # below its letter


def _compact_place(figures: list[Figure], sizes: _Sizes) -> CompactLayout:
    """:func:`viz.compact.compact_layout` for the figures: each node as large as it is drawn
    at any step, with its name and notes."""
    final = figures[-1]
    graph = final.tree.graph
    extents: dict[int, Extent] = {}
    for node in graph:
        shapes = [fig.nodes[node] for fig in figures]
        half_w = max(_half(s, sizes) for s in shapes)
        notes = max(_note_width(fig, fig.nodes[node], True) for fig in figures)
        lines = max(len(_notes(fig, fig.nodes[node], True)) for fig in figures)
        name = _name_width(shapes[-1]) if shapes[-1].name else 0.0
        beside = 0.08 + notes if notes else 0.0
        extents[node] = Extent(
            half_w=half_w,
            half_h=sizes.half_h * (1.1 if shapes[-1].role == "chance" else 1.0),
            left=name,
            right=beside,
            listed=name + (beside if not graph[node] else 0.0),
            notes_w=notes,
            notes_h=_LINE * lines,
            band=_LINE * lines / 2,
        )
    labels: dict[int, float] = {}  # the widest label of a move out of each node
    for fig in figures:
        for edge in fig.edges:
            width = _width(_move_text(edge)) + 0.1
            labels[edge.parent] = max(labels.get(edge.parent, 0.0), width)
    return compact_layout(
        {n: sorted(graph.successors(n)) for n in graph},
        {n: int(tree_node(graph, n).depth) for n in graph},
        final.tree.root,
        extents.__getitem__,
        row=sizes.row,
        stub=lambda node: max(labels.get(node, 0.0), 0.25),
    )


def _route(
    fig: Figure, placed: CompactLayout | None, edge: EdgeLook, sizes: _Sizes
) -> list[tuple[float, float]] | None:
    """The points of a move into a listed child: from its parent's lower edge down the
    spine, then along a stub to the child's left side (None: a move between tidy plies)."""
    if placed is None or edge.child not in placed.listed:
        return None
    parent, child = fig.nodes[edge.parent], fig.nodes[edge.child]
    (px, py), (cx, cy) = placed.where[edge.parent], placed.where[edge.child]
    line = placed.spine[edge.parent]
    w, h = _half(parent, sizes), sizes.half_h
    if parent.role == "chance":
        r = min(w, h) * 1.1
        low = py - (max(r * r - (line - px) ** 2, 0.0)) ** 0.5
    elif parent.player == 1 and not parent.leaf and parent.kind != "summary":
        low = py - h + _POINT * abs(line - px) / w  # along a MIN node's pointed bottom
    else:
        low = py - h
    kw = _half(child, sizes)
    if child.role == "chance":
        kw = min(kw, h) * 1.1
    return [(line, low), (line, cy), (cx - kw, cy)]


def _sizes(fig: Figure, boards: bool, exercise: bool) -> _Sizes:
    """Node sizes: triangles wide enough for the longest value (or a handwritten −∞), boxes as
    large as the largest board."""
    graph = fig.tree.graph
    if boards and fig.tree.has_boards:  # typewriter \scriptsize: ~0.13 cm a char
        shown = [_board_rows(d.board) for _, d in tree_nodes(graph) if d.board]
        chars = max((len(r) for rows in shown for r in rows), default=10)
        count = max((len(rows) for rows in shown), default=3)
        half_w = max(0.8, 0.066 * chars + 0.15)
        half_h = max(0.72, 0.15 * (count + 2) + 0.05)
        return _Sizes(half_w, half_h, 2 * half_h + 0.9)
    if exercise and not fig.labels:  # the value is written by hand in the triangle: 12 mm wide
        return _Sizes(1.25, 0.55, 2.0)  # at mid-height, where it is written
    longest = max((len(s.value) for s in fig.nodes.values() if not s.leaf), default=0)
    half_w = _HALF_W if longest <= 2 else max(_HALF_W, 0.16 * longest + 0.08)
    return _Sizes(half_w, _HALF_H if half_w == _HALF_W else _HALF_H + 0.06, _ROW)


def write_tikz(
    tree: GameTree, path: str | os.PathLike[str], *, overwrite: bool = True, **options: Any
) -> Path:
    """Write :func:`to_tikz` to ``path`` and return the path (options as there).

    The file is written atomically; ``overwrite=False`` refuses to replace an existing one.

    Raises:
        OutputError: the path cannot be written, or exists and ``overwrite`` is False.
    """
    return write_text(path, to_tikz(tree, **options), overwrite=overwrite)
