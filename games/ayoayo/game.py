"""Ayòayò as users load it: the readable rules, with the endgame tablebases and the compiled
search wired in.

The package stands in one-way floors, each importing only what stands below it (a test checks
it): the board's numbers (:mod:`games.ayoayo.board`) -> the readable rules
(:mod:`games.ayoayo.rules`) -> the tablebases (``tablebase_*``) -> the compiled kernels
(``native_*``, :mod:`games.ayoayo.accel`) -> this module. As python-chess's board never
imports its tablebase module, the rules know neither the tablebases nor numba; this class adds
them as capabilities: :meth:`Ayoayo.tablebase` (``solver.game.HasTablebase``, built out of
core and planned through ``HasTablebaseBuilds``), :meth:`Ayoayo.compiled_rules`
(``solver.game.HasCompiledRules``: the engine's one compiled node search runs against them),
and the sowing step by step (``HasMoveSteps``).

>>> from solver.engine import search
>>> game = Ayoayo()
>>> search(game, game.initial_state(), depth=6).value
-4
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from games.ayoayo import accel
from games.ayoayo.rules import AyoayoRules, AyoayoState
from games.ayoayo.sowing import sowing_steps
from games.ayoayo.tablebase import Tablebase
from solver.book import OpeningBook, read_book
from solver.compiled import CompiledRules, compiled_search, prepare_rules
from solver.errors import CapabilityError
from solver.game import EndgameTablebase, MoveStep, TablebasePlanner
from solver.node_search import Limits, NodeSearch
from solver.results import SearchRequest
from solver.workers import Mapper

if TYPE_CHECKING:
    from games.ayoayo.proof import Prover

__all__ = ["OPENING_BOOK", "Ayoayo"]

OPENING_BOOK = Path(__file__).with_name("opening-book.txt.gz")
"""The start's value and each first move's, proved (docs/solving.md says how it was made)."""


@functools.cache
def _shipped_book() -> OpeningBook:
    return read_book(OPENING_BOOK)


class Ayoayo(AyoayoRules):
    """The rulebook of Ayòayò (:class:`~games.ayoayo.rules.AyoayoRules`), with its endgame
    tablebases and its compiled search.

    Args:
        cache_size: most states whose legal moves and children are kept (0 turns caching off).
    """

    def compiled_rules(self) -> CompiledRules:
        """The rules for the compiled route (``solver.game.HasCompiledRules``,
        :mod:`games.ayoayo.native_route`)."""
        from games.ayoayo.native_route import compiled_rules

        return compiled_rules()

    def tablebase(self, directory: str | os.PathLike[str] | None = None) -> Tablebase:
        """The endgame tablebase in ``directory`` (None: the user cache directory, see
        :mod:`games.ayoayo.tablebase`), built with the compiled builder when numba is there
        (``solver.game.HasTablebase``)."""
        return Tablebase(directory, game=self, builder=accel.level_kernel)

    def compiled_search(self, request: SearchRequest, limits: Limits) -> NodeSearch | None:
        """The compiled route's node search (:func:`solver.compiled.compiled_search`) against
        :meth:`compiled_rules`, loaded or compiled once, with the tablebase levels of
        ``request.oracle`` probed inside it, once Ayòayò's kernels may be used
        (:func:`games.ayoayo.accel.enabled`: numba loads, said in one line when it cannot, and
        a folder for its cache).

        None (the engine then runs its Python node search) when numba is not installed, the
        environment says ``GAMESOLVER_NATIVE=0``, or the kernel cannot serve ``request``.
        """
        if not accel.enabled():
            return None
        return compiled_search(self, self.compiled_rules(), request, limits)

    def prover(
        self,
        tablebase: EndgameTablebase | None,
        *,
        table_size: int | None = None,
        progress: Callable[[str], None] | None = None,
        checkpoint: str | os.PathLike[str] | None = None,
        stop: Callable[[], bool] | None = None,
        watch: Callable[[Any], None] | None = None,
        mapper: Mapper | None = None,
    ) -> Prover:
        """The compiled proof search (:mod:`games.ayoayo.proof`), with the levels of
        ``tablebase`` as exact leaves (``solver.game.HasProofSearch``); with a ``mapper``, the
        root's moves tested as its tasks (:mod:`games.ayoayo.proof_split`).

        Raises:
            CapabilityError: numba is not installed or ``GAMESOLVER_NATIVE=0`` (the proof search
                has no pure-Python twin: it would take hours where it takes seconds).
        """
        if accel.proof_kernel() is None:
            raise CapabilityError(
                f"proving Ayòayò needs the compiled kernel: {accel.missing_reason()}"
            )
        from games.ayoayo.proof import DEFAULT_TABLE, Prover

        if tablebase is not None and not isinstance(tablebase, Tablebase):
            raise CapabilityError(f"the proof search reads Ayòayò tablebases, not {tablebase!r}")
        if mapper is not None:
            from games.ayoayo.proof_split import SplitProver

            return SplitProver(
                self,
                tablebase,
                mapper=mapper,
                table_size=DEFAULT_TABLE if table_size is None else table_size,
                progress=progress,
                checkpoint=checkpoint,
                stop=stop,
                watch=watch,
            )
        return Prover(
            self,
            tablebase,
            table_size=DEFAULT_TABLE if table_size is None else table_size,
            progress=progress,
            checkpoint=checkpoint,
            stop=stop,
            watch=watch,
        )

    def opening_book(self, tablebase: EndgameTablebase | None) -> OpeningBook | None:
        """The opening book shipped with the game (:data:`OPENING_BOOK`: the start and every
        first move, proved), when ``tablebase`` has levels of the lineage the proofs used, else
        None (``solver.game.HasOpeningBook``)."""
        if not isinstance(tablebase, Tablebase):
            return None
        book = _shipped_book()
        return None if book.mismatch(tablebase.lineages()) else book

    def compile_kernels(self) -> float | None:
        """Load the kernels now (the rules', the tablebase builder's and the compiled route's
        node search), compiling them when numba's cache lacks them: the seconds spent
        compiling, 0.0 when all came from the cache, None when the kernels are not to be used.
        The route's proof search is compiled when a proof first needs it."""
        seconds = accel.compile_kernels()
        if seconds is None:
            return seconds
        more = prepare_rules(self.compiled_rules())
        return None if more is None else seconds + more

    def move_steps(self, state: AyoayoState, action: int) -> list[MoveStep]:
        """The sowing of ``action`` step by step, checked against the rules
        (``solver.game.HasMoveSteps``, :func:`games.ayoayo.sowing.sowing_steps`)."""
        return sowing_steps(self, state, action)

    def out_of_core_builder(
        self, root: Path, *, memory: int | None, checkpoints: bool, client: Any = None
    ) -> Any:
        """The out-of-core level builder (``solver.game.HasTablebaseBuilds``): partitions on
        disk under ``root`` within ``memory``, on the compiled kernel; with a Dask ``client``,
        each partition's work runs on the cluster (``root`` then shared by its workers).

        Raises:
            CapabilityError: the compiled kernel is not there (numba, ``GAMESOLVER_NATIVE``).
        """
        if accel.level_kernel() is None:
            raise CapabilityError(
                "building Ayòayò's tablebase out of core needs the compiled kernel: "
                f"{accel.missing_reason()}"
            )
        from games.ayoayo.native_partitions import CHECKPOINT_SECONDS, PartitionedBuilder

        checkpoint = CHECKPOINT_SECONDS if checkpoints else None
        if client is not None:
            from games.ayoayo.tablebase_cluster import ClusterBuilder

            return ClusterBuilder(root.resolve(), client, memory=memory, checkpoint=checkpoint)
        return PartitionedBuilder(root, memory=memory, checkpoint=checkpoint)

    def tablebase_planner(self) -> TablebasePlanner:
        """What building the levels costs (:mod:`games.ayoayo.tablebase_plan`)."""
        from games.ayoayo import tablebase_plan

        return tablebase_plan
