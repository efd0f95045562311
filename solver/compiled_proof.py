"""The generic compiled proof search: can the mover reach a threshold, proved?

Assumes two players, zero-sum, deterministic, perfect information, and a game with compiled
rules (:class:`solver.compiled.CompiledRules`): the search is compiled against them, in the
node search's generated module (:mod:`solver.compiled_proof_kernel`), when first called.

A *proof* test answers, for a position and a threshold ``t`` (the mover's view), whether the
player to move can force a final value of at least ``t`` against every defence, and it answers
only what it has proved: every line ends at a finished game (the rules' ``utility``), at a
position the rules' oracle covers (``oracle``: its exact value; an Ayòayò endgame tablebase),
or at a position repeated on the line, scored by the endless-play rule (``endless_value``). A
line that reaches the depth of the iteration leaves the answer *unknown* (never a heuristic
guess): the caller deepens until the root is settled (:mod:`games.ayoayo.proof` does).

What it assumes and guarantees (docs/solving.md has the argument):

* **Negamax over one threshold.** ``mover >= t`` holds iff some move leads to a child where
  the other player's ``> -t`` fails (a child of the same mover: where its own ``>= t``
  holds); fails iff every move's holds. Values are float64 (ints exactly, within 2**53);
  ``> -t`` is asked as ``>= nextafter(-t, inf)``, so the threshold of each player's positions
  stays one number through a whole test (:func:`mover_threshold`).
* **Repetition, soundly.** A child equal to a position on the current line (the same packed
  words, so the same mover) is a leaf scored by the endless rule. With a ``progress`` rule
  (Ayòayò: a capture can never be undone), the scan of the line stops at the first position of
  another progress. A result that used such a leaf pointing *above* the node (graph-history
  interaction: its truth depends on the line that led there) is returned to the parent but
  never stored, so no other line can reuse it; a result whose repetitions point at the node
  itself or below is a fact of the position and is stored. Rules without ``endless_value``
  are searched as games that never repeat a position.
* **Heights.** A stored result carries its height: 0 at a leaf, one more than the chosen
  child's (the prover's node) or than the highest child's (the defender's). A child's stored
  height is always below its parent's unless the edge closes a repetition, which is what
  makes a certificate taken from the table free of cycles scored the wrong way (its reader
  keeps the lowest height of a position).
* **The table.** Buckets of 8 entries holding each position's packed words exactly (no
  collision is ever a hit). A proved entry is never evicted (a certificate is read from them);
  entries for positions left unknown at some depth (a cache for the rest of that iteration,
  with the move to try first) are. When a bucket is all proved entries a new result is not
  stored and ``P_TABLE_FULL`` counts it: the proof may then need a larger table, never a wrong
  answer.
* **Move order.** The table's move first, then the moves that raise the endless value most
  for the mover (Ayòayò: the seeds the move captures), else by the rules' ``move_score``,
  ties in the rules' order.
* **Limits.** The kernel stops after a node budget (``P_STOP_AT``) and returns to Python
  (Ctrl-C and the clock are looked at there); the caller runs it again and the table gives
  back every finished subtree.

numba is optional (the ``fast`` extra): without it :func:`proof_kernel` answers None.

>>> from games import load_game
>>> game = load_game("connect4")
>>> search = ProofSearch.of(game.compiled_rules())  # None without numba
>>> wins, loses = game.parse_state("4455"), game.parse_state("1414247")  # in 3 plies; in 1
>>> search is None or (search.holds(wins, 1), search.holds(loses, 0)) == (True, False)
True
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from typing import Any, Final

import attrs
import numpy as np
import numpy.typing as npt

from solver.compiled import (
    KERNEL_CONSTANTS,
    NO_ORACLE,
    CompiledRules,
    failure_reason,
    numba_available,
)
from solver.compiled_module import key_words, load_module
from solver.interrupts import compiling
from solver.proof_words import (
    DISPROVED,
    MOVE_BITS,
    P_GEN,
    P_NODES,
    P_ORACLE,
    P_STOP_AT,
    P_STOPPED,
    PROOF_BUCKET,
    PROOF_STATS,
    PROVED,
    UNKNOWN,
    status_of,
)

__all__ = [
    "MAX_PLY",
    "ProofKernel",
    "ProofSearch",
    "mover_threshold",
    "new_table",
    "proof_kernel",
    "proved_rows",
    "warm",
]

Array = npt.NDArray[np.int64]

MAX_PLY: Final = 1000
"""The deepest line the kernel's stacks hold (an iteration deeper than this is refused)."""


