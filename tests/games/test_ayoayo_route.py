"""Ayòayò's node search: the compiled route's generic kernel against Ayòayò's rules
(:mod:`games.ayoayo.native_route`), held to the Python engine, with and without tablebases.

The driver over its Python node search (``search(..., native=False)``) is the oracle for every
search field. Positions come from ``test_ayoayo_native`` (the reference's recorded games,
seeded playouts, endgames, positions by seed count); the tablebase here holds levels 0 to 12,
built once in a temporary folder on the compiled builder.
"""

from __future__ import annotations

import gc
import json
import random
import shutil
import sys
import weakref
from pathlib import Path
from typing import Any, Final

import pytest

from games.ayoayo import Ayoayo, AyoayoState, game, tablebase_build
from games.ayoayo.tablebase import Tablebase
from games.ayoayo.tablebase_files import DISTANCES, VALUES, level_path
from solver import compiled
from solver.compiled import CompiledSearch, compiled_search, prepare
from solver.engine import search
from solver.node_search import Limits, NodeSearch
from solver.results import SearchRequest, SearchResult

native_tablebase = pytest.importorskip("games.ayoayo.native_tablebase", reason="no numba")
native_route = pytest.importorskip("games.ayoayo.native_route")
native_probe = pytest.importorskip("games.ayoayo.native_probe")

from tests.games.test_ayoayo_native import (  # noqa: E402 (after the skip without numba)
    _endgame_states,
    _late_states,
    _playout_states,
    _positions_of,
    _recorded_states,
)

GAME = Ayoayo()


class _Compiled(Ayoayo):
    """Ayòayò whose search must run on the compiled route: a refusal fails the test."""

    def compiled_search(self, request: SearchRequest, limits: Limits) -> NodeSearch | None:
        found = super().compiled_search(request, limits)
        assert isinstance(found, CompiledSearch), "the compiled route declined a search"
        return found


COMPILED = _Compiled()

SMALL_TABLE: Final = 1 << 6
"""A table of 64 slots, which a third of the searches of depth 5-6 below overfill (hundreds of
positions stored): its buckets then replace entries, and the answers must not change."""


@pytest.fixture(scope="module", autouse=True)
def ready_kernel() -> None:
    """The route's kernel for Ayòayò, loaded (or compiled once) for the module."""
    assert prepare(COMPILED) is not None


@pytest.fixture(scope="module")
def tablebase(tmp_path_factory: pytest.TempPathFactory) -> Tablebase:
    """Levels 0 to 12, built once on the compiled builder."""
    directory = tmp_path_factory.mktemp("route-tablebase")
    tablebase_build.build(12, directory, kernel=native_tablebase.KERNEL)
    return Tablebase(directory, game=GAME)


def _assert_legal_line(state: AyoayoState, pv: tuple[int, ...]) -> None:
    for move in pv:
        assert move in GAME.actions(state), (state, pv)
        state = GAME.result(state, move)


def _assert_same(
    state: AyoayoState, depth: int, *, same_line: bool = True, **options: Any
) -> SearchResult:
    """The route's answer is the Python engine's, field by field; its line is legal.

    ``same_line=False`` for a table that fills: the two tables replace entries each their own
    way, so the line (read from the table) may differ; the values may not."""
    python = search(GAME, state, depth=depth, native=False, **options)
    fast = search(COMPILED, state, depth=depth, **options)
    where = (GAME.format_state(state), depth, options)
    for field in ("value", "best_actions", "depth", "exact", "plies", "best_action"):
        assert getattr(fast, field) == getattr(python, field), (field, where)
    if same_line:
        assert (fast.pv, fast.pv_end) == (python.pv, python.pv_end), where
    assert dict(fast.action_values) == dict(python.action_values), where
    assert dict(fast.action_plies) == dict(python.action_plies), where
    assert fast.complete and python.complete
    _assert_legal_line(state, fast.pv)
    if fast.pv_end is not None and fast.pv_end.kind == "depth":  # else it runs to the end
        assert fast.depth is not None and len(fast.pv) <= fast.depth, where
    return fast


