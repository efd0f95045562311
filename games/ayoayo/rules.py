"""Ayòayò as the reference implementation plays it (chidiwilliams/ayoayo @ 835a126).

The rules are those of ``docs/ayoayo-rules.md`` (the reference's, in our words): relay sowing
counter-clockwise round 12 pits, fours captured en passant (by the row's owner, or by the mover
for the last seed of a lap), no pit ever skipped, the feeding rule, the end when the player to
move has no move or a player has more than 24, and the end sweep (a player who cannot feed a
starved opponent takes the seeds of its own row). The winner is whoever captured more.

Our one deliberate difference: the reference hangs on a relay-sowing that never ends. Here such
a sowing is not a legal move. It is detected exactly: after each pick-up the rest of the sowing
is fixed by the board, the pit just emptied and the captures so far, so the sowing never ends if
and only if that triple repeats. The same test runs inside the feeding check.

Players are numbered 0 (MAX, moves first) and 1; the reference's CLI calls them "Player 1" and
"Player 2". An action is a cell number 0..5 of the mover's own row.

The hot path keeps a state as a tuple of 15 ints: the 12 pits in sowing order
(``q(0, c) = 5 - c``, ``q(1, c) = 6 + c``), the two captured counts and the player to move.
:class:`AyoayoState` is that tuple with readable properties (``board``, ``captured``,
``to_move``); build one from a board with :meth:`AyoayoRules.state_from`.

>>> game = AyoayoRules()
>>> state = game.initial_state()
>>> game.actions(state)
(0, 1, 2, 3, 4, 5)
>>> after = game.result(game.result(state, 4), 2)
>>> after.board, after.captured, after.to_move
(((2, 7, 2, 0, 0, 8), (7, 7, 1, 2, 0, 8)), (0, 4), 0)
>>> game.format_state(after)
'[[2,7,2,0,0,8],[7,7,1,2,0,8]] captured 0,4 to-move 0'
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any, Final

from games.ayoayo.board import (
    CAPTURE,
    CELL_PITS,
    LOOP_CHECK_AFTER,
    ROW_PITS,
    TOTAL_SEEDS,
    WIN_THRESHOLD,
)
from solver.game import (
    BoardCells,
    IllegalActionError,
    InvalidStateError,
    MistakeSizes,
    Player,
)
from solver.quoting import quote

__all__ = [
    "PLAYER_NAMES",
    "AyoayoRules",
    "AyoayoState",
    "NeverEndingSowingError",
    "relay_sow",
]

PLAYER_NAMES: Final = ("Player 1", "Player 2")
"""The reference CLI's names for players 0 and 1."""

# _RUN[q][h]: the pits that receive the h seeds of a hand picked up at pit q, in order.
_MAX_HAND: Final = TOTAL_SEEDS + 1
_RUN: Final = tuple(
    tuple(tuple((q + i) % 12 for i in range(1, h + 1)) for h in range(_MAX_HAND + 1))
    for q in range(12)
)

# _FIRST_LAP_LAST[q][h]: where the last seed of a hand of 0 < h < 12 picked up at pit q falls
# (the lap does not come back to q, so that pit still holds what it held); None for other h.
_FIRST_LAP_LAST: Final = tuple(
    tuple((q + h) % 12 if 0 < h < 12 else None for h in range(TOTAL_SEEDS + 1)) for q in range(12)
)

_new_state = tuple.__new__
_ALL_CELLS: Final = (0, 1, 2, 3, 4, 5)


class NeverEndingSowingError(IllegalActionError):
    """A move whose relay-sowing never ends: not a legal move here (the reference hangs)."""


