"""Trees shown inline in Jupyter: the package's front registers their SVG with IPython.

The trees (:class:`viz.build.GameTree`, :class:`viz.engine_tree.EngineTree`) know nothing of
their writers, so they carry no ``_repr_svg_``; instead, when :mod:`viz` is imported inside a
running IPython shell (a notebook's kernel), IPython's SVG formatter is told how to draw them,
by the classes' names (IPython's ``for_type_by_name``): nothing is drawn, and neither networkx
nor Graphviz is loaded, until a cell shows a tree.
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["SVG_TYPES", "register", "register_running_shell"]


def _game_tree_svg(tree: Any) -> str:
    from viz.dot import to_svg

    return to_svg(tree)


def _engine_tree_svg(tree: Any) -> str:
    from viz.engine_dot import engine_dot
    from viz.graphviz import pipe

    return pipe(engine_dot(tree), "svg").decode()


SVG_TYPES = {
    ("viz.build", "GameTree"): _game_tree_svg,
    ("viz.engine_tree", "EngineTree"): _engine_tree_svg,
}
"""The trees a notebook shows as SVG: (module, class name) -> the function that draws one."""


def register(shell: Any) -> None:
    """Tell ``shell`` (an IPython ``InteractiveShell``) to display every tree as SVG."""
    formatter = shell.display_formatter.formatters["image/svg+xml"]
    for (module, name), draw in SVG_TYPES.items():
        formatter.for_type_by_name(module, name, draw)


def register_running_shell() -> None:
    """:func:`register` with the running IPython shell, if :mod:`viz` is imported inside one
    (IPython is never imported here: outside a notebook this does nothing)."""
    ipython = sys.modules.get("IPython")
    shell = getattr(ipython, "get_ipython", lambda: None)() if ipython is not None else None
    if shell is not None:
        register(shell)
