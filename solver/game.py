"""The Game protocol, its optional capabilities and players (errors: :mod:`solver.errors`).

Assumes two players, zero-sum, perfect information; deterministic unless the game declares
chance moves (:class:`HasChance`: outcomes with exact probabilities, as dice). A game is a stateless
rulebook over immutable, hashable states; names follow AIMA 4e (and OpenSpiel where they meet).
Every value is from player 0's (MAX's) point of view.

>>> from games import load_game
>>> game = load_game("textbook", tree=[[3, 12], [2, 4]])
>>> state = apply(game, game.initial_state(), 1)
>>> game.to_move(state), list(game.actions(state))
(1, [0, 1])
>>> apply(game, state, 7)
Traceback (most recent call last):
...
solver.errors.IllegalActionError: illegal action 7 in ...; legal: 0, 1
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeAlias, TypeVar, cast, runtime_checkable

import attrs

if TYPE_CHECKING:
    from solver.compiled import CompiledRules
    from solver.node_search import Limits, NodeSearch
    from solver.results import SearchRequest
    from solver.workers import Mapper

from solver.capabilities import has_capability
from solver.errors import (
    CapabilityError,
    GameError,
    IllegalActionError,
    InvalidStateError,
    NotAGameError,
    UnknownGameError,
)
from solver.quoting import quote

__all__ = [
    "GAME_METHODS",
    "MAX",
    "MIN",
    "BoardCells",
    "CapabilityError",
    "EndgameTablebase",
    "Game",
    "GameError",
    "GuidingOracle",
    "HasActionNotation",
    "HasBoardCells",
    "HasCellEditing",
    "HasChance",
    "HasCompiledRules",
    "HasCompiledSearch",
    "HasEndlessValue",
    "HasEvaluate",
    "HasKey",
    "HasMistakeSizes",
    "HasMoveSteps",
    "HasOpeningBook",
    "HasPits",
    "HasPlayerNames",
    "HasPositionCount",
    "HasPositionFields",
    "HasProofSearch",
    "HasPseudoActions",
    "HasRender",
    "HasScore",
    "HasStateCheck",
    "HasStateNotation",
    "HasSymmetries",
    "HasTablebase",
    "HasTablebaseBuilds",
    "HasUtilityBounds",
    "IllegalActionError",
    "InvalidStateError",
    "MistakeSizes",
    "MoveStep",
    "NotAGameError",
    "Player",
    "Probability",
    "TablebasePlanner",
    "UnknownGameError",
    "apply",
    "checked_game",
    "checked_state",
    "format_action",
    "format_state",
    "mistake_sizes",
    "other",
    "parse_action",
    "parse_state",
    "player_label",
    "player_name",
    "state_key",
]

Player: TypeAlias = int
"""0 = MAX, who moves first; 1 = MIN."""

MAX: Final[Player] = 0
MIN: Final[Player] = 1

Probability: TypeAlias = Fraction | float | int
"""The probability of a chance outcome: a ``fractions.Fraction`` (exact), a float, or 0/1."""

S = TypeVar("S")
A = TypeVar("A")
S_co = TypeVar("S_co", covariant=True)


class Game(Protocol[S, A]):
    """The rulebook every game module implements.

    ``actions`` returns the legal moves in a fixed order and is empty iff the state is terminal.
    ``result`` returns a new state, never mutates, and does not check legality (see :func:`apply`).
    ``utility`` is the terminal value from player 0's point of view.
    """

    name: str

    def initial_state(self) -> S: ...

    def to_move(self, state: S) -> Player: ...

    def actions(self, state: S) -> Sequence[A]: ...

    def result(self, state: S, action: A) -> S: ...

    def is_terminal(self, state: S) -> bool: ...

    def utility(self, state: S) -> float: ...


@runtime_checkable
class HasEvaluate(Protocol):
    """A heuristic value for non-terminal states at the search horizon, player 0's view."""

    def evaluate(self, state: Any) -> float: ...


