"""Strong solving: every reachable state with its exact value, optimal actions and plies to the end.

Assumes two players, zero-sum, deterministic, perfect information, and a game without cycles
(no state reachable from itself) small enough to hold every reachable state in memory. Values
are from player 0's (MAX's) point of view.

:func:`solve` walks the game graph depth-first from the root with an explicit stack (so no
Python recursion limit applies), meets each state once through a table keyed by the game's
``key`` (transpositions are solved once), and backs values up when a state's last child is done
(backward induction). A state is terminal when it has no actions (the protocol has ``actions``
empty exactly at terminal states), so ``is_terminal`` is not called. For each state it keeps only
three things: the value, the plies to the end
under optimal play, and the indices (in ``actions`` order) of the optimal actions, i.e. of every
action that keeps the value. Among those, the plies follow
:func:`solver.results.ply_preference`: a winner heads for the quickest end, a loser or drawer
for the slowest.

>>> from games import load_game
>>> solution = solve(load_game("textbook", tree=[[3, 12], [2, 4]]))
>>> len(solution), solution.root_value, solution.best_actions(())
(7, 3, (0,))
>>> solution.counts.terminal, solution.counts.wins, solution.plies(())
(4, 4, 2)
"""

from __future__ import annotations

import csv
import json
import os
import time
from collections.abc import Callable, Hashable, Iterator
from typing import Any, Final

import attrs

from solver.errors import CycleError, TooManyStatesError, UnknownStateError
from solver.game import (
    Game,
    HasKey,
    Player,
    format_action,
    format_state,
)

__all__ = [
    "CycleError",
    "Solution",
    "SolveCounts",
    "StateRecord",
    "TooManyStatesError",
    "UnknownStateError",
    "solve",
]

PROGRESS_EVERY: Final = 8192
"""``progress`` is called each time this many more states have been seen (and at the end)."""

_OPEN: Final = object()
"""The table's mark for a state on the current path: its value is not known yet."""

