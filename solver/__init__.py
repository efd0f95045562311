"""gamesolver's game-agnostic search: the Game protocol, teaching searches, the engine, solving.

Assumes two players, zero-sum, deterministic, perfect information; every value is from player
0's (MAX's) point of view. Everything a user needs is importable from here: the searches
(:func:`minimax` and :func:`alphabeta` to teach, :func:`search` the fast engine, :func:`solve`
every reachable state), their results, the Game protocol and the errors.

>>> from games import load_game
>>> from solver import alphabeta, search, solve
>>> game = load_game("textbook", tree=[[3, 12], [2, 4]])
>>> alphabeta(game).value, search(game).value, solve(game).root_value
(3, 3, 3)

The submodules keep their names: ``from solver.solve import solve`` and
``from solver.minimax import minimax`` work as before (``solver.solve`` and ``solver.minimax``,
read as attributes of the package, are the functions).
"""

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _distribution_version

from solver.engine import search
from solver.errors import (
    AgentError,
    CapabilityError,
    CertificateError,
    CycleError,
    GameError,
    GraphvizFailedError,
    GraphvizNotFoundError,
    IllegalActionError,
    InconsistentEndlessError,
    InvalidOptionError,
    InvalidStateError,
    NotAGameError,
    OutputError,
    TooManyNodesError,
    TooManyStatesError,
    UnknownFormatError,
    UnknownGameError,
    UnknownStateError,
    UnreadableError,
    VizError,
)
from solver.events import Backup, CacheHit, Cutoff, Enter, Event, Leaf, Observer, Trace
from solver.game import MAX, MIN, Game, Player, apply
from solver.minimax import alphabeta, minimax
from solver.results import SearchResult, SearchStats
from solver.solve import Solution, solve

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
    "CertificateError",
    "Cutoff",
    "CycleError",
    "Enter",
    "Event",
    "Game",
    "GameError",
    "GraphvizFailedError",
    "GraphvizNotFoundError",
    "IllegalActionError",
    "InconsistentEndlessError",
    "InvalidOptionError",
    "InvalidStateError",
    "Leaf",
    "NotAGameError",
    "Observer",
    "OutputError",
    "Player",
    "SearchResult",
    "SearchStats",
    "Solution",
    "TooManyNodesError",
    "TooManyStatesError",
    "Trace",
    "UnknownFormatError",
    "UnknownGameError",
    "UnknownStateError",
    "UnreadableError",
    "VizError",
    "__version__",
    "alphabeta",
    "apply",
    "minimax",
    "search",
    "solve",
]
