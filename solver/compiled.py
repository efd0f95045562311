"""The compiled route: one generic node search, compiled with numba against a game's own rules.

Assumes two players, zero-sum, deterministic, perfect information, and a game whose positions
fit a fixed number of 64-bit integers. A game offers its rules as plain Python functions that
numba can compile (:class:`CompiledRules`, through :class:`solver.game.HasCompiledRules`); this
module compiles the engine's node search against them (once: it is kept on disk) and runs it
under the engine's one driver (:func:`solver.engine.search`) as a
:class:`~solver.node_search.NodeSearch`.
Deepening, the root, plies, the principal variation, limits and ties stay the driver's (the
root's moves of an iteration are searched in one kernel entry, in the driver's windows:
:meth:`CompiledSearch.root_values`, and a principal variation proved move by move in another:
:meth:`CompiledSearch.proved_line`).

The kernel is :mod:`solver.python_search` restated over arrays: fail-soft negamax with
principal-variation search, proofs from the utility bounds (a child proved to reach its mover's
best possible value settles the node), a transposition table with bound flags and
horizon-free entries, the table's move first and then the history heuristic, nodes one ply
above the horizon valued inline, and an oracle (an exact table the rules can read:
``CompiledRules.oracle``) probed at every node as the Python search probes one. Rules may
add what the best game-specific solvers search with (Pons's Connect Four solver): only the moves
that do not lose at once, moves ordered by the rules' own score, and a search to the end by null
windows between the bounds; these change the tree, never the values. Values are
float64: ints and floats within 2**53 exactly.
The table is an array of ``2**k`` slots in buckets of four, each entry holding the whole
position (its words, or the rules' exact ``pack`` of them: no collision is ever taken for a
hit) and its value; a full bucket gives up its oldest iteration's shallowest entry, so on large
searches the tree (never the values) may differ from the Python search's. Rules whose moves
need memory (trial sowings) get a scratch array per ply (``CompiledRules.scratch``), and rules
whose legality costs playing the move give candidates that ``play`` may refuse
(``pseudo_moves``): the kernel allocates nothing while it searches and is compiled without
numba's runtime (no reference counts on the arrays it passes), its small per-node helpers
inlined by numba.

numba is optional (the ``fast`` extra): without it, or with ``GAMESOLVER_NATIVE=0``,
:func:`compiled_search` answers None and the Python node search runs, with the same answers.

The kernel is kept on disk: :mod:`solver.compiled_module` writes it, with the game's rules,
as a module numba caches (:mod:`solver.numba_cache`), so only the first process ever compiles
it (15-30 s; ``gamesolver compile`` does it ahead of time) and a later one loads it in a fraction
of a second. The engine searches every game that offers compiled rules on it, with no need to
ask; if the kernel cannot be built (rules it cannot write out, a numba or LLVM failure), one
line on stderr says so and the Python search answers.

>>> from games import load_game
>>> from solver.engine import search
>>> game = load_game("connect4")
>>> prepare(game) is not None  # loads (or compiles) the kernel (None without numba)
True
>>> result = search(game, game.parse_state("4455"), depth=5)
>>> result.value, result.exact, result.plies, sorted(result.best_actions)
(1, True, 3, [2, 5])
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Final

import attrs
import numpy as np
import numpy.typing as npt

from solver import kernel_memory
from solver.capabilities import has_capability
from solver.compiled_module import CACHE_LINE, key_words, load_module, table_row
from solver.game import Game, HasCompiledRules, HasCompiledSearch, HasKey
from solver.interrupts import compiling
from solver.node_search import UNBOUNDED, Limits, Outcomes, SearchStopped, outcomes
from solver.proof_words import PROOF_CONSTANTS
from solver.results import SearchRequest, SearchStats

__all__ = [
    "CompiledRules",
    "CompiledSearch",
    "compiled_search",
    "failure_reason",
    "numba_available",
    "prepare",
    "prepare_rules",
    "ready",
]

Array = npt.NDArray[np.int64]

# Counters and controls shared by the kernel and Python (indices into one int64 array).
NODES, LEAVES, CUTOFFS, HITS, HORIZON, STOP_AT, STOPPED, GEN, ORACLE, EPOCH, RESUME = range(11)
N_STATS: Final = 11

KERNEL_CHECK_NODES: Final = 1 << 15
"""The first node budget between two returns to Python (then sized to ~20 ms of search)."""

EXACT, LOWER, UPPER = 0, 1, 2  # as solver.table

VALUED, BOUNDED = 1, 2
"""What the kernel's ``root_moves`` found of a root move: its exact value, or only an upper
bound."""

KERNEL_CONSTANTS: Final = {
    "NODES": NODES, "LEAVES": LEAVES, "CUTOFFS": CUTOFFS, "HITS": HITS, "HORIZON": HORIZON,
    "STOP_AT": STOP_AT, "STOPPED": STOPPED, "GEN": GEN, "ORACLE": ORACLE, "EPOCH": EPOCH,
    "RESUME": RESUME,
    "EXACT": EXACT, "LOWER": LOWER, "UPPER": UPPER, "VALUED": VALUED, "BOUNDED": BOUNDED,
    **PROOF_CONSTANTS,
}  # fmt: skip
"""The constants the kernel's text leaves to the generated module (with the rules'): the node
search's and the proof search's (:mod:`solver.proof_words`)."""


@attrs.frozen(cache_hash=True)  # a dict key of every search (kernels, spare arrays)
class CompiledRules:
    """A game's rules as numba-compilable functions over a position held in ``words`` int64s.

    Every function takes the position as a 1-D int64 array ``s`` (``words`` long) and must be
    compilable by ``numba.njit`` (no Python objects; constants may come from a closure).
    Moves are ints in ``0 .. move_limit - 1`` and are the game's actions themselves.

    Attributes:
        name: names the compiled kernel in messages (the game's name and options).
        words: the int64s of one position (the first ones say which position it is: an
            ``encode`` of it; rules may use the rest as a child's scratch).
        move_limit: every move is below it.
        max_plies: the longest game (a search this deep meets no horizon).
        encode: Python: a game state as a ``words``-long int64 array.
        moves: ``moves(s, out) -> n``: the legal moves written to ``out[:n]``, in the order the
            search should try them; 0 exactly when ``s`` is terminal.
        play: ``play(s, move, child)``: the position after ``move`` written to ``child``.
        to_move: ``to_move(s) -> 0 or 1``.
        utility: ``utility(s) -> float``: a terminal position's value, player 0's view.
        evaluate: ``evaluate(s) -> float``: the horizon's heuristic, player 0's view (None:
            a search must reach the end); it must equal the game's own ``evaluate``.
        key: ``key(s) -> int``: a hash of the position (None: a mix of its words).
        oracle: ``oracle(s, data) -> float``: the exact game value (player 0's view) of a
            position an oracle covers, NaN for one it does not; probed at every node, as the
            Python search probes a search's ``oracle`` (None: searches with an oracle run in
            Python).
        oracle_data: Python: ``oracle_data(oracle)``, what ``oracle`` reads for a search's
            oracle (a Python callable), or None when the rules cannot read that one (the
            search then runs in Python); ``oracle_data(None)`` is an empty one of the same
            type (the kernel is compiled for one type).
        top, bottom: ``top(s) -> float`` and ``bottom(s) -> float``: the best and the worst
            value the player to move can still reach from ``s`` (the mover's view; both or
            neither), tighter than the utility bounds (Connect Four's scored game: a win no
            sooner than the mover's next stone); the kernel cuts on them as on the utility
            bounds, so its trees may differ from the Python search's, never its values.
        safe_moves: ``safe_moves(s, out) -> n``: used instead of ``moves`` where the search
            has at least two plies to go (so it sees a move that loses at once lose): the
            legal moves that do not let the opponent win at once, in the order to try them,
            or a single move that wins at once; 0 exactly when ``s`` is terminal, -1 when
            every move loses at once (the kernel then answers the worst the mover can reach:
            ``bottom``, or the utility bound). Values stay the Python search's; the trees
            shrink.
        move_score: ``move_score(s, move) -> int >= 0``: how good ``move`` looks (Connect
            Four: the winning threats it makes); the kernel tries the moves highest first,
            ties in the rules' order, the table's move before them all, instead of the history
            heuristic.
        null_window: a search to the end is run as null-window searches that close in on the
            value between the bounds (``top``/``bottom`` and the utility bounds), as Pons's
            solver does: for games whose values to the end are few (scores), not for ones
            valued by a heuristic.
        scratch: int64s of scratch the kernel gives the rules at each ply (0: none). ``moves``,
            ``safe_moves``, ``play`` and ``terminal`` may each take it as one more argument,
            last (``play(s, move, child, scratch)``); it holds nothing between two calls (Ayòayò:
            the trial sowings of the feeding rule). The kernel allocates nothing while it
            searches, so rules that need memory take it here.
        terminal: ``terminal(s) -> bool``: whether ``s`` is over, where that is cheaper than
            listing its moves (None: ``moves`` tells).
        pseudo_moves: ``moves`` lists candidates, some perhaps illegal, and ``play`` answers
            whether it played one (True) or refused it (False, ``child`` then means nothing);
            a position where no candidate plays is over. For rules whose legality costs a move
            anyway (Ayòayò: a sowing that never ends, the feeding rule): the kernel then plays
            each move once, not once to list it and again to search it. Needs ``terminal``.
        pack: ``pack(s) -> tuple of pack_words ints``: the position exactly, in fewer words
            (two positions of one pack are one position); the table holds the pack instead of
            the ``words``, so entries are smaller and ``words`` may hold scratch the rules
            write in a child (Ayòayò's sowing keeps its loop check there). A slot is a hash of
            the pack (or ``key``); an entry is a hit only when its whole pack is the
            position's, so two positions of one hash never share a value. None: the table
            holds the ``words`` themselves.
        pack_words: the ints of a ``pack``.
        evaluate_ends: ``evaluate`` gives a position that is over its ``utility`` (Ayòayò's
            captured difference; Connect Four's too): the kernel then tests a child one ply
            above the horizon for the end only while it matters (the node met no horizon yet,
            or the child's value would settle the node). Values and exactness are the same.
        endless: a game may be longer than ``max_plies`` (Ayòayò cycles): then ``max_plies``
            is only the deepest search the kernel's stacks hold (the driver deepens no
            further), and a search to the end with nothing to stop it runs in Python.
        endless_value: ``endless_value(s) -> float``: for a game that cycles, the value of a
            play that repeats for ever through ``s`` (player 0's view; constant along any
            cycle): the compiled twin of the game's ``endless_value``. The proof search
            (:mod:`solver.compiled_proof`) scores a position repeated on its line by it, and
            tries first the moves that raise it most for the mover (Ayòayò: the seeds a move
            captures). None: the proof search never looks for repetitions.
        progress: ``progress(s) -> int``: what a game can never undo (Ayòayò: the seeds
            captured), never lower in a later position, so two positions of other progress
            are never one: the proof search's scan of its line for a repetition stops at the
            first position of another progress (None: it scans the whole line). Needs
            ``endless_value``.
        position_words: the first words that hold the position itself, the rest being
            scratch that ``play`` may write in a child and no rule reads from a position
            (Ayòayò: 15 of its 32); the proof search keeps each child's first
            ``position_words`` only (0: all ``words``).
    """

    name: str
    words: int
    move_limit: int
    max_plies: int
    encode: Callable[[Any], Array]
    moves: Callable[..., int]
    play: Callable[..., bool | None]
    to_move: Callable[..., int]
    utility: Callable[..., float]
    evaluate: Callable[..., float] | None = None
    key: Callable[..., int] | None = None
    oracle: Callable[..., float] | None = None
    oracle_data: Callable[[Any], Any] | None = None
    top: Callable[..., float] | None = None
    bottom: Callable[..., float] | None = None
    safe_moves: Callable[..., int] | None = None
    move_score: Callable[..., int] | None = None
    null_window: bool = False
    scratch: int = 0
    terminal: Callable[..., bool] | None = None
    pseudo_moves: bool = False
    pack: Callable[..., tuple[int, ...]] | None = None
    pack_words: int = 0
    evaluate_ends: bool = False
    endless: bool = False
    endless_value: Callable[..., float] | None = None
    progress: Callable[..., int] | None = None
    position_words: int = 0


NO_ORACLE: Final = np.zeros(1, np.int64)
"""What the kernel of rules without an oracle is given for the oracle's data (never read)."""


def numba_available() -> bool:
    """Whether compiled node searches may run: numba importable and not switched off."""
    if os.environ.get("GAMESOLVER_NATIVE", "1") == "0":
        return False
    return kernel_memory.numba_loads()  # one line on stderr if it cannot be loaded


@attrs.frozen
class Kernel:
    """A compiled kernel of one process.

    Attributes:
        child_value: the node search (see :func:`solver.compiled_kernel.child_value`).
        table_move: the table's move for a position, or -1.
        root_moves: every root move's search of one iteration (see
            :func:`solver.compiled_kernel.root_moves`).
        proved_line: a value-keeping line (see :func:`solver.compiled_kernel.proved_line`).
        seconds: the time it took to have it ready (compiling, or loading numba's cache).
        compiled: whether numba compiled it here (False: it came from numba's disk cache).
    """

    child_value: Any
    table_move: Any
    root_moves: Any
    proved_line: Any
    seconds: float
    compiled: bool


_KERNELS: dict[CompiledRules, Kernel] = {}
"""The kernels of this process, by rules."""

_FAILED: dict[CompiledRules, str] = {}
"""Rules whose kernel could not be built in this process, and why (said once on stderr)."""


def prepare(game: Any) -> float | None:
    """Have ``game``'s kernel ready now (once per process): the seconds numba spent compiling
    it (0.0 when it was ready or came from the disk cache), or None when there is no kernel to
    use (no compiled rules, numba missing or switched off, or the kernel failed to build).

    A game with a compiled search of its own (:class:`solver.game.HasCompiledSearch`) readies
    its kernels itself (``compile_kernels``), whichever of its searches it runs."""
    if not numba_available():
        return None
    if isinstance(game, HasCompiledSearch):
        seconds: float | None = game.compile_kernels()
        return seconds
    if not isinstance(game, HasCompiledRules):
        return None
    return prepare_rules(game.compiled_rules())


def prepare_rules(rules: CompiledRules) -> float | None:
    """:func:`prepare` for ``rules``' kernel: the seconds spent compiling it, 0.0 when it was
    ready or loaded, None when it cannot be built."""
    known = rules in _KERNELS
    found = kernel(rules)
    if found is None:
        return None
    return found.seconds if found.compiled and not known else 0.0


def ready(rules: CompiledRules) -> bool:
    """Whether the kernel for ``rules`` is ready in this process."""
    return rules in _KERNELS


def failure_reason(error: BaseException) -> str:
    """Why a kernel could not be built, in one line: the first line of ``error``'s message
    (at most 200 characters), or its class name when it has none."""
    return (str(error).strip().splitlines() or [type(error).__name__])[0][:200]


def kernel(rules: CompiledRules) -> Kernel | None:
    """The kernel for ``rules``, loaded from numba's disk cache or compiled (once per process);
    None, said once on stderr, when it cannot be built: the engine then searches in Python."""
    if rules in _KERNELS:
        return _KERNELS[rules]
    if rules in _FAILED or _jit_disabled():
        return None
    began = time.perf_counter()
    try:
        with compiling():  # a Ctrl-C that broke the compile stops the command, as asked
            child_value, table_move, root_moves, line = _build(rules)
            _warm(rules, child_value, table_move, root_moves, line)
    except Exception as e:  # numba, LLVM or the rules' own code: the Python search answers
        why = failure_reason(e)
        _FAILED[rules] = why
        sys.stderr.write(
            f"gamesolver: note: the compiled search for {rules.name!r} cannot be built ({why}); "
            "searching in Python (the same answers, slower)\n"
        )
        return None
    misses = sum(child_value.stats.cache_misses.values())  # 0: loaded from numba's disk cache
    _KERNELS[rules] = found = Kernel(
        child_value,
        table_move,
        root_moves,
        line,
        time.perf_counter() - began,
        compiled=misses > 0,
    )
    return found


def _jit_disabled() -> bool:
    """Whether numba runs kernels as plain Python (``NUMBA_DISABLE_JIT=1``, its debugging
    switch): the Python node search is the faster of the two then."""
    import numba

    return bool(numba.config.DISABLE_JIT)  # type: ignore[attr-defined]


def _build(rules: CompiledRules) -> tuple[Any, Any, Any, Any]:
    """The node search compiled against ``rules``: ``(child_value, table_move, root_moves,
    proved_line)``, from the
    kernel's module on disk (:mod:`solver.compiled_module`), loaded from numba's cache when a
    process compiled it before."""
    module = load_module(rules, KERNEL_CONSTANTS)
    return module.child_value, module.table_move, module.root_moves, module.proved_line


def _warm(
    rules: CompiledRules, child_value: Any, table_move: Any, root_moves: Any, line: Any
) -> None:
    """Call the kernel once on a tiny table so numba compiles it now."""
    arrays = _Arrays(rules, 4)
    tops, bottoms = _bounds(UNBOUNDED)
    start = np.zeros(rules.words, np.int64)
    arrays.st[STOP_AT] = 1  # the search stops at its first node: the rules never see `start`
    data = _no_data(rules)
    child_value(start, 2, -math.inf, math.inf, *arrays.parts, tops, bottoms, data)
    table_move(arrays.table, start, arrays.st)
    arrays.st[STOPPED] = 0
    kids, one = start[None, :].copy(), np.ones(1, np.int64)
    answers = (np.zeros(2), np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros(4, np.int64))
    root_moves(kids, one, 1, 2, False, *answers, *arrays.parts, tops, bottoms, data)
    arrays.st[STOPPED] = 0
    row = np.zeros(rules.words + rules.scratch, np.int64)
    at = np.zeros(6, np.int64)
    at[2] = 1
    at[4] = 1  # the step's moves given (none): the rules never see `row`
    ends = (np.zeros(rules.max_plies + 2, np.int64), np.zeros(rules.move_limit, np.int64), at)
    line(row, row.copy(), 2, np.zeros(1), *ends, *arrays.parts, tops, bottoms, data)
    _release(arrays)


def _no_data(rules: CompiledRules) -> Any:
    """The oracle's data of a search without an oracle (of the type the kernel takes; made
    once per rules: the kernel only reads it)."""
    data = _NO_DATA.get(rules)
    if data is None:
        data = _NO_DATA[rules] = NO_ORACLE if rules.oracle_data is None else rules.oracle_data(None)
    return data


_NO_DATA: dict[CompiledRules, Any] = {}
"""Each rules' oracle data of a search without an oracle."""

_BOUNDS: dict[Outcomes, tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]] = {}
"""The kernel's arrays of each player's best and worst value, by the game's outcomes."""


def _bounds(found: Outcomes) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The kernel's ``(tops, bottoms)`` arrays for ``found`` (made once: the kernel only
    reads them)."""
    arrays = _BOUNDS.get(found)
    if arrays is None:
        if len(_BOUNDS) >= CODES_KEPT:
            _BOUNDS.clear()
        arrays = _BOUNDS[found] = (
            np.array(found.best, np.float64),
            np.array(found.worst, np.float64),
        )
    return arrays


CODES_KEPT: Final = 4096
"""The most encoded positions a search keeps (and the most outcomes' arrays kept)."""

MAX_GEN: Final = 1 << 22
"""The iteration counter kept in table entries (bits 40-62) is cleared before it gets here."""

_SPARES: dict[tuple[CompiledRules, int], list[_Arrays]] = {}
"""Arrays free for the next search, by rules and slots (one spare a size: a search rarely runs
beside another).

A fresh table of a million slots costs a search milliseconds in page faults as its first
stores touch its pages, more than a small search takes, and even the small stacks cost a
small search a tenth of its time to allocate; so a search takes the arrays a finished one
left: its history and counters cleared, its iterations started past the last one's, so the
kernel reads every older entry as empty (``EPOCH``): the same search as on fresh arrays (the
stacks hold nothing between two searches: each row is written before it is read)."""


def _release(arrays: _Arrays) -> None:
    """Give ``arrays`` back for a later search (once)."""
    if not arrays.table_given_back:
        pool = _SPARES.setdefault(arrays.key, [])
        if not pool:
            pool.append(arrays)
        arrays.table_given_back = True


def _take(rules: CompiledRules, table_size: int) -> _Arrays:
    """Arrays for a search of ``rules`` with a table of at most ``table_size`` slots: a
    finished search's, made as good as fresh, or new ones."""
    slots = 1 << max(2, table_size.bit_length() - 1)  # a power of two <= size (>= 4)
    pool = _SPARES.get((rules, slots))
    if pool:
        arrays = pool.pop()
        arrays.renew()
        return arrays
    return _Arrays(rules, slots)


def aligned_table(slots: int, words: int) -> Array:
    """A zeroed node-search table of ``slots`` entries for positions of ``words`` packed
    int64s (:func:`~solver.compiled_module.table_row` each), starting on a cache line: each
    bucket is one line, as its first slot is a multiple of the bucket."""
    row = table_row(words)
    flat = np.zeros(slots * row + CACHE_LINE // 8, np.int64)
    skip = (-flat.ctypes.data % CACHE_LINE) // 8
    return flat[skip : skip + slots * row].reshape(slots, row)


LONGEST: Final = 1 << 62
"""Plies standing for a line to the end (a depth beyond any game's), in the kernel's line."""


class _Arrays:
    """The kernel's memory for one search: stacks, table, history, counters."""

    def __init__(self, rules: CompiledRules, slots: int) -> None:
        rows = rules.max_plies + 3
        self.key = (rules, slots)
        self.boards = np.zeros((rows, rules.words + rules.scratch), np.int64)
        self.orders = np.zeros((rows, rules.move_limit), np.int64)
        self.history = np.zeros((2, rules.move_limit), np.int64)
        self.st = np.zeros(N_STATS, np.int64)
        self.table: Array = aligned_table(slots, key_words(rules))
        self.values = self.table.view(np.float64)  # the last word of an entry: its value
        self.narrowing = np.zeros(2)  # the interval a search's null windows have left
        self.table_given_back = False
        self.st[GEN] = self.st[EPOCH] = 1
        self.parts = (
            self.boards,
            self.orders,
            self.table,
            self.values,
            self.history,
            self.st,
            self.narrowing,
        )

    def renew(self) -> None:
        """Ready for another search: history and counters cleared, the table's entries made
        old (or cleared, when the iteration count would overflow its bits)."""
        gen = int(self.st[GEN])
        if gen >= MAX_GEN:
            self.table.fill(0)
            gen = 0
        self.history.fill(0)
        self.st.fill(0)
        self.st[GEN] = self.st[EPOCH] = gen + 1
        self.table_given_back = False


class CompiledSearch:
    """The generic compiled node search of one search (a :class:`NodeSearch`)."""

    trace = None
    max_depth: float = math.inf

    def __init__(
        self,
        game: Game[Any, Any],
        rules: CompiledRules,
        request: SearchRequest,
        limits: Limits,
        kernel: Kernel,
        oracle_data: Any = None,
        bounds: Outcomes | None = None,
    ) -> None:
        self.game = game
        self.rules = rules
        self.limits = limits
        self.kernel, self.probe = kernel.child_value, kernel.table_move
        self.root_kernel = kernel.root_moves
        self.line_kernel = kernel.proved_line
        self.arrays = _take(rules, request.table_size)  # given back when the search ends
        self.st = self.arrays.st
        self.oracle_data = _no_data(rules) if oracle_data is None else oracle_data
        self.st[ORACLE] = oracle_data is not None
        self.tops, self.bottoms = _bounds(outcomes(game, None) if bounds is None else bounds)
        self.has_evaluate = rules.evaluate is not None
        self.keyf = game.key if has_capability(game, HasKey) else None
        self.budget = KERNEL_CHECK_NODES
        self.memo_size = request.table_size
        self.deepest = rules.max_plies + 1  # a search to the end goes no deeper
        self.codes: dict[Any, Array] = {}  # state -> its encoding (the driver asks again)
        if rules.endless:  # the deepest search its stacks hold: the driver deepens no further
            self.max_depth = rules.max_plies

    def __del__(self) -> None:
        arrays = self.__dict__.get("arrays")
        if arrays is not None:
            _release(arrays)

    @property
    def nodes(self) -> int:
        return int(self.st[NODES])

    @nodes.setter
    def nodes(self, value: int) -> None:
        self.st[NODES] = value

    @property
    def horizon(self) -> int:
        return int(self.st[HORIZON])

    def encoded(self, state: Any) -> Array:
        """``state`` as the kernel's words (the rules' ``encode``), kept for the search: the
        driver passes a position again (the principal variation, the table's move)."""
        codes = self.codes
        arr = codes.get(state)
        if arr is None:
            if len(codes) >= CODES_KEPT:
                codes.clear()
            arr = codes[state] = self.rules.encode(state)
        return arr

    def child_value(
        self, child: Any, cp: int, player: int, depth: float, alpha: Any, beta: Any
    ) -> Any:
        """The kernel's value of a child from the parent's view, resumed after each budget."""
        arr = self.encoded(child)
        d = self.deepest if depth >= self.deepest else int(depth)  # END is above any depth
        lo, hi = (float(alpha), float(beta)) if cp == player else (-float(beta), -float(alpha))
        kernel, parts, tops, bottoms = self.kernel, self.arrays.parts, self.tops, self.bottoms
        data = self.oracle_data
        v = float(self.resumed(lambda: kernel(arr, d, lo, hi, *parts, tops, bottoms, data), True))
        return _number(v if cp == player else -v)

    def value_to_the_end(self, state: Any) -> Any:
        """The exact value of ``state`` (player 0's view), searched to the end in one kernel
        entry on a table renewed for it (the entries of earlier searches read as empty),
        resumed after a node budget only when the budget stopped it: the value-only solve of
        :class:`solver.exact_values.ExactValues`, with the fewest Python steps around the
        kernel (a position settled in a node or two costs a few microseconds)."""
        arrays, st = self.arrays, self.st
        arrays.renew()
        code = self.rules.encode(state)
        kernel, parts, deepest = self.kernel, arrays.parts, self.deepest
        tops, bottoms, data = self.tops, self.bottoms, self.oracle_data

        def call() -> Any:
            return kernel(code, deepest, -math.inf, math.inf, *parts, tops, bottoms, data)

        st[STOP_AT] = self.budget  # counted from 0 (renewed): back in Python after it
        v = call()
        if st[STOPPED]:  # a long search: resumed where it stopped, after each budget
            st[RESUME] = 1
            v = self.resumed(call, True)
        v = -float(v) if self.game.to_move(state) else float(v)
        return _number(abs(v) if v == 0 else v)

    def root_values(
        self, children: Sequence[Any], cps: Sequence[int], player: int, depth: float,
        all_values: bool,
    ) -> list[tuple[Any, bool, bool]]:  # fmt: skip
        """Every root move's search of one iteration in one kernel entry (resumed after each
        budget), as the driver's own loop over :meth:`child_value` would search them: the
        children in the driver's order, the first with the full window, each later one with
        the narrowest window around the best so far, again when it fails high, and for its
        exact value when worse and ``all_values``. Per child: its value (``player``'s view),
        whether that is exact (else an upper bound, below the best), and whether its search met
        no horizon."""
        n = len(children)
        kids = np.array([self.encoded(c) for c in children], np.int64)
        same = np.array([cp == player for cp in cps], np.int64)
        d = self.deepest if depth >= self.deepest else int(depth)
        found = np.zeros(n + 1)
        kinds = np.zeros(n, np.int64)
        free = np.zeros(n, np.int64)
        at = np.zeros(4, np.int64)
        kernel, parts, tops, bottoms = self.root_kernel, self.arrays.parts, self.tops, self.bottoms
        data = self.oracle_data
        self.resumed(
            lambda: kernel(
                kids, same, n, d, all_values, found, kinds, free, at, *parts, tops, bottoms, data
            ),
            False,
        )
        return [(_number(float(found[i])), kinds[i] == VALUED, bool(free[i])) for i in range(n)]

    def proved_line(self, state: Any, player: int, depth: float, x: Any) -> tuple[Any, ...] | None:
        """The driver's ``proved_line`` in one kernel entry (resumed after each budget): a
        value-keeping line from ``state`` (``x``: its value for ``player``, to move), each
        move the first in the rules' order, the table's move first, whose child keeps ``x``
        in a null window, to ``depth`` plies or the end. None for rules with pseudo-moves
        (their candidates are not the game's moves in its order): the driver's own then."""
        rules = self.rules
        if rules.pseudo_moves:
            return None
        row = np.zeros(rules.words + rules.scratch, np.int64)
        row[: rules.words] = self.encoded(state)
        kid = np.zeros_like(row)
        xs = np.array([float(x)])
        line = np.zeros(rules.max_plies + 2, np.int64)
        order = np.zeros(rules.move_limit, np.int64)
        at = np.zeros(6, np.int64)
        at[2] = LONGEST if depth >= LONGEST else int(depth)
        kernel, parts, tops, bottoms = self.line_kernel, self.arrays.parts, self.tops, self.bottoms
        data, deepest = self.oracle_data, self.deepest
        self.resumed(
            lambda: kernel(row, kid, deepest, xs, line, order, at, *parts, tops, bottoms, data),
            False,
        )
        return tuple(int(m) for m in line[: at[0]])

    def resumed(self, call: Callable[[], Any], restart_horizon: bool) -> Any:
        """``call()``'s answer, the kernel called again after each node budget until it ends:
        :class:`SearchStopped` once a limit is reached. ``restart_horizon``: the restart counts
        its own horizon (the table keeps the rest), so the count goes back to where it was
        (a kernel entry that resumes where it stopped sets it back itself)."""
        st = self.st
        limit = self.limits.node_limit
        while True:
            nodes = int(st[NODES])
            stop = nodes + self.budget
            if limit is not None and limit < stop:
                stop = limit
            st[STOP_AT] = stop
            st[STOPPED] = 0
            horizon = int(st[HORIZON])
            began = time.perf_counter()
            answer = call()
            if not st[STOPPED]:
                return answer
            spent = time.perf_counter() - began
            if restart_horizon:
                st[HORIZON] = horizon
            st[RESUME] = 1  # the null windows go on from the interval they had left
            if self.limits.reached(int(st[NODES])):
                raise SearchStopped
            rate = (int(st[NODES]) - nodes) / max(spent, 1e-4)
            self.budget = int(min(max(rate * 0.02, 4096), 1 << 20))

    def child_ge(self, child: Any, cp: int, player: int, depth: float, x: Any) -> bool:
        """Whether a child's value (the parent's view) is at least ``x``: a null window."""
        return bool(self.child_value(child, cp, player, depth, np.nextafter(x, -np.inf), x) >= x)

    def evaluate(self, state: Any) -> Any:
        return self.game.evaluate(state)  # type: ignore[attr-defined]

    def key(self, state: Any) -> Hashable:
        return state if self.keyf is None else self.keyf(state)

    def table_move(self, state: Any) -> Any:
        move = int(self.probe(self.arrays.table, self.encoded(state), self.st))
        return None if move < 0 else move

    def new_iteration(self) -> None:
        self.st[GEN] += 1

    def stats(self) -> SearchStats:
        st = self.st.tolist()
        return SearchStats(
            nodes=st[NODES],
            leaves=st[LEAVES],
            cutoffs=st[CUTOFFS],
            table_hits=st[HITS],
            seconds=self.limits.elapsed(),
        )


def _number(v: float) -> Any:
    """A kernel's value as the game's number: an int when it is one (within 2**53)."""
    return int(v) if v.is_integer() and abs(v) < 2**53 else v


def _unbounded(request: SearchRequest, deepest: int) -> bool:
    """Whether a search of a game that may never end would go deeper than ``deepest``: to the
    end with nothing to stop it, or to a depth beyond it."""
    r = request
    if r.depth is None:
        return r.time_limit is None and r.node_limit is None and r.on_depth is None
    return r.depth > deepest


def compiled_search(
    game: Game[Any, Any],
    rules: CompiledRules | None,
    request: SearchRequest,
    limits: Limits,
    bounds: Outcomes | None = None,
) -> CompiledSearch | None:
    """The generic compiled node search for ``game``'s ``rules`` (loaded from numba's disk
    cache, or compiled, once per process), or None when it cannot serve: no rules, numba
    missing or switched off (``GAMESOLVER_NATIVE=0``), a search of an ``endless`` game deeper
    than its ``max_plies`` or to the end with nothing to stop it, an oracle the rules cannot read
    (``rules.oracle_data`` gives the data of the ones they can: the kernel probes it), or a
    kernel that failed to build. ``bounds``: the game's :func:`~solver.node_search.outcomes`
    when the caller has them (the search's evaluation is the game's own), else looked up."""
    if rules is None or not numba_available():
        return None
    if rules.endless and _unbounded(request, rules.max_plies):
        return None
    data = None
    if request.oracle is not None:
        data = None if rules.oracle_data is None else rules.oracle_data(request.oracle)
        if data is None:
            return None
    found = kernel(rules)
    if found is None:
        return None
    return CompiledSearch(game, rules, request, limits, found, data, bounds)
