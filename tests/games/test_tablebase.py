"""Ayòayò tablebases: levels agree with the rules, files are safe, probes are exact."""

from __future__ import annotations

import random
import struct
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import attrs
import numpy as np
import pytest

from games.ayoayo import Ayoayo, AyoayoState, tablebase_build
from games.ayoayo.tablebase import Tablebase, default_directory
from games.ayoayo.tablebase_build import PURE, LevelTooLargeError, build
from games.ayoayo.tablebase_files import (
    DISTANCES,
    HEADER_SIZE,
    VALUES,
    TablebaseFileError,
    level_path,
    read_level,
    write_level,
)
from games.ayoayo.tablebase_index import (
    board_count,
    boards,
    level_size,
    rank,
    splits,
    unrank,
    view_of,
)
from games.ayoayo.tablebase_moves import LevelMoves, level_moves
from solver.engine import search
from solver.solve import Solution, solve

GAME = Ayoayo(cache_size=0)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Levels 0, 4 and 8, built once for the module."""
    directory = tmp_path_factory.mktemp("tablebase")
    build(8, directory)
    return directory


@pytest.fixture(scope="module")
def table(built: Path) -> Tablebase:
    return Tablebase(built, game=Ayoayo())


@pytest.fixture(scope="module")
def graph_of_level_8() -> Solution:
    """solve() from one sampled position of level 8, once for the module. Its reachable graph
    holds most of what any position of the level reaches (each sampled root's graph has about
    93,400 positions, nearly all the same ones), so positions of level 8 sampled from it are
    answered by this one solve as by their own: a position's value, plies and endlessness
    depend on the positions it reaches only, all of them in this graph."""
    graph = solve(Ayoayo(), next(_positions(8, random.Random(39), 1)))
    assert len(graph) > 90_000
    return graph


def _sampled_from(graph: Solution, seeds: int, rng: random.Random, count: int) -> list[Any]:
    """``count`` positions of the graph with ``seeds`` on the board, not over, sampled."""
    found = [s for s in graph.states() if sum(s[:12]) == seeds and not GAME.is_terminal(s)]
    return rng.sample(found, count)


def replay_line(state: AyoayoState, moves: tuple[int, ...]) -> AyoayoState:
    """The position after ``moves`` from ``state``."""
    for move in moves:
        state = GAME.result(state, move)
    return state


def _state(view: tuple[int, ...], mover_captured: int, mover: int) -> AyoayoState:
    """The position with ``view`` seen from ``mover``, who has captured ``mover_captured``."""
    other = 48 - sum(view) - mover_captured
    caps = (mover_captured, other) if mover == 0 else (other, mover_captured)
    return tuple.__new__(AyoayoState, (*view_of(view, mover), *caps, mover))


def _positions(seeds: int, rng: random.Random | None, count: int) -> Iterator[AyoayoState]:
    """Every position of a level (rng None) or ``count`` sampled ones, either player to move."""
    total = board_count(seeds)
    if rng is None:
        for view in boards(seeds):
            for cm in splits(seeds):
                yield _state(view, cm, 0)
        return
    for _ in range(count):
        view = unrank(seeds, rng.randrange(total))
        yield _state(view, rng.choice(splits(seeds)), rng.randint(0, 1))


def _bellman(table: Tablebase, state: AyoayoState) -> int:
    """The value one ply deeper: the mover's best child (player 0's view), or the end score."""
    if GAME.is_terminal(state):
        return GAME.utility(state)
    children = table.action_values(state)
    assert children is not None
    best = max if state[14] == 0 else min
    return best(children.values())


class TestBellmanConsistency:
    """Every stored value is the mover's best over its moves, with the rules as the judge."""

    def test_every_position_of_level_4(self, table: Tablebase) -> None:
        """Level 4, all 2 730 positions, played through Ayoayo itself."""
        for state in _positions(4, None, 0):
            assert table.probe(state) == _bellman(table, state), GAME.format_state(state)

    def test_sampled_positions_of_level_8(self, table: Tablebase) -> None:
        """Level 8: 3 000 sampled positions with either player to move, through Ayoayo."""
        rng = random.Random(8)
        for state in _positions(8, rng, 3000):
            assert table.probe(state) == _bellman(table, state), GAME.format_state(state)

    @pytest.mark.parametrize("seeds", [4, 8])
    def test_every_position_vectorised(self, built: Path, seeds: int) -> None:
        """Every position of the level: value == max over moves of the move's value (arrays)."""
        values = read_level(level_path(built, seeds)).values.astype(np.int64)
        lower = {n: read_level(level_path(built, n)).values for n in range(0, seeds, 4)}
        moves = level_moves(seeds)
        rest = 48 - seeds
        for s, cm in enumerate(splits(seeds)):
            co = rest - cm
            best = np.full(board_count(seeds), -999, dtype=np.int64)
            for c in range(6):
                child = moves.child[:, c]
                legal = child >= 0
                gm = moves.gain_mover[:, c].astype(np.int64)
                go = moves.gain_opponent[:, c].astype(np.int64)
                left = seeds - gm - go
                mover, opp = cm + gm, co + go
                over = (left == 0) | (mover > 24) | (opp > 24)
                move_value = np.where(over, mover - opp, -999)
                for n in range(0, seeds + 1, 4):
                    pick = legal & ~over & (left == n)
                    table = values if n == seeds else lower[n].astype(np.int64)
                    row = (opp[pick] - splits(n)[0]) // 4
                    move_value[pick] = -table[row, child[pick]]
                best = np.where(legal, np.maximum(best, move_value), best)
            best[best == -999] = cm - co  # no move: the game is over
            assert np.array_equal(values[s], best)


