"""Ayòayò on the compiled route: the generic node search compiled against Ayòayò's rules
(:mod:`games.ayoayo.native_route`) against the Python engine and the hand-written kernel.

Positions and the comparison come from ``test_ayoayo_native`` (seeded playouts, endgames,
positions by seed count); the tablebase here holds levels 0 to 8 only, built in a
temporary folder on the compiled builder (well under a second).
"""

from __future__ import annotations

import gc
import random
import shutil
import weakref
from pathlib import Path
from typing import Any

import pytest

from games.ayoayo import Ayoayo, AyoayoState, tablebase_build
from games.ayoayo.tablebase import Tablebase
from solver.compiled import CompiledSearch, compiled_search, prepare
from solver.engine import search
from solver.errors import InvalidOptionError
from solver.node_search import Limits, NodeSearch
from solver.results import SearchRequest, SearchResult

native_tablebase = pytest.importorskip("games.ayoayo.native_tablebase", reason="no numba")
native_route = pytest.importorskip("games.ayoayo.native_route")
native_probe = pytest.importorskip("games.ayoayo.native_probe")

from tests.games.test_ayoayo_native import (  # noqa: E402 (after the skip without numba)
    _assert_legal_line,
    _endgame_states,
    _late_states,
    _playout_states,
    _positions_of,
)

GAME = Ayoayo(route="own")  # the hand-written kernel, compared with the route


class _Generic(Ayoayo):
    """Ayòayò on the compiled route, which must serve: a refusal fails the test."""

    def __init__(self) -> None:
        super().__init__(route="generic")

    def compiled_search(self, request: SearchRequest, limits: Limits) -> NodeSearch | None:
        found = super().compiled_search(request, limits)
        assert isinstance(found, CompiledSearch), "the compiled route declined a search"
        return found


GENERIC = _Generic()


@pytest.fixture(scope="module", autouse=True)
def ready_kernel() -> None:
    """The route's kernel for Ayòayò, loaded (or compiled once) for the module."""
    assert prepare(GENERIC) is not None


@pytest.fixture(scope="module")
def tablebase(tmp_path_factory: pytest.TempPathFactory) -> Tablebase:
    """Levels 0 to 8, built once on the compiled builder."""
    directory = tmp_path_factory.mktemp("route-tablebase")
    tablebase_build.build(8, directory, kernel=native_tablebase.KERNEL)
    return Tablebase(directory, game=GAME)


FIELDS = ("value", "best_actions", "depth", "exact", "plies", "best_action", "pv_end")


def _assert_same(state: AyoayoState, depth: int, **options: Any) -> SearchResult:
    """The route's answer equals the Python engine's and the hand-written kernel's, field by
    field (the hand-written kernel's principal variation too); its line is legal."""
    generic = search(GENERIC, state, depth=depth, **options)
    python = search(GAME, state, depth=depth, native=False, **options)
    own = search(GAME, state, depth=depth, **options)
    where = (GAME.format_state(state), depth, options)
    for other in (python, own):
        for field in FIELDS:
            assert getattr(generic, field) == getattr(other, field), (field, where)
        assert dict(generic.action_values) == dict(other.action_values), where
        assert dict(generic.action_plies) == dict(other.action_plies), where
    assert generic.pv == python.pv, where
    _assert_legal_line(state, generic.pv)
    return generic


class TestSameAnswers:
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

    def test_seeded_choices_and_no_plies(self) -> None:
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
            generic = search(GENERIC, state, node_limit=100_000)
            assert python.complete
            for field in ("value", "depth", "exact", "plies", "complete", "best_actions"):
                assert getattr(generic, field) == getattr(python, field), (field, state)
            assert dict(generic.action_plies) == dict(python.action_plies)
            _assert_legal_line(state, generic.pv)
            assert len(generic.pv) == generic.plies

    def test_the_same_tree_as_the_python_engine(self) -> None:
        """Small searches visit exactly the Python engine's nodes, cut-offs and table hits."""
        rng = random.Random(35)
        for state in _playout_states(rng, 30):
            depth = rng.randint(2, 7)
            python = search(GAME, state, depth=depth, native=False)
            if python.stats.nodes >= 1 << 15:  # the kernel returns to Python: a restart
                continue
            generic = search(GENERIC, state, depth=depth)
            assert generic.stats.nodes == python.stats.nodes, state
            assert generic.stats.cutoffs == python.stats.cutoffs, state
            assert generic.stats.table_hits == python.stats.table_hits, state

    def test_a_finished_game_and_depth_zero(self) -> None:
        rng = random.Random(36)
        done = next(s for s in _playout_states(rng, 400) if GAME.is_terminal(s))
        _assert_same(done, 3)
        _assert_same(GAME.initial_state(), 0)


