"""The numba kernel for Ayòayò against the readable rules and the Python node search.

Positions come from the reference's recorded games (``tests/data``), from seeded random
playouts and from seeded random endgames; the engine's driver over its Python node search
(``search(..., native=False)``) is the oracle for every search field, with and without
tablebases.
"""

from __future__ import annotations

import gzip
import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import numpy as np
import pytest

from games.ayoayo import Ayoayo, AyoayoState, jit_cache, tablebase_build, tablebase_moves
from games.ayoayo.tablebase import Tablebase
from games.ayoayo.tablebase_files import DISTANCES, VALUES, level_path
from solver.engine import search
from solver.game import InvalidStateError
from solver.node_search import Limits, NodeSearch
from solver.results import SearchRequest, SearchResult

native_rules = pytest.importorskip("games.ayoayo.native_rules", reason="numba is not installed")
native_search = pytest.importorskip("games.ayoayo.native_search")
native_jit = pytest.importorskip("games.ayoayo.native_jit")
native_tablebase = pytest.importorskip("games.ayoayo.native_tablebase")

REPO_ROOT = Path(__file__).resolve().parents[2]
PLAYOUTS = REPO_ROOT / "tests" / "data" / "ayoayo_playouts_subset.jsonl.gz"
GAME = Ayoayo(route="own")  # the hand-written kernel (the default is the compiled route)


class _Compiled(Ayoayo):
    """Ayòayò whose search must run on the kernel: a refusal fails the test."""

    def compiled_search(self, request: SearchRequest, limits: Limits) -> NodeSearch | None:
        found = super().compiled_search(request, limits)
        assert found is not None, "the kernel declined a search it should serve"
        return found


COMPILED = _Compiled(route="own")


