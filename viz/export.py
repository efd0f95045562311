"""Writing a diagram to a file: DOT, SVG, PNG, PDF (through Graphviz) or JSON (node-link).

The format comes from ``format=`` or else from the file's suffix. JSON is networkx's node-link
form (``nodes``, ``edges``, ``graph``) with infinities written as the strings ``"inf"`` and
``"-inf"`` so that the file is strict JSON; ``graph.fields`` documents every node field (the
same text as :data:`NODE_FIELDS`). Files are written atomically (:mod:`solver.output`).
"""

from __future__ import annotations

import json
import math
import os
from fractions import Fraction
from pathlib import Path
from typing import Any

import networkx as nx

from solver.output import check_output, write_bytes, write_text
from viz.build import GameTree
from viz.dot import pipe, readable_dot, to_dot
from viz.errors import UnknownFormatError
from viz.model import Frame

__all__ = ["FORMATS", "NODE_FIELDS", "render", "to_json"]

FORMATS = ("dot", "gv", "svg", "png", "pdf", "json")
"""The formats :func:`render` writes (``gv`` is DOT under its other usual suffix)."""

NODE_FIELDS = {
    "id": "node id; visited nodes are numbered in the order the search entered them, from 0",
    "kind": "'node' (visited), 'pruned' (never visited: cut off, or below a cut), 'summary'",
    "player": "0 (MAX) or 1 (MIN), the player to move; 'role' says MAX or MIN",
    "depth": "plies below the root",
    "move": "the move that led here in the game's notation ('' at the root)",
    "path": "the moves from the root, a list; 'title' the node's name in captions",
    "state": "the position in the game's notation; 'board' its render text or null",
    "name": "the game's name for the node (AIMA's A, B, C ...) or null",
    "order": "the visit order, 1 for the root (null if never visited)",
    "value": "the value the search returned, MAX's point of view (null if none)",
    "bound": "'exact'; 'lower' (true value >= value: failed high, value >= beta on entry); "
    "'upper' (true value <= value: failed low, value <= alpha on entry); null with no value",
    "exact": "bound == 'exact'",
    "range": "[lo, hi] the true value lies in, as the figure writes it: from value and bound "
    "(and the children's, AIMA Figure 5.5), within *-minimax's bounds [L, U]",
    "leaf": "'terminal', 'horizon' (valued by the evaluation function) or null",
    "label": "the caller's leaf label or null",
    "principal": "on the principal path; 'optimal': an optimal move at its parent",
    "cut_by": "pruned nodes: the id of the node whose cut-off pruned them",
    "cut": "on the pruned moves themselves: the cut inequality, e.g. 'v=2 ≤ α=3'",
    "alpha_in": "the window on entry (alpha_in, beta_in) and on exit (alpha_out, beta_out)",
    "cache_hit": "merged visits (transpositions): true when 'hits' > 1 visits were merged",
    "folded": "sibling moves folded into this node by symmetry",
    "positions": "summary nodes: how many positions they hide",
    "opened": "step-by-step views: the step from which the node is drawn; 'reveal' and "
    "'step' the step at which its value (or cut) appears",
}
"""What each node field of the JSON export holds ("inf"/"-inf" stand for infinities, and
exact values of games with chance are fractions written as text, "11/2")."""


def finite(value: Any) -> Any:
    """``value`` with infinities as the strings "inf"/"-inf" and fractions as their text
    ("11/2", as the command line's ``--json`` writes them), so its JSON is strict."""
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, float) and not math.isfinite(value):
        return "inf" if value > 0 else "-inf"
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value


def to_json(tree: GameTree) -> str:
    """The tree as networkx node-link JSON (strict JSON: no NaN or infinities).

    >>> from games import load_game
    >>> from viz import game_tree
    >>> data = json.loads(to_json(game_tree(load_game("textbook"), algorithm="alphabeta")))
    >>> len(data["nodes"]), len(data["edges"]), data["graph"]["value"]
    (13, 12, 3)
    >>> [(n["name"], n["bound"]) for n in data["nodes"] if n["name"]]
    [('A', 'exact'), ('B', 'exact'), ('C', 'upper'), ('D', 'upper')]
    """
    graph = tree.graph.copy()  # each node's own dict: the tree keeps its own ranges
    final = Frame(tree, None)
    for node, data in graph.nodes(data=True):
        if data.get("kind") == "node" and data.get("range") is not None:
            shown = final.range(node, "minimax")  # the figure's range, clipped to [L, U]
            if shown is not None:
                data["range"] = [finite(_plain(x)) for x in shown]
    return node_link_json(graph, fields=NODE_FIELDS)


