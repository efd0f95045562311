"""Ayòayò's rules for the compiled route (:mod:`solver.compiled`): the generic node search,
compiled against the rules of :mod:`games.ayoayo.native_rules`.

The functions here only adapt :mod:`games.ayoayo.native_rules` (the sowing, the feeding rule,
the end) and :mod:`games.ayoayo.native_probe` (the exact key, the tablebase) to the route's
interface (:class:`solver.compiled.CompiledRules`); :mod:`solver.compiled_module` restates
them, and what they call, in the kernel's module. What Ayòayò asks of the route:

* **scratch**: a sowing's loop check keeps its snapshot in the child's words 16-30 (a
  position is the :data:`~games.ayoayo.native_rules.WIDTH` ints of the native rules), and
  the feeding rule sows trial boards in a scratch array the kernel gives each ply;
* **pseudo-legal moves**: a move is legal only if its sowing ends and it feeds an empty row,
  which is known by sowing it; the kernel plays each candidate once (every cell, as the
  Python search's ``pseudo_actions``) and skips those the rules refuse;
* **a packed key**: the table holds the position's 15 ints packed exactly into two words
  (:func:`~games.ayoayo.native_probe.key_of`), never a hash alone;
* **the tablebase as the oracle**: the levels present, read in the kernel through one array
  of their addresses (:func:`~games.ayoayo.native_probe.oracle_words`);
* **the endless rule** for the proof search (:mod:`solver.compiled_proof`): a repeated
  position is scored by the seeds captured so far, and the seeds captured are the
  ``progress`` that ends its scan for a repetition (a capture is never undone).

>>> rules = compiled_rules()
>>> rules.words, rules.move_limit, rules.pack_words, rules.pseudo_moves
(32, 6, 2, True)
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from games.ayoayo.board import WIN_THRESHOLD
from games.ayoayo.native_probe import (
    NOT_COVERED,
    key_of,
    oracle_words,
    tablebase_of,
    tablebase_value_at,
)
from games.ayoayo.native_rules import WIDTH, board_array, is_terminal_with, play_with
from solver.compiled import CompiledRules

__all__ = ["MAX_DEPTH", "compiled_rules"]

MAX_DEPTH = 250
"""The deepest search the kernel's stacks hold (a game may be longer: it may cycle)."""


def moves(s: Any, out: Any) -> int:
    """The candidate cells: 0 to 5 while the game can go on (none once a player has more than
    24), as :meth:`~games.ayoayo.rules.AyoayoRules.pseudo_actions`; :func:`play` refuses an
    empty pit at once."""
    if s[12] > WIN_THRESHOLD or s[13] > WIN_THRESHOLD:
        return 0
    for cell in range(6):
        out[cell] = cell
    return 6


def play(s: Any, cell: int, child: Any, trial: Any) -> bool:
    """The position after sowing ``cell`` in ``child``; False when the move is illegal."""
    return play_with(s, cell, child, trial)


def terminal(s: Any, trial: Any) -> bool:
    return is_terminal_with(s, trial)


def to_move(s: Any) -> int:
    return s[14]


def utility(s: Any) -> float:
    """The captured difference (player 0's view): the utility and the horizon's evaluation."""
    return float(s[12] - s[13])


def pack(s: Any) -> tuple[int, int]:
    return key_of(s)


def endless_value(s: Any) -> float:
    """The endless-play rule (:meth:`games.ayoayo.Ayoayo.endless_value`): the seeds captured
    so far, player 0's view (the captured difference, as :func:`utility`)."""
    return float(s[12] - s[13])


def progress(s: Any) -> int:
    """The seeds captured: a capture can never be undone, so positions of other totals never
    repeat (the proof search's scan for a repetition stops at the first)."""
    return int(s[12] + s[13])


def oracle(s: Any, od: Any) -> float:
    """The tablebase's value of ``s`` (player 0's view), NaN where it holds none."""
    v = tablebase_value_at(s, od)
    if v == NOT_COVERED:
        return np.nan
    return float(-v if s[14] else v)


def oracle_data(oracle: Any) -> Any:
    """What :func:`oracle` reads of a search's oracle: the levels of a tablebase (or of its
    ``probe``) as one array of their addresses, pinned to it
    (:func:`~games.ayoayo.native_probe.oracle_words`), None for another oracle; no levels for
    None."""
    if oracle is None:
        tablebase = None
    else:
        tablebase = tablebase_of(oracle)
        if tablebase is None:
            return None
    return oracle_words(tablebase)


@functools.cache
def compiled_rules() -> CompiledRules:
    """Ayòayò's :class:`~solver.compiled.CompiledRules` (one object: the kernel is kept by it)."""
    return CompiledRules(
        name="ayoayo",
        words=WIDTH,
        move_limit=6,
        max_plies=MAX_DEPTH,
        encode=board_array,
        moves=moves,
        play=play,
        to_move=to_move,
        utility=utility,
        evaluate=utility,
        oracle=oracle,
        oracle_data=oracle_data,
        scratch=WIDTH,
        terminal=terminal,
        pseudo_moves=True,
        pack=pack,
        pack_words=2,
        evaluate_ends=True,
        endless=True,
        endless_value=endless_value,
        progress=progress,
        position_words=15,
    )
