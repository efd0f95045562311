"""Proving Ayòayò positions: exact values settled by proof, with certificates to check them.

The proof search (:mod:`solver.compiled_proof`, the generic compiled one, run on Ayòayò's
compiled rules, :mod:`games.ayoayo.native_route`) answers threshold tests, "can player 0 force
at least ``x``?", with only what it has proved; :class:`Prover` deepens each
test until it is settled, finds the value from two tests that meet (``>= v`` holds and
``>= v + 1`` fails, starting from a guess, as MTD(f) does), and reads from its tables the two
solution graphs of a certificate (:mod:`solver.certificate`). Tablebase levels present are
exact leaves; a position repeated on a line is scored by the endless-play rule. docs/solving.md
has the method, the argument for its soundness, the file format and the figures.

>>> from games.ayoayo import Ayoayo
>>> game = Ayoayo()
>>> s = game.parse_state("[[0,0,0,1,0,0],[1,0,0,0,1,1]] captured 20,24")
>>> Prover(game, None).value(s).value  # Player 2 keeps the 4 ahead: no more captures
-4
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, Final

import attrs
import numpy as np
import numpy.typing as npt

from games.ayoayo.board import TOTAL_SEEDS, WIN_THRESHOLD
from games.ayoayo.native_probe import TB_TOP
from games.ayoayo.native_route import compiled_rules
from games.ayoayo.rules import AyoayoRules, AyoayoState
from games.ayoayo.tablebase import Tablebase
from solver import compiled_proof as K
from solver.certificate import Certificate, Node, SolutionGraph
from solver.errors import GameError
from solver.output import atomic_path
from solver.proof_words import (
    DISPROVED,
    P_GEN,
    P_MOVE,
    P_NODES,
    P_STOP_AT,
    P_STOPPED,
    P_TABLE_FULL,
    PROVED,
    UNKNOWN,
    move_of,
    status_of,
)

__all__ = ["DEFAULT_TABLE", "ProofProgress", "ProofResult", "ProofStopped", "Prover"]

Array = npt.NDArray[np.int64]

DEFAULT_TABLE: Final = 1 << 22
"""Entries of each threshold's table (96 MB); ``--table`` sets another size."""

ENTRIES: Final = "solver.proof_words 1"
"""The layout of the table entries a checkpoint holds (in its name: another is not read)."""

SMALLEST_TABLE: Final = 1 << 16
"""The smallest table a test falls back to when memory is short (1.5 MB)."""
BUDGET: Final = 1 << 16
"""The first node budget between two returns to Python (then sized to ~50 ms of search)."""

CHECKPOINT_SECONDS: Final = 60.0
"""How often a long proof saves its proved positions (and when it stops)."""

WATCH_SECONDS: Final = 1.0
"""How often a running test tells its ``watch`` how far it is."""


class ProofStopped(GameError):
    """A proof stopped by its time limit before it settled; what it proved so far is kept."""


@attrs.frozen
class ProofResult:
    """What a proof settled about a position, player 0's view.

    Attributes:
        lower: the largest ``x`` proved with ``value >= x`` (None: none yet).
        upper: the smallest ``y`` proved with ``value <= y``.
        nodes: positions the search visited.
        seconds: the time it took.
        depth: the deepest iteration any test needed.
    """

    lower: int | None
    upper: int | None
    nodes: int
    seconds: float
    depth: int

    @property
    def value(self) -> int | None:
        """The exact value, when both bounds meet."""
        return self.lower if self.lower is not None and self.lower == self.upper else None


@attrs.frozen
class ProofProgress:
    """How far a running threshold test is (what ``watch`` is told about once a second).

    Attributes:
        x: the test, ``value >= x``.
        depth: its iteration.
        nodes: positions visited by the test so far.
        seconds: its time so far.
        proved: positions proved so far, in the tables of every test.
        root_settled: the moves of the test's position already settled (proved either way).
        root_moves: its legal moves.
        tests: the tests settled so far (in this proof).
    """

    x: int
    depth: int
    nodes: int
    seconds: float
    proved: int
    root_settled: int
    root_moves: int
    tests: int

    @property
    def rate(self) -> float:
        """Nodes a second over the test so far."""
        return self.nodes / max(self.seconds, 1e-9)


