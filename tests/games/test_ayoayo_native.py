"""Ayòayò's compiled kernels other than the node search against the readable rules: the
rules over arrays, the tablebase builder, the compile cache and its start-up, and the pure
Python paths with the kernels switched off (the node search, the compiled route's, is held to
the Python engine in ``test_ayoayo_route``).

Positions come from the reference's recorded games (``tests/data``), from seeded random
playouts and from seeded random endgames; the helpers that draw them serve both modules.
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
from typing import Any

import numpy as np
import pytest

from games.ayoayo import Ayoayo, AyoayoState, jit_cache, tablebase_build, tablebase_moves
from games.ayoayo.tablebase_files import DISTANCES, VALUES, level_path
from solver.engine import search
from solver.game import InvalidStateError

native_rules = pytest.importorskip("games.ayoayo.native_rules", reason="numba is not installed")
native_jit = pytest.importorskip("games.ayoayo.native_jit")
native_probe = pytest.importorskip("games.ayoayo.native_probe")
native_tablebase = pytest.importorskip("games.ayoayo.native_tablebase")

REPO_ROOT = Path(__file__).resolve().parents[2]
PLAYOUTS = REPO_ROOT / "tests" / "data" / "ayoayo_playouts_subset.jsonl.gz"
GAME = Ayoayo()


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


class TestCompileCache:
    """numba's cache of the kernels: where it lives, and the one notice of a compile."""

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
    """A second process loads the cached kernels without readying numba's compiler."""

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
        here = search(GAME, GAME.initial_state(), depth=6)  # compiled or loaded: on disk now
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
        assert done.stdout.strip() == str(search(GAME, GAME.initial_state(), depth=3).pv)

    def test_a_failed_light_load_falls_back_to_numbas(self) -> None:
        """When the light load raises, numba's regular load (with its refresh) answers."""
        board = native_rules.board_array(GAME.initial_state())
        words = native_probe.oracle_words(None)
        probe = native_probe.tablebase_value_at
        assert probe(board, words) == native_probe.NOT_COVERED  # compiled or loaded: on disk now
        cache = native_jit._CachedKernel(probe.py_func, runtime=False)
        real = cache._load_overload
        calls: list[int] = []

        def flaky(sig: Any, target_context: Any) -> Any:
            calls.append(1)
            if len(calls) == 1:
                raise RuntimeError("a numba whose internals changed")
            return real(sig, target_context)

        cache._load_overload = flaky  # type: ignore[method-assign]
        loaded = cache.load_overload(probe.signatures[0], probe.targetctx)
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
