"""Writing a diagram to a file: DOT, SVG, PNG, PDF (through Graphviz) or JSON (node-link).

The format comes from ``format=`` or else from the file's suffix. JSON is networkx's node-link
form (``nodes``, ``edges``, ``graph``) with infinities written as the strings ``"inf"`` and
``"-inf"`` so that the file is strict JSON.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

import networkx as nx

from solver.output import check_output, write_bytes, write_text
from viz.build import GameTree
from viz.dot import pipe, to_dot
from viz.errors import UnknownFormatError

__all__ = ["FORMATS", "render", "to_json"]

FORMATS = ("dot", "gv", "svg", "png", "pdf", "json")
"""The formats :func:`render` writes (``gv`` is DOT under its other usual suffix)."""


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return "inf" if value > 0 else "-inf"
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def to_json(tree: GameTree) -> str:
    """The tree as networkx node-link JSON (strict JSON: no NaN or infinities).

    >>> from games import load_game
    >>> from viz import game_tree
    >>> data = json.loads(to_json(game_tree(load_game("textbook"))))
    >>> len(data["nodes"]), len(data["edges"]), data["graph"]["value"]
    (13, 12, 3)
    """
    try:
        data = nx.node_link_data(tree.graph, edges="edges")
    except TypeError:  # networkx < 3.4 names the key with link=
        data = nx.node_link_data(tree.graph, link="edges")
    return json.dumps(_finite(data), indent=1, ensure_ascii=False, allow_nan=False)


def render(
    tree: GameTree,
    path: str | os.PathLike[str],
    *,
    format: str | None = None,
    boards: bool = False,
    alpha_beta_labels: bool = False,
    title: str | None = None,
    legend: bool = True,
    overwrite: bool = True,
) -> Path:
    """Write ``tree`` to ``path`` as DOT, SVG, PNG, PDF or JSON; return the path written.

    Args:
        tree: from :func:`viz.game_tree`.
        path: the output file; its suffix gives the format unless ``format`` is set.
        format: one of ``dot``, ``gv``, ``svg``, ``png``, ``pdf``, ``json``.
        boards: draw each position inside its node (the game's ``render``).
        alpha_beta_labels: write each node's alpha-beta window on entry and on exit.
        title: the caption's first line (default: algorithm, game, position, depth).
        legend: add the key to the symbols under the caption.
        overwrite: replace an existing file (False refuses). The file is written atomically
            (:mod:`solver.output`): a failed or interrupted write leaves any old file intact.

    Raises:
        UnknownFormatError: the format or suffix is not one of :data:`FORMATS`.
        GraphvizNotFoundError: SVG, PNG or PDF asked for and ``dot`` is not installed.
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
    fmt = (format or out.suffix.lstrip(".")).lower()
    if fmt not in FORMATS:
        given = f"format {format!r}" if format else f"suffix {out.suffix!r} of {str(out)!r}"
        raise UnknownFormatError(
            f"unknown output {given}; use one of: {', '.join('.' + f for f in FORMATS)}"
        )
    check_output(out, overwrite=overwrite)
    if fmt == "json":
        return write_text(out, to_json(tree) + "\n", overwrite=overwrite)
    source = to_dot(
        tree, boards=boards, alpha_beta_labels=alpha_beta_labels, title=title, legend=legend
    )
    if fmt in ("dot", "gv"):
        return write_text(out, source, overwrite=overwrite)
    return write_bytes(out, pipe(source, fmt), overwrite=overwrite)