class AyoayoState(tuple[int, ...]):
    """An Ayòayò position: immutable and hashable (a tuple of 15 ints).

    Layout (internal): 12 pits in sowing order, ``captured[0]``, ``captured[1]``, ``to_move``.
    Use :meth:`AyoayoRules.state_from` to build one; the properties give the reference's view.

    >>> s = AyoayoRules.state_from([[2, 6, 6, 1, 1, 7], [0, 2, 7, 2, 7, 7]])
    >>> s.board[0], s.captured, s.to_move
    ((2, 6, 6, 1, 1, 7), (0, 0), 0)
    """

    __slots__ = ()

    @property
    def board(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Two rows of six: ``board[0]`` is player 0's row, cell 0 first (the reference's form)."""
        return (self[5], self[4], self[3], self[2], self[1], self[0]), self[6:12]

    @property
    def captured(self) -> tuple[int, int]:
        """Seeds captured by player 0 and by player 1."""
        return self[12], self[13]

    @property
    def to_move(self) -> Player:
        """The player to move, 0 or 1."""
        return self[14]

    def __repr__(self) -> str:
        return f"AyoayoState({_format(self)!r})"


def _format(state: AyoayoState) -> str:
    rows = ",".join("[" + ",".join(map(str, row)) + "]" for row in state.board)
    return f"[{rows}] captured {state[12]},{state[13]} to-move {state[14]}"


def _sow(b: list[int], p: int, o: int) -> bool:
    """Relay-sow pit ``o`` (flat index) for player ``p`` on ``b`` in place.

    ``b`` holds the 12 pits in sowing order, optionally followed by the two captured counts,
    which then receive the captures. Returns False (``b`` left part-sown) when the sowing never
    ends.
    """
    h = b[o]
    b[o] = 0
    pos = o
    c0 = c1 = 0
    pickups = 0
    seen: set[tuple[int, ...]] | None = None
    while True:
        run = _RUN[pos][h]
        for q in run:
            n = b[q]
            if n == 3:  # a four: the row's owner takes it (fixed below for the last seed)
                b[q] = 0
                if q < 6:
                    c0 += 4
                else:
                    c1 += 4
            else:
                b[q] = n + 1
        pos = run[-1]
        h = b[pos]
        if h < 2:
            if h == 0:  # the last seed made a four: the mover takes it, whatever the row
                if pos < 6:
                    if p:
                        c0 -= 4
                        c1 += 4
                elif not p:
                    c1 -= 4
                    c0 += 4
            # else the last seed fell into an empty pit
            if len(b) > 12 and (c0 or c1):
                b[12] += c0
                b[13] += c1
            return True
        b[pos] = 0  # relay: pick the whole pit up
        pickups += 1
        if pickups > LOOP_CHECK_AFTER:
            triple = (*b[:12], pos, c0, c1)
            if seen is None:
                seen = {triple}
            elif triple in seen:
                return False
            else:
                seen.add(triple)


def _feeding_moves(b: Sequence[int], p: int) -> tuple[int, ...]:
    """Player ``p``'s legal moves when the opponent's row is empty: sowings that end and feed."""
    opp = ROW_PITS[1 - p]
    moves = []
    for c, o in enumerate(CELL_PITS[p]):
        if b[o]:
            trial = list(b[:12])
            if _sow(trial, p, o) and any(trial[i] for i in opp):
                moves.append(c)
    return tuple(moves)


def relay_sow(
    board: Sequence[Sequence[int]], player: Player, cell: int
) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, int]]:
    """One relay-sowing on a board, as the reference's ``relaySow`` (no end-of-game rules).

    Args:
        board: two rows of six non-negative ints (any total); ``board[0]`` is player 0's row.
        player: the mover, 0 or 1.
        cell: the mover's cell to sow, 0..5.

    Returns:
        The board after the sowing and the seeds it captured for players 0 and 1.

    Raises:
        NeverEndingSowingError: the sowing never ends (found exactly, at once).
        InvalidStateError: the board, player or cell is malformed.

    >>> relay_sow([[0, 0, 0, 0, 3, 3], [0, 0, 0, 0, 0, 2]], 1, 5)
    (((0, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 0)), (4, 4))
    """
    rows = _check_rows(board)
    if isinstance(player, bool) or not isinstance(player, int) or player not in (0, 1):
        raise InvalidStateError(f"player must be 0 or 1, got {quote(player)}")
    if isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell <= 5:
        raise InvalidStateError(f"cell must be an int 0..5, got {quote(cell)}")
    b = [*reversed(rows[0]), *rows[1], 0, 0]
    if not _sow(b, player, CELL_PITS[player][cell]):
        raise NeverEndingSowingError(
            f"the sowing of cell {cell} by player {player} on {quote(board)} never ends"
        )
    return ((b[5], b[4], b[3], b[2], b[1], b[0]), tuple(b[6:12])), (b[12], b[13])


def _finish(b: list[int], p: int) -> AyoayoState:
    """The state after player ``p``'s sowing left ``b`` (15 ints): the turn passes, and the
    end sweep applies when the mover's row is empty and the next player cannot feed it."""
    b[14] = q = 1 - p
    if p:
        empty = not (b[6] or b[7] or b[8] or b[9] or b[10] or b[11])
    else:
        empty = not (b[0] or b[1] or b[2] or b[3] or b[4] or b[5])
    if empty:
        # The mover's row is empty: the next player must feed it, or takes its own row.
        nxt = ROW_PITS[q]
        if any(b[i] for i in nxt) and not _feeding_moves(b, q):
            for i in nxt:
                b[12 + q] += b[i]
                b[i] = 0
    return _new_state(AyoayoState, b)