@attrs.frozen
class ProofKernel:
    """The compiled proof search of one set of rules, in this process.

    Attributes:
        prove: the threshold test (see :func:`solver.compiled_proof_kernel.prove`).
        entry: ``entry(table, s)``: a position's stored entry, or 0.
        restore: ``restore(table, rows, stats)``: proved entries put back.
        line_keys: ``line_keys(boards, keys, n)``: the keys of a line's first ``n`` positions.
    """

    prove: Any
    entry: Any
    restore: Any
    line_keys: Any


_KERNELS: dict[CompiledRules, ProofKernel] = {}
_FAILED: dict[CompiledRules, str] = {}


def proof_kernel(rules: CompiledRules) -> ProofKernel | None:
    """The proof search compiled against ``rules`` (numba compiles it when first called, and
    keeps it on disk), or None, said once on stderr when it is a failure: numba missing or
    switched off, moves beyond what a table entry holds, rules that cannot be written out."""
    found = _KERNELS.get(rules)
    if found is not None or rules in _FAILED or not numba_available():
        return found
    try:
        if rules.move_limit >= (1 << MOVE_BITS) - 1:
            raise ValueError(f"move_limit {rules.move_limit} is above {(1 << MOVE_BITS) - 2}")
        module = load_module(rules, KERNEL_CONSTANTS)
    except Exception as e:  # the rules cannot be written out
        why = failure_reason(e)
        _FAILED[rules] = why
        sys.stderr.write(f"gamesolver: note: no proof search for {rules.name!r} ({why})\n")
        return None
    found = _KERNELS[rules] = ProofKernel(
        module.prove, module.proof_entry, module.proof_restore, module.proof_line_keys
    )
    return found


def mover_threshold(mover: int, x: float) -> float:
    """The kernel's threshold for the mover, for "player 0 gets at least ``x``" (player 1's:
    more than ``-x``, as the kernel asks it of a child)."""
    return float(x) if mover == 0 else float(np.nextafter(-float(x), np.inf))


def new_table(rules: CompiledRules, slots: int) -> Array:
    """An empty table of ``slots`` entries (rounded up to a power of two, at least a bucket)."""
    size = max(PROOF_BUCKET, 1 << max(3, (slots - 1).bit_length()))
    return np.zeros((size, key_words(rules) + 1), np.int64)


def proved_rows(table: Array) -> Array:
    """The proved entries of a table (what a checkpoint keeps): packed words, then the entry."""
    status = table[:, -1] & 3
    rows: Array = table[(status == PROVED) | (status == DISPROVED)].copy()
    return rows


