"""One laid-out SVG for every frame of backward induction, and what each frame changes in it.

Graphviz lays the finished diagram out once (so nodes never move between frames); the value,
range and window texts are found by their marker colours (:data:`viz.dot.VALUE_MARK`,
:data:`viz.dot.RANGE_MARK`, :data:`viz.dot.WINDOW_MARK`), the last two centred on their node.
:func:`frame_changes` says, node by node, at which frames the node appears and its value,
[lo, hi] range and window texts change (an MCTS node's window: its exact value and what is
proven so far), read from the drawing model (:func:`viz.model.figure` at each step): the
stepper page's script and :func:`frame_svg` (static frames) both apply these changes, so one
rule says what a frame shows.
"""

from __future__ import annotations

import re
from html import escape
from typing import Any

from viz.build import GameTree
from viz.dot import readable_dot
from viz.graphviz import PATH_COLOUR, RANGE_MARK, VALUE_MARK, WINDOW_MARK, pipe
from viz.model import figure
from viz.palette import CURRENT

__all__ = [
    "Change",
    "current_nodes",
    "frame_changes",
    "frame_paths",
    "frame_svg",
    "stepper_svg",
    "tag_values",
]

Change = tuple[int, bool, str, str, str]
"""(frame, visible, value text, range text, window text): a node's look from that frame on
(an MCTS node writes its W/N, UCB terms and exact value in these three texts)."""

_GROUP = re.compile(r'<g id="(n\d+|e\d+_\d+)" class="([^"]*)">(.*?)</g>', re.DOTALL)
_TEXT = re.compile(r"<text ([^>]*)>([^<]*)</text>")
_SHAPE = re.compile(r"<(polygon|path|ellipse) ")
"""A node's first drawn shape: its outline (or, for a table node, its filled background)."""
_COORDS = re.compile(r'\s(?:points|d)="([^"]*)"')
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def stepper_svg(tree: GameTree, **looks: Any) -> str:
    """The finished diagram's SVG with its value and range texts tagged for the frames
    (:func:`tag_values`; a value text is either blank or its final text, which the layout made
    room for), and the frames' style sheet.

    ``looks`` are :func:`viz.dot.to_dot` options (boards, alpha_beta_labels, order, view, title).
    """
    svg = pipe(readable_dot(tree, marks=True, **looks), "svg").decode()
    return re.sub(
        r"(<svg\b[^>]*>)",
        lambda m: m.group(1) + f"\n<style>{STYLE}</style>",
        tag_values(svg),
        count=1,
    )


def tag_values(svg: str) -> str:
    """Tag a drawing's value and range texts, found by their marker colours, for a page.

    Each node's value text gets ``data-v="<node>"``, its range text ``data-r="<node>"`` and its
    window text ``data-w="<node>"`` (an MCTS node's exact value, and what is proven so far), the
    range and window centred on the node (``text-anchor="middle"``): their widths change from
    frame to frame. Its first shape (the outline, or a table node's background) gets the class
    ``outline``, which the style sheet fills for the ``current`` node, however deep Graphviz
    nests it (a node with a tooltip sits inside ``<g><a>``).
    """

    def tag(match: re.Match[str]) -> str:
        ident, classes, body = match.groups()
        if not ident.startswith("n"):
            return match.group(0)
        node = ident[1:]
        centre = _centre(body)

        def retag(text: re.Match[str]) -> str:
            attributes, content = text.groups()
            role = None
            if f'fill="{VALUE_MARK}"' in attributes:
                role = "v"
            elif f'fill="{RANGE_MARK}"' in attributes:
                role = "r"
            elif f'fill="{WINDOW_MARK}"' in attributes:
                role = "w"
            if role is None:
                return text.group(0)
            if role in "rw" and centre is not None:  # these change width: keep them centred
                attributes = re.sub(r'text-anchor="\w+"', 'text-anchor="middle"', attributes)
                attributes = re.sub(r' x="[^"]*"', f' x="{centre:.2f}"', attributes)
            return f'<text data-{role}="{node}" {attributes}>{content}</text>'

        body = _SHAPE.sub(r'<\1 class="outline" ', body, count=1)
        return f'<g id="{ident}" class="{classes}">{_TEXT.sub(retag, body)}</g>'

    return _GROUP.sub(tag, svg)