def _winner(state: AyoayoState) -> int:
    c0, c1 = state[12], state[13]
    return -1 if c0 == c1 else (0 if c0 > c1 else 1)


class AyoayoRules:
    """The rulebook of Ayòayò (reference rules; a never-ending sowing is not a legal move).

    The readable rules alone: the game as users load it, :class:`games.ayoayo.Ayoayo`, adds the
    endgame tablebases and the compiled search on top (this module knows neither).

    States are :class:`AyoayoState` tuples; actions are cells 0..5 of the mover's row, listed in
    ascending order. Values are ``captured[0] - captured[1]`` (player 0's view).

    Legal moves are cached per state in a bounded dictionary (``cache_size`` entries, cleared
    when full), together with the children sown while finding them, so ``result`` after
    ``actions`` is usually a lookup.

    Args:
        cache_size: most states whose legal moves and children are kept (0 turns caching off).

    >>> game = AyoayoRules()
    >>> s = game.state_from([[0, 0, 0, 0, 0, 0], [0, 0, 0, 1, 1, 3]], captured=(23, 20), to_move=1)
    >>> game.actions(s)  # feeding: cell 4 would leave player 0's row empty
    (3, 5)
    """

    name = "ayoayo"
    player_names: tuple[str, str] = PLAYER_NAMES
    """The reference's names for players 0 and 1 (``solver.game.HasPlayerNames``)."""

    def __init__(self, cache_size: int = 1 << 14) -> None:
        if isinstance(cache_size, bool) or not isinstance(cache_size, int) or cache_size < 0:
            raise InvalidStateError(
                f"invalid cache_size {quote(cache_size)}; expected a whole number >= 0 "
                "(positions whose moves are remembered; 0 remembers none)"
            )
        self.cache_size = cache_size
        # state -> (legal moves, children by cell: the child state or None if not yet sown)
        self._cache: dict[AyoayoState, tuple[tuple[int, ...], list[AyoayoState | None]]] = {}

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    # ---- the Game protocol -----------------------------------------------------------------

    def initial_state(self) -> AyoayoState:
        """Four seeds in every pit, nothing captured, player 0 to move."""
        return _INITIAL

    def to_move(self, state: AyoayoState) -> Player:
        """The player to move."""
        return state[14]

    def actions(self, state: AyoayoState) -> tuple[int, ...]:
        """The legal cells of the mover, ascending; empty iff the game is over."""
        entry = self._cache.get(state)
        if entry is not None:
            return entry[0]
        return self._expand(state)[0]

    def result(self, state: AyoayoState, action: int) -> AyoayoState:
        """The position after the mover sows ``action`` (unchecked: see ``solver.game.apply``).

        Raises:
            IllegalActionError: the sowing would never end (the reference would hang).
        """
        entry = self._cache.get(state)
        if entry is not None:
            child = entry[1][action]
            if child is not None:
                return child
            child = self._child(state, action)
            entry[1][action] = child
            return child
        return self._child(state, action)

    def is_terminal(self, state: AyoayoState) -> bool:
        """Over when a player has more than 24 or the player to move has no legal move.

        Needs only one legal move, not the list: a move from a pit of ``0 < h < 12`` seeds whose
        last seed falls into a pit holding 0 or 3 ends on its first lap (the last seed rests in
        an empty pit, or makes a four that is taken), so it is legal whenever the opponent's row
        holds seeds; otherwise the moves are sown one by one until one ends.
        """
        if state[12] > WIN_THRESHOLD or state[13] > WIN_THRESHOLD:
            return True
        p = state[14]
        if p:
            if not (state[0] or state[1] or state[2] or state[3] or state[4] or state[5]):
                return self.actions(state) == ()  # feeding: the exact list decides
        elif not (state[6] or state[7] or state[8] or state[9] or state[10] or state[11]):
            return self.actions(state) == ()
        pits = ROW_PITS[p]
        for o in pits:
            last = _FIRST_LAP_LAST[o][state[o]]
            if last is not None and (state[last] == 0 or state[last] == 3):
                return False  # the first lap ends the move
        entry = self._cache.get(state)
        if entry is not None:
            return not entry[0]
        return not any(_sow(list(state[:12]), p, o) for o in pits if state[o])

    def utility(self, state: AyoayoState) -> int:
        """``captured[0] - captured[1]``: only captured seeds count (the reference's score)."""
        return state[12] - state[13]

    def evaluate(self, state: AyoayoState) -> int:
        """The horizon value: ``captured[0] - captured[1]``, as the reference's minimax."""
        return state[12] - state[13]

    def endless_value(self, state: AyoayoState) -> int:
        """The score of play that cycles for ever: ``captured[0] - captured[1]``.

        No capture can happen inside a cycle (captures only grow), so this is constant along
        any cycle; the seeds still on the board count for nobody (``solver.game.HasEndlessValue``).
        A match ended by a repeated position is scored the same way.
        """
        return state[12] - state[13]

    def winner(self, state: AyoayoState) -> int | None:
        """None while the game runs; then 0 or 1, or -1 for a draw (the reference's ``winner``)."""
        return _winner(state) if self.is_terminal(state) else None

    # ---- the rules (hot path) --------------------------------------------------------------

    def _expand(self, state: AyoayoState) -> tuple[tuple[int, ...], list[AyoayoState | None]]:
        """Find the legal moves of ``state``, sowing where needed, and cache them."""
        children: list[AyoayoState | None] = [None, None, None, None, None, None]
        if state[12] > WIN_THRESHOLD or state[13] > WIN_THRESHOLD:
            moves: tuple[int, ...] = ()
        else:
            p = state[14]
            opp = ROW_PITS[1 - p]
            if (
                state[opp[0]]
                or state[opp[1]]
                or state[opp[2]]
                or state[opp[3]]
                or (state[opp[4]] or state[opp[5]])
            ):
                found = []
                for c, o in enumerate(CELL_PITS[p]):
                    h = state[o]
                    if not h:
                        continue
                    if h < 12:
                        last = state[(o + h) % 12]
                        if last == 0 or last == 3:  # the first lap ends the move: no loop
                            found.append(c)
                            continue
                    try:
                        children[c] = self._child(state, c)
                    except NeverEndingSowingError:
                        continue
                    found.append(c)
                moves = tuple(found)
            else:
                moves = _feeding_moves(state[:12], p)
        entry = (moves, children)
        cache = self._cache
        if self.cache_size:
            if len(cache) >= self.cache_size:
                cache.clear()
            cache[state] = entry
        return entry

    def _child(self, state: AyoayoState, cell: int) -> AyoayoState:
        p = state[14]
        b = list(state)
        if not _sow(b, p, CELL_PITS[p][cell]):
            raise NeverEndingSowingError(
                f"illegal action {quote(cell)} in {_format(state)}: its sowing never ends"
            )
        return _finish(b, p)

    # ---- pseudo-legal moves for the engine (solver.game.HasPseudoActions) -----------------

    def pseudo_actions(self, state: AyoayoState) -> tuple[int, ...]:
        """Every cell 0..5 while the game can go on (none once a player has more than 24).

        A superset of :meth:`actions` in the same order: :meth:`try_result` sorts them out.
        """
        if state[12] > WIN_THRESHOLD or state[13] > WIN_THRESHOLD:
            return ()
        return _ALL_CELLS

    def try_result(self, state: AyoayoState, action: int) -> AyoayoState | None:
        """``result(state, action)`` if ``action`` is legal, else None (sown once, not twice).

        Illegal: an empty pit, a sowing that never ends, or one that leaves an already empty
        opponent row empty (the feeding rule).

        >>> game = AyoayoRules()
        >>> s = game.state_from([[0, 0, 0, 0, 0, 0], [0, 0, 0, 1, 1, 3]], (23, 20), to_move=1)
        >>> [game.try_result(s, c) is not None for c in game.pseudo_actions(s)] == [
        ...     c in game.actions(s) for c in range(6)]
        True
        """
        p = state[14]
        o = CELL_PITS[p][action]
        if not state[o]:
            return None
        b = list(state)
        if not _sow(b, p, o):
            return None  # the sowing never ends
        if p:
            if not (b[0] or b[1] or b[2] or b[3] or b[4] or b[5]) and not (
                state[0] or state[1] or state[2] or state[3] or state[4] or state[5]
            ):
                return None  # the opponent's row was empty and stays empty: not feeding
            if b[6] or b[7] or b[8] or b[9] or b[10] or b[11]:
                b[14] = 0
                return _new_state(AyoayoState, b)
        else:
            if not (b[6] or b[7] or b[8] or b[9] or b[10] or b[11]) and not (
                state[6] or state[7] or state[8] or state[9] or state[10] or state[11]
            ):
                return None
            if b[0] or b[1] or b[2] or b[3] or b[4] or b[5]:
                b[14] = 1
                return _new_state(AyoayoState, b)
        return _finish(b, p)  # the mover's row is empty: the end sweep may apply

    # ---- construction and notation ---------------------------------------------------------

    @staticmethod
    def state_from(
        board: Sequence[Sequence[int]],
        captured: Sequence[int] = (0, 0),
        to_move: Player = 0,
    ) -> AyoayoState:
        """A validated state from the reference's view of a position.

        Args:
            board: two rows of six non-negative ints; ``board[0]`` is player 0's row.
            captured: seeds captured by players 0 and 1; board plus captured must make 48.
            to_move: the player to move, 0 or 1.

        Raises:
            InvalidStateError: the position is malformed, the seeds do not add up to 48, or it
                is a finished game whose end sweep was not applied (the message gives the
                swept form).

        A finished game is accepted as the reference leaves it: seeds left on the board after an
        end by more than 24 captured, or by an empty row, count for nobody.

        >>> AyoayoRules.state_from([[4] * 6, [4] * 5 + [0]])
        Traceback (most recent call last):
        ...
        solver.errors.InvalidStateError: seeds on the board (44) plus captured (0 + 0) make 44, ...
        """
        rows = _check_rows(board)
        caps = _check_pair(captured, "captured")
        if isinstance(to_move, bool) or not isinstance(to_move, int) or to_move not in (0, 1):
            raise InvalidStateError(f"to_move must be 0 or 1, got {quote(to_move)}")
        on_board = sum(rows[0]) + sum(rows[1])
        if on_board + caps[0] + caps[1] != TOTAL_SEEDS:
            raise InvalidStateError(
                f"seeds on the board ({on_board}) plus captured ({caps[0]} + {caps[1]}) make "
                f"{on_board + caps[0] + caps[1]}, not {TOTAL_SEEDS}"
            )
        flat = [*reversed(rows[0]), *rows[1], caps[0], caps[1], to_move]
        state = _new_state(AyoayoState, flat)
        p = to_move
        if any(rows[p]) and not any(rows[1 - p]) and not _feeding_moves(flat[:12], p):
            swept = list(caps)
            swept[p] += sum(rows[p])
            final = [list(rows[0]), list(rows[1])]
            final[p] = [0] * 6
            raise InvalidStateError(
                f"{PLAYER_NAMES[p]} (to-move {p}) cannot feed the empty row in "
                f"{_format(state)}, so the game is over and takes its own seeds: "
                f"the finished position is {json.dumps(final, separators=(',', ':'))} "
                f"captured {swept[0]},{swept[1]} to-move {p}"
            )
        return state

    def check_state(self, state: object) -> None:
        """Raise :class:`InvalidStateError` unless ``state`` is an Ayòayò position: a tuple of
        15 non-negative ints (12 pits in sowing order, the captured pair, the player to move, 0
        or 1) holding 48 seeds (:class:`solver.game.HasStateCheck`; the checked entry points
        call it once).

        >>> AyoayoRules().check_state((0,) * 9)
        Traceback (most recent call last):
        ...
        solver.errors.InvalidStateError: invalid Ayòayò state (0, 0, 0, 0, 0, 0, 0, 0, 0): \
it has 9 items, not 15; a state is 12 pits in sowing order, the seeds captured by each \
player and the player to move (0 or 1): build one with state_from or parse_state
        """
        why = _state_problem(state)
        if why is not None:
            raise InvalidStateError(
                f"invalid Ayòayò state {quote(state)}: {why}; a state is 12 pits in sowing "
                "order, the seeds captured by each player and the player to move (0 or 1): "
                "build one with state_from or parse_state"
            )

    def format_state(self, state: AyoayoState) -> str:
        """``[[row 0],[row 1]] captured c0,c1 to-move p`` (``parse_state`` reads it back).

        >>> AyoayoRules().format_state(AyoayoRules().initial_state())
        '[[4,4,4,4,4,4],[4,4,4,4,4,4]] captured 0,0 to-move 0'
        """
        return _format(state)

    def parse_state(self, text: str) -> AyoayoState:
        """Read a position: the board, then optionally the captured seeds and the side to move.

        Accepted, for example: ``[[2,6,6,1,1,7],[0,2,7,2,7,7]]`` (nothing captured, player 0
        to move), ``[[...],[...]] captured 0,4 to-move 1``, ``[[...],[...]] 0,4 1``; the words
        may also be written ``captured=0,4``, ``to_move: 1``; spaces are free.

        Raises:
            InvalidStateError: the text cannot be read, or the position is invalid.

        >>> AyoayoRules().parse_state("[[2,6,6,1,1,7],[0,2,7,2,7,7]]").captured
        (0, 0)
        """
        return self.state_from(*_read_position(text))

    position_fields: Final = {
        "captured": "seeds captured so far by players 0 and 1",
        "to_move": "the player to move, 0 or 1",
    }
    """The fields of a position beside the board (:class:`solver.game.HasPositionFields`)."""

    def position_from(
        self,
        text: str | None = None,
        *,
        captured: Sequence[int] | None = None,
        to_move: Player | None = None,
    ) -> AyoayoState:
        """The position ``text`` (None: the start) with its captured seeds or side to move set.

        The fields given replace those written in ``text``; the whole is checked together, so
        a board of 44 seeds needs ``captured`` making up the other 4.

        >>> game = AyoayoRules()
        >>> game.position_from(to_move=1).to_move
        1
        >>> game.position_from("[[0,4,4,4,4,4],[4,4,4,4,4,4]]", captured=(4, 0)).captured
        (4, 0)
        """
        if text is None:
            start = self.initial_state()
            board: Any = start.board
            written, side = start.captured, start.to_move
        else:
            board, written, side = _read_position(text)
        return self.state_from(
            board,
            written if captured is None else captured,
            side if to_move is None else to_move,
        )

    def score(self, state: AyoayoState) -> tuple[int, int]:
        """The seeds each player has captured (:class:`solver.game.HasScore`).

        >>> AyoayoRules().score(AyoayoRules().initial_state())
        (0, 0)
        """
        return state[12], state[13]

    def mistake_sizes(self) -> MistakeSizes:
        """Values are margins of seeds: one capture lost is an inaccuracy, two a mistake
        (:class:`solver.game.HasMistakeSizes`).

        >>> AyoayoRules().mistake_sizes()
        MistakeSizes(unit='seeds', inaccuracy=4, mistake=8)
        """
        return MistakeSizes("seeds", CAPTURE, 2 * CAPTURE)

    def pits(self, state: AyoayoState) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Each player's row of pits, cells 0-5 (:class:`solver.game.HasPits`).

        >>> AyoayoRules().pits(AyoayoRules().initial_state())[1]
        (4, 4, 4, 4, 4, 4)
        """
        return state.board

    def pit_of(self, state: AyoayoState, action: int) -> tuple[int, int]:
        """The pit a move sows from: the mover's row, the cell named by the move."""
        return state.to_move, int(action)

    def render(self, state: AyoayoState) -> str:
        """The board as the reference CLI draws it: row 0 above, cell 0 on the left.

        >>> print(AyoayoRules().render(AyoayoRules().initial_state()))
        cell                  0   1   2   3   4   5
        Player 1 (player 0)   4   4   4   4   4   4   captured  0
        Player 2 (player 1)   4   4   4   4   4   4   captured  0
        Player 1 (player 0) to move
        """
        board = state.board
        lines = ["cell               " + "".join(f"{c:4d}" for c in range(6))]
        for p in (0, 1):
            pits = "".join(f"{n:4d}" for n in board[p])
            lines.append(f"{PLAYER_NAMES[p]} (player {p}){pits}   captured {state[12 + p]:2d}")
        if self.is_terminal(state):
            w = _winner(state)
            tail = "draw" if w == -1 else f"{PLAYER_NAMES[w]} (player {w}) wins"
            lines.append(f"game over: {tail} {state[12]}-{state[13]}")
        else:
            p = state[14]
            lines.append(f"{PLAYER_NAMES[p]} (player {p}) to move")
        return "\n".join(lines)

    def board_cells(self, state: AyoayoState) -> BoardCells:
        """Each player's row of pits (cells 0-5 left to right) and captured seeds, for boards
        drawn in tree nodes.

        >>> cells = AyoayoRules().board_cells(AyoayoRules().initial_state())
        >>> cells.header, cells.labels, cells.notes[0], cells.caption
        (('0', '1', '2', '3', '4', '5'), ('P1', 'P2'), 'captured 0', 'Player 1 to move')
        """
        if self.is_terminal(state):
            w = _winner(state)
            caption = "game over: " + ("draw" if w == -1 else f"{PLAYER_NAMES[w]} wins")
        else:
            caption = f"{PLAYER_NAMES[state[14]]} to move"
        return BoardCells(
            rows=tuple(tuple(str(n) for n in state.board[p]) for p in (0, 1)),
            labels=("P1", "P2"),
            notes=tuple(f"captured {state[12 + p]}" for p in (0, 1)),
            header=tuple(str(c) for c in range(6)),
            caption=caption,
        )

    def format_action(self, state: AyoayoState, action: int) -> str:
        """The cell number, e.g. ``"3"``."""
        return str(action)

    def parse_action(self, state: AyoayoState, text: str) -> int:
        """A cell number 0..5 of the mover's row (legality is checked by ``solver.game``).

        Raises:
            IllegalActionError: the text is not a cell number 0..5.
        """
        word = str(text).strip()
        if not _CELL_RE.fullmatch(word):
            raise IllegalActionError(
                f"illegal action {quote(text)}: a move is a cell number 0..5 of the mover's row; "
                f"legal here: {', '.join(map(str, self.actions(state))) or 'none'}"
            )
        return int(word)