class TestAgreesWithSolvingTheReachableGraph:
    """Tablebase values equal solve() on each sampled position's own reachable graph."""

    def test_sampled_positions_of_level_4(self, table: Tablebase) -> None:
        """Every state reachable from sampled roots has the value the tablebase stores."""
        rng = random.Random(5)
        for root in _positions(4, rng, 40):
            self._check(table, root, solve(Ayoayo(), root))

    @pytest.mark.slow
    def test_the_graph_of_a_position_of_level_8(
        self, table: Tablebase, graph_of_level_8: Solution
    ) -> None:
        """The same for the 94,000 positions a sampled position of level 8 reaches (two such
        roots, each solved, reached nearly the same positions twice)."""
        root = next(_positions(8, random.Random(39), 1))
        self._check(table, root, graph_of_level_8)

    @staticmethod
    def _check(table: Tablebase, root: AyoayoState, solution: Solution) -> None:
        for state, record in solution:
            assert table.probe(state) == record.value, GAME.format_state(state)
        assert set(solution.best_actions(root)) == set(table.best_actions(root) or ())


class TestAnswersSayHowAsSolveDoes:
    """A tablebase answer's plies to the end and endless moves equal solve()'s, move by move."""

    def _check(self, table: Tablebase, root: AyoayoState, solution: Solution) -> int:
        answer = search(GAME, root, oracle=table, all_values=True, lines=True)
        assert answer.source == "oracle" and answer.exact
        where = GAME.format_state(root)
        assert answer.action_lines[answer.best_action].moves == answer.pv
        for action, line in answer.action_lines.items():  # every move: the guide's play
            assert line.moves[0] == action
            if action in answer.endless_actions:
                assert line.end.kind == "repeat", (where, action)
            else:
                assert line.end.kind == "end", (where, action)
                assert len(line.moves) == answer.action_plies[action], (where, action)
                end = replay_line(root, line.moves)
                assert GAME.utility(end) == answer.action_values[action], (where, action)
        for action in answer.best_actions:
            child = GAME.result(root, action)
            endless = not GAME.is_terminal(child) and solution.endless(child)
            assert (action in answer.endless_actions) == endless, (where, action)
            if not endless:
                plies = 0 if GAME.is_terminal(child) else solution.plies(child)
                assert answer.action_plies[action] == 1 + plies, (where, action)  # type: ignore[operator]
        assert answer.pv_end is not None
        kind = "repeat" if answer.best_action in answer.endless_actions else "end"
        assert answer.pv_end.kind == kind, where
        if kind == "end":
            assert len(answer.pv) == answer.plies, where
        return len(answer.best_actions)

    def test_sampled_positions_of_level_4(self, table: Tablebase) -> None:
        """Sampled covered positions: each optimal move ends in solve's plies, or is endless."""
        rng = random.Random(35)
        checked = 0
        for root in _positions(4, rng, 40):
            if not GAME.is_terminal(root):
                checked += self._check(table, root, solve(Ayoayo(), root))
        assert checked >= 40

    def test_sampled_positions_of_level_8(
        self, table: Tablebase, graph_of_level_8: Solution
    ) -> None:
        """The same, on forty positions of level 8 sampled from one solve's graph (each root
        solved on its own took two seconds, for the same answers)."""
        roots = _sampled_from(graph_of_level_8, 8, random.Random(39), 40)
        checked = sum(self._check(table, root, graph_of_level_8) for root in roots)
        assert checked >= 40

    def test_a_draw_that_ends_is_not_called_endless(
        self, table: Tablebase, graph_of_level_8: Solution
    ) -> None:
        """Level with endless play (a draw at 20-20), both sides take the quickest
        value-keeping end, as the build's distances and solve() have it: the first
        value-keeping move used to be played there, and after move 1 it circled."""
        root = GAME.parse_state("[[0,1,0,1,1,0],[1,2,0,0,1,1]] captured 20,20 to-move 0")
        assert graph_of_level_8.plies(GAME.result(root, 1)) == 7
        self._check(table, root, graph_of_level_8)


