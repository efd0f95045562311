"""Annotated game trees for teaching: a real search's events -> networkx -> Graphviz.

Assumes what the solver assumes (two players, zero-sum, deterministic, perfect information) and
knows no game: the caller passes the game object; boards come from the game's ``render``
capability, move labels from ``format_action``.

Public API (work in progress: the signatures below are the contract the CLI codes against):

- ``game_tree(game, state=None, depth=None, algorithm="minimax", *, evaluate=None,
  transpositions=False, collapse=False, fold_symmetries=False, max_nodes=1000,
  leaf_label=None) -> GameTree``
- ``render(tree, path, *, format=None, boards=False, alpha_beta_labels=False, title=None,
  legend=True) -> pathlib.Path`` (format from the suffix: .svg .png .pdf .dot .gv .json)
- ``write_frames(tree, directory, *, format="svg", boards=False, alpha_beta_labels=False)
  -> list[pathlib.Path]`` (frame-001.svg, frame-002.svg, ...)
- ``write_html(tree, path, *, boards=False, alpha_beta_labels=False, title=None)
  -> pathlib.Path`` (one self-contained page: inline SVG frames and script, no network)
- errors: ``VizError(GameError)``, ``TooManyNodesError(VizError, ValueError)``,
  ``UnknownFormatError(VizError, ValueError)``, ``GraphvizNotFoundError(VizError, RuntimeError)``;
  ``boards=True`` on a game without ``render`` raises ``solver.game.CapabilityError``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from solver.game import Game, GameError

__all__ = [
    "DEFAULT_MAX_NODES",
    "GameTree",
    "GraphvizNotFoundError",
    "TooManyNodesError",
    "UnknownFormatError",
    "VizError",
    "game_tree",
    "render",
    "write_frames",
    "write_html",
]

DEFAULT_MAX_NODES = 1000
"""The largest tree drawn unless the caller raises ``max_nodes``."""


class VizError(GameError):
    """Base of the errors the visualiser raises."""


class TooManyNodesError(VizError, ValueError):
    """The requested diagram would draw more nodes than ``max_nodes``.

    The message says how many nodes the request would draw and which options shrink it
    (a smaller ``depth``, ``collapse=True``, ``transpositions=True``, ``fold_symmetries=True``,
    or a larger ``max_nodes``). ``nodes`` and ``max_nodes`` hold the two numbers.
    """

    def __init__(self, message: str, nodes: int, max_nodes: int) -> None:
        super().__init__(message)
        self.nodes = nodes
        self.max_nodes = max_nodes


class UnknownFormatError(VizError, ValueError):
    """An output format (or file suffix) the visualiser cannot write; the message lists them."""


class GraphvizNotFoundError(VizError, RuntimeError):
    """Graphviz's ``dot`` program is needed (for SVG/PNG/PDF) and is not installed."""


class GameTree:
    """A drawn search: ``graph`` (a networkx.DiGraph), ``root``, ``result`` (SearchResult).

    Displays inline in Jupyter (``_repr_svg_``).
    """

    graph: Any
    root: int
    result: Any


def game_tree(
    game: Game[Any, Any],
    state: Any = None,
    depth: int | None = None,
    algorithm: str = "minimax",
    *,
    evaluate: Callable[[Any], float] | None = None,
    transpositions: bool = False,
    collapse: bool = False,
    fold_symmetries: bool = False,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    leaf_label: Callable[[Any], str] | None = None,
) -> GameTree:
    """Run ``algorithm`` ("minimax" or "alphabeta") from ``state`` and build its annotated tree.

    Args:
        game: any Game; its optional ``render``/``format_action``/``symmetries`` are used.
        state: the root position (None: the initial state).
        depth: the search horizon in plies (None: to the end of the game).
        algorithm: "minimax" or "alphabeta".
        evaluate: the horizon evaluation (default the game's ``evaluate``).
        transpositions: merge identical states into one node (a DAG) with hit counts.
        collapse: replace subtrees off the principal path by summary nodes ("… 34 positions").
        fold_symmetries: fold sibling positions equivalent under the game's ``symmetries``.
        max_nodes: the most nodes to draw (None: no limit); more raises TooManyNodesError.
        leaf_label: optional ``state -> str`` written in leaves (e.g. captured seeds).

    Raises:
        TooManyNodesError: the diagram would have more than ``max_nodes`` nodes.
        VizError: an unknown ``algorithm``.
    """
    raise NotImplementedError("viz.game_tree is being written")


def render(
    tree: GameTree,
    path: str | os.PathLike[str],
    *,
    format: str | None = None,
    boards: bool = False,
    alpha_beta_labels: bool = False,
    title: str | None = None,
    legend: bool = True,
) -> Path:
    """Write ``tree`` to ``path`` as DOT, SVG, PNG, PDF or JSON (node-link); return the path.

    Raises:
        UnknownFormatError: the format or suffix is not one of dot, gv, svg, png, pdf, json.
        GraphvizNotFoundError: SVG/PNG/PDF requested and ``dot`` is missing.
        CapabilityError: ``boards=True`` for a game without ``render``.
    """
    raise NotImplementedError("viz.render is being written")


def write_frames(
    tree: GameTree,
    directory: str | os.PathLike[str],
    *,
    format: str = "svg",
    boards: bool = False,
    alpha_beta_labels: bool = False,
) -> list[Path]:
    """Write backward induction step by step: one numbered file per backed-up value or cut."""
    raise NotImplementedError("viz.write_frames is being written")


def write_html(
    tree: GameTree,
    path: str | os.PathLike[str],
    *,
    boards: bool = False,
    alpha_beta_labels: bool = False,
    title: str | None = None,
) -> Path:
    """Write one self-contained HTML page that steps through the frames (prev/next/play/slider)."""
    raise NotImplementedError("viz.write_html is being written")