Record = tuple[Any, float, int, tuple[int, ...]]
"""What the table keeps per state: (state, value, plies to the end, optimal action indices)."""


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
    """

    states: int
    terminal: int
    wins: int
    draws: int
    losses: int
    value: float
    seconds: float


@attrs.frozen
class StateRecord:
    """One solved state: who moves, its value, plies to the end, and every optimal action."""

    to_move: Player
    value: float
    plies: int
    best_actions: tuple[Any, ...]

    @property
    def terminal(self) -> bool:
        """True for a state where the game is over."""
        return self.plies == 0


@attrs.frozen(eq=False, repr=False)
class Solution:
    """Every reachable state of a game with its value, optimal actions and plies to the end.

    States are looked up by the game's ``key``; iteration yields them in the order the solver
    met them (depth first, the root first).

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
    _table: dict[Hashable, Record]
    _key: Callable[[Any], Hashable] | None

    @property
    def root_value(self) -> float:
        """The value of the game from the root (player 0's point of view)."""
        return self.counts.value

    def __len__(self) -> int:
        return len(self._table)

    def __contains__(self, state: object) -> bool:
        return self._lookup_key(state) in self._table

    def __iter__(self) -> Iterator[tuple[Any, StateRecord]]:
        """Each state with its record, in the order the solver met them (the root first)."""
        for key in self._table:
            record = self._table[key]
            yield record[0], self._make_record(record)

    def __repr__(self) -> str:
        return f"<Solution {self.game.name}: {len(self)} states, value {self.root_value!r}>"

    def states(self) -> Iterator[Any]:
        """Every solved state, in the order the solver met them (the root first)."""
        for key in self._table:
            yield self._table[key][0]

    def value(self, state: Any) -> float:
        """The exact value of ``state`` (player 0's point of view).

        Raises:
            UnknownStateError: ``state`` is not reachable from the solved root.
        """
        return self._record(state)[1]

    def plies(self, state: Any) -> int:
        """Plies to the end of the game from ``state`` under optimal play (0 if it is over)."""
        return self._record(state)[2]

    def best_actions(self, state: Any) -> tuple[Any, ...]:
        """Every action that keeps the value of ``state``, in ``actions`` order."""
        record = self._record(state)
        if not record[3]:
            return ()
        actions = self.game.actions(state)
        return tuple(actions[i] for i in record[3])

    def record(self, state: Any) -> StateRecord:
        """Everything known about ``state``: who moves, value, plies, optimal actions."""
        return self._make_record(self._record(state))

    def to_json(self, path: str | os.PathLike[str]) -> None:
        """Write the solution as JSON: the figures, then one record per state, one per line.

        Each record holds ``state`` (the game's notation), ``to_move``, ``value``, ``plies`` and
        ``best_actions`` (a list in the game's action notation). Records are written one at a
        time, so memory stays flat however many states there are.
        """
        counts = attrs.asdict(self.counts)
        head = {"game": self.game.name, "root": format_state(self.game, self.root), **counts}
        with open(path, "w", encoding="utf-8") as out:
            out.write(json.dumps(head)[:-1] + ', "records": [\n')
            separator = ""
            for state, record in self._rows():
                row = {
                    "state": state,
                    "to_move": record.to_move,
                    "value": record.value,
                    "plies": record.plies,
                    "best_actions": list(record.best_actions),
                }
                out.write(separator + json.dumps(row))
                separator = ",\n"
            out.write("\n]}\n")

    def to_csv(self, path: str | os.PathLike[str]) -> None:
        """Write one CSV row per state: state, to_move, value, plies, best_actions.

        States and actions are in the game's notation; ``best_actions`` are separated by spaces.
        """
        with open(path, "w", encoding="utf-8", newline="") as out:
            writer = csv.writer(out)
            writer.writerow(["state", "to_move", "value", "plies", "best_actions"])
            for state, record in self._rows():
                best = " ".join(record.best_actions)
                writer.writerow([state, record.to_move, record.value, record.plies, best])

    def _rows(self) -> Iterator[tuple[str, StateRecord]]:
        """Each state and its record in the game's text notation."""
        game = self.game
        for state, record in self:
            best = tuple(format_action(game, state, a) for a in record.best_actions)
            yield format_state(game, state), attrs.evolve(record, best_actions=best)

    def _lookup_key(self, state: Any) -> Hashable:
        return state if self._key is None else self._key(state)

    def _record(self, state: Any) -> Record:
        try:
            return self._table[self._lookup_key(state)]
        except (KeyError, TypeError):
            raise UnknownStateError(
                f"unknown state {format_state(self.game, state)!r}: "
                f"it is not reachable from the solved root {format_state(self.game, self.root)!r}"
            ) from None

    def _make_record(self, record: Record) -> StateRecord:
        state, value, plies, best = record
        actions = self.game.actions(state) if best else ()
        return StateRecord(
            to_move=self.game.to_move(state),
            value=value,
            plies=plies,
            best_actions=tuple(actions[i] for i in best),
        )


