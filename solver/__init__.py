"""gamesolver's game-agnostic search: the Game protocol, teaching searches, the engine, solving.

Assumes two players, zero-sum, deterministic, perfect information; every value is from player
0's (MAX's) point of view. Everything a user needs is importable from here:

>>> from solver import GameError, IllegalActionError, SearchResult, __version__
>>> issubclass(IllegalActionError, GameError)
True
"""

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _distribution_version

from solver.errors import (
    AgentError,
    CapabilityError,
    CycleError,
    GameError,
    GraphvizNotFoundError,
    IllegalActionError,
    InvalidStateError,
    TooManyNodesError,
    TooManyStatesError,
    UnknownFormatError,
    UnknownGameError,
    UnknownStateError,
    VizError,
)
from solver.events import Backup, CacheHit, Cutoff, Enter, Event, Leaf, Observer, Trace
from solver.game import MAX, MIN, Game, Player, apply
from solver.results import SearchResult, SearchStats

DISTRIBUTION = "zerosum"
"""The name the project is installed under (``pip show``), where the version comes from."""

try:
    __version__: str = _distribution_version(DISTRIBUTION)
except PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0+unknown"

__all__ = [
    "MAX",
    "MIN",
    "AgentError",
    "Backup",
    "CacheHit",
    "CapabilityError",
    "Cutoff",
    "CycleError",
    "Enter",
    "Event",
    "Game",
    "GameError",
    "GraphvizNotFoundError",
    "IllegalActionError",
    "InvalidStateError",
    "Leaf",
    "Observer",
    "Player",
    "SearchResult",
    "SearchStats",
    "TooManyNodesError",
    "TooManyStatesError",
    "Trace",
    "UnknownFormatError",
    "UnknownGameError",
    "UnknownStateError",
    "VizError",
    "__version__",
    "apply",
]