def _recorded_states() -> Iterator[AyoayoState]:
    """Every position before a move in the reference's 20 stored games, and each final one."""
    with gzip.open(PLAYOUTS, "rt", encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            for ply in record["plies"]:
                yield GAME.state_from(ply["board_before"], ply["captured_before"], ply["player"])
                yield GAME.state_from(ply["board_after"], ply["captured_after"], ply["next_player"])


def _playout_states(rng: random.Random, count: int) -> list[AyoayoState]:
    """``count`` positions met in random playouts (any stage of the game, terminal ones too)."""
    states: list[AyoayoState] = []
    while len(states) < count:
        state = GAME.initial_state()
        stop = rng.randrange(0, 80)
        for _ in range(stop):
            acts = GAME.actions(state)
            if not acts:
                break
            state = GAME.result(state, rng.choice(acts))
        states.append(state)
    return states


def _late_states(rng: random.Random, count: int) -> list[AyoayoState]:
    """``count`` positions a few plies (1 to 8) before the end of a random playout."""
    states: list[AyoayoState] = []
    while len(states) < count:
        line = [GAME.initial_state()]
        while acts := GAME.actions(line[-1]):
            line.append(GAME.result(line[-1], rng.choice(acts)))
        states.append(line[max(0, len(line) - 1 - rng.randint(1, 8))])
    return states


def _endgame_states(rng: random.Random, count: int) -> list[AyoayoState]:
    """``count`` random positions with 4 to 16 seeds on the board (where searches get exact)."""
    states: list[AyoayoState] = []
    while len(states) < count:
        seeds = 4 * rng.randint(1, 4)
        pits = [0] * 12
        for _ in range(seeds):
            pits[rng.randrange(12)] += 1
        c0 = rng.randint(max(0, 48 - seeds - 24), 24)
        board = [pits[:6], pits[6:]]
        try:
            states.append(GAME.state_from(board, (c0, 48 - seeds - c0), rng.randint(0, 1)))
        except InvalidStateError:  # a finished game whose sweep was not applied: draw again
            continue
    return states


def _positions_of(rng: random.Random, count: int, low: int, high: int) -> list[AyoayoState]:
    """``count`` random positions with ``low`` to ``high`` seeds on the board (multiples of 4)."""
    states: list[AyoayoState] = []
    while len(states) < count:
        seeds = 4 * rng.randint(low // 4, high // 4)
        pits = [0] * 12
        for _ in range(seeds):
            pits[rng.randrange(12)] += 1
        rest = 48 - seeds
        c0 = 4 * rng.randint(max(0, rest - 24) // 4, min(24, rest) // 4)
        try:
            state = GAME.state_from([pits[:6], pits[6:]], (c0, rest - c0), rng.randint(0, 1))
        except InvalidStateError:  # a finished game whose sweep was not applied: draw again
            continue
        states.append(state)
    return states


@pytest.fixture(scope="module")
def tablebase(tmp_path_factory: pytest.TempPathFactory) -> Tablebase:
    """Levels 0 to 12 (5.4 million positions at 12), built once on the kernel."""
    directory = tmp_path_factory.mktemp("kernel-tablebase")
    tablebase_build.build(12, directory, kernel=native_tablebase.KERNEL)
    return Tablebase(directory, game=GAME)


SMALL_TABLE: Final = 1 << 14
"""A transposition table for the many shallow searches of the "thousands more" tests: a
search of depth 1-6 visits up to a few thousand positions, so the table still fills and
replaces entries (the kernel must replace as the engine does), and each search no longer
spends two thirds of its time zeroing the default table of 2**20 entries."""


def _native(state: AyoayoState, **options: Any) -> SearchResult:
    """The driver over the kernel (it fails if the kernel declines)."""
    return search(COMPILED, state, **options)


def _assert_legal_line(state: AyoayoState, pv: tuple[int, ...]) -> None:
    for move in pv:
        assert move in GAME.actions(state), (state, pv)
        state = GAME.result(state, move)


def _assert_same(state: AyoayoState, depth: int, **options: Any) -> None:
    """The kernel's answer means what the Python engine's means, field by field."""
    python = search(GAME, state, depth=depth, native=False, **options)
    fast = _native(state, depth=depth, **options)
    where = (GAME.format_state(state), depth)
    assert fast.value == python.value, where
    assert fast.best_actions == python.best_actions, where
    assert dict(fast.action_values) == dict(python.action_values), where
    assert fast.depth == python.depth, where
    assert fast.exact == python.exact, where
    assert fast.plies == python.plies, where
    assert dict(fast.action_plies) == dict(python.action_plies), where
    assert fast.best_action == python.best_action, where
    assert fast.complete and python.complete
    _assert_legal_line(state, fast.pv)
    assert fast.pv == python.pv, where
    assert fast.pv_end == python.pv_end, where
    if fast.pv_end is not None and fast.pv_end.kind == "depth":  # else it runs to the end
        assert fast.depth is not None and len(fast.pv) <= fast.depth, where


class TestRules:
    """The kernel's rules equal the readable ones."""

    def _check(self, state: AyoayoState) -> None:
        b = native_rules.board_array(state)
        acts = GAME.actions(state)
        assert native_rules.legal_mask(b) == sum(1 << c for c in acts), state
        assert bool(native_rules.is_terminal(b)) == GAME.is_terminal(state), state
        out = np.zeros(native_rules.WIDTH, np.int64)
        if state[12] > 24 or state[13] > 24:
            return  # no candidates at all (as pseudo_actions): play is not asked
        for cell in range(6):
            legal = bool(native_rules.play(b, cell, out))
            assert legal == (cell in acts), (state, cell)
            if legal:
                assert tuple(int(n) for n in out[:15]) == GAME.result(state, cell), (state, cell)

    def test_every_recorded_ply(self) -> None:
        """Legal moves, children and the end agree on every ply of the reference's games."""
        for state in _recorded_states():
            self._check(state)

    def test_random_playouts_and_endgames(self) -> None:
        """They agree on 1500 random positions of every stage."""
        rng = random.Random(9)
        for state in _playout_states(rng, 1000) + _endgame_states(rng, 500):
            self._check(state)

    def test_a_never_ending_sowing_is_not_a_move(self) -> None:
        """Game 64 ply 12 of the reference, whose pit 4 loops for ever, leaves cell 4 out."""
        with gzip.open(PLAYOUTS, "rt", encoding="utf-8") as lines:
            record = next(r for r in map(json.loads, lines) if r["game"] == 64)
        ply = record["plies"][12]
        state = GAME.state_from(ply["board_before"], ply["captured_before"], ply["player"])
        out = np.zeros(native_rules.WIDTH, np.int64)
        assert not native_rules.play(native_rules.board_array(state), 4, out)
        self._check(state)


class TestSameAnswers:
    """Values, optimal sets, plies and exactness equal the Python engine's at every depth."""

    def test_shallow_depths_on_many_positions(self) -> None:
        """600 positions at depths 1-4, every root move valued."""
        rng = random.Random(1)
        states = _playout_states(rng, 400) + _endgame_states(rng, 200)
        for state in states:
            _assert_same(state, rng.randint(1, 4), all_values=True)

    def test_middle_depths(self) -> None:
        """80 positions at depths 5-7, with and without every root move's value."""
        rng = random.Random(2)
        for i, state in enumerate(_playout_states(rng, 50) + _endgame_states(rng, 30)):
            _assert_same(state, rng.randint(5, 7), all_values=bool(i % 2))

    def test_deep_searches(self) -> None:
        """16 positions at depths 8-10."""
        rng = random.Random(3)
        for state in _playout_states(rng, 10) + _endgame_states(rng, 6):
            _assert_same(state, rng.randint(8, 10))

    @pytest.mark.slow
    def test_thousands_more(self) -> None:
        """2000 positions at depths 1-6 and 150 at depths 7-10. The shallow ones with a table
        of 2**14 entries (SMALL_TABLE)."""
        rng = random.Random(4)
        for state in _playout_states(rng, 1400) + _endgame_states(rng, 600):
            all_values = rng.random() < 0.5
            _assert_same(state, rng.randint(1, 6), all_values=all_values, table_size=SMALL_TABLE)
        for state in _playout_states(rng, 100) + _endgame_states(rng, 50):
            _assert_same(state, rng.randint(7, 10), all_values=rng.random() < 0.5)

    def test_recorded_positions(self) -> None:
        """Every 15th recorded position at depth 5."""
        for i, state in enumerate(_recorded_states()):
            if i % 15 == 0:
                _assert_same(state, 5, all_values=True)

    def test_the_same_tree_as_the_python_engine(self) -> None:
        """Below one node budget the kernel visits exactly the engine's nodes, cut-offs, hits."""
        rng = random.Random(5)
        for state in _playout_states(rng, 40):
            depth = rng.randint(2, 8)
            python = search(GAME, state, depth=depth, native=False)
            if python.stats.nodes >= native_search.KERNEL_CHECK_NODES:
                continue
            fast = _native(state, depth=depth)
            assert fast.stats.nodes == python.stats.nodes
            assert fast.stats.cutoffs == python.stats.cutoffs
            assert fast.stats.table_hits == python.stats.table_hits
            assert fast.pv == python.pv

    def test_seeded_choices_and_no_plies(self) -> None:
        """A seed picks among the preferred moves as the engine does; plies=False skips plies."""
        rng = random.Random(6)
        for state in _playout_states(rng, 30) + _endgame_states(rng, 30):
            _assert_same(state, 4, seed=11)
            _assert_same(state, 4, plies=False)

    def test_deepening_to_the_first_exact_depth(self) -> None:
        """Without a depth, the deepening stops where the engine's answer becomes exact."""
        rng = random.Random(7)
        states = _late_states(rng, 150)
        near_the_end = [
            s
            for s in states
            if not GAME.is_terminal(s) and search(GAME, s, depth=4, native=False).exact
        ]
        assert len(near_the_end) >= 10
        for state in near_the_end[:25]:
            python = search(GAME, state, node_limit=100_000, native=False)
            fast = _native(state, node_limit=100_000)
            assert python.complete
            assert (fast.value, fast.depth, fast.exact, fast.plies, fast.complete) == (
                python.value,
                python.depth,
                python.exact,
                python.plies,
                python.complete,
            )
            assert fast.best_actions == python.best_actions
            assert dict(fast.action_plies) == dict(python.action_plies)
            _assert_legal_line(state, fast.pv)
            assert len(fast.pv) == fast.plies

    def test_terminal_root_and_depth_zero(self) -> None:
        """A finished game is exact with no move; depth 0 is the evaluation, not exact."""
        rng = random.Random(8)
        done = next(s for s in _playout_states(rng, 400) if GAME.is_terminal(s))
        _assert_same(done, 3)
        _assert_same(GAME.initial_state(), 0)


class TestTablebaseInsideTheKernel:
    """With a tablebase as the oracle, the kernel answers as the Python node search does."""

    def _check(self, tablebase: Tablebase, state: AyoayoState, depth: int, **options: Any) -> None:
        _assert_same(state, depth, oracle=tablebase, **options)

    def test_positions_of_8_to_48_seeds(self, tablebase: Tablebase) -> None:
        """300 positions of 8-48 seeds at depths 1-6, every root move valued."""
        rng = random.Random(21)
        for state in _positions_of(rng, 300, 8, 48):
            self._check(tablebase, state, rng.randint(1, 6), all_values=True)

    def test_deeper_searches_into_the_tablebase(self, tablebase: Tablebase) -> None:
        """40 positions of 16-28 seeds (just above the levels) at depths 7-10."""
        rng = random.Random(22)
        for state in _positions_of(rng, 40, 16, 28):
            self._check(tablebase, state, rng.randint(7, 10), all_values=rng.random() < 0.5)

    @pytest.mark.slow
    def test_thousands_more(self, tablebase: Tablebase) -> None:
        """1000 positions of 8-48 seeds at depths 1-6 and 100 at depths 7-10."""
        rng = random.Random(23)
        for state in _positions_of(rng, 1000, 8, 48):  # with a table of SMALL_TABLE entries
            depth, all_values = rng.randint(1, 6), rng.random() < 0.5
            self._check(tablebase, state, depth, all_values=all_values, table_size=SMALL_TABLE)
        for state in _positions_of(rng, 100, 12, 32):
            self._check(tablebase, state, rng.randint(7, 10), all_values=rng.random() < 0.5)

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
        for state in _positions_of(rng, 60, 8, 24):
            _assert_same(state, rng.randint(1, 7), oracle=holey, all_values=True)

    def test_probes_keep_the_kernels_speed(self, tablebase: Tablebase) -> None:
        """A search reaching the tablebase is counted in kernel nodes, not Python calls."""
        state = GAME.parse_state("[[2,1,0,3,1,1],[1,0,2,0,2,3]] captured 16,16")
        fast = _native(state, depth=12, oracle=tablebase)
        slow = search(GAME, state, depth=12, oracle=tablebase, native=False)
        assert (fast.value, fast.best_actions, fast.exact) == (
            slow.value,
            slow.best_actions,
            slow.exact,
        )


class TestLimits:
    """Limits and interruptions return the last completed depth, as the engine does."""

    def test_a_node_limit(self) -> None:
        """A node limit stops the deepening; the answer is that of the last completed depth."""
        start = GAME.initial_state()
        stopped = _native(start, node_limit=200_000)
        assert not stopped.complete
        assert stopped.depth is not None and stopped.depth >= 5
        full = search(GAME, start, depth=stopped.depth, native=False)
        assert (stopped.value, stopped.best_actions) == (full.value, full.best_actions)
        # nodes may overshoot the limit by one frontier node's leaves and the next iteration's root
        assert stopped.stats.nodes <= 200_000 + 8

    def test_a_time_limit(self) -> None:
        """A time limit answers with a completed depth and complete=False."""
        stopped = _native(GAME.initial_state(), time_limit=0.3)
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

        stopped = _native(GAME.initial_state(), depth=12, on_depth=on_depth)
        assert (stopped.depth, stopped.complete) == (6, False)

    def test_too_little_budget(self) -> None:
        """No completed depth: the first legal move and the evaluation, depth 0."""
        stopped = _native(GAME.initial_state(), depth=8, node_limit=1)
        assert (stopped.depth, stopped.best_action, stopped.complete) == (0, 0, False)


class TestWiring:
    """search() runs the kernel under its driver only where it serves the call, else Python."""

    def test_search_uses_the_kernel(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """With no observer and the game's own evaluation, the node search is the kernel."""
        calls: list[SearchRequest] = []
        real = native_search.compiled_search

        def spy(game: Any, request: SearchRequest, limits: Limits) -> Any:
            calls.append(request)
            return real(game, request, limits)

        monkeypatch.setattr(native_search, "compiled_search", spy)
        search(GAME, depth=3)
        assert len(calls) == 1
        search(GAME, depth=3, evaluate=lambda s: 0)
        search(GAME, depth=3, native=False)
        search(GAME, depth=3, observer=lambda event: None)
        assert len(calls) == 1

    def test_switched_off(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """GAMESOLVER_NATIVE=0 makes the game offer no compiled search."""
        monkeypatch.setenv("GAMESOLVER_NATIVE", "0")
        assert GAME.compiled_search(SearchRequest(depth=3), Limits(None, None)) is None

    def test_without_numba(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """When numba cannot be imported, the game offers none and search() still works."""
        monkeypatch.setitem(sys.modules, "numba", None)
        assert GAME.compiled_search(SearchRequest(depth=3), Limits(None, None)) is None
        assert search(GAME, depth=3).value == 0

    def test_calls_it_declines(self) -> None:
        """An oracle it cannot probe, or a search to the end with nothing to stop it."""
        limits = Limits(None, None)
        declined = [
            SearchRequest(oracle=lambda s: None),
            SearchRequest(),
            SearchRequest(depth=native_search.MAX_DEPTH + 1),
        ]
        for request in declined:
            assert native_search.compiled_search(GAME, request, limits) is None, request

    def test_a_tablebase_is_probed_inside(self, tablebase: Tablebase) -> None:
        """A tablebase, or its probe, as the oracle: served by the kernel with its levels."""
        limits = Limits(None, None)
        for oracle in (tablebase, tablebase.probe):
            found = native_search.compiled_search(
                GAME, SearchRequest(depth=3, oracle=oracle), limits
            )
            assert found is not None
            assert found.st[native_search.TB_MAX] == max(tablebase.levels)

    def test_cache_goes_to_the_user_cache_dir(
        self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
    ) -> None:
        """When the package folder is read-only, numba caches under $XDG_CACHE_HOME."""
        monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
        package = Path(native_jit.__file__).parent / "__pycache__"
        monkeypatch.setattr(jit_cache, "_writable", lambda folder: folder != package)
        monkeypatch.setattr(native_jit.numba.config, "CACHE_DIR", "")
        jit_cache.cache_directory.cache_clear()
        try:
            native_jit._point_cache()
            assert str(tmp_path / "gamesolver" / "numba") == native_jit.numba.config.CACHE_DIR
            assert native_jit.cache_directory() == tmp_path / "gamesolver" / "numba"
        finally:
            jit_cache.cache_directory.cache_clear()

    def test_compiling_is_said_once(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """The compile notice goes to stderr once per process, naming the cache."""
        monkeypatch.setattr(native_jit._CompileWatch, "compiles", 0)
        notice = native_jit._CompileWatch()
        notice.on_start(None)
        notice.on_start(None)
        err = capsys.readouterr().err
        assert err.count("compiling") == 1
        assert str(native_jit.cache_directory()) in err


_SECOND_PROCESS = """
import numba.core.base
refreshes = []
real = numba.core.base.BaseContext.refresh
numba.core.base.BaseContext.refresh = lambda self: (refreshes.append(1), real(self))[1]
from games.ayoayo import Ayoayo
from solver.engine import search
game = Ayoayo()
result = search(game, game.initial_state(), depth=6)
print(len(refreshes), numba.core.runtime.rtsys._init, result.value, result.pv)
"""


def _python(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """A fresh interpreter in the repository with ``argv``; it must succeed (its stderr shown)."""
    done = subprocess.run(
        [sys.executable, *argv], cwd=REPO_ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done


_AFTER_THE_COMPILE_STEP = """
import tempfile
from games.ayoayo import Ayoayo
from solver.engine import search
game = Ayoayo()
with tempfile.TemporaryDirectory() as d:
    tablebase = game.tablebase(d)
    tablebase.build(8)
    tablebase.refresh()
    state = game.parse_state("[[2,1,0,3,1,1],[1,0,2,0,2,3]] captured 16,16")
    print(search(game, state, depth=6, oracle=tablebase).value)
    print(search(game, game.initial_state(), time_limit=0.2).depth)
"""


class TestStartUp:
    """A second process loads the cached search without readying numba's compiler."""

    @pytest.mark.slow
    def test_one_compile_step_then_never_again(self, tmp_path: Path) -> None:
        """`gamesolver compile ayoayo` on an empty cache compiles every group; searches with
        tablebases and a level build in a later process compile nothing. (Ayòayò's alone:
        Connect Four's compiled route, a third of a plain `compile`, plays no part here.)"""
        env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"))
        env.pop("GAMESOLVER_NATIVE", None)
        first = _python("-m", "zerosum", "compile", "ayoayo", env=env)
        assert "compiling the Ayòayò kernel" in first.stderr
        assert "compiled the Ayòayò kernel in" in first.stderr
        assert "ayoayo: compiled in" in first.stdout
        later = _python("-c", _AFTER_THE_COMPILE_STEP, env=env)
        assert "compil" not in later.stderr, later.stderr
        assert len(later.stdout.split()) == 2

    def test_a_second_process_loads_without_refreshing_numba(self) -> None:
        """No registry refresh and no runtime set up; the same answer as in this process."""
        here = _native(GAME.initial_state(), depth=6)  # compiled or loaded: on disk now
        done = _python("-c", _SECOND_PROCESS)
        refreshes, runtime, value, pv = done.stdout.split(" ", 3)
        assert (refreshes, runtime) == ("0", "False"), done.stderr
        assert (int(value), pv.strip()) == (here.value, str(here.pv))

    @pytest.mark.slow
    def test_numbas_debugging_switch_still_runs_the_kernels(self) -> None:
        """Under NUMBA_DISABLE_JIT=1 the kernels run as plain Python, with the same answer."""
        code = "from games.ayoayo import Ayoayo; from solver.engine import search; "
        code += "g = Ayoayo(); print(search(g, g.initial_state(), depth=3).pv)"
        done = _python("-W", "ignore", "-c", code, env=dict(os.environ, NUMBA_DISABLE_JIT="1"))
        assert done.stdout.strip() == str(_native(GAME.initial_state(), depth=3).pv)

    def test_a_failed_light_load_falls_back_to_numbas(self) -> None:
        """When the light load raises, numba's regular load (with its refresh) answers."""
        board = native_rules.board_array(GAME.initial_state())
        table = np.zeros((8, 3), np.int64)
        hint = native_search._hint
        assert hint(table, board) == -1  # compiled or loaded: on disk now
        cache = native_jit._CachedKernel(hint.py_func, runtime=False)
        real = cache._load_overload
        calls: list[int] = []

        def flaky(sig: Any, target_context: Any) -> Any:
            calls.append(1)
            if len(calls) == 1:
                raise RuntimeError("a numba whose internals changed")
            return real(sig, target_context)

        cache._load_overload = flaky  # type: ignore[method-assign]
        loaded = cache.load_overload(hint.signatures[0], hint.targetctx)
        assert loaded is not None
        assert len(calls) == 2


class TestTablebaseLevels:
    """The compiled moves and values of a level equal the pure ones: the same bytes on disk."""

    @pytest.mark.parametrize(
        ("seeds", "start", "stop"), [(4, 0, None), (8, 0, None), (12, 0, 4000)]
    )
    def test_the_same_arrays(self, seeds: int, start: int, stop: int | None) -> None:
        """child ranks and gains agree board by board."""
        fast = native_tablebase.level_moves(seeds, start, stop)
        pure = tablebase_moves.level_moves(seeds, start, stop)
        assert (fast.seeds, fast.start, fast.stop) == (pure.seeds, pure.start, pure.stop)
        for name in ("child", "gain_mover", "gain_opponent"):
            mine, theirs = getattr(fast, name), getattr(pure, name)
            assert mine.dtype == theirs.dtype and np.array_equal(mine, theirs), name

    def test_a_block_in_the_middle(self) -> None:
        """A block that starts anywhere in the level equals the same block of the pure path."""
        fast = native_tablebase.level_moves(12, 777_777, 779_000)
        pure = tablebase_moves.level_moves(12, 777_777, 779_000)
        assert np.array_equal(fast.child, pure.child)
        assert np.array_equal(fast.gain_opponent, pure.gain_opponent)

    @pytest.mark.parametrize("seeds", [4, pytest.param(8, marks=pytest.mark.slow)])
    def test_levels_built_both_ways_are_the_same_bytes(
        self, tmp_path: Path, seeds: int, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Levels built on the kernel (moves, values, distances) equal the pure build's bytes."""
        pure_dir, fast_dir = tmp_path / "pure", tmp_path / "fast"
        tablebase_build.build(seeds, fast_dir, kernel=native_tablebase.KERNEL, block=5000)
        tablebase_build.build(seeds, pure_dir)  # moves by the rules, values by solver.retrograde
        for n in range(0, seeds + 1, 4):
            for kind in (VALUES, DISTANCES):
                name = level_path(pure_dir, n, kind).name
                assert (pure_dir / name).read_bytes() == (fast_dir / name).read_bytes(), name

    def test_the_tablebase_builds_on_the_kernel(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Tablebase.build uses the compiled builder, and the pure one when switched off."""
        used: list[str] = []
        real = tablebase_build.build

        def spy(*args: Any, **kwargs: Any) -> Any:
            kernel = kwargs["kernel"] or tablebase_build.PURE
            used.append(kernel.moves.__module__)
            used.append(kernel.solve.__module__)
            return real(*args, **kwargs)

        monkeypatch.setattr(tablebase_build, "build", spy)
        GAME.tablebase(tmp_path / "a").build(4)
        monkeypatch.setenv("GAMESOLVER_NATIVE", "0")
        GAME.tablebase(tmp_path / "b").build(4)
        assert used == [
            "games.ayoayo.native_tablebase",
            "games.ayoayo.native_tablebase",
            "games.ayoayo.tablebase_moves",
            "games.ayoayo.tablebase_build",
        ]


@pytest.mark.slow
class TestPurePython:
    """The engine's and the Ayòayò tests pass again with the kernel switched off."""

    @pytest.mark.parametrize(
        "module",
        [
            "tests/solver/test_engine.py",
            "tests/games/test_ayoayo.py",
            "tests/games/test_tablebase.py",
        ],
    )
    def test_engine_and_ayoayo_tests_without_the_kernel(self, module: str) -> None:
        """A sample run under GAMESOLVER_NATIVE=0, a module a test (so that parallel runs
        share them out: the three in one took a minute or more)."""
        env = dict(os.environ, GAMESOLVER_NATIVE="0")
        sample = [module, "-k", "yoayo or Tablebase or Probe or Build", "-m", "not slow"]
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *sample],
            cwd=REPO_ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stdout[-3000:]
