"""Writing a tree to a file: the one place that maps a format to its writer.

The format comes from ``format=`` or else from the file's suffix: DOT, SVG, PNG, PDF (Graphviz:
:mod:`viz.dot` for the teaching trees, :mod:`viz.engine_dot` for the engine's), JSON
(node-link, :mod:`viz.tree_json`) and, for the engine's tree, TikZ (:mod:`viz.tikz`). Files
are written atomically (:mod:`solver.output`). This module stands above every writer and
nothing in :mod:`viz` below the package's front imports it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from solver.output import check_output, replacing_files, write_bytes, write_text
from viz.build import GameTree
from viz.dot import readable_dot, to_dot
from viz.engine_dot import engine_dot
from viz.engine_tree import EngineTree, engine_game_tree
from viz.errors import UnknownFormatError
from viz.graphviz import pipe
from viz.mcts_phases import phases_dot
from viz.tikz import to_tikz
from viz.tree_json import engine_json, to_json

__all__ = [
    "ENGINE_FORMATS",
    "FORMATS",
    "PHASES_FORMATS",
    "render",
    "write_engine_iterations",
    "write_mcts_phases",
]

FORMATS = ("dot", "gv", "svg", "png", "pdf", "json")
"""The formats :func:`render` writes a teaching tree in (``gv`` is DOT under its other usual
suffix; TikZ has its own options: :func:`viz.tikz.write_tikz`)."""

ENGINE_FORMATS = (*FORMATS, "tex")
"""The formats :func:`render` writes the engine's tree in (``tex``: TikZ, through the drawing
model)."""

ITERATION_PATTERN = r"iteration-[0-9]+\.(?:svg|png|pdf|dot|gv|json|tex)"
"""The names of the files :func:`write_engine_iterations` writes (and replaces as a set)."""


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
    tree: GameTree | EngineTree,
    path: str | os.PathLike[str],
    *,
    format: str | None = None,
    large: bool = False,
    overwrite: bool = True,
    **looks: Any,
) -> Path:
    """Write ``tree`` to ``path`` as DOT, SVG, PNG, PDF or JSON; return the path written.

    Args:
        tree: from :func:`viz.game_tree`, or the engine's from
            :func:`viz.engine_tree.engine_tree` (also written as TikZ, ``.tex``).
        path: the output file; its suffix gives the format unless ``format`` is set.
        format: one of ``dot``, ``gv``, ``svg``, ``png``, ``pdf``, ``json``.
        large: draw a picture too large to read at its natural size instead of refusing it.
        overwrite: replace an existing file (False refuses). The file is written atomically
            (:mod:`solver.output`): a failed or interrupted write leaves any old file intact.
        looks: :func:`viz.dot.to_dot` options: ``boards``, ``alpha_beta_labels``, ``title``,
            ``legend``, ``order``, ``exercise``, ``view``; for the engine's tree ``title`` and
            ``legend``, and for ``.tex`` further :func:`viz.tikz.to_tikz` options
            (``standalone``, ``summary``, ``overlays``).

    Raises:
        UnknownFormatError: the format or suffix is not one of :data:`FORMATS` (the engine's
            tree: :data:`ENGINE_FORMATS`).
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
    if isinstance(tree, EngineTree):
        return _render_engine(tree, out, format=format, overwrite=overwrite, **looks)
    fmt = output_format(out, FORMATS, format=format)
    check_output(out, overwrite=overwrite)
    if fmt == "json":
        return write_text(out, to_json(tree) + "\n", overwrite=overwrite)
    if fmt in ("dot", "gv"):
        return write_text(out, to_dot(tree, **looks), overwrite=overwrite)
    return write_bytes(
        out, pipe(readable_dot(tree, large=large, **looks), fmt), overwrite=overwrite
    )


