"""Strong solving: every reachable state with its exact value, optimal actions and plies to the end.

Assumes two players, zero-sum, perfect information, and a reachable graph small enough to hold
in memory. A game with chance moves (:class:`solver.game.HasChance`) is solved when it cannot
cycle: a chance state's value is the expectation of its outcomes' values (exact with
``Fraction`` probabilities), it has no optimal actions, and its plies are the most any outcome
leads to under optimal play. Values are from player 0's (MAX's) point of view. A game that can
return to a state it has been in (that *cycles*) is solved when it declares the score of endless
play (:class:`solver.game.HasEndlessValue`); without it a cycle is a :class:`CycleError`.

:func:`solve` numbers each reachable state the first time it meets it (through a table keyed by
the game's ``key``, so transpositions are met once) and keeps compact arrays indexed by state
number: the children of each state in ``actions`` order (CSR), values and plies. A state is
terminal when it has no actions, so ``is_terminal`` is not called; a game with
``pseudo_actions``/``try_result`` (:class:`solver.game.HasPseudoActions`) has each move made
once.

- A game without ``endless_value`` is walked depth first with an explicit stack (so no Python
  recursion limit applies), and each state's value is backed up when its last child is done
  (backward induction). A child still on the walk's path closes a cycle: :class:`CycleError`.
- A game with ``endless_value`` may cycle: it is walked breadth first (no deep stack), then
  :func:`solver.retrograde.solve_graph` solves the graph by retrograde analysis, scoring a play
  that never ends by its endless value.

Per state the solution gives the value, the optimal actions (every action whose result keeps
the value) and the plies to the end under optimal play, following
:func:`solver.results.ply_preference` among the optimal actions: a winner heads for the quickest
end, a loser or drawer for the slowest (where a drawer could drag a draw out round a cycle, the
quickest end). Plies are None where the value is reached only by endless play
(:meth:`Solution.endless`). In a game that cycles, a winner who picks any value-keeping action
each turn may go round a cycle for ever; picking one whose result has fewer plies wins.

>>> from games import load_game
>>> solution = solve(load_game("textbook", tree=[[3, 12], [2, 4]]))
>>> len(solution), solution.root_value, solution.best_actions(())
(7, 3, (0,))
>>> solution.counts.terminal, solution.counts.wins, solution.plies(())
(4, 4, 2)
"""

from __future__ import annotations

import contextlib
import csv
import gc
import json
import os
import time
from array import array
from collections.abc import Callable, Hashable, Iterator
from fractions import Fraction
from typing import Any, Final, TypeVar

import attrs
import numpy as np
import numpy.typing as npt

from solver.chance import expectation, has_chance, is_chance, outcomes
from solver.errors import (
    CapabilityError,
    CycleError,
    GameError,
    InvalidOptionError,
    TooManyStatesError,
    UnknownStateError,
)
from solver.game import (
    Game,
    HasEndlessValue,
    HasKey,
    HasPseudoActions,
    HasSymmetries,
    Player,
    checked_state,
    format_action,
    format_state,
)
from solver.output import atomic_path
from solver.quoting import quote
from solver.resources import available_memory
from solver.retrograde import ENDLESS, InconsistentEndlessError, solve_graph
from solver.symmetry import canonical_key

__all__ = [
    "CycleError",
    "Solution",
    "SolveCounts",
    "StateRecord",
    "TooManyStatesError",
    "UnknownStateError",
    "solve",
]

S = TypeVar("S")
A = TypeVar("A")

PROGRESS_EVERY: Final = 8192
"""``progress`` is called each time this many more states have been seen (and at the end)."""


@attrs.frozen
class SolveCounts:
    """The figures of a solution.

    Attributes:
        states: reachable states, the root included.
        terminal: reachable terminal states.
        wins: terminal states whose utility is > 0 (player 0 has won).
        draws: terminal states whose utility is 0.
        losses: terminal states whose utility is < 0 (player 0 has lost).
        value: the root's value.
        seconds: the time the solve took.
        endless: states whose value is reached only by endless play (0 if the game cannot cycle).
    """

    states: int
    terminal: int
    wins: int
    draws: int
    losses: int
    value: float
    seconds: float
    endless: int = 0