class Prover:
    """Threshold tests and exact values proved with the compiled proof search.

    Args:
        game: the rules (formats, moves for the certificate).
        tablebase: levels used as exact leaves (None: none).
        table_size: entries of each threshold's table.
        progress: told a line per settled iteration (None: silent).
        checkpoint: a folder where proved positions are saved every minute and when a proof
            stops, and read back when the same proof starts again (None: no checkpoints).
        stop: asked between two kernel calls whether to stop now (Ctrl-C is raised there too).
        watch: told a :class:`ProofProgress` about once a second while a test runs.
    """

    def __init__(
        self,
        game: AyoayoRules,
        tablebase: Tablebase | None,
        *,
        table_size: int = DEFAULT_TABLE,
        progress: Callable[[str], None] | None = None,
        checkpoint: str | os.PathLike[str] | None = None,
        stop: Callable[[], bool] | None = None,
        watch: Callable[[ProofProgress], None] | None = None,
    ) -> None:
        self.game = game
        self.tablebase = tablebase
        search = K.ProofSearch.of(compiled_rules(), tablebase)
        if search is None:
            raise GameError("the proof search needs the compiled kernel (numba)")
        self.search = search
        self.tb_max = int(search.oracle_data[TB_TOP])
        self.table_size = table_size
        self.progress = progress
        self.checkpoint = None if checkpoint is None else Path(checkpoint)
        self.stop = stop
        self.watch = watch
        self.settled: list[dict[str, Any]] = []
        """Each settled test: ``x``, ``holds``, ``depth``, ``nodes``, ``seconds``."""
        self.tables: dict[int, Array] = {}
        self.leaf_levels: set[int] = set()
        """The tablebase levels of the leaves of the graphs read so far (the certificate's)."""
        self.st = search.st
        self.nodes = 0
        self.depth = 0
        self._saved = time.monotonic()
        self._warned_full = False
        self._warned_unsaved = False

    # ---- tables and checkpoints ---------------------------------------------------------------

    def lineage(self) -> str:
        """What the tablebase levels used are, for checkpoints' names (levels and checksums)."""
        if self.tablebase is None:
            return "none"
        return ",".join(f"{n}:{c:08x}" for n, c in self.tablebase.lineages().items())

    def _checkpoint_file(self, x: int) -> Path | None:
        if self.checkpoint is None:
            return None
        # the entries' layout is named too: a checkpoint of another layout is not read
        name = hashlib.sha256(f"{self.lineage()}|{x}|{ENTRIES}".encode()).hexdigest()[:16]
        return self.checkpoint / f"proof-{name}.npy"

    def table(self, x: int) -> Array:
        """The table of the test ``value >= x`` (made, and filled from its checkpoint, once)."""
        found = self.tables.get(x)
        if found is None:
            size = self.table_size
            while True:  # short of memory (ulimit -v): a smaller table, slower but a proof
                try:
                    found = self.tables[x] = self.search.new_table(size)
                    break
                except MemoryError:
                    if size <= SMALLEST_TABLE:
                        raise
                    size //= 2
            if size < self.table_size:
                self._say(
                    f"note: the table of the test >= {x} holds {size:,} entries, not "
                    f"{self.table_size:,}: no more memory (a limit such as ulimit -v); the "
                    "proof goes on, slower"
                )
            self.resume(x)
        return found

    def resume(self, x: int) -> None:
        """Put the proved positions of the checkpoint of ``value >= x`` (if any) into its table."""
        path = self._checkpoint_file(x)
        if path is None or not path.exists():
            return
        try:
            rows = np.load(path, allow_pickle=False)
        except (OSError, ValueError):
            return  # an unreadable checkpoint is only lost time
        table = self.table(x)
        if rows.ndim == 2 and rows.shape[1] == table.shape[1]:
            self.search.restore(table, rows.astype(np.int64))
            self._say(f"resumed {len(rows):,} proved positions from {path}")

    def save(self) -> None:
        """Write every table's proved positions to the checkpoint folder (atomically).

        A checkpoint only saves a later run time: a folder that cannot be written (a full
        disk, a read-only cache) is said once, keeps the checkpoints it had, and the proof goes
        on without saving.
        """
        if self.checkpoint is None:
            return
        try:
            self.checkpoint.mkdir(parents=True, exist_ok=True)
            for x, tk in self.tables.items():
                path = self._checkpoint_file(x)
                assert path is not None
                with atomic_path(path, overwrite=True) as temporary, temporary.open("wb") as out:
                    np.save(out, K.proved_rows(tk), allow_pickle=False)
                    out.flush()
                    os.fsync(out.fileno())
        except OSError as error:
            if not self._warned_unsaved:
                self._warned_unsaved = True
                cause = error.__cause__ if isinstance(error.__cause__, OSError) else error
                self._say(
                    f"note: cannot write in {str(self.checkpoint)!r}: "
                    f"{cause.strerror or cause}; the proof goes on without saving a checkpoint"
                )
        self._saved = time.monotonic()

    @property
    def checkpoint_saved(self) -> bool:
        """Whether the proved positions are being kept in the checkpoint folder."""
        return self.checkpoint is not None and not self._warned_unsaved

    def proved_positions(self) -> int:
        """Positions proved so far, in the tables of every test."""
        return sum(
            int(np.count_nonzero(((tk[:, -1] & 3) == PROVED) | ((tk[:, -1] & 3) == DISPROVED)))
            for tk in self.tables.values()
        )

    def _tell(
        self, x: int, depth: int, nodes: int, began: float, children: list[AyoayoState]
    ) -> None:
        assert self.watch is not None
        tk = self.tables[x]
        settled = 0
        for child in children:
            settled += status_of(self.search.entry(tk, child)) in (PROVED, DISPROVED)
        self.watch(
            ProofProgress(
                x,
                depth,
                nodes,
                time.perf_counter() - began,
                self.proved_positions(),
                settled,
                len(children),
                len(self.settled),
            )
        )

    def _children(self, state: AyoayoState) -> list[AyoayoState]:
        """The positions after each legal move of ``state``."""
        return [self.game.result(state, a) for a in self.game.actions(state)]

    def _say(self, line: str) -> None:
        if self.progress is not None:
            self.progress(line)

    # ---- one threshold test ------------------------------------------------------------------

    def _load_line(self, line: Sequence[AyoayoState], state: AyoayoState) -> int:
        try:
            return self.search.load(line, state)
        except ValueError as e:
            raise GameError(str(e)) from None

    def holds(
        self,
        state: AyoayoState,
        x: int,
        *,
        line: Sequence[AyoayoState] = (),
        deadline: float | None = None,
    ) -> bool:
        """Whether player 0 can force at least ``x`` from ``state`` (proved either way).

        ``line``: the positions that led to ``state`` (their repetitions are leaves).

        Raises:
            ProofStopped: the deadline came first.
        """
        try:
            return self._deepen(state, x, line, deadline)
        except KeyboardInterrupt:
            self.save()  # Ctrl-C: what was proved so far is kept for the next run
            raise

    def _deepen(
        self, state: AyoayoState, x: int, line: Sequence[AyoayoState], deadline: float | None
    ) -> bool:
        tk = self.table(x)
        st = self.st
        mover = state[14]
        t = K.mover_threshold(mover, x)
        budget = BUDGET
        began = time.perf_counter()
        start_nodes = self.nodes
        told = time.monotonic()
        children = self._children(state) if self.watch is not None else None
        for depth in range(1, K.MAX_PLY - len(line) - 1):
            st[P_GEN] += 1
            while True:
                ply = self._load_line(line, state)
                st[P_NODES] = 0
                st[P_STOP_AT] = budget
                st[P_STOPPED] = 0
                tick = time.perf_counter()
                r = self.search.run(ply, depth, t, tk)
                spent = time.perf_counter() - tick
                self.nodes += int(st[P_NODES])
                if not st[P_STOPPED]:
                    break
                if deadline is not None and time.monotonic() >= deadline:
                    self.save()
                    raise ProofStopped(f"stopped at depth {depth} of the test >= {x}")
                if self.stop is not None and self.stop():
                    self.save()
                    raise KeyboardInterrupt
                if time.monotonic() - self._saved >= CHECKPOINT_SECONDS:
                    self.save()
                if children is not None and time.monotonic() - told >= WATCH_SECONDS:
                    told = time.monotonic()
                    self._tell(x, depth, self.nodes - start_nodes, began, children)
                budget = int(min(max(int(st[P_NODES]) / max(spent, 1e-4) * 0.05, 4096), 1 << 22))
            self.depth = max(self.depth, depth)
            status = status_of(r)
            if st[P_TABLE_FULL] and not self._warned_full:
                self._warned_full = True
                self._say(
                    f"the table ({len(tk):,} entries) is full of proved positions: the proof "
                    "goes on without keeping new ones (slower); a larger --table helps"
                )
            if status != UNKNOWN:
                seconds = time.perf_counter() - began
                rate = (self.nodes - start_nodes) / max(seconds, 1e-9)
                holds = (status == PROVED) == (mover == 0)
                self.settled.append(
                    {
                        "x": x,
                        "holds": holds,
                        "depth": depth,
                        "nodes": self.nodes - start_nodes,
                        "seconds": round(seconds, 6),
                    }
                )
                self._say(
                    f"value >= {x}: {'holds' if holds else 'fails'}"
                    f" (depth {depth}, {self.nodes - start_nodes:,} nodes, "
                    f"{rate / 1e6:.2f} M nodes/s)"
                )
                return holds
        raise GameError(f"the test >= {x} did not settle within {K.MAX_PLY} plies")

    # ---- exact values ------------------------------------------------------------------------

    def value(
        self,
        state: AyoayoState,
        *,
        guess: int | None = None,
        time_limit: float | None = None,
    ) -> ProofResult:
        """The exact value of ``state`` proved, from ``guess`` (default: the seeds captured so
        far), two tests at a time; on a time limit, the bounds proved so far."""
        began = time.perf_counter()
        nodes0 = self.nodes
        deadline = None if time_limit is None else time.monotonic() + time_limit
        low, high = -TOTAL_SEEDS, TOTAL_SEEDS  # proved: low <= value <= high
        x = self.guess(state) if guess is None else int(guess)
        step = 1
        try:
            while low < high:
                x = min(max(x, low + 1), high)
                if self.holds(state, x, deadline=deadline):
                    low = x
                    x = x + step if high == TOTAL_SEEDS else (low + high + 1) // 2
                else:
                    high = x - 1
                    x = x - 4 if low == -TOTAL_SEEDS else (low + high + 1) // 2
                step = 4
        except ProofStopped:
            pass
        return ProofResult(
            None if low == -TOTAL_SEEDS else low,
            None if high == TOTAL_SEEDS else high,
            self.nodes - nodes0,
            time.perf_counter() - began,
            self.depth,
        )

    def guess(self, state: AyoayoState) -> int:
        """A first value to test: a short alpha-beta search's (the tablebase probed in it)."""
        from solver.engine import search  # the driver, only for this guess

        return int(search(self.game, state, depth=8, oracle=self.tablebase).value)

    # ---- certificates ------------------------------------------------------------------------

    def graph(self, root: AyoayoState, x: int, side: str) -> SolutionGraph:
        """The solution graph of ``value >= x`` (``side="lower"``) or of ``value <= x - 1``
        (``"upper"``), read from the test's table, re-proving positions it did not keep."""
        game = self.game
        prover = 0 if side == "lower" else 1
        tk = self.table(x)
        index: dict[AyoayoState, int] = {}
        nodes: list[Node | None] = []
        line: list[AyoayoState] = []
        fmt = game.format_state

        def reserve(s: AyoayoState) -> tuple[int, bool]:
            found = index.get(s)
            if found is not None:
                return found, False
            index[s] = len(nodes)
            nodes.append(None)
            return len(nodes) - 1, True

        def expand(i: int, s: AyoayoState) -> list[tuple[int, AyoayoState]]:
            """Fill node ``i``; the children reserved here, to expand next."""
            key = fmt(s)
            c0, c1 = s[12], s[13]
            if c0 > WIN_THRESHOLD or c1 > WIN_THRESHOLD or game.is_terminal(s):
                nodes[i] = Node(key, "terminal", value=Fraction(game.utility(s)))
                return []
            seeds = TOTAL_SEEDS - c0 - c1
            if self.tablebase is not None and seeds <= self.tb_max:
                known = self.tablebase.probe(s)
                if known is not None:
                    nodes[i] = Node(key, "tablebase", value=Fraction(known))
                    self.leaf_levels.add(int(seeds))
                    return []
            mover = s[14]
            if mover == prover:
                info = self.search.entry(tk, s)
                status, move = status_of(info), move_of(info)
                wins = status == PROVED  # the mover (the prover) reaches the threshold
                if not (wins and move >= 0):
                    if self.holds(s, x, line=line) != (prover == 0):
                        raise GameError(
                            f"the proof of {fmt(root)} could not be read back at {key!r}"
                        )
                    move = int(self.st[P_MOVE])
                child = game.result(s, move)
                c, new = reserve(child)
                nodes[i] = Node(key, "move", action=str(move), children=(c,))
                return [(c, child)] if new else []
            kids = []
            todo = []
            for a in game.actions(s):
                child = game.result(s, a)
                c, new = reserve(child)
                kids.append(c)
                if new:
                    todo.append((c, child))
            nodes[i] = Node(key, "all", children=tuple(kids))
            return todo

        first, _ = reserve(root)
        stack = [(root, iter(expand(first, root)))]
        line.append(root)
        while stack:
            _, pending = stack[-1]
            step = next(pending, None)
            if step is None:
                stack.pop()
                line.pop()
                continue
            c, child = step
            stack.append((child, iter(expand(c, child))))
            line.append(child)
        assert all(n is not None for n in nodes)
        return SolutionGraph(side, Fraction(x if side == "lower" else x - 1), tuple(nodes))  # type: ignore[arg-type]

    def certificate(self, root: AyoayoState, result: ProofResult) -> Certificate:
        """Both solution graphs of a proved value (``result`` from :meth:`value`)."""
        v = result.value
        if v is None:
            raise GameError("only a proved exact value has a certificate")
        self.leaf_levels.clear()
        graphs = (self.graph(root, v, "lower"), self.graph(root, v + 1, "upper"))
        used = sorted(self.leaf_levels)
        lineages = {} if self.tablebase is None else self.tablebase.lineages()
        provenance = tuple(f"{n} {lineages[n]:08x}" for n in used)
        return Certificate(
            self.game.name, self.game.format_state(root), Fraction(v), provenance, graphs
        )