@runtime_checkable
class HasEndlessValue(Protocol):
    """The score of play that repeats for ever through ``state`` (player 0's point of view).

    It must be constant along any cycle of the game (every state a play can return to from
    ``state`` gets the same value), so an endless play has one score. With it,
    :func:`solver.solve.solve` solves games that cycle, and a match ended by a repeated position
    is scored the same way, so solved values and played-out repetitions agree. Ayòayò: the
    seeds captured so far, ``captured[0] - captured[1]`` (no capture happens inside a cycle).
    """

    def endless_value(self, state: Any) -> float: ...


@runtime_checkable
class HasChance(Protocol):
    """States where chance moves, not a player: a roll of dice, a card dealt (AIMA 4e §5.5).

    ``is_chance(state)`` is True at such a state. There ``chance_outcomes(state)`` lists each
    outcome with its probability, ``(outcome, p)``, in a fixed order: every ``p`` > 0 and they
    sum to 1 (exactly, when every ``p`` is a ``Fraction`` or an int; within 1e-9 when one is a
    float). ``actions(state)`` lists the same outcomes in the same order (so anything that walks
    a game walks through chance too) and ``result(state, outcome)`` is the state after it; a
    chance state is never terminal, and ``to_move`` there names the player whose turn the
    outcome decides (no search uses it). Searches that assume a deterministic game refuse a
    game with this capability (:func:`solver.chance.refuse_chance`); the expectiminimax
    searches (:mod:`solver.expectiminimax`) and :func:`solver.solve.solve` take expectations.
    """

    def is_chance(self, state: Any) -> bool: ...

    def chance_outcomes(self, state: Any) -> Sequence[tuple[Any, Probability]]: ...


@runtime_checkable
class HasUtilityBounds(Protocol):
    """Every utility (and evaluation) lies in ``[lo, hi]`` = ``utility_bounds()``.

    What lets *-minimax (:func:`solver.expectiminimax.star1`) prune at chance nodes: with the
    values bounded, the outcomes not yet searched can move an expectation only so far. Monte
    Carlo tree search (:mod:`solver.mcts`) scales its exploration to the same span, and its
    solver proves a node as soon as one move reaches the best possible outcome (tic-tac-toe: a
    win, ``(-1, 1)``), as Winands et al.'s MCTS-Solver does.
    """

    def utility_bounds(self) -> tuple[float, float]: ...


@runtime_checkable
class HasKey(Protocol):
    """A cheap hashable key identifying a state (for tables); default: the state itself."""

    def key(self, state: Any) -> Hashable: ...


@runtime_checkable
class HasPseudoActions(Protocol):
    """Engine-facing move generation that defers the proof of legality (optional, for speed).

    For games where proving a move legal costs as much as playing it (Ayòayò: a sowing that
    never ends is illegal), as chess engines generate pseudo-legal moves. ``actions`` stays the
    exact list; a search may use these two instead, exactly:

    * ``pseudo_actions(state)``: candidate moves, a superset of ``actions(state)`` listed in the
      same relative order; empty only if the state is terminal.
    * ``try_result(state, action)``: for a candidate, ``result(state, action)`` when the action
      is legal, else None.

    So a state is terminal iff ``try_result`` is None for every candidate.
    """

    def pseudo_actions(self, state: Any) -> Sequence[Any]: ...

    def try_result(self, state: Any, action: Any) -> Any: ...


@runtime_checkable
class HasCompiledSearch(Protocol):
    """A compiled node search of the game's own, which the engine's one driver runs.

    ``compiled_search(request, limits)`` returns a :class:`~solver.node_search.NodeSearch`
    ready to search (its kernel loaded, or compiled once, before it returns: the search's clock
    starts after), honouring ``request`` (a :class:`~solver.results.SearchRequest`: its table
    size, its oracle, its limits through ``limits``) so that the driver's answers equal those
    over the Python node search: the same values at every depth, the same optimal move sets
    and exactness. It returns None for a request it cannot serve (an oracle it cannot probe, a
    search to the end, the kernel unavailable), and the Python node search runs instead. The
    engine asks only when there is no observer and the evaluation is the game's own.
    """

    def compiled_search(self, request: SearchRequest, limits: Limits) -> NodeSearch | None: ...

    def compile_kernels(self) -> float | None:
        """Load every compiled kernel now, compiling (once) what is not cached: the seconds
        spent compiling (0.0 when all came from the cache), None when there are none to use."""
        ...