@attrs.frozen
class StateRecord:
    """One solved state: who moves, its value, plies to the end, and every optimal action.

    ``plies`` is None where the value is reached only by endless play (see :attr:`endless`).
    """

    to_move: Player
    value: float
    plies: int | None
    best_actions: tuple[Any, ...]

    @property
    def terminal(self) -> bool:
        """True for a state where the game is over."""
        return self.plies == 0

    @property
    def endless(self) -> bool:
        """True where the value is reached only by endless play."""
        return self.plies is None


@attrs.frozen(eq=False, repr=False)
class Solution:
    """Every reachable state of a game with its value, optimal actions and plies to the end.

    States are looked up by the game's ``key``; iteration yields them in the order the solver
    met them (the root first; depth first, or breadth first for a game with ``endless_value``).
    Per state the solution holds a number, not an
    object: arrays indexed by state number keep values, plies and children.

    >>> from games import load_game
    >>> game = load_game("textbook", tree=[[3, 12], [2, 4]])
    >>> solution = solve(game)
    >>> solution.value((1,)), (1,) in solution, (5,) in solution
    (2, True, False)
    >>> [(game.format_state(s), r.value) for s, r in solution][:3]
    [('root', 3), ('0', 3), ('0.0', 3)]
    """

    game: Game[Any, Any]
    root: Any
    counts: SolveCounts
    _index: dict[Hashable, int]
    _states: list[Any]
    _values: npt.NDArray[Any]  # player 0's view; int64 when every value is an int
    _plies: npt.NDArray[np.int64]  # ENDLESS: the value is reached only by endless play
    _indptr: npt.NDArray[np.int64]  # the children of state i: _targets[_indptr[i]:_indptr[i+1]]
    _targets: npt.NDArray[np.int64]
    _key: Callable[[Any], Hashable] | None
    _chance: npt.NDArray[np.bool_] | None = None  # chance states, for a game with chance
    _symmetric: bool = False  # one state per symmetry class: the others are its images

    @property
    def root_value(self) -> float:
        """The value of the game from the root (player 0's point of view)."""
        return self.counts.value

    def __len__(self) -> int:
        return len(self._states)

    def __contains__(self, state: object) -> bool:
        try:
            return self._lookup_key(state) in self._index
        except TypeError:
            return False

    def __iter__(self) -> Iterator[tuple[Any, StateRecord]]:
        """Each state with its record, in the order the solver met them (the root first)."""
        for i, state in enumerate(self._states):
            yield state, self._make_record(i)

    def __repr__(self) -> str:
        return f"<Solution {self.game.name}: {len(self)} states, value {self.root_value!r}>"

    def states(self) -> Iterator[Any]:
        """Every solved state, in the order the solver met them (the root first)."""
        return iter(self._states)

    def value(self, state: Any) -> float:
        """The exact value of ``state`` (player 0's point of view).

        Raises:
            UnknownStateError: ``state`` is not reachable from the solved root.
        """
        return _item(self._values[self._number(state)])  # type: ignore[no-any-return]

    def plies(self, state: Any) -> int | None:
        """Plies to the end under optimal play from ``state`` (0 if it is over).

        None where the value is reached only by endless play (:meth:`endless`).
        """
        plies = int(self._plies[self._number(state)])
        return None if plies == ENDLESS else plies

    def endless(self, state: Any) -> bool:
        """True where the value of ``state`` is reached only by endless play.

        For a win, the winner cannot force an end that wins as much; for a loss, the winner
        cannot either; for a draw, no value-keeping line ends.
        """
        return bool(self._plies[self._number(state)] == ENDLESS)

    def best_actions(self, state: Any) -> tuple[Any, ...]:
        """Every action that keeps the value of ``state``, in ``actions`` order."""
        i = self._number(state)
        if self._symmetric and self._states[i] != state:  # an image of the state held
            return self._image_best_actions(i, state)
        best = self._best_indices(i)
        if not best:
            return ()
        actions = self.game.actions(state)
        return tuple(actions[j] for j in best)

    def record(self, state: Any) -> StateRecord:
        """Everything known about ``state``: who moves, value, plies, optimal actions."""
        i = self._number(state)
        if self._symmetric and self._states[i] != state:  # an image of the state held
            return attrs.evolve(
                self._make_record(i), best_actions=self._image_best_actions(i, state)
            )
        return self._make_record(i)

    def _image_best_actions(self, i: int, state: Any) -> tuple[Any, ...]:
        """The value-keeping actions of ``state``, an image of state ``i`` under a symmetry
        (a symmetry-reduced solution holds one state per class): its children looked up."""
        if self._chance is not None and self._chance[i]:
            return ()
        value = self._values[i]
        game = self.game
        return tuple(
            a
            for a in game.actions(state)
            if self._values[self._number(game.result(state, a))] == value
        )

    def to_json(self, path: str | os.PathLike[str], *, overwrite: bool = True) -> None:
        """Write the solution as JSON: the figures, then one record per state, one per line.

        Each record holds ``state`` (the game's notation), ``to_move``, ``value``, ``plies``
        (null where the value is reached only by endless play), ``best_actions`` (a list in
        the game's action notation) and ``endless``; an exact fraction's ``value`` is a float,
        with the fraction itself as text in ``exact_value`` (``"13/18"``). Records are written
        one at a time, so memory stays flat however many states there are. The file is written
        atomically (:mod:`solver.output`); ``overwrite=False`` refuses to replace one.
        """
        counts = attrs.asdict(self.counts)
        if isinstance(self.counts.value, Fraction):
            counts.update(value=float(self.counts.value), exact_value=str(self.counts.value))
        head = {"game": self.game.name, "root": format_state(self.game, self.root), **counts}
        with (
            atomic_path(path, overwrite=overwrite) as temporary,
            open(temporary, "w", encoding="utf-8") as out,
        ):
            out.write(json.dumps(head)[:-1] + ', "records": [\n')
            separator = ""
            for state, record in self._rows():
                row = {
                    "state": state,
                    "to_move": record.to_move,
                    "value": float(record.value)
                    if isinstance(record.value, Fraction)
                    else record.value,
                    "plies": record.plies,
                    "best_actions": list(record.best_actions),
                    "endless": record.endless,
                }
                if isinstance(record.value, Fraction):
                    row["exact_value"] = str(record.value)
                out.write(separator + json.dumps(row))
                separator = ",\n"
            out.write("\n]}\n")

    def to_csv(self, path: str | os.PathLike[str], *, overwrite: bool = True) -> None:
        """Write one CSV row per state: state, to_move, value, plies, best_actions, endless.

        States and actions are in the game's notation; ``best_actions`` are separated by spaces;
        ``plies`` is empty and ``endless`` True where the value is reached only by endless play.
        Written atomically like :meth:`to_json`.
        """
        with (
            atomic_path(path, overwrite=overwrite) as temporary,
            open(temporary, "w", encoding="utf-8", newline="") as out,
        ):
            writer = csv.writer(out)
            writer.writerow(["state", "to_move", "value", "plies", "best_actions", "endless"])
            for state, record in self._rows():
                best = " ".join(record.best_actions)
                plies = "" if record.plies is None else record.plies
                row = [state, record.to_move, record.value, plies, best, record.endless]
                writer.writerow(row)

    def _rows(self) -> Iterator[tuple[str, StateRecord]]:
        """Each state and its record in the game's text notation."""
        game = self.game
        for state, record in self:
            best = tuple(format_action(game, state, a) for a in record.best_actions)
            yield format_state(game, state), attrs.evolve(record, best_actions=best)

    def _lookup_key(self, state: Any) -> Hashable:
        return state if self._key is None else self._key(state)

    def _number(self, state: Any) -> int:
        try:
            return self._index[self._lookup_key(state)]
        except (KeyError, TypeError):
            raise UnknownStateError(
                f"unknown state {format_state(self.game, state)!r}: "
                f"it is not reachable from the solved root {format_state(self.game, self.root)!r}"
            ) from None

    def _best_indices(self, i: int) -> list[int]:
        """The indices (in ``actions`` order) of the value-keeping actions of state ``i``
        (none at a chance state: nobody chooses there)."""
        if self._chance is not None and self._chance[i]:
            return []
        children = self._targets[self._indptr[i] : self._indptr[i + 1]]
        keeps = self._values[children] == self._values[i]
        return np.flatnonzero(keeps).tolist()  # type: ignore[no-any-return]

    def _make_record(self, i: int) -> StateRecord:
        state = self._states[i]
        best = self._best_indices(i)
        actions = self.game.actions(state) if best else ()
        plies = int(self._plies[i])
        return StateRecord(
            to_move=self.game.to_move(state),
            value=_item(self._values[i]),
            plies=None if plies == ENDLESS else plies,
            best_actions=tuple(actions[j] for j in best),
        )


