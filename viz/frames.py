"""Backward induction step by step: one frame per leaf valued, value backed up, or cut-off.

Frame 0 is the tree before the search (its shape only); frame ``k`` shows the values found in
the first ``k`` steps, the node just valued highlighted, and the branches pruned so far; the
last frame is the finished diagram with the principal path.
"""

from __future__ import annotations

import os
from pathlib import Path

from solver.output import prepare_directory, write_bytes, write_text
from viz.build import GameTree
from viz.dot import pipe, to_dot
from viz.errors import UnknownFormatError

__all__ = ["FRAME_FORMATS", "FRAME_PATTERN", "frame_sources", "write_frames"]

FRAME_FORMATS = ("svg", "png", "pdf", "dot")

FRAME_PATTERN = r"frame-[0-9]+\.(?:svg|png|pdf|dot)"
"""The names of the files :func:`write_frames` writes (and removes from a reused folder)."""
"""The formats :func:`write_frames` writes."""


def frame_sources(
    tree: GameTree,
    *,
    boards: bool = False,
    alpha_beta_labels: bool = False,
    title: str | None = None,
) -> list[str]:
    """The DOT source of every frame, from frame 0 (before the search) to the finished tree.

    >>> from games import load_game
    >>> from viz import game_tree
    >>> tree = game_tree(load_game("textbook"), algorithm="alphabeta")
    >>> len(frame_sources(tree)) == len(tree.steps) + 1
    True
    """
    return [
        to_dot(tree, boards=boards, alpha_beta_labels=alpha_beta_labels, title=title, step=step)
        for step in range(len(tree.steps) + 1)
    ]


def write_frames(
    tree: GameTree,
    directory: str | os.PathLike[str],
    *,
    format: str = "svg",
    boards: bool = False,
    alpha_beta_labels: bool = False,
    title: str | None = None,
    overwrite: bool = True,
) -> list[Path]:
    """Write every frame as ``frame-000.svg``, ``frame-001.svg``, ... into ``directory``.

    The directory is created if needed. A reused directory's old frames (``frame-N.*`` of any
    frame format) are removed first, so the folder never mixes two runs; ``overwrite=False``
    refuses instead. Each frame is written atomically. Returns the files in order.

    Raises:
        OutputError: the directory cannot be created or written, or holds old frames and
            ``overwrite`` is False.
        UnknownFormatError: ``format`` is not one of :data:`FRAME_FORMATS`.
        GraphvizNotFoundError: an image format and ``dot`` is not installed.
    """
    fmt = format.lower()
    if fmt not in FRAME_FORMATS:
        raise UnknownFormatError(
            f"unknown frame format {format!r}; use one of: {', '.join(FRAME_FORMATS)}"
        )
    folder = prepare_directory(directory, FRAME_PATTERN, overwrite=overwrite)
    sources = frame_sources(tree, boards=boards, alpha_beta_labels=alpha_beta_labels, title=title)
    width = max(3, len(str(len(sources) - 1)))
    paths = []
    for index, source in enumerate(sources):
        path = folder / f"frame-{index:0{width}d}.{fmt}"
        if fmt == "dot":
            write_text(path, source)
        else:
            write_bytes(path, pipe(source, fmt))
        paths.append(path)
    return paths