_INITIAL: Final = _new_state(AyoayoState, [4] * 12 + [0, 0, 0])

_BOARD_RE: Final = re.compile(r"\s*(\[\s*\[[^\[\]]*\]\s*,\s*\[[^\[\]]*\]\s*\])(.*)\Z", re.S)
_TOKEN_RE: Final = re.compile(
    r"\s*(?:(captured|to[-_ ]?move)\s*[:=]?|([0-9]{1,9})(?![0-9])|([,\[\]()])|(\S+))", re.ASCII
)
_CELL_RE: Final = re.compile(r"[0-5]", re.ASCII)


def _state_problem(state: object) -> str | None:
    """What keeps ``state`` from being an Ayòayò position (None: nothing)."""
    if not isinstance(state, tuple):
        return f"it is a {type(state).__name__}, not a tuple"
    if len(state) != 15:
        return f"it has {len(state)} items, not 15"
    for i, n in enumerate(state):
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            return f"item {i} is {quote(n)}, not a non-negative int"
    if state[14] not in (0, 1):
        return f"the player to move (item 14) is {state[14]}, not 0 or 1"
    if sum(state[:14]) != TOTAL_SEEDS:
        return f"its pits and captured seeds make {sum(state[:14])}, not {TOTAL_SEEDS}"
    return None


