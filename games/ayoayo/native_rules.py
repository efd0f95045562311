"""Ayòayò's rules compiled with numba: the moves of :mod:`games.ayoayo.rules`, over arrays.

The kernels here restate the readable rules (the reference for every other path) in
``@njit(cache=True)`` functions, for the compiled route's node search (through
:mod:`games.ayoayo.native_route`, which the proof search runs on too) and the
tablebase builder (:mod:`games.ayoayo.native_tablebase`). The tests hold them to the rules: the
legal moves and children of every ply of the reference's vectors.

A position is 15 ints as in :class:`~games.ayoayo.rules.AyoayoState` (the 12 pits in sowing
order, the two captured counts, the player to move) in an int64 array of :data:`WIDTH`, the rest
scratch for the sowing. A sowing that never ends is found exactly: Brent's cycle detection over
the triples (board, pit just emptied, captures so far) after each pick-up; the rules module keeps
a set of them: the same test.

>>> from games.ayoayo.rules import AyoayoRules
>>> rules = AyoayoRules()
>>> s = board_array(rules.initial_state())
>>> out = np.zeros(WIDTH, np.int64)
>>> bool(play(s, 4, out)), tuple(out[:15].tolist()) == rules.result(rules.initial_state(), 4)
(True, True)
>>> legal_mask(s) == 0b111111, bool(is_terminal(s))
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from games.ayoayo.board import LOOP_CHECK_AFTER, WIN_THRESHOLD
from games.ayoayo.native_jit import compiled, kernel, warm_up

__all__ = [
    "WIDTH",
    "board_array",
    "is_terminal",
    "is_terminal_with",
    "legal_mask",
    "play",
    "play_with",
]

Array = npt.NDArray[np.int64]

WIDTH: Final = 32
"""Ints in a kernel position: the 15 of ``AyoayoState``, then scratch for the sowing."""


@kernel
def _pit(p: int, cell: int) -> int:
    """The flat pit of the mover's cell (``q(0, c) = 5 - c``, ``q(1, c) = 6 + c``)."""
    return 5 - cell if p == 0 else 6 + cell


@kernel
def _row_empty(b: Array, p: int) -> bool:
    r = 6 * p
    return (
        b[r] == 0
        and b[r + 1] == 0
        and b[r + 2] == 0
        and b[r + 3] == 0
        and (b[r + 4] == 0 and b[r + 5] == 0)
    )


@kernel
def _sow(b: Array, p: int, o: int) -> bool:  # noqa: C901 (compiled hot loop, kept inline)
    """Relay-sow pit ``o`` for player ``p`` on ``b`` in place (pits 0..11, captures added to
    ``b[12]`` and ``b[13]``); False (``b`` part-sown) when the sowing never ends.

    ``b`` holds at least :data:`WIDTH` ints: ``b[16:31]`` is scratch for the loop check.
    """
    h = b[o]
    b[o] = 0
    pos = o
    c0 = 0
    c1 = 0
    pickups = 0
    snapped = False
    power = 1
    lam = 0
    while True:
        for _ in range(h):
            pos += 1
            if pos == 12:
                pos = 0
            n = b[pos]
            if n == 3:  # a four: the row's owner takes it (fixed below for the last seed)
                b[pos] = 0
                if pos < 6:
                    c0 += 4
                else:
                    c1 += 4
            else:
                b[pos] = n + 1
        h = b[pos]
        if h < 2:
            if h == 0:  # the last seed made a four: the mover takes it, whatever the row
                if pos < 6:
                    if p == 1:
                        c0 -= 4
                        c1 += 4
                elif p == 0:
                    c1 -= 4
                    c0 += 4
            b[12] += c0
            b[13] += c1
            return True
        b[pos] = 0  # relay: pick the whole pit up
        pickups += 1
        if pickups > LOOP_CHECK_AFTER:
            # Brent: compare with a snapshot (kept in b[16:31]) retaken at pick-ups 1, 2, 4,
            # 8, ... after the previous one.
            if not snapped:
                snapped = True
            else:
                same = b[28] == pos and b[29] == c0 and b[30] == c1
                i = 0
                while same and i < 12:
                    same = b[16 + i] == b[i]
                    i += 1
                if same:
                    return False
                lam += 1
                if lam != power:
                    continue
                power *= 2
                lam = 0
            for i in range(12):
                b[16 + i] = b[i]
            b[28] = pos
            b[29] = c0
            b[30] = c1


