"""Proving on every core, or on a cluster: each root move's threshold test as a task.

:class:`SplitProver` is a :class:`~games.ayoayo.proof.Prover` whose tests of its root
(``value >= x`` of the position asked about) that need every root move's (the mover's moves
all expected to fail, from the first guess) first run the test of every root move as a task of
a mapper (:class:`solver.workers.WorkerPool` on this machine's cores, or a Dask client's
executor on a cluster), each in a prover of its own with the root as the line's history (a
repetition of the root is a leaf, as in the one-process search). The tasks share nothing but
what they return: their proved positions, which are merged into the root's tables. The root's
test then runs in this process as before and settles at once from its moves' entries, so the
answer and the certificate are the one-process search's own; only the work is shared out.

A stored result never depends on the line above its position (results that used a repetition
of a position above them are not stored, docs/solving.md), so a task's proved positions hold
on any line and merging them is sound. Each task keeps a checkpoint of its own (a folder named
after the root and the move), so a stopped proof resumes move by move.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from games.ayoayo.proof import ProofProgress, ProofResult, ProofStopped, Prover
from games.ayoayo.rules import AyoayoRules, AyoayoState
from games.ayoayo.tablebase import Tablebase
from solver.compiled_proof import proved_rows
from solver.workers import Mapper

__all__ = ["SplitProver"]


_OPENED: dict[str, Tablebase] = {}
"""The tablebases a worker process has opened, by directory: opened (and checked) once, not
once a task."""


def _opened(directory: str) -> Tablebase:
    found = _OPENED.get(directory)
    if found is None:
        found = _OPENED[directory] = Tablebase(directory)
    return found


_PROVERS: dict[tuple[str | None, int], Prover] = {}
"""A worker process's prover, by tablebase directory and table size: its tables (made and
touched once, not once a task) and what they proved serve every task the process runs."""


def _worker_prover(directory: str | None, table_size: int) -> Prover:
    found = _PROVERS.get((directory, table_size))
    if found is None:
        tablebase = None if directory is None else _opened(directory)
        found = Prover(AyoayoRules(), tablebase, table_size=table_size)
        _PROVERS[(directory, table_size)] = found
    return found


def _move_test(
    directory: str | None,
    root: AyoayoState | None,
    child: AyoayoState,
    x: int,
    table_size: int,
    checkpoint: str | None,
    seconds: float | None,
) -> tuple[bool | None, int, np.ndarray[Any, Any]]:
    """One root move's test ``value >= x``, after ``root`` (None: the test of ``child`` itself,
    the root), as a task run in a worker process or on a cluster: whether it holds (None:
    stopped by ``seconds``), the nodes and the proved rows of its table."""
    prover = _worker_prover(directory, table_size)
    prover.checkpoint = None if checkpoint is None else Path(checkpoint)
    prover.resume(x)  # this task's own checkpoint, from a run stopped before
    nodes = prover.nodes
    deadline = None if seconds is None else time.monotonic() + seconds
    holds: bool | None
    try:
        line = () if root is None else (root,)
        holds = prover.holds(child, x, line=line, deadline=deadline)
    except ProofStopped:
        holds = None
    prover.save()
    return holds, prover.nodes - nodes, proved_rows(prover.table(x))


class SplitProver(Prover):
    """A :class:`~games.ayoayo.proof.Prover` that tests its root's moves as ``mapper`` tasks.

    Args:
        game, tablebase, table_size, progress, checkpoint, stop, watch: as the Prover's.
        mapper: runs the tasks (``map`` in order, like ``Executor.map``).
    """

    def __init__(
        self,
        game: AyoayoRules,
        tablebase: Tablebase | None,
        *,
        mapper: Mapper,
        table_size: int,
        progress: Callable[[str], None] | None = None,
        checkpoint: str | os.PathLike[str] | None = None,
        stop: Callable[[], bool] | None = None,
        watch: Callable[[ProofProgress], None] | None = None,
    ) -> None:
        super().__init__(
            game,
            tablebase,
            table_size=table_size,
            progress=progress,
            checkpoint=checkpoint,
            stop=stop,
            watch=watch,
        )
        self.mapper = mapper
        self.split: set[tuple[AyoayoState, int]] = set()
        self.expected: int | None = None

    def value(
        self,
        state: AyoayoState,
        *,
        guess: int | None = None,
        time_limit: float | None = None,
    ) -> ProofResult:
        """As the Prover's (the guess also says which tests to share out)."""
        began, nodes = time.perf_counter(), self.nodes
        self.expected = self.guess(state) if guess is None else int(guess)
        try:
            self._guessed_pair(state, self.expected, time_limit)
            found = super().value(state, guess=self.expected, time_limit=time_limit)
            return attrs.evolve(
                found, nodes=self.nodes - nodes, seconds=time.perf_counter() - began
            )
        finally:
            self.expected = None

    def _guessed_pair(self, root: AyoayoState, x: int, time_limit: float | None) -> None:
        """The two tests that settle the value when the guess ``x`` is right (``>= x`` and
        ``>= x + 1``), as tasks all at once: the one that needs every root move's as a task a
        move, the other as one task; their proved positions merged here, so the search below
        finds them settled (a wrong guess only costs the search its usual way)."""
        game = self.game
        moves = [(a, game.result(root, a)) for a in game.actions(root)]
        moves = [(a, c) for a, c in moves if not game.is_terminal(c)]
        names = {c: game.format_action(root, a) for a, c in moves}
        tasks: list[tuple[int, AyoayoState | None, AyoayoState]] = []
        for t in (x, x + 1):
            if self._every_move(root, t) and moves:
                tasks += [(t, root, c) for _, c in moves]
            else:
                tasks.append((t, None, root))
        n = len(tasks)
        results = self.mapper.map(
            _move_test,
            [None if self.tablebase is None else str(self.tablebase.directory)] * n,
            [above for _, above, _ in tasks],
            [state for _, _, state in tasks],
            [t for t, _, _ in tasks],
            [self.table_size] * n,
            [
                self._task_folder(root, s) if a else self._task_folder(root, root)
                for _, a, s in tasks
            ],
            [time_limit] * n,
        )
        settled: dict[int, bool] = {x: True, x + 1: True}
        counted = {x: 0, x + 1: 0}
        for (t, above, state), (holds, nodes, rows) in zip(tasks, results, strict=True):
            self.nodes += int(nodes)
            if len(rows):
                self.search.restore(self.table(t), np.asarray(rows, np.int64))
            settled[t] = settled[t] and holds is not None
            said = "stopped" if holds is None else "holds" if holds else "fails"
            if above is None:
                self._say(f"value >= {t}: {said} as a task ({int(nodes):,} nodes)")
                continue
            counted[t] += holds is not None
            self._say(
                f"value >= {t}: after move {names[state]}: {said} as a task ({int(nodes):,} "
                f"nodes; root moves settled {counted[t]} of {len(moves)})"
            )
        self.split.update((root, t) for t, done in settled.items() if done)

    def _every_move(self, state: AyoayoState, x: int) -> bool:
        """Whether the test of ``state`` is expected to need every move's (the mover's tests
        all fail): then they are shared out; a test one good move settles stays here."""
        if self.expected is None:
            return True
        holds = x <= self.expected
        return holds != (state[14] == 0)

    def holds(
        self,
        state: AyoayoState,
        x: int,
        *,
        line: Sequence[AyoayoState] = (),
        deadline: float | None = None,
    ) -> bool:
        """As the Prover's; a root's test (no ``line``) first has its moves tested as tasks."""
        if not line and (state, x) not in self.split and self._every_move(state, x):
            try:
                self._split(state, x, deadline)
            except KeyboardInterrupt:
                self.save()
                raise
        return super().holds(state, x, line=line, deadline=deadline)

    def _task_folder(self, root: AyoayoState, child: AyoayoState) -> str | None:
        if self.checkpoint is None:
            return None
        fmt = self.game.format_state
        name = hashlib.sha256(f"{fmt(root)}|{fmt(child)}".encode()).hexdigest()[:16]
        return str(self.checkpoint / f"move-{name}")

    def _split(self, root: AyoayoState, x: int, deadline: float | None) -> None:
        game = self.game
        moves = [(a, game.result(root, a)) for a in game.actions(root)]
        moves = [(a, c) for a, c in moves if not game.is_terminal(c)]
        if not moves:
            return
        children = [c for _, c in moves]
        seconds = None if deadline is None else max(0.0, deadline - time.monotonic())
        directory = None if self.tablebase is None else str(Path(self.tablebase.directory))
        began = time.perf_counter()
        n = len(children)  # lists: a Dask executor needs their lengths
        results = self.mapper.map(
            _move_test,
            [directory] * n,
            [root] * n,
            children,
            [x] * n,
            [self.table_size] * n,
            [self._task_folder(root, c) for c in children],
            [seconds] * n,
        )
        table = self.table(x)
        settled = 0
        for (action, _), (holds, nodes, rows) in zip(moves, results, strict=True):
            self.nodes += int(nodes)
            if len(rows):
                self.search.restore(table, np.asarray(rows, np.int64))
            settled += holds is not None
            said = "stopped" if holds is None else "holds" if holds else "fails"
            self._say(
                f"value >= {x}: after move {game.format_action(root, action)}: {said} "
                f"({int(nodes):,} nodes; root moves settled {settled} of {len(moves)}, "
                f"{time.perf_counter() - began:.1f} s)"
            )
        if settled == len(children):
            self.split.add((root, x))