def _render_engine(
    tree: EngineTree,
    path: str | os.PathLike[str],
    *,
    format: str | None = None,
    title: str | None = None,
    legend: bool = True,
    overwrite: bool = True,
    **tikz: Any,
) -> Path:
    """Write the engine's tree to ``path`` (DOT, SVG, PNG, PDF, node-link JSON, or TikZ for
    ``.tex``), atomically.

    ``overwrite=False`` refuses to replace an existing file. ``tikz`` are further
    :func:`viz.tikz.to_tikz` options for ``.tex`` (``standalone``, ``summary``, ``overlays``).

    Raises:
        OutputError: the path cannot be written, or exists and ``overwrite`` is False.
        UnknownFormatError: the suffix is not one of :data:`ENGINE_FORMATS`.
        GraphvizNotFoundError: SVG, PNG or PDF asked for and ``dot`` is not installed.
    """
    out = Path(path)
    fmt = output_format(out, ENGINE_FORMATS, format=format, what=" for the engine's tree")
    check_output(out, overwrite=overwrite)  # before Graphviz lays the picture out
    if fmt == "json":
        payload = (engine_json(tree) + "\n").encode()
    elif fmt == "tex":
        source = to_tikz(engine_game_tree(tree), title=title, legend=legend, **tikz)
        return write_text(out, source, overwrite=overwrite)
    else:
        source = engine_dot(tree, title=title, legend=legend)
        payload = source.encode() if fmt in ("dot", "gv") else pipe(source, fmt)
    return write_bytes(out, payload, overwrite=overwrite)


PHASES_FORMATS = ("dot", "gv", "svg", "png", "pdf")
"""What the four phases of an MCTS iteration are written as."""


def write_mcts_phases(
    tree: GameTree,
    path: str | os.PathLike[str],
    iteration: int,
    *,
    format: str | None = None,
    title: str | None = None,
    overwrite: bool = True,
) -> Path:
    """Write the four phases of an MCTS tree's ``iteration`` (:mod:`viz.mcts_phases`, AIMA's
    Figure 5.10) to ``path`` as DOT, SVG, PNG or PDF, atomically.

    Raises:
        VizError: not an MCTS tree, or no such iteration.
        OutputError: the path cannot be written, or exists and ``overwrite`` is False.
        UnknownFormatError: the suffix is not one of :data:`PHASES_FORMATS`.
        GraphvizNotFoundError: SVG, PNG or PDF asked for and ``dot`` is not installed.
    """
    out = Path(path)
    fmt = output_format(out, PHASES_FORMATS, format=format, what=" for an iteration's phases")
    check_output(out, overwrite=overwrite)
    source = phases_dot(tree, iteration, title=title)
    payload = source.encode() if fmt in ("dot", "gv") else pipe(source, fmt)
    return write_bytes(out, payload, overwrite=overwrite)


def write_engine_iterations(
    trees: list[EngineTree],
    directory: str | os.PathLike[str],
    *,
    format: str = "svg",
    title: str | None = None,
    overwrite: bool = True,
) -> list[Path]:
    """Write each iteration's tree as ``iteration-01.svg``, ``iteration-02.svg``, ... into
    ``directory``, replacing an earlier set whole (written aside, then swapped in); ``tex``
    writes each as a TikZ document.

    Raises:
        OutputError: the directory cannot be written, or holds a set and ``overwrite`` is False.
        UnknownFormatError: ``format`` is not one of :data:`ENGINE_FORMATS`.
        GraphvizNotFoundError: SVG, PNG or PDF asked for and ``dot`` is not installed.
    """
    fmt = format.lower()
    if fmt not in ENGINE_FORMATS:
        raise UnknownFormatError(
            f"unknown format {format!r} for the iterations; use one of: {', '.join(ENGINE_FORMATS)}"
        )
    folder = Path(directory)
    width = max(2, len(str(len(trees))))
    names = [f"iteration-{tree.number or i + 1:0{width}d}.{fmt}" for i, tree in enumerate(trees)]
    with replacing_files(folder, ITERATION_PATTERN, overwrite=overwrite) as staging:
        for name, tree in zip(names, trees, strict=True):
            render(tree, staging / name, title=title)
    return [folder / name for name in names]
