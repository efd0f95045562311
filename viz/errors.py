"""The errors the visualiser raises (all are :class:`solver.game.GameError`)."""

from __future__ import annotations

from solver.game import GameError

__all__ = [
    "GraphvizFailedError",
    "GraphvizNotFoundError",
    "TooManyNodesError",
    "UnknownFormatError",
    "VizError",
]


class VizError(GameError):
    """Base of the errors the visualiser raises."""


class TooManyNodesError(VizError, ValueError):
    """The requested diagram would draw more nodes than ``max_nodes``.

    The message says how many nodes the request would draw and which options shrink it (a
    smaller ``depth``, ``collapse=True``, ``transpositions=True``, ``fold_symmetries=True``, or
    a larger ``max_nodes``). ``nodes`` and ``max_nodes`` hold the two numbers.
    """

    def __init__(self, message: str, nodes: int, max_nodes: int) -> None:
        super().__init__(message)
        self.nodes = nodes
        self.max_nodes = max_nodes


class UnknownFormatError(VizError, ValueError):
    """An output format (or file suffix) the visualiser cannot write; the message lists them."""


class GraphvizNotFoundError(VizError, RuntimeError):
    """Graphviz's ``dot`` program is needed (for SVG, PNG or PDF) and is not installed."""


class GraphvizFailedError(VizError, RuntimeError):
    """Graphviz's ``dot`` program ran and failed (the message quotes the start of its stderr)."""
