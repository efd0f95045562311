"""Annotated game trees for teaching: a real search's events -> networkx -> Graphviz.

Assumes what the solver assumes (two players, zero-sum, deterministic, perfect information) and
knows no game: the caller passes the game object; boards come from the game's ``render``
capability, move labels from ``format_action``, folding from ``symmetries``.

- :func:`game_tree` runs the teaching ``minimax`` or ``alphabeta`` with an observer and builds
  the annotated tree (:mod:`viz.build`), optionally merged, collapsed or folded;
- :func:`render` writes it as DOT, SVG, PNG, PDF or JSON (:mod:`viz.export`, the one place that
  maps a format to its writer: :mod:`viz.dot`, :mod:`viz.engine_dot`, :mod:`viz.tree_json`);
- :func:`write_frames` and :func:`write_html` show backward induction step by step
  (:mod:`viz.frames`, :mod:`viz.html`), all frames cut from one layout (:mod:`viz.stepper`);
- :mod:`viz.ordering` searches the moves as given, best first or worst first;
- :func:`to_tikz`/:func:`write_tikz` give the picture as TikZ for LaTeX and Beamer
  (:mod:`viz.tikz`); :func:`write_interactive` a page to fold and edit (:mod:`viz.interactive`);
  :mod:`viz.engine_tree` draws the fast engine's own search, table hits and all;
- in a Jupyter notebook a tree displays itself as SVG (:mod:`viz.notebook`).

The modules stand on floors, each importing only from its own floor or below (a test says so):
words and constants (:mod:`viz.errors`, :mod:`viz.choices`, :mod:`viz.notation`,
:mod:`viz.palette`, :mod:`viz.boards`) -> the trees, what was searched (:mod:`viz.build`,
:mod:`viz.engine_tree`, :mod:`viz.mcts_tree`, :mod:`viz.ordering`) -> what each node shows
(:mod:`viz.annotations`, :mod:`viz.model`) -> the writers (:mod:`viz.graphviz`, :mod:`viz.dot`,
:mod:`viz.engine_dot`, :mod:`viz.tikz`, :mod:`viz.tree_json`, the pages and frames) -> the one
format dispatcher (:mod:`viz.export`) and the package's front.

>>> from games import load_game
>>> from viz import game_tree
>>> tree = game_tree(load_game("textbook"), algorithm="alphabeta")
>>> tree.result.value, tree.graph.number_of_nodes(), tree.pruned
(3, 13, 2)
>>> [d["bound"] for _, d in tree.graph.nodes(data=True) if d["name"]]
['exact', 'exact', 'upper', 'upper']
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from viz.choices import ORDERINGS, PRUNED_VIEWS, STYLES, VIEWS
from viz.errors import (
    GraphvizFailedError,
    GraphvizNotFoundError,
    TooManyNodesError,
    UnknownFormatError,
    UnreadableError,
    VizError,
)
from viz.notebook import register_running_shell

if TYPE_CHECKING:
    from viz.build import DEFAULT_MAX_NODES, GameTree, Step, game_tree
    from viz.dot import readable_options, to_dot, to_svg
    from viz.export import FORMATS, render, write_mcts_phases
    from viz.frames import write_frames
    from viz.html import write_html
    from viz.interactive import write_interactive
    from viz.tikz import to_tikz, write_tikz
    from viz.tree_json import to_json

_HOMES = {
    "DEFAULT_MAX_NODES": "viz.build",
    "GameTree": "viz.build",
    "Step": "viz.build",
    "game_tree": "viz.build",
    "readable_options": "viz.dot",
    "to_dot": "viz.dot",
    "to_svg": "viz.dot",
    "FORMATS": "viz.export",
    "render": "viz.export",
    "to_json": "viz.tree_json",
    "write_frames": "viz.frames",
    "write_html": "viz.html",
    "write_interactive": "viz.interactive",
    "write_mcts_phases": "viz.export",
    "to_tikz": "viz.tikz",
    "write_tikz": "viz.tikz",
}
"""Where each drawing name lives: imported on first use, so that ``import viz`` (and a command
line offering :mod:`viz.choices`) loads neither networkx nor the writers until a tree is drawn."""


register_running_shell()  # in a notebook, trees display themselves as SVG (viz.notebook)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'viz' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


__all__ = [
    "DEFAULT_MAX_NODES",
    "FORMATS",
    "ORDERINGS",
    "PRUNED_VIEWS",
    "STYLES",
    "VIEWS",
    "GameTree",
    "GraphvizFailedError",
    "GraphvizNotFoundError",
    "Step",
    "TooManyNodesError",
    "UnknownFormatError",
    "UnreadableError",
    "VizError",
    "game_tree",
    "readable_options",
    "render",
    "to_dot",
    "to_json",
    "to_svg",
    "to_tikz",
    "write_frames",
    "write_html",
    "write_interactive",
    "write_mcts_phases",
    "write_tikz",
]