class TestPreferredPlay:
    """Playing preferred_action on both sides turns the stored value into the game's result."""

    @pytest.mark.parametrize("seeds", [4, 8])
    def test_playouts_reach_the_value(self, table: Tablebase, seeds: int) -> None:
        """Each game ends with the stored value, or repeats only where endless play scores it."""
        rng = random.Random(seeds + 7)
        for root in _positions(seeds, rng, 150):
            value = table.probe(root)
            state, seen = root, {root}
            while not GAME.is_terminal(state):
                action = table.preferred_action(state)
                assert action is not None
                state = GAME.result(state, action)
                if state in seen:
                    assert GAME.endless_value(state) == value, GAME.format_state(root)
                    break
                seen.add(state)
            else:
                assert GAME.utility(state) == value, GAME.format_state(root)

    def test_distances_count_down(self, table: Tablebase) -> None:
        """Ahead of endless play, the preferred in-level move leads one ply closer to the exit."""
        rng = random.Random(9)
        checked = 0
        for state in _positions(8, rng, 400):
            distance = table.distance(state)
            value = table.probe(state)
            p = state[14]
            ahead = (value if p == 0 else -value) - (state[12 + p] - state[13 - p])  # type: ignore[operator]
            if distance is None or ahead <= 0 or distance < 2:
                continue
            child = GAME.result(state, table.preferred_action(state))  # type: ignore[arg-type]
            assert table.distance(child) == distance - 1
            checked += 1
        assert checked > 0


class TestProbe:
    """probe answers for covered positions from either side and declines the rest."""

    def test_turned_positions_have_opposite_values(self, table: Tablebase) -> None:
        """The same position seen from the other side has the opposite value."""
        rng = random.Random(1)
        for state in _positions(8, rng, 500):
            turned = tuple.__new__(
                AyoayoState, (*view_of(state[:12], 1), state[13], state[12], 1 - state[14])
            )
            assert table.probe(turned) == -table.probe(state)  # type: ignore[operator]

    def test_uncovered_positions(self, table: Tablebase) -> None:
        """Levels not built, odd captured counts and the opening are not covered."""
        assert table.probe(GAME.initial_state()) is None
        twelve = GAME.state_from([[1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1]], (16, 20))
        assert table.probe(twelve) is None
        odd = GAME.state_from([[0, 0, 0, 0, 0, 3], [0, 0, 0, 0, 0, 1]], (21, 23))
        assert table.probe(odd) is None and table.best_actions(odd) is None

    def test_finished_games_by_more_than_24(self, table: Tablebase) -> None:
        """A player past 24 has won: the value is the captured difference."""
        state = GAME.state_from([[0, 0, 0, 0, 0, 3], [0, 0, 0, 0, 0, 1]], (28, 16))
        assert table.probe(state) == 12

    def test_best_actions_keep_the_value(self, table: Tablebase) -> None:
        """Best actions are exactly the legal moves whose child has the position's value."""
        rng = random.Random(2)
        for state in _positions(8, rng, 300):
            best = table.best_actions(state)
            assert best is not None
            children = table.action_values(state)
            assert children is not None
            assert set(best) == {a for a, v in children.items() if v == table.probe(state)}
            assert bool(best) == bool(GAME.actions(state))

    def test_levels_present(self, table: Tablebase) -> None:
        """The levels are those built."""
        assert table.levels == (0, 4, 8)