@kernel
def _can_feed(b: Array, q: int, trial: Array) -> bool:
    """Whether player ``q`` has a sowing that ends and leaves the opponent's row non-empty.

    ``trial`` (:data:`WIDTH` ints) is scratch for the trial sowings.
    """
    for cell in range(6):
        o = _pit(q, cell)
        if b[o]:
            for i in range(12):
                trial[i] = b[i]
            trial[12] = 0
            trial[13] = 0
            if _sow(trial, q, o) and not _row_empty(trial, 1 - q):
                return True
    return False


@compiled
def play(s: Array, cell: int, out: Array) -> bool:
    """Write the position after the mover sows ``cell`` into ``out``; False if illegal.

    Illegal: an empty pit, a sowing that never ends, or one that leaves an already empty
    opponent row empty (the feeding rule). As ``Ayoayo.try_result``, it does not look at the
    end by more than 24 captured: the callers do (no move is tried then).
    """
    return play_with(s, cell, out, np.empty(WIDTH, np.int64))


@kernel
def play_with(s: Array, cell: int, out: Array, trial: Array) -> bool:
    """:func:`play` with ``trial`` (:data:`WIDTH` ints) as scratch: the search allocates nothing."""
    p = s[14]
    o = _pit(p, cell)
    if s[o] == 0:
        return False
    for i in range(15):
        out[i] = s[i]
    if not _sow(out, p, o):
        return False
    q = 1 - p
    if _row_empty(out, q) and _row_empty(s, q):
        return False  # the opponent's row was empty and stays empty: not feeding
    out[14] = q
    if not _row_empty(out, p):
        return True
    # The mover's row is empty: the next player must feed it, or takes its own row.
    if not _row_empty(out, q) and not _can_feed(out, q, trial):
        r = 6 * q
        for i in range(r, r + 6):
            out[12 + q] += out[i]
            out[i] = 0
    return True


@compiled
def is_terminal(s: Array) -> bool:
    """Over when a player has more than 24 or the player to move has no legal move."""
    return is_terminal_with(s, np.empty(WIDTH, np.int64))


@kernel
def is_terminal_with(s: Array, trial: Array) -> bool:
    """:func:`is_terminal` with ``trial`` (:data:`WIDTH` ints) as scratch."""
    if s[12] > WIN_THRESHOLD or s[13] > WIN_THRESHOLD:
        return True
    p = s[14]
    if _row_empty(s, 1 - p):
        return not _can_feed(s, p, trial)
    r = 6 * p
    for o in range(r, r + 6):
        h = s[o]
        if 0 < h < 12:
            last = s[(o + h) % 12]
            if last == 0 or last == 3:
                return False  # the first lap ends the move
    for o in range(r, r + 6):
        if s[o]:
            for i in range(14):
                trial[i] = s[i]
            if _sow(trial, p, o):
                return False
    return True


@compiled
def legal_mask(s: Array) -> int:
    """The legal cells as bits (bit ``c`` for cell ``c``); 0 iff the game is over."""
    if s[12] > WIN_THRESHOLD or s[13] > WIN_THRESHOLD:
        return 0
    out = np.empty(WIDTH, np.int64)
    trial = np.empty(WIDTH, np.int64)
    mask = 0
    for cell in range(6):
        if play_with(s, cell, out, trial):
            mask |= 1 << cell
    return mask


def board_array(state: Sequence[int]) -> Array:
    """A position (15 ints, as ``AyoayoState``) as the kernels' int64 array (:data:`WIDTH`)."""
    b = np.zeros(WIDTH, np.int64)
    b[:15] = state
    return b


@warm_up("rules")
def _warm_up() -> None:
    """Call the rules' own entry points once (the search and the builder inline their own)."""
    start = board_array((4,) * 12 + (0, 0, 0))
    play(start, 0, np.zeros(WIDTH, np.int64))
    is_terminal(start)
    legal_mask(start)
