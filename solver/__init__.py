"""gamesolver's game-agnostic search: the Game protocol, teaching searches, the engine, solving."""

from solver.events import Backup, CacheHit, Cutoff, Enter, Event, Leaf, Observer, Trace
from solver.game import (
    MAX,
    MIN,
    CapabilityError,
    Game,
    GameError,
    IllegalActionError,
    InvalidStateError,
    Player,
    UnknownGameError,
    apply,
)
from solver.results import SearchResult, SearchStats

__all__ = [
    "MAX",
    "MIN",
    "Backup",
    "CacheHit",
    "CapabilityError",
    "Cutoff",
    "Enter",
    "Event",
    "Game",
    "GameError",
    "IllegalActionError",
    "InvalidStateError",
    "Leaf",
    "Observer",
    "Player",
    "SearchResult",
    "SearchStats",
    "Trace",
    "UnknownGameError",
    "apply",
]