class TestTablebaseAsTheOracle:
    def test_positions_of_8_to_48_seeds(self, tablebase: Tablebase) -> None:
        """150 positions at depths 1-6, every root move valued, the levels read in the kernel."""
        rng = random.Random(41)
        for state in _positions_of(rng, 150, 8, 48):
            _assert_same(state, rng.randint(1, 6), oracle=tablebase, all_values=True)

    def test_deeper_searches_into_the_levels(self, tablebase: Tablebase) -> None:
        """20 positions of 12-20 seeds (just above the levels) at depths 7-9; the probe as
        the oracle too."""
        rng = random.Random(42)
        for i, state in enumerate(_positions_of(rng, 20, 12, 20)):
            oracle = tablebase if i % 2 else tablebase.probe
            _assert_same(state, rng.randint(7, 9), oracle=oracle)

    def test_the_oracle_is_probed_in_the_kernel(self, tablebase: Tablebase) -> None:
        """The kernel is given the levels (the top one is 8) and ends lines on them."""
        data = native_route.oracle_data(tablebase)
        assert data is not None and int(data[native_probe.TB_TOP]) == 8
        state = _positions_of(random.Random(43), 1, 12, 12)[0]
        with_levels = search(GENERIC, state, depth=6, oracle=tablebase)
        without = search(GENERIC, state, depth=6)
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
        states = _positions_of(random.Random(44), 30, 4, 8)
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


class TestWhatTheRouteDeclines:
    def test_another_oracle_runs_in_python(self) -> None:
        """An oracle that is no tablebase: the route declines, the Python search answers."""
        request = SearchRequest(depth=3, oracle=lambda state: None)
        rules = GENERIC.compiled_rules()
        assert compiled_search(GENERIC, rules, request, Limits(None, None)) is None
        python = search(GAME, depth=3, oracle=lambda state: None, native=False)
        fallback = search(Ayoayo(route="generic"), depth=3, oracle=lambda s: None)
        assert (fallback.value, fallback.pv, fallback.stats.nodes) == (
            python.value,
            python.pv,
            python.stats.nodes,
        )

    def test_searches_past_its_stacks_or_endless(self) -> None:
        """Deeper than the stacks hold, or to the end with nothing to stop it: declined."""
        rules = GENERIC.compiled_rules()
        limits = Limits(None, None)
        for request in (SearchRequest(depth=native_route.MAX_DEPTH + 1), SearchRequest()):
            assert compiled_search(GENERIC, rules, request, limits) is None, request
        found = compiled_search(GENERIC, rules, SearchRequest(depth=5), limits)
        assert found is not None and found.max_depth == native_route.MAX_DEPTH

    def test_the_route_is_the_default(self) -> None:
        """``Ayoayo()`` searches on the compiled route; ``route="own"`` on the hand-written
        kernel."""
        limits = Limits(None, None)
        found = Ayoayo().compiled_search(SearchRequest(depth=3), limits)
        assert isinstance(found, CompiledSearch)
        assert not isinstance(GAME.compiled_search(SearchRequest(depth=3), limits), CompiledSearch)

    def test_an_unknown_route_is_refused(self) -> None:
        with pytest.raises(InvalidOptionError, match="invalid route 'fast'; expected one of"):
            Ayoayo(route="fast")


def test_analyse_runs_on_the_route(capsys: pytest.CaptureFixture[str]) -> None:
    """``-O route=generic`` selects it from the command line: the article's position to
    depth 8, the same answer as the hand-written kernel's (but the time it took)."""
    import json

    from zerosum.cli import main

    position = "[[2,6,6,1,1,7],[0,2,7,2,7,7]]"
    answers = []
    for route in ("generic", "own"):
        argv = ["analyse", "ayoayo", "-O", f"route={route}", "-p", position, "-d", "8"]
        argv.append("--compiled")  # the route's kernel, or the hand-written one, readied first
        capsys.readouterr()
        assert main([*argv, "--no-tablebase", "--json"]) == 0
        answer = json.loads(capsys.readouterr().out)
        answer.pop("stats")
        answers.append(answer)
    assert answers[0] == answers[1]
    assert answers[0]["depth"] == 8