def solve(
    game: Game[Any, Any],
    state: Any = None,
    max_states: int = 2_000_000,
    progress: Callable[[int], None] | None = None,
) -> Solution:
    """Solve ``game`` strongly from ``state``: every reachable state's exact value.

    Args:
        game: the rulebook; it must not cycle.
        state: the root; None for ``game.initial_state()``.
        max_states: stop with :class:`TooManyStatesError` once more states than this are seen.
        progress: called with the number of states seen so far, every few thousand states.

    Returns:
        The :class:`Solution`.

    Raises:
        TooManyStatesError: more than ``max_states`` reachable states.
        CycleError: a state is reachable from itself (the message names it).
        ValueError: ``max_states`` is not a positive number.

    >>> from games import load_game
    >>> solution = solve(load_game("textbook", tree=[[[5, 1], 2], [4]]))
    >>> solution.root_value, solution.best_actions(()), solution.plies(())
    (4, (1,), 2)
    """
    if max_states < 1:
        raise ValueError(f"invalid max_states {max_states!r}: use a positive number of states")
    start = time.perf_counter()
    root = game.initial_state() if state is None else state
    actions, result, utility, to_move = game.actions, game.result, game.utility, game.to_move
    key_of: Callable[[Any], Hashable] | None = game.key if isinstance(game, HasKey) else None
    table: dict[Hashable, Any] = {}  # key -> Record, or _OPEN while the state is on the path
    lookup = table.get
    shared: dict[tuple[int, ...], tuple[int, ...]] = {(): ()}  # one copy of each index tuple
    terminal = wins = draws = losses = 0

    # A frame is [state, key, its actions, next action index, the records of its children so
    # far]. Each state's record, once known, is handed to the frame below it on the stack.
    stack: list[list[Any]] = []
    fresh: tuple[Any, Hashable] | None = (root, root if key_of is None else key_of(root))
    seen = 0
    done: Record  # the record just finished
    while True:
        if fresh is not None:  # a state met for the first time: a leaf now, or a new frame
            child, child_key = fresh
            fresh = None
            seen += 1
            if seen > max_states:
                raise TooManyStatesError(
                    f"solve saw {seen:,} states, more than max_states={max_states:,}; "
                    "raise max_states or solve from a later position",
                    seen,
                )
            if progress is not None and seen % PROGRESS_EVERY == 0:
                progress(seen)
            child_actions = actions(child)
            if child_actions:
                table[child_key] = _OPEN
                stack.append([child, child_key, child_actions, 0, []])
            else:
                u = utility(child)
                done = table[child_key] = (child, u, 0, ())
                terminal += 1
                if u > 0:
                    wins += 1
                elif u < 0:
                    losses += 1
                else:
                    draws += 1
                if not stack:
                    break  # the root itself is terminal
                stack[-1][4].append(done)
                continue
        frame = stack[-1]
        here, here_key, here_actions, i, records = frame
        n = len(here_actions)
        while i < n:  # expand until a new state turns up
            child = result(here, here_actions[i])
            i += 1
            child_key = child if key_of is None else key_of(child)
            known = lookup(child_key)
            if known is None:
                frame[3] = i
                fresh = (child, child_key)
                break
            if known is _OPEN:
                raise CycleError(
                    f"the game cycles: state {format_state(game, child)!r} is reachable from "
                    "itself; solve needs an acyclic game (use a search with a depth limit)"
                )
            records.append(known)
        else:  # every child is solved: back the value up
            values = [r[1] for r in records]
            player = to_move(here)
            v = max(values) if player == 0 else min(values)
            if values.count(v) == 1:  # one optimal action: its plies
                j = values.index(v)
                best: tuple[int, ...] = (j,)
                plies = 1 + records[j][2]
            else:  # ply_preference: a winner takes the quickest end, a loser or drawer the slowest
                best = tuple([j for j in range(n) if values[j] == v])
                child_plies = [records[j][2] for j in best]
                winning = v > 0 if player == 0 else v < 0
                plies = 1 + (min(child_plies) if winning else max(child_plies))
            done = table[here_key] = (here, v, plies, shared.setdefault(best, best))
            stack.pop()
            if not stack:
                break  # the root is solved
            stack[-1][4].append(done)
    if progress is not None:
        progress(seen)
    root_key = root if key_of is None else key_of(root)
    seconds = time.perf_counter() - start
    solved: dict[Hashable, Record] = table
    counts = SolveCounts(
        states=len(solved),
        terminal=terminal,
        wins=wins,
        draws=draws,
        losses=losses,
        value=solved[root_key][1],
        seconds=seconds,
    )
    return Solution(game, root, counts, solved, key_of)