@runtime_checkable
class HasCompiledRules(Protocol):
    """The game's rules as numba-compilable functions over a fixed-size integer position
    (:class:`solver.compiled.CompiledRules`): the engine compiles its one generic node search
    against them (:mod:`solver.compiled`), keeps it on disk, and runs it under its driver when
    numba is there, there is no observer, the evaluation is the game's own and any oracle is
    one the rules can read (``CompiledRules.oracle_data``)."""

    def compiled_rules(self) -> CompiledRules: ...


@runtime_checkable
class HasRender(Protocol):
    """A multi-line text picture of a state."""

    def render(self, state: Any) -> str: ...


@runtime_checkable
class HasStateNotation(Protocol):
    """A one-line text notation for states; ``parse_state(format_state(s)) == s``."""

    def parse_state(self, text: str) -> Any: ...

    def format_state(self, state: Any) -> str: ...


@runtime_checkable
class HasActionNotation(Protocol):
    """A text notation for actions in a given state."""

    def parse_action(self, state: Any, text: str) -> Any: ...

    def format_action(self, state: Any, action: Any) -> str: ...


@runtime_checkable
class HasSymmetries(Protocol):
    """The states equivalent to ``state`` (including itself) under the game's symmetries."""

    def symmetries(self, state: Any) -> Iterable[Any]: ...


@runtime_checkable
class HasPlayerNames(Protocol):
    """What the game calls its players, e.g. ``("X", "O")``; default ``("MAX", "MIN")``."""

    player_names: tuple[str, str]


@runtime_checkable
class HasPositionFields(Protocol):
    """Positions hold named fields beside the board that a user may give (e.g. captured seeds).

    ``position_fields`` maps each field's name to a one-line description. ``position_from``
    builds a position from the game's notation (None for the start) with the named fields set,
    and checks them together with the rest (e.g. that the seeds add up), raising
    :class:`InvalidStateError` otherwise. The command line's ``--captured`` and ``--to-move``
    go through it.
    """

    position_fields: Mapping[str, str]

    def position_from(self, text: str | None, **fields: Any) -> Any: ...


class EndgameTablebase(Protocol):
    """Exact values of endgame positions, read from files built ahead of time.

    ``probe(state)`` gives the exact game value (player 0's view) of a covered position, else
    None; calling the tablebase does the same, so the tablebase itself is what
    :func:`solver.engine.search` takes as its ``oracle`` (a :class:`GuidingOracle`, which a
    game's compiled search may probe inside its kernel). ``preferred_action(state)``
    gives a move of a covered position that keeps its value *and* makes progress (in a game
    that cycles, some value-keeping moves may only go round), None elsewhere.
    ``action_values(state)`` gives each legal move's exact value, or None unless every child is
    covered. ``levels`` says
    what is built (empty: nothing to probe); ``build`` builds the missing parts up to a size
    (``progress`` gets a line of text as each part starts and ends); ``info`` gives a row of
    plain data per part built.
    """

    directory: Path

    @property
    def levels(self) -> tuple[int, ...]: ...

    def probe(self, state: Any) -> float | None: ...

    def __call__(self, state: Any) -> float | None: ...

    def preferred_action(self, state: Any) -> Any: ...

    def action_values(self, state: Any) -> Mapping[Any, float] | None: ...

    def build(
        self,
        up_to: int,
        *,
        executor: Mapper | None = None,
        progress: Callable[[str], None] | None = None,
    ) -> Sequence[Any]: ...

    def info(self) -> list[dict[str, Any]]: ...


@runtime_checkable
class GuidingOracle(Protocol):
    """An oracle (exact values of covered positions) that also says how to reach them.

    Called as ``oracle(state)`` it is a search's ``oracle`` (the exact value, player 0's view,
    else None). ``preferred_action(state)`` gives a move of a covered position that keeps its
    value *and* makes progress (in a game that cycles, some value-keeping moves only go round),
    None elsewhere. With it, :func:`solver.engine.search` follows the oracle's play to the end
    of the game: each move's plies, which values are reached only by endless play, and a
    principal variation that ends at the end or says where it repeats. An endgame tablebase
    (:class:`EndgameTablebase`) is one.
    """

    def __call__(self, state: Any) -> float | None: ...

    def preferred_action(self, state: Any) -> Any: ...