class ProofSearch:
    """One game's compiled proof search: the kernel, its stacks, counters and oracle.

    Args:
        rules: the game's compiled rules.
        kernel: their proof kernel (:func:`proof_kernel`).
        oracle: an oracle the rules read (``rules.oracle_data``), or None.
    """

    def __init__(self, rules: CompiledRules, kernel: ProofKernel, oracle: Any = None) -> None:
        self.rules = rules
        self.kernel = kernel
        rows = MAX_PLY + 2
        limit = rules.move_limit
        self.boards = np.zeros((rows, rules.words + rules.scratch), np.int64)
        self.keys = np.zeros((rows, key_words(rules) + 1), np.int64)
        self.moves = np.zeros((rows, 2 * limit), np.int64)
        self.gains = np.zeros((rows, limit), np.float64)
        self.kids = np.zeros((rows, limit, (rules.position_words or rules.words) + 1), np.int64)
        self.st = np.zeros(PROOF_STATS, np.int64)
        self.st[P_STOP_AT] = 1 << 62
        data = None
        if rules.oracle_data is not None:
            data = rules.oracle_data(oracle)
            if data is None:
                raise ValueError(f"the compiled rules of {rules.name!r} cannot read {oracle!r}")
        elif oracle is not None:
            raise ValueError(f"the compiled rules of {rules.name!r} read no oracle")
        self.oracle_data = NO_ORACLE if data is None else data
        self.st[P_ORACLE] = oracle is not None

    @classmethod
    def of(cls, rules: CompiledRules, oracle: Any = None) -> ProofSearch | None:
        """The proof search of ``rules`` (None without its kernel: see :func:`proof_kernel`)."""
        kernel = proof_kernel(rules)
        return None if kernel is None else cls(rules, kernel, oracle)

    def new_table(self, slots: int) -> Array:
        return new_table(self.rules, slots)

    def load(self, line: Sequence[Any], state: Any) -> int:
        """Put the line that led to ``state`` (game states) and ``state`` on the stacks: the
        ply of ``state``."""
        ply = len(line)
        if ply + 2 >= MAX_PLY:
            raise ValueError(f"a line of {ply} plies is longer than the proof search holds")
        words = self.rules.words
        for i, s in enumerate(line):
            self.boards[i, :words] = self.rules.encode(s)
        self.kernel.line_keys(self.boards, self.keys, np.int64(ply))
        self.boards[ply, :words] = self.rules.encode(state)
        return ply

    def run(self, ply: int, depth: int, t: float, table: Array) -> int:
        """One call of the kernel on the loaded position (until ``P_STOP_AT`` nodes): its
        result word (:mod:`solver.proof_words`)."""
        return int(
            self.kernel.prove(
                self.boards, self.keys, self.moves, self.gains, self.kids, np.int64(ply),
                np.int64(depth), float(t), table, self.st, self.oracle_data,
            )
        )  # fmt: skip

    def entry(self, table: Array, state: Any) -> int:
        """The stored entry of ``state`` (a game state), or 0."""
        row = np.zeros(self.rules.words, np.int64)
        row[:] = self.rules.encode(state)
        return int(self.kernel.entry(table, row))

    def restore(self, table: Array, rows: Array) -> None:
        """Put back proved entries (:func:`proved_rows` of a table of the same rules)."""
        self.kernel.restore(table, np.ascontiguousarray(rows, np.int64), self.st)

    def holds(
        self, state: Any, x: float, *, table: Array | None = None, line: Sequence[Any] = ()
    ) -> bool:
        """Whether player 0 can force at least ``x`` from ``state``, deepened until settled
        (no node budget: a small game's, or a test's). ``table``: the test's table (None: a
        new one of 65,536 entries); every test of one table must be of the same ``x``.
        ``line``: the positions that led to ``state`` (their repetitions are leaves)."""
        table = self.new_table(1 << 16) if table is None else table
        mover = int(self.rules.to_move(self.rules.encode(state)))
        t = mover_threshold(mover, x)
        for depth in range(1, MAX_PLY - 1 - len(line)):
            self.st[P_GEN] += 1
            self.st[P_NODES] = 0
            self.st[P_STOPPED] = 0
            status = status_of(self.run(self.load(line, state), depth, t, table))
            if status != UNKNOWN:
                return (status == PROVED) == (mover == 0)
        raise ValueError(f"the test >= {x} did not settle within {MAX_PLY} plies")


def warm(rules: CompiledRules) -> float | None:
    """Have the proof search of ``rules`` ready now, each entry point called once on tiny
    inputs so numba compiles (or loads) it here, not inside a proof's clock: the seconds spent
    compiling (said on stderr), 0.0 when it was ready or loaded, None without a kernel
    (:func:`proof_kernel`)."""
    known = rules in _WARM
    kernel = proof_kernel(rules)
    if kernel is None:
        return None
    if known:
        return 0.0
    began = time.perf_counter()
    with compiling():  # a Ctrl-C that broke the compile stops the command, as asked
        search = ProofSearch(rules, kernel)
        table = search.new_table(PROOF_BUCKET)
        search.st[P_STOP_AT] = 1  # the test stops at its first node: the rules never see it
        search.run(0, 1, 0.0, table)
        kernel.line_keys(search.boards, search.keys, np.int64(0))
        kernel.entry(table, np.zeros(rules.words, np.int64))
        kernel.restore(table, proved_rows(table), search.st)
    _WARM.add(rules)
    if not sum(kernel.prove.stats.cache_misses.values()):
        return 0.0
    seconds = time.perf_counter() - began
    sys.stderr.write(
        f"gamesolver: compiled the proof search for {rules.name!r} in {seconds:.1f} s "
        "(once; later commands load it)\n"
    )
    return seconds


_WARM: set[CompiledRules] = set()
"""The rules whose proof search is ready in this process."""