class TestSameAnswers:
    """Values, optimal sets, plies, exactness and lines equal the Python engine's."""

    def test_shallow_depths_on_many_positions(self) -> None:
        """300 positions of every stage at depths 1-4, every root move valued."""
        rng = random.Random(31)
        for state in _playout_states(rng, 200) + _endgame_states(rng, 100):
            _assert_same(state, rng.randint(1, 4), all_values=True)

    def test_middle_and_deep_searches(self) -> None:
        """40 positions at depths 5-7 and 8 at depths 8-9."""
        rng = random.Random(32)
        for i, state in enumerate(_playout_states(rng, 25) + _endgame_states(rng, 15)):
            _assert_same(state, rng.randint(5, 7), all_values=bool(i % 2))
        for state in _playout_states(rng, 5) + _endgame_states(rng, 3):
            _assert_same(state, rng.randint(8, 9))

    def test_a_table_that_fills(self) -> None:
        """60 positions at depths 5-6 with a table of SMALL_TABLE slots: entries are replaced,
        the answers stay the Python engine's."""
        rng = random.Random(37)
        for state in _playout_states(rng, 40) + _endgame_states(rng, 20):
            depth = rng.randint(5, 6)
            _assert_same(state, depth, table_size=SMALL_TABLE, all_values=True, same_line=False)

    def test_recorded_positions(self) -> None:
        """Every 20th position of the reference's recorded games at depth 5."""
        for i, state in enumerate(_recorded_states()):
            if i % 20 == 0:
                _assert_same(state, 5, all_values=True)

    def test_seeded_choices_and_no_plies(self) -> None:
        """A seed picks among the preferred moves as the engine does; plies=False skips plies."""
        rng = random.Random(33)
        for state in _playout_states(rng, 20) + _endgame_states(rng, 20):
            _assert_same(state, 4, seed=5)
            _assert_same(state, 4, plies=False)

    def test_deepening_to_the_first_exact_depth(self) -> None:
        """Near the end (exact at depth 4), no depth: deepening stops at the first exact
        depth, as the Python engine's does."""
        rng = random.Random(34)
        states = [s for s in _late_states(rng, 200) if not GAME.is_terminal(s)]
        near = [s for s in states if search(GAME, s, depth=4, native=False).exact][:12]
        assert len(near) >= 8
        for state in near:
            python = search(GAME, state, node_limit=100_000, native=False)
            fast = search(COMPILED, state, node_limit=100_000)
            assert python.complete
            for field in ("value", "depth", "exact", "plies", "complete", "best_actions"):
                assert getattr(fast, field) == getattr(python, field), (field, state)
            assert dict(fast.action_plies) == dict(python.action_plies)
            _assert_legal_line(state, fast.pv)
            assert len(fast.pv) == fast.plies

    def test_the_same_tree_as_the_python_engine(self) -> None:
        """Below one node budget the kernel visits exactly the engine's nodes, cut-offs and
        table hits."""
        rng = random.Random(35)
        for state in _playout_states(rng, 30):
            depth = rng.randint(2, 7)
            python = search(GAME, state, depth=depth, native=False)
            if python.stats.nodes >= compiled.KERNEL_CHECK_NODES:  # a restart: the same values
                continue
            fast = search(COMPILED, state, depth=depth)
            assert fast.stats.nodes == python.stats.nodes, state
            assert fast.stats.cutoffs == python.stats.cutoffs, state
            assert fast.stats.table_hits == python.stats.table_hits, state

    def test_a_finished_game_and_depth_zero(self) -> None:
        """A finished game is exact with no move; depth 0 is the evaluation, not exact."""
        rng = random.Random(36)
        done = next(s for s in _playout_states(rng, 400) if GAME.is_terminal(s))
        _assert_same(done, 3)
        _assert_same(GAME.initial_state(), 0)