@runtime_checkable
class ProofSearch(Protocol):
    """Settles exact values by proof (only what it proved, never a horizon's guess).

    ``value(state, guess=, time_limit=)`` gives the bounds proved (``lower``, ``upper``,
    ``value`` when they meet, ``nodes``, ``seconds``, ``depth``); ``certificate(state, result)``
    the two solution graphs of a proved value (:class:`solver.certificate.Certificate`), which
    :func:`solver.certificate.verify` checks with the rules alone; ``save()`` writes its
    checkpoint now; ``settled`` lists the threshold tests settled so far (each a dict) and
    ``proved_positions()`` counts the positions proved so far.
    """

    settled: list[dict[str, Any]]

    def proved_positions(self) -> int: ...

    def value(
        self, state: Any, *, guess: int | None = None, time_limit: float | None = None
    ) -> Any: ...

    def certificate(self, state: Any, result: Any) -> Any: ...

    def save(self) -> None: ...


@runtime_checkable
class HasProofSearch(Protocol):
    """A proof search of the game's own (weak solving with certificates, see
    docs/solving.md): ``prover(tablebase, ...)`` with an endgame tablebase's levels as exact
    leaves (None: none), a table of ``table_size`` entries, ``progress`` told a line per settled
    step, proved positions checkpointed in ``checkpoint`` (a folder) and read back from it,
    ``stop`` asked between steps whether to stop, ``watch`` told how far a running step is about
    once a second (its ``x``, ``depth``, ``nodes``, ``seconds``, ``rate``, ``proved``
    positions, ``root_settled`` of ``root_moves``, settled ``tests``), and ``mapper`` (a
    :class:`solver.workers.Mapper`: worker processes or a cluster) running parts of the proof
    as tasks (None: all in this process)."""

    def prover(
        self,
        tablebase: EndgameTablebase | None,
        *,
        table_size: int | None = None,
        progress: Callable[[str], None] | None = None,
        checkpoint: str | os.PathLike[str] | None = None,
        stop: Callable[[], bool] | None = None,
        watch: Callable[[Any], None] | None = None,
        mapper: Any = None,
    ) -> ProofSearch: ...


@runtime_checkable
class HasOpeningBook(Protocol):
    """Exact values of opening positions that the game's proofs settled, shipped with the game
    (:class:`solver.book.OpeningBook`): ``opening_book(tablebase)`` gives the book when it can
    be trusted beside ``tablebase`` (the levels it was proved with, checked by their lineage),
    else None."""

    def opening_book(self, tablebase: EndgameTablebase | None) -> Any: ...


@runtime_checkable
class HasTablebase(Protocol):
    """An endgame tablebase the game can build and read (``directory`` None: its default)."""

    def tablebase(self, directory: str | os.PathLike[str] | None = None) -> EndgameTablebase: ...


@runtime_checkable
class HasScore(Protocol):
    """What each player has banked so far (e.g. captured seeds), as ``(player 0, player 1)``.

    Shown beside the moves of a game being played and in the leaves of a drawn tree.
    """

    def score(self, state: Any) -> tuple[int, int]: ...


@runtime_checkable
class HasPositionCount(Protocol):
    """How many positions are reachable from the start, when the game knows it.

    ``position_count()`` gives the number (None: not known for these options). The command line
    quotes it when it refuses a search to the end that is out of reach (``gamesolver best``);
    Connect Four's standard 7x6 board has 4,531,985,219,092 (Tromp).
    """

    def position_count(self) -> int | None: ...


@attrs.frozen
class MistakeSizes:
    """How much a move must lose to be a mistake, in the game's own units (a review's marks).

    Attributes:
        unit: what the values count, plural (``"seeds"``).
        inaccuracy: a move losing this much or more is marked ``?!`` (Ayòayò: 4, one capture).
        mistake: a move losing this much or more is marked ``?`` (Ayòayò: 8, two captures).

    >>> MistakeSizes("seeds", 4, 8).mistake
    8
    """

    unit: str
    inaccuracy: float
    mistake: float


