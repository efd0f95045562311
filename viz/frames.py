"""Backward induction step by step: one frame per leaf valued, value backed up, or cut-off.

Frame 0 is the tree before the search (only the root: nothing appears before the search
reaches it); frame ``k`` shows the nodes entered and the values found in the first ``k``
steps, each node's running range, the node just valued highlighted, and the subtrees pruned so
far; the last frame is the finished diagram with the principal path.

SVG frames are cut from one layout (:mod:`viz.stepper`), so nodes keep their places from frame
to frame. PNG, PDF and DOT frames are laid out by Graphviz one by one, with the nodes not yet
reached laid out but invisible, so they keep their places too (up to the width of texts).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from solver.output import replacing_files, write_bytes, write_text
from viz.build import GameTree
from viz.dot import readable_options, to_dot
from viz.errors import UnknownFormatError
from viz.graphviz import pipe
from viz.stepper import current_nodes, frame_changes, frame_paths, frame_svg, stepper_svg

__all__ = ["FRAME_FORMATS", "FRAME_PATTERN", "frame_sources", "write_frames"]

FRAME_FORMATS = ("svg", "png", "pdf", "dot")
"""The formats :func:`write_frames` writes."""

FRAME_PATTERN = r"frame-[0-9]+\.(?:svg|png|pdf|dot)"
"""The names of the files :func:`write_frames` writes (and removes from a reused folder)."""


def frame_sources(tree: GameTree, **looks: Any) -> list[str]:
    """The DOT source of every frame, from frame 0 (before the search) to the finished tree.

    >>> from games import load_game
    >>> from viz import game_tree
    >>> tree = game_tree(load_game("textbook"), algorithm="alphabeta")
    >>> len(frame_sources(tree)) == len(tree.steps) + 1
    True
    """
    return [to_dot(tree, step=step, **looks) for step in range(len(tree.steps) + 1)]


def frame_svgs(tree: GameTree, **looks: Any) -> list[str]:
    """Every frame as an SVG document, all cut from one layout."""
    svg = stepper_svg(tree, **looks)
    changes = frame_changes(
        tree, view=looks.get("view", "minimax"), style=looks.get("style", "default")
    )
    current, paths = current_nodes(tree), frame_paths(tree)
    return [frame_svg(svg, changes, k, current[k], paths[k]) for k in range(len(tree.steps) + 1)]


_SVG_SIZE = re.compile(r'<svg width="([0-9.]+)pt" height="([0-9.]+)pt"')
_PAD = 'pad="0.25"'


def one_size(sources: list[str]) -> list[str]:
    """The frames' DOT sources padded to the largest frame's size, so that a slide show of
    their pictures does not jump: a caption longer at one step (or the summary at the last)
    would widen that picture and move the tree (Graphviz centres it over the caption). Each
    frame is laid out once to measure it; the tree keeps its place across the frames.
    """
    sizes = []
    for source in sources:
        found = _SVG_SIZE.search(pipe(source, "svg").decode())
        assert found is not None and _PAD in source  # Graphviz's SVG, to_dot's graph attributes
        sizes.append((float(found[1]), float(found[2])))
    width = max(w for w, _ in sizes)
    height = max(h for _, h in sizes)
    return [
        source.replace(
            _PAD, f'pad="{0.25 + (width - w) / 144:.4f},{0.25 + (height - h) / 144:.4f}"', 1
        )
        for source, (w, h) in zip(sources, sizes, strict=True)
    ]


def write_frames(
    tree: GameTree,
    directory: str | os.PathLike[str],
    *,
    format: str = "svg",
    overwrite: bool = True,
    **looks: Any,
) -> list[Path]:
    """Write every frame as ``frame-000.svg``, ``frame-001.svg``, ... into ``directory``.

    ``looks`` are :func:`viz.dot.to_dot` options (boards, alpha_beta_labels, order, view,
    title) and ``large``. The directory is created if needed. The frames are written aside
    and swapped in once all are written (:func:`solver.output.replacing_files`): a reused
    directory's old frames (``frame-N.*`` of any frame format) are replaced as a set, kept
    whole if the run fails or is interrupted, and never mixed with the new ones;
    ``overwrite=False`` refuses instead. Returns the files in order.

    Raises:
        OutputError: the directory cannot be created or written, or holds old frames and
            ``overwrite`` is False.
        UnknownFormatError: ``format`` is not one of :data:`FRAME_FORMATS`.
        GraphvizNotFoundError: ``dot`` is not installed.
        UnreadableError: the diagram is too large to read (see :func:`viz.dot.readable_options`).
    """
    fmt = format.lower()
    if fmt not in FRAME_FORMATS:
        raise UnknownFormatError(
            f"unknown frame format {format!r}; use one of: {', '.join(FRAME_FORMATS)}"
        )
    folder = Path(directory)
    count = len(tree.steps) + 1
    width = max(3, len(str(count - 1)))
    names = [f"frame-{index:0{width}d}.{fmt}" for index in range(count)]
    with replacing_files(folder, FRAME_PATTERN, overwrite=overwrite) as staging:
        if fmt == "svg":
            for name, svg in zip(names, frame_svgs(tree, **looks), strict=True):
                write_text(staging / name, svg)
        else:
            large = bool(looks.pop("large", False))  # a choice of layout, not a look
            layout = readable_options(tree, large=large, **looks)  # one layout for all frames
            sources = frame_sources(tree, **looks, **layout)
            if fmt != "dot":
                sources = one_size(sources)
            for name, source in zip(names, sources, strict=True):
                if fmt == "dot":
                    write_text(staging / name, source)
                else:
                    write_bytes(staging / name, pipe(source, fmt))
    return [folder / name for name in names]