class TestTablebaseAsTheOracle:
    """With a tablebase as the oracle, the kernel reads its levels and answers as Python."""

    def test_positions_of_8_to_48_seeds(self, tablebase: Tablebase) -> None:
        """150 positions at depths 1-6, every root move valued, the levels read in the
        kernel; every third with a table that fills."""
        rng = random.Random(41)
        for i, state in enumerate(_positions_of(rng, 150, 8, 48)):
            small = i % 3 == 0
            size = SMALL_TABLE if small else 1 << 20
            _assert_same(
                state,
                rng.randint(1, 6),
                oracle=tablebase,
                all_values=True,
                table_size=size,
                same_line=not small,
            )

    def test_deeper_searches_into_the_levels(self, tablebase: Tablebase) -> None:
        """20 positions of 16-24 seeds (just above the levels) at depths 7-9; the probe as
        the oracle too."""
        rng = random.Random(42)
        for i, state in enumerate(_positions_of(rng, 20, 16, 24)):
            oracle = tablebase if i % 2 else tablebase.probe
            _assert_same(state, rng.randint(7, 9), oracle=oracle)

    def test_a_partial_set_of_levels(self, tablebase: Tablebase, tmp_path: Path) -> None:
        """With level 8 missing, only the levels present are probed, as in Python (level 12,
        built on the missing level 8, is refused: its lineage cannot be checked)."""
        partial = tmp_path / "partial"
        partial.mkdir()
        for n in (0, 4, 12):
            for kind in (VALUES, DISTANCES):
                source = level_path(tablebase.directory, n, kind)
                (partial / source.name).write_bytes(source.read_bytes())
        holey = Tablebase(partial, game=GAME)
        assert holey.levels == (0, 4)
        assert "built on level 8, which is missing" in holey.problems()[0]
        rng = random.Random(24)
        for state in _positions_of(rng, 40, 8, 24):
            _assert_same(state, rng.randint(1, 6), oracle=holey, all_values=True)

    def test_the_oracle_is_probed_in_the_kernel(self, tablebase: Tablebase) -> None:
        """The kernel is given the levels (the top one is 12), by the tablebase or its probe,
        and ends lines on them."""
        for oracle in (tablebase, tablebase.probe):
            data = native_route.oracle_data(oracle)
            assert data is not None and int(data[native_probe.TB_TOP]) == 12
        state = _positions_of(random.Random(43), 1, 16, 16)[0]
        with_levels = search(COMPILED, state, depth=6, oracle=tablebase)
        without = search(COMPILED, state, depth=6)
        assert with_levels.stats.nodes < without.stats.nodes

    def test_the_levels_live_as_long_as_the_kernels_words(
        self, tablebase: Tablebase, tmp_path: Path
    ) -> None:
        """The kernel reaches the levels through their addresses (one array of words): the
        levels stay alive while the words do, though the tablebase forgets them and their
        files are deleted, the kernel still reading their values, and go with the words."""
        directory = tmp_path / "levels"
        shutil.copytree(tablebase.directory, directory)
        own = Tablebase(directory, game=GAME)
        words = native_route.oracle_data(own)
        level = own.arrays()[8]
        assert int(words[native_probe.TB_ADDRESS + 2]) == level.ctypes.data
        alive = weakref.ref(level)
        states = _positions_of(random.Random(44), 30, 4, 12)
        expected = [own.probe(s) for s in states]
        own.refresh()  # the tablebase drops its levels; the files go too
        shutil.rmtree(directory)
        del level
        gc.collect()
        assert alive() is not None
        for state, value in zip(states, expected, strict=True):
            found = native_probe.tablebase_value_at(native_route.board_array(state), words)
            assert (-found if state[14] else found) == value, state
        del words
        gc.collect()
        assert alive() is None