@runtime_checkable
class HasMistakeSizes(Protocol):
    """The game's values (its evaluation too) are margins in a unit, and this much is a mistake.

    ``mistake_sizes()`` gives the :class:`MistakeSizes` (None: the values are no margins). A
    game without them, or whose values only say who wins, has a mistake only where a move
    changes a proved result (``gamesolver review``).
    """

    def mistake_sizes(self) -> MistakeSizes | None: ...


def mistake_sizes(game: object) -> MistakeSizes | None:
    """The game's :class:`MistakeSizes`, or None when its values are no margins.

    >>> from games import load_game
    >>> mistake_sizes(load_game("ayoayo")), mistake_sizes(load_game("tictactoe"))
    (MistakeSizes(unit='seeds', inaccuracy=4, mistake=8), None)
    """
    return game.mistake_sizes() if isinstance(game, HasMistakeSizes) else None


@attrs.frozen
class BoardCells:
    """A position as a grid of short cell texts, for drawing a board inside a tree node.

    Attributes:
        rows: equal-length rows of cell texts (``"x"``, ``"o"``, ``""`` for empty, a number).
        labels: a short name before each row, or ``()``.
        notes: a note after each row (e.g. ``"captured 4"``), or ``()``.
        header: the column numbers (the cells' names in move notation), or ``()``.
        caption: one line under the grid (e.g. who moves), or ``""``.
    """

    rows: tuple[tuple[str, ...], ...]
    labels: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    header: tuple[str, ...] = ()
    caption: str = ""


@runtime_checkable
class HasBoardCells(Protocol):
    """The position as a :class:`BoardCells` grid; diagrams draw it instead of reading the
    ``render`` text."""

    def board_cells(self, state: Any) -> BoardCells: ...


# What the front ends (the command line and the board) ask of a game beyond its rules: how
# the board draws it, a move shown step by step, how its tablebase is built and planned. A
# front end tests these capabilities, never a game's name or class.


@runtime_checkable
class HasPits(Protocol):
    """A mancala board: one row of pits a player, the stores being the game's score.

    ``pits(state)`` gives each row's seed counts, ``(row 0, row 1)``, row ``p`` being player
    ``p``'s, its cells numbered from 0; ``pit_of(state, action)`` is the ``(row, cell)`` a move
    empties. Seeds travel counter-clockwise: along row 0 from its last cell down to cell 0,
    then along row 1 from cell 0 up. The board draws such a game as two rows of pits with a
    store at each end (:class:`HasScore` gives the stores); ``gamesolver play --seat`` draws it
    from the player's side. Any other game with :class:`HasBoardCells` is drawn as its grid.
    """

    def pits(self, state: Any) -> tuple[tuple[int, ...], tuple[int, ...]]: ...

    def pit_of(self, state: Any, action: Any) -> tuple[int, int]: ...


@runtime_checkable
class HasCellEditing(Protocol):
    """A position set cell by cell on the grid :class:`HasBoardCells` draws (the board's grid
    editor).

    ``cell_marks`` are what a cell may hold besides empty (``""``), e.g. ``("x", "o")``;
    ``position_from_cells(rows)`` is the position whose grid is ``rows`` (the player to move
    found from it), raising :class:`InvalidStateError` that names what no game reaches.
    """

    cell_marks: tuple[str, ...]

    def position_from_cells(self, rows: Sequence[Sequence[str]]) -> Any: ...


@attrs.frozen
class MoveStep:
    """One step of a move shown step by step, on the cells of the drawn board.

    ``kind`` is ``"pick"`` (the hand takes all ``count`` pieces of ``cell``), ``"drop"`` (one
    piece into ``cell``, which then holds ``count``), ``"capture"`` (the ``count`` pieces of
    ``cell`` go to player ``by``'s store) or ``"sweep"`` (the game is over and player ``by``
    takes the ``count`` left in ``cell``). ``cell`` is ``(row, cell)`` as :class:`HasPits`
    numbers them.
    """

    kind: str
    cell: tuple[int, int]
    count: int
    by: Player | None = None

    def to_json(self) -> dict[str, Any]:
        """The step as plain data for the board page."""
        out: dict[str, Any] = {"kind": self.kind, "row": self.cell[0], "cell": self.cell[1]}
        out["seeds"] = self.count
        if self.by is not None:
            out["by"] = self.by
        return out