class TestFiles:
    """Level files carry a checked header and are written atomically."""

    def test_header(self, built: Path) -> None:
        """The header names the format, rules, level, shape and lineage; the size matches."""
        raw = level_path(built, 8).read_bytes()
        fields = struct.unpack_from("<8sIIIIQIII", raw)
        magic, fmt, rules, seeds, n_splits, n_boards, _, built_on, _ = fields
        assert (magic, fmt, rules, seeds) == (b"AYOAYOTB", 2, 1, 8)
        assert (n_splits, n_boards) == (3, board_count(8))
        assert len(raw) == HEADER_SIZE + level_size(8)
        assert built_on == struct.unpack_from("<I", level_path(built, 4).read_bytes(), 40)[0]

    @pytest.mark.parametrize(
        ("damage", "message"),
        [
            (lambda raw: raw[:-1], "holds"),
            (lambda raw: raw[:HEADER_SIZE] + bytes([raw[HEADER_SIZE] ^ 1]) + raw[65:], "checksum"),
            (lambda raw: raw[:8] + struct.pack("<I", 99) + raw[12:], "format version 99"),
            (lambda raw: b"NOTATB!!" + raw[8:], "not an Ayòayò tablebase"),
        ],
    )
    def test_damaged_files_are_refused(
        self, built: Path, tmp_path: Path, damage: object, message: str
    ) -> None:
        """A truncated, corrupt or foreign file raises TablebaseFileError and is not used."""
        raw = level_path(built, 4).read_bytes()
        bad = level_path(tmp_path, 4)
        bad.write_bytes(damage(raw))  # type: ignore[operator]
        with pytest.raises(TablebaseFileError, match=message):
            read_level(bad)
        assert Tablebase(tmp_path).levels == ()

    def test_a_level_under_another_levels_name_is_refused(
        self, built: Path, tmp_path: Path
    ) -> None:
        """Level 8's files copied as level 4's: refused by name, never probed, rebuilt; level
        8 waits for its level 4 and is kept once level 4 comes out the same."""
        for n in (0, 8):
            for kind in (VALUES, DISTANCES):
                source = level_path(built, n, kind)
                (tmp_path / source.name).write_bytes(source.read_bytes())
        for kind in (VALUES, DISTANCES):
            level_path(tmp_path, 4, kind).write_bytes(level_path(built, 8, kind).read_bytes())
        with pytest.raises(TablebaseFileError, match="holds level 8, not level 4"):
            read_level(level_path(tmp_path, 4), seeds=4)
        swapped = Tablebase(tmp_path)
        assert swapped.levels == (0,)
        status = {row["seeds"]: row["status"] for row in swapped.info()}
        assert status[0] == "ok" and "holds level 8, not level 4" in status[4]
        assert "built on level 4, which is refused" in status[8]
        state = GAME.state_from([[0, 0, 0, 0, 1, 2], [1, 0, 0, 0, 0, 0]], captured=(24, 20))
        assert swapped.probe(state) is None and swapped.distance(state) is None
        reports = build(8, tmp_path)  # the wrong level 4 is built again; level 8 kept
        assert [r.built for r in reports] == [0, 1, 0]
        for kind in (VALUES, DISTANCES):
            assert (
                level_path(tmp_path, 4, kind).read_bytes()
                == level_path(built, 4, kind).read_bytes()
            )
        assert Tablebase(tmp_path).levels == (0, 4, 8)

    def test_wrong_shape_is_refused(self, tmp_path: Path) -> None:
        """write_level checks the array it is given."""
        with pytest.raises(ValueError, match=r"int8 of shape \(2, 1365\)"):
            write_level(tmp_path, 4, np.zeros((1, 1365), dtype=np.int8))