STYLE = """
.unreached { visibility: hidden; }
g.node.current .outline { fill: CURRENT; }
g.edge.path path { stroke: PATH; stroke-width: 3.2px; }
g.edge.path polygon { stroke: PATH; fill: PATH; }
svg:not(.stepping) g.edge.principal path, svg:not(.stepping) g.edge.principal polygon {
  stroke-width: 3.2px; }
svg:not(.stepping) g.edge.optimal path { stroke: #1f6fb2; stroke-width: 2.2px; }
svg:not(.stepping) g.edge.optimal polygon { stroke: #1f6fb2; fill: #1f6fb2; }
svg:not(.stepping) g.edge.optimal text { fill: #1f6fb2; }
svg:not(.stepping) g.node.principal [stroke]:not([stroke="transparent"]) {
  stroke: black; stroke-width: 3px; }
svg:not(.stepping) g.node.optimal:not(.principal) [stroke]:not([stroke="transparent"]) {
  stroke: #1f6fb2; stroke-width: 2px; }
""".replace("CURRENT", CURRENT).replace("PATH", PATH_COLOUR)
"""The stepper SVG's own style sheet: frames toggle classes (``stepping`` on the ``svg``,
``unreached`` and ``current`` on nodes and edges, ``path`` on the moves a step walks) and these
rules do the rest, in the page and in static frames alike. The best moves and the principal path
are drawn only at the end."""


def _centre(body: str) -> float | None:
    """The x centre of a node's first drawn shape (its outline)."""
    match = _COORDS.search(body)
    if not match:
        return None
    numbers = [float(n) for n in _NUMBER.findall(match.group(1))]
    xs = numbers[0::2]
    return (min(xs) + max(xs)) / 2 if xs else None


def frame_changes(
    tree: GameTree, *, view: str = "minimax", style: str = "default"
) -> dict[int, list[Change]]:
    """For each node, the frames at which its visibility, value or range text changes.

    The first change is at frame 0; a node's look at frame ``k`` is its last change at or
    before ``k``. The last frame (``len(tree.steps)``) is the finished diagram.
    """
    figures = [
        figure(tree, step=k, view=view, alpha_beta_labels=True, style=style)
        for k in range(len(tree.steps) + 1)
    ]
    out: dict[int, list[Change]] = {}
    for node in tree.graph.nodes:
        changes: list[Change] = []
        for index, fig in enumerate(figures):
            shape = fig.nodes[node]
            look = (
                index,
                shape.visible,
                shape.value if shape.kind == "node" else "",
                shape.range,
                shape.window,
            )
            if not changes or changes[-1][1:] != look[1:]:
                changes.append(look)
        out[node] = changes
    return out


def current_nodes(tree: GameTree) -> list[int | None]:
    """The node highlighted at each frame (None before the search and at the end)."""
    last = len(tree.steps)
    return [None] + [s.node for s in tree.steps[:-1]] + [None] if last else [None]


def frame_paths(tree: GameTree) -> list[list[tuple[int, int]]]:
    """The moves (parent, child) on the path each frame's step walks, read from the drawing
    model (an MCTS selection or back-up; none before the search and at the end)."""
    return [
        [(e.parent, e.child) for e in figure(tree, step=k).edges if e.path]
        for k in range(len(tree.steps) + 1)
    ]


def frame_svg(
    svg: str,
    changes: dict[int, list[Change]],
    frame: int,
    current: int | None,
    path: list[tuple[int, int]] | None = None,
) -> str:
    """The stepper SVG as frame ``frame`` shows it: a static picture of that frame (``path``:
    the moves its step walks, :func:`frame_paths`)."""
    looks = {n: next(c for c in reversed(cs) if c[0] <= frame) for n, cs in changes.items()}
    final = all(c[-1][0] <= frame for c in changes.values()) and current is None

    def text(match: re.Match[str]) -> str:
        role, node = match.group(1), int(match.group(2))
        shown = looks[node][2 + "vrw".index(role)]
        return f"{match.group(0)[: match.group(0).index('>') + 1]}{escape(str(shown))}"

    out = re.sub(r'<text data-(v|r|w)="(\d+)"[^>]*>[^<]*', text, svg)

    def group(match: re.Match[str]) -> str:
        ident, classes, body = match.groups()
        node = int(ident[1:]) if ident.startswith("n") else int(ident.split("_")[1])
        extra = [] if looks[node][1] else ["unreached"]
        if ident == f"n{current}":
            extra.append("current")
        if ident in {f"e{u}_{v}" for u, v in path or ()}:
            extra.append("path")
        return f'<g id="{ident}" class="{" ".join([classes, *extra])}">{body}</g>'

    if not final:
        out = re.sub(r"<svg\b", '<svg class="stepping"', out, count=1)
    return _GROUP.sub(group, out)