def solve(
    game: Game[S, A],
    state: S | None = None,
    *,
    max_states: int = 2_000_000,
    progress: Callable[[int], None] | None = None,
    symmetric: bool = False,
) -> Solution:
    """Solve ``game`` strongly from ``state``: every reachable state's exact value.

    Args:
        game: the rulebook; if it can cycle it must have ``endless_value``
            (:class:`solver.game.HasEndlessValue`).
        state: the root; None for ``game.initial_state()``.
        max_states: stop with :class:`TooManyStatesError` once more states than this are seen.
        progress: called with the number of states seen so far, every few thousand states.
        symmetric: one state per class of positions equivalent under the game's
            ``symmetries`` (:class:`~solver.game.HasSymmetries`), the first met; the others
            are looked up through it (their value and plies are its; their optimal moves
            are found through their children). The counts are then of classes. Ignored for a
            game without symmetries.

    Returns:
        The :class:`Solution`.

    Raises:
        TooManyStatesError: more than ``max_states`` reachable states.
        CycleError: a state is reachable from itself and the game has no ``endless_value``
            (the message names the state).
        GameError: ``endless_value`` is not constant along a cycle (the message names a state).
        InvalidOptionError: ``max_states`` is not a whole number >= 1 (a ValueError).
        NotAGameError: ``game`` is not a game.
        InvalidStateError: ``state`` is not a state of ``game``.

    >>> from games import load_game
    >>> solution = solve(load_game("textbook", tree=[[[5, 1], 2], [4]]))
    >>> solution.root_value, solution.best_actions(()), solution.plies(())
    (4, (1,), 2)
    """
    if isinstance(max_states, bool) or not isinstance(max_states, int) or max_states < 1:
        raise InvalidOptionError(
            f"invalid max_states {quote(max_states)}: use a whole number of states >= 1"
        )
    root = checked_state(game, state, "solve")
    start = time.perf_counter()

    def chance(s: Any) -> bool:
        return is_chance(game, s)

    key_of: Callable[[Any], Hashable] | None = game.key if isinstance(game, HasKey) else None
    symmetric = symmetric and isinstance(game, HasSymmetries)
    if symmetric:
        key_of = canonical_key(game, key_of)  # type: ignore[arg-type]
    if has_chance(game) and isinstance(game, HasEndlessValue):
        raise CapabilityError(
            f"solve cannot solve game {game.name!r}: it has chance moves and may cycle "
            "(endless_value); solve takes expectations only over games that cannot cycle"
        )
    with _collector_paused(), _memory_named("numbering the states"):
        if isinstance(game, HasEndlessValue):  # it may cycle: enumerate, then solve the graph
            graph = _walk_breadth_first(game, root, key_of, max_states, progress)
        else:  # backward induction as it walks, and a CycleError if it cycles
            graph = _walk_depth_first(game, root, key_of, max_states, progress)
    indptr, targets = graph.csr()
    if graph.solved:
        values = np.asarray(graph.values)
        exact = values.dtype.kind == "O" and all(isinstance(v, (int, Fraction)) for v in values)
        if values.dtype.kind not in "iuf" and not exact:  # exact fractions stay objects
            values = values.astype(np.float64)
        plies = np.asarray(graph.plies, dtype=np.int64)
    else:
        with _memory_named(f"solving {len(graph.states):,} states"):
            values, plies = _solve_graph(game, graph, indptr, targets)
    wins, draws, losses = graph.outcomes
    counts = SolveCounts(
        states=len(graph.states),
        terminal=len(graph.terminal_states),
        wins=wins,
        draws=draws,
        losses=losses,
        value=_item(values[0]),
        seconds=time.perf_counter() - start,
        endless=int(np.count_nonzero(plies == ENDLESS)),
    )
    return Solution(
        game,
        root,
        counts,
        graph.index,
        graph.states,
        values,
        plies,
        indptr,
        targets,
        key_of,
        np.fromiter(map(chance, graph.states), dtype=np.bool_) if has_chance(game) else None,
        symmetric,
    )


