"""The errors the visualiser raises (all are :class:`solver.errors.GameError`).

They live in :mod:`solver.errors` with the rest of the hierarchy; this module keeps the old
import path working.
"""

from __future__ import annotations

from solver.errors import (
    GraphvizFailedError,
    GraphvizNotFoundError,
    TooManyNodesError,
    UnknownFormatError,
    UnreadableError,
    VizError,
)

__all__ = [
    "GraphvizFailedError",
    "GraphvizNotFoundError",
    "TooManyNodesError",
    "UnknownFormatError",
    "UnreadableError",
    "VizError",
]