class TestBuild:
    """Builds resume per level, survive interruption and do not depend on the executor."""

    def test_resumes_without_recomputing(self, built: Path, tmp_path: Path) -> None:
        """Present levels are read, not rebuilt; only the missing one is built."""
        for n in (0, 4):
            for kind in (VALUES, DISTANCES):
                source = level_path(built, n, kind)
                (tmp_path / source.name).write_bytes(source.read_bytes())
        calls: list[int] = []

        def counting(seeds: int, start: int, stop: int) -> LevelMoves:
            calls.append(seeds)
            return level_moves(seeds, start, stop)

        reports = build(8, tmp_path, kernel=attrs.evolve(PURE, moves=counting))
        assert [r.built for r in reports] == [0, 0, 1] and set(calls) == {8}
        assert level_path(tmp_path, 8).read_bytes() == level_path(built, 8).read_bytes()

    def test_a_level_too_large_for_the_memory_is_refused_before_it_starts(
        self, built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A level that would not fit is refused before it is started, naming what fits (the
        levels below it copied in, not built again)."""
        (tmp_path / "tb").mkdir()
        for n in (0, 4, 8):
            for kind in (VALUES, DISTANCES):
                source = level_path(built, n, kind)
                (tmp_path / "tb" / source.name).write_bytes(source.read_bytes())
        monkeypatch.setattr(tablebase_build, "available_memory", lambda: 100_000_000)
        with pytest.raises(LevelTooLargeError, match=r"level 12 needs about 1\.22 GB") as e:
            build(12, tmp_path / "tb")
        assert "up to --seeds 8 here" in str(e.value)
        assert not level_path(tmp_path / "tb", 12).exists()

    def test_available_memory_is_found(self) -> None:
        """This machine's available memory is read and positive."""
        have = tablebase_build.available_memory()
        assert have is not None and have > 0

    def test_interrupted_level_leaves_nothing(self, tmp_path: Path) -> None:
        """Ctrl-C during a level leaves the lower levels whole and no file of that level."""

        def interrupted(seeds: int, start: int, stop: int) -> LevelMoves:
            if seeds == 8 and start > 0:
                raise KeyboardInterrupt
            return level_moves(seeds, start, stop)

        with pytest.raises(KeyboardInterrupt):
            build(8, tmp_path, kernel=attrs.evolve(PURE, moves=interrupted), block=4096)
        names = sorted(p.name for p in tmp_path.iterdir() if p.suffix in (".tb", ".dist"))
        assert names == ["ayoayo-00.dist", "ayoayo-00.tb", "ayoayo-04.dist", "ayoayo-04.tb"]

    @pytest.mark.slow
    def test_executors_give_the_same_bytes(self, built: Path, tmp_path: Path) -> None:
        """Threads, processes and small blocks build byte-identical levels."""
        with ThreadPoolExecutor(2) as threads:
            build(8, tmp_path / "threads", executor=threads, block=10_000)
        with ProcessPoolExecutor(2) as processes:
            build(4, tmp_path / "processes", executor=processes, block=100)
        for n in (0, 4, 8):
            assert (tmp_path / "threads" / level_path(built, n).name).read_bytes() == (
                level_path(built, n).read_bytes()
            )
        assert (tmp_path / "processes" / "ayoayo-04.tb").read_bytes() == (
            level_path(built, 4).read_bytes()
        )


class TestDefaultDirectory:
    """The default directory follows GAMESOLVER_TABLEBASE_DIR, then XDG_CACHE_HOME, then ~."""

    def test_order(self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
        """Each variable wins over the next."""
        monkeypatch.setenv("GAMESOLVER_TABLEBASE_DIR", str(tmp_path / "tb"))
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
        assert default_directory() == tmp_path / "tb"
        monkeypatch.delenv("GAMESOLVER_TABLEBASE_DIR")
        assert default_directory() == tmp_path / "cache" / "gamesolver" / "tablebases"
        monkeypatch.delenv("XDG_CACHE_HOME")
        monkeypatch.setenv("HOME", str(tmp_path))
        assert default_directory() == tmp_path / ".cache" / "gamesolver" / "tablebases"


def test_rank_of_a_probe_matches_the_index() -> None:
    """probe reads the position at split * boards + rank (a spot check of the layout)."""
    view = (0, 0, 0, 0, 1, 2, 1, 0, 0, 0, 0, 0)
    assert rank(view) == rank(view_of(view_of(view, 1), 1))