def _check_rows(board: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    if isinstance(board, (str, bytes)) or not isinstance(board, Iterable):
        raise InvalidStateError(f"a board is two rows of six ints, got {quote(board)}")
    rows = [list(row) if isinstance(row, Iterable) else row for row in board]
    if len(rows) != 2 or any(not isinstance(row, list) or len(row) != 6 for row in rows):
        raise InvalidStateError(f"a board is two rows of six ints, got {quote(board)}")
    for r, row in enumerate(rows):
        for c, n in enumerate(row):
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise InvalidStateError(
                    f"pit board[{r}][{c}] holds {quote(n)}; pits hold non-negative ints "
                    f"(in {quote(board)})"
                )
    return tuple(rows[0]), tuple(rows[1])


def _check_pair(pair: Any, what: str) -> tuple[int, int]:
    items = list(pair) if isinstance(pair, Iterable) and not isinstance(pair, str) else None
    if (
        items is None
        or len(items) != 2
        or any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in items)
    ):
        raise InvalidStateError(f"{what} must be two non-negative ints, got {quote(pair)}")
    return items[0], items[1]


def _read_position(text: str) -> tuple[Any, tuple[int, int], int]:
    """The board, captured seeds and side to move written in ``text``, not yet checked."""
    if not isinstance(text, str):
        raise InvalidStateError(f"expected a position as text, got {quote(text)}")
    match = _BOARD_RE.match(text)
    if match is None:
        raise InvalidStateError(
            f"cannot read a board in {quote(text)}; expected two rows of six like "
            "'[[4,4,4,4,4,4],[4,4,4,4,4,4]]', optionally followed by "
            "'captured 0,0 to-move 0'"
        )
    try:
        board = json.loads(match.group(1))
    except ValueError:
        raise InvalidStateError(
            f"cannot read the board {quote(match.group(1))}; expected two rows of six numbers "
            "like '[[4,4,4,4,4,4],[4,4,4,4,4,4]]'"
        ) from None
    captured, to_move = _parse_tail(match.group(2), text)
    return board, captured, to_move