def _solve_graph(
    game: Game[Any, Any],
    graph: _Graph,
    indptr: npt.NDArray[np.int64],
    targets: npt.NDArray[np.int64],
) -> tuple[npt.NDArray[Any], npt.NDArray[np.int64]]:
    """Values (player 0's view) and plies of a graph that may cycle, by the retrograde core."""
    n = len(graph.states)
    to_move = np.fromiter(map(game.to_move, graph.states), dtype=np.int8, count=n)
    sign = np.where(to_move == 0, 1.0, -1.0)
    utilities = np.zeros(n)
    utilities[graph.terminal_states] = graph.utilities
    endless_value = game.endless_value  # type: ignore[attr-defined]
    endless = np.fromiter(map(endless_value, graph.states), dtype=np.float64, count=n)
    try:
        solved = solve_graph(
            indptr,
            targets,
            sign * endless,
            same_mover=to_move[np.repeat(np.arange(n), np.diff(indptr))] == to_move[targets],
            terminal_values=sign * utilities,
        )
    except InconsistentEndlessError as exc:
        where = format_state(game, graph.states[exc.nodes[0]])
        raise GameError(
            f"endless_value is not constant along a cycle through state {where!r}: "
            "endless play there has no single score"
        ) from None
    values: npt.NDArray[Any] = sign * solved.value
    if graph.integral and np.all(endless == np.round(endless)):
        values = values.astype(np.int64)  # ints in, ints out: a value 3 is reported as 3
    return values, solved.plies


