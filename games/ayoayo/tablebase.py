"""Ayòayò endgame tablebases: the exact value of every position with few seeds on the board.

Assumes the rules of :mod:`games.ayoayo.rules`. What the tablebase holds:

- **A position** is a board, the captured pair and the player to move. The rules are symmetric
  under turning the board round (pit ``(0, c)`` <-> ``(1, 5 - c)``, players swapped), so a
  position is stored once, from the mover's view: the 12 pits in sowing order with the mover's
  own six first, the mover's captured ``cm`` and the opponent's ``co``
  (:mod:`games.ayoayo.tablebase_index`).
- **Levels.** Captures take exactly 4 seeds, so the seeds on the board ``n`` are a multiple of
  4. Level ``n`` holds every board of ``n`` seeds (ranked by stars and bars) times every split
  ``cm + co = 48 - n`` with both multiples of 4 and at most 24 (past 24 the game is over).
- **The value** stored is the exact final ``cm - co`` with perfect play by both sides, one
  signed byte a position. "Exact" takes the endless-play rule of
  :meth:`games.ayoayo.Ayoayo.endless_value`: play that goes on for ever (a position repeats)
  scores the seeds captured so far, ``captured[mover] - captured[other]``. No capture can
  happen inside a cycle (a capture lowers the seeds on the board for good), so that score is
  the same all along the cycle; it equals splitting the seeds left on the board evenly, Awari's
  convention, and it is how matches score a repetition, so a played-out game and the
  tablebase agree. A position whose mover has no move is over: it scores ``cm - co`` as well.
- **Building** (:func:`games.ayoayo.tablebase_build.build`): moves that capture go to lower
  levels (read from their files, never recomputed); moves that do not stay in the level and
  may cycle, so each level is solved by retrograde analysis with cycles
  (:mod:`solver.retrograde`). Files: :mod:`games.ayoayo.tablebase_files`.

The default directory is ``$GAMESOLVER_TABLEBASE_DIR`` if set, else
``$XDG_CACHE_HOME/gamesolver/tablebases``, else ``~/.cache/gamesolver/tablebases``.

>>> import tempfile
>>> from games.ayoayo import Ayoayo
>>> from games.ayoayo.tablebase_build import build
>>> game = Ayoayo()
>>> with tempfile.TemporaryDirectory() as d:
...     _ = build(4, d)
...     tb = Tablebase(d)
...     s = game.state_from([[0, 0, 0, 0, 1, 2], [1, 0, 0, 0, 0, 0]], captured=(24, 20))
...     tb.levels, tb.probe(s), tb.best_actions(s)
((0, 4), 4, (4, 5))
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from games.ayoayo import tablebase_build
from games.ayoayo.board import TOTAL_SEEDS, WIN_THRESHOLD
from games.ayoayo.rules import AyoayoRules, AyoayoState
from games.ayoayo.tablebase_build import LevelKernel, LevelReport
from games.ayoayo.tablebase_files import (
    DISTANCES,
    NO_DISTANCE,
    VALUES,
    FileKind,
    LevelEntries,
    TablebaseFileError,
    TablebaseUnreadableError,
    level_path,
    read_build_record,
    read_header,
    read_level,
    rebuild_hint,
    verified_header,
    verify_bytes,
)
from games.ayoayo.tablebase_index import (
    level_size,
    rank,
    splits,
    view_of,
)
from games.ayoayo.tablebase_partitions import OutOfCoreBuilder
from solver.resources import cache_directory
from solver.workers import Mapper

__all__ = ["ENV_DIRECTORY", "Tablebase", "default_directory"]

ENV_DIRECTORY: Final = "GAMESOLVER_TABLEBASE_DIR"


def default_directory() -> Path:
    """Where tablebases live unless told otherwise (see the module notes).

    >>> default_directory().is_absolute() or not default_directory().parts
    True
    """
    env = os.environ.get(ENV_DIRECTORY)
    if env:
        return Path(env).expanduser()
    return cache_directory() / "tablebases"


class Tablebase:
    """The Ayòayò tablebase levels found in a directory, opened lazily and memory-mapped.

    A level is read (its checksum verified once per file, its lineage checked) the first time a
    probe needs it; a level found missing is not looked for again until :meth:`refresh`. A file
    that fails its checks (another version, level or lineage, truncated, corrupt) is not used,
    and is named by :meth:`problems`: a probe there answers None as for a level not built, and
    :meth:`covered` tells the two apart. The object pickles without its open files (to reach
    worker processes) and reopens them there.

    Args:
        directory: where the level files are; None: :func:`default_directory`.
        game: the rules to play moves with in :meth:`best_actions` (default the readable rules).
        builder: gives the level builder's kernel at build time (None, or an answer of None:
            the pure-Python builder, the same bytes); :class:`games.ayoayo.Ayoayo` passes the
            compiled one when numba is there.
    """

    def __init__(
        self,
        directory: str | os.PathLike[str] | None = None,
        game: AyoayoRules | None = None,
        builder: Callable[[], LevelKernel | None] | None = None,
    ):
        self.directory = Path(directory) if directory is not None else default_directory()
        self.game = game if game is not None else AyoayoRules()
        self.builder = builder
        self._open: dict[int, npt.NDArray[np.int8]] = {}
        self._missing: set[int] = set()
        self._refused: dict[tuple[int, str], str] = {}
        self._unreadable: set[tuple[int, str]] = set()
        self._distance_tables: dict[int, LevelEntries | None] = {}

    def __repr__(self) -> str:
        return f"Tablebase({str(self.directory)!r})"

    @property
    def levels(self) -> tuple[int, ...]:
        """The levels whose files are present and valid, smallest first (headers, lineage and
        remembered checksums checked; the values are read at the first probe)."""
        return tuple(n for n in range(0, TOTAL_SEEDS + 1, 4) if self._usable(n))

    def problems(self) -> list[str]:
        """Why each level file present here is not used (damaged, of another level, version or
        lineage), one message a file naming it; empty if every file present is good. Every
        level's values are read (and checked) to say it, as a compiled search reads them all."""
        for n in range(0, TOTAL_SEEDS + 1, 4):
            if self._usable(n) and self._level(n) is not None:  # its values read and checked
                self._distances(n)
        return [self._refused[k] for k in sorted(self._refused)]

    def lineages(self) -> dict[int, int]:
        """The lineage of each level present and valid, by seeds (a CRC-32 that folds in the
        level's values and every level below: what a proof certificate records)."""
        return {n: read_header(level_path(self.directory, n), seeds=n).chain for n in self.levels}

    def check_provenance(self, lines: Sequence[str]) -> list[str]:
        """What is wrong with a proof certificate's ``tablebase`` lines here: each line is a
        level and the lineage of the level file the proof used (:meth:`lineages`); one message
        a level missing or of another build, naming it (empty: every level is the one used)."""
        problems = []
        have = self.lineages()
        for line in lines:
            try:
                seeds_text, lineage_text = line.split()
                seeds, lineage = int(seeds_text), int(lineage_text, 16)
            except ValueError:
                problems.append(f"bad tablebase line {line!r}: expected 'SEEDS LINEAGE'")
                continue
            if seeds not in have:
                problems.append(
                    f"the certificate needs tablebase level {seeds}, which {str(self.directory)!r}"
                    f" lacks (levels there: {', '.join(map(str, have)) or 'none'}); build it "
                    f"with `gamesolver tablebase build ayoayo --seeds {seeds}`"
                )
            elif have[seeds] != lineage:
                problems.append(
                    f"tablebase level {seeds} in {str(self.directory)!r} (lineage "
                    f"{have[seeds]:08x}) is not the build the proof used ({lineage:08x})"
                )
        return problems

    def refusals(self) -> list[tuple[str, str]]:
        """:meth:`problems` with each file's status: ``("damaged", why)`` or
        ``("unreadable", why)``."""
        self.problems()
        return [
            ("unreadable" if key in self._unreadable else "damaged", self._refused[key])
            for key in sorted(self._refused)
        ]

    def covered(self, seeds: int) -> str:
        """``"ok"``, ``"not built"`` (no file), ``"damaged"`` (a file refused: see
        :meth:`problems`) or ``"unreadable"`` (a file there that cannot be read: permissions,
        an I/O error) for the level of ``seeds`` on the board."""
        if self._usable(seeds):
            return "ok"
        if (seeds, VALUES.suffix) in self._unreadable:
            return "unreadable"
        return "damaged" if (seeds, VALUES.suffix) in self._refused else "not built"

    def coverage(self, state: AyoayoState) -> dict[str, Any]:
        """Whether :meth:`probe` answers for ``state`` and, if not, why, for a front end to
        say: ``status`` (as :meth:`covered`, or ``"not a level"`` for captured counts that are
        not multiples of 4, which no level holds), ``level``, ``file`` (the values file) and
        ``reason`` (a sentence naming the file and what would repair it; None when covered).
        """
        c0, c1 = state[12], state[13]
        seeds = TOTAL_SEEDS - c0 - c1
        path = str(level_path(self.directory, seeds)) if 0 <= seeds <= TOTAL_SEEDS else None
        found: dict[str, Any] = {"status": "ok", "level": seeds, "file": path, "reason": None}
        if self.probe(state) is not None:
            return found
        if c0 % 4 or c1 % 4:
            return found | {
                "status": "not a level",
                "file": None,
                "reason": f"captured counts {c0} and {c1} are not multiples of 4, which every "
                "level holds (captures take 4 seeds)",
            }
        status = self.covered(seeds)
        if status == "ok":  # the level is there but a child of the position is not
            status = "not built"
        if status == "not built":
            built = ", ".join(map(str, self.levels)) or "none"
            reason = (
                f"level {seeds} is not built in {str(self.directory)!r} (levels built: "
                f"{built}): {rebuild_hint(seeds)}"
            )
        else:
            reason = f"level {seeds} is {status}: {self._refused[seeds, VALUES.suffix]}"
        return found | {"status": status, "reason": reason}

    def _check(self, seeds: int, kind: FileKind) -> bool:
        """Whether level ``seeds`` of ``kind`` is usable; a refusal of a file present is kept."""
        try:
            verified_header(self.directory, seeds, kind)
        except TablebaseFileError as e:
            self._refuse(seeds, kind, e)
            return False
        return True

    def _refuse(self, seeds: int, kind: FileKind, error: TablebaseFileError) -> None:
        """Keep why a file present is not used (a file not there is simply not built)."""
        if os.path.lexists(level_path(self.directory, seeds, kind)):
            self._refused[seeds, kind.suffix] = str(error)
            if isinstance(error, TablebaseUnreadableError):
                self._unreadable.add((seeds, kind.suffix))

    def _usable(self, seeds: int) -> bool:
        if seeds in self._open:
            return True
        if seeds in self._missing:
            return False
        if not self._check(seeds, VALUES):
            self._missing.add(seeds)
            return False
        return True

    def __getstate__(self) -> dict[str, object]:
        return {"directory": self.directory, "game": self.game, "builder": self.builder}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__init__(state["directory"], state["game"], state["builder"])  # type: ignore[misc]

    def refresh(self) -> None:
        """Forget the levels opened or found missing, so the next probes look again."""
        self._open.clear()
        self._missing.clear()
        self._refused.clear()
        self._unreadable.clear()
        for table in self._distance_tables.values():
            if table is not None:
                table.close()
        self._distance_tables.clear()

    def _level(self, seeds: int) -> npt.NDArray[np.int8] | None:
        values = self._open.get(seeds)
        if values is None:
            if not self._usable(seeds):
                return None
            try:
                values = read_level(level_path(self.directory, seeds), seeds=seeds).values
            except TablebaseFileError as e:  # damaged or changed since its header was checked
                self._refuse(seeds, VALUES, e)
                self._missing.add(seeds)
                return None
            except MemoryError:  # past a memory limit: the levels below still answer
                path, need = level_path(self.directory, seeds), level_size(seeds)
                self._refuse(seeds, VALUES, TablebaseUnreadableError(
                    f"{str(path)!r} cannot be read into memory: level {seeds}'s values take "
                    f"{need / 1e6:,.0f} MB, more than this process may use (a limit such as "
                    "ulimit -v, or the machine's); give the command more memory"
                ))  # fmt: skip
                self._missing.add(seeds)
                return None
            self._open[seeds] = values
        return values

    def build(
        self,
        up_to: int,
        *,
        executor: Mapper | None = None,
        progress: Callable[[str], None] | None = None,
        out_of_core: OutOfCoreBuilder | None = None,
    ) -> list[LevelReport]:
        """Build the missing levels up to ``up_to`` seeds here (:func:`tablebase_build.build`;
        ``out_of_core``: in partitions on disk)."""
        try:
            return tablebase_build.build(
                up_to,
                self.directory,
                executor=executor,
                kernel=None if self.builder is None else self.builder(),
                progress=progress,
                out_of_core=out_of_core,
            )
        finally:
            self.refresh()

    def info(self) -> list[dict[str, Any]]:
        """One row per level file present: seeds, positions, bytes, the status of its
        distances file, build seconds, status (``"ok"`` or why the file is refused), and each
        file's status in a word (``values_state``, ``distances_state``: ``ok``, ``missing``,
        ``damaged`` or ``unreadable``). Every byte
        of every file is checked against its checksum (whatever was remembered)."""
        self.refresh()
        rows: list[dict[str, Any]] = []
        for n in range(0, TOTAL_SEEDS + 1, 4):
            path = level_path(self.directory, n)
            distances = level_path(self.directory, n, DISTANCES)
            if not (os.path.lexists(path) or os.path.lexists(distances)):
                continue
            try:
                size = path.stat().st_size
            except OSError:
                size = None
            seconds = read_build_record(self.directory, n).get("seconds")
            values = self._file_status(n, VALUES, every_byte=True)
            dists = self._file_status(n, DISTANCES, every_byte=True)
            rows.append(
                {
                    "seeds": n,
                    "positions": level_size(n),
                    "bytes": size,
                    "distances": dists,
                    "seconds": tablebase_build.recorded_seconds(seconds),
                    "path": str(path),
                    "status": values,
                    "values_state": self._state(n, VALUES, values),
                    "distances_state": self._state(n, DISTANCES, dists),
                }
            )
        return rows

    def _state(self, seeds: int, kind: FileKind, status: str) -> str:
        """A file's status in a word: ``ok``, ``missing``, ``unreadable`` or ``damaged``."""
        if status in ("ok", "missing"):
            return status
        return "unreadable" if (seeds, kind.suffix) in self._unreadable else "damaged"

    def _file_status(self, seeds: int, kind: FileKind, *, every_byte: bool = False) -> str:
        """``"missing"``, ``"ok"`` or why the file is refused; ``every_byte``: its bytes are
        checked against its checksum now, whatever was remembered of it."""
        path = level_path(self.directory, seeds, kind)
        if not os.path.lexists(path):
            return "missing"
        if every_byte:
            try:
                verify_bytes(path, kind=kind, seeds=seeds)
            except TablebaseFileError as e:
                self._refuse(seeds, kind, e)
                return str(e)
        if self._check(seeds, kind):
            return "ok"
        return self._refused[seeds, kind.suffix]

    def probe(self, state: AyoayoState) -> int | None:
        """The exact value of ``state`` for player 0, or None when the tablebase lacks it.

        A finished game by more than 24 captured is answered from the state itself.
        """
        c0 = state[12]
        c1 = state[13]
        if c0 > WIN_THRESHOLD or c1 > WIN_THRESHOLD:
            return c0 - c1
        if c0 % 4 or c1 % 4:
            return None
        seeds = TOTAL_SEEDS - c0 - c1
        values = self._open.get(seeds)
        if values is None:
            values = self._level(seeds)
            if values is None:
                return None
        p = state[14]
        first = splits(seeds)[0]
        if p:
            return -int(values[(c1 - first) >> 2, rank(view_of(state, 1))])
        return int(values[(c0 - first) >> 2, rank(view_of(state, 0))])

    def __call__(self, state: AyoayoState) -> int | None:
        """:meth:`probe`: a tablebase is an oracle for :func:`solver.engine.search` as it is
        (a compiled search then probes its levels inside the kernel)."""
        return self.probe(state)

    def arrays(self) -> dict[int, npt.NDArray[np.int8]]:
        """The values of every level present and valid, by seeds: ``[split, rank]`` arrays in
        the mover's view, memory-mapped (what a compiled search probes)."""
        return {
            n: values
            for n in range(0, TOTAL_SEEDS + 1, 4)
            if (values := self._level(n)) is not None
        }

    def covers(self, state: AyoayoState) -> bool:
        """True if :meth:`probe` answers for ``state``."""
        return self.probe(state) is not None

    def action_values(self, state: AyoayoState) -> dict[int, int] | None:
        """Each legal move's exact value for player 0, or None unless every child is covered."""
        game = self.game
        found = {}
        for action in game.actions(state):
            child = game.result(state, action)
            value = game.utility(child) if game.is_terminal(child) else self.probe(child)
            if value is None:
                return None
            found[action] = value
        return found

    def distance(self, state: AyoayoState) -> int | None:
        """Plies until optimal play from ``state`` leaves its level (a capture or the end).

        None when the position is not covered, has no distances file, or optimal play stays in
        the level for ever.
        """
        if self.probe(state) is None:
            return None
        c0, c1 = state[12], state[13]
        if c0 > WIN_THRESHOLD or c1 > WIN_THRESHOLD:
            return 0
        seeds = TOTAL_SEEDS - c0 - c1
        table = self._distances(seeds)
        if table is None:
            return None
        p = state[14]
        row = (state[12 + p] - splits(seeds)[0]) >> 2
        try:
            found = table[row, rank(view_of(state, p))]
        except TablebaseFileError as e:  # cut short or damaged since it was opened
            self._refuse(seeds, DISTANCES, e)
            self._distance_tables[seeds] = None
            table.close()
            return None
        return None if found == NO_DISTANCE else found

    def _distances(self, seeds: int) -> LevelEntries | None:
        """Level ``seeds``'s distances, read an entry at a time (not loaded: a command reads
        few of them, and level 24's are 5.8 GB)."""
        if seeds not in self._distance_tables:
            found = None
            if self._check(seeds, DISTANCES):
                try:
                    path = level_path(self.directory, seeds, DISTANCES)
                    found = LevelEntries(path, kind=DISTANCES, seeds=seeds)
                except TablebaseFileError as e:  # changed since its header was checked
                    self._refuse(seeds, DISTANCES, e)
            self._distance_tables[seeds] = found
        return self._distance_tables[seeds]

    def preferred_action(self, state: AyoayoState) -> int | None:
        """A value-keeping move that also turns the value into a result, or None if not covered.

        Ahead of endless play (the mover's value above ``captured[mover] - captured[other]``),
        the move with the shortest distance out of the level; behind it, the longest; level with
        it, the shortest too (the build gives such a draw the quickest value-keeping end, as
        ``solve`` does), or the first value-keeping move where none ends. Played by both sides,
        this reaches the stored value in finite play unless every value-keeping line circles.
        Without distances: the first value-keeping move. None at a finished game too.
        """
        value = self.probe(state)
        best = self.best_actions(state)
        if value is None or not best:
            return None
        game = self.game
        ahead = value - game.endless_value(state)  # player 0's view; the mover's below
        if state[14]:
            ahead = -ahead
        seeds = TOTAL_SEEDS - state[12] - state[13]
        far = 1 << 30

        def after(action: int) -> int:
            child = game.result(state, action)
            if game.is_terminal(child) or TOTAL_SEEDS - child[12] - child[13] < seeds:
                return 0  # the move leaves the level
            found = self.distance(child)
            return far if found is None else found

        if ahead >= 0:
            return min(best, key=after)
        return max(best, key=after)

    def best_actions(self, state: AyoayoState) -> tuple[int, ...] | None:
        """Every move that keeps the exact value, or None when ``state`` is not covered.

        Empty for a finished game. Within a level a value-keeping move may also circle: to turn
        the value into a result, play :meth:`preferred_action`.
        """
        value = self.probe(state)
        if value is None:
            return None
        children = self.action_values(state)
        if children is None:
            return None
        return tuple(a for a, v in children.items() if v == value)