def _parse_tail(tail: str, text: str) -> tuple[tuple[int, int], int]:
    """Captured seeds and side to move from the text after the board (defaults (0, 0) and 0)."""
    captured: list[int] | None = None
    to_move: int | None = None
    want = ""  # which field the next numbers belong to
    numbers: list[int] = []
    pos = 0
    while pos < len(tail):
        m = _TOKEN_RE.match(tail, pos)
        if m is None or m.end() == pos:
            break
        pos = m.end()
        word, num, _punct, junk = m.groups()
        if word:
            want = "captured" if word == "captured" else "to-move"
        elif num is not None:
            if want == "to-move" or (want == "" and captured is not None):
                if to_move is not None:
                    raise InvalidStateError(f"more than one side to move in {quote(text)}")
                to_move = int(num)
                want = ""
            else:
                numbers.append(int(num))
                if len(numbers) == 2:
                    if captured is not None:
                        raise InvalidStateError(f"captured seeds given twice in {quote(text)}")
                    captured, numbers, want = numbers, [], ""
        elif junk is not None:
            raise InvalidStateError(
                f"cannot read {quote(junk)} in {quote(text)}; after the board write "
                "'captured C0,C1 to-move P' (or just 'C0,C1 P')"
            )
        # punctuation (commas, brackets) only separates
    if numbers or (want == "captured" and captured is None):
        raise InvalidStateError(
            f"captured needs two numbers (player 0's, player 1's) in {quote(text)}, got "
            f"{numbers or 'none'}"
        )
    if want == "to-move" and to_move is None:
        raise InvalidStateError(f"to-move needs a player, 0 or 1, in {quote(text)}, got none")
    if to_move is not None and to_move not in (0, 1):
        raise InvalidStateError(f"the side to move is 0 or 1, got {to_move} in {quote(text)}")
    caps = (captured[0], captured[1]) if captured is not None else (0, 0)
    return caps, 0 if to_move is None else to_move