@attrs.define
class _Graph:
    """The reachable graph as a walk builds it: compact arrays by state number."""

    index: dict[Hashable, int] = attrs.Factory(dict)
    states: list[Any] = attrs.Factory(list)
    indptr: array[int] = attrs.Factory(lambda: array("q", [0]))
    targets: array[int] = attrs.Factory(lambda: array("q"))  # the children of each state
    starts: array[int] | None = None  # where each state's children start, if not in order
    values: list[Any] = attrs.Factory(list)  # player 0's view, if backed up during the walk
    plies: list[int] = attrs.Factory(list)
    terminal_states: list[int] = attrs.Factory(list)
    utilities: list[Any] = attrs.Factory(list)  # of the terminal states, in the same order
    solved: bool = False  # values and plies were backed up during the walk
    integral: bool = True  # every utility an int

    @property
    def outcomes(self) -> tuple[int, int, int]:
        """Terminal states won by player 0, drawn, and lost."""
        u = np.asarray(self.utilities, dtype=np.float64)
        return int(np.sum(u > 0)), int(np.sum(u == 0)), int(np.sum(u < 0))

    def csr(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """``indptr`` and ``targets``: the children of state ``i`` in ``actions`` order are
        ``targets[indptr[i]:indptr[i + 1]]``."""
        indptr = np.frombuffer(self.indptr, dtype=np.int64)
        targets = np.frombuffer(self.targets, dtype=np.int64)
        if self.starts is not None:  # blocks written in another order: put them in state order
            starts = np.frombuffer(self.starts, dtype=np.int64)
            shift = np.repeat(starts - indptr[:-1], np.diff(indptr))
            targets = targets[shift + np.arange(len(shift))]
        return indptr, targets

    def add_terminal(self, i: int, utility: Any) -> None:
        """Record that state ``i`` is over, worth ``utility``."""
        self.terminal_states.append(i)
        self.utilities.append(utility)
        if self.integral and not isinstance(utility, int):
            self.integral = False


MEMORY_RESERVE: Final = 64 << 20
"""Memory kept free while a walk numbers states, besides what solving them will take."""
SOLVE_BYTES_PER_STATE: Final = 64
"""About what solving the numbered graph takes a state (its arrays), kept free for it."""


def _check_room(seen: int) -> None:
    """Stop the walk cleanly, at ``seen`` states, once the memory this process may still use
    (the machine's, its cgroup's, its address-space limit: :func:`available_memory`) is about
    to run out, instead of crawling on until an allocation fails somewhere inside.

    Raises:
        TooManyStatesError: saying so, with the states seen.
    """
    room = available_memory()
    if room is not None and room < MEMORY_RESERVE + SOLVE_BYTES_PER_STATE * seen:
        raise TooManyStatesError(
            f"solve stopped after {seen:,} states: it ran out of memory ({room / 1e6:,.0f} MB "
            "left of what this process may use); give it more memory (ulimit -v, the "
            "machine's), lower max_states or solve from a later position",
            seen,
        )


@contextlib.contextmanager
def _memory_named(step: str) -> Iterator[None]:
    """A MemoryError in ``step`` becomes a :class:`GameError` saying which step ran out."""
    try:
        yield
    except MemoryError:
        raise GameError(
            f"solve ran out of memory while {step}; give it more memory (ulimit -v, the "
            "machine's), lower max_states or solve from a later position"
        ) from None


def _too_many_states(seen: int, max_states: int) -> TooManyStatesError:
    return TooManyStatesError(
        f"solve saw {seen:,} states, more than max_states={max_states:,}; "
        "raise max_states or solve from a later position",
        seen,
    )


def _children_of(game: Game[Any, Any]) -> Callable[[Any], list[Any]]:
    """A function giving a state's children in ``actions`` order (none: it is terminal).

    Through ``pseudo_actions`` and ``try_result`` when the game has them (each move is made
    once), else ``actions`` and ``result``.
    """
    if isinstance(game, HasPseudoActions):
        pseudo_actions, try_result = game.pseudo_actions, game.try_result

        def by_trial(state: Any) -> list[Any]:
            children = [try_result(state, a) for a in pseudo_actions(state)]
            return [child for child in children if child is not None]

        return by_trial
    actions, result = game.actions, game.result
    return lambda state: [result(state, a) for a in actions(state)]


def _walk_breadth_first(
    game: Game[Any, Any],
    root: Any,
    key_of: Callable[[Any], Hashable] | None,
    max_states: int,
    progress: Callable[[int], None] | None,
) -> _Graph:
    """Number every state reachable from ``root`` breadth first, with its children (CSR).

    States are expanded in number order, so each state's children are written in order; the
    queue is the list of states itself.
    """
    children_of, utility = _children_of(game), game.utility
    graph = _Graph()
    states, targets, indptr, index = graph.states, graph.targets, graph.indptr, graph.index
    lookup, add_state, add_target, add_end = index.get, states.append, targets.append, indptr.append
    index[root if key_of is None else key_of(root)] = 0  # max_states is at least 1
    add_state(root)
    for i, state in enumerate(states):  # the list grows as the walk goes
        children = children_of(state)
        if not children:
            graph.add_terminal(i, utility(state))
        for child in children:
            key = child if key_of is None else key_of(child)
            j = lookup(key)
            if j is None:
                j = index[key] = len(states)
                if j >= max_states:
                    raise _too_many_states(j + 1, max_states)
                add_state(child)
                if (j + 1) % PROGRESS_EVERY == 0:
                    _check_room(j + 1)
                    if progress is not None:
                        progress(j + 1)
            add_target(j)
        add_end(len(targets))
    if progress is not None:
        progress(len(states))
    return graph


def _walk_depth_first(
    game: Game[Any, Any],
    root: Any,
    key_of: Callable[[Any], Hashable] | None,
    max_states: int,
    progress: Callable[[int], None] | None,
) -> _Graph:
    """Number every state reachable from ``root`` depth first (preorder), and solve it.

    A state's value and plies are backed up when its last child is done (backward induction),
    as :func:`solver.results.ply_preference` says, and its children written then (so the CSR
    blocks come in postorder, with ``starts``). A state without a value yet is on the walk's
    path, so a child without one closes a cycle: a :class:`CycleError`.
    """
    children_of, utility, to_move = _children_of(game), game.utility, game.to_move
    chance = has_chance(game)
    graph = _Graph(starts=array("q"), solved=True)
    states, values, plies = graph.states, graph.values, graph.plies
    indptr, targets, starts = graph.indptr, graph.targets, graph.starts
    assert starts is not None
    index = graph.index
    lookup = index.get
    # A frame: [state number, its children in actions order, their numbers so far].
    stack: list[list[Any]] = []
    edges = 0
    fresh, fresh_key = root, root if key_of is None else key_of(root)
    while True:
        if fresh_key is not None:  # a state met for the first time: number it, expand it
            i = index[fresh_key] = len(states)
            if i >= max_states:
                raise _too_many_states(i + 1, max_states)
            states.append(fresh)
            fresh_key = None
            if (i + 1) % PROGRESS_EVERY == 0:
                _check_room(i + 1)
                if progress is not None:
                    progress(i + 1)
            plies.append(0)
            values.append(None)
            starts.append(0)
            children = children_of(fresh)
            if children:
                stack.append([i, children, []])
                edges += len(children)
            else:
                u = values[i] = utility(fresh)
                graph.add_terminal(i, u)
            indptr.append(edges)
        if not stack:
            break
        frame = stack[-1]
        i, children, kids = frame
        j, n = len(kids), len(children)
        while j < n:  # number children until a new state turns up
            child = children[j]
            child_key = child if key_of is None else key_of(child)
            known = lookup(child_key)
            if known is None:  # a new state: it will be the next number
                kids.append(len(states))
                fresh, fresh_key = child, child_key
                break
            if values[known] is None:  # on the path: a cycle
                raise CycleError(
                    f"the game cycles: state {format_state(game, child)!r} is reachable "
                    "from itself; solve needs an acyclic game, or one that declares "
                    "endless_value (the score of endless play); else use a search with "
                    "a depth limit"
                )
            kids.append(known)
            j += 1
        else:  # every child is done: back the value up
            stack.pop()
            starts[i] = len(targets)
            targets.extend(kids)
            child_values = [values[k] for k in kids]
            player = to_move(states[i])
            if chance and is_chance(game, states[i]):  # the expectation; the longest outcome
                odds = (p for _, p in outcomes(game, states[i]))
                values[i] = expectation(zip(odds, child_values, strict=True))
                plies[i] = max(plies[k] for k in kids) + 1
                continue
            v = max(child_values) if player == 0 else min(child_values)
            if child_values.count(v) == 1:  # one optimal action: its plies
                ply = plies[kids[child_values.index(v)]]
            else:  # ply_preference: a winner takes the quickest end, others the slowest
                kept = [plies[k] for k, x in zip(kids, child_values, strict=True) if x == v]
                winning = v > 0 if player == 0 else v < 0
                ply = min(kept) if winning else max(kept)
            values[i] = v
            plies[i] = ply + 1
    if progress is not None:
        progress(len(states))
    return graph


def _item(value: Any) -> Any:
    """A value from the arrays as a Python number (exact fractions are stored as themselves)."""
    return value.item() if isinstance(value, np.generic) else value


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector (a walk makes millions of objects, all kept)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