@runtime_checkable
class HasMoveSteps(Protocol):
    """A move that can be shown step by step (Ayòayò's sowing: every pick-up, seed dropped,
    capture and the end sweep), for the board's animation and ``play``'s account of a move.

    ``move_steps(state, action)`` gives the :class:`MoveStep` list of a legal ``action``; the
    steps lead to ``result(state, action)`` (the game checks it) and raise
    :class:`IllegalActionError` for an illegal one.
    """

    def move_steps(self, state: Any, action: Any) -> Sequence[MoveStep]: ...


class TablebasePlanner(Protocol):
    """What building a game's tablebase costs, level by level (``gamesolver tablebase plan``).

    ``measured(directory)`` lists the levels built there with their build times;
    ``slowdown(found)`` how much the throughput falls a level up; ``plan(up_to, rate=,
    memory=, at=, fall=)`` a row a level (``seeds``, ``positions``, ``level_bytes``,
    ``scratch_bytes``, ``partitions``, ``worker_memory``, ``core_hours``); ``totals(rows)``
    their sums; ``check(found)`` each measured level's seconds as predicted from the one below,
    ``(seeds, predicted, measured)``; ``DEFAULT_RATE`` positions per core-second when nothing
    was measured.
    """

    @property
    def DEFAULT_RATE(self) -> float: ...

    def measured(self, directory: str | os.PathLike[str]) -> Sequence[Any]: ...

    def slowdown(self, levels: Sequence[Any]) -> float: ...

    def plan(
        self, up_to: int, *, rate: float, memory: int, at: int = 0, fall: float = 1.0
    ) -> Sequence[Any]: ...

    def totals(self, rows: Sequence[Any]) -> dict[str, float]: ...

    def check(self, levels: Sequence[Any]) -> list[tuple[int, float, float]]: ...


@runtime_checkable
class HasTablebaseBuilds(Protocol):
    """How a game's tablebase (:class:`HasTablebase`) is built out of core and planned.

    ``out_of_core_builder(root, memory=, checkpoints=, client=)`` gives what
    :meth:`EndgameTablebase.build` takes as ``out_of_core``: a builder of each level in
    partitions under ``root`` within ``memory`` bytes, checkpointing between its rounds when
    ``checkpoints`` is true, its work on a Dask ``client`` when given; it raises
    :class:`CapabilityError` when it cannot build so (e.g. without its compiled kernel).
    ``tablebase_planner()`` gives its :class:`TablebasePlanner`.
    """

    def out_of_core_builder(
        self, root: Path, *, memory: int | None, checkpoints: bool, client: Any = None
    ) -> Any: ...

    def tablebase_planner(self) -> TablebasePlanner: ...


def other(player: Player) -> Player:
    """The opponent of ``player``.

    >>> other(0), other(1)
    (1, 0)
    """
    return 1 - player


def player_name(player: Player) -> str:
    """``"MAX"`` for player 0, ``"MIN"`` for player 1.

    >>> player_name(1)
    'MIN'
    """
    return "MAX" if player == MAX else "MIN"


def player_label(game: object, player: Player) -> str:
    """The game's name for ``player`` (its ``player_names``), else ``"MAX"``/``"MIN"``.

    >>> from games import load_game
    >>> player_label(load_game("tictactoe"), 1), player_label(load_game("textbook"), 1)
    ('O', 'MIN')
    """
    if isinstance(game, HasPlayerNames):
        return game.player_names[player]
    return player_name(player)


def state_key(game: Game[S, A], state: S) -> Hashable:
    """The game's ``key(state)`` if it has one, else the state itself."""
    if isinstance(game, HasKey):
        return game.key(state)
    return state


def format_state(game: Game[S, A], state: S) -> str:
    """The state in the game's notation, or ``repr`` when the game has none."""
    if isinstance(game, HasStateNotation):
        return game.format_state(state)
    return repr(state)


def parse_state(game: Game[S, A], text: str) -> S:
    """Parse ``text`` in the game's state notation.

    Raises:
        CapabilityError: the game has no state notation.
        InvalidStateError: the text is not a valid state (raised by the game).
    """
    if not isinstance(game, HasStateNotation):
        raise CapabilityError(f"game {game.name!r} has no text notation for positions")
    return game.parse_state(text)  # type: ignore[no-any-return]