def _plain(value: Any) -> Any:
    """A whole float as an int (3, not 3.0), as the tree's own values are written."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def node_link_json(graph: Any, **graph_data: Any) -> str:
    """``graph`` as strict networkx node-link JSON (edges under ``"edges"``), with
    ``graph_data`` added to the graph's own data."""
    try:
        data = nx.node_link_data(graph, edges="edges")
    except TypeError:  # networkx < 3.4 names the key with link=
        data = nx.node_link_data(graph, link="edges")
    if graph_data:
        data["graph"] = {**data["graph"], **graph_data}
    for node in data["nodes"]:
        if "bound" in node and node.get("value") is None:  # pruned or never valued: no bound
            node["bound"] = None
            if "exact" in node:
                node["exact"] = False
    return json.dumps(finite(data), indent=1, ensure_ascii=False, allow_nan=False)


def output_format(
    out: Path, formats: tuple[str, ...], *, format: str | None = None, what: str = ""
) -> str:
    """The format to write ``out`` in (``format``, else its suffix), one of ``formats``.

    Raises:
        UnknownFormatError: another one; ``what`` says which picture, e.g. " for the engine's
            tree".
    """
    fmt = (format or out.suffix.lstrip(".")).lower()
    if fmt not in formats:
        given = f"format {format!r}" if format else f"suffix {out.suffix!r} of {str(out)!r}"
        raise UnknownFormatError(
            f"unknown output {given}{what}; use one of: {', '.join('.' + f for f in formats)}"
        )
    return fmt


def render(
    tree: GameTree,
    path: str | os.PathLike[str],
    *,
    format: str | None = None,
    large: bool = False,
    overwrite: bool = True,
    **looks: Any,
) -> Path:
    """Write ``tree`` to ``path`` as DOT, SVG, PNG, PDF or JSON; return the path written.

    Args:
        tree: from :func:`viz.game_tree`.
        path: the output file; its suffix gives the format unless ``format`` is set.
        format: one of ``dot``, ``gv``, ``svg``, ``png``, ``pdf``, ``json``.
        large: draw a picture too large to read at its natural size instead of refusing it.
        overwrite: replace an existing file (False refuses). The file is written atomically
            (:mod:`solver.output`): a failed or interrupted write leaves any old file intact.
        looks: :func:`viz.dot.to_dot` options: ``boards``, ``alpha_beta_labels``, ``title``,
            ``legend``, ``order``, ``exercise``, ``view``.

    Raises:
        UnknownFormatError: the format or suffix is not one of :data:`FORMATS`.
        GraphvizNotFoundError: SVG, PNG or PDF asked for and ``dot`` is not installed.
        UnreadableError: the picture is too large to read (see :func:`viz.dot.readable_options`).
        CapabilityError: ``boards=True`` for a game without ``render``.
        OutputError: the path cannot be written (checked before drawing), or exists and
            ``overwrite`` is False.

    >>> import tempfile
    >>> from games import load_game
    >>> from viz import game_tree
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     render(game_tree(load_game("textbook")), Path(folder, "tree.dot")).suffix
    '.dot'
    """
    out = Path(path)
    fmt = output_format(out, FORMATS, format=format)
    check_output(out, overwrite=overwrite)
    if fmt == "json":
        return write_text(out, to_json(tree) + "\n", overwrite=overwrite)
    if fmt in ("dot", "gv"):
        return write_text(out, to_dot(tree, **looks), overwrite=overwrite)
    return write_bytes(
        out, pipe(readable_dot(tree, large=large, **looks), fmt), overwrite=overwrite
    )
