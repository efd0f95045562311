"""The errors the visualiser raises (all are :class:`solver.game.GameError`)."""

from __future__ import annotations

from solver.game import GameError

__all__ = ["GraphvizNotFoundError", "TooManyNodesError", "UnknownFormatError", "VizError"]


class VizError(GameError):
    """Base of the errors the visualiser raises."""


class TooManyNodesError(VizError, ValueError):
    """The requested diagram would draw more nodes than allowed, or its search outgrew a limit.

    The message says which limit refused it, how many nodes, and which options shrink it.

    Attributes:
        nodes: the nodes counted when it was refused (a lower bound if ``at_least``).
        max_nodes: the limit that refused it.
        limit: the name of that limit: ``"max_nodes"`` (nodes drawn) or ``"record_limit"``
            (nodes a collapsed, merged or folded view may be built from).
        shrink: the ``game_tree`` options, not yet used, that would draw fewer nodes
            (``depth``, ``collapse``, ``transpositions``, ``fold_symmetries``, ``pruned``).
        at_least: the search was stopped at the limit, so ``nodes`` is a lower bound.
    """

    def __init__(
        self,
        message: str,
        nodes: int,
        max_nodes: int,
        *,
        limit: str = "max_nodes",
        shrink: tuple[str, ...] = (),
        at_least: bool = False,
    ) -> None:
        super().__init__(message)
        self.nodes = nodes
        self.max_nodes = max_nodes
        self.limit = limit
        self.shrink = shrink
        self.at_least = at_least


class UnknownFormatError(VizError, ValueError):
    """An output format (or file suffix) the visualiser cannot write; the message lists them."""


class GraphvizNotFoundError(VizError, RuntimeError):
    """Graphviz's ``dot`` program is needed (for SVG, PNG or PDF) and is not installed."""


class UnreadableError(VizError, ValueError):
    """The picture would be too large to read; the message says how large and what shrinks it."""