class TestLimits:
    """Limits and interruptions return the last completed depth, as the engine does."""

    def test_a_node_limit(self) -> None:
        """A node limit stops the deepening; the answer is that of the last completed depth."""
        start = GAME.initial_state()
        stopped = search(COMPILED, start, node_limit=200_000)
        assert not stopped.complete
        assert stopped.depth is not None and stopped.depth >= 5
        full = search(GAME, start, depth=stopped.depth, native=False)
        assert (stopped.value, stopped.best_actions) == (full.value, full.best_actions)
        # nodes may overshoot the limit by one frontier node's leaves and the next iteration's root
        assert stopped.stats.nodes <= 200_000 + 8

    def test_a_time_limit(self) -> None:
        """A time limit answers with a completed depth and complete=False."""
        stopped = search(COMPILED, GAME.initial_state(), time_limit=0.3)
        assert not stopped.complete
        assert stopped.depth is not None and stopped.depth >= 1
        _assert_legal_line(GAME.initial_state(), stopped.pv)

    def test_ctrl_c(self) -> None:
        """Ctrl-C (KeyboardInterrupt) during the search keeps the last completed depth."""
        seen: list[int] = []

        def on_depth(result: SearchResult) -> None:
            seen.append(result.depth or 0)
            if len(seen) == 6:
                raise KeyboardInterrupt

        stopped = search(COMPILED, GAME.initial_state(), depth=12, on_depth=on_depth)
        assert (stopped.depth, stopped.complete) == (6, False)

    def test_too_little_budget(self) -> None:
        """No completed depth: the first legal move and the evaluation, depth 0."""
        stopped = search(COMPILED, GAME.initial_state(), depth=8, node_limit=1)
        assert (stopped.depth, stopped.best_action, stopped.complete) == (0, 0, False)


class TestWiring:
    """search() runs the route's kernel only where it serves the call, else Python."""

    def test_search_uses_the_kernel(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """``Ayoayo()`` hands the engine the route's search when there is no observer and the
        evaluation is the game's own."""
        found: list[NodeSearch | None] = []
        real = game.compiled_search

        def spy(*args: Any) -> Any:
            found.append(real(*args))
            return found[-1]

        monkeypatch.setattr(game, "compiled_search", spy)
        search(GAME, depth=3)
        assert len(found) == 1 and isinstance(found[0], CompiledSearch)
        search(GAME, depth=3, evaluate=lambda s: 0)
        search(GAME, depth=3, native=False)
        search(GAME, depth=3, observer=lambda event: None)
        assert len(found) == 1

    def test_switched_off(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """GAMESOLVER_NATIVE=0 makes the game offer no compiled search."""
        monkeypatch.setenv("GAMESOLVER_NATIVE", "0")
        assert GAME.compiled_search(SearchRequest(depth=3), Limits(None, None)) is None

    def test_without_numba(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """When numba cannot be imported, the game offers none and search() still works."""
        monkeypatch.setitem(sys.modules, "numba", None)
        assert GAME.compiled_search(SearchRequest(depth=3), Limits(None, None)) is None
        assert search(GAME, depth=3).value == 0

    def test_another_oracle_runs_in_python(self) -> None:
        """An oracle that is no tablebase: the route declines, the Python search answers."""
        request = SearchRequest(depth=3, oracle=lambda state: None)
        rules = GAME.compiled_rules()
        assert compiled_search(GAME, rules, request, Limits(None, None)) is None
        python = search(GAME, depth=3, oracle=lambda state: None, native=False)
        fallback = search(GAME, depth=3, oracle=lambda s: None)
        assert (fallback.value, fallback.pv, fallback.stats.nodes) == (
            python.value,
            python.pv,
            python.stats.nodes,
        )

    def test_searches_past_its_stacks_or_endless(self) -> None:
        """Deeper than the stacks hold, or to the end with nothing to stop it: declined."""
        limits = Limits(None, None)
        for request in (SearchRequest(depth=native_route.MAX_DEPTH + 1), SearchRequest()):
            assert GAME.compiled_search(request, limits) is None, request
        found = GAME.compiled_search(SearchRequest(depth=5), limits)
        assert isinstance(found, CompiledSearch) and found.max_depth == native_route.MAX_DEPTH


def test_analyse_runs_on_the_route(capsys: pytest.CaptureFixture[str]) -> None:
    """``analyse --compiled`` from the article's position to depth 8: the Python engine's
    value, optimal moves and every move's value."""
    from zerosum.cli import main

    position = "[[2,6,6,1,1,7],[0,2,7,2,7,7]]"
    argv = ["analyse", "ayoayo", "-p", position, "-d", "8", "--compiled"]
    assert main([*argv, "--no-tablebase", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    python = search(GAME, GAME.parse_state(position), depth=8, native=False, all_values=True)
    assert answer["depth"] == 8
    assert answer["value"] == python.value
    assert {row["action"] for row in answer["moves"] if row["optimal"]} == set(python.best_actions)
    assert {row["action"]: row["value"] for row in answer["moves"]} == dict(python.action_values)
