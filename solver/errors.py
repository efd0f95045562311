"""One error hierarchy for the whole project: every error it raises on purpose is a GameError.

Each error also derives from the built-in exception a Python programmer would expect
(``ValueError`` for a bad value, ``LookupError`` for a name or state that is not there,
``TypeError`` for a missing capability, ``RuntimeError`` for a missing program), so
``except ValueError`` keeps working. Messages are a lowercase phrase, the bad value with ``!r``,
then what would be valid.

The classes are also importable from where they were first defined (``solver.game``,
``solver.solve``, ``play``, ``viz.errors``) and from ``solver`` itself. A game may
subclass them for its own cases (Ayòayò's ``NeverEndingSowingError`` is an
``IllegalActionError``); a new kind of error the project raises belongs here.

>>> from solver.errors import GameError, IllegalActionError
>>> issubclass(IllegalActionError, GameError) and issubclass(IllegalActionError, ValueError)
True
"""

from __future__ import annotations

__all__ = [
    "AgentError",
    "CapabilityError",
    "CertificateError",
    "CycleError",
    "GameError",
    "GraphvizFailedError",
    "GraphvizNotFoundError",
    "IllegalActionError",
    "InconsistentEndlessError",
    "InvalidOptionError",
    "InvalidStateError",
    "NotAGameError",
    "OutputError",
    "TooManyNodesError",
    "TooManyStatesError",
    "UnknownFormatError",
    "UnknownGameError",
    "UnknownStateError",
    "UnreadableError",
    "VizError",
]


class GameError(Exception):
    """Base of every error the project raises about games, states, moves, searches and drawings."""


# -- games, states and moves ----------------------------------------------------------------------


class IllegalActionError(GameError, ValueError):
    """An action that is not legal in the given state (or cannot be parsed)."""


class InvalidStateError(GameError, ValueError):
    """A state (or state text, or a game option) that the game cannot hold."""


class UnknownGameError(GameError, LookupError):
    """A game name that no registry entry answers to."""


class NotAGameError(GameError, TypeError):
    """A value given where a game (an object with the Game protocol's methods) was expected."""


class InvalidOptionError(GameError, ValueError):
    """An option of a search or a solve out of its range (a table larger than the cap, a state
    limit that is not a number)."""


class CapabilityError(GameError, TypeError):
    """An algorithm needs an optional capability (e.g. ``evaluate``) that the game lacks."""


# -- solving --------------------------------------------------------------------------------------


class TooManyStatesError(GameError):
    """The game has more reachable states than ``max_states`` allows.

    ``states_seen`` holds how many states were found before the search gave up.
    """

    def __init__(self, message: str, states_seen: int) -> None:
        super().__init__(message)
        self.states_seen = states_seen


class CycleError(GameError):
    """The game can return to a state it has been in and does not declare ``endless_value``."""


class InconsistentEndlessError(GameError, ValueError):
    """Endless values that change along a cycle: endless play there has no single score.

    ``nodes`` holds the graph's node numbers on such a cycle (:mod:`solver.retrograde`).
    """

    def __init__(self, message: str, nodes: list[int]) -> None:
        super().__init__(message)
        self.nodes = nodes


class UnknownStateError(GameError, LookupError):
    """A state that is not among the solved ones (not reachable from the solved root)."""


# -- matches --------------------------------------------------------------------------------------


class AgentError(GameError, ValueError):
    """An agent spec that names no agent, or an agent that cannot play where it was asked to."""


# -- diagrams -------------------------------------------------------------------------------------


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


class UnreadableError(VizError, ValueError):
    """The picture would be too large to read; the message says how large and what shrinks it.

    Attributes:
        inches: the picture's natural (width, height) in inches.
        shrink: what would shrink it: ``depth``, ``collapse``, ``transpositions``,
            ``fold_symmetries``, ``boards`` (drawing without them), ``large`` (asking for it).
    """

    def __init__(
        self, message: str, inches: tuple[float, float], shrink: tuple[str, ...] = ()
    ) -> None:
        super().__init__(message)
        self.inches = inches
        self.shrink = shrink


class UnknownFormatError(VizError, ValueError):
    """An output format (or file suffix) the visualiser cannot write; the message lists them."""


class GraphvizNotFoundError(VizError, RuntimeError):
    """Graphviz's ``dot`` program is needed (for SVG, PNG or PDF) and is not installed."""


class GraphvizFailedError(VizError, RuntimeError):
    """Graphviz's ``dot`` program ran and failed (the message quotes the start of its stderr)."""


# -- proofs --------------------------------------------------------------------------------------


class CertificateError(GameError, ValueError):
    """A proof certificate that does not prove what it claims: unreadable, of another game, or
    with a move, a leaf or a cycle that does not hold (the message names the position)."""


# -- output files ---------------------------------------------------------------------------------


class OutputError(GameError, OSError):
    """An output path that cannot be written, or an existing file that may not be replaced."""