def format_action(game: Game[S, A], state: S, action: A) -> str:
    """The action in the game's notation, or ``str`` when the game has none."""
    if isinstance(game, HasActionNotation):
        return game.format_action(state, action)
    return str(action)


def parse_action(game: Game[S, A], state: S, text: str) -> A:
    """Parse ``text`` as a legal action in ``state``.

    Uses the game's ``parse_action`` when it has one; otherwise matches ``text`` against the
    formatted legal actions.

    Raises:
        IllegalActionError: the text names no legal action; the message lists the legal ones.
        InvalidStateError: ``state`` is not a state of ``game``.
    """
    state = checked_state(game, state, "parse_action")
    legal = list(game.actions(state))
    if isinstance(game, HasActionNotation):
        action: A = game.parse_action(state, text)
        return apply_check(game, state, action, legal)
    for candidate in legal:
        if format_action(game, state, candidate) == text.strip():
            return candidate
    raise IllegalActionError(_illegal_message(game, state, text, legal))


@runtime_checkable
class HasStateCheck(Protocol):
    """``check_state(state)`` raises :class:`InvalidStateError` naming what is wrong with a
    value given as a state of this game (of another game, the wrong length, a player that is
    not 0 or 1); the checked entry points call it once, never the inner loops."""

    def check_state(self, state: Any) -> None: ...


GAME_METHODS: Final = ("initial_state", "to_move", "actions", "result", "is_terminal", "utility")
"""The methods of the :class:`Game` protocol, which a value must have to be taken as a game."""


def checked_game(game: object, who: str) -> None:
    """Raise :class:`NotAGameError` unless ``game`` has the Game protocol's methods.

    >>> checked_game("ayoayo", "search")
    Traceback (most recent call last):
    ...
    solver.errors.NotAGameError: search needs a game object as its first argument, got \
'ayoayo' (a str); load one with games.load_game('ayoayo')
    """
    missing = [m for m in GAME_METHODS if not callable(getattr(game, m, None))]
    if missing:
        hint = f"games.load_game({game!r})" if isinstance(game, str) else "games.load_game(NAME)"
        raise NotAGameError(
            f"{who} needs a game object as its first argument, got {quote(game)} (a "
            f"{type(game).__name__}); load one with {hint}"
        )


def checked_state(game: Game[S, A], state: object, who: str) -> S:
    """``state`` (None: the game's initial state) once it is known to be a state of ``game``:
    hashable, and passing the game's own :meth:`HasStateCheck.check_state`.

    Raises:
        NotAGameError: ``game`` is not a game.
        InvalidStateError: ``state`` is not a state of ``game``; the message names it.
    """
    checked_game(game, who)
    if state is None:
        return game.initial_state()
    try:
        hash(state)
    except TypeError:
        raise InvalidStateError(
            f"{who} needs a state of game {game.name!r}, got {quote(state)}, which is not "
            "hashable; states are immutable (tuples, not lists): use the game's "
            "parse_state or initial_state"
        ) from None
    if has_capability(game, HasStateCheck):
        game.check_state(state)
    return cast(S, state)


def apply(game: Game[S, A], state: S, action: A) -> S:
    """The checked way to make a move: ``game.result`` after verifying legality.

    Raises:
        IllegalActionError: ``action`` is not among ``game.actions(state)``; the message quotes
            the action, the position and the legal actions.
    """
    state = checked_state(game, state, "apply")
    return game.result(state, apply_check(game, state, action, list(game.actions(state))))


def apply_check(game: Game[S, A], state: S, action: A, legal: Sequence[A]) -> A:
    """Return ``action`` if it is in ``legal``, else raise :class:`IllegalActionError`."""
    if action in legal:
        return action
    raise IllegalActionError(_illegal_message(game, state, action, legal))


def _illegal_message(game: Game[S, A], state: S, action: object, legal: Sequence[A]) -> str:
    where = format_state(game, state)
    if not legal:
        return f"illegal action {action!r} in {where}: the game is over, no move is legal"
    names = ", ".join(format_action(game, state, a) for a in legal)
    return f"illegal action {action!r} in {where}; legal: {names}"
